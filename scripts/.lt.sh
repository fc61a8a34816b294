#!/bin/bash
# scratch: rebuild labtarget only
. "$(dirname "$0")/lib.sh"
load_arch "$1"; load_variant ""; ccache_env
[ -n "${OUT_DIR:-}" ] && OUT=$OUT_DIR
rm -rf "$OUT/labtarget"; cp -r "$LAB/guest/labtarget" "$OUT/labtarget"
kmake O="$OUT" M="$OUT/labtarget" INSTALL_MOD_PATH="$OUT/modroot" INSTALL_MOD_STRIP=1 modules modules_install
