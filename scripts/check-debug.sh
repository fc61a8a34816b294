#!/bin/bash
# check-debug.sh [ARCH...]: each architecture built again with
# configs/debug.config (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST,
# kmemleak) into build/out/ARCH-debug, booted, every guest suite run and
# then the leaks scan; any report on a console fails that run. Default:
# x86_64 arm64. The last line is the total over all.
. "$(dirname "$0")/lib.sh"

arches=${*:-x86_64 arm64}
start=$(date +%s)
"$LAB/scripts/deps.sh" $arches
"$LAB/scripts/tree.sh"
mkdir -p "$RESULTS"
names=
pids=
for a in $arches; do
	names="$names $a-debug"
	rm -f "$RESULTS/$a-debug.tap"
	if ! "$LAB/scripts/build.sh" "$a" debug || ! "$LAB/scripts/initramfs.sh" "$a" debug; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s-debug:build\n# see build/logs/\n' "$a" \
			>"$RESULTS/$a-debug.tap"
		continue
	fi
	# Debug kernels run the same suites several times slower under TCG:
	# the shared KUnit storm swaps 200 times instead of 1000 (make check does
	# the 1000), so that the run stays within the hour.
	SUITES=startup,kunit,ftracetest,samples,sharing,orders,bpf,leaks \
		KERNEL_ARGS="ftrace_direct_kunit.shared_storm_swaps=${STORM_SWAPS:-200}" \
		TIMEOUT=${TIMEOUT:-3600} "$LAB/scripts/boot.sh" "$a" debug &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || true
done
# shellcheck disable=SC2086 # one name per word
"$LAB/scripts/summary.sh" "$(( $(date +%s) - start ))" $names
