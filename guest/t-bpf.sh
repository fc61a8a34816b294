#!/bin/sh
# bpf: fentry, fexit, fmod_ret and a second program on one function,
# through the real bpf() syscall (guest/bpftest.c).
. /lab/ktap.sh

bpftest
