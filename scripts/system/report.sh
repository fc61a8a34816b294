#!/bin/bash
# system/report.sh ARCH [N]: make check-system's table for its Nth system
# (the first by default), from its results: each test, what it gave on
# Debian's own 6.1 kernel (ARCH-system-debian, ARCH-system-SUITE-debian),
# with the series installed (ARCH-system, ARCH-system-SUITE) and, where
# it was booted (SYSTEM_MAINLINE), on Debian's 6.12 (ARCH-system-mainline);
# then bpftrace's kfunc: wildcards timed on each (t_timing in
# guest/system/run.sh), the medians of the runs in milliseconds.
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
system_image "${2:-1}" || die "arches/$ARCH_NAME.env: no system image ${2:-1} in SYSTEM_IMAGES"
base=$RESULTS/$IMG_NAME-debian.tap
series=$RESULTS/$IMG_NAME.tap
main=$RESULTS/$IMG_NAME-mainline.tap
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
kver() { sed -n 's/^# Linux [^ ]* \([^ ]*\) .*/\1/p' "$1" | head -n 1; }
mname=
[ -f "$main" ] && mname="Debian's 6.12 ($(kver "$main"))"
printf '| %s (%s) | %s | with the series (%s) |%s\n|---|---|---|%s\n' "$ARCH_NAME" \
	"$(cat "$IMG_DIR/root.suite" 2>/dev/null || echo "$IMG_SUITES")" "$bname" \
	"$(cat "$BUILD/deb/$ARCH_NAME/release" 2>/dev/null)" "${mname:+ $mname |}" "${mname:+---|}"
{ verdicts "$base" "$IMG_NAME-debian" | sed 's/^/B /'
  verdicts "$series" "$IMG_NAME" | sed 's/^/S /'
  verdicts "$main" "$IMG_NAME-mainline" | sed 's/^/M /'; } |
awk -v nobase="$([ -n "$SYSTEM_BASELINE" ] || echo 1)" -v main="${mname:+1}" '
	{ w = $1; id = $2; $1 = $2 = ""; sub(/^ +/, "")
	  if (!(id in seen)) { seen[id] = 1; order[++n] = id }
	  v[w, id] = $0 }
	END { for (i = 1; i <= n; i++) { id = order[i]
		b = nobase ? "no Debian 6.1 kernel" : ((("B", id) in v) ? v["B", id] : "-")
		s = (("S", id) in v) ? v["S", id] : "-"
		m = (("M", id) in v) ? v["M", id] : "-"
		printf "| %s | %s | %s |%s\n", id, b, s, main ? " " m " |" : "" } }'

# the timing: "# timing: ID FUNCTIONS START FIRST EXIT" lines, per kernel
grep -qs '^# timing: ' "$base" "$series" "$main" || exit 0
printf '\nbpftrace kfunc: wildcards, ms (medians of the runs): start to attached / to the first event; Ctrl-C to exit\n\n'
printf '| wildcard | kernel | functions | runs | attached | first event | exit |\n|---|---|---|---|---|---|---|\n'
for f in "$base:Debian 6.1" "$series:the series" "$main:Debian 6.12"; do
	[ -f "${f%%:*}" ] || continue
	sed -n 's/^# timing: \(timing:\)/\1/p' "${f%%:*}" | sed "s|^|${f#*:}\t|"
done | awk -F'\t' '
	function median(list,   a, k, t, i, j) {
		k = split(list, a, " ")
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	{ split($2, f, " "); key = f[1] "\t" $1
	  if (!(key in runs)) order[++n] = key
	  runs[key]++; fn[key] = f[2]
	  at[key] = at[key] " " f[3]; fe[key] = fe[key] " " f[4]; ex[key] = ex[key] " " f[5] }
	END { for (i = 1; i <= n; i++) { k = order[i]; split(k, p, "\t")
		sub(/^timing:kfunc-/, "", p[1])
		printf "| %s_* | %s | %s | %d | %d | %d | %d |\n", p[1], p[2], fn[k], runs[k],
			median(at[k]), median(fe[k]), median(ex[k]) } }' | sort -t'|' -k2,2 -s
# the functions left out of a wildcard because the kernel refused them
for f in "$base:Debian 6.1" "$series:the series" "$main:Debian 6.12"; do
	[ -f "${f%%:*}" ] || continue
	sed -n 's/^# timing: \([^ ]* without .*\)/\1/p' "${f%%:*}" | sed "s|^|- ${f#*:}: |"
done | sed '1s/^/\n/'
