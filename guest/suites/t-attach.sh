#!/bin/sh
# attach: the wall time to attach and then detach fentry programs on 10,
# 100 and 1000 functions of the labtarget module (lab.attach_sizes=, comma
# separated), one program and one link per function as bpftrace makes
# them: guest/bpftest/attach.c. Each size is a result (every attached
# function counted once, nothing counted after the detach) and two lines
#   # bench: attach-N MS MS
#   # bench: detach-N MS MS
# for scripts/bench/median.sh. Run by make bench-attach, not by make check.
# The rounds run again with the labbulk module loaded (16384 more ftrace
# records; lab.attach_bulk=0: not), as attach-N-bulk and detach-N-bulk,
# and "# bench: records[-bulk] N N" says how many records there were.
# lab.attach_sizes=0: no timed rounds. lab.attach_storm=N (make
# check-storm: 1000): fentry programs on N functions detached in a random
# order while every CPU calls them, each call counted once per attached
# program (attach:storm, guest/bpftest/attach.c).
. /lab/lib.sh

if [ -f /lab/bpf.skip ]; then
	ktap_skip bench:attach "$(cat /lab/bpf.skip)"
	exit 0
fi
# native code, as distributions run it (riscv64's 6.1 and 6.12: not the default)
echo 1 >/proc/sys/net/core/bpf_jit_enable ||
	ktap_diag "cannot turn the BPF JIT on"
if ! modprobe labtarget 2>/tmp/modprobe.err; then
	ktap_fail bench:attach "modprobe labtarget: $(cat /tmp/modprobe.err)"
	exit 0
fi
ktap_diag "bench: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
records() { wc -l <"$TRACING/available_filter_functions"; }
if [ "${LAB_ATTACH_SIZES:-}" != 0 ]; then
	n=$(records)
	ktap_diag "bench: records $n $n"
	# shellcheck disable=SC2086 # one size per word
	bpftest attach-bench ${LAB_ATTACH_SIZES:-10 100 1000}
	# the same with labbulk's 16384 more ftrace records: what an attach
	# costs per record of the kernel (lab.attach_bulk=0: not)
	if [ "${LAB_ATTACH_BULK:-1}" != 0 ]; then
		if modprobe labbulk 2>/tmp/modprobe.err; then
			n=$(records)
			ktap_diag "bench: records-bulk $n $n"
			# shellcheck disable=SC2086 # one size per word
			ATTACH_TAG=bulk bpftest attach-bench ${LAB_ATTACH_SIZES:-10 100 1000}
			rmmod labbulk || ktap_diag "rmmod labbulk failed"
		else
			ktap_fail bench:attach-bulk "modprobe labbulk: $(cat /tmp/modprobe.err)"
		fi
	fi
fi
[ -z "${LAB_ATTACH_STORM:-}" ] || bpftest attach-storm "$LAB_ATTACH_STORM"
labtarget_unload bench:attach-unload
