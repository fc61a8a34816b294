#!/bin/bash
# check-storm.sh [ARCH...]: the storms at their own lengths, not make
# check's: the KUnit suite's 100 swaps in the modify storm and 1000 in the
# shared one (or as many as 240 s allow, at least 100), and the bpf
# suite's 100 attach and detach cycles under calls on every CPU
# (bpf:storm), on the kernels make check built (built here if not), one
# guest after the other. Results: build/results/ARCH-storm.tap.
#
# make check runs them shorter (STORM_ARGS in scripts/check.sh): at full
# length the KUnit storms held both host CPUs for 306, 263 and 139 s of
# make check's riscv64, x86_64 and arm64 guests, and bpf:storm 177 s of
# riscv64's (README).
. "$(dirname "$0")/lib.sh"

arches=${*:-$ALL_ARCHES}
start=$(date +%s)
"$LAB/scripts/deps.sh" $arches
"$LAB/scripts/tree.sh"
mkdir -p "$RESULTS"
names=
for a in $arches; do
	names="$names $a-storm"
	rm -f "$RESULTS/$a-storm.tap"
	if ! "$LAB/scripts/build.sh" "$a" || ! SUITES=kunit,bpf "$LAB/scripts/initramfs.sh" "$a"; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s-storm:build\n# see build/logs/\n' "$a" \
			>"$RESULTS/$a-storm.tap"
		continue
	fi
	SUITES=kunit,bpf KERNEL_ARGS= RESULT_NAME=$a-storm "$LAB/scripts/boot.sh" "$a" || true
done
# shellcheck disable=SC2086 # one name per word
"$LAB/scripts/summary.sh" "$(( $(date +%s) - start ))" $names
