#!/bin/bash
# series/sections.sh series|table SECTIONS PATCHES: lay patches/sections over
# the patches of the series. PATCHES has one line per patch, in the
# order the series applies: "FILE<TAB>M<TAB>SUBJECT", M the number of
# its Mainline: trailers. "series" writes the quilt series file with the
# section headers and notes; "table" writes the cover letter's table
# (one row per group: its patch range, S where each is a stable
# candidate, how many of them have a mainline counterpart, the summary).
# Fails, saying where, when SECTIONS does not name every patch exactly
# once and in the series' order.
set -eu
mode=${1:?usage: series/sections.sh series|table SECTIONS PATCHES}
sections=${2:?} patches=${3:?}
[ -f "$sections" ] || { echo "series/sections.sh: no $sections" >&2; exit 1; }

awk -F '\t' -v mode="$mode" -v sfile="$sections" '
function die(msg) { print "series/sections.sh: " msg > "/dev/stderr"; err = 1; exit 1 }
function flush_group() {
	if (gsize == 0) return
	range = (gsize == 1) ? gfirst : gfirst "-" (gfirst + gsize - 1)
	rows[++nrows] = sprintf("  %-7s%-3s%-6s%s", range, gstable ? "S" : "",
		gmain "/" gsize, gsum)
	gsize = 0
}
NR == FNR { file[NR] = $1; nmain[NR] = $2; subj[NR] = $3; n = NR; next }
END {
	if (err) exit 1
	i = 0
	while ((getline line < sfile) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
		if (line ~ /^\[.*\]$/) {
			flush_group()
			title = substr(line, 2, length(line) - 2)
			rows[++nrows] = "" ; rows[++nrows] = title
			series[++nseries] = ""; series[++nseries] = "# " title
			ingroup = 0
			continue
		}
		if (line ~ /^> /) {
			note = substr(line, 3)
			rows[++nrows] = "  " note
			series[++nseries] = "#   " note
			continue
		}
		if (line ~ /^\* /) {
			flush_group()
			gsum = substr(line, 3); gstable = 0
			if (gsum ~ /^stable: /) { gstable = 1; gsum = substr(gsum, 9) }
			ingroup = 1
			continue
		}
		if (line ~ /^  [^ ]/) {
			if (!ingroup) die("patch outside a group: " line)
			s = substr(line, 3)
			i++
			if (i > n) die("more patches listed than the series has: " s)
			if (s != subj[i])
				die("patch " i " of the series is \"" subj[i] "\", sections has \"" s "\"")
			if (gsize == 0) { gfirst = i; gmain = 0 }
			gsize++
			if (nmain[i] > 0) gmain++
			series[++nseries] = file[i]
			continue
		}
		die("cannot read this line: " line)
	}
	flush_group()
	if (i < n) die("patch " (i + 1) " of the series, \"" subj[i + 1] "\", is in no section")
	if (mode == "series")
		for (k = 1; k <= nseries; k++) print series[k]
	else {
		print "  Patch  S  Mainline"
		for (k = 2; k <= nrows; k++) print rows[k]
	}
}' "$patches" /dev/null
