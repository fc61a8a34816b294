#!/bin/bash
# Install what the lab needs from Debian's archive: host tools with
# apt-get, and each guest's busybox-static unpacked (never installed).
# usage: deps.sh [ARCH...]   (default: all three)
#        EXTRA_PACKAGES='...'  these too (make bench: gnuplot-nox)
. "$(dirname "$0")/lib.sh"

arches=${*:-$ALL_ARCHES}
pkgs="gcc make bc flex bison libelf-dev libssl-dev dwarves cpio ccache
      xz-utils kmod rsync perl python3 python3-ply git busybox-static
      libc6-dev ${EXTRA_PACKAGES:-}"
for a in $arches; do
	load_arch "$a"
	pkgs="$pkgs $QEMU_PACKAGE $CROSS_PACKAGES"
done

mkdir -p "$BUILD" "$LOGS"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	step "deps: installing$missing"
	[ "$(id -u)" = 0 ] && SUDO= || SUDO=sudo
	$SUDO apt-get update -q >"$BUILD/apt-update.log" 2>&1 ||
		{ tail -n 5 "$BUILD/apt-update.log"; die "apt-get update failed"; }
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
		$missing >"$BUILD/apt-install.log" 2>&1 ||
		{ tail -n 20 "$BUILD/apt-install.log"; die "apt-get install failed"; }
fi

# The mirror is the one this machine's apt already uses for bookworm, so
# nothing in the repository names an archive host.
mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ { print u; exit }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" && / bookworm / { for (i = 2; i <= NF; i++)
			if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f"
	done
}

# busybox for one guest: amd64 from the installed package, foreign
# architectures from a private apt state (the host's apt is untouched).
fetch_busybox() {
	local dest=$BUILD/busybox/$DEB_ARCH apt uri deb
	[ -s "$dest/bin/busybox" ] && return 0
	mkdir -p "$dest/bin"
	if [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
		cp /bin/busybox "$dest/bin/busybox"
		return 0
	fi
	step "deps: busybox-static for $DEB_ARCH from $DEB_SUITE"
	apt=$BUILD/apt
	uri=$(mirror | head -n 1)
	[ -n "$uri" ] || die "no bookworm source in this machine's apt configuration"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
	echo "deb [arch=$DEB_ARCH signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $DEB_SUITE main" \
		>"$apt/$DEB_ARCH.list"
	set -- -q -o Dir::Etc::SourceList="$apt/$DEB_ARCH.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$apt/lists/$DEB_ARCH" -o Dir::Cache="$apt/cache" \
		-o APT::Architectures::="$DEB_ARCH" -o APT::Sandbox::User=root
	mkdir -p "$apt/lists/$DEB_ARCH/partial"
	apt-get "$@" update >"$apt/$DEB_ARCH.log" 2>&1 ||
		{ tail -n 5 "$apt/$DEB_ARCH.log"; die "apt-get update ($DEB_SUITE/$DEB_ARCH) failed"; }
	(cd "$apt/debs" && apt-get "$@" download "busybox-static:$DEB_ARCH") \
		>>"$apt/$DEB_ARCH.log" 2>&1 ||
		{ tail -n 5 "$apt/$DEB_ARCH.log"; die "busybox-static:$DEB_ARCH download failed"; }
	deb=$(ls "$apt"/debs/busybox-static_*_"$DEB_ARCH".deb | tail -n 1)
	rm -rf "$dest.x"
	dpkg-deb -x "$deb" "$dest.x"
	# bookworm ships /bin/busybox, trixie (merged /usr) /usr/bin/busybox
	cp "$(ls "$dest.x"/bin/busybox "$dest.x"/usr/bin/busybox 2>/dev/null | head -n 1)" \
		"$dest/bin/busybox"
	rm -rf "$dest.x"
	note "busybox: $(basename "$deb")"
}

for a in $arches; do
	load_arch "$a"
	fetch_busybox
done
