#!/bin/bash
# demo.sh [ARCH]: from a bare machine to a booted kernel showing a direct
# trampoline and the function tracer sharing one function, then a BPF
# fentry program counting hits.
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64}
start=$(date +%s)
"$LAB/scripts/deps.sh" "$arch"
"$LAB/scripts/tree.sh"
"$LAB/scripts/build.sh" "$arch"
SUITES=demo "$LAB/scripts/initramfs.sh" "$arch"
rc=0
RESULT_NAME=$arch-demo SUITES=demo VERBOSE=1 "$LAB/scripts/boot.sh" "$arch" || rc=$?
echo
echo "demo $arch: kernel $(cat "$BUILD/out/$arch/include/config/kernel.release")," \
	"series of $(grep -c '^[0-9]' "$LAB/patches/series" 2>/dev/null || true) patches," \
	"$(( $(date +%s) - start )) s"
"$LAB/scripts/summary.sh" "$(( $(date +%s) - start ))" "$arch-demo"
exit $rc
