#!/bin/sh
# kunit: the KUnit suites below print KTAP to the kernel log, at boot when
# built in, when loaded as a module (loaded here); each of their cases is one
# result here, kunit:SUITE:CASE, with the case's own lines (expectations,
# kunit_info) as diagnostics.
. /lab/lib.sh

# load_suite MODULE: load the suite's module if it is one, and unload it.
# No parameters are passed: 6.1's KUnit runs a module's suites from the
# MODULE_STATE_COMING notifier, which load_module() calls before it parses
# the module's parameters, so a module's suite only ever sees the defaults
# (the ftrace_direct_kunit.*= words of the command line reach the suite
# only where it is built in).
load_suite() {
	find /lib/modules -name "$1.ko" | grep -q . || return 0
	if ! modprobe "$1" 2>/tmp/kunit.err; then
		ktap_fail "kunit:$1:load" "modprobe $1: $(cat /tmp/kunit.err)"
		return 0
	fi
	ktap_ok "kunit:$1:load"
	rmmod "$1" || ktap_fail "kunit:$1:unload" "rmmod $1 failed"
}

diag_lines() { # TAB-SEPARATED-LINES
	echo "$1" | tr '\t' '\n' | sed '/^$/d' | while read -r l; do
		ktap_diag "$l"
	done
}

load_suite ftrace_direct_kunit
for suite in ftrace_direct; do
	dmesg | sed 's/^\[[^]]*\] //' | awk -v suite="$suite" '
	# Subtest header of the suite: its cases follow, one level deeper.
	$1 == "#" && $2 == "Subtest:" { inside = ($3 == suite); lines = ""; next }
	!inside { next }
	# The suite result at the outer level ends it; other kernel messages
	# are not indented.
	/^(not )?ok [0-9]+ / { inside = 0; next }
	!/^[ \t]/ { next }
	{ sub(/^[ \t]+/, "") }
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
		ktap_fail "kunit:$suite:present" \
			"KUnit suite $suite did not run (CONFIG_FTRACE_DIRECT_KUNIT_TEST?)"
		continue
	fi
	tab=$(printf '\t')
	while IFS="$tab" read -r name v rest; do
		case "$v" in
		ok) ktap_ok "kunit:$suite:$name"; diag_lines "$rest" ;;
		skip) ktap_skip "kunit:$suite:$name" "${rest%%"$tab"*}" ;;
		*) ktap_fail "kunit:$suite:$name"; diag_lines "$rest" ;;
		esac
	done </tmp/kunit.txt
done
