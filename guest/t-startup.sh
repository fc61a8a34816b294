#!/bin/sh
# startup: each ftrace startup selftest line of the boot log is a result.
. /lab/ktap.sh

dmesg | sed -n 's/^\[[^]]*\] //; /^Testing .*: /p' >/tmp/startup.txt
if [ ! -s /tmp/startup.txt ]; then
	ktap_fail startup:present "no ftrace startup selftest in the boot log (FTRACE_STARTUP_TEST?)"
	exit 0
fi
while IFS= read -r line; do
	name=$(echo "${line#Testing }" | sed 's/:.*//; s/[^A-Za-z0-9_]\{1,\}/-/g; s/-$//')
	case "$line" in
	*PASSED*) ktap_ok "startup:$name" ;;
	*SKIPPED*) ktap_skip "startup:$name" "${line##*: }" ;;
	*) ktap_fail "startup:$name" "$line" ;;
	esac
done </tmp/startup.txt
