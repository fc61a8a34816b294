// SPDX-License-Identifier: GPL-2.0
/* bpftest: loading, attaching and running programs; reporting results. */
#include "bpftest.h"

/*
 * Load @n instructions as a GPL program of @prog_type; a tracing program
 * attaches as @attach_type to BTF id @btf_id of object @obj_fd (0 or less:
 * vmlinux). The verifier's log goes to vlog.
 */
/* a map of @type, u32 keys: its fd, or -1 with errno */
int map_create(int type, int value_size, int max_entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = value_size;
	a.max_entries = max_entries;
	return sys_bpf(BPF_MAP_CREATE, &a);
}

/* the value of map @fd at u32 @key into @value: 0, or -1 with errno */
int map_lookup(int fd, int key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

int emit_lookup_fp4(struct bpf_insn *p, int n, int fd)
{
	const struct bpf_insn tail[] = { MAP_LOOKUP(fd, 0) };
	int i;

	for (i = 1; i < (int)(sizeof(tail) / sizeof(tail[0])); i++)
		p[n++] = tail[i];
	return n;
}

int emit_map_lookup(struct bpf_insn *p, int n, int fd, int key)
{
	p[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, key);
	return emit_lookup_fp4(p, n, fd);
}

int prog_load(int prog_type, int attach_type, int btf_id, int obj_fd,
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
int load_prog_id(int obj_fd, int id, int type, int word, int key, int ret)
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
		MAP_LOOKUP(map_fd, key),
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

int load_prog(const char *func, int type, int word, int key, int ret)
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
int load_module_prog(const char *mod, const char *func, int type,
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
int attach(int prog)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = prog;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
}

/* Run the kernel's test driver for the program's attach type: retval. */
int test_run(int prog, uint32_t *retval)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = prog;
	if (sys_bpf(BPF_PROG_TEST_RUN, &a))
		return -1;
	*retval = a.test.retval;
	return 0;
}

struct slot slot(int key)
{
	struct slot s = { 0, 0 };

	map_lookup(map_fd, key, &s);
	return s;
}

/* ---- reporting ----------------------------------------------------------- */

int failed;
/* The main run's results (not the hold modes') say how long they took */
int show_time;
struct timespec last_result;

double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

void result(const char *verdict, const char *id, const char *fmt, ...)
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
void step_failed(const char *id, const char *what)
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
