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
cc=${CROSS_COMPILE}gcc clang="clang-16 ${SELFTESTS_CLANG_FLAGS:-}"
static=-static
[ "${SELFTESTS_LINK:-static}" = dynamic ] && static=
if [ -n "$CROSS_COMPILE" ]; then
	sysroot=$("$LAB/scripts/sysroot.sh" "$ARCH_NAME")
	triple=${CROSS_COMPILE%-}
	cc="$cc --sysroot=$sysroot"
	[ -n "$static" ] || cc="$cc -L$sysroot/usr/lib/$triple"
	clang="$clang --target=$triple --sysroot=$sysroot"
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
		-o "$dest/bpf_testmod.ko" "$@"
}
run_logged "$LOGS/bpf-selftests-$tag.log" "test_progs $tag" smake -j"$(nproc)" test_progs
note "test_progs $tag: $(ls "$dest"/*.bpf.o | wc -l) BPF objects, $(du -sh "$dest/test_progs" | cut -f1) test_progs"
