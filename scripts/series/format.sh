#!/bin/bash
# series/format.sh DIR: write lab-base..HEAD of build/linux into DIR as
# git format-patch files, a cover letter and a quilt series file.  The
# output depends only on the commits, so export-check can compare it.
. "$(dirname "$0")/../lib.sh"

dir=${1:?usage: series/format.sh DIR}
mkdir -p "$dir"
[ -e "$SRC/.git" ] || die "no work tree at build/linux: run 'make tree'"
n=$(git -C "$SRC" rev-list --count "$BASE_TAG..HEAD")

list=$(mktemp)
trap 'rm -f "$list"' EXIT
if [ "$n" -gt 0 ]; then
	# The cover letter's sender and date are the newest commit's, so the
	# same commits always give the same files.
	export GIT_COMMITTER_NAME="$(git -C "$SRC" log -1 --format=%an)"
	export GIT_COMMITTER_EMAIL="$(git -C "$SRC" log -1 --format=%ae)"
	export GIT_COMMITTER_DATE="$(git -C "$SRC" log -1 --format=%aD)"
	git -C "$SRC" -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		--cover-letter --base="$BASE_TAG" -o "$dir" "$BASE_TAG..$(git -C "$SRC" rev-parse HEAD)"
	# The range ends in a commit id, not a branch, so that a branch
	# description in build/linux's config cannot take the cover's place.
	# The patches in order for scripts/series/sections.sh: file, how many
	# Mainline: trailers, subject.
	# shellcheck disable=SC2046 # file names have no blanks
	set -- $(cd "$dir" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-cover-letter')
	for c in $(git -C "$SRC" rev-list --reverse "$BASE_TAG..HEAD"); do
		printf '%s\t%s\t%s\n' "$1" \
			"$(git -C "$SRC" show -s --format=%B "$c" | grep -c '^Mainline: ' || true)" \
			"$(git -C "$SRC" show -s --format=%s "$c")"
		shift
	done >"$list"
	# The cover letter's subject and text: patches/cover-letter.txt
	# (subject line, blank line, body); git adds shortlog, diffstat, base.
	txt=$LAB/patches/cover-letter.txt
	if [ -f "$txt" ]; then
		# @SECTIONS@ in the text is the table of patches/sections
		"$LAB/scripts/series/sections.sh" table "$LAB/patches/sections" "$list" >"$dir/table.tmp"
		awk -v tbl="$dir/table.tmp" '
		$0 == "@SECTIONS@" { while ((getline l <tbl) > 0) print l; next }
		{ print }' "$txt" >"$dir/cover.txt.tmp"
		txt=$dir/cover.txt.tmp
		awk -v txt="$txt" '
		BEGIN { getline subj <txt; getline blank <txt
			while ((getline l <txt) > 0) body = body l "\n" }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", body; next }
		{ print }' "$dir/0000-cover-letter.patch" >"$dir/cover.tmp"
		mv "$dir/cover.tmp" "$dir/0000-cover-letter.patch"
		rm -f "$dir/table.tmp" "$dir/cover.txt.tmp"
	fi
fi

# The series file: the patches under the sections of patches/sections.
{
	echo "# ftrace direct calls for Linux 6.1: the series in the order it applies."
	echo "# The base is pinned in BASE; 'make tree' commits each patch on it, in order."
	echo "# Sections: patches/sections."
	[ "$n" = 0 ] || "$LAB/scripts/series/sections.sh" series "$LAB/patches/sections" "$list"
} >"$dir/series"
