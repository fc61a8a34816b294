#!/bin/sh
# leaks: after every other suite, kmemleak scans memory (twice: an object
# is reported only once it was seen unreferenced in two scans) and any
# suspected leak fails, with the start of its report (the allocation's
# stack). Run by make check-debug, whose kernels have CONFIG_DEBUG_KMEMLEAK.
. /lab/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak
if [ ! -e $KMEMLEAK ]; then
	ktap_fail leaks:kmemleak "no $KMEMLEAK: the kernel has no CONFIG_DEBUG_KMEMLEAK"
	exit 0
fi
# scan N: one scan (the write returns when it is done), a line a minute
# while it runs and its time after: under lockdep and TCG a scan after
# the faults suite took more than the host's 900 s limit of silence on
# riscv64 (2026-12-03), where the lab would take a slow scan for a hang.
scan() {
	local start pid t=0
	start=$(uptime_s)
	echo scan >$KMEMLEAK &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		sleep 1
		t=$((t + 1))
		[ $((t % 60)) -ne 0 ] ||
			ktap_diag "leaks: scan $1 running for $(( $(uptime_s) - start )) s"
	done
	wait $pid || return 1
	ktap_diag "leaks: scan $1 took $(( $(uptime_s) - start )) s"
}
# A scan's first pass over kmemleak's objects is one RCU read-side
# critical section; on a PREEMPT kernel it ends early only where the
# pass sees need_resched(), which preemption itself clears first. After
# riscv64's debug guest had run its suites (under lockdep, KASAN and TCG)
# that pass held the section past the guest's 90 s stall timeout
# (2026-12-03, the second scan, "Tasks blocked on level-0 rcu_node" naming
# the scanning shell, kmemleak_scan() in its stack). The scans get RCU's
# longest timeout, 300 s, and the guest's own after them: nothing but
# the scan runs meanwhile.
STALL=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
stall=$(cat $STALL 2>/dev/null)
[ -z "$stall" ] || echo 300 >$STALL
# A scan that fails (EPERM: kmemleak turned itself off, as it does when
# its own allocations fail for good) would leave an empty report behind.
if ! scan 1 || ! sleep 5 || ! scan 2; then
	[ -z "$stall" ] || echo "$stall" >$STALL
	ktap_fail leaks:kmemleak "a kmemleak scan failed: kmemleak is off" \
		"$(dmesg | grep 'kmemleak:' | tail -n 3)"
	exit 0
fi
[ -z "$stall" ] || echo "$stall" >$STALL
cat $KMEMLEAK >/tmp/kmemleak.txt
if [ ! -s /tmp/kmemleak.txt ]; then
	ktap_ok leaks:kmemleak
else
	ktap_fail leaks:kmemleak "$(grep -c 'unreferenced object' /tmp/kmemleak.txt) suspected leaks"
	head -n 30 /tmp/kmemleak.txt | while IFS= read -r l; do
		ktap_diag "$l"
	done
fi
