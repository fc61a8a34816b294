#!/bin/bash
# check-storm.sh [ARCH...]: the KUnit suite at its own lengths, not make
# check's: 100 swaps in the modify storm and 1000 in the shared one (or
# as many as 240 s allow, at least 100), on the kernels make check built
# (built here if not). Results: build/results/ARCH-storm.tap. Default:
# make check's architectures.
#
# make check swaps 50 and 200 times (STORM_ARGS in scripts/check.sh): the
# full storms cost its three guests about 9 minutes of both host CPUs,
# all three storms together (README).
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
	if ! "$LAB/scripts/build.sh" "$a" || ! "$LAB/scripts/initramfs.sh" "$a"; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s-storm:build\n# see build/logs/\n' "$a" \
			>"$RESULTS/$a-storm.tap"
		continue
	fi
	SUITES=kunit KERNEL_ARGS= RESULT_NAME=$a-storm "$LAB/scripts/boot.sh" "$a" || true
done
# shellcheck disable=SC2086 # one name per word
"$LAB/scripts/summary.sh" "$(( $(date +%s) - start ))" $names
