#!/bin/sh
# bpf: fentry, fexit, fmod_ret, a second program on one function and the
# link limit on kernel functions, and fentry, fexit and fmod_ret on a
# function of the lab's labtarget module, through the real bpf() syscall
# (guest/bpftest.c).
. /lab/ktap.sh

modprobe labtarget 2>/tmp/modprobe.err ||
	ktap_diag "modprobe labtarget: $(cat /tmp/modprobe.err)"
bpftest
rmmod labtarget 2>/dev/null || true
