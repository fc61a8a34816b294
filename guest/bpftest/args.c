// SPDX-License-Identifier: GPL-2.0
/* bpftest: functions of many and of large arguments. */
#include "bpftest.h"

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

int args_map_fd;

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
		/* t's bytes from the start of its two slots, c's alone in mask */
		struct lt_triple c_only = { 0, 0, 0xffffffff };
		uint64_t tb[2] = { 0, 0 }, tm[2] = { 0, 0 };

		memcpy(tb, &t, sizeof(t));
		memcpy(tm, &c_only, sizeof(c_only));

		*ret = (uint64_t)a + 2 * p.lo + 3 * p.hi + 4 * (uint64_t)t.a +
		       5 * (uint64_t)t.b + 6 * (uint64_t)t.c + 7 * (uint64_t)c;
		slot[0] = (uint32_t)a;
		slot[1] = p.lo;
		slot[2] = p.hi;
		slot[3] = tb[0];
		slot[4] = tb[1];
		slot[5] = (uint32_t)c;
		mask[0] = mask[5] = 0xffffffffULL;
		mask[1] = mask[2] = mask[3] = ~0ULL;
		mask[4] = tm[1];
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
	n = emit_map_lookup(prog, n, args_map_fd, key);
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

	for (k = 0; k < 3; k++)
		if (!strcmp(func, funcs[k]))
			which = k;
	for (i = 0; i < ARGS_CALLS; i++) {
		lt_call(func, i, &r, want, mask);
		sum += r;
	}
	nslots = lt_call(func, ARGS_CALLS - 1, &ret, want, mask);
	memset(&v, 0, sizeof(v));
	if (map_lookup(args_map_fd, key, &v)) {
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
void test_args(const char *id, const char *func, int type, int key,
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
