#!/bin/bash
# format-series.sh DIR: write lab-base..HEAD of build/linux into DIR as
# git format-patch files, a cover letter and a quilt series file.  The
# output depends only on the commits, so export-check can compare it.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: format-series.sh DIR}
mkdir -p "$dir"
[ -e "$SRC/.git" ] || die "no work tree at build/linux: run 'make tree'"
n=$(git -C "$SRC" rev-list --count "$BASE_TAG..HEAD")

# section SUBJECT: the banner a patch goes under in series
section() {
	case "$1" in
	x86*) echo "x86_64" ;;
	arm64*|"bpf, arm64"*) echo "arm64" ;;
	riscv*) echo "riscv64" ;;
	MIPS*) echo "mips64" ;;
	samples*|selftests*|Documentation*|MAINTAINERS*|kunit*)
		echo "samples, tests, documentation" ;;
	*) echo "core" ;;
	esac
}

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
	# The cover letter's subject and text: patches/cover-letter.txt
	# (subject line, blank line, body); git adds shortlog, diffstat, base.
	txt=$LAB/patches/cover-letter.txt
	if [ -f "$txt" ]; then
		awk -v txt="$txt" '
		BEGIN { getline subj <txt; getline blank <txt
			while ((getline l <txt) > 0) body = body l "\n" }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", body; next }
		{ print }' "$dir/0000-cover-letter.patch" >"$dir/cover.tmp"
		mv "$dir/cover.tmp" "$dir/0000-cover-letter.patch"
	fi
fi

{
	echo "# ftrace direct calls for Linux 6.1: the series in the order it applies."
	echo "# The base is pinned in BASE; 'make tree' applies this list with git am."
	last=
	for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] || continue
		case "$p" in */0000-cover-letter.patch) continue ;; esac
		subj=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$p" | head -n 1)
		sec=$(section "$subj")
		if [ "$sec" != "$last" ]; then
			printf '\n# %s\n' "$sec"
			last=$sec
		fi
		basename "$p"
	done
} >"$dir/series"
