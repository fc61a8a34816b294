#!/bin/bash
# pahole-linked.sh: the kernel build's PAHOLE for an architecture whose
# relocatable objects the host's pahole misreads (arches/ARCH.env:
# PAHOLE_MODULES=linked).
#
# Debian 12's pahole 1.24 reads a module's DWARF through elfutils 0.188,
# which does not apply a mips64el object's relocations to it: every
# name a DW_FORM_strp relocation points at comes out empty, each
# FUNC_PROTO gets "(null)" argument names, and pahole encodes no function
# at all. A linked object has no such relocations left. So a module's
# BTF (scripts/Makefile.modfinal: pahole -J ... --btf_base vmlinux M.ko)
# is encoded from a copy of M.ko linked at an arbitrary address, with
# the same options, and added to M.ko as pahole adds it (an .BTF section
# by objcopy); BTF holds no address, so it is the module's own. The
# copy's linker script names only .data..percpu, whose variables pahole
# encodes from that section (the default script would merge it into
# .data); every other section keeps its name as an orphan. Every other
# call (vmlinux's BTF, --version) is pahole's.
set -eu
[[ " $* " == *" --btf_base "* ]] || exec pahole "$@"
ko=${!#}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objcopy=${LLVM_OBJCOPY:-${CROSS_COMPILE:-}objcopy}
echo 'SECTIONS { .data..percpu : { *(.data..percpu) } }' >"$tmp/lds"
"${CROSS_COMPILE:-}ld" -T "$tmp/lds" -e 0 --unresolved-symbols=ignore-all \
	-o "$tmp/linked" "$ko"
args=("${@:1:$#-1}")
# -J writes into the file; the copy's BTF goes to a file of its own
pahole "${args[@]/#-J/--btf_encode_detached=$tmp/btf}" "$tmp/linked"
"$objcopy" --remove-section .BTF --add-section .BTF="$tmp/btf" "$ko"
