#!/bin/bash
# check-storm.sh [ARCH...]: the storms at their own lengths, not make
# check's: the KUnit suite's 100 swaps in the modify storm and 1000 in the
# shared one (or as many as 240 s allow, at least 100), and the bpf
# suite's 100 attach and detach cycles under calls on every CPU
# (bpf:storm), on the kernels make check built (built here if not), one
# guest after the other; and the attach suite's storm, fentry programs on
# 1000 functions detached in a random order under calls on every CPU
# (attach:storm). Results: build/results/ARCH-storm.tap.
#
# make check runs them shorter (STORM_ARGS in scripts/check.sh): at full
# length the KUnit storms held both host CPUs for 306, 263 and 139 s of
# make check's riscv64, x86_64 and arm64 guests, and bpf:storm 177 s of
# riscv64's (docs/results/before-2026-11-28.md).
. "$(dirname "$0")/runner.sh"

arches=${*:-$(make_var STORM_ARCHS)}
# shellcheck disable=SC2086 # one architecture per word
run_start $arches
for a in $arches; do
	SUITES=kunit,bpf,attach run_prepare "$a-storm" "$a" || continue
	SUITES=kunit,bpf,attach KERNEL_ARGS="lab.attach_sizes=0 lab.attach_storm=1000" \
		run_boot "$a-storm" "$a"
done
run_end
