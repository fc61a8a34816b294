#!/bin/sh
# demo: a direct trampoline and the function tracer sharing one function,
# then a BPF fentry program counting hits: shown, and checked.
. /lab/lib.sh

show_file() { # TITLE COMMAND...
	local title=$1 l
	shift
	ktap_diag "" "$title"
	"$@" | while IFS= read -r l; do ktap_diag "    $l"; done
}

if sample_built ftrace-direct; then
	tracing_reset
	echo wake_up_process >$TRACING/set_ftrace_filter
	echo function >$TRACING/current_tracer
	modprobe ftrace-direct
	sleep 1
	show_file "samples/ftrace/ftrace-direct.ko and the function tracer, both on wake_up_process." \
		true
	show_file "enabled_functions (R: saves all regs, D: has a direct caller):" \
		grep -A1 '^wake_up_process ' $TRACING/enabled_functions
	show_file "trace: the direct trampoline's trace_printk ..." \
		grep -m 3 'my_direct_func: waking up' $TRACING/trace
	show_file "... and the function tracer's entries:" \
		grep -m 3 ' wake_up_process <-' $TRACING/trace
	if grep -q 'my_direct_func: waking up' $TRACING/trace &&
	   grep -q ' wake_up_process <-' $TRACING/trace; then
		ktap_ok demo:direct-and-function-tracer
	else
		ktap_fail demo:direct-and-function-tracer "one of the two saw no hits"
	fi
	rmmod ftrace-direct
	tracing_reset
elif has_direct; then
	ktap_fail demo:direct-and-function-tracer "ftrace-direct.ko not built"
else
	ktap_skip demo:direct-and-function-tracer "ftrace-direct.ko not built: $NO_DIRECT"
fi

ktap_diag "" "A BPF fentry program on bpf_fentry_test1, driven by BPF_PROG_TEST_RUN:"
bpftest count 1000
