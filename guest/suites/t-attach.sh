#!/bin/sh
# attach: the wall time to attach and then detach fentry programs on 10,
# 100 and 1000 functions of the labtarget module (lab.attach_sizes=, comma
# separated), one program and one link per function as bpftrace makes
# them: guest/bpftest/attach.c. Each size is a result (every attached
# function counted once, nothing counted after the detach) and two lines
#   # bench: attach-N MS MS
#   # bench: detach-N MS MS
# for scripts/bench/median.sh. Run by make bench-attach, not by make check.
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
if [ "${LAB_ATTACH_SIZES:-}" != 0 ]; then
	# shellcheck disable=SC2086 # one size per word
	bpftest attach-bench ${LAB_ATTACH_SIZES:-10 100 1000}
fi
[ -z "${LAB_ATTACH_STORM:-}" ] || bpftest attach-storm "$LAB_ATTACH_STORM"
labtarget_unload bench:attach-unload
