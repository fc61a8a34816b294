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
# preempt:caller-ops: labtarget_add() called in a loop by a kernel thread
# on CPU 0 while a SCHED_FIFO writer on the same CPU attaches labtarget's plain ftrace_ops, adds its
# REGS ftrace_ops (as a kprobe's), detaches the plain one and then the
# REGS one: the site goes from ftrace_caller, with the plain ops, to
# ftrace_regs_caller with the REGS ops, while a caller may be preempted
# in ftrace_caller before it loads the site's ops. The REGS ops counts
# the calls it gets without pt_regs (a kprobe's handler would dereference
# NULL there): there must be none.
#
# preempt:last-detach: the function tracer on labtarget_add() in the top
# instance and in a second one, so that its site calls the list function,
# which walks the ops list; a kernel thread on another CPU calls it, and
# an fentry program is attached to it and detached again and again. On
# x86_64, arm64 and riscv64 every BPF trampoline is on one ftrace_ops, the
# kernel's own data, and each detach here removes its last function: a
# walker that loaded that ops before it left the list must find it still
# callable (a NULL func is an ftrace bug: ftrace_kill()) and its filter no
# wider. After the storm the function tracer must still record the calls.
. /lab/lib.sh

SECONDS_EACH=${LAB_PREEMPT_SECONDS:-120}

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

# One round of labtarget's ops_storm (guest/labtarget): the plain ops
# alone on labtarget_add, a pause in which the caller runs, the REGS ops
# beside it, the plain ops off (the REGS ops alone: the site's ops is now
# the REGS ops, and the plain ops, a module's, is waited for only after
# that), the REGS ops off, made by a SCHED_FIFO writer that preempts the
# caller wherever it is at the end of the pause.
update_round() { echo 1 >/sys/module/labtarget/parameters/ops_storm; }

# on_cpu0 CMD...: CMD pinned to CPU 0, the caller's, where taskset exists:
# the caller, preempted there, waits while the updates run
on_cpu0() {
	if command -v taskset >/dev/null; then
		taskset -c 0 "$@"
	else
		"$@"
	fi
}

caller_ops() {
	local id=preempt:caller-ops waited=0 missing calls p=/sys/module/labtarget/parameters
	if ! modprobe labtarget 2>/tmp/modprobe.err; then
		ktap_fail $id "modprobe labtarget: $(cat /tmp/modprobe.err)"
		return
	fi
	tracing_reset
	rm -f /tmp/pre.*
	# the caller: a kernel thread on CPU 0, outside the parameter lock
	# that ops_storm holds
	echo 0 >$p/caller_cpu
	on_cpu0 /lab/t-preempt.sh loop update update_round &
	while [ ! -e /tmp/pre.update.n ]; do
		if [ $waited -ge $((SECONDS_EACH + 300)) ]; then
			ktap_fail $id "the update loop had not ended $waited s after it began"
			return
		fi
		sleep 5
		waited=$((waited + 5))
	done
	wait
	echo -1 >$p/caller_cpu
	calls=$(cat $p/caller_cpu)
	missing=$(cat $p/regs_missing)
	rmmod labtarget
	ktap_diag "in $SECONDS_EACH s: $calls calls, $(cat /tmp/pre.update.n) update rounds, $missing calls of the REGS ops without pt_regs"
	if [ -s /tmp/pre.update.err ] || [ "$(cat /tmp/pre.update.n)" = 0 ] || [ "$calls" = 0 ]; then
		ktap_fail $id "the update loop: $(head -n 3 /tmp/pre.update.err); $calls calls"
	elif [ "$missing" != 0 ]; then
		ktap_fail $id "the REGS ops was called $missing times without pt_regs (from ftrace_caller)"
	else
		ktap_ok $id
	fi
}

# "t-preempt.sh loop NAME ROUND" runs one loop, for on_cpu0
if [ "${1:-}" = loop ]; then
	repeat_for "$SECONDS_EACH" "/tmp/pre.$2" "$3"
	exit 0
fi

last_detach() {
	local id=preempt:last-detach p=/sys/module/labtarget/parameters
	local inst=$TRACING/instances/lab rc=0 cpus
	if [ -f /lab/bpf.skip ]; then
		ktap_skip $id "$(cat /lab/bpf.skip)"
		return
	fi
	if ! modprobe labtarget 2>/tmp/modprobe.err; then
		ktap_fail $id "modprobe labtarget: $(cat /tmp/modprobe.err)"
		return
	fi
	tracing_reset
	mkdir $inst
	for t in $TRACING $inst; do
		echo labtarget_add >$t/set_ftrace_filter
		echo function >$t/current_tracer
	done
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	echo $((cpus - 1)) >$p/caller_cpu
	/lab/bpftest 1 attach-cycle labtarget:labtarget_add "$SECONDS_EACH" \
		>/tmp/ldetach.out 2>&1 || rc=$?
	echo >$TRACING/trace
	echo 3 >$p/call
	echo -1 >$p/caller_cpu
	if [ $rc != 0 ] || ! grep -q '^cycles [1-9]' /tmp/ldetach.out; then
		ktap_fail $id "bpftest attach-cycle exited with $rc:" "$(cat /tmp/ldetach.out)"
	elif ! grep -q 'labtarget_add' $TRACING/trace; then
		ktap_fail $id "the function tracer no longer records labtarget_add()" \
			"$(dmesg | grep -i ftrace | tail -n 5)"
	else
		ktap_ok $id
		ktap_diag "in $SECONDS_EACH s: $(cat /tmp/ldetach.out)"
	fi
	for t in $inst $TRACING; do
		echo nop >$t/current_tracer
		echo >$t/set_ftrace_filter
	done
	rmdir $inst
	rmmod labtarget
}

bpf_prog_entry
caller_ops
last_detach
