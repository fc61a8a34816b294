#!/bin/sh
# leaks: after every other suite, kmemleak scans memory (twice: an object
# is reported only once it was seen unreferenced in two scans) and any
# suspected leak fails, with the start of its report (the allocation's
# stack). Run by make check-debug, whose kernels have CONFIG_DEBUG_KMEMLEAK.
. /lab/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak
if [ ! -e $KMEMLEAK ]; then
	ktap_fail leaks:kmemleak "no $KMEMLEAK: the kernel has no CONFIG_DEBUG_KMEMLEAK"
	exit 0
fi
echo scan >$KMEMLEAK
sleep 5
echo scan >$KMEMLEAK
cat $KMEMLEAK >/tmp/kmemleak.txt
if [ ! -s /tmp/kmemleak.txt ]; then
	ktap_ok leaks:kmemleak
else
	ktap_fail leaks:kmemleak "$(grep -c 'unreferenced object' /tmp/kmemleak.txt) suspected leaks"
	head -n 30 /tmp/kmemleak.txt | while IFS= read -r l; do
		ktap_diag "$l"
	done
fi
