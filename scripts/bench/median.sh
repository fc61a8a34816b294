#!/bin/bash
# bench/median.sh NAME N: build/results/NAME.tap from the N bench boots
# NAME-1.tap .. NAME-N.tap of one kernel (make bench). Per mode it keeps
# the median ns/call and the median ratio, and the lowest and highest
# ratio of the boots:
#   # bench: MODE NS RATIO LOW HIGH
# and one result per boot, failed when that boot had a failure.
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: bench/median.sh NAME N}
n=${2:?usage: bench/median.sh NAME N}
out=$RESULTS/$name.tap

# median FIELD MODE: of that field of MODE's lines over the boots
values() {
	local i
	for i in $(seq 1 "$n"); do
		awk -v m="$2" -v f="$1" '$1 == "#" && $2 == "bench:" && $3 == m { v = $f } END { if (v != "") print v }' \
			"$RESULTS/$name-$i.tap" 2>/dev/null
	done | sort -n
}
median() { values "$1" "$2" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

modes=$(for i in $(seq 1 "$n"); do
	awk '$1 == "#" && $2 == "bench:" && $3 != "clocksource" && $3 != "median" { print $3 }' \
		"$RESULTS/$name-$i.tap" 2>/dev/null
done | awk '!seen[$0]++')

{
	echo "KTAP version 1"
	echo "1..$n"
	echo "# bench: median of $n boots ($name-1.tap .. $name-$n.tap)"
	# every clocksource the boots ran on
	cs=$(for i in $(seq 1 "$n"); do
		awk '$2 == "bench:" && $3 == "clocksource" { print $4 }' "$RESULTS/$name-$i.tap" 2>/dev/null
	done | sort -u | paste -sd, -)
	echo "# bench: clocksource ${cs:--}"
	for m in $modes; do
		lo=$(values 5 "$m" | head -n 1)
		hi=$(values 5 "$m" | tail -n 1)
		echo "# bench: $m $(median 4 "$m") $(median 5 "$m") $lo $hi"
	done
	for i in $(seq 1 "$n"); do
		t=$RESULTS/$name-$i.tap
		if [ ! -s "$t" ]; then
			echo "not ok $i $name:boot-$i # no results"
		elif grep -q '^not ok' "$t"; then
			echo "not ok $i $name:boot-$i # $(grep '^not ok' "$t" | awk '{ print $4 }' | tr '\n' ' ')"
		else
			echo "ok $i $name:boot-$i"
		fi
	done
} >"$out"
note "$name: medians of $n boots in $out"
