#!/bin/bash
# make check-system's guest side: runs on a Debian system booted with
# systemd as PID 1 (lab-system.service starts it from the lab's disk,
# mounted on /lab), as a user would run the tools apt installed.
#   /lab/steps  what to do, in order: "tests" (the users' tools, results
#               in /lab/out/raw), "timing" (bpftrace's kfunc: wildcards
#               timed, t_timing), "install" (dpkg -i /lab/debs/*.deb,
#               results in /lab/out/install.raw; and /lab/mainline/*.deb,
#               Debian's 6.12, results in /lab/out/mainline.raw) and
#               "mainline" (the boot, the timing and the journal alone)
#   /lab/name   the results' name (ARCH-system, ARCH-system-debian)
#   /lab/series the name of the series' results (ARCH-system), which
#               the installation's go under
#   /lab/fentry the lab's own fentry client, where the system has no
#               bpftrace (scripts/system/fentry.sh)
# The guest powers itself off at the end; the host reads /lab/out/.
set -u
# job control: a background job of a script ignores SIGINT otherwise, and
# SIGINT (Ctrl-C) is how these tools are stopped (bcc's Python would not
# even install its handler)
set -m
LAB_ARCH=$(cat /lab/arch) LAB_NAME=$(cat /lab/name)
KTAP_OUT=/lab/out/raw
export LAB_ARCH LAB_NAME KTAP_OUT
mkdir -p /lab/out
: >"$KTAP_OUT"
. /lab/lib.sh
DEBUGFS=/sys/kernel/debug

# t_wait SECONDS CMD...: CMD until it succeeds, for at most SECONDS
t_wait() {
	local end=$(( $(uptime_s) + $1 ))
	shift
	until "$@"; do
		[ "$(uptime_s)" -lt $end ] || return 1
		sleep 1
	done
}

# load: file reads and opens on the ext4 root, in the background, until
# load_stop (what vfsstat, fsslower, ext4slower count)
load() {
	(while :; do cat /etc/os-release /etc/passwd >/dev/null; ls /usr/lib >/dev/null; done) &
	LOAD_PID=$!
}
load_stop() { kill "$LOAD_PID" 2>/dev/null; wait "$LOAD_PID" 2>/dev/null; return 0; }

# attach_kind FUNC: how the BPF programs now running reach FUNC, from the
# kernel's own lists: "kprobe" (a kprobe is on it), "fentry" (ftrace
# calls a trampoline directly from it), "ftrace" (an ftrace_ops, as
# kprobe.multi's), "none"
attach_kind() {
	# any offset: ppc64 (ELFv2) probes a function at its local entry, past
	# the global entry's TOC setup, where its ftrace site also is
	if grep -qE "[[:space:]]$1(\+0x[0-9a-f]+)?[[:space:]]" "$DEBUGFS/kprobes/list" 2>/dev/null; then
		echo kprobe
	else
		awk -v f="$1" '$1 == f { on = 1; k = "ftrace"; if ($0 ~ / D /) d = 1; next }
			 on && /direct-->/ { d = 1 } { on = 0 }
			 END { print d ? "fentry" : k ? k : "none" }' "$TRACING/enabled_functions"
	fi
}
attached() { [ "$(attach_kind "$1")" != none ]; }
detached() { ! attached "$1"; }
# sites FUNC: FUNC's lines of enabled_functions and the kprobes list, as
# diagnostics
sites() {
	awk -v f="$1" '$1 == f { on = 1; print; next } on && /^\t/ { print; next } { on = 0 }' \
		"$TRACING/enabled_functions" | sed 's/^/enabled_functions: /'
	grep -E "[[:space:]]$1(\+0x[0-9a-f]+)?[[:space:]]" "$DEBUGFS/kprobes/list" 2>/dev/null | sed 's/^/kprobes: /'
	return 0
}

# tool ID FUNC SECONDS CMD...: run a tool of the archive with the load
# running, as a user would, and stop it with SIGINT (its Ctrl-C) once it
# has run TOOL_RUN seconds (default 10) after attaching, or after SECONDS
# if it never attaches; while it runs, note how its programs reach FUNC.
# Results: ID:runs (it attached and ended without an error), ID:fentry
# (through a direct call, not a kprobe; not with TOOL_FENTRY=no) and
# ID:saw (its output has what TOOL_SAW matches, if set). TOOL_HOOK, if
# set, runs once it attached.
tool() {
	local id=$1 func=$2 secs=$3 kind=none rc=0 out=/lab/out/$1.out pid
	shift 3
	if ! command -v "$1" >/dev/null; then
		ktap_skip "$id:runs" "$1 is not installed"
		return
	fi
	# The tool before may have used FUNC too (fsslower, then ext4slower):
	# its links go when its process has gone, and until they have, FUNC
	# looks attached already (seen: ext4slower's wait ended at once on
	# fsslower's leftover, which was gone when its kind was read).
	t_wait 30 detached "$func" ||
		ktap_diag "$id: $func still attached 30 s after the tool before"
	load
	# line-buffered: a tool stopped by SIGINT keeps what it printed
	stdbuf -oL -eL "$@" >"$out" 2>&1 &
	pid=$!
	# the tools parse the kernel's BTF and load their programs first:
	# tens of seconds under TCG. The kind is the one that ended the wait
	# (read again, it could find a trampoline being replaced).
	local end=$(( $(uptime_s) + secs ))
	until kind=$(attach_kind "$func"); [ "$kind" != none ] ||
	      [ "$(uptime_s)" -ge $end ]; do
		sleep 1
	done
	if [ "$kind" != none ]; then
		sites "$func" >/lab/out/$id.sites
		${TOOL_HOOK:-true}
		sleep "${TOOL_RUN:-10}"
	fi
	local alive="it had ended"
	kill -0 "$pid" 2>/dev/null && alive="still running"
	kill -INT "$pid" 2>/dev/null
	# a tool that ignores its Ctrl-C (stuck before its handler is in)
	# must not hold the guest until the host's time limit
	(sleep 60; kill -KILL "$pid" 2>/dev/null) &
	local reaper=$!
	wait "$pid" || rc=$?
	kill "$reaper" 2>/dev/null
	wait "$reaper" 2>/dev/null
	load_stop
	# 130: ended by the SIGINT, as these tools are
	if [ "$kind" != none ] && { [ "$rc" = 0 ] || [ "$rc" = 130 ]; } &&
	   ! grep -qiE 'failed|error|cannot' "$out"; then
		ktap_ok "$id:runs"
	else
		ktap_fail "$id:runs" "$* (exit $rc; attached: $kind; at SIGINT $alive):" "$(tail -n 8 "$out")"
	fi
	if [ "${TOOL_FENTRY:-yes}" = no ]; then
		:
	elif [ "$kind" = fentry ]; then
		ktap_ok "$id:fentry"
		ktap_diag "$(cat /lab/out/$id.sites)"
	elif [ -n "${BCC_KFUNC:-}" ] && [ "$BCC_KFUNC" != x86_64 ] && [ "$kind" = kprobe ]; then
		ktap_skip "$id:fentry" "bcc takes fentry on x86_64 only (BPF.support_kfunc); here a kprobe, by bcc's choice"
	else
		ktap_fail "$id:fentry" "$func reached by: $kind" "$(cat /lab/out/$id.sites 2>/dev/null)"
	fi
	if [ -n "${TOOL_SAW:-}" ]; then
		if grep -qE "$TOOL_SAW" "$out"; then
			ktap_ok "$id:saw"
		else
			ktap_fail "$id:saw" "no line of its output matches '$TOOL_SAW':" "$(head -n 12 "$out")"
		fi
	fi
}

t_boot() {
	local state
	state=$(systemctl is-system-running --wait 2>&1)
	if [ "$state" = running ]; then
		ktap_ok system:boot
	else
		ktap_fail system:boot "systemd says: $state" "$(systemctl --failed --no-legend 2>&1)"
	fi
	ktap_diag "$(uname -a)" "lsm: $(cat /sys/kernel/security/lsm)" "$(systemctl --version | head -n 2)"
}

# systemd's RestrictFileSystems= is a BPF LSM program, attached by PID 1
# at start when the kernel can (bpf in the LSM list, BPF trampolines for
# LSM hooks): a service kept out of tmpfs cannot list /dev/shm.
t_systemd() {
	local msg
	if systemctl --version | grep -q -- -BPF_FRAMEWORK; then
		msg="systemd $(systemctl --version | sed -n '1s/^systemd //p') is built without BPF_FRAMEWORK: it ignores RestrictFileSystems= on any kernel"
		ktap_skip systemd:bpf-lsm "$msg"
		ktap_skip systemd:restrict-filesystems "$msg"
		return
	fi
	# PID 1 says so early, through the kernel's log (systemd 252:
	# "bpf-lsm: LSM BPF program attached", 257: "bpf-restrict-fs: ...")
	msg=$({ dmesg; journalctl -b -o cat; } 2>/dev/null | grep -iE 'bpf-lsm|bpf-restrict-fs|LSM BPF' | sort -u | head -n 5)
	if echo "$msg" | grep -qi 'LSM BPF program attached'; then
		ktap_ok systemd:bpf-lsm
	else
		ktap_fail systemd:bpf-lsm "systemd did not attach its LSM BPF program:" "${msg:-(it said nothing of it)}"
	fi
	mkdir -p /run/systemd/system
	cat >/run/systemd/system/lab-rfs.service <<-EOF
	[Service]
	Type=oneshot
	RestrictFileSystems=~tmpfs
	ExecStart=/bin/ls /dev/shm
	EOF
	systemctl daemon-reload
	if ! ls /dev/shm >/dev/null; then
		ktap_fail systemd:restrict-filesystems "ls /dev/shm fails outside the unit too"
	elif systemctl start lab-rfs.service 2>/dev/null; then
		ktap_fail systemd:restrict-filesystems "the unit with RestrictFileSystems=~tmpfs listed /dev/shm (tmpfs)" \
			"$(journalctl -b -o cat -u lab-rfs.service | tail -n 5)"
	else
		ktap_ok systemd:restrict-filesystems
		ktap_diag "$(journalctl -b -o cat -u lab-rfs.service | grep -m1 -i 'not permitted')"
	fi
	systemctl reset-failed lab-rfs.service 2>/dev/null
	rm -f /run/systemd/system/lab-rfs.service
	systemctl daemon-reload
}

# bpftrace: kfunc and kretfunc probes, counted; bpftool lists what the
# kfunc probe attached while it runs. The hook runs once the site shows
# the direct call, which the kernel patches before it settles the link's
# id: a link not yet settled answers EAGAIN and fails the whole "bpftool
# link show" (seen once, on Debian's x86_64 kernel, 2026-11-29), so that
# is asked again.
bt_bpftool() {
	local i
	bpftool prog show >/lab/out/bpftool-prog.txt 2>&1
	for i in 1 2 3 4 5; do
		bpftool link show >/lab/out/bpftool-link.txt 2>&1 &&
			! grep -q 'Resource temporarily unavailable' /lab/out/bpftool-link.txt &&
			break
		sleep 1
	done
}
t_bpftrace() {
	local info
	rm -f /lab/out/bpftool-prog.txt /lab/out/bpftool-link.txt
	if ! command -v bpftrace >/dev/null; then
		ktap_skip bpftrace:info-kfunc "Debian has no bpftrace for $(dpkg --print-architecture) in $(. /etc/os-release; echo "$VERSION_CODENAME")"
		t_fentry_client
		t_bpftool
		return
	fi
	info=$(bpftrace --info 2>&1)
	# bpftrace 0.17 says "kfunc: yes", 0.23 "fentry: yes"
	if echo "$info" | grep -qE '(kfunc|fentry): yes'; then
		ktap_ok bpftrace:info-kfunc
	elif ! echo "$info" | grep -qE '(kfunc|fentry): '; then
		# 0.27 (sid, 2026-12-05) lists kprobe_multi and the like, no
		# longer fentry: its kfunc: probes below say what it does
		ktap_skip bpftrace:info-kfunc "$(bpftrace --version 2>&1 | head -n 1) --info reports no fentry line (its kfunc: probes are tested below)"
	else
		ktap_fail bpftrace:info-kfunc "bpftrace --info: $(echo "$info" | grep -oE '(kfunc|fentry): [a-z]+')"
	fi
	FENTRY_TRIED=1
	TOOL_SAW='^@reads: [1-9]' TOOL_HOOK=bt_bpftool tool bpftrace:kfunc vfs_read 120 \
		bpftrace -e 'kfunc:vfs_read { @reads = count(); }'
	TOOL_SAW='^@returns: [1-9]' tool bpftrace:kretfunc vfs_read 120 \
		bpftrace -e 'kretfunc:vfs_read { @returns = count(); }'
	t_bpftool
	t_kprobe_wildcard "$info"
}

# A kprobe wildcard as users write it: bpftrace attaches it with one
# kprobe.multi link (an ftrace_ops over every function it names) where
# the kernel has kprobe.multi (its --info: "kprobe_multi: yes"), else
# with one kprobe per function. :multi says which it took, from bpftool.
t_kprobe_wildcard() {
	rm -f /lab/out/wildcard-link.txt
	TOOL_FENTRY=no TOOL_HOOK=wildcard_links TOOL_SAW='^@\[kprobe:vfs_read\]: [1-9]' \
		tool bpftrace:kprobe-wildcard vfs_read 240 bpftrace -e 'kprobe:vfs_* { @[probe] = count(); }'
	if grep -q 'kprobe_multi' /lab/out/wildcard-link.txt 2>/dev/null; then
		ktap_ok bpftrace:kprobe-wildcard:multi
		ktap_diag "$(grep -A1 kprobe_multi /lab/out/wildcard-link.txt | head -n 2)"
	elif echo "$1" | grep -qE 'kprobe_multi: no'; then
		ktap_skip bpftrace:kprobe-wildcard:multi "no kprobe.multi in this kernel (bpftrace --info): one kprobe per function"
	else
		ktap_fail bpftrace:kprobe-wildcard:multi "bpftrace --info: $(echo "$1" | grep -oE 'kprobe_multi: [a-z]+'); no kprobe_multi link:" \
			"$(head -n 6 /lab/out/wildcard-link.txt 2>/dev/null)"
	fi
}
wildcard_links() {
	bpftool link show >/lab/out/wildcard-link.txt 2>&1
	grep -c 'vfs_' "$DEBUGFS/kprobes/list" 2>/dev/null | sed 's/^/# kprobes on vfs_*: /' >>/lab/out/wildcard-link.txt
}

# t_timing: what a user of bpftrace waits for with a kfunc: wildcard, which
# bpftrace attaches as one fentry link per function, one after the other:
# from its start to BEGIN, which it runs once every probe is attached,
# and to the wildcard's first event (the load running); from its Ctrl-C
# to its exit, every link closed. TIMING_RUNS (3) runs of each wildcard,
# a line each,
#   # timing: ID FUNCTIONS START_MS FIRST_MS EXIT_MS
# (make check-system's report takes the medians), and a result: each run
# attached, saw an event and ended on its Ctrl-C.
t_timing() {
	if ! command -v bpftrace >/dev/null; then
		ktap_skip timing:kfunc-vfs "no bpftrace here"
		return
	fi
	bt_timing timing:kfunc-vfs 'kfunc:vfs_*'
	bt_timing timing:kfunc-tcp "$(kfunc_list 'tcp_*')"
}
# kfunc_list GLOB: the kernel's functions GLOB matches, as one probe list
# that bpftrace can attach whole on this kernel: those bpftrace lists
# (BTF) and ftrace can trace, less any whose program the kernel refuses
# to load. bpftrace 0.17 stops at the first such function: kfunc:tcp_*
# fails whole on 6.1, Debian's and the series' alike ("Error loading
# program" for tcp_v6_init_seq_and_ts_off, 2026-12-05), so each refused
# one is dropped (a run whose BEGIN exits: it attaches everything, then
# stops; 0.17 has no --dry-run) and said in a diagnostic, as a user would
# leave it out.
kfunc_list() {
	local list drop i
	bpftrace -l "kfunc:$1" 2>/dev/null | sed -E 's/^(kfunc|fentry):(vmlinux:)?//' |
		grep -v : | sort -u >/tmp/kfuncs.btf
	awk 'NF == 1' "$TRACING/available_filter_functions" | sort -u >/tmp/kfuncs.ftrace
	comm -12 /tmp/kfuncs.btf /tmp/kfuncs.ftrace >/tmp/kfuncs
	for i in 1 2 3 4 5 6 7 8; do
		list=$(sed 's/^/kfunc:/' /tmp/kfuncs | paste -sd, -)
		# 0.17: "Error loading program: kfunc:F"; 0.2x: "Error
		# loading BPF program for fentry_vmlinux_F_N."
		drop=$(bpftrace -e "BEGIN { exit(); } $list { @[probe] = count(); }" 2>&1 |
			sed -nE -e 's/.*Error loading program: (kfunc|fentry):(vmlinux:)?([^ ]+).*/\3/p' \
				-e 's/.*Error loading BPF program for (kfunc|fentry)_vmlinux_(.+)_[0-9]+\.$/\2/p' |
			head -n 1)
		[ -n "$drop" ] || break
		ktap_diag "timing: $1 without $drop: the kernel refuses its fentry program" >/dev/null
		grep -vx "$drop" /tmp/kfuncs >/tmp/kfuncs.new
		mv /tmp/kfuncs.new /tmp/kfuncs
	done
	echo "$list"
}
now_ms() { date +%s%3N; }
bt_timing() {
	local id=$1 probe=$2 out=/lab/out/$1.out run bad='' t0 ta tf ti te pid n rc reaper
	if [ -z "$probe" ]; then
		ktap_fail "$id" "no function to probe (bpftrace -l and available_filter_functions)"
		return
	fi
	for run in $(seq "${TIMING_RUNS:-3}"); do
		ta='' tf='' rc=0
		load
		t0=$(now_ms)
		stdbuf -oL -eL bpftrace -e "BEGIN { printf(\"lab: attached\\n\"); }
			$probe { @[probe] = count();
				if (@lab_first == 0) { @lab_first = 1; printf(\"lab: first\\n\"); } }" \
			>"$out" 2>&1 &
		pid=$!
		while kill -0 "$pid" 2>/dev/null && { [ -z "$ta" ] || [ -z "$tf" ]; } &&
		      [ $(($(now_ms) - t0)) -lt 900000 ]; do
			[ -n "$ta" ] || ! grep -q '^lab: attached' "$out" || ta=$(now_ms)
			[ -n "$tf" ] || ! grep -q '^lab: first' "$out" || tf=$(now_ms)
			sleep 0.1
		done
		ti=$(now_ms)
		kill -INT "$pid" 2>/dev/null
		(sleep 600; kill -KILL "$pid" 2>/dev/null) &
		reaper=$!
		wait "$pid" || rc=$?
		te=$(now_ms)
		kill "$reaper" 2>/dev/null
		wait "$reaper" 2>/dev/null
		load_stop
		# "Attaching N probes..." (0.17), "Attached N probes" (0.2x):
		# the wildcard's functions and BEGIN
		n=$(sed -nE 's/^Attach(ing|ed) ([0-9]+) probe.*/\2/p' "$out" | head -n 1)
		if [ -n "$ta" ] && [ -n "$tf" ] && { [ "$rc" = 0 ] || [ "$rc" = 130 ]; }; then
			ktap_diag "timing: $id $((${n:-1} - 1)) $((ta - t0)) $((tf - t0)) $((te - ti))"
		else
			bad="run $run: exit $rc, attached: ${ta:+yes}${ta:-no}, an event: ${tf:+yes}${tf:-no}"
			break
		fi
	done
	if [ -z "$bad" ]; then
		ktap_ok "$id"
	else
		ktap_fail "$id" "bpftrace -e '$(echo "$probe" | cut -c1-80) { @[probe] = count(); }' $bad:" "$(tail -n 8 "$out")"
	fi
}

# The lab's own fentry client, where Debian has no bpftrace: a small
# libbpf program built on the host against this suite's libbpf-dev
# (scripts/system/fentry.sh), installed under /usr/local as a local
# program would be. It is the lab's program, not a user's tool of the
# archive: its results are named lab-fentry.
t_fentry_client() {
	if [ ! -x /lab/fentry/lab-fentry ]; then
		ktap_skip lab-fentry:runs "no bpftrace and no lab-fentry on the lab's disk"
		return
	fi
	mkdir -p /usr/local/lib/lab-fentry
	install -m 755 /lab/fentry/lab-fentry /usr/local/bin/
	install -m 644 /lab/fentry/lab-fentry.bpf.o /usr/local/lib/lab-fentry/
	ktap_diag "lab-fentry: built with $(cat /lab/fentry/built-with)"
	FENTRY_TRIED=1
	TOOL_SAW='^vfs_read: [1-9][0-9]* calls' TOOL_HOOK=bt_bpftool tool lab-fentry vfs_read 120 lab-fentry
}

# bpftool, while the fentry probe ran (bpftrace's or the lab's): a tracing
# program and its link; and what bpftool's probe of the kernel says
t_bpftool() {
	if [ -z "${FENTRY_TRIED:-}" ]; then
		ktap_skip bpftool:prog-link "no fentry client here (no bpftrace, no lab-fentry)"
	elif grep -q 'tracing' /lab/out/bpftool-prog.txt 2>/dev/null &&
	   grep -q 'tracing' /lab/out/bpftool-link.txt 2>/dev/null; then
		ktap_ok bpftool:prog-link
		ktap_diag "$(grep -A1 tracing /lab/out/bpftool-link.txt | head -n 4)"
	else
		ktap_fail bpftool:prog-link "no tracing program or link listed while the fentry probe ran:" \
			"$(cat /lab/out/bpftool-link.txt 2>/dev/null | head -n 6)"
	fi
	if bpftool feature probe kernel 2>/dev/null | grep -q 'program_type tracing is available'; then
		ktap_ok bpftool:feature-tracing
	else
		ktap_fail bpftool:feature-tracing "bpftool feature probe: tracing programs not available"
	fi
}

# libbpf-tools: the tools that take fentry when they can, kprobes if not
# (bookworm installs them as vfsstat..., trixie as vfsstat-libbpf...)
t_libbpf_tools() {
	local x=
	command -v vfsstat >/dev/null || x=-libbpf
	TOOL_SAW='^[0-9:]+ +[1-9]' tool vfsstat vfs_read 60 vfsstat$x 2
	TOOL_SAW='Avg (Spin|Wait|Hold)' tool klockstat mutex_lock 60 klockstat$x
	TOOL_SAW=' [RW] ' tool fsslower ext4_file_read_iter 60 fsslower$x -t ext4 -m 0
	TOOL_SAW=' [RW] ' tool ext4slower ext4_file_read_iter 60 ext4slower$x -m 0
	TOOL_HOOK=readahead_load TOOL_SAW='Readahead (unused|used)' tool readahead do_page_cache_ra 60 readahead$x
	TOOL_HOOK=connect_load TOOL_SAW='127\.0\.0\.1' tool tcpconnlat tcp_v4_connect 60 tcpconnlat$x
}
# readahead_load: cold reads of a large file (the caches dropped first)
readahead_load() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	find /usr/lib -name '*.so*' -size +1M -type f | head -n 20 | xargs cat >/dev/null
}
# connect_load: TCP connections on loopback
connect_load() {
	local i pid
	for i in 1 2 3; do
		nc -l 127.0.0.1 909$i >/dev/null &
		pid=$!
		sleep 1
		nc -z 127.0.0.1 909$i
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
	done
}

# bcc's tools, where Debian builds no libbpf-tools (riscv64). bcc takes
# fentry (its "kfunc") only where BPF.support_kfunc() says so, and that
# answers no on any machine but x86_64, whatever the kernel can do: there
# the kprobe is bcc's choice, not the kernel's, and :fentry is a skip.
t_bcc() {
	BCC_KFUNC=$(uname -m) TOOL_SAW='^[0-9:]+ +[1-9]' \
		tool vfsstat-bpfcc vfs_read 240 vfsstat-bpfcc 2
	BCC_KFUNC=$(uname -m) TOOL_SAW='Avg (Spin|Wait|Hold)|Caller' \
		tool klockstat-bpfcc mutex_lock 240 klockstat-bpfcc
}

t_journal() {
	local r
	r=$(journalctl -b -k -o cat | grep -nE 'WARNING:|BUG:|Oops|Kernel panic|Call Trace:' | head -n 5)
	if [ -z "$r" ]; then
		ktap_ok system:journal-clean
	else
		ktap_fail system:journal-clean "$r"
	fi
	journalctl -b -o short-monotonic >/lab/out/journal.txt 2>&1
}

for s in $(cat /lab/steps); do
	case $s in
	tests)
		t_boot
		t_systemd
		t_bpftrace
		if command -v vfsstat >/dev/null || command -v vfsstat-libbpf >/dev/null; then
			t_libbpf_tools
		elif command -v vfsstat-bpfcc >/dev/null; then
			t_bcc
		else
			# bookworm's mips64el has bpfcc-tools but no libbpfcc
			# to install it with
			ktap_skip bcc:runs "neither libbpf-tools nor bcc installable here ($(uname -m))"
		fi
		t_journal
		;;
	timing)
		t_timing
		;;
	mainline)
		t_boot
		t_timing
		t_journal
		;;
	install)
		# results of the series' run, whichever kernel installs it
		KTAP_OUT=/lab/out/install.raw LAB_NAME=$(cat /lab/series 2>/dev/null || echo "$LAB_ARCH-system")
		: >"$KTAP_OUT"
		if dpkg -i /lab/debs/*.deb >/lab/out/dpkg.log 2>&1; then
			ktap_ok install:dpkg
			ktap_diag "$(grep -E '^(Setting up|update-initramfs)' /lab/out/dpkg.log)"
		else
			ktap_fail install:dpkg "$(tail -n 15 /lab/out/dpkg.log)"
		fi
		if [ -d /lab/mainline ]; then
			KTAP_OUT=/lab/out/mainline.raw LAB_NAME=$LAB_NAME-mainline
			: >"$KTAP_OUT"
			if dpkg -i /lab/mainline/*.deb >/lab/out/dpkg-mainline.log 2>&1; then
				ktap_ok install:dpkg
			else
				ktap_fail install:dpkg "$(tail -n 15 /lab/out/dpkg-mainline.log)"
			fi
		fi
		ls -l /boot >/lab/out/boot.txt
		KTAP_OUT=/lab/out/raw LAB_NAME=$(cat /lab/name)
		;;
	esac
done
echo "# lab: done" >>"$KTAP_OUT"
sync
systemctl poweroff
