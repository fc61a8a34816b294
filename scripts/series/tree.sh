#!/bin/bash
# Make build/linux: the pinned base as a git repository (tagged lab-base)
# with patches/ applied on top, one commit per patch.
#   LINUX_GIT=DIR LINUX_REF=REF  use your own 6.1.y git tree instead of
#                                Debian's tarball (REF becomes the base)
#   FORCE=1                      rebuild even if build/linux holds work
#                                that is not exported into patches/
. "$(dirname "$0")/../lib.sh"

# A fixed identity and date: the base commit has the same id everywhere.
export GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost
export GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'

# fetch_debian: the pinned tarball, or what Debian serves now, with a warning.
fetch_debian() {
	local dl=$BUILD/dl deb tar sum
	mkdir -p "$dl"
	deb=$(ls "$dl/${PACKAGE}_${VERSION}_all.deb" 2>/dev/null || true)
	if [ -z "$deb" ]; then
		step "tree: downloading $PACKAGE=$VERSION"
		if ! (cd "$dl" && apt-get download -q "$PACKAGE=$VERSION") >"$dl/apt.log" 2>&1; then
			warn "Debian no longer serves $PACKAGE=$VERSION (the pin in BASE);"
			warn "trying the version it serves now; patches apply with 'git am -3'."
			(cd "$dl" && apt-get download -q "$PACKAGE") >>"$dl/apt.log" 2>&1 ||
				{ tail -n 5 "$dl/apt.log"; die "cannot download $PACKAGE (run 'make deps' or apt-get update)"; }
		fi
		deb=$(ls -t "$dl/${PACKAGE}"_*_all.deb | head -n 1)
	fi
	tar=$dl/$(basename "$TARBALL")
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$TARBALL" >"$tar"
	sum=$(sha256sum "$tar" | cut -d' ' -f1)
	if [ "$sum" != "$SHA256" ]; then
		warn "$(basename "$deb"): tarball sha256 $sum"
		warn "differs from the pin in BASE ($VERSION, $SHA256)"
		AM_3WAY=-3
	fi
	BASE_DESC="$(basename "$deb" .deb) ($TARBALL, sha256 $sum)"
	TARFILE=$tar
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
		git -C "$tmp" commit -q -m "Base: $BASE_DESC"
		git -C "$tmp" tag "$BASE_TAG"
	fi
	rm -rf "$SRC"
	mv "$tmp" "$SRC"
	note "base $(git -C "$SRC" rev-parse --short=12 "$BASE_TAG")"
}

apply_series() {
	local p n=0
	git -C "$SRC" reset -q --hard "$BASE_TAG"
	[ -f "$LAB/patches/series" ] || return 0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		if ! git -C "$SRC" am -q ${AM_3WAY:-} --committer-date-is-author-date \
				"$LAB/patches/$p" >"$LOGS/tree-am.log" 2>&1; then
			cat "$LOGS/tree-am.log" >&2
			git -C "$SRC" am --abort >/dev/null 2>&1 || true
			die "patches/$p does not apply"
		fi
		n=$((n + 1))
	done <"$LAB/patches/series"
	note "applied $n patches"
}

mkdir -p "$BUILD" "$LOGS"
if [ -e "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify "$BASE_TAG" >/dev/null; then
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
