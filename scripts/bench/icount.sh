#!/bin/bash
# bench/icount.sh [ARCH...]: the instructions one call of the bench's function
# executes, by what is attached to it, on our kernel and on mainline 6.12:
# where make bench's ratios come from, counted rather than timed.
#
# Each of make bench's two kernels (built here if make bench has not)
# boots once with the bench suite at one call a mode (lab.bench_calls=1),
# stopped until gdb is attached to QEMU's gdbstub. gdb stops at every
# call of ftrace_bench_target() and single-steps it from its first
# instruction until it is back in its caller; QEMU steps with interrupts
# and timers masked, so that only the call's own path is counted (on
# riscv64 the function tracer's call goes on into a scheduler tick after
# its trace clock's rdtime, with no trap entry stepped: such a count is
# wrong and shows scheduler_tick() among its functions; docs/results/before-2026-11-28.md). The
# i-th call is the i-th mode of the suite's "# bench:" lines.
# ICOUNT_MODES=untraced,bpf-fentry (lab.bench_modes=): those modes only,
# the others not run at all, so that a mode after one whose count goes
# wrong can still be counted.
#
# Writes build/results/icount-NAME.log (every instruction stepped, by
# call) and build/results/icount-ARCH.txt: per mode, the instructions
# on each kernel, then per kernel and mode the functions that executed
# them ([no-symbol]: code without a symbol, a trampoline ftrace or BPF made).
. "$(dirname "$0")/../runner.sh"

arches=${*:-$(make_var BENCH_ARCHS)}
# shellcheck disable=SC2086 # one arch per word
EXTRA_PACKAGES="gdb-multiarch iproute2" run_start $arches
"$LAB/scripts/bench/mainline-tree.sh"
"$LAB/scripts/bench/graft.sh"

# gdb_script ADDR SCHED RET: the commands, ADDR being the function's
# address (System.map's: GCC's debug information starts a function after
# its patchable-entry NOPs, so gdb's own would skip the patch site), SCHED
# __schedule()'s and RET the return address at a function's first
# instruction. A call preempted on its way (a preempt_enable() with a
# reschedule pending, as in BPF's migrate_disable()) is not stepped through
# the other tasks: it runs on to where __schedule() returns on the same
# stack, and its count is marked. A call that has not returned after
# 100000 steps is cut there: its count reads 100000.
gdb_script() {
	cat <<EOF
set pagination off
set confirm off
set width 0
set height 0
break *$1
set scheduler-locking step
set \$hit = 0
while 1
  continue
  set \$sp0 = (unsigned long)\$sp
  set \$ret = (unsigned long)($3)
  set \$n = 0
  set \$preempted = 0
  printf "icount: begin %d\\n", \$hit
  while \$n < 100000 && !((unsigned long)\$pc == \$ret && (unsigned long)\$sp >= \$sp0)
    if (unsigned long)\$pc == $2
      set \$psp = (unsigned long)\$sp
      set \$preempted = \$preempted + 1
      tbreak *(unsigned long)($3) if (unsigned long)\$sp >= \$psp && (unsigned long)\$sp <= \$psp + 8
      continue
    else
      x/i \$pc
      stepi
      set \$n = \$n + 1
    end
  end
  printf "icount: end %d %d %d\\n", \$hit, \$n, \$preempted
  set \$hit = \$hit + 1
end
EOF
}

# one ARCH VARIANT NAME: build (as make bench does), boot under gdb, and
# NAME.tap, NAME.log; prints the boot's summary line
one() {
	local a=$1 variant=$2 name=$3 src=$BUILD/linux port args out addr sched
	[ "$variant" = mainline ] && src=$BUILD/linux-mainline
	SRC=$src SUITES=bench run_prepare "$name" "$a" "$variant" || return 1
	out=$BUILD/out/$a-$variant
	addr=$(awk '$3 == "ftrace_bench_target" { print "0x" $1 }' "$out/System.map")
	sched=$(awk '$3 == "__schedule" { print "0x" $1 }' "$out/System.map")
	[ -n "$addr" ] && [ -n "$sched" ] ||
		{ warn "$name: no ftrace_bench_target or __schedule in $out/System.map"; return 1; }
	# make bench's command line, one call a mode, no KASLR (System.map)
	args="mitigations=off${BENCH_KERNEL_ARGS:+ $BENCH_KERNEL_ARGS} nokaslr lab.bench_calls=1"
	args="$args${ICOUNT_MODES:+ lab.bench_modes=$ICOUNT_MODES}"
	port=$((20000 + RANDOM % 20000))
	step "icount: $name, gdb on port $port"
	QEMU_GDB=$port SUITES=bench KERNEL_ARGS="$args" RESULT_NAME=$name TIMEOUT=1800 \
		"$LAB/scripts/boot.sh" "$a" "$variant" >"$LOGS/icount-$name.boot" 2>&1 &
	for _ in $(seq 1 60); do
		[ -n "$(ss -Hltn "sport = :$port")" ] && break
		sleep 1
	done
	gdb_script "$addr" "$sched" "$GDB_RET" >"$LOGS/icount-$name.gdb"
	# gdb ends with an error when the guest powers off: that is the end
	gdb-multiarch -batch -nx -ex "file $out/vmlinux" \
		-ex "target remote 127.0.0.1:$port" -x "$LOGS/icount-$name.gdb" \
		>"$RESULTS/$name.log" 2>&1 || true
	wait || true
	grep -E '^(not )?ok |passed' "$LOGS/icount-$name.boot" | tail -n 1 | sed 's/^/    /'
}

# counts NAME: "MODE COUNT" per call, the modes from NAME.tap in order
counts() {
	paste -d ' ' \
		<(awk '$1 == "#" && $2 == "bench:" && $3 != "clocksource" { print $3 }' "$RESULTS/$1.tap") \
		<(awk '$1 == "icount:" && $2 == "end" { print $4 ($5 > 0 ? "*" : "") }' "$RESULTS/$1.log")
}

# functions NAME MODE: the functions that call of MODE went through, the
# most instructions first
functions() {
	local k
	k=$(awk -v m="$2" '$1 == "#" && $2 == "bench:" && $3 != "clocksource" { if ($3 == m) { print n + 0; exit } n++ }' \
		"$RESULTS/$1.tap")
	[ -n "$k" ] || return 0
	awk -v k="$k" '$1 == "icount:" { on = ($2 == "begin" && $3 == k); next }
		on && /^=> / { f = "[no-symbol]"
			if (match($0, /<[^>+-]*/)) f = substr($0, RSTART + 1, RLENGTH - 1)
			n[f]++ }
		END { for (f in n) print n[f], f }' "$RESULTS/$1.log" | sort -rn |
		awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 } END { print "" }'
}

for a in $arches; do
	load_arch "$a"
	[ -n "$GDB_RET" ] || die "$a: no GDB_RET in arches/$a.env"
	ours=icount-$a mainline=icount-$a-mainline
	one "$a" bench "$ours" || warn "$a: no build of our bench kernel"
	one "$a" mainline "$mainline" || warn "$a: no build of the mainline kernel"
	txt=$RESULTS/icount-$a.txt
	{
		echo "# $a: instructions of one call of ftrace_bench_target(), by mode"
		printf '%-20s %8s %8s\n' mode ours 6.12
		# the suite's order; a mode only one kernel ran has "-" for the other
		awk 'NR == FNR { m[$1] = $2; next }
		     { printf "%-20s %8s %8s\n", $1, $2, ($1 in m ? m[$1] : "-"); seen[$1] = 1 }
		     END { for (k in m) if (!(k in seen)) printf "%-20s %8s %8s\n", k, "-", m[k] }' \
			<(counts "$mainline") <(counts "$ours")
		for n in "$ours" "$mainline"; do
			echo
			echo "# $n: instructions by function"
			for m in $(counts "$n" | awk '{ print $1 }'); do
				printf '%-20s %s\n' "$m" "$(functions "$n" "$m")"
			done
		done
	} >"$txt"
	cat "$txt"
done
