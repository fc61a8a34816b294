#!/bin/sh
# ftracetest: the kernel's own ftracetest, unmodified, one .tc at a time,
# so each test file is one result named after it.  A test that fails is
# run once more: some (func_event_triggers.tc) wait a fixed time for
# events, which TCG can stretch.  A pass on the second run is a pass with
# a "# retried:" line naming the first failure; the summary counts them.
. /lab/lib.sh

# run_tc TC LOGDIR: run one test; prints its results, e.g. "PASS" or
# "FAIL PASS" (cases flagged "instance" run twice). The output goes to a
# file, not a pipe: a child that outlives a timed-out ftracetest would
# hold a pipe open and stall the whole guest. 300 s, tried twice, still
# leaves the later suites time within the guest's 1500 s; a slower kernel
# sets its own (lab.ftracetest_timeout=, make check-debug on riscv64).
#
# A test stopped by the timeout leaves loaded what it loaded (the direct
# samples, whose ops then stay on their functions) and its kprobe events:
# both are removed, and said, so that the suites after it start clean.
run_tc() {
	local before m
	rm -rf "$2" "$2.out" "$2.left"
	mkdir -p "${2%/*}"
	before=" $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	timeout "${LAB_FTRACETEST_TIMEOUT:-300}" ./ftracetest -k -l "$2" "$1" >"$2.out" 2>&1
	# newest first, as /proc/modules lists them: users before what they use
	for m in $(cut -d' ' -f1 /proc/modules); do
		case $before in *" $m "*) continue ;; esac
		rmmod "$m" 2>/dev/null
		echo "the test left module $m loaded; removed" >>"$2.left"
	done
	if [ -s $TRACING/kprobe_events ]; then
		echo 0 >$TRACING/events/enable
		echo >$TRACING/kprobe_events
		echo "the test left kprobe events; removed" >>"$2.left"
	fi
	# ftracetest's cleanup empties stack_trace_filter but leaves the
	# stack tracer on: a test that fails before turning it off (as
	# func_stack_tracer.tc can) leaves it tracing every function, and
	# every later check of enabled_functions would fail for it.
	if [ "$(cat /proc/sys/kernel/stack_tracer_enabled 2>/dev/null)" = 1 ]; then
		echo 0 >/proc/sys/kernel/stack_tracer_enabled
		echo "the test left the stack tracer on; turned off" >>"$2.left"
	fi
	sed -n -E 's/^\[[0-9]+\].*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]$/\1/p' "$2.out" |
		sort -u | tr '\n' ' '
}

# said LOGDIR N: the last N lines the test itself printed (not the trace)
said() {
	cat "$1"/*-log.* 2>/dev/null | grep -v '^+' | tail -n "$2"
}

cd /lab/ftrace || { ktap_fail ftracetest:present "no /lab/ftrace"; exit 0; }
# LAB_FTRACETEST (lab.ftracetest=): directories of test.d, or .tc files
for sel in ${LAB_FTRACETEST:-direct ftrace}; do
	case $sel in
	*.tc) set -- "test.d/$sel" ;;
	*) set -- "test.d/$sel"/*.tc ;;
	esac
	for tc in "$@"; do
		[ -f "$tc" ] || { ktap_fail "ftracetest:$sel" "no such test"; continue; }
		id=ftracetest:${tc#test.d/}
		log=/tmp/ftracetest/${tc#test.d/}
		echo "lab: ftracetest $tc" >/dev/console
		t=$(cut -d. -f1 /proc/uptime)
		res=$(run_tc "$tc" "$log")
		first=
		case "$res" in
		''|*FAIL*|*UNDEFINED*)
			first="${res:-no result} ($(said "$log" 3 | tr '\n' ' '))"
			res=$(run_tc "$tc" "$log.2")
			log=$log.2 ;;
		esac
		req=$(sed -n 's/^#[ \t]*requires:[ \t]*//p' "$tc")
		case "$res" in
		'') ktap_fail "$id" "no result twice (timed out or crashed)" "first: $first" ;;
		*FAIL*|*UNDEFINED*)
			ktap_fail "$id" "ftracetest: $res, twice" "first: $first"
			said "$log" 10 | while IFS= read -r l; do ktap_diag "$l"; done ;;
		*UNSUPPORTED*|*UNRESOLVED*|*UNTESTED*)
			ktap_skip "$id" "ftracetest ${res% }${req:+ (requires: $req)}: $(said "$log" 2 | tr '\n' ' ')" ;;
		*)
			ktap_ok "$id"
			[ -z "$first" ] || ktap_diag "retried: first run $first" ;;
		esac
		echo "lab: ftracetest $tc took $(( $(cut -d. -f1 /proc/uptime) - t )) s" >/dev/console
		cat "${log%.2}.left" "${log%.2}.2.left" 2>/dev/null |
			while IFS= read -r l; do ktap_diag "$l"; done
	done
done
