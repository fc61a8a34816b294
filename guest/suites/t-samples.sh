#!/bin/sh
# samples: load each samples/ftrace direct module, look for what it
# writes to the trace buffer, unload it while attached and check that
# nothing of it is left in enabled_functions.
. /lab/lib.sh

# state: what a failure's diagnostics add, so that a failed run says
# what was loaded and attached and what the kernel said last
state() {
	echo "modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	echo "enabled_functions: $(head -n 3 $TRACING/enabled_functions | tr '\n' ' ')"
	echo "tracing_on $(cat $TRACING/tracing_on), current_tracer $(cat $TRACING/current_tracer)"
	# whether the ring buffer overwrote older entries (a pattern seen
	# early only would then be gone): the header, and each CPU's overrun
	grep -m 1 'entries-in-buffer' $TRACING/trace
	echo "overrun:$(cat $TRACING/per_cpu/cpu*/stats 2>/dev/null | sed -n 's/^overrun: / /p' | tr -d '\n')"
	dmesg | tail -n 5
}

# sample MODULE SECONDS PATTERN...: every PATTERN must be in the trace
sample() {
	local mod=$1 secs=$2 id=samples:$1 p missing= left
	shift 2
	if ! sample_built "$mod"; then
		if has_direct; then
			ktap_fail "$id" "$mod.ko was not built although the kernel has direct calls"
		else
			ktap_skip "$id" "$mod.ko not built: $NO_DIRECT"
		fi
		return
	fi
	tracing_reset
	if ! modprobe "$mod" 2>/tmp/modprobe.err; then
		ktap_fail "$id" "modprobe $mod: $(cat /tmp/modprobe.err)" "$(state)"
		return
	fi
	ls -lR /lib >/dev/null	# page faults and wakeups for the samples to see
	sleep "$secs"
	for p in "$@"; do
		grep -q "$p" $TRACING/trace || missing="$missing '$p'"
	done
	if ! rmmod "$mod" 2>/tmp/rmmod.err; then
		ktap_fail "$id" "rmmod $mod: $(cat /tmp/rmmod.err)" "$(state)"
		return
	fi
	# Its trampolines went with it: no site may still call into them.
	# (tracefs files have no size: read them)
	left=$(head -n 1 $TRACING/enabled_functions)
	if [ -n "$left" ]; then
		ktap_fail "$id" "left after rmmod: $left" "$(state)"
	elif [ -n "$missing" ]; then
		ktap_fail "$id" "not in the trace buffer:$missing" "$(tail -n 3 $TRACING/trace)
$(state)"
	else
		ktap_ok "$id"
	fi
}

# distinct_ips PATTERN: how many different "ip" values PATTERN lines show
distinct_ips() {
	grep "$1" $TRACING/trace | sed -n 's/.* ip \([0-9a-f]*\).*/\1/p' | sort -u | wc -l
}

# multi MODULE SECONDS PATTERN...: as sample, and both filtered functions
# (wake_up_process and schedule) must have been seen: two distinct ips.
multi() {
	local mod=$1
	sample "$@"
	sample_built "$mod" || return 0
	# The buffer still holds the run that sample() just checked.
	local n
	n=$(distinct_ips "ip ")
	if [ "$n" -lt 2 ]; then
		ktap_fail "samples:$mod:both-functions" "hits from $n function(s), want wake_up_process and schedule"
	else
		ktap_ok "samples:$mod:both-functions"
	fi
}

sample ftrace-direct 1 "my_direct_func: waking up"
sample ftrace-direct-too 1 "handle mm fault"
sample ftrace-direct-modify 5 "my direct func1" "my direct func2"
multi ftrace-direct-multi 1 "my_direct_func: ip "
multi ftrace-direct-multi-modify 5 "my direct func1 ip " "my direct func2 ip "
tracing_reset

# ftrace-direct-bench (make bench times it): each mode it attaches runs,
# its callbacks see every call (a miss fails the write with EIO), and
# nothing is left attached after each run or after rmmod. As a module it
# cannot map a far trampoline: direct-far is refused with EOPNOTSUPP;
# built in (arm64), direct-far is one more mode that must work. ops-100
# is ops-10's code with 100 other ops, and unregistering each waits for
# a grace period: make bench runs it, not this suite.
bench() {
	local id=samples:ftrace-direct-bench m modes="untraced direct direct-ops ops ops-10 kprobe" err= left builtin= P
	P=/sys/module/ftrace_direct_bench/parameters
	if [ -w $P/run ]; then
		# built in (arm64): no module to load, and direct-far must work;
		# the timing parameters go back to what make bench expects
		builtin="$(cat $P/loops) $(cat $P/repeats)"
		modes="$modes direct-far"
		echo 2000 >$P/loops
		echo 3 >$P/repeats
	elif ! sample_built ftrace-direct-bench; then
		if has_direct; then
			ktap_fail "$id" "ftrace-direct-bench.ko was not built although the kernel has direct calls"
		else
			ktap_skip "$id" "ftrace-direct-bench.ko not built: $NO_DIRECT"
		fi
		return
	fi
	grep -q ' ftrace_regs_caller$' /proc/kallsyms && modes="$modes ops-regs"
	if [ -z "$builtin" ] && ! modprobe ftrace-direct-bench loops=2000 repeats=3 2>/tmp/modprobe.err; then
		ktap_fail "$id" "modprobe: $(cat /tmp/modprobe.err)"
		return
	fi
	for m in $modes; do
		if ! echo "$m" 2>/tmp/bench.err >/sys/module/ftrace_direct_bench/parameters/run; then
			# without KPROBES_ON_FTRACE the sample refuses a kprobe
			# on a target that starts with its patch site (mips64el)
			if [ $m = kprobe ] && grep -q 'Operation not supported' /tmp/bench.err &&
			   ! grep -q ' kprobe_ftrace_handler$' /proc/kallsyms; then
				ktap_diag "$id: kprobe refused (EOPNOTSUPP): the target starts with its patch site"
				continue
			fi
			err="$err $m: $(cat /tmp/bench.err);"
		elif [ -n "$(head -n 1 $TRACING/enabled_functions)" ]; then
			err="$err $m: left $(head -n 1 $TRACING/enabled_functions);"
		fi
	done
	if [ -n "$builtin" ]; then
		echo "${builtin% *}" >$P/loops
		echo "${builtin#* }" >$P/repeats
	else
		if echo direct-far 2>/tmp/bench.err >/sys/module/ftrace_direct_bench/parameters/run; then
			err="$err direct-far: accepted by the module;"
		elif ! grep -q 'Operation not supported' /tmp/bench.err; then
			err="$err direct-far: $(cat /tmp/bench.err), not EOPNOTSUPP;"
		fi
		rmmod ftrace-direct-bench || err="$err rmmod failed;"
		left=$(head -n 1 $TRACING/enabled_functions)
		[ -z "$left" ] || err="$err left after rmmod: $left"
	fi
	if [ -n "$err" ]; then
		ktap_fail "$id" "$err" "$(state)"
	else
		ktap_ok "$id"
	fi
}
bench
