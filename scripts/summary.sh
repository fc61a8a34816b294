#!/bin/bash
# summary.sh SECONDS NAME...: failures named, then one line per results
# file and the total; exit 1 if anything failed.
. "$(dirname "$0")/lib.sh"

secs=$1
shift
tp=0 tf=0 ts=0 tk=0
fails=$(mktemp)
trap 'rm -f "$fails"' EXIT
for name in "$@"; do
	tap=$RESULTS/$name.tap
	if [ ! -f "$tap" ]; then
		echo "    $name: no results"
		tf=$((tf + 1))
		continue
	fi
	tap_counts "$tap"
	p=$PASS s=$SKIP f=$FAIL k=$KNOWN r=$RETRIED
	# A failure with the diagnostic lines that follow it (at most 40),
	# kept for the end: a CI log may keep only the head and the tail of
	# this output, and the tail must say why.
	awk '/^(not )?ok / { show = ($0 ~ /^not ok / && $0 !~ /# TODO known failure/); n = 0
			     if (show) print "    FAIL " $0; next }
	     show && /^#/ && n++ < 40 { print "         " $0 }' "$tap" >>"$fails"
	grep -E '^not ok [0-9]+ .*# TODO known failure' "$tap" | sed 's/^/    KNOWN /' || true
	grep -B1 '^# retried:' "$tap" | grep -E '^ok ' | sed 's/^/    RETRIED /' || true
	printf '    %-8s %3d passed, %d failed, %d skipped%s%s\n' "$name:" "$p" "$f" "$s" \
		"$([ "$r" = 0 ] || echo ", $r passed on retry")" \
		"$([ "$k" = 0 ] || echo ", $k known failures")"
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s)) tk=$((tk + k))
done
# the first failure whole, each later one with two lines of its own
# (a cascade's first failure is its cause)
awk '/^    FAIL / { k++; n = 0; print; next } k == 1 || n++ < 2' "$fails"
echo "    (results in build/results/, $((secs / 60)) min $((secs % 60)) s)"
[ "$tk" = 0 ] || echo "    ($tk known failures of the base, listed in known-failures, are not counted below)"
echo "$tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
