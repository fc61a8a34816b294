// SPDX-License-Identifier: GPL-2.0
/* bpftest: fentry, fexit and fmod_ret on kernel and module functions, the trampoline path. */
#include "bpftest.h"

/*
 * The link of a freshly loaded @prog (-1 if the load failed), or -1 with
 * the failure reported for test @id and @prog closed.
 */
int attach_or_fail(const char *id, int prog)
{
	int link;

	if (prog < 0) {
		step_failed(id, "load");
		return -1;
	}
	link = attach(prog);
	if (link < 0) {
		step_failed(id, "attach");
		close(prog);
	}
	return link;
}

/*
 * enabled_functions shows FUNC with the direct flag, and its direct
 * trampoline on the line after: "FUNC (N) [R] [I] D ...\n\tdirect-->T+0x0/0x..."
 * The name of T goes to @tramp (@size bytes); 0 if FUNC has no direct call.
 */
static int direct_target(const char *func, char *tramp, size_t size)
{
	static char buf[1 << 20];
	char key[128], *rec, *eol, *t;
	size_t len = 1, klen;
	ssize_t n;
	int fd = open("/sys/kernel/tracing/enabled_functions", O_RDONLY);

	if (fd < 0)
		return 0;
	buf[0] = '\n';	/* every record then starts after a newline */
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	/* "\nFUNC (" in the kernel, "\nFUNC [MODULE] (" in a module */
	klen = snprintf(key, sizeof(key), "\n%s ", func);
	for (rec = strstr(buf, key); rec; rec = strstr(rec + 1, key))
		if (rec[klen] == '(' || rec[klen] == '[')
			break;
	if (!rec)
		return 0;
	eol = strchr(rec + 1, '\n');
	if (!eol || !memmem(rec, eol - rec, " D", 2) ||
	    strncmp(eol, "\n\tdirect-->", 11))
		return 0;
	t = eol + 11;
	snprintf(tramp, size, "%.*s", (int)strcspn(t, "+\n"), t);
	return 1;
}

int direct_on(const char *func)
{
	char tramp[128];

	return direct_target(func, tramp, sizeof(tramp));
}

/* What enabled_functions says of @func and the line after, for a report */
void show_records(const char *func)
{
	char line[512];
	int next = 0;
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (next || !strncmp(line, func, strlen(func)))
			printf("#   %s", line);
		next = !next && !strncmp(line, func, strlen(func));
	}
	fclose(f);
}

/* The address of symbol @name in /proc/kallsyms, 0 if it is not there. */
unsigned long long ksym_addr(const char *name)
{
	char line[256], sym[128], type;
	unsigned long long addr, found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	fclose(f);
	return found;
}

/*
 * enabled_functions names a record by what kallsyms finds at its address,
 * which for the first function of a module's .text on 6.1 riscv64 is the
 * assembler's mapping symbol ("$xrv64i2p1_m2p0...": 6.1 leaves out of a
 * module's kallsyms only ARM's). Try every other name kallsyms has for
 * @addr.
 */
static int direct_target_alias(const char *func, unsigned long long addr,
			       char *tramp, size_t size)
{
	char line[256], sym[128], type;
	unsigned long long a;
	int found = 0;
	FILE *f;

	if (!addr)
		return 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &a, &type, sym) == 3 &&
		    a == addr && strcmp(sym, func) &&
		    direct_target(sym, tramp, size)) {
			printf("# %s is named %s in enabled_functions\n", func, sym);
			found = 1;
		}
	fclose(f);
	return found;
}

/*
 * Which way the site of an attached function reaches its BPF trampoline.
 * A site's call reaches LAB_REACH_MIB either way (arches/ARCH.env; 0 where
 * it only ever calls ftrace_caller); a trampoline further away is called
 * through ftrace_caller and the site's ops (the far path). Each attach is
 * reported and checked against the path the lab's kernel for this arch
 * must take (LAB_BPF_PATH, near or far: with KASLR, arm64's vmalloc'd
 * trampolines are always far; "KERNEL,MODULE" where a module's functions
 * take another path than the kernel's, as on ppc64, whose trampolines lie
 * in module space, within a module site's reach and beyond a kernel
 * site's).
 */
static int paths_seen, paths_wrong;
static char paths_diag[512];

/* LAB_BPF_PATH's word for @func: "near", "far" or "KERNEL,MODULE" */
static const char *path_wanted(const char *want, const char *func)
{
	const char *comma = strchr(want, ',');
	int module = !strncmp(func, "labtarget_", strlen("labtarget_"));

	if (!comma)
		return want;
	if (module)
		return comma + 1;
	return strncmp(want, "near,", 5) ? "far" : "near";
}

static void record_path(const char *id, const char *func)
{
	const char *want = getenv("LAB_BPF_PATH");
	const char *reach_env = getenv("LAB_REACH_MIB");
	unsigned long long f, t, dist, reach;
	char tramp[128];
	const char *path;
	size_t used;

	if (!has_direct || !want || !reach_env)
		return;
	reach = strtoull(reach_env, NULL, 0) << 20;
	f = ksym_addr(func);
	if (!direct_target(func, tramp, sizeof(tramp)) &&
	    !direct_target_alias(func, f, tramp, sizeof(tramp))) {
		printf("# %s: enabled_functions shows no direct call on %s\n", id, func);
		show_records(func);
		paths_wrong++;
		return;
	}
	t = ksym_addr(tramp);
	if (!f || !t) {
		printf("# %s: %s or %s not in /proc/kallsyms\n", id, func, tramp);
		paths_wrong++;
		return;
	}
	dist = t > f ? t - f : f - t;
	path = dist < reach ? "near" : "far";
	want = path_wanted(want, func);
	printf("# %s: %s at %#llx, %s at %#llx: %llu MiB apart, %s path\n",
	       id, func, f, tramp, t, dist >> 20, path);
	paths_seen++;
	if (strcmp(path, want)) {
		paths_wrong++;
		used = strlen(paths_diag);
		snprintf(paths_diag + used, sizeof(paths_diag) - used, "%s%s took the %s path",
			 used ? ", " : "", id, path);
	}
}

void test_paths(const char *id)
{
	const char *want = getenv("LAB_BPF_PATH");

	if (!has_direct)
		result("skip", id, "no direct calls on this kernel");
	else if (!want || !getenv("LAB_REACH_MIB"))
		result("skip", id, "the lab gave no lab.bpf_path or lab.reach_mib for this arch");
	else if (paths_wrong || !paths_seen)
		result("fail", id, "want every site %s of its trampoline%s: %s", want,
		       strchr(want, ',') ? " (kernel sites, module sites)" : "",
		       paths_seen ? paths_diag : "no attach was seen");
	else
		result("ok", id, NULL);
}

/* fentry and fexit on bpf_fentry_test1(1), which returns 2 */
void test_entry_exit(const char *id, int type, int word, uint64_t want, int key)
{
	int prog, link;
	uint32_t rv;
	struct slot s;

	prog = load_prog("bpf_fentry_test1", type, word, key, 0);
	link = attach_or_fail(id, prog);
	if (link < 0)
		return;
	record_path(id, "bpf_fentry_test1");
	if (test_run(prog, &rv) || test_run(prog, &rv)) {
		step_failed(id, "BPF_PROG_TEST_RUN");
	} else {
		s = slot(key);
		if (s.count == 2 && s.value == want && rv == 0)
			result("ok", id, NULL);
		else
			result("fail", id, "saw value %llu count %llu retval %u, want %llu, 2, 0",
			       (unsigned long long)s.value, (unsigned long long)s.count,
			       rv, (unsigned long long)want);
	}
	close(link);
	close(prog);
}

/*
 * fmod_ret on bpf_modify_return_test(1, &b): the program's return value
 * replaces the function's, which then never runs, so b is untouched.  The
 * test driver reports (b changed) << 16 | return value.
 */
void test_fmod_ret(const char *id, int key)
{
	const uint32_t ret = 0x1234;
	int prog, link;
	uint32_t rv;
	struct slot s;

	prog = load_prog("bpf_modify_return_test", BPF_MODIFY_RETURN, 0, key, ret);
	link = attach_or_fail(id, prog);
	if (link < 0)
		return;
	if (test_run(prog, &rv)) {
		step_failed(id, "BPF_PROG_TEST_RUN");
	} else {
		s = slot(key);
		if (rv == ret && s.count == 1 && s.value == 1)
			result("ok", id, NULL);
		else
			result("fail", id, "retval %#x count %llu arg %llu, want %#x, 1, 1",
			       rv, (unsigned long long)s.count,
			       (unsigned long long)s.value, ret);
	}
	close(link);
	close(prog);
}

/*
 * A second program on a function that already has one: the trampoline is
 * rebuilt and the direct call modified, both while attached and when the
 * second one leaves.  Each run must be seen exactly once by each program
 * attached at the time.
 */
void test_modify(const char *id, int k1, int k2)
{
	int p1 = -1, p2 = -1, l1 = -1, l2 = -1;
	uint32_t rv;
	struct slot a, b;

	p1 = load_prog("bpf_fentry_test1", BPF_TRACE_FENTRY, 0, k1, 0);
	p2 = load_prog("bpf_fentry_test1", BPF_TRACE_FENTRY, 0, k2, 0);
	if (p1 < 0 || p2 < 0) {
		step_failed(id, "load");
		goto out;
	}
	l1 = attach(p1);
	if (l1 < 0) {
		step_failed(id, "attach first");
		goto out;
	}
	if (test_run(p1, &rv))
		goto run_failed;
	if (has_direct && !direct_on("bpf_fentry_test1")) {
		result("fail", id, "enabled_functions shows no direct call on bpf_fentry_test1");
		goto out;
	}
	l2 = attach(p2);
	if (l2 < 0) {
		step_failed(id, "attach second");
		goto out;
	}
	if (test_run(p1, &rv))
		goto run_failed;
	close(l2);
	l2 = -1;
	if (test_run(p1, &rv))
		goto run_failed;
	a = slot(k1);
	b = slot(k2);
	if (a.count == 3 && b.count == 1)
		result("ok", id, NULL);
	else
		result("fail", id, "first program saw %llu runs, second %llu; want 3 and 1",
		       (unsigned long long)a.count, (unsigned long long)b.count);
	goto out;
run_failed:
	step_failed(id, "BPF_PROG_TEST_RUN");
out:
	if (l2 >= 0)
		close(l2);
	if (l1 >= 0)
		close(l1);
	if (p2 >= 0)
		close(p2);
	if (p1 >= 0)
		close(p1);
}

#define MAX_TRAMP_LINKS 38	/* BPF_MAX_TRAMP_LINKS but on s390 */

/*
 * BPF_MAX_TRAMP_LINKS programs on @func, of the attach types @kinds in
 * turn, the most one trampoline takes: each sees every run, one more is
 * refused with E2BIG, and once their links are closed none runs. Runs go
 * through the test driver of program @run; with @want_rv >= 0 its
 * return must be that, attached and detached.
 */
static void link_limit(const char *id, int key, const char *func,
		       const int *kinds, int nkinds, int run, long want_rv)
{
	int progs[MAX_TRAMP_LINKS + 1], links[MAX_TRAMP_LINKS + 1], i, err;
	uint32_t rv;
	struct slot s;

	for (i = 0; i <= MAX_TRAMP_LINKS; i++)
		progs[i] = links[i] = -1;
	for (i = 0; i <= MAX_TRAMP_LINKS; i++) {
		progs[i] = load_prog(func, kinds[i % nkinds], 0, key, 0);
		if (progs[i] < 0) {
			step_failed(id, "load");
			goto out;
		}
	}
	for (i = 0; i < MAX_TRAMP_LINKS; i++) {
		links[i] = attach(progs[i]);
		if (links[i] < 0) {
			printf("# attaching program %d of %d\n", i + 1, MAX_TRAMP_LINKS);
			step_failed(id, "attach");
			goto out;
		}
	}
	links[i] = attach(progs[i]);
	err = errno;
	if (links[i] >= 0 || err != E2BIG) {
		result("fail", id, "program %d: %s, want E2BIG", i + 1,
		       links[i] >= 0 ? "attached" : strerror(err));
		goto out;
	}
	if (test_run(progs[run], &rv))
		goto run_failed;
	s = slot(key);
	if (s.count != MAX_TRAMP_LINKS || (want_rv >= 0 && rv != want_rv)) {
		result("fail", id, "one run seen %llu times, retval %#x; want %d%s",
		       (unsigned long long)s.count, rv, MAX_TRAMP_LINKS,
		       want_rv >= 0 ? " and the function's" : "");
		goto out;
	}
	for (i = 0; i < MAX_TRAMP_LINKS; i++) {
		close(links[i]);
		links[i] = -1;
	}
	if (test_run(progs[run], &rv))
		goto run_failed;
	s = slot(key);
	if (s.count == MAX_TRAMP_LINKS && (want_rv < 0 || rv == want_rv))
		result("ok", id, NULL);
	else
		result("fail", id, "after detaching all: count %llu retval %#x",
		       (unsigned long long)s.count, rv);
	goto out;
run_failed:
	step_failed(id, "BPF_PROG_TEST_RUN");
out:
	for (i = 0; i <= MAX_TRAMP_LINKS; i++) {
		if (links[i] >= 0)
			close(links[i]);
		if (progs[i] >= 0)
			close(progs[i]);
	}
}

void test_link_limit(const char *id, int key)
{
	static const int fentry[] = { BPF_TRACE_FENTRY };

	link_limit(id, key, "bpf_fentry_test1", fentry, 1, 0, -1);
}

/*
 * The three kinds mixed, the largest trampoline a function can get:
 * fentry, fmod_ret (returning 0, so the function still runs) and fexit
 * in turn on bpf_modify_return_test(1, &b); each architecture must fit
 * them all in its image, or refuse the link that does not fit. Runs go
 * through a fmod_ret program's test driver, which reports 0x10004 when
 * the function ran: b changed (1 << 16), and 1 + b, b raised to 3.
 */
void test_link_limit_mixed(const char *id, int key)
{
	static const int kinds[] = {
		BPF_TRACE_FENTRY, BPF_MODIFY_RETURN, BPF_TRACE_FEXIT,
	};

	link_limit(id, key, "bpf_modify_return_test", kinds, 3, 1, 0x10004);
}

/* Write @s to the file @path (a sysfs or debugfs knob): 0, or -1 */
int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/*
 * Write @n to labtarget's parameter @param, which makes the calls, and
 * read back what it reports into @buf: 0, or -1 with errno set.
 */
int labtarget_param(const char *param, int n, char *buf, size_t size)
{
	char path[96];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/labtarget/parameters/%s", param);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(buf, size, "%d", n);
	if (write(fd, buf, len) != len) {
		close(fd);
		return -1;
	}
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	return 0;
}

int labtarget_call(int n, int *sum, int *rejected)
{
	char buf[64];

	if (labtarget_param("call", n, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "%d %d", sum, rejected) == 2 ? 0 : -1;
}

/*
 * A program on a function of the labtarget module, which the module's
 * "call" parameter runs 3 times: labtarget_add(i, 1) and
 * labtarget_check(i) for i = 0, 1, 2.  The program must run 3 times and
 * store @want (the word it reads of the last call); @rejected is what an
 * fmod_ret program makes labtarget_check() return non-zero.
 */
void test_module(const char *id, const char *func, int type, int word,
		 uint64_t want, int ret, int want_rejected, int key)
{
	int prog, link, sum, rejected;
	struct slot s;

	if (access(LABTARGET_CALL, W_OK)) {
		result("fail", id, "the labtarget module is not loaded");
		return;
	}
	prog = load_module_prog("labtarget", func, type, word, key, ret);
	link = attach_or_fail(id, prog);
	if (link < 0)
		return;
	record_path(id, func);
	if (labtarget_call(3, &sum, &rejected)) {
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
	} else {
		s = slot(key);
		if (s.count == 3 && s.value == want && sum == 6 &&
		    rejected == want_rejected)
			result("ok", id, NULL);
		else
			result("fail", id, "count %llu value %llu sum %d rejected %d, want 3, %llu, 6, %d",
			       (unsigned long long)s.count, (unsigned long long)s.value,
			       sum, rejected, (unsigned long long)want, want_rejected);
	}
	close(link);
	close(prog);
}

/*
 * Load @insns as a tracing program of @attach_type on labtarget's @func
 * and attach it: the link, or -1 with the failure reported under @id.
 * The program's fd is left in @prog.
 */
static int labtarget_attach(const char *id, const char *func, int attach_type,
			    const struct bpf_insn *insns, int n, int *prog)
{
	int fn = module_btf_func_id("labtarget", func);
	int fd = module_btf_fd("labtarget");

	*prog = -1;
	if (fn < 0 || fd < 0) {
		result("fail", id, "no BTF for %s", func);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*prog = prog_load(BPF_PROG_TYPE_TRACING, attach_type, fn, fd, insns, n);
	close(fd);
	return attach_or_fail(id, *prog);
}

/*
 * fmod_ret on labtarget_errno(), returning -22 in 32 bits as a program
 * built for BPF's v3 CPU does ("w0 = -22": the upper half zero), while
 * labtarget's caller takes the int result as a long: it must see -22
 * there, negative, in each of 3 calls.
 */
void test_fmod_ret_errno(const char *id, int key)
{
	struct bpf_insn prog[] = {
		MAP_LOOKUP(map_fd, key),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD),
		INSN(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, -22),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	unsigned int negative = 0;
	long last = 0;
	char buf[64];
	int p, link;

	link = labtarget_attach(id, "labtarget_errno", BPF_MODIFY_RETURN, prog,
				sizeof(prog) / sizeof(prog[0]), &p);
	if (link < 0)
		return;
	if (labtarget_param("errno", 3, buf, sizeof(buf)) ||
	    sscanf(buf, "%u %ld", &negative, &last) != 2)
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
	else if (negative == 3 && last == -22 && slot(key).count == 3)
		result("ok", id, NULL);
	else
		result("fail", id, "%u of 3 results negative, the last %ld, %llu runs; want 3, -22, 3",
		       negative, last, (unsigned long long)slot(key).count);
	close(link);
	close(p);
}

/*
 * Addresses a BPF_PROBE_MEM load must read as 0: in the user half NULL, 8,
 * 0x1000 and, added by the test, a present page of its own holding a
 * non-zero word; and kernel-half addresses it must survive. The x86_64, ppc64
 * and MIPS64 JITs do not load from the user half; riscv64's fault handler
 * fixes up a kernel access to it before it takes a lock. 6.1's arm64 JIT
 * loads, until "bpf, arm64: Skip a BPF_PROBE_MEM load from the user
 * half": the present page is read (without PAN; with PAN, as
 * do_page_fault() reads, its fault would repeat), and an absent one takes
 * mmap_lock in the program (a DEBUG_ATOMIC_SLEEP splat).
 * x86_64, arm64 and riscv64: 1 << 63, in no half (x86_64 and riscv64:
 * not canonical; arm64: a TTBR0 address, skipped as the user half's).
 * MIPS64: XKPHYS beyond RAM (a bus error), XKSEG beyond what is mapped (a
 * TLB fault), and XKSEG and XKPHYS beyond the 48 segment and physical
 * address bits of the lab's Loongson-3 (address errors: do_ade()).
 */
static const uint64_t probe_addrs[] = {
	0, 8, 0x1000,
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
	0x8000000000000000ULL,
#endif
#if defined(__mips__) && __mips == 64
	0x980000ff00000000ULL, 0xc000010000000000ULL,
	0xc001000000000000ULL, 0x9801000000000000ULL,
#endif
};

/*
 * fentry on labtarget_deref(p), reading p->lo: the verifier makes the
 * load BPF_PROBE_MEM, which must give 0 for each bad address, and count
 * every call.
 */
void test_probe_mem(const char *id, int key)
{
	struct bpf_insn prog[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 1, 0, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 6, 0, 0),
		MAP_LOOKUP(map_fd, key),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 6, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	unsigned int i, n = sizeof(probe_addrs) / sizeof(probe_addrs[0]) + 1;
	uint64_t *page, addr;
	char buf[32];
	struct slot s;
	int p, link;

#ifdef __s390x__
	/* the kernel has its own address space: 0 is its lowcore */
	result("skip", id, "s390x has no user half in the kernel's address space: 0 up is the lowcore");
	return;
#endif
	/* the last address: a present page of this process, p->lo not 0 */
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		result("fail", id, "cannot map a page: %s", strerror(errno));
		return;
	}
	page[0] = 0x5a5a5a5a5a5a5a5aULL;
	link = labtarget_attach(id, "labtarget_deref", BPF_TRACE_FENTRY, prog,
				sizeof(prog) / sizeof(prog[0]), &p);
	if (link < 0)
		goto unmap;
	for (i = 0; i < n; i++) {
		int wfd = open("/sys/module/labtarget/parameters/deref", O_WRONLY);
		int len;

		addr = i < n - 1 ? probe_addrs[i] : (uint64_t)(uintptr_t)page;
		len = snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);

		if (wfd < 0 || write(wfd, buf, len) != len) {
			result("fail", id, "cannot call labtarget_deref(%s): %s", buf, strerror(errno));
			if (wfd >= 0)
				close(wfd);
			goto out;
		}
		close(wfd);
		s = slot(key);
		if (s.count != i + 1 || s.value) {
			result("fail", id, "labtarget_deref(%s): the program read %#llx, %llu runs; want 0, %u",
			       buf, (unsigned long long)s.value, (unsigned long long)s.count, i + 1);
			goto out;
		}
	}
	printf("# %s: %u addresses read as 0, the last a present user page\n", id, n);
	result("ok", id, NULL);
out:
	close(link);
	close(p);
unmap:
	munmap(page, 4096);
}
