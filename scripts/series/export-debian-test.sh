#!/bin/bash
# export-debian-test.sh: Debian's own linux source package of BASE's
# version, fetched with apt's source tools and unpacked with its own
# patches (dpkg-source -x), takes build/debian's export on top with
# quilt push -a; then the files it touches must equal build/linux's and
# dpkg-source -b must build the result.
# Writes build/results/export-debian.tap.
. "$(dirname "$0")/../lib.sh"
. "$LAB/scripts/series/base.sh"

EXTRA_PACKAGES="dpkg-dev quilt" "$LAB/scripts/deps.sh" x86_64 >/dev/null
export=$BUILD/debian/debian/patches
[ -s "$export/series-ftrace-direct" ] || die "no export: run scripts/series/export-debian.sh"
mkdir -p "$RESULTS"
tap=$RESULTS/export-debian.tap
n=0
body=
res() { # "ok"|"not ok" ID [DIAG]
	n=$((n + 1))
	body="$body$1 $n export-debian:$2
${3:+$(printf '%s\n' "$3" | sed 's/^/# /')
}"
}
finish() {
	printf 'KTAP version 1\n1..%s\n%s' "$n" "$body" >"$tap"
	step "export-debian: $(grep -c '^ok' "$tap") passed, $(grep -c '^not ok' "$tap") failed ($tap)"
	! grep -q '^not ok' "$tap"
	exit
}

# Debian's source index for the suite that serves BASE's version,
# read through a private apt state (this machine's apt names the host).
suite=$(apt-cache madison "$PACKAGE" | awk -F'|' -v v="$VERSION" '
	{ gsub(/ /, "", $2) } $2 == v { split($3, f, " "); sub(/\/.*/, "", f[2]); print f[2]; exit }')
uri=$(apt_uri "${suite:-none}")
[ -n "$suite" ] && [ -n "$uri" ] || die "apt serves no $PACKAGE=$VERSION: cannot name its source suite"
src=$BUILD/debian-src
rm -rf "$src/linux" "$src/dl"
mkdir -p "$src/dl"
step "export-debian: Debian's linux=$VERSION source from $suite"
if ! apt_private "$(dpkg --print-architecture)" "$suite" "$uri" deb-src 2>"$src/apt.err"; then
	res "not ok" fetch "$(cat "$src/apt.err")"
	finish
fi
apt=(apt-get "${APT_OPTS[@]}")
alog=$APT_LOG
if (cd "$src/dl" && "${apt[@]}" source --download-only "linux=$VERSION") >>"$alog" 2>&1; then
	res ok "fetch: linux=$VERSION"
	if ! (cd "$src/dl" && dpkg-source -x "linux_$VERSION.dsc" ../linux) >"$LOGS/export-debian-x.log" 2>&1; then
		res "not ok" "dpkg-source -x" "$(tail -n 5 "$LOGS/export-debian-x.log")"
		finish
	fi
	res ok "dpkg-source -x: $(grep -c '^[^#]' "$src/linux/.pc/applied-patches") Debian patches applied"
else
	# A mirror may list a version's source but serve its files only
	# later (seen on 2026-12-02: 6.1.192-3 listed, its files 404, while
	# 6.1.187-1's were there).  Then BASE's tree is Debian's patched
	# source already (linux-source-6.1 ships it so): the newest served
	# source's debian/ goes on it, its patches marked applied, and quilt
	# takes the export on top as it would in BASE's own package.
	res ok "fetch: linux=$VERSION # SKIP apt lists it, the archive serves none of its files"
	older=
	for v in $(apt-cache "${APT_OPTS[@]}" showsrc linux 2>/dev/null |
			sed -n 's/^Version: //p' | sort -u -r -V); do
		[ "$v" != "$VERSION" ] || continue
		(cd "$src/dl" && "${apt[@]}" source --download-only --diff-only "linux=$v") >>"$alog" 2>&1 &&
			{ older=$v; break; }
	done
	[ -n "$older" ] || { res "not ok" "fetch: any linux source of $suite" "$(sed -n 's/^E: //p' "$alog" | tail -n 3)"; finish; }
	mkdir -p "$src/linux"
	fetch_base "$VERSION" >/dev/null && [ "$TAR_SUM" = "$SHA256" ] ||
		die "cannot download $PACKAGE=$VERSION with the tarball BASE pins"
	tar -xJf "$TARFILE" -C "$src/linux" --strip-components=1
	tar -xJf "$src/dl/linux_$older.debian.tar.xz" -C "$src/linux"
	mkdir -p "$src/linux/.pc"
	echo 2 >"$src/linux/.pc/.version"
	echo debian/patches >"$src/linux/.pc/.quilt_patches"
	echo series >"$src/linux/.pc/.quilt_series"
	grep '^[^#]' "$src/linux/debian/patches/series" >"$src/linux/.pc/applied-patches"
	res ok "debian/ of linux=$older on BASE's tree: its $(grep -c . "$src/linux/.pc/applied-patches") patches marked applied"
fi

cp -r "$export/features" "$src/linux/debian/patches/"
cat "$export/series-ftrace-direct" >>"$src/linux/debian/patches/series"
if (cd "$src/linux" && QUILT_PATCHES=debian/patches quilt push -a -q --fuzz=0) \
		>"$LOGS/export-debian-quilt.log" 2>&1; then
	res ok "quilt push -a: $(grep -c '^Applying patch' "$LOGS/export-debian-quilt.log") patches of the export"
else
	res "not ok" "quilt push -a" "$(tail -n 8 "$LOGS/export-debian-quilt.log")"
	finish
fi
# Debian's patched source is what linux-source-6.1 ships, so the files
# the series touches must be build/linux's, byte for byte.
diff=
for f in $(git -C "$SRC" diff --name-only "$BASE_TAG" HEAD); do
	if git -C "$SRC" cat-file -e "HEAD:$f" 2>/dev/null; then
		git -C "$SRC" show "HEAD:$f" | cmp -s - "$src/linux/$f" || diff="$diff $f"
	elif [ -e "$src/linux/$f" ]; then
		diff="$diff $f(not removed)"
	fi
done
if [ -z "$diff" ]; then
	res ok "$(git -C "$SRC" diff --name-only "$BASE_TAG" HEAD | wc -l) files the series touches equal build/linux's"
else
	res "not ok" "files the series touches equal build/linux's" "$(echo "$diff" | tr ' ' '\n' | sed '/^$/d' | head -n 10)"
fi
# dpkg-source -b: the tree with the export applied must build as a 3.0
# (quilt) source package, each patch applying without fuzz on the orig
# tarball and no change left outside a patch.
if [ -n "$older" ]; then
	# No orig tarball of BASE's version is served.  BASE's own tarball
	# (Debian's patched source) stands in for it, so the series that
	# dpkg-source applies on it is the export alone.
	v=$(dpkg-parsechangelog -l "$src/linux/debian/changelog" -S Version)
	orig=$src/linux_${v%-*}.orig.tar.xz
	what="on BASE's tarball as the orig, the export as the series"
	ln -sf "$TARFILE" "$orig"
	cp "$export/series-ftrace-direct" "$src/linux/debian/patches/series"
	grep '^[^#]' "$export/series-ftrace-direct" >"$src/linux/.pc/applied-patches"
else
	what="on Debian's orig tarball and series"
	ln -sf "$src"/dl/linux_*.orig.tar.* "$src/"
fi
rm -f "$src"/linux_*.dsc "$src"/linux_*.debian.tar.*
if (cd "$src" && dpkg-source -b linux) >"$LOGS/export-debian-b.log" 2>&1; then
	res ok "dpkg-source -b $what: $(cd "$src" && ls linux_*.dsc)"
else
	res "not ok" "dpkg-source -b $what" "$(grep -v '^dpkg-source: info' "$LOGS/export-debian-b.log" | tail -n 8)"
fi
finish
