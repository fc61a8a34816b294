#!/bin/sh
# bench: the cost of a traced call by what is attached to the function,
# timed by samples/ftrace/ftrace-direct-bench.c, built in by make bench
# (arm64 direct-far needs it) or else loaded as a module. One line per mode:
#   # bench: MODE NS_PER_CALL RATIO_TO_UNTRACED
# for scripts/bench/bench.sh to collect. Only ratios within this one boot mean
# anything under TCG. Run by make bench, not by make check.
. /lab/lib.sh

MOD=ftrace-direct-bench
RUN=/sys/module/ftrace_direct_bench/parameters/run
FUNC=ftrace_bench_target

# want LABEL: true unless lab.bench_modes= names other modes only (make
# icount ICOUNT_MODES=...: step through some modes, not all)
want() {
	[ -z "${LAB_BENCH_MODES:-}" ] && return 0
	case " $LAB_BENCH_MODES " in *" $1 "*) return 0 ;; esac
	return 1
}

# timed MODE [LABEL]: write MODE to the module, report its line as LABEL.
# The ratio is the module's: to an untraced twin of the function, timed in
# the same repeats. A mode lab.bench_modes= leaves out is not run at all.
timed() {
	local mode=$1 label=${2:-$1} line ns ratio
	want "$label" || return 0
	if ! echo "$mode" 2>/tmp/bench.err >$RUN; then
		ktap_fail "bench:$label" "$(cat /tmp/bench.err)" "$(dmesg | tail -n 3)"
		return 1
	fi
	line=$(dmesg | grep "ftrace_direct_bench: $mode: " | tail -n 1)
	ns=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) ns\/call.*/\1/p')
	ratio=$(echo "$line" | sed -n 's/.* x\([0-9.]*\) untraced.*/\1/p')
	if [ -z "$ns" ] || [ -z "$ratio" ]; then
		ktap_fail "bench:$label" "no result line: $line"
		return 1
	fi
	ktap_diag "bench: $label $ns $ratio"
	ktap_ok "bench:$label"
}

# built in: the parameters are there from boot; BTF is vmlinux's
builtin=
btf=ftrace_direct_bench
if [ -w "$RUN" ]; then
	builtin=1
	btf=vmlinux
elif ! sample_built "$MOD"; then
	if has_direct; then
		ktap_fail bench:module "$MOD was not built although the kernel has direct calls"
	else
		ktap_skip bench:module "$MOD not built: $NO_DIRECT"
	fi
	exit 0
elif ! modprobe "$MOD" 2>/tmp/modprobe.err; then
	ktap_fail bench:module "modprobe $MOD: $(cat /tmp/modprobe.err)"
	exit 0
fi
unload() { [ -n "$builtin" ] || rmmod "$MOD"; }

# kprobe_refused FUNC: true when FUNC's ftrace site (available_filter_
# functions_addrs, v6.5 on; 6.1 lacks it, and then this is false) is its
# address in kallsyms and the kernel has no kprobe_ftrace_handler
kprobe_refused() {
	local addrs=$TRACING/available_filter_functions_addrs site entry
	grep -q ' kprobe_ftrace_handler$' /proc/kallsyms && return 1
	[ -r "$addrs" ] || return 1
	site=$(awk -v f="$1" '$2 == f { print $1; exit }' "$addrs" | sed 's/^0*//')
	entry=$(awk -v f="$1" '$3 == f { print $1; exit }' /proc/kallsyms | sed 's/^0*//')
	[ -n "$site" ] && [ "$site" = "$entry" ]
}
# make icount: each mode calls the function LAB_BENCH_CALLS times in all,
# for a debugger to step through; the times are then meaningless.
if [ -n "${LAB_BENCH_CALLS:-}" ]; then
	echo "$LAB_BENCH_CALLS" >/sys/module/ftrace_direct_bench/parameters/loops &&
		echo 1 >/sys/module/ftrace_direct_bench/parameters/repeats ||
		{ ktap_fail bench:calls "cannot set $LAB_BENCH_CALLS calls a mode"; unload; exit 0; }
	ktap_diag "bench calls: $LAB_BENCH_CALLS a mode"
fi
ktap_diag "bench: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
# BPF programs as native code, as distributions run them: riscv64's 6.1
# and 6.12 leave the JIT off by default (no ARCH_WANT_DEFAULT_BPF_JIT),
# and their bpf-fentry would time the interpreter (bpftest hold-empty refuses that)
echo 1 >/proc/sys/net/core/bpf_jit_enable ||
	ktap_diag "cannot turn the BPF JIT on"
tracing_reset
timed untraced || { unload; exit 0; }
timed direct
# arm64: a trampoline out of BL reach, called through ftrace_caller
if [ "$(uname -m)" != aarch64 ]; then
	ktap_skip bench:direct-far "the sample copies its trampoline out of reach on arm64 only"
elif [ -n "$builtin" ]; then
	timed direct-far
else
	ktap_fail bench:direct-far "$MOD is a module, which cannot map code out of reach (variants/bench/config builds it in)"
fi
timed direct-ops
timed ops
# SAVE_REGS needs DYNAMIC_FTRACE_WITH_REGS, whose entry is ftrace_regs_caller
if grep -q ' ftrace_regs_caller$' /proc/kallsyms; then
	timed ops-regs
else
	ktap_skip bench:ops-regs "no DYNAMIC_FTRACE_WITH_REGS on this kernel"
fi
# the ops among 10 and 100 others registered on another function
timed ops-10
timed ops-100
# A kprobe on the function's first instruction. Where that instruction is
# the function's ftrace site, only KPROBES_ON_FTRACE (whose handler is
# kprobe_ftrace_handler) can take it, and the kernel refuses it otherwise
# (the sample's -EOPNOTSUPP): 6.12 on riscv64, whose site is at offset 0
# and which has no KPROBES_ON_FTRACE. Ours has it there. Both conditions
# are read from the kernel before the mode is asked for.
if want kprobe && kprobe_refused "$FUNC"; then
	ktap_skip bench:kprobe "$FUNC's ftrace site is its first instruction and this kernel has no KPROBES_ON_FTRACE"
else
	timed kprobe
fi

# The function tracer, writing each call to the ring buffer
if want function-tracer; then
	echo "$FUNC" >$TRACING/set_ftrace_filter
	echo function >$TRACING/current_tracer
	timed attached function-tracer
	# counted before the tracer goes: changing current_tracer empties the buffer
	n=$(grep -c "$FUNC" $TRACING/trace)
	echo nop >$TRACING/current_tracer
	if [ "$n" -gt 0 ]; then
		ktap_ok bench:function-tracer:seen
	else
		ktap_fail bench:function-tracer:seen "no $FUNC in the trace buffer"
	fi
	tracing_reset
fi

# An empty BPF fentry program, attached while the module times the calls
if want bpf-fentry; then
	if bpf_hold bench hold-empty "$btf" "$FUNC"; then
		timed attached bpf-fentry
	else
		ktap_fail bench:bpf-fentry "bpftest: $(head -n 3 /tmp/hold.bench)"
	fi
	bpf_release bench
fi

# function_graph on the function, then again while a BPF trampoline sits
# on another function: what a direct caller elsewhere costs the graph
# tracer's entry.
if want function-graph || want function-graph-bpf; then
	echo "$FUNC" >$TRACING/set_graph_function
	echo "$FUNC" >$TRACING/set_ftrace_filter
	echo function_graph >$TRACING/current_tracer
	timed attached function-graph
	if want function-graph-bpf; then
		if bpf_hold bench hold-empty vmlinux bpf_fentry_test1; then
			timed attached function-graph-bpf
		else
			ktap_fail bench:function-graph-bpf "bpftest: $(head -n 3 /tmp/hold.bench)"
		fi
		bpf_release bench
	fi
	echo nop >$TRACING/current_tracer
	echo >$TRACING/set_graph_function
	tracing_reset
fi

timed untraced untraced-again
unload || ktap_fail bench:rmmod "rmmod $MOD failed"
left=$(head -n 1 $TRACING/enabled_functions)
[ -z "$left" ] || ktap_fail bench:left "left at the end: $left"
