#!/bin/sh
# faults: every entry point of the direct call API and every attach path
# of BPF under fault injection (make check-faults; make check-debug on
# KASAN kernels). Each is called with its 1st, 2nd, ... allocation failed
# (fail-nth) until a call runs untouched: the KUnit suite
# ftrace_direct_faults sweeps register/unregister/modify_ftrace_direct and
# update_ftrace_direct_add/del/mod, bpftest the BPF links (fentry, fexit,
# fmod_ret, kprobe.multi: create and close) and the load and unload of a
# module with a direct trampoline (samples/ftrace's ftrace-direct). Each
# result's diagnostics give the injection points its sweep reached.
# bpf:override-fexit: fexit on a labtarget function that fail_function or
# a kprobe.multi program overrides at entry (this variant has both).
. /lab/lib.sh

FI=/sys/kernel/debug
if [ ! -d $FI/failslab ] || [ ! -d $FI/fail_page_alloc ]; then
	ktap_skip faults "no failslab and fail_page_alloc in debugfs: no CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC or CONFIG_FAULT_INJECTION_DEBUG_FS"
	exit 0
fi
# As syzkaller sets them: fail-nth may fail any allocation a task makes,
# GFP_KERNEL (which may sleep) and single pages included; say nothing of
# each one failed (the sweeps fail hundreds).
# lab.fault_verbose=1 or 2 (boot.sh KERNEL_ARGS): a line, or a stack,
# for each (a diagnostic run).
for f in failslab fail_page_alloc; do
	echo N >$FI/$f/ignore-gfp-wait
	echo "${LAB_FAULT_VERBOSE:-0}" >$FI/$f/verbose
done
echo N >$FI/fail_page_alloc/ignore-gfp-highmem
echo 0 >$FI/fail_page_alloc/min-order

# The allocator prints a stack for each allocation failed without
# __GFP_NOWARN (warn_alloc()): the judge takes those for this suite's own
# between these lines (scripts/judge.sh); any other report still counts.
echo "lab: failed allocations expected begins (the faults suite)" >/dev/console

# lab.fault_rounds=N: the KUnit sweeps N times, each round's results
# named kunit:ftrace_direct_faults-R:... (a diagnostic run: an
# intermittent failure)
rounds=${LAB_FAULT_ROUNDS:-1}
if [ -w /sys/module/ftrace_direct_kunit/parameters/run_faults ]; then
	r=1
	while [ "$r" -le "$rounds" ]; do
		label=ftrace_direct_faults
		if [ "$rounds" -gt 1 ]; then
			# each round reads only its own KTAP from the log
			dmesg -c >/dev/null
			label=ftrace_direct_faults-$r
		fi
		echo 1 >/sys/module/ftrace_direct_kunit/parameters/run_faults
		kunit_report ftrace_direct_faults "$label"
		r=$((r + 1))
	done
elif has_direct; then
	ktap_fail faults:kunit "no run_faults in ftrace_direct_kunit (CONFIG_FTRACE_DIRECT_KUNIT_TEST with FAULT_INJECTION)"
fi

if [ -f /lab/bpf.skip ]; then
	ktap_skip faults:bpf "$(cat /lab/bpf.skip)"
else
	echo 1 >/proc/sys/net/core/bpf_jit_enable
	modprobe labtarget 2>/tmp/modprobe.err ||
		ktap_diag "modprobe labtarget: $(cat /tmp/modprobe.err)"
	# first, with no other caller: it counts every call of labtarget_check()
	bpftest override
	# the function's other caller, on the last CPU (bpftest is on CPU 0)
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	echo $((cpus - 1)) >/sys/module/labtarget/parameters/caller_cpu ||
		ktap_diag "no labtarget caller thread"
	ko=$(find /lib/modules -name ftrace-direct.ko | head -n 1)
	[ -n "$ko" ] || ktap_diag "no ftrace-direct.ko: the module sweeps are left out"
	bpftest faults $ko
	echo -1 >/sys/module/labtarget/parameters/caller_cpu
	ktap_diag "labtarget's caller made $(cat /sys/module/labtarget/parameters/caller_cpu) calls"
	labtarget_unload faults:labtarget-unload
fi

for f in failslab fail_page_alloc; do
	echo Y >$FI/$f/ignore-gfp-wait
done
echo "lab: failed allocations expected ends" >/dev/console
