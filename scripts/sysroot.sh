#!/bin/bash
# sysroot.sh ARCH: the target's C library, libelf, zlib, libzstd and
# libcrypto (headers and libraries) that the BPF selftests link against,
# and the target's libgcc (its crt*.o, for clang, which the selftests
# link two small programs with), unpacked from the architecture's Debian packages into
# build/sysroot/DEB_ARCH (never installed), from the first suite of
# DEB_SUITES whose index is whole, as busybox is.  Prints the sysroot's
# path; nothing to do for the host's own architecture, whose -dev
# packages deps.sh installs (prints nothing then).
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
[ "$DEB_ARCH" != "$(dpkg --print-architecture)" ] || exit 0
dest=$BUILD/sysroot/$DEB_ARCH
# The -dev packages test_progs links with (libelf, zlib; libzstd for a
# libelf built with it; libcrypto for the sign-file helper it builds),
# with everything they depend on, the C library among them.
pkgs="libc6-dev libelf-dev zlib1g-dev libzstd-dev libssl-dev"
if [ ! -f "$dest/.done" ]; then
	uri=$(apt_uri bookworm)
	[ -n "$uri" ] || die "no bookworm source in this machine's apt configuration"
	got=
	for suite in $DEB_SUITES; do
		step "sysroot $DEB_ARCH: $pkgs from $suite" >&2
		debs=$BUILD/apt/sysroot/$DEB_ARCH-$suite
		rm -rf "$debs"
		# libgcc-N-dev of the suite's own GCC, N as its gcc package says
		gccv=
		apt_private "$DEB_ARCH" "$suite" "$uri" &&
			gccv=$(apt-cache "${APT_OPTS[@]}" depends gcc | sed -n 's/^ *Depends: gcc-\([0-9]*\)$/\1/p' | head -n 1)
		[ -n "$gccv" ] &&
			fetch_debs_deps "$DEB_ARCH" "$suite" "$uri" "$debs" $pkgs "libgcc-$gccv-dev" &&
			got=$suite && break
		warn "apt-get ($suite/$DEB_ARCH) failed"
	done
	[ -n "$got" ] || die "sysroot $DEB_ARCH: no suite of '$DEB_SUITES' could be used"
	rm -rf "$dest"
	mkdir -p "$dest"
	for d in "$debs"/*.deb; do
		dpkg-deb -x "$d" "$dest"
	done
	echo "$got" >"$dest/.done"
	note "sysroot $DEB_ARCH: $(ls "$debs"/*.deb | wc -l) packages from $got" >&2
fi
sysroot_links "$dest"
echo "$dest"
