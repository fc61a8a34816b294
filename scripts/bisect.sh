#!/bin/bash
# bisect.sh ARCH: build the kernel after each patch of the series (every
# patch must build on its own), in a worktree of build/linux.
#   BOOT=1  also boot each step and run the startup suite
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
wt=$BUILD/bisect
"$LAB/scripts/tree.sh"
commits=$(git -C "$SRC" rev-list --reverse "$BASE_TAG..HEAD")
total=$(echo "$commits" | grep -c . || true)
if [ "$total" = 0 ]; then
	step "bisect $ARCH_NAME: the series has no patches, nothing to build"
	exit 0
fi
[ -e "$wt/.git" ] || git -C "$SRC" worktree add -q --detach "$wt" "$BASE_TAG"
i=0 bad=0
for c in $commits; do
	i=$((i + 1))
	git -C "$wt" checkout -q --detach "$c"
	step "bisect $ARCH_NAME: $i/$total $(git -C "$wt" log -1 --format='%h %s')"
	if ! SRC=$wt OUT_DIR=$BUILD/out/bisect-$ARCH_NAME "$LAB/scripts/build.sh" "$ARCH_NAME"; then
		warn "patch $i does not build on $ARCH_NAME"
		bad=$((bad + 1))
		continue
	fi
	if [ -n "${BOOT:-}" ]; then
		SRC=$wt OUT_DIR=$BUILD/out/bisect-$ARCH_NAME "$LAB/scripts/initramfs.sh" "$ARCH_NAME" &&
		SRC=$wt OUT_DIR=$BUILD/out/bisect-$ARCH_NAME SUITES=startup "$LAB/scripts/boot.sh" "$ARCH_NAME" ||
			bad=$((bad + 1))
	fi
done
echo "$((total - bad)) passed, $bad failed"
[ "$bad" = 0 ]
