#!/bin/bash
# system/fentry.sh ARCH SUITE: the lab's own fentry client (guest/system/
# fentry/) for a Debian system of SUITE that has none (no bpftrace; bcc
# takes kprobes off x86_64): its BPF object compiled by the host's clang,
# its loader by the cross compiler, linked statically against SUITE's own
# libbpf, libelf, zlib, libzstd and C library for the architecture,
# unpacked from the archive into build/system/fentry/DEB_ARCH-SUITE/root
# (never installed). Prints the directory that holds lab-fentry and
# lab-fentry.bpf.o, which make check-system puts on the lab's disk and
# the guest installs under /usr/local like any local program.
. "$(dirname "$0")/../lib.sh"

load_arch "${1:-}"
suite=${2:?usage: system/fentry.sh ARCH SUITE}
dir=$BUILD/system/fentry/$DEB_ARCH-$suite
src=$LAB/guest/system/fentry
EXTRA_PACKAGES="clang dpkg-dev ${EXTRA_PACKAGES:-}" "$LAB/scripts/deps.sh" "$ARCH_NAME" >&2
sys=$dir/root
if [ ! -f "$sys/.done" ]; then
	step "fentry client $DEB_ARCH: libbpf-dev and what it links with, from $suite" >&2
	uri=$(apt_uri bookworm)
	rm -rf "$dir/debs" "$sys"
	fetch_debs_deps "$DEB_ARCH" "$suite" "$uri" "$dir/debs" \
		libbpf-dev libelf-dev zlib1g-dev libzstd-dev libc6-dev ||
		die "fentry client: cannot download libbpf-dev for $DEB_ARCH from $suite"
	mkdir -p "$sys"
	for d in "$dir/debs"/*.deb; do
		dpkg-deb -x "$d" "$sys"
	done
	sysroot_links "$sys"
	touch "$sys/.done"
fi
libbpf="libbpf-dev $(dpkg-deb -f "$(ls "$dir/debs"/libbpf-dev_*.deb)" Version)"
key=$(cat "$src"/* "$0" | sha256sum | cut -c1-16)
if [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ] && [ -x "$dir/out/lab-fentry" ]; then
	echo "$dir/out"
	exit 0
fi
step "fentry client $DEB_ARCH: lab-fentry against $libbpf" >&2
rm -rf "$dir/out"
mkdir -p "$dir/out"
triple=$(dpkg-architecture -a"$DEB_ARCH" -qDEB_HOST_MULTIARCH 2>/dev/null)
endian=$(dpkg-architecture -a"$DEB_ARCH" -qDEB_HOST_ARCH_ENDIAN 2>/dev/null)
bpf=bpfel
[ "$endian" = little ] || bpf=bpfeb
clang -O2 -g --target="$bpf" -I"$sys/usr/include" -I"$sys/usr/include/$triple" \
	-c "$src/lab-fentry.bpf.c" -o "$dir/out/lab-fentry.bpf.o" >&2 ||
	die "fentry client: clang failed"
# -L: the suite's own C library before the cross compiler's (bookworm's:
# sid's libelf.a wants glibc 2.38's __isoc23_strtol)
"${CROSS_COMPILE}gcc" -O2 -Wall --sysroot="$sys" -static "$src/lab-fentry.c" \
	-o "$dir/out/lab-fentry" -L"$sys/usr/lib/$triple" -L"$sys/lib/$triple" \
	-lbpf -lelf -lz -lzstd >&2 ||
	die "fentry client: linking against $suite's libbpf failed"
echo "$libbpf, $suite" >"$dir/out/built-with"
echo "$key" >"$dir/key"
echo "$dir/out"
