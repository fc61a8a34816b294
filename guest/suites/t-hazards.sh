#!/bin/sh
# hazards: what a review of the series found could crash or hang a kernel,
# each in the form a user's kernel meets it. Runs last: a failure here may
# leave tasks hung.
#
# hazards:kprobe-slot-page-end: kprobes on the 1030 instructions of
# labtarget's labtarget_insns(), each single-stepped out of line, fill
# at least one page of kprobe instruction slots to its last slot, whose
# single-step EBREAK ends the page; the function is called once and every
# probe must count one hit. riscv64's EBREAK handler, which looks for a
# moving patch site first, read the word after every kernel EBREAK and
# faulted inside the trap there.
#
# hazards:kprobe-irq-window: for KPROBE_SECONDS, a kprobe event on
# __set_task_comm, hit by a shell renaming itself again and again while
# another loop starts short-lived tasks. The last reference to a dead task
# is dropped in an RCU callback (delayed_put_task_struct), which marks the
# CPU busy with a dummy kprobe and leaves it with no current kprobe. 6.1's
# MIPS handled a kprobe's breaks with interrupts enabled: a tick between
# the probe's break and the one ending its single step ran those callbacks,
# and the second break found no current kprobe ("Break instruction in
# kernel code"). Every hit must be counted and the kernel must live.
#
# hazards:hotplug-static-key-attach: for HAZARD_SECONDS, three loops at
# once: CPU 1 taken offline and back, the sched_schedstats static key
# flipped, an fentry program attached and detached (each attach of a sole
# trampoline on riscv64 moves the patch site, behind RCU tasks grace
# periods). A site move that waited for them holding text_mutex
# deadlocked with a static key update (cpus_read_lock(), then
# text_mutex) and a hotplug writer waiting for it. All three loops must
# end, and the hung-task detector must not report.
#
# hazards:hotplug-remote-fence (riscv64): for half of HAZARD_SECONDS, CPU
# 1 taken offline and back while labtarget runs flush_icache_all() in a
# loop, preemptible and without cpus_read_lock() as riscv64's ftrace
# updates do, and tlbspin unmaps pages of a process that CPU 1's idle
# task holds as its lazy mm. A remote fence (FENCE.I or a TLB flush)
# that names a hart the SBI is stopping is never answered: 6.1 named
# one from mm_cpumask() (a CPU offline but not yet dead) and from a
# cpu_online_mask read before a preemption, and both CPUs stopped
# without a report (boot.sh's STALL_QUIET then fails the guest); an SBI
# newer than QEMU 7.2's OpenSBI 1.1 fails a call naming a stopped hart.
# All three loops must end, and no remote fence may fail.
#
# hazards:site-move-fails (riscv64, the very last: it leaves ftrace off):
# error injection (fail_function on ftrace_site_store()) fails the second
# store of a site move, the EBREAK of the second of the two sites the
# ftrace-direct-multi sample moves together (wake_up_process and
# schedule). The first site, already an EBREAK, must be put back as it
# was: the kernel goes on calling both, and reports the failed update
# (ftrace_bug(), a WARNING, which the host accepts between the two
# "lab: expected report" lines this test writes to the console).
. /lab/lib.sh

HAZARD_SECONDS=${LAB_HAZARD_SECONDS:-60}
KPROBE_SECONDS=${LAB_KPROBE_SECONDS:-20}

kprobe_slot_page_end() {
	local id=hazards:kprobe-slot-page-end n=1030 i=0 hits off
	if [ "$LAB_ARCH" != riscv64 ]; then
		ktap_skip $id "riscv64's EBREAK handler only (labtarget_insns() is riscv64's)"
		return
	fi
	if ! modprobe labtarget 2>/tmp/modprobe.err; then
		ktap_fail $id "modprobe labtarget: $(cat /tmp/modprobe.err)"
		return
	fi
	echo 1 >/sys/module/labtarget/parameters/insns
	off=$(cut -d' ' -f1 /sys/module/labtarget/parameters/insns)
	while [ $i -lt $n ]; do
		echo "p:labslots/p$i labtarget_insns+$((off + i * 4))"
		i=$((i + 1))
	done 2>/tmp/kprobe.err >>$TRACING/kprobe_events
	if [ "$(grep -c '^p:labslots/' $TRACING/kprobe_events)" != $n ]; then
		ktap_fail $id "could not create $n kprobe events: $(cat /tmp/kprobe.err)"
		echo >$TRACING/kprobe_events
		rmmod labtarget
		return
	fi
	echo 1 >$TRACING/events/labslots/enable
	echo 1 >/sys/module/labtarget/parameters/insns
	echo 0 >$TRACING/events/labslots/enable
	hits=$(awk '$1 ~ /^p[0-9]+$/ { s += $2 } END { print s + 0 }' $TRACING/kprobe_profile)
	echo >$TRACING/kprobe_events
	rmmod labtarget
	if [ "$hits" = $n ]; then
		ktap_ok $id
	else
		ktap_fail $id "$hits hits of $n probes"
	fi
}

spawn_round() { /bin/busybox true; }

kprobe_irq_window() {
	local id=hazards:kprobe-irq-window n=0 end hits spawned
	if ! echo 'p:labirq/comm __set_task_comm' >>$TRACING/kprobe_events 2>/tmp/kprobe.err; then
		ktap_fail $id "no kprobe event on __set_task_comm: $(cat /tmp/kprobe.err)"
		return
	fi
	echo 1 >$TRACING/events/labirq/comm/enable
	rm -f /tmp/hz.spawn.*
	repeat_for "$KPROBE_SECONDS" /tmp/hz.spawn spawn_round &
	end=$(( $(uptime_s) + KPROBE_SECONDS ))
	while [ "$(uptime_s)" -lt $end ]; do
		echo -n "lab$n" >/proc/self/comm
		n=$((n + 1))
	done
	wait
	echo 0 >$TRACING/events/labirq/comm/enable
	hits=$(awk '$1 == "comm" { print $2 }' $TRACING/kprobe_profile)
	echo '-:labirq/comm' >>$TRACING/kprobe_events
	spawned=$(cat /tmp/hz.spawn.n 2>/dev/null || echo 0)
	ktap_diag "in $KPROBE_SECONDS s: $n renames, $spawned tasks started, $hits hits"
	# each rename is a hit (and so may be a task's exec, and other tasks')
	if [ "$spawned" = 0 ] || [ -s /tmp/hz.spawn.err ]; then
		ktap_fail $id "the task loop failed: $(head -n 3 /tmp/hz.spawn.err 2>/dev/null)"
	elif [ "${hits:-0}" -lt $n ] || [ $n = 0 ]; then
		ktap_fail $id "${hits:-no} hits for $n renames"
	else
		ktap_ok $id
	fi
}

# cpu_state STATE: CPU 1 taken to STATE (0 offline, 1 online); 6.1 riscv
# may refuse to start a hart that the SBI firmware has not quite stopped
# yet (-EINVAL), so each step has ten tries, a tenth of a second apart
cpu_state() {
	local try=0
	until echo "$1" >/sys/devices/system/cpu/cpu1/online 2>/dev/null; do
		try=$((try + 1))
		if [ $try -ge 10 ]; then
			echo "cpu1 online=$1 failed 10 times" >&2
			return 1
		fi
		sleep 0.1 2>/dev/null || usleep 100000
	done
}

hotplug_round() { cpu_state 0 && cpu_state 1; }

schedstats_round() {
	echo 1 >/proc/sys/kernel/sched_schedstats && echo 0 >/proc/sys/kernel/sched_schedstats
}

hotplug_static_key_attach() {
	local id=hazards:hotplug-static-key-attach waited=0 l
	if [ ! -e /sys/devices/system/cpu/cpu1/online ] || [ ! -e /proc/sys/kernel/sched_schedstats ]; then
		ktap_skip $id "no CPU hotplug or no schedstats in this kernel (riscv64's config has them)"
		return
	fi
	if ! has_direct; then
		ktap_skip $id "$NO_DIRECT"
		return
	fi
	rm -f /tmp/hz.*
	repeat_for "$HAZARD_SECONDS" /tmp/hz.hotplug hotplug_round &
	repeat_for "$HAZARD_SECONDS" /tmp/hz.schedstats schedstats_round &
	/lab/bpftest 1 attach-cycle bpf_fentry_test2 "$HAZARD_SECONDS" >/tmp/hz.attach.out 2>&1 &
	# a deadlock shows as loops that never end (and, after 120 s, as the
	# hung-task detector's report on the console)
	while [ ! -e /tmp/hz.hotplug.n ] || [ ! -e /tmp/hz.schedstats.n ] ||
		! grep -q '^cycles' /tmp/hz.attach.out 2>/dev/null; do
		if [ $waited -ge $((HAZARD_SECONDS + 240)) ]; then
			ktap_fail $id "not done $waited s after the loops began: hotplug $(cat /tmp/hz.hotplug.n 2>/dev/null || echo running), schedstats $(cat /tmp/hz.schedstats.n 2>/dev/null || echo running), attach $(grep -c . /tmp/hz.attach.out) lines" \
				"$(dmesg | grep -A 3 'blocked for more than' | head -n 20)"
			return
		fi
		sleep 5
		waited=$((waited + 5))
	done
	wait
	ktap_diag "in $HAZARD_SECONDS s: $(cat /tmp/hz.hotplug.n) hotplug rounds, $(cat /tmp/hz.schedstats.n) static key rounds, $(cat /tmp/hz.attach.out | tr '\n' ' ')"
	if [ -s /tmp/hz.hotplug.err ] || [ -s /tmp/hz.schedstats.err ] || ! grep -q '^cycles [1-9]' /tmp/hz.attach.out; then
		ktap_fail $id "$(cat /tmp/hz.hotplug.err /tmp/hz.schedstats.err 2>/dev/null | head -n 3)"
	elif [ "$(cat /tmp/hz.hotplug.n)" = 0 ] || [ "$(cat /tmp/hz.schedstats.n)" = 0 ]; then
		ktap_fail $id "a loop made no round"
	else
		ktap_ok $id
	fi
	for l in /sys/devices/system/cpu/cpu*/online; do
		echo 1 >"$l"
	done
}

hotplug_remote_fence() {
	local id=hazards:hotplug-remote-fence p=/sys/module/labtarget/parameters/icache_flush waited=0 errs before
	local secs=$((HAZARD_SECONDS / 2))
	if [ "$LAB_ARCH" != riscv64 ]; then
		ktap_skip $id "riscv64's SBI remote fences only"
		return
	fi
	if [ ! -e /sys/devices/system/cpu/cpu1/online ]; then
		ktap_fail $id "no CPU hotplug in this kernel (riscv64's config has it)"
		return
	fi
	if ! modprobe labtarget 2>/tmp/modprobe.err; then
		ktap_fail $id "modprobe labtarget: $(cat /tmp/modprobe.err)"
		return
	fi
	rm -f /tmp/hz.*
	before=$(dmesg | grep -c 'sbi_rfence.*failed')
	repeat_for "$secs" /tmp/hz.hotplug hotplug_round &
	repeat_for "$secs" /tmp/hz.flush icache_flush_round &
	/lab/tlbspin "$secs" >/tmp/hz.tlb.out 2>&1 &
	while [ ! -e /tmp/hz.hotplug.n ] || [ ! -e /tmp/hz.flush.n ] || ! grep -q '^unmaps' /tmp/hz.tlb.out; do
		if [ $waited -ge $((secs + 240)) ]; then
			ktap_fail $id "not done $waited s after the loops began: hotplug $(cat /tmp/hz.hotplug.n 2>/dev/null || echo running), flushes $(cat $p)"
			return
		fi
		sleep 5
		waited=$((waited + 5))
	done
	wait
	errs=$(( $(dmesg | grep -c 'sbi_rfence.*failed') - before ))
	ktap_diag "in $secs s: $(cat /tmp/hz.hotplug.n) hotplug rounds, $(cat $p) instruction cache flushes, $(cat /tmp/hz.tlb.out) (TLB flushes), $errs failed remote fences"
	if [ -s /tmp/hz.hotplug.err ] || [ -s /tmp/hz.flush.err ] || ! grep -q '^unmaps [1-9]' /tmp/hz.tlb.out; then
		ktap_fail $id "$(cat /tmp/hz.hotplug.err /tmp/hz.flush.err /tmp/hz.tlb.out 2>/dev/null | head -n 3)"
	elif [ "$errs" != 0 ]; then
		ktap_fail $id "a remote fence named a stopped hart" "$(dmesg | grep -m 3 'sbi_rfence.*failed')"
	elif [ "$(cat /tmp/hz.hotplug.n)" = 0 ] || [ "$(cat $p)" = 0 ]; then
		ktap_fail $id "a loop made no round"
	else
		ktap_ok $id
	fi
	for l in /sys/devices/system/cpu/cpu*/online; do
		echo 1 >"$l"
	done
	rmmod labtarget
}

icache_flush_round() { echo 1000 >/sys/module/labtarget/parameters/icache_flush; }

site_move_fails() {
	local id=hazards:site-move-fails f=/sys/kernel/debug/fail_function i=0
	if [ "$LAB_ARCH" != riscv64 ]; then
		ktap_skip $id "riscv64's site moves only"
		return
	fi
	if [ ! -d $f ] || ! sample_built ftrace-direct-multi; then
		ktap_fail $id "no fail_function in debugfs, or no ftrace-direct-multi sample"
		return
	fi
	if ! echo ftrace_site_store >$f/inject 2>/tmp/inject.err; then
		ktap_fail $id "ftrace_site_store cannot be made to fail: $(cat /tmp/inject.err)"
		return
	fi
	# the second call fails, once: space 2 lets the first one through
	echo 0 >$f/verbose
	echo 100 >$f/probability
	echo 1 >$f/times
	echo 2 >$f/space
	echo "lab: expected report begins (a failed site move)" >/dev/console
	modprobe ftrace-direct-multi 2>/tmp/modprobe.err
	# wake_up_process() and schedule() are called all the time: each
	# second here is thousands of calls of both sites
	while [ $i -lt 20 ]; do
		ls / >/dev/null
		sleep 0.1 2>/dev/null || usleep 100000
		i=$((i + 1))
	done
	echo "lab: expected report ends" >/dev/console
	echo >$f/inject
	if ! dmesg | grep -q 'ftrace bug'; then
		ktap_fail $id "the injected failure was not taken (no ftrace bug report)" \
			"$(cat /tmp/modprobe.err)"
	else
		ktap_ok $id
		ktap_diag "$(dmesg | grep -A2 'ftrace bug' | head -n 3 | tr '\n' ' ')"
	fi
}

kprobe_slot_page_end
kprobe_irq_window
hotplug_static_key_attach
hotplug_remote_fence
site_move_fails
