#!/bin/bash
# system/image.sh ARCH [N]: the Nth Debian system make check-system boots
# (arches/ARCH.env's SYSTEM_IMAGES, the first by default), built from the
# archive with mmdebstrap (foreign architectures through qemu-user-static
# and binfmt_misc): systemd as PID 1, bpftool and the users' tools the
# image names and, where Debian has a 6.1 kernel for the architecture,
# that kernel of BASE's version (the baseline), all installed by apt.
# Written to build/system/ARCH/ (the second on: ARCH-SUITE/):
#   root.img        the root filesystem, ext4, for a virtio disk
#   root.suite      the suite it came from
#   debian-vmlinuz, debian-initrd   the baseline kernel and its initrd
# It is made again only when what it is made from changes (root.key).
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
system_image "${2:-1}" || die "arches/$ARCH_NAME.env: no system image ${2:-1} in SYSTEM_IMAGES"
dir=$IMG_DIR
foreign=
[ "$DEB_ARCH" = "$(dpkg --print-architecture)" ] || foreign="qemu-user-static arch-test"
EXTRA_PACKAGES="mmdebstrap e2fsprogs $foreign ${EXTRA_PACKAGES:-}" "$LAB/scripts/deps.sh" "$ARCH_NAME"
mkdir -p "$dir"

# A foreign architecture's programs run under qemu-user, which the kernel
# starts for them through binfmt_misc (mounted here if it is not).
if [ -n "$foreign" ]; then
	q=$QEMU_USER
	bm=/proc/sys/fs/binfmt_misc
	[ -e "$bm/register" ] || mount -t binfmt_misc binfmt_misc "$bm" ||
		die "cannot mount binfmt_misc: $ARCH_NAME programs cannot run here"
	[ -e "$bm/qemu-$q" ] || cat "/usr/lib/binfmt.d/qemu-$q.conf" >"$bm/register" ||
		die "cannot register qemu-$q with binfmt_misc"
fi

# The baseline: Debian's 6.1 kernel of BASE's version (the security suite
# keeps only its newest: else that one, said so). Since bookworm's LTS
# began, the security suite has no s390x or mips64el: the newest of
# bookworm itself then (kept in base_suite, whose source the image needs).
baseline= base_suite= security=bookworm-security
if [ -n "$SYSTEM_BASELINE" ]; then
	for base_suite in bookworm-security bookworm; do
		# a mirror caught mid-sync refuses an index: the next suite
		if ! apt_private "$DEB_ARCH" "$base_suite" "$(apt_uri "$base_suite")"; then
			warn "system: cannot read $base_suite for $DEB_ARCH (a mirror mid-sync?)"
			[ "$base_suite" != bookworm-security ] || security=
			continue
		fi
		baseline=$(apt-cache "${APT_OPTS[@]}" search --names-only "^linux-image-6\.1\.0-[0-9]+-$DEB_FLAVOUR\$" |
			cut -d' ' -f1 | while read -r p; do
				v=$(apt-cache "${APT_OPTS[@]}" show "$p" | sed -n 's/^Version: //p' | head -n 1)
				[ "$v" = "$VERSION" ] && echo "$p"
			done | head -n 1)
		[ -z "$baseline" ] || break
		baseline=$(apt-cache "${APT_OPTS[@]}" show "linux-image-$DEB_FLAVOUR" 2>/dev/null |
			sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1)
		if [ -n "$baseline" ]; then
			warn "system: Debian serves no linux-image of $VERSION for $DEB_ARCH; the baseline is $base_suite's $baseline"
			break
		fi
	done
	[ -n "$baseline" ] || die "no Debian 6.1 kernel for $DEB_ARCH ($DEB_FLAVOUR) in bookworm"
fi

# mount: no longer essential from forky (sid) on, and the lab's unit mounts
# its disk with it
pkgs="systemd-sysv udev kmod initramfs-tools e2fsprogs procps iproute2 netcat-openbsd mount
      bpftool $IMG_TOOLS $baseline"
# bcc compiles its programs against the running kernel's headers: a user
# of bcc on Debian's kernel installs its headers package too
case " $IMG_TOOLS " in
*" bpfcc-tools "*) [ -z "$baseline" ] || pkgs="$pkgs linux-headers-${baseline#linux-image-}" ;;
esac
key=$(cat "$0" "$LAB/scripts/system/image-hook.sh" "$LAB/guest/system/lab-system.service" |
	sha256sum | cut -c1-16)
key="$key $IMG_SUITES $(echo $pkgs)${security:+ $security}"
if [ -s "$dir/root.img" ] && [ -s "$dir/root.suite" ] &&
   [ "$(cat "$dir/root.key" 2>/dev/null)" = "$key" ]; then
	note "system ${dir##*/}: root.img is up to date"
	exit 0
fi
rm -f "$dir/root.img" "$dir/root.key" "$dir/root.suite" "$dir/debian-vmlinuz" "$dir/debian-initrd"

root=$dir/root
uri=$(apt_uri bookworm)
[ -n "$uri" ] || die "no bookworm source in this machine's apt configuration"
made=
for suite in $IMG_SUITES; do
	step "system ${dir##*/}: mmdebstrap $suite ($(echo $pkgs | wc -w) packages and their dependencies)"
	sources=("deb $uri $suite main")
	if [ "$suite" = bookworm ]; then
		sources+=("deb $uri bookworm-updates main")
		# without the security suite the mirror refused (made again,
		# with it, once the mirror serves it: it is in the key)
		if [ -n "$security" ]; then
			sources+=("deb $(apt_uri bookworm-security) bookworm-security main")
		else
			warn "system ${dir##*/}: bookworm without bookworm-security, which the mirror refused"
		fi
	elif [ -n "$baseline" ]; then
		# a newer userland on Debian 12's kernel: $base_suite gives
		# the kernel, $suite (newer) everything else
		sources+=("deb $(apt_uri "$base_suite") $base_suite main")
	fi
	rm -rf "$root"
	t0=$(date +%s)
	# Valid-Until: a mirror's copy of sid may be older than its Release
	# allows (seen: 23 days); the signatures are still checked.
	if mmdebstrap --mode=root --arch="$DEB_ARCH" --variant=apt \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--include="$(echo $pkgs | tr ' ' ,)" \
		--customize-hook="$LAB/scripts/system/image-hook.sh \"\$1\"" \
		"$suite" "$root" "${sources[@]}" >"$LOGS/system-image-${dir##*/}.log" 2>&1; then
		made=$suite
		break
	fi
	tail -n 5 "$LOGS/system-image-${dir##*/}.log" | sed 's/^/    /'
	warn "system ${dir##*/}: mmdebstrap from $suite failed (a mirror mid-sync?)"
done
[ -n "$made" ] || die "system $ARCH_NAME: no suite of '$IMG_SUITES' could be used"
note "$made, $(du -sm "$root" | cut -f1) MB, in $(($(date +%s) - t0)) s"

if [ -n "$baseline" ]; then
	kver=${baseline#linux-image-}
	# vmlinux: Debian's powerpc64le and mips flavours install the ELF
	cp "$root/boot/vmlinuz-$kver" "$dir/debian-vmlinuz" 2>/dev/null ||
		cp "$root/boot/vmlinux-$kver" "$dir/debian-vmlinuz"
	cp "$root/boot/initrd.img-$kver" "$dir/debian-initrd"
fi
# room for the series' packages and their initrd
size=$(( $(du -sm "$root" | cut -f1) + 1536 ))
mkfs.ext4 -q -F -L root -d "$root" "$dir/root.img" "${size}M" ||
	die "mkfs.ext4 -d failed"
rm -rf "$root"
echo "$made" >"$dir/root.suite"
echo "$key" >"$dir/root.key"
note "system ${dir##*/}: $dir/root.img (${size} MB), baseline ${baseline:-none}"
