# KTAP helpers sourced by every guest suite.  Results go to the lab's
# results port and, for whoever watches the boot, to the console.
: "${LAB_ARCH:?}" "${KTAP_OUT:?}"
TRACING=/sys/kernel/tracing

_ktap() { # "ok"|"not ok" ID [DIRECTIVE]
	local n
	n=$(( $(cat /tmp/ktap.n 2>/dev/null || echo 0) + 1 ))
	echo "$n" >/tmp/ktap.n
	echo "$1 $n $LAB_ARCH:$2${3:+ # $3}" | tee -a "$KTAP_OUT"
}
ktap_diag() { # LINE... (an argument of several lines gives as many)
	local l
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/# /'
	done | tee -a "$KTAP_OUT"
}
ktap_ok() { _ktap ok "$1"; }
ktap_skip() { _ktap ok "$1" "SKIP $2"; }
ktap_fail() { # ID [DIAG...]
	_ktap "not ok" "$1"
	shift
	[ $# -eq 0 ] || ktap_diag "$@"
}

# bpftest ARGS...: run guest/bpftest, its lines turned into KTAP; a crash
# (any exit status but 0 or 1) is a failure of its own, so tests it never
# reached cannot just go missing
bpftest() {
	local direct=0 rc=0 verdict id reason
	has_direct && direct=1
	/lab/bpftest "$direct" "$@" >/tmp/bpftest.out 2>&1 || rc=$?
	while read -r verdict id reason; do
		case "$verdict" in
		ok) ktap_ok "$id" ;;
		skip) ktap_skip "$id" "$reason" ;;
		fail) ktap_fail "$id" "$reason" ;;
		"#") ktap_diag "$id $reason" ;;
		*) ktap_diag "$verdict $id $reason" ;;
		esac
	done </tmp/bpftest.out
	[ "$rc" -le 1 ] || ktap_fail bpf:exit "bpftest $* exited with status $rc"
}

# Direct calls exist on this kernel: the core's API is in kallsyms.  Only
# then may a missing direct-call feature be a skip rather than a failure.
has_direct() { grep -q ' register_ftrace_direct$' /proc/kallsyms; }
NO_DIRECT="no direct calls on this kernel (no register_ftrace_direct)"

# sample_built NAME: the samples/ftrace module NAME is installed
sample_built() { find /lib/modules -name "$1.ko" | grep -q .; }

# tracing_reset: no tracer, no filter, an empty buffer
tracing_reset() {
	echo nop >$TRACING/current_tracer
	echo >$TRACING/set_ftrace_filter
	echo >$TRACING/trace
	echo 1 >$TRACING/tracing_on
}
