# runner.sh: sourced by every check (check, check-debug, check-variants,
# check-storm, check-preempt) and make bench: the steps each takes
# around its own matrix of kernels and guests, written once.
#
#   run_start ARCH...          packages, busybox, the kernel tree, the clock
#   run_build NAME ARCH [V]    the kernel (build.sh); NAME's failure if not
#   run_initramfs NAME ARCH [V] its initramfs with $SUITES; NAME's failure if not
#   run_prepare NAME ARCH [V]  both
#   run_boot NAME ARCH [V]     the guest, results as NAME (SUITES, KERNEL_ARGS,
#                              TIMEOUT, ... from the environment)
#   run_failed NAME STEP [DIAG] NAME's one result when its guest never booted
#   run_end                    the summary of every NAME, and its exit status
#   variant_var ARCH V KEY     a guest setting of variant V (variants/V/env,
#                              then variants/V/ARCH.env)
#
# NAME is the results' name (build/results/NAME.tap): ARCH, or
# ARCH-VARIANT, or ARCH-what (x86_64-storm); each counts in the summary.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run_names=
run_t0=$(date +%s)

run_start() {
	run_t0=$(date +%s)
	"$LAB/scripts/deps.sh" "$@"
	"$LAB/scripts/series/tree.sh"
	mkdir -p "$RESULTS"
}

run_failed() {
	printf 'KTAP version 1\n1..1\nnot ok 1 %s:%s\n# %s\n' "$1" "$2" "${3:-see build/logs/}" \
		>"$RESULTS/$1.tap"
}

# a name is counted once, its previous results dropped when it first comes
run_name() {
	case " $run_names " in *" $1 "*) return 0 ;; esac
	run_names="$run_names $1"
	rm -f "$RESULTS/$1.tap"
}

run_build() {
	run_name "$1"
	"$LAB/scripts/build.sh" "$2" ${3:+"$3"} || { run_failed "$1" build; return 1; }
}

run_initramfs() {
	run_name "$1"
	"$LAB/scripts/initramfs.sh" "$2" ${3:+"$3"} || { run_failed "$1" initramfs; return 1; }
}

run_prepare() {
	run_build "$@" && run_initramfs "$@"
}

run_boot() {
	run_name "$1"
	RESULT_NAME=$1 "$LAB/scripts/boot.sh" "$2" ${3:+"$3"} || true
}

variant_var() {
	(
		for f in "$LAB/variants/$2/env" "$LAB/variants/$2/$1.env"; do
			[ ! -f "$f" ] || . "$f"
		done
		eval "echo \"\${$3:-}\""
	)
}

run_end() {
	# shellcheck disable=SC2086 # one name per word
	"$LAB/scripts/summary.sh" "$(( $(date +%s) - run_t0 ))" $run_names
}
