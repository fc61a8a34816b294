# Sourced by every host-side step: paths, the pin, messages, logged runs.
set -eu

# the lab: the folder above this file (scripts in scripts/series/ and
# scripts/bench/ source it as well)
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$LAB/build}
SRC=${SRC:-$BUILD/linux}
LOGS=$BUILD/logs
RESULTS=${RESULTS:-$BUILD/results}
BASE_TAG=lab-base
. "$LAB/BASE"

step() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf '!!  %s\n' "$*" >&2; }
die() { printf '!!! %s\n' "$*" >&2; exit 1; }

# make_var NAME: the default the Makefile gives NAME (NAME ?= ...), so
# that a script run by hand takes the same lists as its target (ARCHS,
# BENCH_ARCHS, STORM_ARCHS, ...): the Makefile holds the one list.
make_var() {
	sed -n "s/^$1 ?= *//p" "$LAB/Makefile"
}

# load_arch ARCH: the per-architecture facts, arches/defaults.env and
# then arches/ARCH.env over it (every key is reset for each architecture)
load_arch() {
	local k
	[ -n "${1:-}" ] && [ "$1" != defaults ] && [ -f "$LAB/arches/${1:-}.env" ] ||
		die "unknown ARCH '${1:-}' (one of: $(make_var ARCHS))"
	ARCH_NAME=$1
	. "$LAB/arches/defaults.env"
	. "$LAB/arches/$1.env"
	for k in KARCH KIMAGE DEB_ARCH QEMU QEMU_PACKAGE QEMU_ARGS CONSOLE VIRTIO_SERIAL; do
		[ -n "${!k}" ] || die "arches/$1.env: $k is required (arches/defaults.env)"
	done
	DEB_FLAVOUR=${DEB_FLAVOUR:-$DEB_ARCH}
	QEMU_USER=${QEMU_USER:-${QEMU#qemu-system-}}
	OUT=$BUILD/out/$1
}

# sysroot_links DIR: make DIR, Debian packages unpacked, usable as a
# sysroot. Packages of a merged-/usr suite (trixie on) ship /lib's files
# under /usr/lib and leave the /lib link to base-files, which a sysroot
# has not: libc.so's linker script names the loader in /lib. An absolute
# link (mips64el's /lib64/ld.so.1, which its libc.so script names) would
# lead out of the sysroot: made relative, inside it.
sysroot_links() {
	local d l
	for d in lib lib64 bin sbin; do
		[ -e "$1/$d" ] || [ ! -d "$1/usr/$d" ] || ln -s "usr/$d" "$1/$d"
	done
	find "$1" -type l -lname '/*' | while read -r l; do
		ln -sfnr "$1$(readlink "$l")" "$l"
	done
}

# system_image N: the Nth Debian system of make check-system (arches/:
# SYSTEM_IMAGES), after load_arch: IMG_SUITES, the suites to try in
# order; IMG_TOOLS, the users' tools it gets; IMG_NAME, what its results
# are named (ARCH-system, ARCH-system-SUITE from the second on); IMG_DIR,
# where it is kept (build/system/ARCH, ARCH-SUITE). Fails past the last.
system_image() {
	local spec imgs
	read -ra imgs <<<"$SYSTEM_IMAGES"
	spec=${imgs[$1 - 1]:-}
	[ -n "$spec" ] || return 1
	IMG_SUITES=$(echo "${spec%%:*}" | tr / ' ')
	IMG_TOOLS=$(echo "${spec#*:}" | tr , ' ')
	IMG_NAME=$ARCH_NAME-system IMG_DIR=$BUILD/system/$ARCH_NAME
	if [ "$1" != 1 ]; then
		IMG_NAME=$IMG_NAME-${spec%%[:/]*}
		IMG_DIR=$IMG_DIR-${spec%%[:/]*}
	fi
}

# ccache_env: ccache outside the clone (~/.cache/ccache), paths under the
# clone hashed relative to it and the working directory not at all, so
# that a fresh clone elsewhere (CI) hits the objects another clone
# compiled.
ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$LAB} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
	# Depend mode (a miss runs the compiler once and keys the result by
	# the headers its -MMD list names, where ccache's default runs the
	# preprocessor first to hash its output) and no compression: x86_64's
	# kernel/ (216 objects) recompiled in 167 s of CPU without ccache,
	# 212 s through ccache's defaults, 191 s in depend mode and 162 s in
	# depend mode uncompressed; a hit is read without decompressing too.
	export CCACHE_DEPEND=${CCACHE_DEPEND:-1} CCACHE_NOCOMPRESS=${CCACHE_NOCOMPRESS:-1}
	# s390 hands the assembler the tree's include directory (-Wa,-I<abs
	# path>), which CCACHE_BASEDIR does not rewrite: out of the hash, or no
	# s390x object of one clone is a hit for another (the assembler's
	# .include files were never in it: depend mode hashes what -MMD lists)
	export CCACHE_IGNOREOPTIONS=${CCACHE_IGNOREOPTIONS:--Wa,-I*}
}

# load_variant [VARIANT]: the kernel's toolchain. variants/VARIANT/env, if
# there, may set LLVM to the suffix of Debian's versioned tools (LLVM=-16:
# clang-16, ld.lld-16, ...), BASE_CONFIG, the script that writes the
# config the variant starts from, SELFTESTS_CONFIG=no, a kernel
# without the BPF selftests' config (scripts/build.sh), and ON_VARIANT,
# a variant this one is built on: its env first, its fragments before
# this one's.
load_variant() {
	LLVM= BASE_CONFIG= SELFTESTS_CONFIG= ON_VARIANT=
	if [ -n "${1:-}" ] && [ -f "$LAB/variants/$1/env" ]; then
		. "$LAB/variants/$1/env"
	fi
	if [ -n "$ON_VARIANT" ]; then
		local on=$ON_VARIANT
		. "$LAB/variants/$on/env"
		. "$LAB/variants/$1/env"
		ON_VARIANT=$on
	fi
	KCC=${CROSS_COMPILE}gcc
	[ -z "$LLVM" ] || KCC=clang$LLVM
	# The kernels carry debug info for BTF, which takes DWARF's types,
	# not where each variable lives: GCC's variable tracking is turned
	# off (12 large files of the arm64 kernel compiled one after the
	# other in 35.1 s instead of 39.3 s). -g never changes the code
	# (ftrace.o's .text was compared equal). KCFLAGS in the
	# environment, even empty, replaces this.
	[ -n "$LLVM" ] || : "${KCFLAGS=-fno-var-tracking -fno-var-tracking-assignments}"
}

# config_frags [VARIANT]: the Kconfig fragments merged onto the starting
# config, in order, into $frags (after load_arch, load_variant). The start
# is tinyconfig, or the script a variant's BASE_CONFIG names; then
#   configs/common.config
#   configs/bpf-selftests.config, the tree's own selftests/bpf/config,
#     configs/selftests-off.config (not for an architecture whose guest
#     cannot run the BPF selftests, BPF_SELFTESTS_SKIP, nor for a variant
#     whose guests never do, SELFTESTS_CONFIG=no)
#   configs/ARCH.config
#   variants/VARIANT/config, variants/VARIANT/ARCH.config (where they
#   exist), those of the variant it is built on (ON_VARIANT) first
# A variant with a BASE_CONFIG gets only its own fragments. The BPF
# selftests' config comes from the lab's tree (build/linux) even when SRC
# is another (make bench's mainline), so both kernels of a comparison get
# the same list.
config_frags() {
	local f v
	frags="$LAB/configs/common.config"
	if [ -z "$BPF_SELFTESTS_SKIP" ] && [ "$SELFTESTS_CONFIG" != no ]; then
		frags="$frags $LAB/configs/bpf-selftests.config
			$BUILD/linux/tools/testing/selftests/bpf/config
			$LAB/configs/selftests-off.config"
	fi
	frags="$frags $LAB/configs/$ARCH_NAME.config"
	[ -z "$BASE_CONFIG" ] || frags=
	for v in $ON_VARIANT ${1:-}; do
		for f in config "$ARCH_NAME.config"; do
			[ ! -f "$LAB/variants/$v/$f" ] || frags="$frags $LAB/variants/$v/$f"
		done
	done
}

# kmake ARGS...: make in the kernel tree with the architecture's and the
# variant's toolchain, through ccache (after load_arch, load_variant).
# HOSTCFLAGS: s390's gen_facilities and gen_opcode_table write their own
# __FILE__ into the headers they generate (asm/facility-defs.h, which
# nearly every s390 object includes): with -Wa,-I (ccache_env), each
# clone's s390x objects hashed apart, and a fresh clone (CI) compiled the
# whole kernel again beside the others (over 20 minutes). The kernel maps
# the tree's path away for its own objects (-fmacro-prefix-map); this
# does it for host programs.
#
# NM: binutils' nm, asked for no plugin, dlopen()s every one in
# /usr/lib/bfd-plugins to ask whether an object is its IR: the LLVMgold of
# each installed LLVM (14 came with the machine, clang-16 brings 16), and
# each links libLLVM. That took 0.13 s of every nm run, and 6.1 runs nm on
# every object it compiles (scripts/check-local-export): a riscv64 build
# from a full ccache took 512 s of CPU, 339 s with the plugin named, as
# here: GCC's own small LTO plugin is then the only one loaded (nm: 0.00
# s). Kernel objects are never LTO IR here (GCC, no LTO).
kmake() {
	local nm= lto
	lto=$(gcc -print-file-name=liblto_plugin.so 2>/dev/null)
	if [ -z "${LLVM:-}" ] && [ -f "$lto" ]; then
		nm="${CROSS_COMPILE}nm --plugin $lto${NM_FLAGS:+ $NM_FLAGS}"
	fi
	make -C "$SRC" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" ${LLVM:+LLVM="$LLVM"} \
		${nm:+NM="$nm"} \
		CC="ccache $KCC" HOSTCC="ccache gcc" ${KCFLAGS:+KCFLAGS="$KCFLAGS"} \
		HOSTCFLAGS="-fmacro-prefix-map=$SRC/=" \
		${PAHOLE_MODULES:+PAHOLE="$LAB/scripts/pahole-linked.sh"} "$@"
}

# run_logged LOG LABEL CMD...: run CMD with all output in LOG, print a
# progress line every 15 s (objects built so far, against the last full
# build when known) and the tail of LOG if CMD fails.
run_logged() {
	local log=$1 label=$2 start pid rc n total= i=0
	shift 2
	mkdir -p "$(dirname "$log")"
	[ -f "$log.objects" ] && total=$(cat "$log.objects")
	start=$(date +%s)
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 3
		i=$((i + 1))
		[ $((i % 5)) = 0 ] || continue
		n=$(grep -c '^  [A-Z]' "$log" || true)
		if [ -n "$total" ] && [ "$total" -ge "$n" ]; then
			note "$label: $n/$total steps ($(( n * 100 / total ))%), $(( $(date +%s) - start )) s"
		else
			note "$label: $n steps, $(( $(date +%s) - start )) s"
		fi
	done
	rc=0
	wait "$pid" || rc=$?
	if [ "$rc" -ne 0 ]; then
		warn "$label failed (exit $rc); last lines of $log:"
		tail -n 40 "$log" >&2
		return "$rc"
	fi
	# Remember the size of the largest build as the 100% mark.
	n=$(grep -c '^  [A-Z]' "$log" || true)
	[ "$n" -gt "${total:-0}" ] && echo "$n" >"$log.objects"
	note "$label: done in $(( $(date +%s) - start )) s"
}

# tap_counts TAP: set PASS, SKIP, FAIL, KNOWN and RETRIED for one KTAP file.
# Every "not ok" is a failure unless known-failures marked it "# TODO".
tap_counts() {
	PASS=$(grep -cE '^ok [0-9]+ ' "$1" || true)
	SKIP=$(grep -cE '^ok [0-9]+ .*# SKIP' "$1" || true)
	PASS=$((PASS - SKIP))
	KNOWN=$(grep -cE '^not ok [0-9]+ .*# TODO known failure' "$1" || true)
	FAIL=$(( $(grep -cE '^not ok ' "$1" || true) - KNOWN ))
	RETRIED=$(grep -c '^# retried:' "$1" || true)
}

# bench_figure TAP MODE FIELD: a field of MODE's "# bench:" line in TAP
# (bench/median.sh's medians: 2 the ns per call, or the ms of an attach
# mode; 3 the ratio; 4 and 5 the lowest and highest of the boots), "-"
# when there is none
bench_figure() {
	local v
	v=$(awk -v m="$2" -v f="$3" '$1 == "#" && $2 == "bench:" && $3 == m { v = $(f + 2) } END { print v }' "$1" 2>/dev/null)
	echo "${v:--}"
}

# config_mismatches CONFIG FRAGMENT...: one line "SYM=WANT (got GOT)" for
# each option the fragments ask for that CONFIG does not have; a later
# fragment overrides an earlier one, as in merge_config.sh.
config_mismatches() {
	local config=$1 f sym want got
	shift
	for f in "$@"; do
		sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1=\2/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1=n/p' "$f"
	done | awk -F= '{ v[$1] = $2 } END { for (s in v) print s "=" v[s] }' |
	while IFS='=' read -r sym want; do
		got=$(sed -n "s/^$sym=//p" "$config")
		[ "${got:-n}" = "$want" ] || echo "$sym=$want (got ${got:-n})"
	done
}

# apt_uri SUITE: the archive this machine's apt takes SUITE from, so that
# nothing in the repository names an archive host.
apt_uri() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v s="$1" '/^URIs:/ { u = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) { print u; exit } }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v s="$1" '$1 == "deb" { for (i = 2; i < NF; i++)
			if ($i ~ /^[a-z]+:\/\//) { if ($(i + 1) == s) print $i; break } }' "$f"
	done | head -n 1
}

# apt_private DEB_ARCH SUITE URI [TYPE]: set APT_OPTS to the options of a
# private apt state under build/apt for SUITE (main) at URI, seen as a
# DEB_ARCH machine with nothing installed (the host's apt configuration
# and dpkg database are not used), and update its index; on failure print
# apt's errors on stderr and return 1 (a mirror caught mid-sync: try the
# next suite). TYPE deb-src gives a source index instead (apt-get
# source), in a state of its own; APT_LOG is where apt's output goes.
apt_private() {
	local arch=$1 suite=$2 uri=$3 type=${4:-deb} apt=$BUILD/apt
	local name=$arch-$suite${4:+-$type}
	local list=$apt/$name.list
	APT_LOG=$apt/$name.log
	mkdir -p "$apt/lists/$name/partial" "$apt/cache/archives/partial"
	: >"$apt/status.none"
	echo "$type [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		>"$list"
	APT_OPTS=(-q -o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State::Lists="$apt/lists/$name" -o Dir::Cache="$apt/cache"
		-o Dir::State::status="$apt/status.none" -o Debug::NoLocking=1
		-o APT::Architecture="$arch" -o APT::Architectures::="$arch"
		-o APT::Sandbox::User=root)
	apt-get "${APT_OPTS[@]}" update >"$APT_LOG" 2>&1 && return 0
	sed -n 's/^E: //p' "$APT_LOG" | head -n 2 | sed 's/^/    /' >&2
	return 1
}

# fetch_deb DEB_ARCH SUITE URI PACKAGE[=VERSION]: download the package for
# DEB_ARCH from SUITE (main) at URI through the private apt state and
# print the .deb's path; on failure print apt's errors on stderr and
# return 1.
fetch_deb() {
	local arch=$1 suite=$2 uri=$3 pkg=$4 dir
	dir=$BUILD/apt/debs/$suite
	mkdir -p "$dir"
	apt_private "$arch" "$suite" "$uri" || return 1
	if (cd "$dir" && apt-get "${APT_OPTS[@]}" download "${pkg%%=*}:$arch${pkg#"${pkg%%=*}"}") \
		>>"$APT_LOG" 2>&1; then
		local ver=${pkg#"${pkg%%=*}"}
		ver=${ver#=}
		ls "$dir/${pkg%%=*}_${ver:+$(echo "$ver" | sed 's/:/%3a/')}"*"_$arch.deb" | tail -n 1
		return 0
	fi
	sed -n 's/^E: //p' "$APT_LOG" | head -n 2 | sed 's/^/    /' >&2
	return 1
}

# fetch_debs_deps DEB_ARCH SUITE URI DIR PACKAGE...: download the packages
# and everything they depend on (as for a DEB_ARCH machine with nothing
# installed, no recommends) into DIR; on failure print apt's errors on
# stderr and return 1.
fetch_debs_deps() {
	local arch=$1 suite=$2 uri=$3 dir=$4
	shift 4
	mkdir -p "$dir/partial"
	apt_private "$arch" "$suite" "$uri" || return 1
	apt-get "${APT_OPTS[@]}" -o Dir::Cache::archives="$dir" install -y --download-only \
		--no-install-recommends "$@" >>"$APT_LOG" 2>&1 && return 0
	sed -n 's/^E: //p' "$APT_LOG" | head -n 2 | sed 's/^/    /' >&2
	return 1
}
