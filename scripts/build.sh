#!/bin/bash
# build.sh ARCH [VARIANT]: build build/linux out of tree into
# build/out/ARCH (or ARCH-VARIANT) through ccache: tinyconfig, then
# configs/common.config, configs/ARCH.config and configs/VARIANT.config;
# configs/VARIANT.env, if there, names the variant's toolchain or the
# config it starts from (BASE_CONFIG).
# SRC=DIR builds another tree (make bench: mainline).
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
[ -e "$SRC/Makefile" ] || die "no kernel tree at $SRC: run 'make tree'"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Paths under the clone are hashed relative to it, and the working
# directory not at all, so that a fresh clone elsewhere (CI) hits the
# objects another clone compiled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$LAB} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
mkdir -p "$OUT" "$LOGS"
ccache -M 8G >/dev/null 2>&1 || true

# A variant may build with LLVM: configs/VARIANT.env sets LLVM to the
# suffix of Debian's versioned tools (LLVM=-16: clang-16, ld.lld-16, ...).
LLVM= BASE_CONFIG=
if [ -n "$variant" ] && [ -f "$LAB/configs/$variant.env" ]; then
	. "$LAB/configs/$variant.env"
fi
cc=${CROSS_COMPILE}gcc
[ -z "$LLVM" ] || cc=clang$LLVM
# The kernels carry debug info for BTF, which takes DWARF's types, not
# where each variable lives: GCC's variable tracking is turned off (12
# large files of the arm64 kernel compiled one after the other in 35.1 s
# instead of 39.3 s). -g never changes the code (ftrace.o's .text was
# compared equal). KCFLAGS in the environment, even empty, replaces this.
[ -n "$LLVM" ] || : "${KCFLAGS=-fno-var-tracking -fno-var-tracking-assignments}"
kmake() {
	make -C "$SRC" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" ${LLVM:+LLVM="$LLVM"} \
		CC="ccache $cc" HOSTCC="ccache gcc" ${KCFLAGS:+KCFLAGS="$KCFLAGS"} "$@"
}

# A variant with a BASE_CONFIG of its own (configs/VARIANT.env names the
# script that writes it) starts from that instead of tinyconfig and the
# lab's fragments: only the variant's fragments go on top.
frags="$LAB/configs/common.config $LAB/configs/$ARCH_NAME.config"
[ -z "$BASE_CONFIG" ] || frags=
# a variant's fragments: VARIANT.config, VARIANT-ARCH.config, either or both
if [ -n "$variant" ]; then
	for f in "$variant" "$variant-$ARCH_NAME"; do
		if [ -f "$LAB/configs/$f.config" ]; then
			frags="$frags $LAB/configs/$f.config"
		fi
	done
fi
tag=$ARCH_NAME${variant:+-$variant}

# The config is made in a scratch directory and copied over only when it
# changed, so an unchanged config never triggers a rebuild.
step "build $tag: config"
cfg=$BUILD/out/.config-$tag
mkdir -p "$cfg"
gen_config() {
	if [ -n "$BASE_CONFIG" ]; then
		"$LAB/$BASE_CONFIG" "$ARCH_NAME" "$cfg/.config"
	else
		kmake O="$cfg" tinyconfig
	fi &&
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" $frags &&
	kmake O="$cfg" olddefconfig
}
run_logged "$LOGS/config-$tag.log" "config $tag" gen_config
if ! cmp -s "$cfg/.config" "$OUT/.config"; then
	cp "$cfg/.config" "$OUT/.config"
fi
# Name each requested option the architecture cannot have (yet).
# shellcheck disable=SC2086 # one fragment per word
config_mismatches "$OUT/.config" $frags | while read -r m; do
	note "config: $m not available here"
done

step "build $tag: kernel and modules"
run_logged "$LOGS/build-$tag.log" "build $tag" kmake O="$OUT" -j"$(nproc)" all
rm -rf "$OUT/modroot"
run_logged "$LOGS/modules-$tag.log" "modules_install $tag" \
	kmake O="$OUT" INSTALL_MOD_PATH="$OUT/modroot" INSTALL_MOD_STRIP=1 modules_install
# The lab's own module for the BPF tests (guest/labtarget), built as an
# external module against this kernel and installed beside its modules.
rm -rf "$OUT/labtarget"
cp -r "$LAB/guest/labtarget" "$OUT/labtarget"
run_logged "$LOGS/labtarget-$tag.log" "labtarget $tag" \
	kmake O="$OUT" M="$OUT/labtarget" INSTALL_MOD_PATH="$OUT/modroot" \
	INSTALL_MOD_STRIP=1 modules modules_install
note "$tag: $(cd "$OUT" && ls -l "$KIMAGE" | awk '{print $5}') bytes $KIMAGE, $(find "$OUT/modroot" -name '*.ko' | wc -l) modules"
