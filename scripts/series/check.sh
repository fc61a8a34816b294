#!/bin/bash
# series/check.sh: every patch of patches/series applies in order on the
# base, and scripts/checkpatch.pl --strict passes on each (errors fail,
# warnings and checks are shown).  Writes build/results/series.tap.
. "$(dirname "$0")/../lib.sh"
. "$LAB/scripts/series/base.sh"

[ -e "$SRC/.git" ] || die "no work tree at build/linux: run 'make tree'"
mkdir -p "$RESULTS"
tap=$RESULTS/series.tap
body=$(mktemp)
idx=$(mktemp)
trap 'rm -f "$body" "$idx"' EXIT
n=0
res() { # "ok"|"not ok" ID [DIAG]
	n=$((n + 1))
	echo "$1 $n series:$2" >>"$body"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /' >>"$body"
}

patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$LAB/patches/series" 2>/dev/null || true)
if [ -z "$patches" ]; then
	res ok "empty # SKIP the series has no patches yet"
fi
# Apply onto a scratch index of the base: no checkout, build/linux untouched.
export GIT_INDEX_FILE=$idx
git -C "$SRC" read-tree "$BASE_TAG"
applies=1
for p in $patches; do
	if [ "$applies" = 1 ] && out=$(git -C "$SRC" apply --cached "$LAB/patches/$p" 2>&1); then
		res ok "apply:$p"
	else
		res "not ok" "apply:$p" "${out:-an earlier patch did not apply}"
		applies=0
	fi
	out=$(perl "$SRC/scripts/checkpatch.pl" --root="$SRC" --strict --no-summary-file \
		--color=never "$LAB/patches/$p" 2>&1) && rc=0 || rc=$?
	total=$(printf '%s\n' "$out" | grep '^total:' || true)
	if printf '%s\n' "$total" | grep -q '^total: 0 errors'; then
		res ok "checkpatch:$p"
		printf '%s\n' "$total" | grep -q ' 0 warnings, 0 checks' ||
			printf '%s\n' "$out" | grep -E '^(WARNING|CHECK):' | sed 's/^/# /' >>"$body"
	else
		res "not ok" "checkpatch:$p" "$(printf '%s\n' "$out" | grep -E -A3 '^(ERROR|total):' | head -n 30)"
	fi
done
# patches/sections, which heads the series file and makes the cover
# letter's table: its script's test on a sections file of its own (make
# export applies it to the series itself).
if out=$("$LAB/scripts/series/sections-test.sh" 2>&1); then
	res ok "sections:selftest"
else
	res "not ok" "sections:selftest" "$(printf '%s\n' "$out" | grep "^not ok" | head -n 10)"
fi
# The upstream-fixes audit: its own test on a history it makes, then the
# answers file against the patches (make fixes-audit MAINLINE_GIT=... runs
# the search itself, given a mainline tree).
if out=$("$LAB/scripts/series/fixes-audit-test.sh" 2>&1); then
	res ok "fixes-audit:selftest"
else
	res "not ok" "fixes-audit:selftest" "$(printf '%s\n' "$out" | { grep -A3 "^not ok" || echo "$out"; } | head -n 30)"
fi
if out=$("$LAB/scripts/series/fixes-audit.sh" 2>&1); then
	res ok "fixes-audit:answers"
else
	res "not ok" "fixes-audit:answers" "$(printf '%s\n' "$out" | grep -v '^\(carried\|not-applicable\) ' | head -n 30)"
fi
# Information, not a result: whether the series applies to the newest
# base apt serves, when BASE pins an older one ('make rebase-base').
newest() {
	local v p i=0
	v=$(served_newest)
	if [ -z "$v" ]; then
		echo "apt serves no $PACKAGE: no newer base tried"
	elif [ "$v" = "$VERSION" ]; then
		echo "BASE pins $PACKAGE $VERSION, the newest apt serves"
	elif ! fetch_base "$v" >/dev/null; then
		echo "$PACKAGE $v is served, but its download failed: not tried"
	else
		git -C "$SRC" read-tree "$(base_commit "$SRC")"
		for p in $patches; do
			i=$((i + 1))
			git -C "$SRC" apply -q --cached -3 "$LAB/patches/$p" >/dev/null 2>&1 ||
				{ echo "$PACKAGE $v is served: patch $i, $p, does not apply to it"; return; }
		done
		echo "$PACKAGE $v is served: the series applies to it ('make rebase-base' moves BASE)"
	fi
}
newest=$(newest)
echo "# $newest" >>"$body"
{ echo "KTAP version 1"; echo "1..$n"; cat "$body"; } >"$tap"
fail=$(grep -c '^not ok' "$tap" || true)
step "series: $(echo "$patches" | grep -c . || true) patches, $fail failures ($tap)"
note "$newest"
[ "$fail" = 0 ]
