#!/bin/bash
# judge.sh NAME: build/results/NAME.tap from what the guest run left:
# NAME.raw (the guest's KTAP lines from its results port), NAME.console,
# NAME.run (what boot.sh saw: exit status, boots, time limit) and
# known-failures. boot.sh calls it after each guest; run again (make
# judge NAME=...) it judges a saved run anew, after a known-failures edit
# or a change of what counts as a console report.
. "$(dirname "$0")/lib.sh"

tag=${1:?usage: judge.sh NAME (build/results/NAME.raw, .console, .run)}
raw=$RESULTS/$tag.raw
console=$RESULTS/$tag.console
tap=$RESULTS/$tag.tap
[ -f "$raw" ] && [ -f "$RESULTS/$tag.run" ] || die "judge $tag: no $tag.raw or $tag.run in build/results/"
ARCH= RC= BOOTS=1 REHUNG= STALL= LIMIT= SECS= CONSOLE_EXPECT=
. "$RESULTS/$tag.run"
[ -f "$console" ] || : >"$console"

# The guest's own lines, renumbered, then what the host saw.
{
	echo "KTAP version 1"
	awk '/^(not )?ok [0-9]+ / { n++; sub(/ok [0-9]+ /, "ok " n " ") ; print; next }
	     /^#/ && !/^# lab: done/ { print }' "$raw"
} >"$tap.body"
n=$(grep -cE '^(not )?ok ' "$tap.body" || true)
host() { # "ok"|"not ok" ID [DIAG]
	n=$((n + 1))
	echo "$1 $n $tag:$2" >>"$tap.body"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /' >>"$tap.body"
}
if grep -q '^# lab: done' "$raw"; then
	host ok guest:complete
	[ "$BOOTS" = 1 ] || echo "# retried: the first boot hung before its first result (build/results/$tag.hang)" \
		>>"$tap.body"
else
	why="exit $RC"
	[ "$RC" = 124 ] && why="killed after $LIMIT s"
	[ -z "$REHUNG" ] || why="hung before its first result, twice: build/results/$tag.hang"
	[ -z "$STALL" ] || why="stopped after $STALL s of silence, its registers in build/results/$tag.hang"
	# the program counters boot.sh found in a hung guest's registers
	pcs=$(grep -sE '^# (pc|ra) ' "$RESULTS/$tag.hang" | cut -c3- | paste -sd, - | sed 's/,/, /g')
	host "not ok" guest:complete "the guest did not finish ($why)${pcs:+; its vCPUs at $pcs}
console tail:
$(tail -n 25 "$console")"
fi
# Any kernel report on the console fails the run, named; so does a guest
# program killed by a fault (x86 says "segfault at", arm64 "unhandled
# exception", riscv "unhandled signal"): the suites would only see an
# exit status, if anything. A suite that provokes a WARNING on purpose
# (hazards:site-move-fails) writes "lab: expected report begins" and
# "lab: expected report ends" around it: WARNING lines between the two
# are its own, every other report there still counts. The faults suite
# fails allocations on purpose between "lab: failed allocations
# expected begins" and "... ends": there the stack the allocator prints
# for a failed allocation (warn_alloc(): "page allocation failure",
# "vmalloc error") is its own; a WARNING, BUG or KASAN report still counts.
# The direct-call KUnit suite removes its trace instance when it ends,
# outside any case: a removal that fails says "stays busy" there.
reports=$(awk '/^lab: expected report begins/ { inside = 1 } /^lab: expected report ends/ { inside = 0 }
	/^lab: failed allocations expected begins/ { alloc = 1 }
	/^lab: failed allocations expected ends/ { alloc = 0 }
	/page allocation failure|vmalloc error:/ { failed_alloc = 1 }
	/WARNING:|BUG:|Oops|KASAN:|general protection fault/ { failed_alloc = 0 }
	{ if (!(inside && /WARNING:/) && !(alloc && failed_alloc && /Call Trace:/)) print }' "$console" |
	grep -nE 'WARNING:|BUG:|Kernel BUG|Oops|Kernel panic|INFO: possible|rcu: INFO: |detected stall|INFO: task .* blocked|KASAN:|kmemleak:.*(unreferenced|suspected memory leak)|Call Trace:|\]: (segfault at|unhandled (exception|signal))|general protection fault|ftrace_direct_kunit: the trace instance stays busy' | head -n 5 || true)
if [ -z "$reports" ]; then
	host ok console:clean
else
	host "not ok" console:clean "kernel reports or crashed programs on the console:
$reports"
fi
if [ -n "$CONSOLE_EXPECT" ]; then
	if grep -qE "$CONSOLE_EXPECT" "$console"; then
		host ok console:expected "$(grep -m1 -E "$CONSOLE_EXPECT" "$console")"
	else
		host "not ok" console:expected "no console line matches '$CONSOLE_EXPECT'"
	fi
fi
# A failure listed in known-failures is marked, not hidden. The file
# names ARCH:suite:test; a run of another name (ARCH-VARIANT) of the same
# architecture takes its entries too.
{ head -n 1 "$tap.body"; echo "1..$n"; tail -n +2 "$tap.body"; } |
	awk -v tag="$tag" -v arch="${ARCH:-$tag}" '
	     NR == FNR { if ($0 !~ /^#/ && NF > 1) { id = $1; sub(/^[^ ]+ /, ""); known[id] = $0 }; next }
	     /^not ok [0-9]+ [^#]*$/ {
		id = $4
		if (!(id in known) && index(id, tag ":") == 1)
			id = arch substr(id, length(tag) + 1)
		if (id in known)
			$0 = $0 " # TODO known failure: " known[id]
	     }
	     { print }' "$LAB/known-failures" - >"$tap"
rm -f "$tap.body"
