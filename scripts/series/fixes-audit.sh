#!/bin/bash
# series/fixes-audit.sh: the upstream fixes of the series' mainline counterparts.
#
# A counterpart is a commit a patch names in a "Mainline: <sha12> (...)"
# trailer. With MAINLINE_GIT=DIR (a mainline or stable git tree), every
# commit of DIR whose "Fixes:" line names a counterpart is listed, and so
# on recursively (the fixes of a fix), each marked
#   carried         a patch names it in its own "Mainline:" trailer
#   not-applicable  patches/fixes-audit answers it, with the reason
#   pending         patches/fixes-audit says it is still to be carried
#   missing         none of these
# and the audit fails on a pending or missing one.
# Without MAINLINE_GIT (no tree can be fetched in CI), the answers file is
# checked against the patches instead: each "carried" fix is named by a
# patch's Mainline: trailer, each answer gives a reason; pending ones are
# counted, not failed (the file says the truth about them).
# The answers file: "<fix sha12> <state> <fixed sha12, or - where the fix
# has no Fixes: line naming it> <patch or reason>", # comments.
#   PATCHES=DIR  the patches (default: patches/)
#   ANSWERS=F    the answers file (default: PATCHES/fixes-audit)
# Output: one line per fix; exit 1 on a missing fix or a bad answer.
set -eu
# a caller's git environment (series/check.sh's scratch index) is not ours
unset GIT_INDEX_FILE GIT_DIR GIT_WORK_TREE
PATCHES=${PATCHES:-$(cd "$(dirname "$0")/../.." && pwd)/patches}
ANSWERS=${ANSWERS:-$PATCHES/fixes-audit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# counterparts: "sha12 patch-file" for each Mainline: trailer
for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -f "$p" ] || continue
	sed -n 's/^Mainline: \([0-9a-f]\{12\}\) .*/\1/p' "$p" |
		while read -r sha; do echo "$sha ${p##*/}"; done
done >"$tmp/counterparts"
[ -s "$tmp/counterparts" ] || { echo "fixes-audit: no Mainline: trailer in $PATCHES" >&2; exit 1; }

# answers: "sha12 state fixed12 reason...", comments and blank lines skipped
: >"$tmp/answers"
if [ -f "$ANSWERS" ]; then
	grep -vE '^[[:space:]]*(#|$)' "$ANSWERS" >"$tmp/answers" || true
fi

bad=0
# the answers must be well formed: a state, a fixed commit, a reason
while read -r fix state fixed reason; do
	case "$state" in
	carried|not-applicable|pending) ;;
	*) echo "bad answer: $fix: state '$state' is not carried, not-applicable or pending"; bad=1 ;;
	esac
	if ! echo "$fix $fixed" | grep -qE '^[0-9a-f]{12} ([0-9a-f]{12}|-)$'; then
		echo "bad answer: '$fix $fixed': want a 12-character sha, then one or -"; bad=1
	fi
	if [ -z "${reason:-}" ]; then
		echo "bad answer: $fix: no reason or patch given"; bad=1
	fi
done <"$tmp/answers"

if [ -z "${MAINLINE_GIT:-}" ]; then
	# The file against the patches: nothing claimed that is not so.
	while read -r fix state fixed reason; do
		named=$(awk -v s="$fix" '$1 == s { print $2; exit }' "$tmp/counterparts")
		if [ "$state" = carried ] && [ -z "$named" ]; then
			echo "bad answer: $fix is marked carried, but no patch names it in a Mainline: trailer"; bad=1
		elif [ "$state" = not-applicable ] && [ -n "$named" ]; then
			echo "bad answer: $fix is marked not-applicable, but $named carries it"; bad=1
		fi
		echo "$state $fix (fixes $fixed)${named:+ in $named}"
	done <"$tmp/answers"
	n=$(wc -l <"$tmp/answers")
	p=$(awk '$2 == "pending"' "$tmp/answers" | wc -l)
	echo "fixes-audit: $n answers ($p pending) checked against $(cut -d' ' -f1 "$tmp/counterparts" | sort -u | wc -l) counterparts (MAINLINE_GIT not set: no search)"
	exit "$bad"
fi

# Every "Fixes:" line of the tree, once: "fix-sha fixed-sha" per line.
git -C "$MAINLINE_GIT" log --all --no-merges -E -i --grep='^Fixes:[[:space:]]*[0-9a-f]{8}' \
	--format='@@ %H%n%B' |
	awk '/^@@ [0-9a-f]+$/ { c = substr($2, 1, 12); next }
	     tolower($0) ~ /^fixes:[ \t]*[0-9a-f]+/ {
		s = $0; sub(/^[Ff][Ii][Xx][Ee][Ss]:[ \t]*/, "", s); sub(/[^0-9a-fA-F].*/, "", s)
		if (length(s) >= 8) print c, tolower(substr(s, 1, 12)) }' | sort -u >"$tmp/fixes"

# Breadth first from the counterparts. A Fixes: sha shorter than 12
# characters matches by prefix.
cut -d' ' -f1 "$tmp/counterparts" | sort -u >"$tmp/queue"
: >"$tmp/seen"
while [ -s "$tmp/queue" ]; do
	: >"$tmp/next"
	while read -r target; do
		awk -v t="$target" 'index(t, $2) == 1 { print $1 }' "$tmp/fixes" | sort -u |
		while read -r fix; do
			grep -qx "$fix" "$tmp/seen" && continue
			echo "$fix" >>"$tmp/seen"
			echo "$fix" >>"$tmp/next"
			subj=$(git -C "$MAINLINE_GIT" log -1 --format=%s "$fix")
			named=$(awk -v s="$fix" '$1 == s { print $2; exit }' "$tmp/counterparts")
			state=$(awk -v s="$fix" '$1 == s { print $2; exit }' "$tmp/answers")
			reason=$(awk -v s="$fix" '$1 == s { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$tmp/answers")
			if [ -n "$named" ]; then
				echo "carried        $fix (\"$subj\") fixes $target: $named"
			elif [ "$state" = not-applicable ]; then
				echo "not-applicable $fix (\"$subj\") fixes $target: $reason"
			elif [ "$state" = pending ]; then
				echo "pending        $fix (\"$subj\") fixes $target: $reason"
				echo x >>"$tmp/missing"
			else
				echo "missing        $fix (\"$subj\") fixes $target"
				echo x >>"$tmp/missing"
			fi
		done
	done <"$tmp/queue"
	sort -u "$tmp/next" >"$tmp/queue"
done
found=$(wc -l <"$tmp/seen")
nmiss=0
[ -f "$tmp/missing" ] && nmiss=$(wc -l <"$tmp/missing")
echo "fixes-audit: $(cut -d' ' -f1 "$tmp/counterparts" | sort -u | wc -l) counterparts, $found fixes found, $nmiss pending or missing"
[ "$nmiss" = 0 ] && [ "$bad" = 0 ]
