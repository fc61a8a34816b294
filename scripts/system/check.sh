#!/bin/bash
# system/check.sh ARCH: make check-system. The series as a distribution
# would ship it (make deb), installed and booted on each Debian system of
# arches/ARCH.env's SYSTEM_IMAGES (system/image.sh) under systemd, and the
# users' tools run on it as a user would (guest/system/run.sh):
#   1. the image boots Debian's own 6.1 kernel (the baseline; riscv64,
#      which Debian has no 6.1 kernel for, boots the series' kernel
#      image directly), runs the tests there, and installs the make deb
#      packages with dpkg -i (maintainer scripts, initramfs-tools, /boot);
#   2. the installed kernel and initrd are booted from /boot, and the
#      tests run again.
# Results: build/results/ARCH-system-debian.tap (the baseline),
# ARCH-system.tap (the installation and the series), and
# ARCH-system.report, the table of both; ARCH-system-SUITE* for a second
# image. Where an image has no bpftrace, the lab's own fentry program
# (system/fentry.sh) goes on the lab's disk. With SYSTEM_MAINLINE
# (x86_64, arm64), that suite's Debian 6.12 kernel is installed beside
# the series and booted third (ARCH-system-mainline*), and each of the
# three kernels times bpftrace's kfunc: wildcards (the report's second
# table). Exit status: the series' runs.
#   SYSTEM=N          the Nth system of SYSTEM_IMAGES only
#   SYSTEM_TIMEOUT=S  kill a guest after S seconds (default 3600)
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
t_start=$(date +%s)
"$LAB/scripts/system/deb.sh" "$ARCH_NAME"
release=$(cat "$BUILD/deb/$ARCH_NAME/release")
mkdir -p "$RESULTS"

# lab_disk STEPS NAME: the lab's disk (ext4, label "lab"): the runner,
# the guest library, the packages, the lab's fentry program where the
# image has no bpftrace, what to do, the results' name and the series'
lab_disk() {
	local d=$dir/lab
	rm -rf "$d" "$dir/lab.img"
	mkdir -p "$d/debs"
	cp "$LAB/guest/system/run.sh" "$LAB/guest/lib.sh" "$d/"
	cp "$BUILD/deb/$ARCH_NAME/"*.deb "$d/debs/"
	[ -z "$fentry" ] || cp -r "$fentry" "$d/fentry"
	if [ -n "$mainline_deb" ] && [ "${1%install}" != "$1" ]; then
		mkdir -p "$d/mainline"
		cp "$mainline_deb" "$d/mainline/"
	fi
	echo "$ARCH_NAME" >"$d/arch"
	echo "$2" >"$d/name"
	echo "$IMG_NAME" >"$d/series"
	echo "$1" >"$d/steps"
	mkfs.ext4 -q -F -L lab -d "$d" "$dir/lab.img" "$(( $(du -sm "$d" | cut -f1) + 64 ))M"
	rm -rf "$d"
}

# boot_system NAME KERNEL [INITRD]: boot the image with KERNEL (and
# INITRD), both disks virtio (VIRTIO_BLK: so the root is always /dev/vda),
# until the guest powers off; its results into build/results/NAME.*
# and its /lab/out into build/system/ARCH/out-NAME/.
boot_system() {
	local name=$1 kernel=$2 initrd=${3:-} rc=0 t0 limit=${SYSTEM_TIMEOUT:-3600}
	rm -f "$RESULTS/$name.hang.console" "$RESULTS/$name.hang.console.1"
	local append="root=/dev/vda rw console=$CONSOLE panic=-1${ARCH_KERNEL_ARGS:+ $ARCH_KERNEL_ARGS}"
	step "system $ARCH_NAME: boot $name ($(basename "$kernel"))"
	t0=$(date +%s)
	local boots=0 qpid
	while :; do
		boots=$((boots + 1))
		# shellcheck disable=SC2086 # QEMU_ARGS holds several words
		timeout "$limit" "$QEMU" $QEMU_ARGS -accel "$QEMU_ACCEL" -smp "$QEMU_SMP" -m 2048 \
			-nodefaults -display none -no-reboot \
			-kernel "$kernel" ${initrd:+-initrd "$initrd"} -append "$append" \
			-drive "file=$dir/run.img,format=raw,if=none,id=root" -device "$VIRTIO_BLK,drive=root" \
			-drive "file=$dir/lab.img,format=raw,if=none,id=lab" -device "$VIRTIO_BLK,drive=lab" \
			-serial "file:$RESULTS/$name.console" &
		qpid=$!
		# timeout leads a process group of its own: stopping this
		# script must stop the guest too (timeout passes the TERM on)
		trap 'kill "$qpid" 2>/dev/null' EXIT
		# A console silent for SYSTEM_QUIET seconds (600) before the
		# system is up is a hung boot: once more, as boot.sh does (seen:
		# riscv64 at "smp: Bringing up secondary CPUs" beside builds).
		while kill -0 "$qpid" 2>/dev/null; do
			sleep 5
			[ -e "$RESULTS/$name.console" ] || continue
			grep -qa 'lab-system.service' "$RESULTS/$name.console" && continue
			[ $(($(date +%s) - $(stat -c %Y "$RESULTS/$name.console"))) -ge "${SYSTEM_QUIET:-600}" ] || continue
			warn "system $ARCH_NAME: $name hung booting (console: $(tail -n 1 "$RESULTS/$name.console" | cut -c1-80))"
			cp "$RESULTS/$name.console" "$RESULTS/$name.hang.console"
			kill "$qpid"
		done
		rc=0
		wait "$qpid" || rc=$?
		trap - EXIT
		[ -e "$RESULTS/$name.hang.console" ] && [ "$boots" = 1 ] && [ "$rc" != 0 ] || break
		rm -f "$RESULTS/$name.hang.console.1"
		mv "$RESULTS/$name.hang.console" "$RESULTS/$name.hang.console.1"
	done
	rm -rf "$dir/out-$name"
	debugfs -R "rdump /out $dir" "$dir/lab.img" >/dev/null 2>&1 && mv "$dir/out" "$dir/out-$name" ||
		mkdir -p "$dir/out-$name"
	touch "$dir/out-$name/raw"
	printf 'ARCH=%q\nRC=%q\nBOOTS=%q\nREHUNG=\nLIMIT=%q\nSECS=%q\nCONSOLE_EXPECT=\n' \
		"$ARCH_NAME" "$rc" "$boots" "$limit" "$(($(date +%s) - t0))" >"$RESULTS/$name.run"
}

# boot_files RELEASE: the kernel RELEASE installed in the run's image and
# its initrd, as $dir/vmlinuz and $dir/initrd (vmlinux: as 6.1's
# bindeb-pkg installs it on powerpc and mips); 1 when either is missing
boot_files() {
	rm -f "$dir/vmlinuz" "$dir/initrd"
	debugfs -R "dump /boot/vmlinuz-$1 $dir/vmlinuz" "$dir/run.img" >/dev/null 2>&1 || true
	[ -s "$dir/vmlinuz" ] ||
		debugfs -R "dump /boot/vmlinux-$1 $dir/vmlinuz" "$dir/run.img" >/dev/null 2>&1 || true
	debugfs -R "dump /boot/initrd.img-$1 $dir/initrd" "$dir/run.img" >/dev/null 2>&1 || true
	# The host is the bootloader: QEMU's -kernel takes riscv64's Image
	# only uncompressed, and the package installs it gzipped (Image.gz),
	# which U-Boot's booti or GRUB would unpack.
	if gzip -t "$dir/vmlinuz" 2>/dev/null; then
		zcat "$dir/vmlinuz" >"$dir/vmlinuz.img"
		mv "$dir/vmlinuz.img" "$dir/vmlinuz"
	fi
	[ -s "$dir/vmlinuz" ] && [ -s "$dir/initrd" ]
}

# boot_installed NAME RELEASE RAW STEPS: boot the kernel RELEASE that the
# first boot installed in the run's image, the lab's disk doing STEPS;
# NAME's results follow what the installation wrote to RAW in that boot's
# out/ (install.raw, mainline.raw). A kernel missing from /boot is
# NAME's failure. judge.sh judges NAME either way.
boot_installed() {
	local name=$1 rel=$2 raw=$dir/out-$first/$3
	if boot_files "$rel"; then
		lab_disk "$4" "$name"
		boot_system "$name" "$dir/vmlinuz" "$dir/initrd"
		{ cat "$raw" 2>/dev/null || true; cat "$dir/out-$name/raw"; } >"$RESULTS/$name.raw"
	else
		{ cat "$raw" 2>/dev/null || true
		  echo "not ok 1 $name:install:boot-files"
		  echo "# no /boot/vmlinu[zx]-$rel and initrd.img-$rel after the installation"; } >"$RESULTS/$name.raw"
		: >"$RESULTS/$name.console"
		printf 'ARCH=%q\nRC=1\nBOOTS=1\nREHUNG=\nLIMIT=0\nSECS=0\nCONSOLE_EXPECT=\n' "$ARCH_NAME" >"$RESULTS/$name.run"
	fi
	"$LAB/scripts/judge.sh" "$name"
}

# Debian's 6.12 (SYSTEM_MAINLINE): the kernel package that suite's
# linux-image-DEB_FLAVOUR depends on, downloaded here and installed by
# dpkg -i in the guest beside the series (mainline_deb, mainline_release;
# both empty without SYSTEM_MAINLINE or when the archive will not serve it)
mainline_deb='' mainline_release=''
if [ -n "$SYSTEM_MAINLINE" ]; then
	uri=$(apt_uri bookworm)
	if apt_private "$DEB_ARCH" "$SYSTEM_MAINLINE" "$uri"; then
		p=$(apt-cache "${APT_OPTS[@]}" show "linux-image-$DEB_FLAVOUR" 2>/dev/null |
			sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1)
		[ -z "$p" ] || mainline_deb=$(fetch_deb "$DEB_ARCH" "$SYSTEM_MAINLINE" "$uri" "$p") || mainline_deb=
		[ -z "$mainline_deb" ] || mainline_release=${p#linux-image-}
	fi
	[ -n "$mainline_deb" ] && note "system $ARCH_NAME: the mainline anchor is $SYSTEM_MAINLINE's $p" ||
		warn "system $ARCH_NAME: no linux-image-$DEB_FLAVOUR from $SYSTEM_MAINLINE: no mainline anchor"
fi
timing=
[ -z "$SYSTEM_MAINLINE" ] || timing=timing

# system_run: make check-system on the image system_image chose
system_run() {
	dir=$IMG_DIR
	"$LAB/scripts/system/image.sh" "$ARCH_NAME" "$n"
	rm -f "$RESULTS/$IMG_NAME-mainline".*
	fentry=
	case " $IMG_TOOLS " in
	*" bpftrace "*) ;;
	*) fentry=$("$LAB/scripts/system/fentry.sh" "$ARCH_NAME" "$(cat "$dir/root.suite")") ;;
	esac
	step "system ${dir##*/}: a copy of the image for this run"
	cp --sparse=always "$dir/root.img" "$dir/run.img"

	# 1. the baseline (or the series' own image), and the installation
	if [ -n "$SYSTEM_BASELINE" ]; then
		first=$IMG_NAME-debian
		lab_disk "tests $timing install" "$first"
		boot_system "$first" "$dir/debian-vmlinuz" "$dir/debian-initrd"
	else
		first=$IMG_NAME-install
		lab_disk install "$first"
		boot_system "$first" "$BUILD/out/$ARCH_NAME-deb/$KIMAGE"
	fi
	cp "$dir/out-$first/raw" "$RESULTS/$first.raw"
	"$LAB/scripts/judge.sh" "$first"

	# 2. the installed kernel, from /boot
	name=$IMG_NAME
	boot_installed "$name" "$release" install.raw "tests $timing"
	# 3. Debian's 6.12, installed beside the series: the same timing
	[ -z "$mainline_deb" ] ||
		boot_installed "$IMG_NAME-mainline" "$mainline_release" mainline.raw mainline
	rm -f "$dir/run.img" "$dir/lab.img"

	"$LAB/scripts/system/report.sh" "$ARCH_NAME" "$n" | tee "$RESULTS/$name.report"
	tap_counts "$RESULTS/$name.tap"
	step "check-system ${dir##*/}: $PASS passed, $FAIL failed, $SKIP skipped, $KNOWN known failures"
	failed=$((failed + FAIL))
}

failed=0 n=1 ran=0
while system_image "$n"; do
	if [ -z "${SYSTEM:-}" ] || [ "$SYSTEM" = "$n" ]; then
		system_run
		ran=$((ran + 1))
	fi
	n=$((n + 1))
done
[ "$ran" != 0 ] || die "arches/$ARCH_NAME.env: no system ${SYSTEM:-} in SYSTEM_IMAGES"
step "check-system $ARCH_NAME: $ran system(s), $failed failed, in $(($(date +%s) - t_start)) s"
[ "$failed" = 0 ]
