#!/bin/bash
# bisect.sh ARCH: build the kernel after each patch of the series (every
# patch must build on its own), in a worktree of build/linux.
#   BOOT=1     also boot each step and run the startup suite
#   VARIANT=V  build with the variant's fragments too (configs/V.config,
#              configs/V-ARCH.config): riscv64's ftrace code before the
#              patch that allows it under PREEMPTION is built only with
#              VARIANT=nopreempt
#   IN_TREE=1  check the commits out in build/linux itself and build into
#              the usual build/out/ARCH: the worktree's first build is cold
#              (ccache keys on the source path), this one reuses what
#              make check built; build/linux goes back to its branch after.
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
"$LAB/scripts/deps.sh" "$ARCH_NAME"
wt=$BUILD/bisect
variant=${VARIANT:-}
out=$BUILD/out/bisect-$ARCH_NAME${variant:+-$variant}
"$LAB/scripts/tree.sh"
commits=$(git -C "$SRC" rev-list --reverse "$BASE_TAG..HEAD")
total=$(echo "$commits" | grep -c . || true)
if [ "$total" = 0 ]; then
	step "bisect $ARCH_NAME: the series has no patches, nothing to build"
	exit 0
fi
if [ -n "${IN_TREE:-}" ]; then
	[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit or drop them first"
	branch=$(git -C "$SRC" symbolic-ref -q --short HEAD) ||
		die "build/linux is not on a branch"
	trap 'git -C "$SRC" checkout -q "$branch"' EXIT
	wt=$SRC out=$BUILD/out/$ARCH_NAME${variant:+-$variant}
else
	[ -e "$wt/.git" ] || git -C "$SRC" worktree add -q --detach "$wt" "$BASE_TAG"
fi
i=0 bad=0
for c in $commits; do
	i=$((i + 1))
	git -C "$wt" checkout -q --detach "$c"
	step "bisect $ARCH_NAME: $i/$total $(git -C "$wt" log -1 --format='%h %s')"
	if ! SRC=$wt OUT_DIR=$out "$LAB/scripts/build.sh" "$ARCH_NAME" $variant; then
		warn "patch $i does not build on $ARCH_NAME"
		bad=$((bad + 1))
		continue
	fi
	if [ -n "${BOOT:-}" ]; then
		SRC=$wt OUT_DIR=$out SUITES=startup "$LAB/scripts/initramfs.sh" "$ARCH_NAME" $variant &&
		SRC=$wt OUT_DIR=$out SUITES=startup "$LAB/scripts/boot.sh" "$ARCH_NAME" $variant ||
			bad=$((bad + 1))
	fi
done
echo "$((total - bad)) passed, $bad failed"
[ "$bad" = 0 ]
