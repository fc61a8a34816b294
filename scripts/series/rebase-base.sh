#!/bin/bash
# rebase-base.sh [VERSION]: move the series to another linux-source-6.1,
# VERSION or else the newest apt serves.  The commits of build/linux are
# rebased (a three-way merge each) onto the new base commit.  At a
# conflict it stops there, naming the patch: resolve it in build/linux,
# 'git add -f' the files, 'git rebase --continue', and run it again.  Once all apply, BASE pins
# the new version, patches/ is written again and make series-check runs.
. "$(dirname "$0")/../lib.sh"
. "$LAB/scripts/series/base.sh"

target=${1:-$(served_newest)}
[ -n "$target" ] || die "apt serves no $PACKAGE (run 'make deps' or apt-get update)"
[ -e "$SRC/.git" ] || die "no work tree at build/linux: run 'make tree' first"
for d in rebase-merge rebase-apply; do
	[ ! -d "$SRC/.git/$d" ] ||
		die "build/linux is in the middle of a rebase: resolve it, 'git rebase --continue', then run this again"
done
[ "$(git -C "$SRC" symbolic-ref -q --short HEAD || true)" = lab ] ||
	die "build/linux is not on its branch 'lab'"

step "rebase-base: $PACKAGE $VERSION -> $target"
fetch_base "$target" || { tail -n 3 "$BUILD/dl/apt.log"; die "apt does not serve $PACKAGE=$target"; }
new=$(base_commit "$SRC")
old=$(git -C "$SRC" rev-parse "$BASE_TAG^{commit}")
note "base commit $(git -C "$SRC" rev-parse --short=12 "$new") ($TAR_SUM)"

if [ "$new" = "$old" ]; then
	[ "$TAR_SUM" = "$SHA256" ] || die "lab-base is $target's tarball, but BASE pins $VERSION"
	step "rebase-base: the series is on $target already"
	exit 0
fi
if ! git -C "$SRC" merge-base --is-ancestor "$new" lab; then
	# A first run: what build/linux holds must be what patches/ holds.
	"$LAB/scripts/series/export-check.sh" >/dev/null ||
		die "build/linux differs from patches/: 'make export' or 'make tree FORCE=1' first"
	n=$(git -C "$SRC" rev-list --count "$old..lab")
	# the committer as tree.sh's; each patch keeps its author
	if ! GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost \
			git -C "$SRC" rebase -q --committer-date-is-author-date \
			--onto "$new" "$old" lab >"$LOGS/rebase-base.log" 2>&1; then
		stop=$(git -C "$SRC" rev-parse -q --verify REBASE_HEAD || true)
		[ -n "$stop" ] || { cat "$LOGS/rebase-base.log" >&2; die "the rebase failed before any patch"; }
		i=$(git -C "$SRC" rev-list --count "$old..$stop")
		warn "patch $i of $n does not apply to $target:"
		warn "  $(git -C "$SRC" log -1 --format=%s "$stop")"
		git -C "$SRC" diff --name-only --diff-filter=U | sed 's/^/!!    conflict in /' >&2
		die "resolve it in build/linux, 'git add -f' the files, 'git rebase --continue', then run 'make rebase-base VERSION=$target' again"
	fi
fi
# Every patch is on the new base (now or after a resolved stop).
git -C "$SRC" tag -f "$BASE_TAG" "$new" >/dev/null
sed -i -e "s/^VERSION=.*/VERSION=$target/" -e "s/^SHA256=.*/SHA256=$TAR_SUM/" "$LAB/BASE"
step "rebase-base: BASE pins $PACKAGE $target"
"$LAB/scripts/series/export.sh"
exec "$LAB/scripts/series/check.sh"
