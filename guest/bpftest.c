// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: BPF fentry, fexit and fmod_ret through the bpf() syscall alone.
 *
 * Each program stores one context word and counts its runs in an array
 * map slot of its own; BPF_PROG_TEST_RUN drives the traced functions
 * (bpf_fentry_test1(1) and bpf_modify_return_test(1, &b)) and the test
 * checks what the programs wrote.  BTF ids come from /sys/kernel/btf/vmlinux.
 *
 * Output, one line per test, for guest/t-bpf.sh to turn into KTAP:
 *   ok ID | fail ID REASON | skip ID REASON | # diagnostic
 * usage: bpftest HAS_DIRECT   (1: the kernel has ftrace direct calls, so
 *                              an attach failing with ENOTSUPP is a failure)
 *        bpftest HAS_DIRECT count N   fentry on bpf_fentry_test1 counting N calls
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ENOTSUPP 524	/* the kernel's own, not in userspace errno.h */

static int has_direct;
static int map_fd;
static char vlog[16384];

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* ---- BTF: the id of a FUNC in vmlinux ---------------------------------- */

static int btf_func_id(const char *name)
{
	static char buf[16 << 20];
	const struct btf_header *h = (const void *)buf;
	const char *types, *strs;
	size_t len = 0;
	ssize_t n;
	uint32_t off;
	int fd, id = 1;

	fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	if (len < sizeof(*h) || h->magic != BTF_MAGIC)
		return -EINVAL;
	types = buf + h->hdr_len + h->type_off;
	strs = buf + h->hdr_len + h->str_off;

	for (off = 0; off < h->type_len; id++) {
		const struct btf_type *t = (const void *)(types + off);
		unsigned int kind = BTF_INFO_KIND(t->info);
		unsigned int vlen = BTF_INFO_VLEN(t->info);

		if (kind == BTF_KIND_FUNC && !strcmp(strs + t->name_off, name))
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
	return -ENOENT;
}

/* ---- programs ------------------------------------------------------------ */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/*
 * slot[key] = ctx[word]; slot[key].count++; return ret.  For fentry the
 * context words are the arguments, for fexit the return value follows
 * them, for fmod_ret a non-zero return replaces the function's.
 */
static int load_prog(const char *func, int type, int word, int key, int ret)
{
	struct bpf_insn prog[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 6, 1, word * 8, 0),
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
	union bpf_attr a;
	int id = btf_func_id(func);

	if (id < 0) {
		errno = -id;
		snprintf(vlog, sizeof(vlog), "no BTF id for %s", func);
		return -1;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = type;
	a.attach_btf_id = id;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 1;
	vlog[0] = 0;
	return sys_bpf(BPF_PROG_LOAD, &a);
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

/* fentry and fexit on bpf_fentry_test1(1), which returns 2 */
static void test_entry_exit(const char *id, int type, int word, uint64_t want, int key)
{
	int prog, link;
	uint32_t rv;
	struct slot s;

	prog = load_prog("bpf_fentry_test1", type, word, key, 0);
	if (prog < 0)
		return step_failed(id, "load");
	link = attach(prog);
	if (link < 0) {
		step_failed(id, "attach");
		close(prog);
		return;
	}
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
	if (prog < 0)
		return step_failed(id, "load");
	link = attach(prog);
	if (link < 0) {
		step_failed(id, "attach");
		close(prog);
		return;
	}
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
 * enabled_functions shows FUNC with the direct flag, and its direct
 * trampoline on the line after: "FUNC (N) [R] [I] D ...\n\tdirect-->T"
 */
static int direct_on(const char *func)
{
	static char buf[1 << 20];
	char key[128], *rec, *eol;
	size_t len = 0;
	ssize_t n;
	int fd = open("/sys/kernel/tracing/enabled_functions", O_RDONLY);

	if (fd < 0)
		return 0;
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	snprintf(key, sizeof(key), "\n%s (", func);
	rec = strncmp(buf, key + 1, strlen(key + 1)) ? strstr(buf, key) : buf;
	if (!rec)
		return 0;
	rec += *rec == '\n';
	eol = strchr(rec, '\n');
	if (!eol || !memmem(rec, eol - rec, " D", 2))
		return 0;
	return !strncmp(eol, "\n\tdirect-->", 11);
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

int main(int argc, char **argv)
{
	union bpf_attr a;

	setvbuf(stdout, NULL, _IOLBF, 0);
	has_direct = argc > 1 && atoi(argv[1]) == 1;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = sizeof(struct slot);
	a.max_entries = 8;
	map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (map_fd < 0) {
		printf("fail bpf:map cannot create an array map: %s\n", strerror(errno));
		return 1;
	}
	if (argc > 3 && !strcmp(argv[2], "count"))
		return count_hits(atoi(argv[3]));
	test_entry_exit("bpf:fentry", BPF_TRACE_FENTRY, 0, 1, 0);
	test_entry_exit("bpf:fexit", BPF_TRACE_FEXIT, 1, 2, 1);
	test_fmod_ret("bpf:fmod_ret", 2);
	test_modify("bpf:modify", 3, 4);
	return failed;
}
