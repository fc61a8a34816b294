// SPDX-License-Identifier: GPL-2.0
/* bpftest: BPF programs as targets, tail calls. */
#include "bpftest.h"

/*
 * A socket filter returning @ret, with BTF: "int labtgt(void *ctx)" is its
 * FUNC, type id LABTGT_ID, for a tracing program to attach to.  The fd of
 * the program; its BTF is held by the program.
 */
int load_target(int ret)
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
int jited(int prog)
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
int run_filter_n(int prog, unsigned int repeat, uint32_t *retval)
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
void test_prog_target(const char *id, int type, int key)
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
void test_tail_call(const char *id, int key)
{
	union bpf_attr a;
	int pa, prog, zero = 0;
	uint32_t rv;
	struct slot s;

	pa = map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	if (pa < 0) {
		result("fail", id, "cannot create a program array: %s", strerror(errno));
		return;
	}
	{
		struct bpf_insn insns[] = {
			INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
			MAP_LOOKUP(map_fd, key),
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
