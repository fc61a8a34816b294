#!/bin/bash
# check-preempt.sh [ARCH...]: the preempt suite (guest/suites/t-preempt.sh) on
# make check's PREEMPT kernels (built here if not), booted with QEMU's
# -singlestep, one guest after the other. TCG takes an interrupt only
# between translation blocks, which otherwise hold many instructions: a
# task can then almost never be preempted inside a window of a few, such
# as a patch site's auipc and jalr or the start of ftrace_caller. With
# one instruction per block, every instruction boundary is a preemption
# point. The KUnit suite runs too (built in, at boot), its storms short:
# a single-stepped guest runs several times slower.
# Results: build/results/ARCH-preempt.tap. Default: riscv64, the
# architecture whose windows the suite aims at; PREEMPT_SECONDS sets the
# length of each storm (default 120).
. "$(dirname "$0")/runner.sh"

arches=${*:-$(make_var PREEMPT_ARCHS)}
# shellcheck disable=SC2086 # one architecture per word
run_start $arches
for a in $arches; do
	SUITES=kunit,preempt run_prepare "$a-preempt" "$a" || continue
	SUITES=kunit,preempt QEMU_OPTS=-singlestep \
		KERNEL_ARGS="ftrace_direct_kunit.storm_swaps=20 ftrace_direct_kunit.shared_storm_swaps=40 lab.preempt_seconds=${PREEMPT_SECONDS:-120}" \
		BOOT_QUIET=600 TIMEOUT=${TIMEOUT:-5400} run_boot "$a-preempt" "$a"
done
run_end
