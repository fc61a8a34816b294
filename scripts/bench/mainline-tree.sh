#!/bin/bash
# bench/mainline-tree.sh: build/linux-mainline, Debian's linux-source-6.12
# unpacked as it comes (mainline's own direct calls), for make bench to
# compare against. Done once; the version is in build/linux-mainline/.source.
. "$(dirname "$0")/../lib.sh"

pkg=linux-source-6.12
dest=$BUILD/linux-mainline
[ -s "$dest/.source" ] && [ -e "$dest/Makefile" ] && exit 0

dl=$BUILD/dl
mkdir -p "$dl"
deb=$(ls -t "$dl/${pkg}"_*_all.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
	step "mainline: downloading $pkg"
	(cd "$dl" && apt-get download -q "$pkg") >"$dl/apt-mainline.log" 2>&1 ||
		{ tail -n 5 "$dl/apt-mainline.log"; die "cannot download $pkg (apt-get update?)"; }
	deb=$(ls -t "$dl/${pkg}"_*_all.deb | head -n 1)
fi
step "mainline: unpacking $(basename "$deb")"
rm -rf "$dest" "$dest.x"
mkdir -p "$dest.x"
tarball=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | grep -E '/linux-source-6\.12\.tar\.xz$')
dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" | tar -xJ -C "$dest.x"
mv "$dest.x/linux-source-6.12" "$dest"
rmdir "$dest.x"
basename "$deb" .deb >"$dest/.source"
note "mainline: $(cat "$dest/.source") in $dest"
