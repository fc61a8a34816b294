#!/bin/bash
# Exit non-zero, naming what differs, when build/linux holds commits or
# uncommitted changes that are not in patches/.
. "$(dirname "$0")/../lib.sh"

[ -e "$SRC/.git" ] || { note "export-check: no work tree (build/linux), nothing to export"; exit 0; }
rc=0
dirty=$(git -C "$SRC" status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
	warn "export-check: uncommitted changes in build/linux:"
	printf '%s\n' "$dirty" | head -n 20 >&2
	rc=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$LAB/scripts/series/format.sh" "$tmp"
diff=
for f in "$tmp"/* "$LAB"/patches/[0-9][0-9][0-9][0-9]-*.patch "$LAB/patches/series"; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	if [ ! -e "$tmp/$b" ]; then
		diff="$diff
patches/$b is not in the work tree"
	elif [ ! -e "$LAB/patches/$b" ]; then
		diff="$diff
$b (work tree) is not in patches/"
	elif ! cmp -s "$tmp/$b" "$LAB/patches/$b"; then
		diff="$diff
patches/$b differs from the work tree"
	fi
done
if [ -n "$diff" ]; then
	printf '%s\n' "$diff" | sort -u | sed '/^$/d; s/^/!!  export-check: /' >&2
	rc=1
fi
[ "$rc" = 0 ] && note "export-check: patches/ matches build/linux"
exit "$rc"
