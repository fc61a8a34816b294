#!/bin/bash
# check-debug.sh [ARCH...]: each architecture built again with
# variants/debug/config (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST,
# kmemleak, fault injection) into build/out/ARCH-debug, booted, the guest
# suites run (the faults suite among them: its error paths under KASAN
# and kmemleak) and then the leaks scan; any report on a console fails
# that run. Default: DEBUG_ARCHS. The last line is the total over all.
#
# All kernels are built first and the guests then boot one after the
# other, so that no guest shares the two host CPUs with a build.
#
# variants/debug/ARCH.env may add words to an architecture's debug kernel
# command line (KERNEL_ARGS; x86_64: acpi=noirq), name the suites its
# guest runs instead of the default (SUITES; riscv64: no startup
# selftests) and give it more than the 3600 s the others get
# (GUEST_TIMEOUT; riscv64), each with its reason there. SUITES2 there
# boots the same kernel a second time, for those suites (results as
# ARCH-debug2): riscv64's seven suites do not fit one guest's time;
# KERNEL_ARGS2 there adds words to that second boot's command line.
# SUITES given on make's command line: one guest per kernel, those.
# DEBUG_BOOT=1 or 2: only the first or only the second boot of an
# architecture that has two (to fit one of them in a session).
#
# Under these kernels the suites run 10 to 25 times slower than in make
# check. Left out here, and run by make check on the same code: the
# orders suite (3 minutes on arm64 in make check), ftracetest's ftrace/
# directory and direct/ftrace-direct.tc, whose cases trace every function
# of the kernel (ftrace-direct.tc did not finish in 600 s on arm64).
. "$(dirname "$0")/runner.sh"

arches=${*:-$(make_var DEBUG_ARCHS)}
case ${DEBUG_BOOT:-1} in 1 | 2) ;; *) die "DEBUG_BOOT is 1 or 2, not '$DEBUG_BOOT'" ;; esac
# shellcheck disable=SC2086 # one architecture per word
run_start $arches
suites=startup,kunit,ftracetest,samples,sharing,bpf,faults,leaks
booted=
# debug_suites ARCH: SUITES if given, else the arch's own
# (variants/debug/ARCH.env), else all of the list above
debug_suites() {
	local s=${SUITES:-$(variant_var "$1" debug SUITES)}
	echo "${s:-$suites}"
}
# debug_boots ARCH: which of ARCH's boots run: "1 2" where it has two
# (SUITES2) and SUITES is not given, else "1"; DEBUG_BOOT picks one of two
debug_boots() {
	if [ -z "${SUITES:-}" ] && [ -n "$(variant_var "$1" debug SUITES2)" ]; then
		echo "${DEBUG_BOOT:-1 2}"
	else
		echo 1
	fi
}
# the name of ARCH's first boot, under which its kernel's build is reported
first_name() {
	case $(debug_boots "$1") in 2) echo "$1-debug2" ;; *) echo "$1-debug" ;; esac
}
for a in $arches; do
	SUITES=$(debug_suites "$a") run_prepare "$(first_name "$a")" "$a" debug || continue
	booted="$booted $a"
done
# The shared KUnit storm swaps 200 times, as in make check, not its own
# 1000 (make check-storm); an architecture's words come after these
# (variants/debug/ARCH.env: KERNEL_ARGS), and its time (GUEST_TIMEOUT).
for a in $booted; do
	args="lab.ftracetest=direct/kprobe-direct.tc"
	args="$args ftrace_direct_kunit.shared_storm_swaps=${STORM_SWAPS:-200}"
	args="$args $(variant_var "$a" debug KERNEL_ARGS)"
	t=$(variant_var "$a" debug GUEST_TIMEOUT)
	second=$(variant_var "$a" debug SUITES2)
	boots=$(debug_boots "$a")
	case " $boots " in *" 1 "*)
		SUITES=$(debug_suites "$a") KERNEL_ARGS="$args" TIMEOUT=${TIMEOUT:-${t:-3600}} \
			run_boot "$a-debug" "$a" debug ;;
	esac
	case " $boots " in *" 2 "*)
		SUITES=$second KERNEL_ARGS="$args $(variant_var "$a" debug KERNEL_ARGS2)" \
			TIMEOUT=${TIMEOUT:-${t:-3600}} run_boot "$a-debug2" "$a" debug ;;
	esac
done
run_end
