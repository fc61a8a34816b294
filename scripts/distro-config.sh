#!/bin/bash
# distro-config.sh ARCH FILE: write to FILE the config a distribution
# builds its 6.1 kernel with, every module turned off (the lab's own are
# turned back on by variants/distro/config), for make check-distro.
#   the others:    Debian's own, from linux-config-6.1 of the version
#                  the lab pins (BASE), the kernel Debian 12 installs by
#                  default: "none_FLAVOUR" (arches/: DEB_FLAVOUR, e.g.
#                  powerpc64le, loongson-3).
#   riscv64:       Debian has no 6.1 riscv64 kernel: the kernel's own
#                  defconfig, to which variants/distro/riscv64.config adds
#                  what Debian trixie's riscv64 config enables for
#                  tracing and BPF.
. "$(dirname "$0")/lib.sh"

load_arch "${1:-}"
dest=${2:?usage: distro-config.sh ARCH FILE}
tmp=$BUILD/out/.distro-$ARCH_NAME
rm -rf "$tmp"
mkdir -p "$tmp"

case $DEB_ARCH in
riscv64)
	make -C "$SRC" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" O="$tmp" defconfig \
		>"$tmp/defconfig.log" 2>&1 || { tail "$tmp/defconfig.log"; die "defconfig failed"; }
	cp "$tmp/.config" "$tmp/config"
	note "distro config: $KARCH defconfig of the tree"
	;;
*)
	# BASE's version, else the one the archive serves now: the security
	# suite keeps only its newest linux-config-6.1 (6.1.192-2 was gone on
	# 2026-11-29, once 6.1.192-3 came), while the tree's linux-source of
	# BASE's version was still there. Since bookworm's LTS began, the
	# security suite has no s390x or mips64el: theirs is bookworm's own.
	deb=
	for pkg in "linux-config-6.1=$VERSION" linux-config-6.1; do
		for suite in bookworm-security bookworm; do
			uri=$(apt_uri "$suite")
			[ -n "$uri" ] || continue
			deb=$(fetch_deb "$DEB_ARCH" "$suite" "$uri" "$pkg" 2>/dev/null) && break 2
		done
		warn "distro config: Debian no longer serves $pkg; taking the newest it serves"
	done
	[ -n "$deb" ] || die "cannot download linux-config-6.1 for $DEB_ARCH"
	dpkg-deb -x "$deb" "$tmp/x"
	xz -dc "$tmp/x/usr/src/linux-config-6.1/config.${DEB_ARCH}_none_$DEB_FLAVOUR.xz" >"$tmp/config"
	note "distro config: $(basename "$deb"), config.${DEB_ARCH}_none_$DEB_FLAVOUR"
	;;
esac
# Modules the guests never load are not built: a distribution's thousands
# of them (3531 module options in Debian's arm64 config, against 1955
# built in) would cost hours of build and test nothing here.
sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' "$tmp/config" >"$dest"
rm -rf "$tmp"
