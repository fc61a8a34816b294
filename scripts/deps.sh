#!/bin/bash
# Install what the lab needs from Debian's archive: host tools with
# apt-get, and each guest's busybox-static unpacked (never installed).
# usage: deps.sh [ARCH...]   (default: all three)
#        EXTRA_PACKAGES='...'  these too (make bench: gnuplot-nox)
. "$(dirname "$0")/lib.sh"

arches=${*:-$(make_var ARCHS)}
# clang-16 to zlib1g-dev: the BPF selftests (scripts/bpf-selftests.sh)
pkgs="gcc make bc flex bison libelf-dev libssl-dev dwarves cpio ccache
      xz-utils kmod rsync perl python3 python3-ply git busybox-static
      libc6-dev clang-16 llvm-16 lld-16 pkg-config zlib1g-dev libzstd-dev
      ${EXTRA_PACKAGES:-}"
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
	# trixie and sid come from the archive bookworm comes from
	uri=$(apt_uri bookworm)
	[ -n "$uri" ] || die "no bookworm source in this machine's apt configuration"
	for suite in $DEB_SUITES; do
		step "deps: busybox-static for $DEB_ARCH from $suite"
		deb=$(fetch_deb "$DEB_ARCH" "$suite" "$uri" busybox-static) && break
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
