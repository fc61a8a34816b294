#!/bin/sh
# ftracetest: the kernel's own ftracetest, unmodified, one .tc at a time,
# so each test file is one result named after it.
. /lab/ktap.sh

cd /lab/ftrace || { ktap_fail ftracetest:present "no /lab/ftrace"; exit 0; }
for dir in ${LAB_FTRACETEST:-direct ftrace}; do
	for tc in test.d/$dir/*.tc; do
		id=ftracetest:${tc#test.d/}
		log=/tmp/ftracetest/${tc#test.d/}
		rm -rf "$log"
		echo "lab: ftracetest $tc" >/dev/console
		out=$(timeout 600 ./ftracetest -k -l "$log" "$tc" 2>&1)
		# One line per run of the case: "[N] description	[RESULT]";
		# cases flagged "instance" run a second time in an instance.
		res=$(echo "$out" | sed -n -E 's/^\[[0-9]+\].*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]$/\1/p' | sort -u | tr '\n' ' ')
		why=$(cat "$log"/*-log.* 2>/dev/null | grep -v '^+' | tail -n 2 | tr '\n' ' ' | sed 's/ *$//')
		req=$(sed -n 's/^#[ \t]*requires:[ \t]*//p' "$tc")
		case "$res" in
		'') ktap_fail "$id" "no result (timed out or crashed):" "$(echo "$out" | tail -n 3)" ;;
		*FAIL*|*UNDEFINED*)
			ktap_fail "$id" "ftracetest: $res"
			cat "$log"/*-log.* 2>/dev/null | tail -n 15 | while IFS= read -r l; do ktap_diag "$l"; done ;;
		*UNSUPPORTED*|*UNRESOLVED*|*UNTESTED*)
			ktap_skip "$id" "ftracetest ${res% }${req:+ (requires: $req)}${why:+: $why}" ;;
		*) ktap_ok "$id" ;;
		esac
	done
done
