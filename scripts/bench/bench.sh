#!/bin/bash
# bench/bench.sh [ARCH...]: the cost of a traced call on our kernel and on
# mainline 6.12 (Debian's linux-source-6.12, built from the same config
# fragments plus variants/mainline/riscv64.config on riscv64, where ours
# takes mainline's preemption model: variants/bench/riscv64.config), each timed in
# BENCH_BOOTS boots by samples/ftrace/ftrace-direct-bench.c (guest/suites/t-bench.sh),
# built in on both (variants/bench/config and variants/mainline/config;
# scripts/bench/graft.sh puts it into the mainline tree). Then
# scripts/bench/report.sh: one table per arch, build/results/bench.json
# and build/results/bench.png. Default: all three architectures.
#
# BENCH_SUITE=attach (make bench-attach): the same two kernels boot the
# attach suite instead (guest/suites/t-attach.sh: the time to attach and
# detach fentry programs on ATTACH_SIZES functions, default 10,100,1000),
# and scripts/bench/attach-report.sh makes the table.
#
# BENCH_SUITE=bench,attach: both suites in the same boots, one after the
# other, and both reports: the six kernels are built and booted once for
# the two measures (a boot of 6.12 spends 136 to 157 s detaching 1000
# links, docs/results/2026-11-30.md; the bench suite took 32 s of an
# arm64 boot, 2026-12-01). The boots' results are named
# bench-ARCH[-mainline]; attach-report.sh reads a copy of their medians.
#
# BENCH_ICOUNT=1: QEMU runs the guests with -icount shift=0, one
# nanosecond of the guest's clock for each instruction it executes
# (single-threaded TCG; idle time passes at the host's pace), so that
# the figures count the guest's work instead of timing an emulator that
# the host's load and the guest's own history slow down: arm64's attach
# of 1000 took 1.5 to 10 times as long in a boot's later rounds, with or
# without labbulk; counted, its rounds with and without labbulk were
# within 3 % of each other in two boots (docs/results/2026-12-05.md).
#
# Both kernels boot with mitigations=off: 6.12 would otherwise patch
# return thunks into every function on x86_64 and 6.1 not all of them,
# which is a difference between the kernels, not between the tracers.
. "$(dirname "$0")/../runner.sh"

arches=${*:-$(make_var BENCH_ARCHS)}
# Boots per kernel: the speed of a TCG guest differs from boot to boot
# (x86_64: the untraced call took 9.2 ns in one make bench and 14.9 ns in
# the next, a traced one moved by up to 20 %), so each figure is the
# median of BENCH_BOOTS boots (scripts/bench/median.sh).
BOOTS=${BENCH_BOOTS:-3}
icount=
[ "${BENCH_ICOUNT:-0}" = 0 ] || icount="-icount shift=0"
suite=${BENCH_SUITE:-bench}
attach_args="lab.attach_sizes=${ATTACH_SIZES:-10,100,1000}"
case $suite in
bench) reports=report.sh extra= ;;
attach) reports=attach-report.sh extra=$attach_args ;;
bench,attach) reports="report.sh attach-report.sh" extra=$attach_args ;;
*) die "BENCH_SUITE=$suite: want bench, attach or bench,attach" ;;
esac
prefix=${suite%%,*}
start=$(date +%s)
# shellcheck disable=SC2086 # one architecture per word
EXTRA_PACKAGES=gnuplot-nox run_start $arches
"$LAB/scripts/bench/mainline-tree.sh"
"$LAB/scripts/bench/graft.sh"

# Both kernels of an arch are built first, then booted in turn, ours and
# 6.12 once each, BOOTS times: a host whose load changes during the run
# (another guest, a build beside it) then slows both kernels alike
# instead of whichever booted during the busy spell. Their medians go
# to NAME.tap.
for a in $arches; do
	# what the arch needs on both kernels (BENCH_KERNEL_ARGS, arches/ARCH.env)
	load_arch "$a"
	args="mitigations=off${BENCH_KERNEL_ARGS:+ $BENCH_KERNEL_ARGS}${extra:+ $extra}"
	kernels=
	SRC=$BUILD/linux SUITES=$suite run_prepare "$prefix-$a" "$a" bench &&
		kernels="$prefix-$a:bench"
	# BENCH_MAINLINE empty (arches/ARCH.env): 6.12 has no BPF
	# trampoline on this arch, the attach suite runs on ours alone
	if [ -n "$BENCH_MAINLINE" ] || [ "$suite" = bench ]; then
		SRC=$BUILD/linux-mainline SUITES=$suite run_prepare "$prefix-$a-mainline" "$a" mainline &&
			kernels="$kernels $prefix-$a-mainline:mainline"
	else
		note "bench: $a: 6.12 has no BPF trampoline here (BENCH_MAINLINE), ours alone"
	fi
	for i in $(seq 1 "$BOOTS"); do
		for k in $kernels; do
			step "bench: ${k%:*}, boot $i of $BOOTS"
			SUITES=$suite KERNEL_ARGS="$args" TIMEOUT=${TIMEOUT:-1200} \
				QEMU_OPTS="${QEMU_OPTS:-}${icount:+ $icount}" run_boot "${k%:*}-$i" "$a" "${k#*:}"
		done
	done
	for k in $kernels; do
		name=${k%:*}
		"$LAB/scripts/bench/median.sh" "$name" "$BOOTS"
		# the second suite's report reads the same medians under its name
		[ "$suite" = "${suite#*,}" ] || cp "$RESULTS/$name.tap" "$RESULTS/attach${name#bench}.tap"
	done
done
step "bench: $(( $(date +%s) - start )) s"
rc=0
for r in $reports; do
	# shellcheck disable=SC2086 # one arch per word
	"$LAB/scripts/bench/$r" $arches || rc=1
done
exit "$rc"
