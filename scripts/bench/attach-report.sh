#!/bin/bash
# bench/attach-report.sh [ARCH...]: from build/results/attach-ARCH.tap and
# attach-ARCH-mainline.tap (make bench-attach: medians of the boots), one
# table per arch, milliseconds to attach and to detach fentry programs
# on N functions, ours against mainline 6.12, and build/results/attach.json
# (BENCH_ICOUNT=1: the guest's clock counts instructions, bench.sh).
# Exit status 1 when a run gave no figures or a boot failed.
. "$(dirname "$0")/../lib.sh"

arches=${*:-$(make_var BENCH_ARCHS)}
json=$RESULTS/attach.json
bad=0

q() { if [ "$1" = - ]; then echo null; else echo "$1"; fi; }
sizes() {
	awk '$1 == "#" && $2 == "bench:" && $3 ~ /^attach-[0-9]+$/ { sub("attach-", "", $3); print $3 }' "$@" 2>/dev/null |
		sort -n -u
}

echo "Time on the guest's clock of N fentry links made one by one, then closed one by one"
clock="ms; TCG guests"
# BENCH_ICOUNT (bench.sh): the guest's clock counts its instructions
[ "${BENCH_ICOUNT:-0}" = 0 ] ||
	clock="ms of the guest's clock under -icount shift=0: a million instructions a ms, idle time at the host's pace"
echo "(medians of the boots of each kernel, $clock)."
printf '{\n  "note": "medians of the boots of each kernel, %s",\n  "arches": {\n' "$clock" >"$json"
first=1
for a in $arches; do
	ours=$RESULTS/attach-$a.tap
	main=$RESULTS/attach-$a-mainline.tap
	load_arch "$a"
	# BENCH_MAINLINE empty: 6.12 has no trampoline here, ours alone
	[ -n "$BENCH_MAINLINE" ] || main=/dev/null
	for t in "$ours" ${BENCH_MAINLINE:+"$main"}; do
		[ -n "$(sizes "$t")" ] || { warn "bench-attach $a: no figures in $t"; bad=1; }
		! grep -q '^not ok' "$t" 2>/dev/null || { warn "bench-attach $a: $t has failures"; bad=1; }
	done
	echo
	if [ -n "$BENCH_MAINLINE" ]; then
		echo "$a"
	else
		echo "$a: ours alone (6.12 has no BPF trampoline here; the mainline column is -)"
	fi
	printf '  %6s  %-7s %10s %10s %18s %10s\n' N step ours mainline "(boots ours)" ours/main
	[ "$first" = 1 ] || echo "    ," >>"$json"
	first=0
	printf '    "%s": {\n' "$a" >>"$json"
	sep=
	for n in $(sizes "$ours" "$main"); do
		for s in attach detach; do
			o=$(bench_figure "$ours" "$s-$n" 2) m=$(bench_figure "$main" "$s-$n" 2)
			lo=$(bench_figure "$ours" "$s-$n" 4) hi=$(bench_figure "$ours" "$s-$n" 5)
			rel=-
			[ "$o" != - ] && [ "$m" != - ] && rel=$(awk -v o="$o" -v m="$m" 'BEGIN { printf "%.2f", o / m }')
			printf '  %6s  %-7s %10s %10s %18s %10s\n' "$n" "$s" "$o" "$m" "$lo-$hi" "$rel"
			printf '%s      "%s-%s": { "ours_ms": %s, "mainline_ms": %s }' "$sep" "$s" "$n" \
				"$(q "$o")" "$(q "$m")" >>"$json"
			sep=$',\n'
		done
		# both steps, the sums of the two medians (the issue's target:
		# 1000 functions at most 0.4 x mainline's)
		awk -v n="$n" -v oa="$(bench_figure "$ours" "attach-$n" 2)" -v od="$(bench_figure "$ours" "detach-$n" 2)" \
			-v ma="$(bench_figure "$main" "attach-$n" 2)" -v md="$(bench_figure "$main" "detach-$n" 2)" 'BEGIN {
			if (oa == "-" || od == "-" || ma == "-" || md == "-") exit
			printf "  %6s  %-7s %10.1f %10.1f %18s %10.2f\n", n, "both", oa + od, ma + md, "", (oa + od) / (ma + md) }'
	done
	# with labbulk loaded: the same rounds over 16384 more records, and
	# what a link's attach or detach costs per record (ns), ours and 6.12's
	if grep -q '^# bench: attach-[0-9]*-bulk ' "$ours" "$main" 2>/dev/null; then
		echo "  with labbulk loaded: records $(bench_figure "$ours" records 2) -> $(bench_figure "$ours" records-bulk 2) (ours), $(bench_figure "$main" records 2) -> $(bench_figure "$main" records-bulk 2) (6.12)"
		printf '  %6s  %-7s %10s %10s %18s %10s\n' N step ours mainline "ns/record/link" "(ours, 6.12)"
		for n in $(sizes "$ours" "$main"); do
			for s in attach detach; do
				o=$(bench_figure "$ours" "$s-$n-bulk" 2) m=$(bench_figure "$main" "$s-$n-bulk" 2)
				awk -v n="$n" -v s="$s" -v o="$o" -v m="$m" \
					-v ob="$(bench_figure "$ours" "$s-$n" 2)" -v mb="$(bench_figure "$main" "$s-$n" 2)" \
					-v or="$(bench_figure "$ours" records 2)" -v orb="$(bench_figure "$ours" records-bulk 2)" \
					-v mr="$(bench_figure "$main" records 2)" -v mrb="$(bench_figure "$main" records-bulk 2)" '
					function per(b, x, r, rb) {
						if (b == "-" || x == "-" || r == "-" || rb == "-" || rb == r) return "-"
						return sprintf("%.1f", (x - b) * 1e6 / n / (rb - r))
					}
					BEGIN { printf "  %6s  %-7s %10s %10s %18s\n", n, s, o, m,
						per(ob, o, or, orb) ", " per(mb, m, mr, mrb) }'
				printf ',\n      "%s-%s-bulk": { "ours_ms": %s, "mainline_ms": %s }' "$s" "$n" \
					"$(q "$o")" "$(q "$m")" >>"$json"
			done
		done
	fi
	printf '\n    }\n' >>"$json"
done
printf '  }\n}\n' >>"$json"
note "bench-attach: $json"
exit "$bad"
