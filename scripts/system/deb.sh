#!/bin/bash
# system/deb.sh ARCH: Debian packages of the patched kernel (make deb), in
# build/deb/ARCH: linux-image-RELEASE and linux-headers-RELEASE, built by
# the kernel's own bindeb-pkg from make check-distro's config (Debian's
# 6.1 config, defconfig and trixie's tracing options for riscv64:
# scripts/distro-config.sh, variants/distro/) without the
# lab's tests (variants/deb/), into build/out/ARCH-deb. RELEASE is
# the tree's version with the local version +ftrace1, so the packages
# install beside Debian's own (6.1.0-N-ARCH) and never replace them.
#   DEB_LOCALVERSION=+ftraceN  another local version
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
localversion=${DEB_LOCALVERSION:-+ftrace1}
dest=$BUILD/deb/$ARCH_NAME
out=$BUILD/out/$ARCH_NAME-deb
# dpkg-dev: dpkg-buildpackage and dpkg-architecture, which bindeb-pkg runs
EXTRA_PACKAGES="dpkg-dev ${EXTRA_PACKAGES:-}" "$LAB/scripts/deps.sh" "$ARCH_NAME"
"$LAB/scripts/series/tree.sh"

# LOCALVERSION set (even empty) also stops setlocalversion from adding
# "+" for a tree above its last tag. The builder's name in the kernel's
# version string and in the packages is the lab's, not this machine's.
export LOCALVERSION=$localversion
export KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=localhost DEBFULLNAME=lab DEBEMAIL=lab@localhost
# the build number bindeb-pkg gives the kernel (the package's revision),
# given to the build before it too: else each relinks what the other did
export KBUILD_BUILD_VERSION=1
"$LAB/scripts/build.sh" "$ARCH_NAME" deb
release=$(cat "$out/include/config/kernel.release")
if [ "$(cat "$dest/release" 2>/dev/null)" = "$release" ] &&
   [ -z "$(find "$out/vmlinux" -newer "$dest/release")" ]; then
	note "deb $ARCH_NAME: the packages of $release are up to date"
	exit 0
fi

ccache_env
load_variant deb
step "deb $ARCH_NAME: bindeb-pkg, $release"
# bindeb-pkg writes its packages beside the build directory (one make
# deb at a time): old ones would be taken for new.
clean_pkgs() {
	rm -f "$BUILD/out/"*.deb "$BUILD/out/"*.buildinfo "$BUILD/out/"*.changes
}
clean_pkgs
# gzip: the -dbg package (vmlinux with its DWARF, which the lab does not
# ship) is not worth xz's minutes; the two shipped are packed again below.
# -d: the build dependencies are the lab's own (deps.sh), not a Debian
# build root's, and a cross build would not find them under their names
run_logged "$LOGS/deb-$ARCH_NAME.log" "bindeb-pkg $ARCH_NAME" \
	kmake O="$out" -j"$(nproc)" DPKG_FLAGS=-d KDEB_PKGVERSION="${release}-1" \
	KDEB_COMPRESS=gzip bindeb-pkg

# The package says what it carries: the series and the base it applies to.
patches=$(git -C "$SRC" rev-list --count "$BASE_TAG..HEAD")
rm -rf "$dest"
mkdir -p "$dest"
for deb in "$BUILD/out/"linux-image-"$release"_*.deb "$BUILD/out/"linux-headers-"$release"_*.deb; do
	[ -f "$deb" ] || die "bindeb-pkg made no $(basename "$deb")"
	x=$(mktemp -d "$BUILD/out/.deb-XXXXXX")
	dpkg-deb -R "$deb" "$x"
	awk -v base="$PACKAGE $VERSION" -v n="$patches" '
		/^Description:/ {
			print $0 ", with ftrace direct calls"
			print " Linux 6.1 from Debian'\''s " base ", with the " n " patches"
			print " of the series \"ftrace: Direct calls with per-architecture"
			print " trampolines for 6.1\": ftrace direct calls and BPF trampolines"
			print " (fentry, fexit, fmod_ret, LSM) on x86_64, arm64, riscv64, s390x,"
			print " ppc64el and mips64el."
			skip = 1; next
		}
		skip && /^ / { next }
		{ skip = 0; print }' "$x/DEBIAN/control" >"$x/control.new"
	mv "$x/control.new" "$x/DEBIAN/control"
	# powerpc and mips install vmlinux itself, DWARF and all (231 MB on
	# ppc64el): stripped of it, as Debian's own packages are, .BTF kept
	# (the -dbg package, not shipped, has the DWARF)
	for v in "$x"/boot/vmlinux-*; do
		[ -f "$v" ] || continue
		"${CROSS_COMPILE}strip" --strip-debug "$v"
		f=${v#"$x"/}
		sed -i "\|  $f\$|d" "$x/DEBIAN/md5sums"
		(cd "$x" && md5sum "$f") >>"$x/DEBIAN/md5sums"
		sed -i "s/^Installed-Size: .*/Installed-Size: $(du -sk --exclude=DEBIAN "$x" | cut -f1)/" \
			"$x/DEBIAN/control"
	done
	dpkg-deb --root-owner-group -Zxz -b "$x" "$dest/$(basename "$deb")" >/dev/null
	rm -rf "$x"
done
# not shipped: linux-libc-dev and the -dbg package (vmlinux with DWARF)
clean_pkgs
for deb in "$dest"/*.deb; do
	note "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"
done
echo "$release" >"$dest/release"
