#!/bin/bash
# check-faults.sh [ARCH...]: each architecture built with
# variants/faults/config (fault injection) into build/out/ARCH-faults,
# booted, and the faults suite run (guest/suites/t-faults.sh): every entry
# point of the direct call API and every BPF attach path with its 1st,
# 2nd, ... allocation failed. Default: x86_64 arm64 riscv64. make
# check-debug runs the same suite on the KASAN kernels. Any report on a
# console fails that run. The last line is the total over all.
. "$(dirname "$0")/runner.sh"

arches=${*:-$(make_var FAULT_ARCHS)}
# shellcheck disable=SC2086 # one architecture per word
run_start $arches
booted=
for a in $arches; do
	SUITES=faults run_prepare "$a-faults" "$a" faults || continue
	booted="$booted $a"
done
for a in $booted; do
	SUITES=faults TIMEOUT=${TIMEOUT:-3600} run_boot "$a-faults" "$a" faults
done
run_end
