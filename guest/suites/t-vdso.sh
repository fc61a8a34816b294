#!/bin/sh
# vdso: the vDSO's clock_gettime() called on every CPU at once for 10 s
# while the kernel updates the time under it. No process may die and time
# may not go back: 6.1's riscv64 vDSO crashed there whenever it found an
# update in flight (series patch 1).
. /lab/lib.sh

rc=0
/lab/vdsospin 10 >/tmp/vdsospin.out 2>&1 || rc=$?
case $rc in
0) ktap_ok vdso:clock_gettime ;;
1) ktap_fail vdso:clock_gettime ;;
*) ktap_fail vdso:clock_gettime "vdsospin could not run (exit $rc)" ;;
esac
while IFS= read -r l; do
	ktap_diag "${l#\# }"
done </tmp/vdsospin.out
