#!/bin/bash
# Make build/linux: the pinned base as a git repository (tagged lab-base)
# with patches/ applied on top, one commit per patch.
#   LINUX_GIT=DIR LINUX_REF=REF  use your own 6.1.y git tree instead of
#                                Debian's tarball (REF becomes the base)
#   FORCE=1                      rebuild even if build/linux holds work
#                                that is not exported into patches/
. "$(dirname "$0")/../lib.sh"
. "$LAB/scripts/series/base.sh"
base_identity

# fetch_debian: the pinned tarball, or what Debian serves now, with a warning.
fetch_debian() {
	step "tree: $PACKAGE=$VERSION"
	if ! fetch_base "$VERSION"; then
		warn "Debian no longer serves $PACKAGE=$VERSION (the pin in BASE);"
		warn "trying the version it serves now; patches apply with 'git am -3'"
		warn "('make rebase-base' moves the pin)."
		fetch_base "$(served_newest)" ||
			{ tail -n 5 "$BUILD/dl/apt.log"; die "cannot download $PACKAGE (run 'make deps' or apt-get update)"; }
	fi
	if [ "$TAR_SUM" != "$SHA256" ]; then
		warn "$(basename "$TARFILE"): sha256 $TAR_SUM"
		warn "differs from the pin in BASE ($VERSION, $SHA256)"
		AM_3WAY=-3
	fi
}

make_base() {
	local tmp=$SRC.new
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if [ -n "${LINUX_GIT:-}" ]; then
		step "tree: base from $LINUX_GIT at ${LINUX_REF:?set LINUX_REF to your base}"
		git clone -q --shared --no-checkout "$LINUX_GIT" "$tmp"
		git -C "$tmp" checkout -q -b lab "$LINUX_REF"
		git -C "$tmp" tag "$BASE_TAG"
	else
		fetch_debian
		step "tree: extracting $(basename "$TARFILE")"
		tar -xJf "$TARFILE" -C "$tmp" --strip-components=1
		git -C "$tmp" init -q -b lab
		git -C "$tmp" config core.autocrlf false
		git -C "$tmp" config gc.auto 0
		# The tarball's own ignore rules hide nothing we commit: take all.
		git -C "$tmp" add -A -f .
		git -C "$tmp" commit -q -m "$BASE_DESC"
		git -C "$tmp" tag "$BASE_TAG"
	fi
	rm -rf "$SRC"
	mv "$tmp" "$SRC"
	note "base $(git -C "$SRC" rev-parse --short=12 "$BASE_TAG")"
}

# apply_series: one commit per patch of patches/series on BASE_TAG, as
# git am --committer-date-is-author-date makes them (the same ids), but
# made in a scratch index: build/linux's files are then moved to the
# result in one step, which rewrites only the files whose content
# changes. A make check after 'make tree FORCE=1' or between the subsets
# of make check-subset compiles again only what differs, not every file
# the series touches (git am after a reset to the base rewrote them all).
apply_series() {
	local p n=0 head tree idx subject threeway=
	head=$(git -C "$SRC" rev-parse "$BASE_TAG^{commit}")
	[ -z "${AM_3WAY:-}" ] || threeway=--3way
	# global, for the trap: it runs after this function's locals are gone
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	idx=$tmp/index
	GIT_INDEX_FILE=$idx git -C "$SRC" read-tree "$head"
	if [ -f "$LAB/patches/series" ]; then
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			git -C "$SRC" mailinfo "$tmp/msg" "$tmp/patch" \
				<"$LAB/patches/$p" >"$tmp/info" ||
				die "patches/$p: not a patch in mail form"
			if ! GIT_INDEX_FILE=$idx git -C "$SRC" apply --cached $threeway \
					"$tmp/patch" >"$LOGS/tree-am.log" 2>&1; then
				cat "$LOGS/tree-am.log" >&2
				die "patches/$p does not apply"
			fi
			tree=$(GIT_INDEX_FILE=$idx git -C "$SRC" write-tree)
			subject=$(sed -n 's/^Subject: //p' "$tmp/info")
			head=$(
				GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$tmp/info")
				GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$tmp/info")
				GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$tmp/info")
				GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
				export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
				{ printf '%s\n\n' "$subject"; cat "$tmp/msg"; } | git stripspace |
					git -C "$SRC" commit-tree "$tree" -p "$head"
			) || die "patches/$p: no commit made"
			n=$((n + 1))
		done <"$LAB/patches/series"
	fi
	git -C "$SRC" reset -q --hard "$head"
	note "applied $n patches"
}

mkdir -p "$BUILD" "$LOGS"
# on_pin: build/linux's base is BASE's tarball (or the user's own tree)
on_pin() {
	local subj
	subj=$(git -C "$SRC" log -1 --format=%s "$BASE_TAG")
	case "$subj" in
	"Base: "*) case "$subj" in *"sha256 $SHA256)") return 0 ;; *) return 1 ;; esac ;;
	esac
}

if [ -e "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify "$BASE_TAG" >/dev/null &&
		[ -z "${LINUX_GIT:-}" ] && ! on_pin; then
	# BASE was moved (a pull of another's 'make rebase-base'): a tree
	# that holds nothing unexported is made again on the new pin.
	"$LAB/scripts/series/export-check.sh" >/dev/null 2>&1 || [ -n "${FORCE:-}" ] ||
		die "build/linux is on another base than BASE's $VERSION and holds work not in patches/: 'make export' first, or 'make tree FORCE=1'"
	step "tree: BASE pins $VERSION now: making build/linux again"
	make_base
elif [ -e "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify "$BASE_TAG" >/dev/null; then
	if "$LAB/scripts/series/export-check.sh" >/dev/null 2>&1; then
		step "tree: build/linux matches patches/"
		exit 0
	fi
	if [ -z "${FORCE:-}" ]; then
		"$LAB/scripts/series/export-check.sh" || true
		die "build/linux differs from patches/: 'make export' keeps the tree's version, 'make tree FORCE=1' rebuilds it from patches/"
	fi
	step "tree: re-applying patches/ on $BASE_TAG"
else
	make_base
fi
apply_series
