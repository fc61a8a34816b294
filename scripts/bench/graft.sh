#!/bin/bash
# bench/graft.sh: samples/ftrace/ftrace-direct-bench.c of the series into
# build/linux-mainline, with its Kconfig entry and Makefile lines, so that
# make bench builds the same sample into mainline 6.12 as into our kernel
# (variants/mainline/config). The sample uses only API mainline has.
# Run each make bench: it copies only what changed and adds lines once.
. "$(dirname "$0")/../lib.sh"

src=$BUILD/linux
dst=$BUILD/linux-mainline
f=samples/ftrace/ftrace-direct-bench.c
[ -e "$src/$f" ] || die "no $f in $src: run 'make tree'"
[ -e "$dst/Makefile" ] || die "no mainline tree in $dst: run scripts/bench/mainline-tree.sh"

cmp -s "$src/$f" "$dst/$f" || cp "$src/$f" "$dst/$f"
# shellcheck disable=SC2016 # make's $(...), not the shell's
grep -q 'ftrace-direct-bench\.o' "$dst/samples/ftrace/Makefile" ||
	echo 'obj-$(CONFIG_SAMPLE_FTRACE_DIRECT_BENCH) += ftrace-direct-bench.o' \
		>>"$dst/samples/ftrace/Makefile"
# shellcheck disable=SC2016
grep -q 'CONFIG_SAMPLE_FTRACE_DIRECT_BENCH' "$dst/samples/Makefile" ||
	echo 'obj-$(CONFIG_SAMPLE_FTRACE_DIRECT_BENCH) += ftrace/' >>"$dst/samples/Makefile"
if ! grep -q '^config SAMPLE_FTRACE_DIRECT_BENCH$' "$dst/samples/Kconfig"; then
	entry=$(awk '/^config SAMPLE_FTRACE_DIRECT_BENCH$/ { p = 1 } p && /^$/ { exit } p' \
		"$src/samples/Kconfig")
	[ -n "$entry" ] || die "no SAMPLE_FTRACE_DIRECT_BENCH entry in $src/samples/Kconfig"
	grep -q '^endif # SAMPLES$' "$dst/samples/Kconfig" ||
		die "$dst/samples/Kconfig: no 'endif # SAMPLES' to put the entry before"
	awk -v e="$entry" '/^endif # SAMPLES$/ { print e; print "" } { print }' \
		"$dst/samples/Kconfig" >"$dst/samples/Kconfig.new"
	mv "$dst/samples/Kconfig.new" "$dst/samples/Kconfig"
fi
note "mainline: $f grafted in"
