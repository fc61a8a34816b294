#!/bin/bash
# series/sections-test.sh: scripts/series/sections.sh on a sections file and patch
# lists of its own: the series file and the table it writes, and the
# refusals (a patch out of order, one missing, one too many). KTAP on
# stdout; non-zero if a check fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { # DESCRIPTION COMMAND...
	local d=$1
	shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then
		echo "ok $n $d"
	else
		echo "not ok $n $d"
		fail=$((fail + 1))
	fi
}
cat >"$tmp/sections" <<'EOF'
# a comment
[Fixes]
> a note
* stable: two fixes
  a: Fix one
  b: Fix two

[Core]
* the core
  c: Add the core
EOF
printf '0001-a.patch\t1\ta: Fix one\n0002-b.patch\t0\tb: Fix two\n0003-c.patch\t2\tc: Add the core\n' >"$tmp/good"
printf '0001-b.patch\t0\tb: Fix two\n0002-a.patch\t1\ta: Fix one\n0003-c.patch\t2\tc: Add the core\n' >"$tmp/swapped"
head -n 2 "$tmp/good" >"$tmp/short"
{ cat "$tmp/good"; printf '0004-d.patch\t0\td: Not listed\n'; } >"$tmp/long"

s=$here/sections.sh
echo "KTAP version 1"
echo "1..6"
"$s" series "$tmp/sections" "$tmp/good" >"$tmp/series" 2>&1
"$s" table "$tmp/sections" "$tmp/good" >"$tmp/table" 2>&1
check "series: a header per section, its note, its patches in order" \
	diff -u - "$tmp/series" <<'EOF'

# Fixes
#   a note
0001-a.patch
0002-b.patch

# Core
0003-c.patch
EOF
check "table: a row per group, its range, stable mark and counterparts" \
	grep -qx '  1-2    S  1/2   two fixes' "$tmp/table"
check "table: a one-patch group has a single number" \
	grep -qx '  3         1/1   the core' "$tmp/table"
check "refuses patches out of order" \
	bash -c '! "$0" series "$1" "$2"' "$s" "$tmp/sections" "$tmp/swapped"
check "refuses a sections file with more patches than the series" \
	bash -c '! "$0" series "$1" "$2"' "$s" "$tmp/sections" "$tmp/short"
check "refuses a patch of the series that no section names" \
	bash -c '! "$0" series "$1" "$2"' "$s" "$tmp/sections" "$tmp/long"
[ "$n" = 6 ] || { echo "# $n checks ran, the plan says 6"; exit 1; }
[ "$fail" = 0 ]
