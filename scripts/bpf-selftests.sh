#!/bin/bash
# bpf-selftests.sh ARCH [VARIANT]: the BPF selftests' runner of the tree
# itself, tools/testing/selftests/bpf/test_progs, built unmodified for the
# kernel in build/out/ARCH[-VARIANT] into its bpf-selftests/, with
# bpf_testmod.ko beside it, as BPF CI builds it:
# - the BPF objects with Debian 12's clang-16, against a vmlinux.h that
#   the tree's bpftool dumps from this kernel's BTF;
# - the tree's libbpf, and bpftool and resolve_btfids built for the host;
# - test_progs for the target, linked statically (the guests have only
#   busybox) against libelf and zlib: the host's own -dev packages on
#   x86_64, elsewhere a sysroot of the target's Debian packages
#   (scripts/sysroot.sh), which the cross compiler and clang both use;
# - bpf_testmod.ko as an external module of this kernel, built from a
#   copy as guest/labtarget is (the selftests' Makefile would build it in
#   the source tree, for one kernel at a time).
# Everything compiles through ccache, the BPF objects too, so that a run
# on an unchanged kernel and tree only relinks.
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
tag=$ARCH_NAME${variant:+-$variant}
[ -f "$OUT/vmlinux" ] || die "no kernel build in $OUT: run 'make build ARCH=$ARCH_NAME'"
ccache_env
load_variant "$variant"
dest=$OUT/bpf-selftests
sel=$SRC/tools/testing/selftests/bpf
mkdir -p "$dest"

# The module first, with the kernel's own toolchain (a clang kernel
# takes a clang module).
rm -rf "$OUT/bpf_testmod"
cp -r "$sel/bpf_testmod" "$OUT/bpf_testmod"
rm -f "$OUT/bpf_testmod/Makefile"
echo 'obj-m += bpf_testmod.o' >"$OUT/bpf_testmod/Kbuild"
echo 'CFLAGS_bpf_testmod.o = -I$(src)' >>"$OUT/bpf_testmod/Kbuild"
run_logged "$LOGS/bpf_testmod-$tag.log" "bpf_testmod $tag" \
	kmake O="$OUT" M="$OUT/bpf_testmod" modules
cp "$OUT/bpf_testmod/bpf_testmod.ko" "$dest/bpf_testmod.ko"

# ccache by masquerade (a directory of links named as the compilers,
# first in PATH): the selftests' Makefile hands HOSTCC to sub-makes as
# CC=$(HOSTCC), unquoted, so a compiler must be one word. One directory
# per kernel: make check builds two kernels' runners at once.
wrap=$OUT/ccache-bin
mkdir -p "$wrap"
for c in gcc "${CROSS_COMPILE}gcc" clang-16; do
	ln -sf "$(command -v ccache)" "$wrap/$c"
done
export PATH="$wrap:$PATH"

# The target's compilers: the cross GCC, and clang for the two small
# programs the runner links with it (urandom_read and its library; the
# BPF objects override clang's target with their own). The cross GCC
# keeps its own C library (libc6-dev-ARCH-cross, glibc 2.36) ahead of
# the sysroot's, and test_progs links statically against it and the
# sysroot's libelf, zlib and libzstd; clang links the two helper
# programs wholly against the sysroot. Where the
# sysroot's libraries need a newer C library (arches/ARCH.env:
# SELFTESTS_LINK=dynamic, with why) everything links against the
# sysroot's own, dynamically, and initramfs.sh copies the shared
# libraries into the guest. sign-file, the one other program linked
# against a shared library of the sysroot (libcrypto), links as
# test_progs does. SELFTESTS_CLANG_FLAGS: arches/ARCH.env.
cc=${CROSS_COMPILE}gcc clang="clang-16 $SELFTESTS_CLANG_FLAGS"
static=-static
[ "$SELFTESTS_LINK" = dynamic ] && static=
if [ -n "$CROSS_COMPILE" ]; then
	sysroot=$("$LAB/scripts/sysroot.sh" "$ARCH_NAME")
	triple=${CROSS_COMPILE%-}
	cc="$cc --sysroot=$sysroot"
	[ -n "$static" ] || cc="$cc -L$sysroot/usr/lib/$triple"
	clang="$clang --target=$triple --sysroot=$sysroot"
fi
# A target of the other byte order (arches/ARCH.env: SELFTESTS_BPFTOOL=
# target): 6.1's libbpf links and makes skeletons of objects of its own
# machine's byte order only, so the tree's bpftool is built for the
# target too, static, without the features that need more libraries or
# BPF objects of its own, and runs under qemu-user wherever the
# selftests' Makefile calls bpftool.
bpftool=()
if [ "$SELFTESTS_BPFTOOL" = target ]; then
	bt=$OUT/bpftool-target
	mkdir -p "$bt"
	run_logged "$LOGS/bpftool-target-$tag.log" "bpftool for $tag" \
		make -C "$SRC/tools/bpf/bpftool" OUTPUT="$bt/" ARCH="$KARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" EXTRA_CFLAGS="--sysroot=$sysroot" \
		EXTRA_LDFLAGS="-static --sysroot=$sysroot" \
		LIBS="$bt/libbpf/libbpf.a -lelf -lz -lzstd" feature-clang-bpf-co-re=0 \
		feature-libcap=0 feature-llvm=0 feature-libbfd=0 -j"$(nproc)"
	printf '#!/bin/sh\nexec qemu-%s-static %s "$@"\n' "$QEMU_USER" \
		"$bt/bpftool" >"$bt/run"
	chmod +x "$bt/run"
	bpftool=(BPFTOOL="$bt/run")
fi
# -static in LDLIBS, which only the runner's own links use (LDFLAGS would
# reach libbpf's shared library too); libzstd: a libelf built with zstd
# needs it when linked statically. -o: bpf_testmod.ko is the one built
# above.
smake() {
	make -C "$sel" OUTPUT="$dest" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		CC="$cc" HOSTCC=gcc CLANG="$clang" \
		LLC=llc-16 LLVM_STRIP=llvm-strip-16 LLVM_OBJCOPY=llvm-objcopy-16 \
		VMLINUX_BTF="$OUT/vmlinux" \
		LDLIBS="$static -lelf -lz -lzstd -lrt -lpthread" \
		-o "$dest/bpf_testmod.ko" "${bpftool[@]}" "$@"
}

# Only what the guest runs: the tests of guest/bpf-selftests.tests (and
# BPF_SELFTESTS, the ones a run names), the BPF objects whose skeletons
# they include or whose files they open, and the light skeletons among
# them. The runner's Makefile takes its tests from TRUNNER_TESTS_DIR and
# its BPF programs from TRUNNER_BPF_PROGS_DIR, every *.c there; both
# become directories of links under $OUT (beside them links to the rest
# of the selftests' directory, for the sources' "../" includes), named
# relative to the selftests' directory, which is where the Makefile
# compiles the tests from. The test list header is generated there too,
# and found first (SAN_CFLAGS comes before the Makefile's own -I). That
# leaves 74 BPF objects of 497 and 44 test files of 239 (x86_64, without
# ccache: 36.6 s of CPU instead of 130.7 s). BPF_SELFTESTS_ALL=1 builds
# them all.
subset=()
if [ -z "${BPF_SELFTESTS_ALL:-}" ]; then
	farm=$OUT/bpf-selftests-src
	rm -rf "$farm"
	mkdir -p "$farm/prog_tests" "$farm/progs"
	for f in "$sel"/*; do
		case ${f##*/} in progs|prog_tests) ;; *) ln -s "$f" "$farm/" ;; esac
	done
	ln -s "$sel"/progs/*.h "$farm/progs/"
	# the test list header is the runner's own, generated in the farm
	for f in "$sel"/prog_tests/*.h; do
		[ "${f##*/}" = tests.h ] || ln -s "$f" "$farm/prog_tests/"
	done
	tests=$(grep -v '^#' "$LAB/guest/bpf-selftests.tests"; echo "${BPF_SELFTESTS:-}" | tr , '\n')
	lskels=
	skels=
	for t in $(echo "$tests" | sort -u); do
		t=${t%%/*}
		[ -f "$sel/prog_tests/$t.c" ] || die "bpf-selftests: no test $t in $sel/prog_tests"
		ln -sf "$sel/prog_tests/$t.c" "$farm/prog_tests/"
		for o in $(grep -ohE '"(\./)?[A-Za-z0-9_]+\.(skel\.h|lskel\.h|subskel\.h|bpf\.o)"' \
				"$sel/prog_tests/$t.c" | tr -d '"'); do
			o=${o#./}
			case $o in
			*.lskel.h) lskels="$lskels ${o%.lskel.h}.c" ;;
			*.skel.h) skels="$skels ${o%.skel.h}.c" ;;
			esac
			o=${o%%.*}
			[ -f "$sel/progs/$o.c" ] && ln -sf "$sel/progs/$o.c" "$farm/progs/"
		done
	done
	# resolve_btfids reads btf_data.bpf.o when it links the runner
	ln -sf "$sel/progs/btf_data.c" "$farm/progs/"
	# A program whose test takes both skeletons goes to LSKELS_EXTRA,
	# which makes both; LSKELS makes only the light one.
	lsk=
	lsk_extra=
	for o in $lskels; do
		case " $skels " in
		*" $o "*) lsk_extra="$lsk_extra $o" ;;
		*) lsk="$lsk $o" ;;
		esac
	done
	rel=$(realpath -s --relative-to="$sel" "$farm")
	subset=(TRUNNER_TESTS_DIR="$rel/prog_tests" TRUNNER_BPF_PROGS_DIR="$rel/progs"
		LSKELS="$lsk" LSKELS_EXTRA="$lsk_extra" LINKED_SKELS= SAN_CFLAGS="-I$farm")
fi
run_logged "$LOGS/bpf-selftests-$tag.log" "test_progs $tag" smake -j"$(nproc)" "${subset[@]}" test_progs
note "test_progs $tag: $(ls "$dest"/*.bpf.o | wc -l) BPF objects, $(du -sh "$dest/test_progs" | cut -f1) test_progs"
