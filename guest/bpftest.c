// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: BPF fentry, fexit and fmod_ret through the bpf() syscall alone.
 *
 * Each program stores one context word and counts its runs in an array
 * map slot of its own; BPF_PROG_TEST_RUN drives the traced functions
 * (bpf_fentry_test1(1) and bpf_modify_return_test(1, &b)) and the test
 * checks what the programs wrote.  BTF ids come from /sys/kernel/btf/vmlinux.
 * The module tests attach to the lab's labtarget module (guest/labtarget),
 * driven through its "call" parameter, with ids from its split BTF; its
 * "args" parameter drives the functions of 12 arguments and of structures
 * passed by value, whose every argument slot a program copies.  The
 * BPF-program tests attach to a socket filter loaded with BTF of its own
 * (the trampoline is then called from the program's JITed entry).  The
 * storm counts per CPU while programs come and go; the bad-input tests
 * check each errno and that nothing was left attached.
 *
 * Output, one line per test, for guest/t-bpf.sh to turn into KTAP:
 *   ok ID | fail ID REASON | skip ID REASON | # diagnostic
 * usage: bpftest HAS_DIRECT   (1: the kernel has ftrace direct calls, so
 *                              an attach failing with ENOTSUPP is a failure)
 *        bpftest HAS_DIRECT count N   fentry on bpf_fentry_test1 counting N calls
 *        bpftest HAS_DIRECT hold FUNC  fentry on FUNC, each run writing "labbpf"
 *                                      to the trace buffer, attached until killed
 *        bpftest HAS_DIRECT hold-kmulti FUNC  a kprobe.multi program on FUNC,
 *                                      each run writing "labkmulti", attached
 *                                      until killed
 *        bpftest HAS_DIRECT hold-empty MOD FUNC  an empty fentry program on
 *                                      FUNC of module MOD (vmlinux: built in),
 *                                      attached until killed
 *        bpftest HAS_DIRECT attach-cycle FUNC SECONDS  an empty fentry
 *                                      program on FUNC attached and detached
 *                                      for SECONDS; prints the cycles made
 *        bpftest HAS_DIRECT prog-storm SECONDS  fentry and fexit attached
 *                                      and detached on a BPF program while
 *                                      two processes run it
 * environment: LAB_REACH_MIB (how far a site's call reaches, MiB) and
 * LAB_BPF_PATH (near or far) for bpf:trampoline-path
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ENOTSUPP 524	/* the kernel's own, not in userspace errno.h */

/*
 * Attaching to a function ftrace does not patch falls back to the JIT's
 * bpf_arch_text_poke(), which on x86_64 finds no 5-byte NOP there and on
 * the others refuses a site outside BPF code.
 */
#ifdef __x86_64__
#define NOTRACE_ERRNO	EBUSY
#else
#define NOTRACE_ERRNO	ENOTSUPP
#endif

/*
 * What 6.1's BPF trampoline of each architecture refuses among
 * labtarget's functions of many or large arguments (test_args()).
 */
#if defined(__x86_64__)
#define REFUSE_ARGS12 "6.1's x86_64 trampoline takes the 6 argument registers only"
#define REFUSE_SPLIT REFUSE_ARGS12
#elif defined(__aarch64__)
#define REFUSE_ARGS12 NULL
#define REFUSE_SPLIT "the arm64 trampoline refuses a structure passed on the stack"
#else
#define REFUSE_ARGS12 NULL
#define REFUSE_SPLIT NULL
#endif

static int has_direct;
static int map_fd;
static char vlog[16384];

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* ---- BTF: the id of a FUNC in vmlinux or in a module -------------------- */

struct btf_file {
	char *buf;
	const struct btf_header *h;
	const char *types, *strs;
	uint32_t nr_types;
};

static int btf_read(const char *path, struct btf_file *b, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	b->buf = malloc(size);
	if (!b->buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while (len < size && (n = read(fd, b->buf + len, size - len)) > 0)
		len += n;
	close(fd);
	b->h = (const void *)b->buf;
	if (len < sizeof(*b->h) || b->h->magic != BTF_MAGIC)
		return -EINVAL;
	b->types = b->buf + b->h->hdr_len + b->h->type_off;
	b->strs = b->buf + b->h->hdr_len + b->h->str_off;
	return 0;
}

/*
 * Walk the types of @b, whose ids start at @first and whose names past
 * @base->h->str_len are its own (split BTF of a module; @base NULL for
 * vmlinux): the id of FUNC @name, or 0 with b->nr_types set.
 */
static int btf_find_func(struct btf_file *b, const struct btf_file *base,
			 uint32_t first, const char *name)
{
	uint32_t off, id = first, base_len = base ? base->h->str_len : 0;

	for (off = 0; off < b->h->type_len; id++) {
		const struct btf_type *t = (const void *)(b->types + off);
		unsigned int kind = BTF_INFO_KIND(t->info);
		unsigned int vlen = BTF_INFO_VLEN(t->info);
		const char *tname = t->name_off < base_len ?
			base->strs + t->name_off : b->strs + t->name_off - base_len;

		if (kind == BTF_KIND_FUNC && !strcmp(tname, name))
			return id;
		off += sizeof(*t);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			off += 4;
			break;
		case BTF_KIND_ARRAY:
			off += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			off += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			off += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			off += vlen * 12;
			break;
		case BTF_KIND_FUNC_PROTO:
			off += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			off += vlen * sizeof(struct btf_var_secinfo);
			break;
		default:	/* PTR, FWD, TYPEDEF, qualifiers, FUNC, FLOAT, TYPE_TAG */
			break;
		}
	}
	b->nr_types = id - first;
	return 0;
}

static struct btf_file vmlinux_btf;

static int vmlinux_btf_read(void)
{
	int err;

	if (vmlinux_btf.h)
		return 0;
	err = btf_read("/sys/kernel/btf/vmlinux", &vmlinux_btf, 16 << 20);
	if (!err)
		btf_find_func(&vmlinux_btf, NULL, 1, "");	/* counts the types */
	return err;
}

static int btf_func_id(const char *name)
{
	int err = vmlinux_btf_read();

	if (err)
		return err;
	return btf_find_func(&vmlinux_btf, NULL, 1, name) ?: -ENOENT;
}

/* The id of FUNC @name in module @mod's BTF, which follows vmlinux's */
static int module_btf_func_id(const char *mod, const char *name)
{
	struct btf_file b = { 0 };
	char path[128];
	int err, id;

	err = vmlinux_btf_read();
	if (err)
		return err;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	err = btf_read(path, &b, 1 << 20);
	id = err ? err : btf_find_func(&b, &vmlinux_btf, vmlinux_btf.nr_types + 1, name);
	free(b.buf);
	return id ?: -ENOENT;
}

/* The kernel's BTF object of module @mod, for attach_btf_obj_fd */
static int module_btf_fd(const char *mod)
{
	struct bpf_btf_info info;
	union bpf_attr a;
	char name[64];
	uint32_t id = 0;
	int fd;

	for (;;) {
		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_BTF_GET_NEXT_ID, &a))
			return -1;
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.btf_id = id;
		fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		name[0] = 0;
		info.name = (uintptr_t)name;
		info.name_len = sizeof(name);
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = fd;
		a.info.info_len = sizeof(info);
		a.info.info = (uintptr_t)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) && !strcmp(name, mod))
			return fd;
		close(fd);
	}
}

/* ---- programs ------------------------------------------------------------ */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

#define WORD_RET	(-1)	/* the value bpf_get_func_ret() gives (fexit) */

/*
 * Load @n instructions as a GPL program of @prog_type; a tracing program
 * attaches as @attach_type to BTF id @btf_id of object @obj_fd (0 or less:
 * vmlinux). The verifier's log goes to vlog.
 */
static int prog_load(int prog_type, int attach_type, int btf_id, int obj_fd,
		     const struct bpf_insn *insns, int n)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = prog_type;
	a.expected_attach_type = attach_type;
	a.attach_btf_id = btf_id;
	a.attach_btf_obj_fd = obj_fd > 0 ? obj_fd : 0;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = n;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 1;
	vlog[0] = 0;
	return sys_bpf(BPF_PROG_LOAD, &a);
}

/*
 * slot[key] = ctx[word]; slot[key].count++; return ret.  For fentry the
 * context words are the arguments, for fexit the return value follows
 * them, for fmod_ret a non-zero return replaces the function's.  @obj_fd
 * is the BTF object of a module, or the BPF program that @id is in.
 */
static int load_prog_id(int obj_fd, int id, int type, int word, int key, int ret)
{
	struct bpf_insn get_ret[] = {
		INSN(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -16, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -16),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ret),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 10, -16, 0),
	};
	struct bpf_insn prog[32] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 1, word * 8, 0),
	};
	struct bpf_insn count[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, key),
		INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 6, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int n = 1;

	if (word == WORD_RET) {
		memcpy(prog, get_ret, sizeof(get_ret));
		n = sizeof(get_ret) / sizeof(get_ret[0]);
	}
	memcpy(prog + n, count, sizeof(count));
	n += sizeof(count) / sizeof(count[0]);
	return prog_load(BPF_PROG_TYPE_TRACING, type, id, obj_fd, prog, n);
}

static int load_prog(const char *func, int type, int word, int key, int ret)
{
	int id = btf_func_id(func);

	if (id < 0) {
		errno = -id;
		snprintf(vlog, sizeof(vlog), "no BTF id for %s", func);
		return -1;
	}
	return load_prog_id(0, id, type, word, key, ret);
}

/* The same on a function of module @mod */
static int load_module_prog(const char *mod, const char *func, int type,
			    int word, int key, int ret)
{
	int id = module_btf_func_id(mod, func), fd, prog;

	if (id < 0) {
		errno = -id;
		snprintf(vlog, sizeof(vlog), "no BTF id for %s in %s", func, mod);
		return -1;
	}
	fd = module_btf_fd(mod);
	if (fd < 0) {
		snprintf(vlog, sizeof(vlog), "no BTF object for module %s", mod);
		return -1;
	}
	prog = load_prog_id(fd, id, type, word, key, ret);
	close(fd);
	return prog;
}

/* Attach a tracing program to its BTF target: the link is the fd. */
static int attach(int prog)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = prog;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
}

/* Run the kernel's test driver for the program's attach type: retval. */
static int test_run(int prog, uint32_t *retval)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = prog;
	if (sys_bpf(BPF_PROG_TEST_RUN, &a))
		return -1;
	*retval = a.test.retval;
	return 0;
}

struct slot {
	uint64_t value;
	uint64_t count;
};

static struct slot slot(int key)
{
	struct slot s = { 0, 0 };
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map_fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&s;
	sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
	return s;
}

/* ---- reporting ----------------------------------------------------------- */

static int failed;
/* The main run's results (not the hold modes') say how long they took */
static int show_time;
static struct timespec last_result;

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void result(const char *verdict, const char *id, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s", verdict, id);
	if (fmt) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	if (show_time) {
		printf("# %.0f ms since the previous result\n", ms_since(&last_result));
		clock_gettime(CLOCK_MONOTONIC, &last_result);
	}
	fflush(stdout);
	if (!strcmp(verdict, "fail"))
		failed = 1;
}

/* A step failed with errno: skip only what the kernel cannot do at all. */
static void step_failed(const char *id, const char *what)
{
	int err = errno;

	if (err == ENOTSUPP && !has_direct) {
		result("skip", id, "%s: -%d (no direct calls on this kernel)", what, err);
		return;
	}
	result("fail", id, "%s: -%d (%s)", what, err, strerror(err));
	if (vlog[0])
		printf("# %.*s\n", 400, vlog);
	else if (err == EINVAL && !strcmp(what, "load"))
		printf("# no verifier log: is BPF_PROG_TYPE_TRACING built in (CONFIG_BPF_EVENTS)?\n");
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * The link of a freshly loaded @prog (-1 if the load failed), or -1 with
 * the failure reported for test @id and @prog closed.
 */
static int attach_or_fail(const char *id, int prog)
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

static int direct_on(const char *func)
{
	char tramp[128];

	return direct_target(func, tramp, sizeof(tramp));
}

/* What enabled_functions says of @func and the line after, for a report */
static void show_records(const char *func)
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
static unsigned long long ksym_addr(const char *name)
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
 * trampolines are always far).
 */
static int paths_seen, paths_wrong;
static char paths_diag[512];

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

static void test_paths(const char *id)
{
	const char *want = getenv("LAB_BPF_PATH");

	if (!has_direct)
		result("skip", id, "no direct calls on this kernel");
	else if (!want || !getenv("LAB_REACH_MIB"))
		result("skip", id, "the lab gave no lab.bpf_path or lab.reach_mib for this arch");
	else if (paths_wrong || !paths_seen)
		result("fail", id, "want every site %s of its trampoline: %s", want,
		       paths_seen ? paths_diag : "no attach was seen");
	else
		result("ok", id, NULL);
}

/* fentry and fexit on bpf_fentry_test1(1), which returns 2 */
static void test_entry_exit(const char *id, int type, int word, uint64_t want, int key)
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
static void test_fmod_ret(const char *id, int key)
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
static void test_modify(const char *id, int k1, int k2)
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

/*
 * BPF_MAX_TRAMP_LINKS fentry programs on one function, the most one
 * trampoline takes: each sees every run, one more is refused with E2BIG,
 * and once their links are closed none runs.
 */
#define MAX_TRAMP_LINKS 38	/* BPF_MAX_TRAMP_LINKS but on s390 */

static void test_link_limit(const char *id, int key)
{
	int progs[MAX_TRAMP_LINKS + 1], links[MAX_TRAMP_LINKS + 1], i, err;
	uint32_t rv;
	struct slot s;

	for (i = 0; i <= MAX_TRAMP_LINKS; i++)
		progs[i] = links[i] = -1;
	for (i = 0; i <= MAX_TRAMP_LINKS; i++) {
		progs[i] = load_prog("bpf_fentry_test1", BPF_TRACE_FENTRY, 0, key, 0);
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
	if (test_run(progs[0], &rv))
		goto run_failed;
	s = slot(key);
	if (s.count != MAX_TRAMP_LINKS) {
		result("fail", id, "one run seen %llu times, want %d",
		       (unsigned long long)s.count, MAX_TRAMP_LINKS);
		goto out;
	}
	for (i = 0; i < MAX_TRAMP_LINKS; i++) {
		close(links[i]);
		links[i] = -1;
	}
	if (test_run(progs[0], &rv))
		goto run_failed;
	s = slot(key);
	if (s.count == MAX_TRAMP_LINKS)
		result("ok", id, NULL);
	else
		result("fail", id, "a run after detaching all was seen: count %llu",
		       (unsigned long long)s.count);
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

/*
 * A program on a function of the labtarget module, which the module's
 * "call" parameter runs 3 times: labtarget_add(i, 1) and
 * labtarget_check(i) for i = 0, 1, 2.  The program must run 3 times and
 * store @want (the word it reads of the last call); @rejected is what an
 * fmod_ret program makes labtarget_check() return non-zero.
 */
#define LABTARGET_CALL "/sys/module/labtarget/parameters/call"

/*
 * Write @n to labtarget's parameter @param, which makes the calls, and
 * read back what it reports into @buf: 0, or -1 with errno set.
 */
static int labtarget_param(const char *param, int n, char *buf, size_t size)
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

static int labtarget_call(int n, int *sum, int *rejected)
{
	char buf[64];

	if (labtarget_param("call", n, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "%d %d", sum, rejected) == 2 ? 0 : -1;
}

static void test_module(const char *id, const char *func, int type, int word,
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

/* ---- many and large arguments --------------------------------------------- */

/*
 * labtarget's functions of many or large arguments, called ARGS_CALLS
 * times each through its "args" parameter (guest/labtarget/labtarget.c,
 * mirrored here). A program on one of them copies every argument slot of
 * its context, the slot count bpf_get_func_arg_cnt() gives and, fexit,
 * bpf_get_func_ret() into a map value of its own; it must have seen each
 * call, the slots and the result of the last one, and the functions must
 * have computed what they do untraced (a trampoline calling one with an
 * argument out of place changes the sums).
 */
#define LABTARGET_ARGS "/sys/module/labtarget/parameters/args"
#define ARGS_CALLS 5

struct args_value {
	uint64_t count, nslots, ret, slot[12];
};

static int args_map_fd;

struct lt_pair {
	uint64_t lo, hi;
};

struct lt_triple {
	uint32_t a, b, c;
};

static uint64_t lt_arg(unsigned int k, unsigned int i)
{
	return 0x0101010101010101ULL * k + ((uint64_t)i << 20) + i;
}

/*
 * What function @func returns for call @i, and its slots as a program
 * sees them (@mask: the bits of each slot the ABI defines).
 */
static int lt_call(const char *func, unsigned int i, uint64_t *ret,
		   uint64_t *slot, uint64_t *mask)
{
	uint64_t v[13];
	int k, n = 0;

	for (k = 1; k <= 12; k++)
		v[k] = lt_arg(k, i);
	*ret = 0;
	if (!strcmp(func, "labtarget_args12")) {
		for (k = 1; k <= 12; k++) {
			*ret += k * v[k];
			slot[n] = v[k];
			mask[n++] = ~0ULL;
		}
	} else if (!strcmp(func, "labtarget_structs")) {
		int a = (int)v[1], c = (int)v[7];
		struct lt_pair p = { v[2], v[3] };
		struct lt_triple t = { (uint32_t)v[4], (uint32_t)v[5], (uint32_t)v[6] };

		*ret = (uint64_t)a + 2 * p.lo + 3 * p.hi + 4 * (uint64_t)t.a +
		       5 * (uint64_t)t.b + 6 * (uint64_t)t.c + 7 * (uint64_t)c;
		slot[0] = (uint32_t)a;
		slot[1] = p.lo;
		slot[2] = p.hi;
		slot[3] = t.a | (uint64_t)t.b << 32;
		slot[4] = t.c;
		slot[5] = (uint32_t)c;
		mask[0] = mask[4] = mask[5] = 0xffffffffULL;
		mask[1] = mask[2] = mask[3] = ~0ULL;
		n = 6;
	} else if (!strcmp(func, "labtarget_split")) {
		for (k = 1; k <= 10; k++) {
			*ret += k * v[k];
			slot[n] = v[k];
			mask[n++] = ~0ULL;
		}
	}
	return n;
}

/* fentry or fexit on @func: slots to the map value at @key */
static int load_args_prog(const char *func, int type, int nslots, int key)
{
	struct bpf_insn prog[80];
	int id, fd, i, n = 0, skip, ret;

	id = module_btf_func_id("labtarget", func);
	if (id < 0) {
		errno = -id;
		snprintf(vlog, sizeof(vlog), "no BTF id for %s in labtarget", func);
		return -1;
	}
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	prog[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, key);
	prog[n++] = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, args_map_fd);
	prog[n++] = INSN(0, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	skip = n++;
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	for (i = 0; i < nslots; i++) {
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 6, i * 8, 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 1,
				 offsetof(struct args_value, slot[i]), 0);
	}
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_arg_cnt);
	prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 0,
			 offsetof(struct args_value, nslots), 0);
	if (type == BPF_TRACE_FEXIT) {
		prog[n++] = INSN(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -16, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -16);
		prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ret);
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 10, -16, 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 1,
				 offsetof(struct args_value, ret), 0);
	}
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	prog[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 7, 1,
			 offsetof(struct args_value, count), BPF_ADD);
	prog[skip] = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, n - skip - 1, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	fd = module_btf_fd("labtarget");
	if (fd < 0) {
		snprintf(vlog, sizeof(vlog), "no BTF object for module labtarget");
		return -1;
	}
	ret = prog_load(BPF_PROG_TYPE_TRACING, type, id, fd, prog, n);
	close(fd);
	return ret;
}

/* labtarget's "args" parameter: N calls of each, their results' sums */
static int labtarget_args(int n, uint64_t sums[3])
{
	char buf[128];

	if (labtarget_param("args", n, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64,
		      &sums[0], &sums[1], &sums[2]) == 3 ? 0 : -1;
}

/* Compare what the program stored with what call ARGS_CALLS - 1 passed */
static int args_check(const char *id, const char *func, int type, int key,
		      const uint64_t sums[3])
{
	static const char * const funcs[] = {
		"labtarget_args12", "labtarget_structs", "labtarget_split",
	};
	uint64_t want[12], mask[12], ret, sum = 0, r;
	struct args_value v;
	unsigned int i;
	int k, nslots, which = 0;
	union bpf_attr a;

	for (k = 0; k < 3; k++)
		if (!strcmp(func, funcs[k]))
			which = k;
	for (i = 0; i < ARGS_CALLS; i++) {
		lt_call(func, i, &r, want, mask);
		sum += r;
	}
	nslots = lt_call(func, ARGS_CALLS - 1, &ret, want, mask);
	memset(&v, 0, sizeof(v));
	memset(&a, 0, sizeof(a));
	a.map_fd = args_map_fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&v;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a)) {
		result("fail", id, "map lookup: %s", strerror(errno));
		return -1;
	}
	if (sums[which] != sum) {
		result("fail", id, "%s returned %#" PRIx64 " over %d calls, want %#" PRIx64,
		       func, sums[which], ARGS_CALLS, sum);
		return -1;
	}
	if (v.count != ARGS_CALLS || v.nslots != (uint64_t)nslots) {
		result("fail", id, "program ran %" PRIu64 " times with %" PRIu64
		       " slots, want %d and %d", v.count, v.nslots, ARGS_CALLS, nslots);
		return -1;
	}
	for (k = 0; k < nslots; k++)
		if ((v.slot[k] ^ want[k]) & mask[k]) {
			result("fail", id, "slot %d is %#" PRIx64 ", want %#" PRIx64
			       " (mask %#" PRIx64 ")", k, v.slot[k], want[k], mask[k]);
			return -1;
		}
	if (type == BPF_TRACE_FEXIT && v.ret != ret) {
		result("fail", id, "return value %#" PRIx64 ", want %#" PRIx64, v.ret, ret);
		return -1;
	}
	return 0;
}

/*
 * fentry or fexit on @func. @refused: NULL where this arch's trampoline
 * must take the function, else why it must refuse it; a refusal must be
 * ENOTSUPP at attach, leaving nothing attached, and is then a skip with
 * that reason.
 */
static void test_args(const char *id, const char *func, int type, int key,
		      const char *refused)
{
	uint64_t sums[3];
	int prog, link, nslots;
	uint64_t r, want[12], mask[12];

	if (access(LABTARGET_ARGS, W_OK)) {
		result("fail", id, "the labtarget module is not loaded");
		return;
	}
	nslots = lt_call(func, 0, &r, want, mask);
	prog = load_args_prog(func, type, nslots, key);
	if (prog < 0) {
		step_failed(id, "load");
		return;
	}
	link = attach(prog);
	if (link < 0 && refused && errno == ENOTSUPP) {
		if (direct_on(func))
			result("fail", id, "refused, but %s is left in enabled_functions", func);
		else
			result("skip", id, "attach refused with -%d: %s", ENOTSUPP, refused);
	} else if (link < 0) {
		step_failed(id, "attach");
	} else if (refused) {
		result("fail", id, "attached, but %s", refused);
	} else if (labtarget_args(ARGS_CALLS, sums)) {
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
	} else if (!args_check(id, func, type, key, sums)) {
		result("ok", id, NULL);
	}
	if (link >= 0)
		close(link);
	close(prog);
}

/* ---- BPF programs as targets ---------------------------------------------- */

/*
 * A socket filter returning @ret, with BTF: "int labtgt(void *ctx)" is its
 * FUNC, type id LABTGT_ID, for a tracing program to attach to.  The fd of
 * the program; its BTF is held by the program.
 */
#define LABTGT_ID	4

static int load_target(int ret)
{
	static const char strs[] = "\0int\0ctx\0labtgt";
	struct {
		struct btf_header h;
		uint32_t types[15];
		char strs[sizeof(strs)];
	} btf = {
		.h = {
			.magic = BTF_MAGIC,
			.version = BTF_VERSION,
			.hdr_len = sizeof(struct btf_header),
			.type_off = 0,
			.type_len = sizeof(btf.types),
			.str_off = sizeof(btf.types),
			.str_len = sizeof(strs),
		},
		.types = {
			/* [1] int: 32-bit signed */
			1, BTF_KIND_INT << 24, 4, BTF_INT_SIGNED << 24 | 32,
			/* [2] void * */
			0, BTF_KIND_PTR << 24, 0,
			/* [3] int (void *ctx) */
			0, BTF_KIND_FUNC_PROTO << 24 | 1, 1, 5, 2,
			/* [4] labtgt, global */
			9, BTF_KIND_FUNC << 24 | BTF_FUNC_GLOBAL, 3,
		},
	};
	struct bpf_insn prog[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpf_func_info fi = { .insn_off = 0, .type_id = LABTGT_ID };
	union bpf_attr a;
	int btf_fd, fd;

	memcpy(btf.strs, strs, sizeof(strs));
	memset(&a, 0, sizeof(a));
	a.btf = (uintptr_t)&btf;
	a.btf_size = sizeof(btf);
	a.btf_log_buf = (uintptr_t)vlog;
	a.btf_log_size = sizeof(vlog);
	a.btf_log_level = 1;
	vlog[0] = 0;
	btf_fd = sys_bpf(BPF_BTF_LOAD, &a);
	if (btf_fd < 0)
		return -1;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	a.prog_btf_fd = btf_fd;
	a.func_info = (uintptr_t)&fi;
	a.func_info_rec_size = sizeof(fi);
	a.func_info_cnt = 1;
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 1;
	vlog[0] = 0;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	close(btf_fd);
	return fd;
}

/* The program was JITed: its code is native, not run by the interpreter */
static int jited(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	return !sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) && info.jited_prog_len;
}

/* Run a socket filter on a zeroed 64-byte packet: its return value */
/* @repeat runs of a socket filter in the kernel's loop: the last result */
static int run_filter_n(int prog, unsigned int repeat, uint32_t *retval)
{
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = prog;
	a.test.data_in = (uintptr_t)pkt;
	a.test.data_size_in = sizeof(pkt);
	a.test.repeat = repeat;
	if (sys_bpf(BPF_PROG_TEST_RUN, &a))
		return -1;
	*retval = a.test.retval;
	return 0;
}

static int run_filter(int prog, uint32_t *retval)
{
	return run_filter_n(prog, 1, retval);
}

/*
 * fentry or fexit on a BPF program: the trampoline is called from the
 * program's own entry, which bpf_arch_text_poke() patches (no ftrace).
 * Three runs count three with the program's return value unchanged (fexit
 * sees it), and after detach a fourth run counts nothing.
 */
static void test_prog_target(const char *id, int type, int key)
{
	const uint32_t ret = 7;
	int tgt, prog, link, i, bad = 0;
	uint32_t rv;
	struct slot s;

	tgt = load_target(ret);
	if (tgt < 0) {
		step_failed(id, "load the target program");
		return;
	}
	prog = load_prog_id(tgt, LABTGT_ID, type,
			    type == BPF_TRACE_FEXIT ? WORD_RET : 0, key, 0);
	link = attach_or_fail(id, prog);
	if (link < 0) {
		close(tgt);
		return;
	}
	for (i = 0; i < 3; i++)
		if (run_filter(tgt, &rv) || rv != ret)
			bad = 1;
	close(link);
	close(prog);
	if (bad || run_filter(tgt, &rv) || rv != ret) {
		result("fail", id, "the target program did not return %u: %s",
		       ret, strerror(errno));
	} else {
		s = slot(key);
		if (s.count == 3 && (type != BPF_TRACE_FEXIT || s.value == ret))
			result("ok", id, NULL);
		else
			result("fail", id, "count %llu value %llu, want 3%s",
			       (unsigned long long)s.count,
			       (unsigned long long)s.value,
			       type == BPF_TRACE_FEXIT ? " and 7" : "");
	}
	close(tgt);
}

/*
 * A program that counts its runs in slot[key] and tail-calls itself ends
 * after MAX_TAIL_CALL_CNT (33) tail calls: 34 runs.  Tail calls enter past
 * the counter's set-up, so a JIT that gets that offset wrong counts
 * forever or crashes.
 */
static void test_tail_call(const char *id, int key)
{
	union bpf_attr a;
	int pa, prog, zero = 0;
	uint32_t rv;
	struct slot s;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PROG_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	pa = sys_bpf(BPF_MAP_CREATE, &a);
	if (pa < 0) {
		result("fail", id, "cannot create a program array: %s", strerror(errno));
		return;
	}
	{
		struct bpf_insn insns[] = {
			INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
			INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, key),
			INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
			INSN(0, 0, 0, 0, 0),
			INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
			INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
			INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0),
			INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
			INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD),
			INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
			INSN(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_MAP_FD, 0, pa),
			INSN(0, 0, 0, 0, 0),
			INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0),
			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
			INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		};

		memset(&a, 0, sizeof(a));
		a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		a.insns = (uintptr_t)insns;
		a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
		a.license = (uintptr_t)"GPL";
		a.log_buf = (uintptr_t)vlog;
		a.log_size = sizeof(vlog);
		a.log_level = 1;
		vlog[0] = 0;
		prog = sys_bpf(BPF_PROG_LOAD, &a);
	}
	if (prog < 0) {
		step_failed(id, "load");
		close(pa);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = pa;
	a.key = (uintptr_t)&zero;
	a.value = (uintptr_t)&prog;
	if (!jited(prog)) {
		result("fail", id, "the program was not JITed (net.core.bpf_jit_enable?)");
	} else if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a)) {
		result("fail", id, "cannot store the program: %s", strerror(errno));
	} else if (run_filter(prog, &rv)) {
		step_failed(id, "BPF_PROG_TEST_RUN");
	} else {
		s = slot(key);
		if (s.count == 34)
			result("ok", id, NULL);
		else
			result("fail", id, "%llu runs, want 34 (1 + MAX_TAIL_CALL_CNT)",
			       (unsigned long long)s.count);
	}
	/* the array holds the program: empty it so that both go away */
	a.flags = 0;
	sys_bpf(BPF_MAP_DELETE_ELEM, &a);
	close(prog);
	close(pa);
}

/* ---- kprobe.multi ----------------------------------------------------------- */

/* Where a kprobe program finds the return value in struct pt_regs */
#if defined(__x86_64__) || defined(__riscv)
#define PT_REGS_RC_OFF	80	/* ax, a0: the 11th word */
#elif defined(__aarch64__)
#define PT_REGS_RC_OFF	0	/* regs[0] */
#elif defined(__s390x__)
#define PT_REGS_RC_OFF	40	/* gprs[2], after args[1] and the psw */
#elif defined(__mips__) && __mips == 64
#define PT_REGS_RC_OFF	16	/* regs[2], v0 (no padding on 64-bit) */
#endif

#define KMULTI_COOKIE	0xc0ffee00ULL

/*
 * A kprobe.multi program. @sum_key < 0: the value at key (cookie & 15)
 * of the args map gets the run count, the cookie, bpf_get_func_ip() and
 * the return value register; else slot @sum_key of the slot map counts
 * the runs and adds up bpf_get_func_ip() ^ cookie.
 */
static int load_kmulti_prog(int sum_key)
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
		prog[n++] = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, args_map_fd);
	} else {
		prog[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, sum_key);
		prog[n++] = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, map_fd);
	}
	prog[n++] = INSN(0, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
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

static int kmulti_attach(int prog, int ret, const uint64_t *addrs,
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
	union bpf_attr a;

	memset(&v, 0, sizeof(v));
	memset(&a, 0, sizeof(a));
	a.map_fd = args_map_fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&v;
	sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
	return v;
}

/*
 * Entry and return programs on labtarget_add() and labtarget_check(), each
 * function with a cookie of its own, while labtarget makes 3 calls of each
 * (the last ones labtarget_add(2, 1) = 3 and labtarget_check(2) = 0): each
 * program must see every call, the function's cookie and address, and the
 * return program its result.
 */
static void test_kprobe_multi(const char *id)
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
 * are reported.
 */
#define KMULTI_FNS	1000

static void test_kprobe_multi_many(const char *id, int key)
{
	static uint64_t addrs[KMULTI_FNS], cookies[KMULTI_FNS];
	char line[256], sym[128], type, buf[64];
	unsigned long long addr, want_sum = 0, fns_sum = 0;
	int prog[2] = { -1, -1 }, link[2] = { -1, -1 }, r;
	double attach_ms[2], detach_ms[2];
	unsigned int found = 0, i;
	struct timespec t0;
	struct slot s;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) == 3 &&
		    !strncmp(sym, "labtarget_fn", 12) && strlen(sym) == 15 &&
		    sscanf(sym + 12, "%u", &i) == 1 && i < KMULTI_FNS && !addrs[i]) {
			addrs[i] = addr;
			cookies[i] = i;
			found++;
		}
	if (f)
		fclose(f);
	if (found != KMULTI_FNS) {
		result("fail", id, "%u of the %d labtarget_fnNNN in /proc/kallsyms", found, KMULTI_FNS);
		return;
	}
	for (i = 0; i < KMULTI_FNS; i++)
		want_sum += addrs[i] ^ cookies[i];
	for (r = 0; r < 2; r++) {
		prog[r] = load_kmulti_prog(key + r);
		if (prog[r] < 0) {
			step_failed(id, "load");
			goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		link[r] = kmulti_attach(prog[r], r, addrs, cookies, KMULTI_FNS);
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
	printf("# %d functions: entry link attached in %.1f ms, detached in %.1f ms; "
	       "return link %.1f ms, %.1f ms\n", KMULTI_FNS, attach_ms[0], detach_ms[0],
	       attach_ms[1], detach_ms[1]);
	for (r = 0; r < 2; r++) {
		s = slot(key + r);
		if (s.count != 3 * KMULTI_FNS || s.value != 3 * want_sum) {
			result("fail", id, "%s program: %llu runs, sum %#llx; want %d, %#llx",
			       r ? "return" : "entry", (unsigned long long)s.count,
			       (unsigned long long)s.value, 3 * KMULTI_FNS, 3 * want_sum);
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

/* ---- under load and bad input --------------------------------------------- */

/*
 * fentry on bpf_fentry_test1, counting per CPU in a per-CPU array: the
 * fd, or -1 with errno and vlog set.
 */
static int load_percpu_counter(int pcpu_fd)
{
	int id = btf_func_id("bpf_fentry_test1");
	struct bpf_insn prog[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0),
		INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, pcpu_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	if (id < 0) {
		errno = -id;
		snprintf(vlog, sizeof(vlog), "no BTF id for bpf_fentry_test1");
		return -1;
	}
	return prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, 0,
			 prog, sizeof(prog) / sizeof(prog[0]));
}

#define STORM_CPUS	64

/*
 * A program counts every call of bpf_fentry_test1 per CPU while a process
 * pinned to each CPU keeps calling it (BPF_PROG_TEST_RUN) and other
 * programs are attached to and detached from the same function @cycles
 * times, each a new trampoline swapped in by modify_ftrace_direct().
 * Per CPU, the count must be the calls made there: none lost, none
 * counted twice.
 */
static void test_storm(const char *id, int cycles)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), pcpu, prog = -1, link = -1;
	int other = -1, i, cpu, bad = 0, done = 0;
	volatile unsigned long *calls;
	uint64_t counts[STORM_CPUS];
	pid_t pids[STORM_CPUS];
	union bpf_attr a;
	unsigned long total = 0;
	uint32_t zero = 0, rv;

	if (ncpu < 2 || ncpu > STORM_CPUS) {
		result("skip", id, "%d CPUs online, needs 2 to %d", ncpu, STORM_CPUS);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1;
	pcpu = sys_bpf(BPF_MAP_CREATE, &a);
	if (pcpu < 0) {
		result("fail", id, "cannot create a per-CPU array: %s", strerror(errno));
		return;
	}
	calls = mmap(NULL, STORM_CPUS * sizeof(*calls) + sizeof(int),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (calls == MAP_FAILED) {
		result("fail", id, "mmap: %s", strerror(errno));
		close(pcpu);
		return;
	}
	prog = load_percpu_counter(pcpu);
	link = attach_or_fail(id, prog);
	if (link < 0)
		goto out_map;
	other = load_prog("bpf_fentry_test1", BPF_TRACE_FENTRY, 0, 15, 0);
	if (other < 0) {
		step_failed(id, "load");
		goto out_link;
	}

	for (cpu = 0; cpu < ncpu; cpu++) {
		pids[cpu] = fork();
		if (pids[cpu] == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(2);
			while (!((volatile int *)(calls + STORM_CPUS))[0]) {
				if (test_run(prog, &rv))
					_exit(3);
				calls[cpu]++;
			}
			_exit(0);
		}
	}

	for (i = 0; i < cycles; i++) {
		int l = attach(other);

		if (l < 0) {
			step_failed(id, "attach the second program");
			bad = 1;
			break;
		}
		close(l);
		done++;
	}

	((volatile int *)(calls + STORM_CPUS))[0] = 1;
	for (cpu = 0; cpu < ncpu; cpu++) {
		int status;

		if (pids[cpu] < 0 || waitpid(pids[cpu], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# caller on CPU %d failed\n", cpu);
			bad = 1;
		}
	}
	close(link);
	link = -1;

	memset(&a, 0, sizeof(a));
	memset(counts, 0, sizeof(counts));
	a.map_fd = pcpu;
	a.key = (uintptr_t)&zero;
	a.value = (uintptr_t)counts;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a)) {
		result("fail", id, "cannot read the counts: %s", strerror(errno));
		goto out_other;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		printf("# cpu %d: %lu calls, %llu counted\n", cpu, calls[cpu],
		       (unsigned long long)counts[cpu]);
		if (counts[cpu] != calls[cpu])
			bad = 1;
		total += calls[cpu];
	}
	printf("# %d attach/detach cycles of a second program, %lu calls\n",
	       done, total);
	if (bad || !total)
		result("fail", id, "per-CPU counts differ from the calls made");
	else
		result("ok", id, NULL);
out_other:
	close(other);
out_link:
	if (link >= 0)
		close(link);
	close(prog);
out_map:
	munmap((void *)calls, STORM_CPUS * sizeof(*calls) + sizeof(int));
	close(pcpu);
}

/* Loading for a BTF id that does not exist fails with EINVAL */
static void test_bad_btf_id(const char *id)
{
	int prog = load_prog_id(0, 0x7ffffff, BPF_TRACE_FENTRY, 0, 15, 0);

	if (prog >= 0) {
		result("fail", id, "loaded for BTF id %#x", 0x7ffffff);
		close(prog);
	} else if (errno != EINVAL) {
		result("fail", id, "-%d (%s), want EINVAL", errno, strerror(errno));
	} else {
		result("ok", id, NULL);
	}
}

/*
 * A function ftrace cannot patch (kernel/trace is built without the
 * patchable entry): the program loads, attaching it fails with @want, and
 * nothing is left in enabled_functions.
 */
static void test_notrace(const char *id, const char *func, int want)
{
	int prog, link;

	prog = load_prog(func, BPF_TRACE_FENTRY, 0, 15, 0);
	if (prog < 0) {
		step_failed(id, "load");
		return;
	}
	link = attach(prog);
	if (link >= 0) {
		result("fail", id, "attached to %s", func);
		close(link);
	} else if (errno != want) {
		result("fail", id, "attach: -%d (%s), want -%d", errno,
		       strerror(errno), want);
	} else if (direct_on(func)) {
		result("fail", id, "%s left in enabled_functions", func);
	} else {
		result("ok", id, NULL);
	}
	close(prog);
}

/*
 * A module with a function a program is attached to cannot be unloaded
 * (the trampoline holds it): delete_module() fails with EWOULDBLOCK and
 * the function still runs the program.
 */
static void test_module_busy(const char *id, int key)
{
	int prog, link, sum, rejected;
	struct slot s;

	if (access(LABTARGET_CALL, W_OK)) {
		result("fail", id, "the labtarget module is not loaded");
		return;
	}
	prog = load_module_prog("labtarget", "labtarget_add", BPF_TRACE_FENTRY,
				0, key, 0);
	link = attach_or_fail(id, prog);
	if (link < 0)
		return;
	if (!syscall(__NR_delete_module, "labtarget", O_NONBLOCK))
		result("fail", id, "labtarget was unloaded with a program attached");
	else if (errno != EWOULDBLOCK)
		result("fail", id, "delete_module: -%d (%s), want EWOULDBLOCK",
		       errno, strerror(errno));
	else if (labtarget_call(3, &sum, &rejected))
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
	else if ((s = slot(key)).count != 3)
		result("fail", id, "the program saw %llu calls after the refusal, want 3",
		       (unsigned long long)s.count);
	else
		result("ok", id, NULL);
	close(link);
	close(prog);
}

/* For the demo: an fentry program counts the calls the test driver makes. */
static int count_hits(int calls)
{
	const char *id = "demo:bpf-fentry-count";
	int prog, link, i;
	uint32_t rv;
	struct slot s;

	prog = load_prog("bpf_fentry_test1", BPF_TRACE_FENTRY, 0, 5, 0);
	if (prog < 0) {
		step_failed(id, "load");
		return 1;
	}
	link = attach(prog);
	if (link < 0) {
		step_failed(id, "attach");
		return 1;
	}
	for (i = 0; i < calls; i++)
		if (test_run(prog, &rv)) {
			step_failed(id, "BPF_PROG_TEST_RUN");
			return 1;
		}
	s = slot(5);
	printf("# fentry program on bpf_fentry_test1: %llu hits for %d calls\n",
	       (unsigned long long)s.count, calls);
	if (s.count == (uint64_t)calls)
		result("ok", id, NULL);
	else
		result("fail", id, "%llu hits, want %d", (unsigned long long)s.count, calls);
	close(link);
	close(prog);
	return failed;
}

/*
 * For guest/t-orders.sh: an fentry program on @func that leaves
 * "bpf_trace_printk: labbpf" in the trace buffer on each call, attached
 * until the process is killed. Prints "attached", or "error ERRNO".
 */
/*
 * The holders' end: "error ERRNO" (and the verifier's log) if @link is
 * not one, else "attached", and the link is kept until the process is
 * killed.
 */
static int hold_link(int link)
{
	if (link < 0) {
		printf("error %d\n", errno);
		if (vlog[0])
			printf("# %.*s\n", 400, vlog);
		return 1;
	}
	printf("attached\n");
	fflush(stdout);
	for (;;)
		pause();
}

/*
 * A kprobe.multi entry program on kernel function @func (its address from
 * /proc/kallsyms), writing "labkmulti" to the trace buffer on each run,
 * attached until killed: the orders suite's kprobe.multi user.
 */
static int hold_kmulti(const char *func)
{
	uint64_t addr = ksym_addr(func), cookie = 0;
	struct bpf_insn insns[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -12, 'l' | 'a' << 8 | 'b' << 16 | 'k' << 24),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, 'm' | 'u' << 8 | 'l' << 16 | 't' << 24),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 'i'),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -12),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 10),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_trace_printk),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int prog, link;

	if (!addr) {
		printf("error %d\n", ENOENT);
		return 1;
	}
	prog = prog_load(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, 0,
			 insns, sizeof(insns) / sizeof(insns[0]));
	link = prog < 0 ? -1 : kmulti_attach(prog, 0, &addr, &cookie, 1);
	return hold_link(link);
}

static int hold(const char *func)
{
	int id = btf_func_id(func), prog, link;
	struct bpf_insn insns[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, 'l' | 'a' << 8 | 'b' << 16 | 'b' << 24),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 'p' | 'f' << 8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 8),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_trace_printk),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	if (id < 0) {
		printf("error %d\n", -id);
		return 1;
	}
	prog = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, 0,
			 insns, sizeof(insns) / sizeof(insns[0]));
	link = prog < 0 ? -1 : attach(prog);
	return hold_link(link);
}

/*
 * For guest/t-bench.sh: an empty fentry program (return 0) on @func of
 * module @mod, attached until the process is killed. Prints "attached",
 * or "error ERRNO".
 */
static int hold_empty(const char *mod, const char *func)
{
	int builtin = !strcmp(mod, "vmlinux"), id, fd = 0, prog, link = -1;
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	id = builtin ? btf_func_id(func) : module_btf_func_id(mod, func);
	if (id < 0) {
		printf("error %d\n", -id);
		return 1;
	}
	if (!builtin)
		fd = module_btf_fd(mod);
	if (fd < 0) {
		printf("error %d\n", errno);
		return 1;
	}
	prog = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, fd,
			 insns, sizeof(insns) / sizeof(insns[0]));
	/* the bench times native code, as a distribution runs it */
	if (prog >= 0 && !jited(prog)) {
		printf("error the program was not JITed (net.core.bpf_jit_enable?)\n");
		return 1;
	}
	if (prog >= 0)
		link = attach(prog);
	return hold_link(link);
}

/*
 * The pt_regs words a kprobe.multi return program finds in the rethook
 * trampoline's frame that hold no register of the return, and what they
 * must read on every return, not what the stack held before (a kernel
 * address, which the program could hand to user space): arm64's orig_x0
 * to exit_rcu and riscv64's badaddr, cause and orig_a0 zero; x86_64's
 * orig_ax -1, cs and ss the kernel's segments.
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
static void test_kmulti_ret_regs(const char *id, int key)
{
	uint64_t addr = ksym_addr("labtarget_add"), cookie = 0;
	struct bpf_insn p[16 + 9 * 8];
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
	p[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, key);
	p[n++] = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, args_map_fd);
	p[n++] = INSN(0, 0, 0, 0, 0);
	p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	p[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	p[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
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

/*
 * A kprobe.multi return program on vfs_read and on every function that
 * available_filter_functions lists as part of rethook, the return hooks
 * that kprobe.multi return programs run from (what a wildcard such as
 * "*rethook*" attaches to): 100 reads must each be seen, and nothing may
 * crash. On arm64 the hooks' C code was traceable, and a return probe on
 * the return path's own callback hooked its own return: every read then
 * ended in an Oops. The link may also be refused, with an errno.
 */
static void test_kmulti_rethook(const char *id, int key)
{
	uint64_t addrs[33], cookies[33] = { 0 };
	char line[256], name[128], arch_listed[128] = "";
	int prog, link, fd, i, n = 1;
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
		if (sscanf(line, "%127s", name) != 1 || !strstr(name, "rethook"))
			continue;
		a = ksym_addr(name);
		if (!a)
			continue;
		printf("# traceable on the return path: %s\n", name);
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
	fd = open("/proc/self/stat", O_RDONLY);
	for (i = 0; fd >= 0 && i < 100; i++)
		if (pread(fd, line, sizeof(line), 0) <= 0)
			break;
	if (fd >= 0)
		close(fd);
	close(link);
	close(prog);
	s = slot(key);
	printf("# %d reads, %llu return program runs, %d rethook functions listed\n",
	       i, (unsigned long long)s.count, n - 1);
	if (arch_listed[0])
		result("fail", id, "the architecture's return hook %s is traceable", arch_listed);
	else if (i == 100 && s.count >= 100)
		result("ok", id, NULL);
	else
		result("fail", id, "%d reads, %llu program runs", i, (unsigned long long)s.count);
}

/*
 * For guest/t-preempt.sh: two processes run a socket filter (the target)
 * with BPF_PROG_TEST_RUN as fast as they can while this one attaches and
 * detaches fentry and fexit programs on it, one after the other, for
 * @seconds or PROG_STORM_MAX cycles: each attach and detach rewrites the
 * target's JITed entry under the runners. Every run must return the
 * target's value, and the runners must live to the end. Prints "cycles
 * N, runs M", or "error ...".
 *
 * 6.1 cannot attach a tracing program to a BPF program twice, so each
 * cycle loads its own; all stay loaded until the runners are gone. 6.1
 * frees a detached program after an RCU grace period, which does not wait
 * for a task preempted in the old trampoline before it enters the
 * program's RCU section: freed on the way, a program was called after it
 * was freed (seen here; that is the BPF core's, on any architecture).
 */
#define PROG_STORM_MAX	900	/* below the 1024 open files of a process */

static int prog_storm(int seconds)
{
	static int progs[PROG_STORM_MAX];
	const uint32_t ret = 7;
	int tgt, prog, link, i, n = 0, status, bad = 0;
	pid_t runner[2];
	struct timespec start;
	uint32_t rv;

	tgt = load_target(ret);
	if (tgt < 0) {
		printf("error cannot load the target: %s\n", strerror(errno));
		return 1;
	}
	/*
	 * The runners run until they are killed, or a run goes wrong; the
	 * kernel's own loop of 1000 runs keeps them in the program, whose
	 * entry a preemption then often interrupts
	 */
	for (i = 0; i < 2; i++) {
		runner[i] = fork();
		if (runner[i] == 0)
			for (;;)
				if (run_filter_n(tgt, 1000, &rv) || rv != ret)
					_exit(2);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (ms_since(&start) < seconds * 1e3 && n < PROG_STORM_MAX) {
		prog = n & 1 ? load_prog_id(tgt, LABTGT_ID, BPF_TRACE_FEXIT, WORD_RET, 23, 0) :
			       load_prog_id(tgt, LABTGT_ID, BPF_TRACE_FENTRY, 0, 22, 0);
		link = prog < 0 ? -1 : attach(prog);
		if (link < 0) {
			printf("error %s %d: %s\n", prog < 0 ? "load" : "attach", n,
			       strerror(errno));
			if (prog >= 0)
				close(prog);
			bad = 1;
			break;
		}
		close(link);
		progs[n++] = prog;
		for (i = 0; i < 2; i++)
			if (waitpid(runner[i], &status, WNOHANG) == runner[i]) {
				printf("error runner %d ended after %d cycles (status %#x)\n",
				       i, n, status);
				bad = 1;
				runner[i] = 0;
			}
		if (bad)
			break;
	}
	for (i = 0; i < 2; i++) {
		if (!runner[i])
			continue;
		kill(runner[i], SIGKILL);
		waitpid(runner[i], &status, 0);
	}
	for (i = 0; i < n; i++)
		close(progs[i]);
	if (!bad)
		printf("cycles %d, program runs traced %llu\n", n,
		       (unsigned long long)(slot(22).count + slot(23).count));
	return bad;
}

/*
 * For guest/t-hazards.sh: an empty fentry program on @func attached and
 * detached until @seconds have passed. Prints "cycles N, attach mean M
 * ms, longest L ms", or "error ERRNO".
 */
static int attach_cycle(const char *func, int seconds)
{
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int id = btf_func_id(func), prog, link, n = 0;
	double total = 0, longest = 0, ms;
	struct timespec start, t;

	if (id < 0) {
		printf("error %d\n", -id);
		return 1;
	}
	prog = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, 0,
			 insns, sizeof(insns) / sizeof(insns[0]));
	if (prog < 0) {
		printf("error %d\n", errno);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (ms_since(&start) < seconds * 1e3) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		link = attach(prog);
		if (link < 0) {
			printf("error %d\n", errno);
			return 1;
		}
		ms = ms_since(&t);
		total += ms;
		if (ms > longest)
			longest = ms;
		close(link);
		n++;
	}
	printf("cycles %d, attach mean %.1f ms, longest %.1f ms\n", n,
	       n ? total / n : 0, longest);
	return 0;
}

int main(int argc, char **argv)
{
	union bpf_attr a;
	int storm;

	setvbuf(stdout, NULL, _IOLBF, 0);
	has_direct = argc > 1 && atoi(argv[1]) == 1;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = sizeof(struct slot);
	a.max_entries = 24;
	map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	a.value_size = sizeof(struct args_value);
	a.max_entries = 16;
	args_map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (map_fd < 0 || args_map_fd < 0) {
		printf("fail bpf:map cannot create an array map: %s\n", strerror(errno));
		return 1;
	}
	if (argc > 3 && !strcmp(argv[2], "hold"))
		return hold(argv[3]);
	if (argc > 3 && !strcmp(argv[2], "hold-kmulti"))
		return hold_kmulti(argv[3]);
	if (argc > 4 && !strcmp(argv[2], "hold-empty"))
		return hold_empty(argv[3], argv[4]);
	if (argc > 3 && !strcmp(argv[2], "count"))
		return count_hits(atoi(argv[3]));
	if (argc > 4 && !strcmp(argv[2], "attach-cycle"))
		return attach_cycle(argv[3], atoi(argv[4]));
	if (argc > 3 && !strcmp(argv[2], "prog-storm"))
		return prog_storm(atoi(argv[3]));
	show_time = 1;
	clock_gettime(CLOCK_MONOTONIC, &last_result);
	test_entry_exit("bpf:fentry", BPF_TRACE_FENTRY, 0, 1, 0);
	test_entry_exit("bpf:fexit", BPF_TRACE_FEXIT, 1, 2, 1);
	test_fmod_ret("bpf:fmod_ret", 2);
	test_modify("bpf:modify", 3, 4);
	test_link_limit("bpf:link-limit", 8);
	/* fentry reads a of labtarget_add(2, 1), fexit its result 3 */
	test_module("bpf:module-fentry", "labtarget_add", BPF_TRACE_FENTRY, 0, 2, 0, 0, 9);
	test_module("bpf:module-fexit", "labtarget_add", BPF_TRACE_FEXIT, 2, 3, 0, 0, 10);
	test_module("bpf:module-fmod_ret", "labtarget_check", BPF_MODIFY_RETURN, 0, 2,
		    0x1234, 3, 11);
	test_args("bpf:args12-fentry", "labtarget_args12", BPF_TRACE_FENTRY, 0, REFUSE_ARGS12);
	test_args("bpf:args12-fexit", "labtarget_args12", BPF_TRACE_FEXIT, 1, REFUSE_ARGS12);
	test_args("bpf:struct-args-fentry", "labtarget_structs", BPF_TRACE_FENTRY, 2, NULL);
	test_args("bpf:struct-args-fexit", "labtarget_structs", BPF_TRACE_FEXIT, 3, NULL);
	test_args("bpf:struct-split-fentry", "labtarget_split", BPF_TRACE_FENTRY, 4, REFUSE_SPLIT);
	test_args("bpf:struct-split-fexit", "labtarget_split", BPF_TRACE_FEXIT, 5, REFUSE_SPLIT);
	test_kprobe_multi("bpf:kprobe-multi");
	test_kprobe_multi_many("bpf:kprobe-multi-1000", 20);
	test_kmulti_rethook("bpf:kprobe-multi-rethook", 21);
	test_kmulti_ret_regs("bpf:kprobe-multi-return-regs", 14);
	test_prog_target("bpf:prog-fentry", BPF_TRACE_FENTRY, 12);
	test_prog_target("bpf:prog-fexit", BPF_TRACE_FEXIT, 13);
	test_tail_call("bpf:tail-call", 14);
	test_module_busy("bpf:module-busy", 16);
	test_bad_btf_id("bpf:bad-btf-id");
	test_notrace("bpf:notrace", "ftrace_set_filter_ip", NOTRACE_ERRNO);
	/* 100 cycles unless lab.bpf_storm= says otherwise (make check: fewer) */
	storm = getenv("LAB_BPF_STORM") ? atoi(getenv("LAB_BPF_STORM")) : 100;
	test_storm("bpf:storm", storm > 0 ? storm : 100);
	test_paths("bpf:trampoline-path");
	return failed;
}
