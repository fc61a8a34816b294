// SPDX-License-Identifier: GPL-2.0
/* bpftest: programs held for the other suites (demo, orders, bench, hazards, preempt). */
#include "bpftest.h"

/* For the demo: an fentry program counts the calls the test driver makes. */
int count_hits(int calls)
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
 * For guest/suites/t-orders.sh: an fentry program on @func that leaves
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
int hold_kmulti(const char *func)
{
	uint64_t addr = ksym_addr(func), cookie = 0;
	struct bpf_insn insns[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -12, STR4('l', 'a', 'b', 'k')),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, STR4('m', 'u', 'l', 't')),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, STR4('i', 0, 0, 0)),
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

int hold(const char *func)
{
	int id = btf_func_id(func), prog, link;
	struct bpf_insn insns[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, STR4('l', 'a', 'b', 'b')),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, STR4('p', 'f', 0, 0)),
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
 * For guest/suites/t-bench.sh: an empty fentry program (return 0) on @func of
 * module @mod, attached until the process is killed. Prints "attached",
 * or "error ERRNO".
 */
int hold_empty(const char *mod, const char *func)
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
 * For guest/suites/t-preempt.sh: two processes run a socket filter (the target)
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

int prog_storm(int seconds)
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
 * For guest/suites/t-hazards.sh and t-preempt.sh: an empty fentry program
 * on @func (a kernel function, or MODULE:FUNC) attached and detached until
 * @seconds have passed. Prints "cycles N, attach mean M ms, longest L
 * ms", or "error ERRNO".
 */
int attach_cycle(const char *func, int seconds)
{
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	const char *sep = strchr(func, ':');
	int id, fd = 0, prog, link, n = 0;
	double total = 0, longest = 0, ms;
	struct timespec start, t;
	char mod[64];

	if (sep) {
		snprintf(mod, sizeof(mod), "%.*s", (int)(sep - func), func);
		id = module_btf_func_id(mod, sep + 1);
		fd = id < 0 ? 0 : module_btf_fd(mod);
	} else {
		id = btf_func_id(func);
	}
	if (id < 0 || fd < 0) {
		printf("error %d\n", id < 0 ? -id : errno);
		return 1;
	}
	prog = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, fd,
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
