#!/bin/sh
# bpf-selftests: the tree's own BPF selftests, test_progs as BPF CI runs
# it (built unmodified by scripts/bpf-selftests.sh), on the trampoline
# tests and what surrounds them. Each test runs in a test_progs of its
# own (a crash or a hang then costs that test only), verbose, into a
# file; each subtest is a KTAP line bpf-selftests:TEST/SUBTEST, a test
# without subtests bpf-selftests:TEST. test_progs' OK is a pass, SKIP a
# skip and FAIL a failure, each of the last two with the lines the test
# logged before it; a test that ends without its result line (a crash,
# the time limit) fails as a whole. A test that fails runs once more.
. /lab/lib.sh

D=/lab/bpf-selftests
# The tests: guest/bpf-selftests.tests, which says why these (and
# scripts/bpf-selftests.sh builds test_progs with only them).
TESTS=$(grep -v '^#' /lab/bpf-selftests.tests)
# Subtests left out of that list, each reported as a skip with its
# reason: bpf_cookie/perf_event samples a CPU-clock perf event and is no
# trampoline test; it expects a 1 ms sample while a loop of a million
# increments runs, and on a loaded host TCG ran the loop without one:
# on arm64 its first and its repeated run both failed in two make check
# runs with kernel builds sharing the host's CPUs with the guest (one of
# them cold), the same way each time (pe_res2: 0); it passed alone.
DENY="bpf_cookie/perf_event"
if [ -n "${LAB_BPF_SELFTESTS:-}" ]; then
	TESTS=$LAB_BPF_SELFTESTS
	DENY=
fi
LIMIT=600

# An architecture whose kernel cannot run them at all (arches/ARCH.env:
# BPF_SELFTESTS_SKIP) is one skip with the reason the host wrote.
if [ -f /lab/bpf-selftests.skip ]; then
	ktap_skip bpf-selftests "$(cat /lab/bpf-selftests.skip)"
	exit 0
fi
if [ ! -x $D/test_progs ]; then
	ktap_fail bpf-selftests:present "no test_progs in the guest (scripts/bpf-selftests.sh builds it)"
	exit 0
fi
# What test_progs takes for granted on a distribution's system: the JIT
# (not the default on riscv64's 6.1), bpffs, securityfs, a loopback
# interface for the TCP tests, a directory for the cgroup2 mount of its
# cgroup helpers, and /bin/bash (test_bprm_opts runs a [[ ]] test in it):
# busybox's ash, which takes [[ ]], stands in for it.
echo 1 >/proc/sys/net/core/bpf_jit_enable
mounted() { grep -q " $1 " /proc/mounts; }
mounted /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
mounted /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
ip link set lo up
mkdir -p /mnt
[ -e /bin/bash ] || printf '#!/bin/sh\nexec /bin/sh "$@"\n' >/bin/bash
chmod +x /bin/bash
ktap_diag "LSMs: $(cat /sys/kernel/security/lsm 2>/dev/null)"

# run_test TEST N: run TEST, its output in /tmp/tp.N.out, its results in
# /tmp/tp.N.res. A result line is "#N/M test/subtest:RESULT" or "#N
# test:RESULT"; the test's own line only counts when it had no
# subtests. Out: "RESULT ID REASON" (a skip's reason: the last line of
# its log with SKIP in it), then for a skip or a failure "# LINE" for
# the last 20 lines it logged; "NONE TEST STATUS" when test_progs ended
# without the test's result line.
run_test() {
	local rc=0 d deny=
	for d in $DENY; do
		case $d in "$1"/*) deny="$deny -d $d" ;; esac
	done
	# shellcheck disable=SC2086 # one option per word
	timeout $LIMIT ./test_progs -v -a "$1" $deny >/tmp/tp.$2.out 2>&1 || rc=$?
	awk -v t="$1" -v rc=$rc '
		function flush(id, res,   i, from, why) {
			from = (nlog > 20) ? nlog - 20 : 0
			for (i = 1; i <= nlog; i++) if (line[i] ~ /SKIP/) why = line[i]
			print res " " id " " why
			if (res != "OK")
				for (i = from + 1; i <= nlog; i++) print "# " line[i]
			nlog = 0
		}
		/^#[0-9]+\/[0-9]+ +[^ ]+:(OK|SKIP|FAIL)$/ {
			split($2, a, ":"); flush(a[1], a[2]); subs++; next }
		/^#[0-9]+ +[^ ]+:(OK|SKIP|FAIL)$/ {
			split($2, a, ":"); if (!subs) flush(a[1], a[2])
			subs = 0; seen = 1; nlog = 0; next }
		{ line[++nlog] = $0 }
		END { if (!seen) print "NONE " t " " rc }' /tmp/tp.$2.out >/tmp/tp.$2.res
	[ -s /tmp/tp.$2.res ] || echo "NONE $1 $rc" >/tmp/tp.$2.res
}

# first_failure ID: the last failed check the first run logged for ID
first_failure() {
	awk -v id="$1" '$1 != "#" { mine = ($2 == id) } mine && /:FAIL:/ { f = $0 }
		END { sub(/^# /, "", f); print f }' /tmp/tp.1.res
}

cd $D || exit 0
for t in $TESTS; do
	# not run on this architecture (arches/ARCH.env: BPF_SELFTESTS_DENY)
	why=$(sed -n "s|^$t ||p" /lab/bpf-selftests.deny 2>/dev/null)
	if [ -n "$why" ]; then
		ktap_skip "bpf-selftests:$t" "not run: $why"
		continue
	fi
	run_test "$t" 1
	# A test that fails runs once more (as ftracetest's do): some time
	# their work against the clock, which TCG can miss. A pass on the
	# second run says so ("# retried:").
	last=1
	if grep -qE '^(FAIL|NONE) ' /tmp/tp.1.res; then
		run_test "$t" 2
		last=2
	fi
	while read -r res id why; do
		case "$res" in
		OK) ktap_ok "bpf-selftests:$id"
			if [ $last = 2 ] && grep -qE "^FAIL $id( |\$)" /tmp/tp.1.res; then
				ktap_diag "retried: the first run failed: $(first_failure "$id")"
			elif [ $last = 2 ] && grep -q "^NONE " /tmp/tp.1.res; then
				ktap_diag "retried: the first run ended without a result ($(grep '^NONE ' /tmp/tp.1.res))"
			fi ;;
		SKIP) ktap_skip "bpf-selftests:$id" "test_progs: ${why:-skipped, no reason logged}" ;;
		FAIL) ktap_fail "bpf-selftests:$id" ;;
		NONE) ktap_fail "bpf-selftests:$id" \
			"test_progs exited with status $why without a result (124: the $LIMIT s limit); its last lines:" \
			"$(tail -n 20 /tmp/tp.$last.out)" ;;
		"#") ktap_diag "$id${why:+ $why}" ;;
		esac
	done </tmp/tp.$last.res
	for d in $DENY; do
		case $d in
		"$t"/*) ktap_skip "bpf-selftests:$d" "not run: a perf_event sample, no trampoline; on a loaded host TCG misses the 1 ms sample it expects (t-bpf-selftests.sh)" ;;
		esac
	done
done
