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

load_suite ftrace_direct_kunit
kunit_report ftrace_direct
# the architecture's own suites (KUNIT_SUITES of arches/ARCH.env)
for suite in ${LAB_KUNIT:-}; do
	kunit_report "$suite"
done
