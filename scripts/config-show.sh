#!/bin/bash
# config-show.sh ARCH [VARIANT]: the layers scripts/build.sh makes the
# kernel's config from, in order, without building anything.
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
variant=${2:-}
load_variant "$variant"
config_frags "$variant"
if [ -n "$BASE_CONFIG" ]; then
	echo "start: $BASE_CONFIG $ARCH_NAME (variants/$variant/env: BASE_CONFIG)"
else
	echo "start: tinyconfig"
fi
n=0
for f in $frags; do
	n=$((n + 1))
	printf '%2d: %s%s\n' "$n" "${f#"$LAB"/}" "$([ -f "$f" ] || echo "  (missing)")"
done
echo "then: olddefconfig; toolchain: ${KCC}${LLVM:+ (LLVM=$LLVM)}"
echo "into: build/out/$ARCH_NAME${variant:+-$variant}"
