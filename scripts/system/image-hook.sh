#!/bin/bash
# system/image-hook.sh ROOT: mmdebstrap's customize hook for
# system/image.sh, run on the host once the packages are in ROOT. What the
# image gets on top of Debian's defaults: a name, its root in fstab, the
# lab's unit, and no timer that would start apt or a filesystem scan
# while the tests run.
set -eu
r=${1:?usage: image-hook.sh ROOT}
lab=$(cd "$(dirname "$0")/../.." && pwd)
echo lab >"$r/etc/hostname"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$r/etc/fstab"
cp "$lab/guest/system/lab-system.service" "$r/etc/systemd/system/"
chroot "$r" systemctl -q enable lab-system.service
for t in apt-daily apt-daily-upgrade e2scrub_all fstrim man-db; do
	[ ! -e "$r/lib/systemd/system/$t.timer" ] || chroot "$r" systemctl -q mask "$t.timer"
done
