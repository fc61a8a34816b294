# Sourced after lib.sh by the scripts that turn Debian's linux-source
# package into the base commit: tree.sh, rebase-base.sh, check.sh.

# A fixed identity and date: the base commit of a given tarball has the
# same id in every clone, whichever script made it.
base_identity() {
	export GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost
	export GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost
	export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'
}

# served_newest: the newest version of $PACKAGE apt serves, '' if none.
served_newest() {
	apt-cache madison "$PACKAGE" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -u -V | tail -n 1
}

# fetch_base VERSION: download $PACKAGE=VERSION into build/dl (once) and
# take its tarball out; sets TARFILE, TAR_SUM and BASE_DESC (the base
# commit's subject).  Returns 1 when apt does not serve VERSION.
fetch_base() {
	local v=$1 dl=$BUILD/dl deb
	mkdir -p "$dl/$v"
	deb=$dl/${PACKAGE}_${v}_all.deb
	if [ ! -s "$deb" ]; then
		note "downloading $PACKAGE=$v"
		(cd "$dl" && apt-get download -q "$PACKAGE=$v") >"$dl/apt.log" 2>&1 || return 1
	fi
	TARFILE=$dl/$v/$(basename "$TARBALL")
	if [ ! -s "$TARFILE" ] || [ "$deb" -nt "$TARFILE" ]; then
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$TARBALL" >"$TARFILE.tmp"
		mv "$TARFILE.tmp" "$TARFILE"
	fi
	TAR_SUM=$(sha256sum "$TARFILE" | cut -d' ' -f1)
	BASE_DESC="Base: $(basename "$deb" .deb) ($TARBALL, sha256 $TAR_SUM)"
}

# base_commit REPO: the base commit of $TARFILE made in the git
# repository REPO without touching its work tree or index (the same id
# tree.sh's make_base gives it); prints the commit id.
base_commit() {
	local repo=$1 tmp tree
	tmp=$(mktemp -d)
	tar -xJf "$TARFILE" -C "$tmp" --strip-components=1
	tree=$(export GIT_INDEX_FILE=$tmp.index GIT_DIR=$repo/.git GIT_WORK_TREE=$tmp &&
		cd "$tmp" && git add -A -f . && git write-tree)
	rm -rf "$tmp" "$tmp.index"
	(base_identity && git -C "$repo" commit-tree -m "$BASE_DESC" "$tree")
}
