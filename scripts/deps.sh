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
	# An index the mirror serves mid-sync fails the update but leaves
	# the others (and any older lists) in use: only the install decides.
	$SUDO apt-get update -q >"$BUILD/apt-update.log" 2>&1 ||
		{ sed -n 's/^E: //p' "$BUILD/apt-update.log" | head -n 2;
		  warn "apt-get update failed; trying the install all the same"; }
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

# Index and download busybox-static for $DEB_ARCH from suite $1 in a
# private apt state (the host's apt is untouched).
fetch_from() {
	local suite=$1 uri=$2 apt=$BUILD/apt
	local list=$apt/$DEB_ARCH-$suite.list log=$apt/$DEB_ARCH-$suite.log
	mkdir -p "$apt/lists/$DEB_ARCH-$suite/partial" "$apt/cache/archives/partial" \
		"$apt/debs/$suite"
	echo "deb [arch=$DEB_ARCH signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		>"$list"
	set -- -q -o Dir::Etc::SourceList="$list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$apt/lists/$DEB_ARCH-$suite" -o Dir::Cache="$apt/cache" \
		-o APT::Architectures::="$DEB_ARCH" -o APT::Sandbox::User=root
	apt-get "$@" update >"$log" 2>&1 &&
		(cd "$apt/debs/$suite" && apt-get "$@" download "busybox-static:$DEB_ARCH") \
			>>"$log" 2>&1 && return 0
	sed -n 's/^E: //p' "$log" | head -n 2 | sed 's/^/    /'
	return 1
}

# busybox for one guest: amd64 from the installed package, foreign
# architectures from the first of $DEB_SUITES whose index is whole (a
# mirror caught mid-sync serves a Release that does not match its
# Packages, and apt rightly refuses it).
fetch_busybox() {
	local dest=$BUILD/busybox/$DEB_ARCH uri suite deb=
	[ -s "$dest/bin/busybox" ] && return 0
	mkdir -p "$dest/bin"
	if [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
		cp /bin/busybox "$dest/bin/busybox"
		return 0
	fi
	uri=$(mirror | head -n 1)
	[ -n "$uri" ] || die "no bookworm source in this machine's apt configuration"
	for suite in $DEB_SUITES; do
		step "deps: busybox-static for $DEB_ARCH from $suite"
		if fetch_from "$suite" "$uri"; then
			deb=$(ls "$BUILD/apt/debs/$suite"/busybox-static_*_"$DEB_ARCH".deb | tail -n 1)
			break
		fi
		warn "apt-get ($suite/$DEB_ARCH) failed"
	done
	[ -n "$deb" ] || die "busybox-static:$DEB_ARCH: no suite of '$DEB_SUITES' could be used"
	rm -rf "$dest.x"
	dpkg-deb -x "$deb" "$dest.x"
	# bookworm ships /bin/busybox, trixie (merged /usr) /usr/bin/busybox
	cp "$(ls "$dest.x"/bin/busybox "$dest.x"/usr/bin/busybox 2>/dev/null | head -n 1)" \
		"$dest/bin/busybox"
	rm -rf "$dest.x"
	note "busybox: $suite/$(basename "$deb")"
}

for a in $arches; do
	load_arch "$a"
	fetch_busybox
done
