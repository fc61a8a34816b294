#!/bin/bash
# check-variants.sh [ARCH:VARIANT...]: kernels the way other builders
# configure them, each built with variants/VARIANT/config (and
# variants/VARIANT/ARCH.config) into build/out/ARCH-VARIANT, booted, and the guest
# suites run (all of make check's; SUITES=a,b picks others); results in
# build/results/ARCH-VARIANT.tap. Default: arm64:os, arm64 at -Os, and
# arm64:cfi, clang with kCFI, SCS, BTI and PAC (variants/cfi/env names the
# toolchain): neither has CALL_OPS, so their direct callers go through
# ftrace_caller's list path; and riscv64:os, riscv64 at -Os, whose patch
# sites GCC leaves 2-byte aligned. Not part of make check: three more
# kernel builds do not fit the cold budget; run it before a stop that
# touches arm64's or riscv64's ftrace.
#
# As in check-debug, all kernels are built before the first guest boots.
. "$(dirname "$0")/runner.sh"

pairs=${*:-$(make_var VARIANTS)}
arches=
for p in $pairs; do
	case " $arches " in *" ${p%%:*} "*) ;; *) arches="$arches ${p%%:*}" ;; esac
done
# a variant's toolchain (variants/VARIANT/env: PACKAGES) comes from Debian too
extra=
for p in $pairs; do
	extra="$extra $(variant_var "${p%%:*}" "${p#*:}" PACKAGES)"
done
# shellcheck disable=SC2086 # one architecture per word
EXTRA_PACKAGES="${EXTRA_PACKAGES:-}$extra" run_start $arches
# variant_suites ARCH VARIANT: the suites its guest runs: SUITES if given,
# else the variant's own (variants/VARIANT/env or ARCH.env: SUITES), else all
variant_suites() {
	echo "${SUITES:-$(variant_var "$1" "$2" SUITES)}"
}
booted=
for p in $pairs; do
	a=${p%%:*} v=${p#*:}
	SUITES=$(variant_suites "$a" "$v") run_prepare "$a-$v" "$a" "$v" || continue
	# The variant's own fragments must hold in its .config: a variant
	# that silently lost what it is for would test nothing new.
	frags=
	for f in "$LAB/variants/$v/config" "$LAB/variants/$v/$a.config"; do
		[ -f "$f" ] && frags="$frags $f"
	done
	# shellcheck disable=SC2086 # one fragment per word
	bad=$(config_mismatches "$BUILD/out/$a-$v/.config" $frags | tr '\n' ' ')
	if [ -n "$bad" ]; then
		run_failed "$a-$v" config "$bad"
		continue
	fi
	booted="$booted $p"
done
for p in $booted; do
	# a variant may need longer than make check's guests (GUEST_TIMEOUT),
	# words of its own on the command line (KERNEL_ARGS), another guest
	# CPU (QEMU_CPU) and a console line that shows it took the path it
	# is for (CONSOLE_EXPECT)
	a=${p%%:*} v=${p#*:}
	TIMEOUT=${TIMEOUT:-$(variant_var "$a" "$v" GUEST_TIMEOUT)} \
		KERNEL_ARGS="${KERNEL_ARGS:-$(variant_var "$a" "$v" KERNEL_ARGS)}" \
		QEMU_CPU="${QEMU_CPU:-$(variant_var "$a" "$v" QEMU_CPU)}" \
		CONSOLE_EXPECT="${CONSOLE_EXPECT:-$(variant_var "$a" "$v" CONSOLE_EXPECT)}" \
		SUITES=$(variant_suites "$a" "$v") \
		run_boot "$a-$v" "$a" "$v"
done
run_end
