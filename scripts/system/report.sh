#!/bin/bash
# system/report.sh ARCH [N]: make check-system's table for its Nth system
# (the first by default), from its results: each test, what it gave on
# Debian's own 6.1 kernel (ARCH-system-debian, ARCH-system-SUITE-debian)
# and with the series installed (ARCH-system, ARCH-system-SUITE).
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
system_image "${2:-1}" || die "arches/$ARCH_NAME.env: no system image ${2:-1} in SYSTEM_IMAGES"
base=$RESULTS/$IMG_NAME-debian.tap
series=$RESULTS/$IMG_NAME.tap
[ -f "$series" ] || die "no $series: run make check-system ARCH=$ARCH_NAME"
# verdicts FILE NAME: "ID VERDICT" per test, ID without the results' name
verdicts() {
	[ -f "$1" ] || return 0
	awk -v p="$2:" '/^(not )?ok [0-9]+ / {
		v = ($1 == "ok") ? "pass" : "FAIL"
		if ($0 ~ /# SKIP/) v = "skip"
		if ($0 ~ /# TODO/) v = "FAIL (known)"
		id = ($1 == "ok") ? $3 : $4
		if (index(id, p) == 1) id = substr(id, length(p) + 1)
		print id, v }' "$1"
}
if [ -n "$SYSTEM_BASELINE" ] && [ -f "$base" ]; then
	bname="Debian's 6.1 ($(sed -n 's/^# Linux [^ ]* \([^ ]*\) .*/\1/p' "$base" | head -n 1))"
else
	bname="Debian's 6.1"
fi
printf '| %s (%s) | %s | with the series (%s) |\n|---|---|---|\n' "$ARCH_NAME" \
	"$(cat "$IMG_DIR/root.suite" 2>/dev/null || echo "$IMG_SUITES")" "$bname" \
	"$(cat "$BUILD/deb/$ARCH_NAME/release" 2>/dev/null)"
{ verdicts "$base" "$IMG_NAME-debian" | sed 's/^/B /'
  verdicts "$series" "$IMG_NAME" | sed 's/^/S /'; } |
awk -v nobase="$([ -n "$SYSTEM_BASELINE" ] || echo 1)" '
	{ w = $1; id = $2; $1 = $2 = ""; sub(/^ +/, "")
	  if (!(id in seen)) { seen[id] = 1; order[++n] = id }
	  v[w, id] = $0 }
	END { for (i = 1; i <= n; i++) { id = order[i]
		b = nobase ? "no Debian 6.1 kernel" : ((("B", id) in v) ? v["B", id] : "-")
		s = (("S", id) in v) ? v["S", id] : "-"
		printf "| %s | %s | %s |\n", id, b, s } }'
