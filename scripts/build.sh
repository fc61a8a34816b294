#!/bin/bash
# build.sh ARCH [VARIANT]: build build/linux out of tree into
# build/out/ARCH (or ARCH-VARIANT) through ccache: tinyconfig, then
# configs/common.config, configs/bpf-selftests.config, the BPF selftests'
# own config, configs/selftests-off.config (the three not where the
# guest skips the BPF selftests), configs/ARCH.config and
# variants/VARIANT/config;
# variants/VARIANT/env, if there, names the variant's toolchain or the
# config it starts from (BASE_CONFIG).
# SRC=DIR builds another tree (make bench: mainline).
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
[ -e "$SRC/Makefile" ] || die "no kernel tree at $SRC: run 'make tree'"
mkdir -p "$OUT" "$LOGS"
ccache_env
# 16 GB: the cache held 6.9 GB when two check-bisects began (make
# check's five kernels and their variants), and a bisect adds the objects
# of every patch that changes a header much of the kernel includes
# (include/linux/ftrace.h: 11 patches), so that at 8 GB what make check
# and CI's fresh clone build from was about to be evicted.
ccache -M 16G >/dev/null 2>&1 || true
load_variant "$variant"

# the layers of the config, written once (config_frags, scripts/lib.sh;
# make config-show prints them)
config_frags "$variant"
tag=$ARCH_NAME${variant:+-$variant}
# A build into a directory of its own (OUT_DIR: a bisect's) names its
# scratch config directory and its logs after that directory, so that it
# can run beside make check's build of the same architecture: sharing
# build/out/.config-ARCH, the two once compiled scripts/kconfig into it
# at the same time and make check's config failed.
[ -z "${OUT_DIR:-}" ] || tag=$(basename "$OUT_DIR")

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
# x86's compressed image takes the kernel in by .incbin in a generated
# piggy.S, which ccache's depend mode does not see: when the compressed
# kernel keeps its size, piggy.S is the same and a hit puts the kernel of
# an earlier build into the image (2026-12-01: a bzImage of the build
# before, whose BTF refused every module). piggy.o is assembled again
# past ccache, and the image relinked.
piggy=$(find "$OUT/arch" -maxdepth 4 -path '*/boot/compressed/piggy.S')
if [ -n "$piggy" ]; then
	rm -f "${piggy%.S}.o"
	(export CCACHE_DISABLE=1
	 run_logged "$LOGS/image-$tag.log" "image $tag" kmake O="$OUT" -j"$(nproc)" all)
fi
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
