#!/bin/bash
# boot.sh ARCH [VARIANT]: boot the built kernel under QEMU (TCG, 2 vCPUs
# or arches/ARCH.env's QEMU_SMP, no network), run the guest suites and
# write build/results/ARCH.tap.
#   SUITES=a,b     only these guest suites (default: all)
#   FTRACETEST=d,e ftracetest directories (default: direct,ftrace)
#   BPF_SELFTESTS=a,b  test_progs tests of the bpf-selftests suite
#                  (default: guest/suites/t-bpf-selftests.sh's list)
#   TIMEOUT=S      kill the guest after S seconds (default 3000: a cold
#                  make check's riscv64 guest, sharing the two host CPUs
#                  with the x86_64 and arm64 builds, took 1944 s with the
#                  BPF selftests)
#   VERBOSE=1      show the guest's diagnostic lines too, as they come
#   RESULT_NAME=N  results as build/results/N.tap (default: ARCH[-VARIANT])
#   QEMU_GDB=PORT  the guest waits, stopped, for a debugger on that local
#                  TCP port (make icount)
#   QEMU_OPTS=...  more QEMU options (make check-preempt: -singlestep)
#   QEMU_CPU=M     the guest's CPU model instead of the one QEMU_ARGS
#                  names (make check-distro: which mitigations a
#                  distribution kernel picks depends on it)
#   CONSOLE_EXPECT=RE  the console must match this extended regexp
#                  (console:expected): a run set up to take a path
#                  says it took it
#   BOOT_QUIET=S   a guest whose console stays silent for S seconds before
#                  its runner has written anything (default 600: the
#                  longest silence of a booting lab kernel is a built-in
#                  KUnit storm's, 240 s at most) is hung: QEMU's registers
#                  go to build/results/TAG.hang and it boots once more
#   STALL_QUIET=S  a guest whose results and console both stay silent for
#                  S seconds after its first result (default 900) is
#                  stopped: its registers go to build/results/TAG.hang
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
tag=${RESULT_NAME:-$ARCH_NAME${variant:+-$variant}}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
mkdir -p "$RESULTS"
raw=$RESULTS/$tag.raw
console=$RESULTS/$tag.console
tap=$RESULTS/$tag.tap
rm -f "$raw" "$console" "$tap"
: >"$raw"

# Under TCG, enabling a tracer on every function patches all sites in one
# pass without a reschedule point, and this kernel is not preemptible:
# func_profiler.tc held a CPU beyond the default 21 s RCU stall limit on
# x86_64 and riscv64. A real stall still reports, at 90 s.
append="console=$CONSOLE panic=-1 lab.arch=$ARCH_NAME rcupdate.rcu_cpu_stall_timeout=90"
# the results' prefix, the same for the guest's results and the host's:
# ARCH, or the run's name (x86_64-debug, arm64-cfi, riscv64-preempt)
[ "$tag" = "$ARCH_NAME" ] || append="$append lab.name=$tag"
append="$append${CALL_REACH_MIB:+ lab.reach_mib=$CALL_REACH_MIB}"
append="$append${BPF_TRAMP_PATH:+ lab.bpf_path=$BPF_TRAMP_PATH}"
append="$append${KUNIT_SUITES:+ lab.kunit=$KUNIT_SUITES}"
append="$append${ARCH_KERNEL_ARGS:+ $ARCH_KERNEL_ARGS}${KERNEL_ARGS:+ $KERNEL_ARGS}"
[ -n "${SUITES:-}" ] && append="$append lab.suites=$SUITES"
[ -n "${FTRACETEST:-}" ] && append="$append lab.ftracetest=$FTRACETEST"
[ -n "${BPF_SELFTESTS:-}" ] && append="$append lab.bpf_selftests=$BPF_SELFTESTS"

if [ -n "${QEMU_CPU:-}" ]; then
	QEMU_ARGS=$(echo "$QEMU_ARGS" | sed -E "s/-cpu [^ ]+/-cpu $QEMU_CPU/")
	case " $QEMU_ARGS " in *" -cpu $QEMU_CPU "*) ;; *) QEMU_ARGS="$QEMU_ARGS -cpu $QEMU_CPU" ;; esac
fi
step "boot $tag: $QEMU $QEMU_ARGS (TCG, $QEMU_SMP vCPUs)"
start=$(date +%s)
# QEMU's monitor on two FIFOs (mon.in, mon.out), asked for the registers
# of a guest that hangs.
mon=$RESULTS/$tag.mon
launch() {
	rm -f "$mon.in" "$mon.out"
	mkfifo "$mon.in" "$mon.out"
	# shellcheck disable=SC2086 # QEMU_ARGS holds several words
	timeout "${TIMEOUT:-3000}" "$QEMU" $QEMU_ARGS ${QEMU_OPTS:-} -accel "$QEMU_ACCEL" -smp "$QEMU_SMP" -m 1024 \
		-nodefaults -display none -no-reboot \
		-kernel "$OUT/$KIMAGE" -initrd "$OUT/initramfs.cpio" -append "$append" \
		-serial "file:$console" -monitor "pipe:$mon" \
		-chardev "file,id=ktap,path=$raw" -device "$VIRTIO_SERIAL" \
		-device virtserialport,chardev=ktap,name=lab.ktap \
		${QEMU_GDB:+-gdb tcp:127.0.0.1:$QEMU_GDB -S} &
	qpid=$!
}
# hung: true when the guest has written no result yet and its console
# has been silent for BOOT_QUIET seconds (never while a debugger holds it)
hung() {
	[ "$seen" = 0 ] && [ -z "${QEMU_GDB:-}" ] && [ -e "$console" ] &&
		[ $(( $(date +%s) - $(stat -c %Y "$console") )) -ge "${BOOT_QUIET:-600}" ]
}
# stalled: true when the guest has written results but neither they nor
# its console have changed for STALL_QUIET seconds (default 900: the
# longest silence of a console in a make check is 302 s, x86_64's KUnit
# storms before any result, and a suite writes a result at least every
# few minutes). A kernel whose CPUs all spin with interrupts off, or wait
# for a timer that never comes, reports nothing: the riscv64 guest of a
# CI run stopped in the hotplug hazard with its last line at 901 s and
# was killed at 3000 s, leaving only its console.
stalled() {
	local now
	now=$(date +%s)
	[ "$seen" -gt 0 ] && [ -z "${QEMU_GDB:-}" ] &&
		[ $((now - $(stat -c %Y "$console"))) -ge "${STALL_QUIET:-900}" ] &&
		[ $((now - $(stat -c %Y "$raw"))) -ge "${STALL_QUIET:-900}" ]
}
# where_pcs FILE: each program counter QEMU printed in FILE (riscv "pc",
# x86 "RIP=", arm64 "PC=", mips "pc=", s390x the PSW's "addr") and
# riscv's return address, with the kernel symbol each falls in if it is
# in the kernel image and the kernel has no KASLR (System.map's addresses
# are fixed-width hex, so they compare as strings)
where_pcs() {
	local l a what sym map=$OUT/System.map
	# with KASLR the kernel runs elsewhere than System.map says
	! grep -qs '^CONFIG_RANDOMIZE_BASE=y' "$OUT/.config" || map=/dev/null
	grep -ioE '(^ *pc[ =]+(0x)?|RIP=|PC=|PSW=mask [0-9a-f]+ addr |x1/ra +)[0-9a-f]{8,16}' "$1" | while read -r l; do
		what=pc
		case $l in x1/ra*) what=ra ;; esac
		a=$(printf '%016x' "$((16#$(echo "$l" | grep -oiE '[0-9a-f]{8,16}$')))")
		sym=$(awk -v a="$a" '$3 == "_text" { in_kernel = $1 <= a } $3 == "_end" && $1 <= a { in_kernel = 0 }
			length($1) == 16 && $1 <= a { s = $1 " " $3 } END { if (in_kernel) print s }' \
			"$map" 2>/dev/null)
		if [ -n "$sym" ]; then
			echo "# $what $a ${sym#* }+0x$(printf '%x' "$((16#$a - 16#${sym%% *}))")"
		else
			echo "# $what $a"
		fi
	done
}
# save_hang WHY: what a hung guest leaves for whoever looks into it: the
# registers of every vCPU (monitor echo and terminal codes stripped),
# where their program counters were and the console's tail, in
# build/results/TAG.hang.
save_hang() {
	echo 'info registers -a' >"$mon.in"
	sleep 2
	timeout 5 cat "$mon.out" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | grep -v '^(qemu)' >"$RESULTS/$tag.regs" || true
	{
		echo "# boot $tag: $1"
		where_pcs "$RESULTS/$tag.regs"
		cat "$RESULTS/$tag.regs"
		echo "# console tail"
		tail -n 25 "$console"
	} >"$RESULTS/$tag.hang"
	rm -f "$RESULTS/$tag.regs"
	warn "boot $tag: $1 (build/results/$tag.hang)"
}
rm -f "$RESULTS/$tag.hang"
launch
seen=0 boots=1 rehung= stall=
show_new() {
	local n
	n=$(wc -l <"$raw")
	[ "$n" -gt "$seen" ] || return 0
	if [ -n "${VERBOSE:-}" ]; then
		sed -n "$((seen + 1)),${n}p" "$raw" | grep -vE '^(KTAP|# lab: done)' | sed "s/^/    /" || true
	else
		sed -n "$((seen + 1)),${n}p" "$raw" | grep -E '^(not )?ok ' | sed "s/^/    /" || true
	fi
	seen=$n
}
while kill -0 "$qpid" 2>/dev/null; do
	sleep 2
	show_new
	if stalled; then
		stall=${STALL_QUIET:-900}
		save_hang "console and results silent for $stall s after the guest's last result"
		kill "$qpid"
		break
	fi
	hung || continue
	save_hang "console silent for ${BOOT_QUIET:-600} s, no result yet"
	kill "$qpid"
	wait "$qpid" || true
	if [ "$boots" = 2 ]; then
		rehung=1
		break
	fi
	# Once more: seen once in many boots (riscv64, at "smp: Bringing
	# up secondary CPUs" while two kernels built beside it), not
	# reproduced in 100 boots since; the first console is kept.
	cp "$console" "$RESULTS/$tag.hang.console"
	boots=2
	: >"$raw"
	launch
done
rc=0
wait "$qpid" || rc=$?
show_new
secs=$(( $(date +%s) - start ))

# What the run was, for judge.sh (and for judging it again later, after a
# known-failures edit: make judge NAME=TAG).
{
	printf 'ARCH=%q\nRC=%q\nBOOTS=%q\nREHUNG=%q\nSTALL=%q\nLIMIT=%q\nSECS=%q\nCONSOLE_EXPECT=%q\n' \
		"$ARCH_NAME" "$rc" "$boots" "$rehung" "$stall" "${TIMEOUT:-3000}" "$secs" "${CONSOLE_EXPECT:-}"
} >"$RESULTS/$tag.run"
rm -f "$mon.in" "$mon.out"
"$LAB/scripts/judge.sh" "$tag"
tap_counts "$tap"
# A failed run's console and results stay after the next run of the same
# name (build/results/failed/TAG-TIME.*): on 2026-12-01 a second make
# check overwrote the only console of a ppc64el Oops.
if [ "$FAIL" != 0 ]; then
	kept=$RESULTS/failed/$tag-$(date -u +%Y%m%dT%H%M%SZ)
	mkdir -p "$RESULTS/failed"
	cp "$console" "$kept.console"
	cp "$tap" "$kept.tap"
	note "kept: $kept.console"
fi
step "boot $tag: $PASS passed, $FAIL failed, $SKIP skipped in $secs s ($tap)"
[ "$FAIL" = 0 ]
