#!/bin/bash
# check.sh [ARCH...]: the series checks and, beside them, for each
# architecture build, initramfs and the guest suites; the last line is
# the total over all.
# Each initramfs and guest is made while the next architecture builds.
. "$(dirname "$0")/runner.sh"

arches=${*:-$(make_var ARCHS)}
# shellcheck disable=SC2086 # one architecture per word
run_start $arches
# the summary's order; only this run's results are dropped (make bench's
# and check-debug's stay)
# SERIES=0: no series checks (make check-subset, which has its own)
series=series
[ "${SERIES:-1}" != 0 ] || series=
for a in $series $arches; do
	run_name "$a"
done
# The series checks (checkpatch on every patch: 37 s of one CPU) run
# beside the first kernel build; their lines are printed at the end.
series_log=$(mktemp)
if [ -n "$series" ]; then
	"$LAB/scripts/series/check.sh" >"$series_log" 2>&1 &
	series_pid=$!
fi
# The storms, shorter than their own lengths (make check-storm runs
# those): the KUnit ones swap 50 and 200 times instead of 100 and 1000,
# the bpf suite's attaches and detaches 30 times instead of 100. At full
# length the KUnit storms held both host CPUs for 306, 263 and 139 s of
# the riscv64, x86_64 and arm64 guests, and bpf:storm 177 s of riscv64's.
# Words of KERNEL_ARGS come after these and win.
STORM_ARGS="ftrace_direct_kunit.storm_swaps=50 ftrace_direct_kunit.shared_storm_swaps=200"
STORM_ARGS="$STORM_ARGS lab.bpf_storm=30"
export KERNEL_ARGS="$STORM_ARGS${KERNEL_ARGS:+ $KERNEL_ARGS}"
# An architecture whose arches/ARCH.env sets CHECK_BESIDE (a small
# kernel, a short guest) builds niced beside the others from the start:
# it takes the CPU they leave idle (the series checks, the sysroots, each
# kernel's link, a single-threaded guest beside a link) instead of
# adding its build to the end; its guest boots at normal priority.
pids=
main=
for a in $arches; do
	if ! (load_arch "$a" && [ -n "${CHECK_BESIDE:-}" ]); then
		main="$main $a"
		continue
	fi
	(
		nice -n 19 "$LAB/scripts/build.sh" "$a" || { run_failed "$a" build; exit 0; }
		nice -n 19 "$LAB/scripts/initramfs.sh" "$a" || { run_failed "$a" initramfs; exit 0; }
		run_boot "$a" "$a"
	) &
	pids="$pids $!"
done
# The BPF selftests' sysroots first, one after the other: two apt runs
# at once would share apt's cache (scripts/sysroot.sh).
for a in $arches; do
	(load_arch "$a" && [ -n "${BPF_SELFTESTS_SKIP:-}" ]) ||
		"$LAB/scripts/sysroot.sh" "$a" >/dev/null ||
		warn "sysroot $a: not fetched; its initramfs will try again"
done
# Each kernel's initramfs, with its test_progs build, then its guest, go
# in the background while the next kernel builds: on the critical path
# only the last architecture's remains.
for a in $main; do
	run_build "$a" "$a" || continue
	(run_initramfs "$a" "$a" && run_boot "$a" "$a") &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || true
done
[ -z "$series" ] || wait "$series_pid" || true
cat "$series_log"
rm -f "$series_log"
run_end
