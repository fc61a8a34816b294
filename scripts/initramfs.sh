#!/bin/bash
# initramfs.sh ARCH [VARIANT]: the guest's root: Debian's busybox, the
# built modules (depmod'ed), the work tree's ftrace selftests, the lab's
# guest runner and its C tools (bpftest, vdsospin).
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
[ -n "$variant" ] && OUT=$OUT-$variant
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
bb=$BUILD/busybox/$DEB_ARCH/bin/busybox
[ -s "$bb" ] || "$LAB/scripts/deps.sh" "$ARCH_NAME"
[ -x "$OUT/usr/gen_init_cpio" ] || die "no kernel build in $OUT: run 'make build ARCH=$ARCH_NAME'"

stage=$OUT/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,root,etc,lib,lab}
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$LAB"/guest/init "$stage/init"
cp "$LAB"/guest/run "$LAB"/guest/ktap.sh "$LAB"/guest/t-*.sh "$stage/lab/"
for t in bpftest vdsospin; do
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror -o "$stage/lab/$t" "$LAB/guest/$t.c"
done
cp -a "$SRC/tools/testing/selftests/ftrace" "$stage/lab/ftrace"
[ -d "$OUT/modroot/lib/modules" ] && cp -a "$OUT/modroot/lib/modules" "$stage/lib/"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"

cat >"$OUT/initramfs.list" <<LIST
nod /dev/console 0600 0 0 c 5 1
LIST
(cd "$OUT" && "$SRC/usr/gen_initramfs.sh" -o "$OUT/initramfs.cpio" -u squash -g squash \
	"$stage" "$OUT/initramfs.list")
note "initramfs $ARCH_NAME${variant:+-$variant}: $(($(stat -c %s "$OUT/initramfs.cpio") / 1024)) KiB"
