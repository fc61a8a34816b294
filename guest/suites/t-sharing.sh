#!/bin/sh
# sharing: the function tracer and a direct call on wake_up_process at the
# same time, attached in both orders; both see their hits, the record
# shows the direct flag while attached and nothing after.
. /lab/lib.sh

FUNC=wake_up_process
DIRECT="my_direct_func: waking up"

# both_hit ID: the tracer's and the direct trampoline's hits are in the buffer
both_hit() {
	local miss=
	echo >$TRACING/trace
	sleep 1
	grep -q " $FUNC <-" $TRACING/trace || miss="$miss function-tracer"
	grep -q "$DIRECT" $TRACING/trace || miss="$miss direct"
	if [ -n "$miss" ]; then
		ktap_fail "$1" "no hits from:$miss" "$(tail -n 3 $TRACING/trace)"
	else
		ktap_ok "$1"
	fi
}

# flags ID USERS: enabled_functions shows FUNC with USERS callers, the
# direct flag, and (on the line after) the direct trampoline
flags() {
	local l
	l=$(grep -A1 "^$FUNC " $TRACING/enabled_functions | tr '\t\n' '  ')
	case "$l" in
	"$FUNC ($2)"*" D "*direct--\>*) ktap_ok "$1" ;;
	*) ktap_fail "$1" "enabled_functions: '$l'" ;;
	esac
}

tracer_on() {
	echo $FUNC >$TRACING/set_ftrace_filter
	echo function >$TRACING/current_tracer
}

if ! sample_built ftrace-direct; then
	if has_direct; then
		ktap_fail sharing:present "ftrace-direct.ko was not built although the kernel has direct calls"
	else
		ktap_skip sharing:present "ftrace-direct.ko not built: $NO_DIRECT"
	fi
	exit 0
fi

tracing_reset
tracer_on
modprobe ftrace-direct
both_hit sharing:tracer-then-direct
flags sharing:tracer-then-direct:flags 2
rmmod ftrace-direct
tracing_reset

modprobe ftrace-direct
tracer_on
both_hit sharing:direct-then-tracer
flags sharing:direct-then-tracer:flags 2
tracing_reset
rmmod ftrace-direct

l=$(grep "^$FUNC " $TRACING/enabled_functions)
if [ -n "$l" ]; then
	ktap_fail sharing:clean-after "stale record: $l"
else
	ktap_ok sharing:clean-after
fi
