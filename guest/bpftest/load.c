// SPDX-License-Identifier: GPL-2.0
/* bpftest: under load and bad input. */
#include "bpftest.h"

/*
 * fentry on bpf_fentry_test1, counting per CPU in a per-CPU array: the
 * fd, or -1 with errno and vlog set.
 */
static int load_percpu_counter(int pcpu_fd)
{
	int id = btf_func_id("bpf_fentry_test1");
	struct bpf_insn prog[] = {
		MAP_LOOKUP(pcpu_fd, 0),
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
void test_storm(const char *id, int cycles)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), pcpu, prog = -1, link = -1;
	int other = -1, i, cpu, bad = 0, done = 0;
	volatile unsigned long *calls;
	uint64_t counts[STORM_CPUS];
	pid_t pids[STORM_CPUS];
	unsigned long total = 0;
	uint32_t rv;

	if (ncpu < 2 || ncpu > STORM_CPUS) {
		result("skip", id, "%d CPUs online, needs 2 to %d", ncpu, STORM_CPUS);
		return;
	}
	pcpu = map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 8, 1);
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

	memset(counts, 0, sizeof(counts));
	if (map_lookup(pcpu, 0, counts)) {
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
void test_bad_btf_id(const char *id)
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
void test_notrace(const char *id, const char *func, int want)
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
void test_module_busy(const char *id, int key)
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
