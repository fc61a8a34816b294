#!/bin/sh
# preempt: storms aimed at windows of a few instructions where a task
# preempted at the wrong moment resumes into code changed under it. Under
# TCG an interrupt is taken only between translation blocks, so they are
# run by make check-preempt, whose guests translate one instruction per
# block (QEMU's -singlestep), on PREEMPT kernels. Each storm runs for
# LAB_PREEMPT_SECONDS (default 120).
#
# preempt:bpf-prog-entry: fentry and fexit programs attached to and
# detached from a BPF program while two processes run it (bpftest
# prog-storm): each attach and detach rewrites the program's JITed entry,
# which a runner may be preempted in.
#
# preempt:caller-ops: labtarget_add() called in a loop while one loop
# turns the function tracer on and off for it and another adds and removes
# a kprobe on it: the site goes from ftrace_caller, with the tracer's ops,
# to ftrace_regs_caller with the kprobe's, while a caller may be preempted
# in ftrace_caller before it loads the site's ops.
. /lab/ktap.sh

SECONDS_EACH=${LAB_PREEMPT_SECONDS:-120}
uptime_s() { cut -d. -f1 /proc/uptime; }

bpf_prog_entry() {
	local id=preempt:bpf-prog-entry rc=0
	if [ -f /lab/bpf.skip ]; then
		ktap_skip $id "$(cat /lab/bpf.skip)"
		return
	fi
	echo 1 >/proc/sys/net/core/bpf_jit_enable
	/lab/bpftest 1 prog-storm "$SECONDS_EACH" >/tmp/pstorm.out 2>&1 || rc=$?
	if [ $rc = 0 ] && grep -q '^cycles [1-9]' /tmp/pstorm.out; then
		ktap_ok $id
		ktap_diag "in $SECONDS_EACH s: $(cat /tmp/pstorm.out)"
	else
		ktap_fail $id "bpftest prog-storm exited with $rc:" "$(cat /tmp/pstorm.out)"
	fi
}

# run_for NAME CMD...: CMD again and again for SECONDS_EACH; the rounds
# made in /tmp/pre.NAME.n, the first error in /tmp/pre.NAME.err
run_for() {
	local name=$1 end n=0
	shift
	end=$(( $(uptime_s) + SECONDS_EACH ))
	while [ "$(uptime_s)" -lt $end ]; do
		if ! "$@" 2>>/tmp/pre.$name.err; then
			echo "round $n failed" >>/tmp/pre.$name.err
			break
		fi
		n=$((n + 1))
	done
	echo $n >/tmp/pre.$name.n
}

call_round() { echo 200 >/sys/module/labtarget/parameters/call; }

tracer_round() {
	echo labtarget_add >$TRACING/set_ftrace_filter &&
		echo function >$TRACING/current_tracer &&
		echo nop >$TRACING/current_tracer
}

kprobe_round() {
	echo 'p:kprobes/labk labtarget_add' >>$TRACING/kprobe_events &&
		echo 1 >$TRACING/events/kprobes/labk/enable &&
		echo 0 >$TRACING/events/kprobes/labk/enable &&
		echo '-:kprobes/labk' >>$TRACING/kprobe_events
}

caller_ops() {
	local id=preempt:caller-ops waited=0 name
	if ! modprobe labtarget 2>/tmp/modprobe.err; then
		ktap_fail $id "modprobe labtarget: $(cat /tmp/modprobe.err)"
		return
	fi
	tracing_reset
	rm -f /tmp/pre.*
	run_for call call_round &
	run_for tracer tracer_round &
	run_for kprobe kprobe_round &
	while [ ! -e /tmp/pre.call.n ] || [ ! -e /tmp/pre.tracer.n ] || [ ! -e /tmp/pre.kprobe.n ]; do
		if [ $waited -ge $((SECONDS_EACH + 300)) ]; then
			ktap_fail $id "the loops had not ended $waited s after they began"
			return
		fi
		sleep 5
		waited=$((waited + 5))
	done
	wait
	tracing_reset
	rmmod labtarget
	ktap_diag "in $SECONDS_EACH s: $(cat /tmp/pre.call.n) rounds of 200 calls, $(cat /tmp/pre.tracer.n) tracer rounds, $(cat /tmp/pre.kprobe.n) kprobe rounds"
	for name in call tracer kprobe; do
		if [ -s /tmp/pre.$name.err ] || [ "$(cat /tmp/pre.$name.n)" = 0 ]; then
			ktap_fail $id "the $name loop: $(head -n 3 /tmp/pre.$name.err)"
			return
		fi
	done
	ktap_ok $id
}

bpf_prog_entry
caller_ops
