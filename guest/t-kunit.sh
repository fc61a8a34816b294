#!/bin/sh
# kunit: the built-in KUnit suites below ran at boot and printed KTAP to
# the kernel log; each of their cases is one result here, kunit:SUITE:CASE,
# with the case's own lines (expectations, kunit_info) as diagnostics.
. /lab/ktap.sh

diag_lines() { # TAB-SEPARATED-LINES
	echo "$1" | tr '\t' '\n' | sed '/^$/d' | while read -r l; do
		ktap_diag "$l"
	done
}

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
			"KUnit suite $suite did not run at boot (CONFIG_FTRACE_DIRECT_KUNIT_TEST?)"
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
