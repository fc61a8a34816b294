#!/bin/bash
# export-debian.sh [DIR]: patches/ as Debian's kernel packaging carries
# patches: DIR/debian/patches/features/all/ftrace-direct/*.patch, each
# with DEP-3 headers after its Subject, and DIR/debian/patches/
# series-ftrace-direct, the lines to append to debian/patches/series.
# DIR is build/debian unless given.
. "$(dirname "$0")/../lib.sh"

out=${1:-$BUILD/debian}
sub=features/all/ftrace-direct
dir=$out/debian/patches/$sub
rm -rf "$dir"
mkdir -p "$dir"
frag=$out/debian/patches/series-ftrace-direct
{
	echo "# ftrace direct calls and BPF trampolines for 6.1"
	echo "# (patches/cover-letter.txt says what they do)"
} >"$frag"
n=0
for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$LAB/patches/series"); do
	# DEP-3: Origin is the first mainline counterpart the message names
	# (a backport: written for 6.1, the design may differ, as the
	# message says), else this series; Forwarded is not-needed where
	# mainline has the change, no where only this series does;
	# Last-Update is the patch's date.
	sha=$(sed -n 's/^Mainline: \([0-9a-f]\{12,\}\) .*/\1/p' "$LAB/patches/$p" | head -n 1)
	date=$(sed -n 's/^Date: //p' "$LAB/patches/$p" | head -n 1)
	if [ -n "$sha" ]; then
		origin="backport, https://git.kernel.org/linus/$sha"
		fwd=not-needed
	else
		origin="other, ftrace direct calls for Linux 6.1 (this series)"
		fwd=no
	fi
	awk -v origin="$origin" -v fwd="$fwd" -v upd="$(date -u -d "$date" +%Y-%m-%d)" '
		!hdr && /^Subject: / {
			sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, "Subject: ")
			subj = 1; print; next
		}
		subj && !hdr && /^[ \t]/ { print; next }
		subj && !hdr {
			print "Origin: " origin
			print "Forwarded: " fwd
			print "Last-Update: " upd
			hdr = 1
		}
		{ print }
	' "$LAB/patches/$p" >"$dir/$p"
	echo "$sub/$p" >>"$frag"
	n=$((n + 1))
done
step "export-debian: $n patches in ${dir#"$LAB"/}, series lines in ${frag#"$LAB"/}"
