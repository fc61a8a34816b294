#!/bin/sh
# bpf: fentry, fexit, fmod_ret, a second program on one function and the
# link limit (of fentry, and of the three kinds mixed: the largest
# trampoline) on kernel functions, fentry, fexit and fmod_ret on a
# function of the lab's labtarget module, fentry and fexit on its
# functions of 12 arguments and of structures passed by value (in
# registers, and split between the last register and the stack: each
# slot, the slot count and the return value checked; what the arch's
# 6.1 trampoline cannot take must be refused with ENOTSUPP, and is then
# a skip with the reason), fentry and fexit on a BPF
# program and the JIT's tail-call limit; a per-CPU count under attach and
# detach; bad input (an unknown BTF id, a function ftrace cannot patch, a
# module in use), through the real bpf() syscall (guest/bpftest/); which
# path each kernel and module function took to its trampoline, near (the
# site calls it) or far (through ftrace_caller and the site's ops), against
# what arches/ARCH.env says this arch's lab kernel must take; a program
# on labtarget's function after the module came back at the same address
# beside programs left loaded for it, with an IPMODIFY ops that sends the
# function elsewhere (as livepatch) joining it and there first.
. /lab/lib.sh

# An architecture whose BPF has no trampoline, with or without the series
# (arches/ARCH.env: BPF_SKIP), is one skip with the reason the host wrote.
if [ -f /lab/bpf.skip ]; then
	ktap_skip bpf "$(cat /lab/bpf.skip)"
	exit 0
fi

# The JIT on, as distributions have it (BPF_JIT_ALWAYS_ON): the programs
# fentry and fexit trace and the tail-call test must be native code.
echo 1 >/proc/sys/net/core/bpf_jit_enable ||
	ktap_diag "cannot turn the BPF JIT on"
# BPF trampolines in /proc/kallsyms, for bpf:trampoline-path: the default
# only where BPF_JIT_DEFAULT_ON (not riscv64 on 6.1)
echo 1 >/proc/sys/net/core/bpf_jit_kallsyms ||
	ktap_diag "cannot list BPF code in /proc/kallsyms"
modprobe labtarget 2>/tmp/modprobe.err ||
	ktap_diag "modprobe labtarget: $(cat /tmp/modprobe.err)"
bpftest
# labtarget loaded again under detached programs, and an IPMODIFY ops
# beside fexit (guest/bpftest/stale.c)
bpftest stale "$(find /lib/modules -name labtarget.ko | head -n 1)"
# Every program is detached now: the module that bpf:module-busy could
# not unload goes, and leaves no patched site behind.
labtarget_unload bpf:module-unload
