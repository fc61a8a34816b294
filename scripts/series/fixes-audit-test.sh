#!/bin/bash
# series/fixes-audit-test.sh: scripts/series/fixes-audit.sh against a small git history
# made here, with counterparts and Fixes: commits of its own (no mainline
# tree can be fetched in CI). KTAP on stdout; exit 1 on a failure.
set -eu
# a caller's git environment (series/check.sh's scratch index) is not ours
unset GIT_INDEX_FILE GIT_DIR GIT_WORK_TREE
audit=$(cd "$(dirname "$0")" && pwd)/fixes-audit.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
res() { # ok|"not ok" NAME [DIAG]
	n=$((n + 1))
	echo "$1 $n fixes-audit:$2"
	[ "$1" = ok ] || { fail=1; [ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'; }
}

g() { git -C "$tmp/git" -c user.name=t -c user.email=t@example.org "$@"; }
commit() { # SUBJECT [BODY]: an empty commit; prints its sha
	g commit -q --allow-empty -m "$1" ${2:+-m "$2"}
	g rev-parse HEAD
}
sha12() { echo "${1:0:12}"; }

mkdir -p "$tmp/git" "$tmp/patches"
g init -q
A=$(commit "core: Add the feature")
B=$(commit "arch: Port the feature")
FIX1=$(commit "core: Fix the feature" "Fixes: $(sha12 "$A") (\"core: Add the feature\")")
# a fix of a fix, named by a 10-character sha, lower-case trailer
FIX2=$(commit "core: Fix the fix" "fixes: ${FIX1:0:10} (\"core: Fix the feature\")")
FIX3=$(commit "arch: Fix the port" "Fixes: $(sha12 "$B") (\"arch: Port the feature\")")
OTHER=$(commit "other: Something else")
commit "other: Fix something else" "Fixes: $(sha12 "$OTHER") (\"other: Something else\")" >/dev/null
commit "core: Mention the feature" "It was added in $(sha12 "$A")." >/dev/null

patch() { # NAME TRAILER...
	local f=$tmp/patches/$1
	shift
	{ echo "Subject: [PATCH] x"; echo; echo "Body."; echo; printf '%s\n' "$@"
	  echo "Signed-off-by: t <t@example.org>"; } >"$f"
}
patch 0001-a.patch "Mainline: $(sha12 "$A") (\"core: Add the feature\")" \
	"Mainline: $(sha12 "$FIX1") (\"core: Fix the feature\")"
patch 0002-b.patch "Mainline: $(sha12 "$B") (\"arch: Port the feature\")"
cat >"$tmp/patches/fixes-audit" <<EOF
# answers
$(sha12 "$FIX1") carried $(sha12 "$A") in 0001-a.patch
$(sha12 "$FIX2") not-applicable $(sha12 "$FIX1") the backport has no such code
EOF

run() { # expected-exit NAME [env...]: run the audit, keep its output
	local want=$1 name=$2 rc=0
	shift 2
	env PATCHES="$tmp/patches" "$@" "$audit" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then
		res ok "$name:exit-$want"
	else
		res "not ok" "$name:exit-$want" "exit $rc; output:
$(cat "$tmp/out")"
	fi
}
has() { # NAME ERE: the last output has a line matching ERE
	if grep -qE "$2" "$tmp/out"; then res ok "$1"; else res "not ok" "$1" "no line matches '$2' in:
$(cat "$tmp/out")"; fi
}
hasnt() { # NAME ERE
	if grep -qE "$2" "$tmp/out"; then res "not ok" "$1" "a line matches '$2' in:
$(cat "$tmp/out")"; else res ok "$1"; fi
}

echo "KTAP version 1"
run 1 unanswered MAINLINE_GIT="$tmp/git"
has unanswered:carried "^carried +$(sha12 "$FIX1") .* fixes $(sha12 "$A"): 0001-a.patch"
has unanswered:recursive "^not-applicable +$(sha12 "$FIX2") .*fixes $(sha12 "$FIX1"): the backport has no such code"
has unanswered:missing "^missing +$(sha12 "$FIX3") .*fixes $(sha12 "$B")"
hasnt unanswered:unrelated "Something else|Mention"
has unanswered:summary "2 counterparts|3 counterparts"

echo "$(sha12 "$FIX3") not-applicable $(sha12 "$B") the port differs" >>"$tmp/patches/fixes-audit"
run 0 answered MAINLINE_GIT="$tmp/git"
has answered:summary "3 fixes found, 0 pending or missing"

run 0 offline
has offline:listed "^not-applicable $(sha12 "$FIX3")"

cp "$tmp/patches/fixes-audit" "$tmp/answers.good"
echo "$(sha12 "$OTHER") carried $(sha12 "$A") in 0002-b.patch" >>"$tmp/patches/fixes-audit"
run 1 offline-false-claim
has offline-false-claim:named "$(sha12 "$OTHER") is marked carried, but no patch names it"

cp "$tmp/answers.good" "$tmp/patches/fixes-audit"
echo "$(sha12 "$OTHER") not-applicable" >>"$tmp/patches/fixes-audit"
run 1 no-reason MAINLINE_GIT="$tmp/git"
has no-reason:named "$(sha12 "$OTHER"): no reason"

# a fix still to carry: said, and the search fails on it; offline it is
# counted, not failed
cp "$tmp/answers.good" "$tmp/patches/fixes-audit"
sed -i "s/^$(sha12 "$FIX3") not-applicable/$(sha12 "$FIX3") pending/" "$tmp/patches/fixes-audit"
run 1 pending MAINLINE_GIT="$tmp/git"
has pending:named "^pending +$(sha12 "$FIX3") "
run 0 pending-offline
has pending-offline:counted "\(1 pending\)"

echo "1..$n"
exit "$fail"
