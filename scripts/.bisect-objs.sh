#!/bin/bash
# scratch: compile the objects each touched patch changes, at that patch
set -u
cd "$(dirname "$0")/.."
. "$(dirname "$0")/lib.sh"
WT=/work/main/build/linux-bisect
[ -d $WT ] || git -C build/linux worktree add -f $WT lab >/dev/null 2>&1
check() { # ARCH SUBJECT-GREP OBJECTS...
	local arch=$1 pat=$2 sha out rc
	shift 2
	sha=$(git -C build/linux log --format='%H %s' lab-base..${REF:-lab} | grep -F "$pat" | head -1 | cut -d' ' -f1)
	git -C $WT checkout -q --detach $sha
	load_arch $arch; load_variant ""; ccache_env
	out=/work/main/build/out/bisect-$arch
	mkdir -p $out; cp ${CFG:-/work/main/build/out/$arch/.config} $out/.config
	SRC=$WT
	if kmake O=$out olddefconfig >/tmp/bis.log 2>&1 && kmake O=$out -j2 "$@" >>/tmp/bis.log 2>&1; then
		echo "ok   $arch at '$pat': $*"
	else
		echo "FAIL $arch at '$pat': $*"; grep -E "error|Error" /tmp/bis.log | head -5
	fi
}
if [ -n "${CFG:-}" ]; then
check riscv64 "riscv, bpf: Let BPF trampolines attach to BPF programs" arch/riscv/net/bpf_jit_comp64.o arch/riscv/kernel/patch.o arch/riscv/kernel/ftrace.o
check riscv64 "riscv: ftrace: Pass no ftrace_regs from ftrace_caller" arch/riscv/kernel/mcount-dyn.o arch/riscv/kernel/ftrace.o
check riscv64 "riscv: Align functions to 4 bytes" arch/riscv/kernel/ftrace.o
check riscv64 "riscv: ftrace: Call the ops function through ftrace_call_dest" arch/riscv/kernel/ftrace.o arch/riscv/kernel/mcount-dyn.o
exit 0
fi
check riscv64 "riscv: ftrace: Allow the function tracer on PREEMPT" arch/riscv/kernel/ftrace.o arch/riscv/kernel/mcount-dyn.o arch/riscv/kernel/traps.o arch/riscv/net/bpf_jit_comp64.o
