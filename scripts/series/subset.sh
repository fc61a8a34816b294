#!/bin/bash
# series/subset.sh [DROP...]: the series as a distribution that leaves
# architecture blocks out carries it. A DROP is one or more architectures
# joined by '+' (riscv64+mips64el); their sections of patches/series
# (arches/ARCH.env: SERIES_SECTION) are left out. Default: SUBSETS in the
# Makefile, every block a distribution might drop, alone and all at once.
# Each subset must apply to the base patch by patch with git apply: no
# fuzz, no three-way merge, as quilt --fuzz=0 applies Debian's patches.
#   CHECK=1  (make check-subset) then, for each subset, build/linux is
#            made that series and make check runs on the architectures
#            it keeps (ARCHS, the Makefile's or the command line's,
#            less the dropped), results in build/results/subset-NAME/;
#            build/linux goes back to patches/ at the end. The
#            kernels build in build/out/ARCH, so only what the subset
#            changes is compiled again.
# Writes build/results/subset.tap (the apply checks).
. "$(dirname "$0")/../lib.sh"
. "$LAB/scripts/series/base.sh"

drops=${*:-$(make_var SUBSETS)}
[ -e "$SRC/.git" ] || die "no work tree at build/linux: run 'make tree'"
mkdir -p "$RESULTS"

# section ARCH: the title of ARCH's block in patches/series
section() {
	(load_arch "$1" && echo "${SERIES_SECTION:-$1}")
}

# kept DROP: the patches of patches/series outside DROP's sections
kept() {
	local titles=() a
	for a in ${1//+/ }; do
		titles+=("$(section "$a")")
	done
	awk -v drop="$(printf '%s\n' "${titles[@]}")" '
		BEGIN { n = split(drop, d, "\n"); for (i = 1; i <= n; i++) out[d[i]] = 1 }
		/^$/ { blank = 1; next }
		/^# / { if (blank) { t = substr($0, 3); skip = (t in out) } blank = 0; next }
		/^[^#]/ { blank = 0; if (!skip) print }
	' "$LAB/patches/series"
}

idx=$(mktemp)
body=$(mktemp)
trap 'rm -f "$idx" "$body"' EXIT
n=0 failed=0
for d in $drops; do
	for a in ${d//+/ }; do
		[ -f "$LAB/arches/$a.env" ] || die "no architecture $a (arches/$a.env)"
		grep -qx "# $(section "$a")" "$LAB/patches/series" ||
			die "patches/series has no section '$(section "$a")' for $a"
	done
	n=$((n + 1))
	GIT_INDEX_FILE=$idx git -C "$SRC" read-tree "$BASE_TAG"
	bad= count=0
	for p in $(kept "$d"); do
		count=$((count + 1))
		if ! out=$(GIT_INDEX_FILE=$idx git -C "$SRC" apply --cached "$LAB/patches/$p" 2>&1); then
			bad="$p: $(printf '%s\n' "$out" | head -n 3)"
			break
		fi
	done
	if [ -z "$bad" ]; then
		echo "ok $n subset:without-$d:applies # $count patches" >>"$body"
		note "without $d: $count patches apply"
	else
		echo "not ok $n subset:without-$d:applies" >>"$body"
		printf '%s\n' "$bad" | sed 's/^/# /' >>"$body"
		warn "without $d: $bad"
		failed=1
	fi
done
{ printf 'KTAP version 1\n1..%s\n' "$n"; cat "$body"; } >"$RESULTS/subset.tap"
[ -n "${CHECK:-}" ] || exit "$failed"
[ "$failed" = 0 ] || die "a subset does not apply: no make check on it"

"$LAB/scripts/series/export-check.sh" >/dev/null ||
	die "build/linux holds work not in patches/: 'make export' first"
# A lab of its own per subset: the same files but patches/, whose series
# is the subset's; BUILD stays this lab's, so build/linux and the
# kernels' build directories are shared and only the difference builds.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$idx" "$body"; FORCE=1 "$LAB/scripts/series/tree.sh" >/dev/null' EXIT
for f in "$LAB"/*; do
	[ "$(basename "$f")" = patches ] || [ "$(basename "$f")" = build ] || ln -s "$f" "$tmp/"
done
rc=0
for d in $drops; do
	archs=
	for a in ${ARCHS:-$(make_var ARCHS)}; do
		case "+$d+" in *"+$a+"*) ;; *) archs="$archs $a" ;; esac
	done
	rm -rf "$tmp/patches"
	mkdir "$tmp/patches"
	kept "$d" >"$tmp/patches/series"
	while read -r p; do ln -s "$LAB/patches/$p" "$tmp/patches/$p"; done <"$tmp/patches/series"
	step "subset without $d: make check on$archs"
	# shellcheck disable=SC2086 # one architecture per word
	BUILD=$BUILD RESULTS=$RESULTS/subset-${d//+/-} SERIES=0 FORCE=1 \
		"$tmp/scripts/check.sh" $archs || rc=1
done
exit "$rc"
