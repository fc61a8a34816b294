#!/bin/bash
# series/bisect.sh ARCH: build the kernel after each patch of the series (every
# patch must build on its own), in a worktree of build/linux.
#   BOOT=1     also boot each step and run the startup suite
#   VARIANT=V  build with the variant's fragments too (variants/V/):
#              riscv64's ftrace code before the patch that allows it
#              under PREEMPTION is built only with VARIANT=nopreempt
#   FIRST=N LAST=M  only patches N to M (1-based; the others are not
#              counted): riscv64 without PREEMPT where the PREEMPT build
#              has no ftrace code yet
#   OWN=1      build only the patches that change this architecture's
#              arch/ directory (s390x, ppc64el, mips64el before their
#              blocks: docs/series.md)
#   IN_TREE=1  check the commits out in build/linux itself and build into
#              the usual build/out/ARCH: the worktree's first build is cold
#              (ccache keys on the source path), this one reuses what
#              make check built; build/linux goes back to its branch after.
# A patch that changes only another architecture's arch/ directory or
# Documentation/ (not its Kconfig) leaves every file this architecture's
# build reads as it was: it is not built again, and the summary counts it
# apart ("same sources"), passed only if the patch before it built.
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
"$LAB/scripts/deps.sh" "$ARCH_NAME"
wt=$BUILD/bisect
variant=${VARIANT:-}
out=$BUILD/out/bisect-$ARCH_NAME${variant:+-$variant}
"$LAB/scripts/series/tree.sh"
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
# the kernel's SRCARCH: the directory under arch/ this build reads
case $KARCH in
x86_64 | i386) srcarch=x86 ;;
*) srcarch=$KARCH ;;
esac
# own COMMIT: true when the commit changes this architecture's arch/
own() {
	git -C "$SRC" diff --name-only "$1^" "$1" | grep -q "^arch/$srcarch/"
}
# inert COMMIT: true when the commit changes nothing this build reads
inert() {
	git -C "$SRC" diff --name-only "$1^" "$1" | while read -r f; do
		case $f in
		Documentation/Kconfig) exit 1 ;;
		Documentation/*) ;;
		arch/"$srcarch"/*) exit 1 ;;
		arch/*/*) ;;
		*) exit 1 ;;
		esac
	done
}
i=0 bad=0 same=0 other=0 prev_ok=
begin=$(date +%s)
for c in $commits; do
	i=$((i + 1))
	if [ "$i" -lt "${FIRST:-1}" ] || [ "$i" -gt "${LAST:-$total}" ]; then
		continue
	fi
	subject=$(git -C "$SRC" log -1 --format='%h %s' "$c")
	if [ -n "${OWN:-}" ] && ! own "$c"; then
		other=$((other + 1))
		continue
	fi
	if [ "$i" -gt "${FIRST:-1}" ] && [ -z "${BOOT:-}" ] && inert "$c"; then
		step "bisect $ARCH_NAME: $i/$total $subject"
		if [ "$prev_ok" = yes ]; then
			note "same sources for arch/$srcarch as patch $((i - 1)), which built: not built again"
			same=$((same + 1))
		else
			warn "patch $i: same sources as patch $((i - 1)), which did not build"
			bad=$((bad + 1))
		fi
		continue
	fi
	git -C "$wt" checkout -q --detach "$c"
	step "bisect $ARCH_NAME: $i/$total $subject"
	t0=$(date +%s)
	if ! SRC=$wt OUT_DIR=$out "$LAB/scripts/build.sh" "$ARCH_NAME" $variant; then
		warn "patch $i does not build on $ARCH_NAME"
		bad=$((bad + 1)) prev_ok=no
		continue
	fi
	prev_ok=yes
	note "patch $i built in $(($(date +%s) - t0)) s"
	if [ -n "${BOOT:-}" ]; then
		SRC=$wt OUT_DIR=$out SUITES=startup "$LAB/scripts/initramfs.sh" "$ARCH_NAME" $variant &&
		SRC=$wt OUT_DIR=$out SUITES=startup "$LAB/scripts/boot.sh" "$ARCH_NAME" $variant ||
			bad=$((bad + 1))
	fi
done
total=$(( ${LAST:-$total} - ${FIRST:-1} + 1 ))
echo "$((total - bad - same - other)) built, $same same sources as the patch before (not built again),${OWN:+ $other not changing arch/$srcarch (OWN=1: not built),} $bad failed, in $(($(date +%s) - begin)) s"
[ "$bad" = 0 ]
