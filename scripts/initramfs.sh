#!/bin/bash
# initramfs.sh ARCH [VARIANT]: the guest's root: Debian's busybox, the
# built modules (depmod'ed), the work tree's ftrace selftests and BPF
# selftests runner, the lab's guest runner and its C tools (bpftest,
# vdsospin, tlbspin, and rm: see guest/rm.c).
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
bb=$BUILD/busybox/$DEB_ARCH/bin/busybox
[ -s "$bb" ] || "$LAB/scripts/deps.sh" "$ARCH_NAME"
[ -x "$OUT/usr/gen_init_cpio" ] || die "no kernel build in $OUT: run 'make build ARCH=$ARCH_NAME'"

# copy_shared_libs SYSROOT BIN: BIN's ELF interpreter and the shared
# libraries it needs, and theirs, from SYSROOT into the guest at their
# own paths (real files, not links).
copy_shared_libs() {
	local sr=$1 todo=$2 f lib p interp seen=" "
	interp=$(readelf -l "$todo" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	[ -n "$interp" ] || return 0
	mkdir -p "$stage$(dirname "$interp")"
	cp -L "$sr$interp" "$stage$interp"
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo=$*
		for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			case "$seen" in *" $lib "*) continue ;; esac
			seen="$seen$lib "
			p=$(ls "$sr"/usr/lib/*/"$lib" "$sr"/lib/*/"$lib" 2>/dev/null | head -n 1)
			[ -n "$p" ] || die "$lib, which $(basename "$f") needs, is not in $sr"
			p=${p#"$sr"}
			mkdir -p "$stage$(dirname "$p")"
			cp -L "$sr$p" "$stage$p"
			todo="$todo $stage$p"
		done
	done
}

stage=$OUT/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,root,etc,lib,lab,mnt}
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$LAB"/guest/init "$stage/init"
cp "$LAB"/guest/run "$LAB"/guest/lib.sh "$LAB"/guest/suites/t-*.sh "$LAB"/guest/bpf-selftests.tests "$stage/lab/"
# bpftest is a directory of sources (guest/bpftest/main.c says what it does)
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -o "$stage/lab/bpftest" "$LAB"/guest/bpftest/*.c
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -o "$stage/lab/vdsospin" "$LAB/guest/vdsospin.c"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -pthread -o "$stage/lab/tlbspin" "$LAB/guest/tlbspin.c"
# busybox --install (guest/init) leaves an existing /bin/rm alone
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -o "$stage/bin/rm" "$LAB/guest/rm.c"
cp -a "$SRC/tools/testing/selftests/ftrace" "$stage/lab/ftrace"
# The BPF selftests' runner, when the guest runs them (SUITES unset: all
# suites): built for this kernel (scripts/bpf-selftests.sh, a relink
# when nothing changed); what test_progs opens at run time, that is its
# BPF objects (their DWARF stripped, BTF kept: 13 MB instead of 61), the
# test module and the helpers beside them, not the build's intermediates.
# An architecture that cannot run them (arches/ARCH.env:
# BPF_SELFTESTS_SKIP) has the suite report a skip with that reason; one
# that has no BPF trampoline at all (BPF_SKIP) has the bpf suite do so.
[ -z "${BPF_SKIP:-}" ] || echo "$BPF_SKIP" >"$stage/lab/bpf.skip"
# a test it does not run (BPF_SELFTESTS_DENY) is a skip with its reason
[ -z "${BPF_SELFTESTS_DENY:-}" ] || echo "$BPF_SELFTESTS_DENY" >"$stage/lab/bpf-selftests.deny"
case "${BPF_SELFTESTS_SKIP:+skip}:,${SUITES:-bpf-selftests}," in
skip:*,bpf-selftests,*)
	echo "$BPF_SELFTESTS_SKIP" >"$stage/lab/bpf-selftests.skip"
	;;
:*,bpf-selftests,*)
	"$LAB/scripts/bpf-selftests.sh" "$ARCH_NAME" $variant
	bs=$OUT/bpf-selftests
	mkdir -p "$stage/lab/bpf-selftests"
	(cd "$bs" && find . -maxdepth 1 -type f ! -name '*.o' ! -name '*.h' ! -name '*.d' \
		-exec cp {} "$stage/lab/bpf-selftests/" \;)
	(cd "$bs" && find . -maxdepth 1 -name '*.bpf.o' \
		-exec cp {} "$stage/lab/bpf-selftests/" \;)
	"${CROSS_COMPILE}strip" --strip-debug "$stage/lab/bpf-selftests/test_progs"
	llvm-strip-16 -g "$stage/lab/bpf-selftests/"*.bpf.o
	# A dynamically linked test_progs (arches/ARCH.env: SELFTESTS_LINK)
	# takes the sysroot's loader and shared libraries along.
	[ "$SELFTESTS_LINK" != dynamic ] ||
		copy_shared_libs "$("$LAB/scripts/sysroot.sh" "$ARCH_NAME")" \
			"$stage/lab/bpf-selftests/test_progs"
	;;
esac
[ -d "$OUT/modroot/lib/modules" ] && cp -a "$OUT/modroot/lib/modules" "$stage/lib/"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"

cat >"$OUT/initramfs.list" <<LIST
nod /dev/console 0600 0 0 c 5 1
LIST
(cd "$OUT" && "$SRC/usr/gen_initramfs.sh" -o "$OUT/initramfs.cpio" -u squash -g squash \
	"$stage" "$OUT/initramfs.list")
note "initramfs $ARCH_NAME${variant:+-$variant}: $(($(stat -c %s "$OUT/initramfs.cpio") / 1024)) KiB"
