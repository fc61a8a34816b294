# The guest's library, sourced by the runner and every suite: the KTAP
# helpers (results go to the lab's results port and, for whoever watches
# the boot, to the console), what the kernel can do (has_direct,
# sample_built), tracing_reset, bpftest's verdicts as KTAP, a BPF program
# held attached for a while (bpf_hold), a command repeated for a while
# (repeat_for) and a KUnit suite's cases from the kernel log
# (kunit_report).
: "${LAB_ARCH:?}" "${KTAP_OUT:?}"
TRACING=/sys/kernel/tracing

_ktap() { # "ok"|"not ok" ID [DIRECTIVE]
	local n
	n=$(( $(cat /tmp/ktap.n 2>/dev/null || echo 0) + 1 ))
	echo "$n" >/tmp/ktap.n
	echo "$1 $n ${LAB_NAME:-$LAB_ARCH}:$2${3:+ # $3}" | tee -a "$KTAP_OUT"
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

uptime_s() { cut -d. -f1 /proc/uptime; }

# repeat_for SECONDS FILE CMD...: CMD again and again for SECONDS; the
# rounds made in FILE.n (written at the end), the first error in FILE.err
repeat_for() {
	local secs=$1 out=$2 end n=0
	shift 2
	end=$(( $(uptime_s) + secs ))
	while [ "$(uptime_s)" -lt $end ]; do
		if ! "$@" 2>>"$out.err"; then
			echo "round $n failed" >>"$out.err"
			break
		fi
		n=$((n + 1))
	done
	echo $n >"$out.n"
}

# bpf_hold TAG ARG...: "bpftest 1 ARG..." in the background, holding its
# program attached until bpf_release TAG. 0 once it says "attached"; 1 if
# it says "error", exits or says nothing within 60 s (its output stays in
# /tmp/hold.TAG, and nothing is left running).
bpf_hold() {
	local tag=$1 i=0
	shift
	# Emptied here, not by the job's redirection: that runs in the
	# background and may come after the first grep, which would then read
	# the previous hold's "attached".
	: >/tmp/hold.$tag
	/lab/bpftest 1 "$@" >/tmp/hold.$tag 2>&1 &
	echo $! >/tmp/hold.$tag.pid
	while [ $i -lt 600 ] && ! grep -qE '^(attached|error)' /tmp/hold.$tag; do
		kill -0 "$(cat /tmp/hold.$tag.pid)" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '^attached' /tmp/hold.$tag && return 0
	bpf_release "$tag"
	return 1
}
bpf_release() { # TAG
	kill "$(cat /tmp/hold.$1.pid)" 2>/dev/null
	wait "$(cat /tmp/hold.$1.pid)" 2>/dev/null
	return 0
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

# labtarget_unload ID: rmmod labtarget once every program on it is
# detached; the module must go and leave no record of its functions in
# enabled_functions (no patched site behind): result ID
labtarget_unload() {
	if ! rmmod labtarget 2>/tmp/rmmod.err; then
		ktap_fail "$1" "rmmod labtarget: $(cat /tmp/rmmod.err)"
	elif grep -q '^labtarget_' $TRACING/enabled_functions; then
		ktap_fail "$1" "stale records:" "$(grep '^labtarget_' $TRACING/enabled_functions | head -n 5)"
	else
		ktap_ok "$1"
	fi
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

# kunit_report SUITE: the cases of KUnit suite SUITE, from the kernel log,
# each a result kunit:SUITE:CASE with the case's own lines (expectations,
# kunit_info) as diagnostics; a failure if the suite did not run
kunit_report() {
	local suite=$1 label=${2:-$1} tab name v rest l
	dmesg | sed 's/^\[[^]]*\] //' | awk -v suite="$suite" '
	# Subtest header of the suite: its cases follow at its indentation. A
	# deeper one is a parameterised case'"'"'s: its parameters'"'"' results
	# are diagnostics of that case (the failed ones), which has a result
	# of its own after them.
	$1 == "#" && $2 == "Subtest:" {
		match($0, /^[ \t]*/)
		if ($3 == suite) {
			inside = 1; depth = RLENGTH; lines = ""
		} else if (!inside || RLENGTH <= depth) {
			inside = 0
		}
		next
	}
	!inside { next }
	# The suite result at the outer level ends it; other kernel messages
	# are not indented.
	/^(not )?ok [0-9]+ / { inside = 0; next }
	!/^[ \t]/ { next }
	{ match($0, /^[ \t]*/); ind = RLENGTH; sub(/^[ \t]+/, "") }
	/^ok [0-9]+ / && ind > depth { next }
	/^not ok [0-9]+ / && ind > depth { lines = lines "\t" $0; next }
	/^(not )?ok [0-9]+ / {
		v = ($1 == "ok") ? "ok" : "fail"
		name = ($1 == "ok") ? $3 : $4
		why = ""
		if (index($0, "# SKIP")) {
			v = "skip"
			why = substr($0, index($0, "# SKIP") + 7)
		}
		printf "%s\t%s\t%s%s\n", name, v, why, lines
		lines = ""
		next
	}
	/^(KTAP|1\.\.)/ { next }
	{ sub(/^# /, ""); lines = lines "\t" $0 }
	' >/tmp/kunit.txt

	if [ ! -s /tmp/kunit.txt ]; then
		ktap_fail "kunit:$label:present" "KUnit suite $suite did not run"
		return
	fi
	tab=$(printf '\t')
	while IFS="$tab" read -r name v rest; do
		case "$v" in
		ok) ktap_ok "kunit:$label:$name" ;;
		skip) ktap_skip "kunit:$label:$name" "${rest%%"$tab"*}"; continue ;;
		*) ktap_fail "kunit:$label:$name" ;;
		esac
		echo "$rest" | tr '\t' '\n' | sed '/^$/d' | while read -r l; do
			ktap_diag "$l"
		done
	done </tmp/kunit.txt
}
