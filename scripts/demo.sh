#!/bin/bash
# demo.sh [ARCH]: from a bare machine to a booted kernel showing a direct
# trampoline and the function tracer sharing one function, then a BPF
# fentry program counting hits.
. "$(dirname "$0")/runner.sh"

arch=${1:-x86_64}
start=$(date +%s)
load_arch "$arch"
if [ ! -e "$OUT/$KIMAGE" ]; then
	step "demo $arch: a first run installs packages, fetches the kernel source and"
	note "builds a kernel from scratch: 10 to 20 minutes on two cores with an empty"
	note "ccache (5 to 15 for the kernel alone); later runs take about a minute."
fi
run_start "$arch"
run_t0=$start
SUITES=demo run_prepare "$arch-demo" "$arch" || { run_end; exit 1; }
# The demo boot skips what every lab kernel runs at boot and a newcomer
# did not ask for: the KUnit suite with its storms (kunit.filter_glob
# matches no suite) and the ftrace startup selftests (a trace_event= on
# the command line, even empty, disables them).
SUITES=demo VERBOSE=1 \
	KERNEL_ARGS="kunit.filter_glob=none trace_event=${KERNEL_ARGS:+ $KERNEL_ARGS}" \
	run_boot "$arch-demo" "$arch"
echo
echo "demo $arch: kernel $(cat "$BUILD/out/$arch/include/config/kernel.release")," \
	"series of $(grep -c '^[0-9]' "$LAB/patches/series" 2>/dev/null || true) patches," \
	"$(( $(date +%s) - start )) s"
run_end
