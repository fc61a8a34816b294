#!/bin/bash
# check-smc.sh [ARCH...]: does the guest run code that another vCPU
# rewrote? guest/smcspin.c as the only process of a guest of each ARCH
# (default: riscv64 s390x ppc64el mips64el, which smcspin has encodings
# for), on the kernel make check built, under the arch's own QEMU_ACCEL
# (the result, KTAP) and, for comparison, under multi-threaded TCG (a
# diagnostic line: QEMU 7.2 let 1 to 53 rounds of 2000 stay stale there,
# 2026-12-05). ftrace rewrites the kernel's code while other CPUs run
# it: a vCPU that keeps the old code misses or repeats ftrace calls.
# Results: build/results/smc.tap.
. "$(dirname "$0")/lib.sh"

arches=${*:-riscv64 s390x ppc64el mips64el}
# shellcheck disable=SC2086 # one architecture per word
set -- $arches
mkdir -p "$RESULTS"
exec > >(tee "$RESULTS/smc.tap")
echo "KTAP version 1"
echo "1..$#"
n=0 fail=0
for a in $arches; do
	n=$((n + 1))
	load_arch "$a"
	[ -e "$OUT/$KIMAGE" ] || die "$a: no kernel at $OUT/$KIMAGE: make build ARCH=$a"
	dir=$BUILD/smcspin/$a
	rm -rf "$dir"
	mkdir -p "$dir/root/dev"
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -pthread \
		-o "$dir/root/init" "$LAB/guest/smcspin.c" || die "$a: smcspin does not build"
	mknod -m 600 "$dir/root/dev/console" c 5 1 2>/dev/null ||
		die "$a: mknod needs root (the initramfs's /dev/console)"
	(cd "$dir/root" && find . | cpio -o -H newc --quiet) >"$dir/smcspin.cpio"
	accels=$QEMU_ACCEL
	[ "$QEMU_ACCEL" = tcg ] || accels="$accels tcg"
	for accel in $accels; do
		log=$dir/${accel//[,=]/-}.console
		# shellcheck disable=SC2086 # QEMU_ARGS holds several words
		timeout 900 "$QEMU" $QEMU_ARGS -accel "$accel" -smp 2 -m 512 \
			-nodefaults -display none -no-reboot \
			-kernel "$OUT/$KIMAGE" -initrd "$dir/smcspin.cpio" \
			-append "console=$CONSOLE rdinit=/init panic=-1 kunit.filter_glob=none ftrace=nop" \
			-serial "file:$log" </dev/null >/dev/null 2>&1
		sum=$(grep -a 'smcspin: [0-9]* rounds' "$log" | tr -d '\r')
		if [ "$accel" != "$QEMU_ACCEL" ]; then
			echo "# $a: -accel $accel: ${sum:-no summary (console: $log)}"
		# a round CPU 1 was held up in tested nothing: it fails too
		elif case $sum in *" 0 held up, 0 stale") true ;; *) false ;; esac; then
			echo "ok $n $a:smcspin # -accel $accel: ${sum#smcspin: }"
		else
			fail=1
			echo "not ok $n $a:smcspin # -accel $accel: ${sum:-no summary (console: $log)}"
		fi
	done
done
exit $fail
