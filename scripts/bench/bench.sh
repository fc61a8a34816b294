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

# one ARCH VARIANT NAME: build, initramfs and the BOOTS bench boots of one
# kernel, then their medians in NAME.tap
one() {
	local a=$1 variant=$2 name=$3 src=$BUILD/linux
	[ "$variant" = mainline ] && src=$BUILD/linux-mainline
	SRC=$src SUITES=$suite run_prepare "$name" "$a" "$variant" || return 0
	# what the arch needs on both kernels (BENCH_KERNEL_ARGS, arches/ARCH.env)
	load_arch "$a"
	args="mitigations=off${BENCH_KERNEL_ARGS:+ $BENCH_KERNEL_ARGS}${extra:+ $extra}"
	for i in $(seq 1 "$BOOTS"); do
		step "bench: $name, boot $i of $BOOTS"
		SUITES=$suite KERNEL_ARGS="$args" TIMEOUT=${TIMEOUT:-1200} \
			run_boot "$name-$i" "$a" "$variant"
	done
	"$LAB/scripts/bench/median.sh" "$name" "$BOOTS"
	# the second suite's report reads the same medians under its name
	[ "$suite" = "${suite#*,}" ] || cp "$RESULTS/$name.tap" "$RESULTS/attach${name#bench}.tap"
}

for a in $arches; do
	one "$a" bench "$prefix-$a"
	one "$a" mainline "$prefix-$a-mainline"
done
step "bench: $(( $(date +%s) - start )) s"
rc=0
for r in $reports; do
	# shellcheck disable=SC2086 # one arch per word
	"$LAB/scripts/bench/$r" $arches || rc=1
done
exit "$rc"
