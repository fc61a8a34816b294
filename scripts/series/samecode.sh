#!/bin/bash
# series/samecode.sh ARCH: which functions' machine code patches FROM to TO
# of the series change (FROM=N TO=M, 1-based, as make check-bisect counts),
# and whether a traced call runs any of them. A patch that only changes
# how functions are attached leaves a traced call as it was; this shows
# it instruction for instruction instead of inferring it from make
# bench's timings, whose boots differ by up to 20 % under TCG.
#
# Each .c file the range changes is compiled with ARCH's make check
# config (build/out/ARCH/.config) as the series stands before FROM and
# after TO, in a worktree of build/linux (build/samecode) and one output
# directory, so that the second build recompiles only what changed. Each
# object is disassembled with its relocations; a function's code is its
# instructions with the addresses taken out (a call to a function of the
# same object keeps the callee's name) and a relocation against a
# section or a local label reduced to its kind (.rodata+0x40 and
# .rodata+0x48 compare equal: a string added to one function moves the
# others' strings), so a change of layout alone is not a change. What
# this cannot see: a function that now reads another static variable of
# the same section.
#
# CALLPATH: the functions a traced call can run in those objects (the
# ftrace ops list walk and its hash look-ups, the direct call's
# look-up of its trampoline, the function tracer's callback), by default
# the list below. The result, build/results/samecode-ARCH.tap: per object
# "ok" when none of CALLPATH changed, its diagnostics name every function
# that did. A header, an assembler file, a Kconfig or a Makefile in the
# range fails the run: what they change is not compared.
. "$(dirname "$0")/../lib.sh"

export LC_ALL=C
load_arch "${1:-}"
# make check's compiler and flags; VARIANT=V adds variants/V/config and
# variants/V/ARCH.config onto make check's config (VARIANT=nopreempt:
# riscv64 builds no ftrace code under PREEMPT before its block)
variant=${VARIANT:-}
load_variant "$variant"
from=${FROM:?FROM=N (the first patch of the range)}
to=${TO:?TO=M (the last patch of the range)}
callpath=${CALLPATH:-ftrace_ops_list_func arch_ftrace_ops_list_func __ftrace_ops_list_func
ftrace_ops_assist_func ftrace_ops_test hash_contains_ip __ftrace_lookup_ip ftrace_lookup_ip
call_direct_funcs ftrace_find_rec_direct ftrace_stub function_trace_call
function_stack_trace_call ftrace_ops_get_func ftrace_ops_get_list_func}
# one word apart
callpath=" $(echo "$callpath" | tr -s ' \n' '  ') "
"$LAB/scripts/series/tree.sh"
[ -f "$OUT/.config" ] || die "no $OUT/.config: run make build ARCH=$ARCH_NAME first"
commits=$(git -C "$SRC" rev-list --reverse "$BASE_TAG..HEAD")
total=$(echo "$commits" | grep -c .)
[ "$from" -ge 1 ] && [ "$to" -ge "$from" ] && [ "$to" -le "$total" ] ||
	die "FROM=$from TO=$to: want 1 <= FROM <= TO <= $total"
before=$BASE_TAG
[ "$from" = 1 ] || before=$(echo "$commits" | sed -n "$((from - 1))p")
after=$(echo "$commits" | sed -n "${to}p")
files=$(git -C "$SRC" diff --name-only "$before" "$after")
# what is not a .c file and could change code (a header, an assembler
# file, a Kconfig or Makefile): its users are not compared
others=$(echo "$files" | grep -v -e '\.c$' -e '^Documentation/' || true)
sources=$(echo "$files" | grep '\.c$' || true)

wt=$BUILD/samecode
out=$BUILD/out/samecode-$ARCH_NAME${variant:+-$variant}
[ -e "$wt/.git" ] || git -C "$SRC" worktree add -q --detach "$wt" "$before"
mkdir -p "$out" "$RESULTS"
cp "$OUT/.config" "$out/.config"
for f in config "$ARCH_NAME.config"; do
	[ -z "$variant" ] || [ ! -f "$LAB/variants/$variant/$f" ] ||
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
			"$LAB/variants/$variant/$f" >/dev/null
done
ccache_env

# disasm OBJ: one line per function, "name sha256" of its normalized code;
# the code itself, one instruction a line, goes to OBJ.code (diff the
# two runs' to see what changed)
disasm() {
	"${CROSS_COMPILE}objdump" -d -r --no-show-raw-insn "$1" | awk '
	function flush() { if (fn != "") { print fn "\t" code } }
	# a local label (riscv64 keeps them for relaxation) is not a function
	/^[0-9a-f]+ <\.L[^>]*>:$/ { next }
	/^[0-9a-f]+ <[^>]+>:$/ { flush(); fn = $2; gsub(/[<>:]/, "", fn); code = ""; next }
	fn == "" { next }
	{
		line = $0
		gsub(/\.L[^ \t,>+)]*/, ".L", line)                  # local labels are numbered per object
		sub(/^[ \t]*[0-9a-f]+:[ \t]*/, "", line)           # address or relocation offset
		gsub(/[0-9a-f]+ </, "<", line)                     # target address before its name
		sub(/[ \t]+# <[^>]*>$/, "", line)                 # a computed address, as objdump guesses it
		gsub(/(^|[ \t,])\.[A-Za-z0-9_.]+[+-]0x[0-9a-f]+/, " .section+off", line)
		# a relocation against a section, a local label or an absolute
		# value (riscv64 anchors data on .LANCHOR0 or a section, as its
		# layout has it): its kind only
		if (line ~ /^R_/ && line ~ /[ \t][.*]/) { sub(/[ \t].*/, " local", line) }
		code = code "|" line
	}
	END { flush() }' >"$1.fns"
	tr '|' '\n' <"$1.fns" >"$1.code"
	while IFS=$'\t' read -r fn code; do
		printf '%s %s\n' "$fn" "$(printf '%s' "$code" | sha256sum | cut -c1-16)"
	done <"$1.fns" | sort
	rm -f "$1.fns"
}

# objects REV TAG: check REV out, build the directories of the changed
# sources as the config has them (a directory target, not the objects
# by name: kbuild would compile an object the config leaves out, as
# riscv64's ftrace.c before its block, under PREEMPT), and keep each
# object's function list as TAG
objects() {
	local f o dirs
	git -C "$wt" checkout -q --detach "$1"
	dirs=$(for f in $sources; do [ ! -f "$wt/$f" ] || echo "$(dirname "$f")/"; done | sort -u)
	for f in $sources; do
		rm -f "$out/${f%.c}.o"
	done
	# shellcheck disable=SC2086 # one directory per word
	[ -z "$dirs" ] || SRC=$wt run_logged "$LOGS/samecode-$ARCH_NAME-$2.log" \
		"samecode $ARCH_NAME $2 $(echo $dirs)" kmake O="$out" -j"$(nproc)" olddefconfig $dirs ||
		return 1
	for f in $sources; do
		o=${f%.c}.o
		if [ ! -f "$wt/$f" ]; then
			echo "# $f: not in the tree $2" >"$out/$2-${o//\//_}.fn"
		elif [ -f "$out/$o" ]; then
			disasm "$out/$o" >"$out/$2-${o//\//_}.fn"
			mv "$out/$o.code" "$out/$2-${o//\//_}.code"
		else
			echo "# $o: not built with this config $2" >"$out/$2-${o//\//_}.fn"
		fi
	done
}

step "samecode $ARCH_NAME${variant:+ ($variant)}: patches $from to $to, $(echo "$sources" | grep -c .) sources"
objects "$before" before || die "samecode: the build before patch $from failed"
objects "$after" after || die "samecode: the build after patch $to failed"

tap=$RESULTS/samecode-$ARCH_NAME${variant:+-$variant}.tap
n=0
{
	echo "KTAP version 1"
	echo "1..$(($(echo "$sources" | grep -c .) + 1))"
	n=$((n + 1))
	if [ -n "$others" ]; then
		echo "not ok $n samecode:only-c-files"
		echo "$others" | sed 's/^/# changed, its users not compared: /'
	else
		echo "ok $n samecode:only-c-files"
		echo "# the range changes .c files only (and Documentation/)"
	fi
	for f in $sources; do
		n=$((n + 1))
		o=${f%.c}.o
		a=$out/before-${o//\//_}.fn b=$out/after-${o//\//_}.fn
		if grep -q '^#' "$a" "$b"; then
			echo "ok $n samecode:$o # SKIP $(cat "$a" "$b" | grep '^#' | head -n 1 | cut -c3-)"
			continue
		fi
		changed=$(join -a1 -a2 -e - -o 0,1.2,2.2 "$a" "$b" | awk '$2 != $3 { print $1 }')
		hit=$(for c in $changed; do
			case $callpath in *" $c "*) echo "$c" ;; esac
		done | paste -sd' ')
		if [ -n "$hit" ]; then
			echo "not ok $n samecode:$o"
			echo "# on a traced call's path, changed: $hit"
		else
			echo "ok $n samecode:$o"
		fi
		echo "# $(wc -l <"$b") functions after, $(echo "$changed" | grep -c .) changed:" \
			"$(echo "$changed" | paste -sd' ')"
		same=$(for c in $callpath; do
			grep -q "^$c " "$b" && ! echo "$changed" | grep -qx "$c" && echo "$c"
		done | paste -sd' ')
		echo "# of the call path, unchanged here: ${same:-none of CALLPATH is in this object}"
	done
} >"$tap"
cat "$tap"
! grep -q '^not ok' "$tap"
