#!/bin/bash
# check-debug.sh [ARCH...]: each architecture built again with
# configs/debug.config (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST,
# kmemleak) into build/out/ARCH-debug, booted, the guest suites run and
# then the leaks scan; any report on a console fails that run. Default:
# x86_64 arm64. The last line is the total over all.
#
# All kernels are built first and the guests then boot one after the
# other, so that no guest shares the two host CPUs with a build.
#
# x86_64 boots with acpi=noirq: on the debug kernel the AML interpreter
# is slow enough that QEMU's _PRT method hit ACPI's 30 s loop timeout,
# leaving the virtio port without an interrupt (no results at all). PCI
# interrupts then come from the PIRQ table; CPUs still from ACPI's MADT.
#
# Under these kernels the suites run 10 to 25 times slower than in make
# check. Left out here, and run by make check on the same code: the
# orders suite (3 minutes on arm64 in make check), ftracetest's ftrace/
# directory and direct/ftrace-direct.tc, whose cases trace every function
# of the kernel (ftrace-direct.tc did not finish in 600 s on arm64).
. "$(dirname "$0")/lib.sh"

arches=${*:-x86_64 arm64}
start=$(date +%s)
"$LAB/scripts/deps.sh" $arches
"$LAB/scripts/tree.sh"
mkdir -p "$RESULTS"
suites=${SUITES:-startup,kunit,ftracetest,samples,sharing,bpf,leaks}
names=
booted=
for a in $arches; do
	names="$names $a-debug"
	rm -f "$RESULTS/$a-debug.tap"
	if ! "$LAB/scripts/build.sh" "$a" debug ||
	   ! SUITES=$suites "$LAB/scripts/initramfs.sh" "$a" debug; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s-debug:build\n# see build/logs/\n' "$a" \
			>"$RESULTS/$a-debug.tap"
		continue
	fi
	booted="$booted $a"
done
# The shared KUnit storm swaps 200 times instead of make check's 1000
# where the suite is built in (a module's suite never sees parameters on
# 6.1: see guest/t-kunit.sh).
for a in $booted; do
	args="lab.ftracetest=direct/kprobe-direct.tc"
	args="$args ftrace_direct_kunit.shared_storm_swaps=${STORM_SWAPS:-200}"
	[ "$a" = x86_64 ] && args="$args acpi=noirq"
	SUITES=$suites KERNEL_ARGS="$args" TIMEOUT=${TIMEOUT:-3600} \
		"$LAB/scripts/boot.sh" "$a" debug || true
done
# shellcheck disable=SC2086 # one name per word
"$LAB/scripts/summary.sh" "$(( $(date +%s) - start ))" $names
