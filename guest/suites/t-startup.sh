#!/bin/sh
# startup: each ftrace startup selftest of the boot log is one result.
# A test prints "Testing NAME: " and its verdict later with KERN_CONT, so
# other messages (and its own progress) may stand between the two: the
# verdict is the first PASSED/OK/FAILED/SKIPPED before the next test.
. /lab/lib.sh

dmesg | awk '
function flush(v, why) {
	if (name != "")
		printf "%s\t%s\t%s\n", name, v, why
	name = ""
}
function verdict(s) {
	if (s ~ /FAILED/)	{ flush("fail", s); return }
	if (s ~ /SKIPPED/)	{ flush("skip", s); return }
	if (s ~ /PASSED|(^|[^A-Za-z])OK([^A-Za-z]|$)/) flush("ok", "")
}
{ sub(/^\[[^]]*\] /, "") }
/^([a-z_]+: )?Testing [^:]*: / {
	if (name != "")
		flush("fail", "no verdict before the next test")
	sub(/^[a-z_]+: /, "")
	name = $0
	sub(/^Testing /, "", name)
	sub(/: .*/, "", name)
	gsub(/[^A-Za-z0-9_]+/, "-", name)
	sub(/-$/, "", name)
	rest = $0
	sub(/^[^:]*: /, "", rest)
	verdict(rest)
	next
}
name != "" { verdict($0) }
END { if (name != "") flush("fail", "no verdict in the boot log") }
' >/tmp/startup.txt

if [ ! -s /tmp/startup.txt ]; then
	ktap_fail startup:present "no ftrace startup selftest in the boot log (FTRACE_STARTUP_TEST?)"
	exit 0
fi
tab=$(printf '\t')
while IFS="$tab" read -r name v why; do
	case "$v" in
	ok) ktap_ok "startup:$name" ;;
	skip) ktap_skip "startup:$name" "$why" ;;
	*) ktap_fail "startup:$name" "$why" ;;
	esac
done </tmp/startup.txt
