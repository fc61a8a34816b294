// SPDX-License-Identifier: GPL-2.0
/* bpftest: kprobe.multi links: entry and return, 1000 functions, the return hook. */
#include "bpftest.h"

/* Where a kprobe program finds the return value in struct pt_regs */
#if defined(__x86_64__) || defined(__riscv)
#define PT_REGS_RC_OFF	80	/* ax, a0: the 11th word */
#elif defined(__aarch64__)
#define PT_REGS_RC_OFF	0	/* regs[0] */
#elif defined(__s390x__)
#define PT_REGS_RC_OFF	40	/* gprs[2], after args[1] and the psw */
#elif defined(__mips__) && __mips == 64
#define PT_REGS_RC_OFF	16	/* regs[2], v0 (no padding on 64-bit) */
#elif defined(__powerpc64__)
#define PT_REGS_RC_OFF	24	/* gpr[3] */
#endif

#define KMULTI_COOKIE	0xc0ffee00ULL

/*
 * A kprobe.multi program. @sum_key < 0: the value at key (cookie & 15)
 * of the args map gets the run count, the cookie, bpf_get_func_ip() and
 * the return value register; else slot @sum_key of the slot map counts
 * the runs and adds up bpf_get_func_ip() ^ cookie.
 */
int load_kmulti_prog(int sum_key)
{
	struct bpf_insn prog[40];
	int n = 0, skip;

	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_attach_cookie);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 8, 0, 0, 0);
	prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 9, 6, PT_REGS_RC_OFF, 0);
	if (sum_key < 0) {
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 7, 0, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 15);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_W, 10, 1, -4, 0);
		n = emit_lookup_fp4(prog, n, args_map_fd);
	} else {
		n = emit_map_lookup(prog, n, map_fd, sum_key);
	}
	skip = n++;
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	if (sum_key < 0) {
		prog[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1,
				 offsetof(struct args_value, count), BPF_ADD);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 7,
				 offsetof(struct args_value, nslots), 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 8,
				 offsetof(struct args_value, slot[0]), 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 9,
				 offsetof(struct args_value, ret), 0);
	} else {
		prog[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD);
		prog[n++] = INSN(BPF_ALU64 | BPF_XOR | BPF_X, 8, 7, 0, 0);
		prog[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 8, 0, BPF_ADD);
	}
	prog[skip] = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, n - skip - 1, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return prog_load(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, 0, prog, n);
}

int kmulti_attach(int prog, int ret, const uint64_t *addrs,
		  const uint64_t *cookies, unsigned int cnt)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = prog;
	a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	a.link_create.kprobe_multi.flags = ret ? BPF_F_KPROBE_MULTI_RETURN : 0;
	a.link_create.kprobe_multi.cnt = cnt;
	a.link_create.kprobe_multi.addrs = (uintptr_t)addrs;
	a.link_create.kprobe_multi.cookies = (uintptr_t)cookies;
	return sys_bpf(BPF_LINK_CREATE, &a);
}

/*
 * A kprobe.multi attach failed: a skip if this kernel has no fprobe at
 * all (no register_fprobe_ips in kallsyms), a failure otherwise.
 */
static void kmulti_failed(const char *id, const char *what)
{
	int err = errno;

	if (!ksym_addr("register_fprobe_ips"))
		result("skip", id, "%s: -%d: this kernel has no fprobe (FPROBE needs "
		       "a rethook and pt_regs from ftrace)", what, err);
	else
		step_failed(id, what);
}

static struct args_value kmulti_value(int key)
{
	struct args_value v;

	memset(&v, 0, sizeof(v));
	map_lookup(args_map_fd, key, &v);
	return v;
}

/*
 * Entry and return programs on labtarget_add() and labtarget_check(), each
 * function with a cookie of its own, while labtarget makes 3 calls of each
 * (the last ones labtarget_add(2, 1) = 3 and labtarget_check(2) = 0): each
 * program must see every call, the function's cookie and address, and the
 * return program its result.
 */
void test_kprobe_multi(const char *id)
{
	static const char * const funcs[2] = { "labtarget_add", "labtarget_check" };
	static const uint64_t rets[2] = { 3, 0 };
	uint64_t addrs[2], cookies[2][2];
	int prog = -1, link[2] = { -1, -1 }, r, f, sum, rejected;
	struct args_value v;

	for (f = 0; f < 2; f++) {
		addrs[f] = ksym_addr(funcs[f]);
		if (!addrs[f]) {
			result("fail", id, "%s is not in /proc/kallsyms", funcs[f]);
			return;
		}
		for (r = 0; r < 2; r++)
			cookies[r][f] = KMULTI_COOKIE + 8 + 2 * r + f;
	}
	prog = load_kmulti_prog(-1);
	if (prog < 0) {
		step_failed(id, "load");
		return;
	}
	for (r = 0; r < 2; r++) {
		link[r] = kmulti_attach(prog, r, addrs, cookies[r], 2);
		if (link[r] < 0) {
			kmulti_failed(id, r ? "attach return" : "attach entry");
			goto out;
		}
	}
	if (labtarget_call(3, &sum, &rejected)) {
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
		goto out;
	}
	for (r = 0; r < 2; r++) {
		for (f = 0; f < 2; f++) {
			v = kmulti_value(cookies[r][f] & 15);
			if (v.count != 3 || v.nslots != cookies[r][f] || v.slot[0] != addrs[f] ||
			    (r && v.ret != rets[f])) {
				result("fail", id, "%s %s: %" PRIu64 " runs, cookie %#" PRIx64
				       ", ip %#" PRIx64 ", return %" PRIu64 "; want 3, %#" PRIx64
				       ", %#" PRIx64 ", %" PRIu64, r ? "return" : "entry",
				       funcs[f], v.count, v.nslots, v.slot[0], v.ret,
				       cookies[r][f], addrs[f], rets[f]);
				goto out;
			}
		}
	}
	result("ok", id, NULL);
out:
	for (r = 0; r < 2; r++)
		if (link[r] >= 0)
			close(link[r]);
	close(prog);
}

/*
 * kprobe.multi entry and return programs on labtarget's 1000 functions
 * labtarget_fn000() to labtarget_fn999() at once, cookie i on the i-th,
 * each counting its runs and adding up bpf_get_func_ip() ^ cookie, while
 * labtarget calls each function 3 times. Every call must be seen with its
 * function's address and cookie; the attach and detach times of each link
 * are reported. LAB_KMULTI_FNS (lab.kmulti_fns=N) attaches to the first N
 * functions only, for a debug kernel that cannot free the return link's
 * rethook nodes (two per function and CPU) in one RCU callback within the
 * stall timeout; the result's name says how many: bpf:kprobe-multi-N.
 */
#define KMULTI_FNS	1000

void test_kprobe_multi_many(const char *prefix, int key)
{
	static uint64_t addrs[KMULTI_FNS], cookies[KMULTI_FNS];
	char line[256], sym[128], type, buf[64], id[64];
	unsigned long long addr, want_sum = 0, fns_sum = 0;
	int prog[2] = { -1, -1 }, link[2] = { -1, -1 }, r;
	const char *env = getenv("LAB_KMULTI_FNS");
	unsigned int found = 0, i, n = KMULTI_FNS;
	double attach_ms[2], detach_ms[2];
	struct timespec t0;
	struct slot s;
	FILE *f;

	if (env && atoi(env) > 0 && atoi(env) < KMULTI_FNS)
		n = atoi(env);
	snprintf(id, sizeof(id), "%s-%u", prefix, n);

	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) == 3 &&
		    !strncmp(sym, "labtarget_fn", 12) && strlen(sym) == 15 &&
		    sscanf(sym + 12, "%u", &i) == 1 && i < n && !addrs[i]) {
			addrs[i] = addr;
			cookies[i] = i;
			found++;
		}
	if (f)
		fclose(f);
	if (found != n) {
		result("fail", id, "%u of the %u labtarget_fnNNN in /proc/kallsyms", found, n);
		return;
	}
	for (i = 0; i < n; i++)
		want_sum += addrs[i] ^ cookies[i];
	for (r = 0; r < 2; r++) {
		prog[r] = load_kmulti_prog(key + r);
		if (prog[r] < 0) {
			step_failed(id, "load");
			goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		link[r] = kmulti_attach(prog[r], r, addrs, cookies, n);
		attach_ms[r] = ms_since(&t0);
		if (link[r] < 0) {
			kmulti_failed(id, r ? "attach return" : "attach entry");
			goto out;
		}
	}
	if (labtarget_param("fns", 3, buf, sizeof(buf))) {
		result("fail", id, "cannot drive labtarget's fns: %s", strerror(errno));
		goto out;
	}
	fns_sum = strtoull(buf, NULL, 0);
	for (r = 0; r < 2; r++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		close(link[r]);
		detach_ms[r] = ms_since(&t0);
		link[r] = -1;
	}
	printf("# %u functions: entry link attached in %.1f ms, detached in %.1f ms; "
	       "return link %.1f ms, %.1f ms\n", n, attach_ms[0], detach_ms[0],
	       attach_ms[1], detach_ms[1]);
	for (r = 0; r < 2; r++) {
		s = slot(key + r);
		if (s.count != 3 * n || s.value != 3 * want_sum) {
			result("fail", id, "%s program: %llu runs, sum %#llx; want %u, %#llx",
			       r ? "return" : "entry", (unsigned long long)s.count,
			       (unsigned long long)s.value, 3 * n, 3 * want_sum);
			goto out;
		}
	}
	if (fns_sum != 3ULL * KMULTI_FNS * (KMULTI_FNS + 1) / 2)
		result("fail", id, "the functions returned %llu in all, want %llu", fns_sum,
		       3ULL * KMULTI_FNS * (KMULTI_FNS + 1) / 2);
	else
		result("ok", id, NULL);
out:
	for (r = 0; r < 2; r++) {
		if (link[r] >= 0)
			close(link[r]);
		if (prog[r] >= 0)
			close(prog[r]);
	}
}

/*
 * The pt_regs words a kprobe.multi return program finds in the rethook
 * trampoline's frame that hold no register of the return, and what they
 * must read on every return, not what the stack held before (a kernel
 * address, which the program could hand to user space): arm64's orig_x0
 * to exit_rcu, riscv64's badaddr, cause and orig_a0, s390x's args[0] and
 * orig_gpr2 to last_break, ppc64's orig_gpr3 and softe to the end and
 * MIPS64's $zero, k0, k1, badvaddr and cause zero; x86_64's orig_ax -1,
 * cs and ss the kernel's segments.
 */
#if defined(__aarch64__)
static const int ret_regs_off[] = { 272, 280, 288, 296, 304, 312, 320, 328 };
static const uint64_t ret_regs_want[] = { 0, 0, 0, 0, 0, 0, 0, 0 };
#elif defined(__riscv)
static const int ret_regs_off[] = { 264, 272, 280 };
static const uint64_t ret_regs_want[] = { 0, 0, 0 };
#elif defined(__x86_64__)
static const int ret_regs_off[] = { 120, 136, 160 };
static const uint64_t ret_regs_want[] = { ~0ULL, 0x10, 0x18 };
#elif defined(__s390x__)
static const int ret_regs_off[] = { 0, 152, 160, 168, 176, 184, 192 };
static const uint64_t ret_regs_want[] = { 0, 0, 0, 0, 0, 0, 0 };
#elif defined(__powerpc64__)
static const int ret_regs_off[] = { 272, 312, 320, 328, 336, 344, 352, 360, 368, 376 };
static const uint64_t ret_regs_want[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
#elif defined(__mips__)
static const int ret_regs_off[] = { 0, 208, 216, 280, 288 };
static const uint64_t ret_regs_want[] = { 0, 0, 0, 0, 0 };
#else
static const int ret_regs_off[] = { };
static const uint64_t ret_regs_want[] = { };
#endif
#define RET_REGS_N	(int)(sizeof(ret_regs_off) / sizeof(ret_regs_off[0]))

/*
 * A kprobe.multi return program on labtarget_add() records the first
 * value of each word above and marks those that differ later, over 10000
 * calls: each must read what it should, every time.
 */
void test_kmulti_ret_regs(const char *id, int key)
{
	uint64_t addr = ksym_addr("labtarget_add"), cookie = 0;
	struct bpf_insn p[16 + 10 * 8];
	int prog, link, sum, rejected, n = 0, i, skip, cmp;
	struct args_value v;

	if (!RET_REGS_N) {
		result("skip", id, "no pt_regs words listed for this architecture");
		return;
	}
	if (!addr) {
		result("fail", id, "labtarget_add is not in /proc/kallsyms");
		return;
	}
	p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	n = emit_map_lookup(p, n, args_map_fd, key);
	skip = n++;
	p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 8, 7, offsetof(struct args_value, count), 0);
	for (i = 0; i < RET_REGS_N; i++) {
		p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 6, ret_regs_off[i], 0);
		/* the first return: keep the word */
		p[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, 8, 0, 2, 0);
		p[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 1,
			      offsetof(struct args_value, slot[i]), 0);
		cmp = n++;
		/* later ones: mark it in ret if it differs */
		p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 2, 7,
			      offsetof(struct args_value, slot[i]), 0);
		p[n++] = INSN(BPF_JMP | BPF_JEQ | BPF_X, 1, 2, 3, 0);
		p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 3, 7, offsetof(struct args_value, ret), 0);
		p[n++] = INSN(BPF_ALU64 | BPF_OR | BPF_K, 3, 0, 0, 1 << i);
		p[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 3, offsetof(struct args_value, ret), 0);
		p[cmp] = INSN(BPF_JMP | BPF_JA, 0, 0, n - cmp - 1, 0);
	}
	p[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 8, 0, 0, 1);
	p[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 8, offsetof(struct args_value, count), 0);
	p[skip] = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, n - skip - 1, 0);
	p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	prog = prog_load(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, 0, p, n);
	if (prog < 0) {
		step_failed(id, "load");
		return;
	}
	link = kmulti_attach(prog, 1, &addr, &cookie, 1);
	if (link < 0) {
		kmulti_failed(id, "attach return");
		close(prog);
		return;
	}
	if (labtarget_call(10000, &sum, &rejected))
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
	close(link);
	close(prog);
	v = kmulti_value(key);
	for (i = 0; i < RET_REGS_N; i++) {
		printf("# pt_regs word at %d: first %#" PRIx64 "%s\n", ret_regs_off[i],
		       v.slot[i], v.ret & (1 << i) ? ", changed later" : "");
		if (v.slot[i] != ret_regs_want[i])
			v.ret |= 1 << i;
	}
	if (v.count != 10000)
		result("fail", id, "%" PRIu64 " returns seen of 10000", v.count);
	else if (v.ret)
		result("fail", id, "words that hold no register read other than they should (mask %#" PRIx64 ")", v.ret);
	else
		result("ok", id, NULL);
}

/* Read /proc/self/stat @n times (each read is a vfs_read()): the reads done */
static int read_stat(int n)
{
	int fd = open("/proc/self/stat", O_RDONLY);
	char buf[256];
	int i;

	for (i = 0; fd >= 0 && i < n; i++)
		if (pread(fd, buf, sizeof(buf), 0) <= 0)
			break;
	if (fd >= 0)
		close(fd);
	return i;
}

/*
 * A kprobe.multi return program on vfs_read and on every function that
 * available_filter_functions lists as part of rethook or fprobe, the
 * return hooks and the entry that kprobe.multi programs run from (what
 * wildcards such as "*rethook*" and "*fprobe*" attach to): 100 reads must
 * each be seen, and nothing may crash. On arm64 the hooks' C code was
 * traceable, and a return probe on the return path's own callback hooked
 * its own return: every read then ended in an Oops. The link may also be
 * refused, with an errno.
 */
void test_kmulti_rethook(const char *id, int key)
{
	uint64_t addrs[33], cookies[33] = { 0 };
	char line[256], name[128], arch_listed[128] = "";
	int prog, link, i, n = 1;
	unsigned long long a;
	struct slot s;
	FILE *f;

	addrs[0] = ksym_addr("vfs_read");
	f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	if (!addrs[0] || !f) {
		result("fail", id, "no vfs_read in kallsyms, or no available_filter_functions");
		if (f)
			fclose(f);
		return;
	}
	while (n < 33 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s", name) != 1 ||
		    (!strstr(name, "rethook") && !strstr(name, "fprobe")))
			continue;
		a = ksym_addr(name);
		if (!a)
			continue;
		printf("# traceable on a probe's path: %s\n", name);
		if (!strncmp(name, "arch_rethook", 12))
			snprintf(arch_listed, sizeof(arch_listed), "%s", name);
		addrs[n++] = a;
	}
	fclose(f);
	prog = load_kmulti_prog(key);
	if (prog < 0) {
		step_failed(id, "load");
		return;
	}
	link = kmulti_attach(prog, 1, addrs, cookies, n);
	if (link < 0) {
		if (n > 1 && (errno == EINVAL || errno == EBUSY || errno == EPERM)) {
			printf("# the link on %d functions was refused: %s\n", n, strerror(errno));
			result("ok", id, NULL);
		} else {
			kmulti_failed(id, "attach return");
		}
		close(prog);
		return;
	}
	i = read_stat(100);
	close(link);
	close(prog);
	s = slot(key);
	printf("# %d reads, %llu return program runs, %d rethook and fprobe functions listed\n",
	       i, (unsigned long long)s.count, n - 1);
	if (arch_listed[0])
		result("fail", id, "the architecture's return hook %s is traceable", arch_listed);
	else if (i == 100 && s.count >= 100)
		result("ok", id, NULL);
	else
		result("fail", id, "%d reads, %llu program runs", i, (unsigned long long)s.count);
}

/* 1 when available_filter_functions lists @func, 0 when not, -1 unread */
static int filter_listed(const char *func)
{
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	char line[256], name[128];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s", name) == 1 && !strcmp(name, func);
	fclose(f);
	return found;
}

/* The hits of kprobe event @event from kprobe_profile, -1 if not listed */
static long long kprobe_hits(const char *event, unsigned long long *missed)
{
	FILE *f = fopen("/sys/kernel/tracing/kprobe_profile", "r");
	char line[256], name[128];
	unsigned long long hits, miss;
	long long ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu %llu", name, &hits, &miss) == 3 &&
		    !strcmp(name, event)) {
			ret = hits;
			*missed = miss;
		}
	fclose(f);
	return ret;
}

/*
 * The rethook within the rethook: a kretprobe on vfs_read, from
 * kprobe_events, and a kprobe.multi return program on the kretprobe's
 * handler, kretprobe_rethook_handler(), which every architecture lists as
 * traceable. Each of 100 reads returns through the rethook trampoline to
 * the handler, whose own return the program's fprobe hooks while the
 * first return is being handled: the hook is pushed on the task's list
 * above the one being run, and must be taken off and run before the
 * first one's handling goes on. Each read must reach the kretprobe, the
 * program must run on each of the handler's returns, and nothing may
 * crash or warn.
 */
void test_kmulti_rethook_nested(const char *id, int key)
{
	const char *tracing = "/sys/kernel/tracing";
	char path[256];
	unsigned long long missed = 0;
	uint64_t addr, cookie = 0;
	int prog, link, i, listed;
	long long hits, before;
	struct slot s;

	listed = filter_listed("kretprobe_rethook_handler");
	addr = ksym_addr("kretprobe_rethook_handler");
	if (listed <= 0 || !addr) {
		result("fail", id, "kretprobe_rethook_handler is not %s",
		       listed < 0 ? "listed: no available_filter_functions" :
		       "traceable (or not in kallsyms)");
		return;
	}
	snprintf(path, sizeof(path), "%s/kprobe_events", tracing);
	if (write_str(path, "r:lab_nested/vfs_read_ret vfs_read") < 0) {
		result("fail", id, "kretprobe on vfs_read: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/events/lab_nested/vfs_read_ret/enable", tracing);
	if (write_str(path, "1") < 0) {
		result("fail", id, "enabling the kretprobe: %s", strerror(errno));
		goto out_event;
	}
	prog = load_kmulti_prog(key);
	if (prog < 0) {
		step_failed(id, "load");
		goto out_disable;
	}
	link = kmulti_attach(prog, 1, &addr, &cookie, 1);
	if (link < 0) {
		kmulti_failed(id, "attach return");
		close(prog);
		goto out_disable;
	}
	before = kprobe_hits("vfs_read_ret", &missed);
	i = read_stat(100);
	close(link);
	close(prog);
	hits = kprobe_hits("vfs_read_ret", &missed);
	if (before >= 0 && hits >= before)
		hits -= before;
	s = slot(key);
	printf("# %d reads, %lld kretprobe hits (%llu missed in all), %llu program runs on kretprobe_rethook_handler's returns\n",
	       i, hits, missed, (unsigned long long)s.count);
	if (before < 0 || hits < 0)
		result("fail", id, "kprobe_profile has no line for the kretprobe");
	else if (i < 100 || hits < 100)
		result("fail", id, "%d reads, %lld kretprobe hits", i, hits);
	else if (s.count < 100)
		result("fail", id, "%llu program runs on the handler's returns, of %lld kretprobe hits",
		       (unsigned long long)s.count, hits);
	else
		result("ok", id, NULL);
 out_disable:
	snprintf(path, sizeof(path), "%s/events/lab_nested/vfs_read_ret/enable", tracing);
	write_str(path, "0");
 out_event:
	snprintf(path, sizeof(path), "%s/kprobe_events", tracing);
	if (write_str(path, "-:lab_nested/vfs_read_ret") < 0)
		printf("# removing the kretprobe: %s\n", strerror(errno));
}
