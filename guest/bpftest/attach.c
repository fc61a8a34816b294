// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: the time to attach and detach many BPF trampolines at once,
 * one program and one link per function as bpftrace and Tetragon make
 * them (make bench-attach, guest/suites/t-attach.sh).
 */
#include "bpftest.h"
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sched.h>

#define ATTACH_MAX	1000	/* labtarget_fn000() .. labtarget_fn999() */

/*
 * Load an fentry program on each of labtarget_fn000() to
 * labtarget_fn<n-1>() into @progs, each counting in map slot @key, or in
 * slot i for a @key of -1. Returns how many were loaded: @n, or fewer
 * after reporting the failed step of @id.
 */
static int load_progs(int *progs, int n, int key, const char *id)
{
	char func[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(func, sizeof(func), "labtarget_fn%03d", i);
		progs[i] = load_module_prog("labtarget", func, BPF_TRACE_FENTRY, 0,
					    key < 0 ? i : key, 0);
		if (progs[i] < 0) {
			printf("# loading the program on %s\n", func);
			step_failed(id, "load");
			break;
		}
	}
	return i;
}

/*
 * One round of @n: an fentry program on each of labtarget_fn000() to
 * labtarget_fn<n-1>(), each counting its runs in map slot @key. The
 * programs are loaded first (not timed); then the @n links are made one
 * after the other and timed together, labtarget calls each of its 1000
 * functions once, and the @n links are closed one after the other and
 * timed together (closing a link's last fd detaches it before close()
 * returns). The count must be @n: each attached function seen once, no
 * other. Prints
 *   # bench: attach-N MS MS
 *   # bench: detach-N MS MS
 * (both fields the wall time, for scripts/bench/median.sh) and a result;
 * with ATTACH_TAG=T in the environment, attach-N-T and detach-N-T.
 */
static void attach_round(int n, int key)
{
	static int progs[ATTACH_MAX], links[ATTACH_MAX];
	const char *tag = getenv("ATTACH_TAG") ?: "";
	const char *dash = *tag ? "-" : "";
	char id[64], buf[64];
	double attach_ms, detach_ms;
	struct timespec t0;
	int i, loaded = 0, made = 0;
	struct slot s;

	snprintf(id, sizeof(id), "bench:attach-%d%s%s", n, dash, tag);
	loaded = load_progs(progs, n, key, id);
	if (loaded < n)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		links[i] = attach(progs[i]);
		if (links[i] < 0) {
			printf("# attaching program %d of %d\n", i + 1, n);
			step_failed(id, "attach");
			goto out;
		}
		made++;
	}
	attach_ms = ms_since(&t0);
	if (labtarget_param("fns", 1, buf, sizeof(buf))) {
		result("fail", id, "cannot drive labtarget's fns: %s", strerror(errno));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		close(links[i]);
	detach_ms = ms_since(&t0);
	made = 0;
	printf("# bench: attach-%d%s%s %.1f %.1f\n", n, dash, tag, attach_ms, attach_ms);
	printf("# bench: detach-%d%s%s %.1f %.1f\n", n, dash, tag, detach_ms, detach_ms);
	/* detached: a second round of calls must not be counted */
	if (labtarget_param("fns", 1, buf, sizeof(buf))) {
		result("fail", id, "cannot drive labtarget's fns: %s", strerror(errno));
		goto out;
	}
	s = slot(key);
	if (s.count != (uint64_t)n)
		result("fail", id, "%llu runs counted, want %d (one per attached function)",
		       (unsigned long long)s.count, n);
	else
		result("ok", id, NULL);
out:
	for (i = 0; i < made; i++)
		close(links[i]);
	for (i = 0; i < loaded; i++)
		close(progs[i]);
}

#define STORM_CPUS	64

/* What the storm's callers share with it */
struct storm_shared {
	int stop;
	unsigned long rounds[STORM_CPUS];	/* fns=1 writes done, per CPU */
};

/*
 * Stop the callers and reap them: the rounds they made, or 0 if one
 * failed. @ncpu callers were started; one already reaped has pid 0.
 */
static unsigned long storm_stop(struct storm_shared *sh, pid_t *pids, int ncpu)
{
	unsigned long total = 0;
	int cpu, status, bad = 0;

	((volatile struct storm_shared *)sh)->stop = 1;
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (!pids[cpu]) {
			bad = 1;
			continue;
		}
		if (waitpid(pids[cpu], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("# caller on CPU %d failed\n", cpu);
			bad = 1;
		}
		total += sh->rounds[cpu];
	}
	return bad ? 0 : total;
}

/*
 * A process pinned to each CPU calls every labtarget function, round
 * after round (each write of fns=1 calls each once), until told to stop.
 * Returns once each has made a round, or -1 with none left running if
 * one could not start or died before its first round.
 */
static int storm_callers(struct storm_shared *sh, pid_t *pids, int ncpu)
{
	char buf[64];
	int cpu, status;

	memset(sh, 0, sizeof(*sh));
	for (cpu = 0; cpu < ncpu; cpu++) {
		pids[cpu] = fork();
		if (pids[cpu] < 0) {
			printf("# cannot start the caller on CPU %d: %s\n", cpu,
			       strerror(errno));
			storm_stop(sh, pids, cpu);
			return -1;
		}
		if (pids[cpu] == 0) {
			cpu_set_t set;
			int fd;

			/*
			 * The parent's links are the parent's: a copy of their
			 * fds here would keep them attached after it closes
			 * its own, until this caller exits.
			 */
			for (fd = 3; fd < 2 * ATTACH_MAX + 64; fd++)
				close(fd);
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(2);
			while (!((volatile struct storm_shared *)sh)->stop) {
				if (labtarget_param("fns", 1, buf, sizeof(buf)))
					_exit(3);
				((volatile struct storm_shared *)sh)->rounds[cpu]++;
			}
			_exit(0);
		}
	}
	/* every caller under way before anything is detached */
	for (cpu = 0; cpu < ncpu; cpu++) {
		while (!((volatile struct storm_shared *)sh)->rounds[cpu]) {
			if (waitpid(pids[cpu], &status, WNOHANG) == pids[cpu]) {
				printf("# caller on CPU %d ended before its first round (status %#x)\n",
				       cpu, status);
				pids[cpu] = 0;
				storm_stop(sh, pids, ncpu);
				return -1;
			}
			usleep(1000);
		}
	}
	return 0;
}

/*
 * attach-storm N: an fentry program on each of labtarget_fn000() to
 * labtarget_fn<N-1>(), each counting in a map slot of its own, all
 * attached; then, with a caller on every CPU calling every function
 * round after round, the links are closed in a random order: the first
 * half during one storm of calls, the second during another. A program
 * attached through a storm must count every call of its function made
 * in it, exactly: the other functions' detaches patch sites and change
 * the ops their trampolines share while it is called. A detached one
 * must count no call after its detach. Prints its seed, the calls and the
 * detach times, and one result.
 */
int attach_storm(int n)
{
	static int progs[ATTACH_MAX], links[ATTACH_MAX], order[ATTACH_MAX];
	static uint64_t before[ATTACH_MAX];
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), saved = map_fd, fd;
	int i, j, k, half, loaded = 0, made = 0, bad = 0;
	struct rlimit r = { 2 * ATTACH_MAX + 64, 2 * ATTACH_MAX + 64 };
	const char *id = "attach:storm";
	const char *why = "a call was lost, counted twice or counted after its detach";
	unsigned long rounds[2] = { 0, 0 };
	struct storm_shared *sh;
	pid_t pids[STORM_CPUS];
	struct timespec t0;
	struct slot s;
	char func[32];
	unsigned int seed = time(NULL);

	if (n < 2 || n > ATTACH_MAX || ncpu > STORM_CPUS) {
		result("fail", id, "%d functions on %d CPUs: want 2 to %d functions, at most %d CPUs",
		       n, ncpu, ATTACH_MAX, STORM_CPUS);
		return 1;
	}
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		result("fail", id, "cannot raise the open-files limit: %s", strerror(errno));
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct slot), ATTACH_MAX);
	if (sh == MAP_FAILED || fd < 0) {
		result("fail", id, "cannot map the shared counts or make the slots: %s",
		       strerror(errno));
		return 1;
	}
	/* each program counts in its own slot of its own map */
	map_fd = fd;
	loaded = load_progs(progs, n, -1, id);
	if (loaded < n) {
		bad = 1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		links[i] = attach(progs[i]);
		if (links[i] < 0) {
			printf("# attaching program %d of %d\n", i + 1, n);
			step_failed(id, "attach");
			bad = 1;
			goto out;
		}
		made++;
	}
	/* a random order of detach (Fisher-Yates) */
	srand(seed);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	printf("# %d functions, %d callers, seed %u\n", n, ncpu, seed);

	half = n / 2;
	for (k = 0; k < 2; k++) {
		int from = k ? half : 0, to = k ? n : half;

		for (i = 0; i < n; i++) {
			s = slot(i);
			before[i] = s.count;
		}
		if (storm_callers(sh, pids, ncpu)) {
			why = "a caller of the functions failed";
			bad = 1;
			goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = from; i < to; i++) {
			close(links[order[i]]);
			links[order[i]] = -1;
		}
		printf("# storm %d: %d links closed in %.1f ms while calls ran\n", k + 1,
		       to - from, ms_since(&t0));
		rounds[k] = storm_stop(sh, pids, ncpu);
		if (!rounds[k]) {
			why = "a caller of the functions failed";
			bad = 1;
			goto out;
		}
		/* attached all through this storm: every call counted, once */
		for (i = to; i < n; i++) {
			s = slot(order[i]);
			if (s.count - before[order[i]] != rounds[k]) {
				printf("# labtarget_fn%03d: %llu of %lu calls counted\n",
				       order[i], (unsigned long long)(s.count - before[order[i]]),
				       rounds[k]);
				bad = 1;
			}
		}
		/* detached in it: at most every call, and none from now on */
		for (i = from; i < to; i++) {
			s = slot(order[i]);
			if (s.count - before[order[i]] > rounds[k]) {
				printf("# labtarget_fn%03d: %llu counted, only %lu calls\n",
				       order[i], (unsigned long long)(s.count - before[order[i]]),
				       rounds[k]);
				bad = 1;
			}
			before[order[i]] = s.count;
		}
		if (labtarget_param("fns", 1, func, sizeof(func))) {
			printf("# labtarget's fns: %s\n", strerror(errno));
			why = "cannot drive labtarget's fns";
			bad = 1;
			goto out;
		}
		for (i = from; i < to; i++) {
			s = slot(order[i]);
			if (s.count != before[order[i]]) {
				printf("# labtarget_fn%03d counted after its detach\n", order[i]);
				bad = 1;
			}
		}
	}
	printf("# calls per function: %lu in the first storm, %lu in the second\n",
	       rounds[0], rounds[1]);
out:
	map_fd = saved;
	for (i = 0; i < made; i++)
		if (links[i] >= 0)
			close(links[i]);
	for (i = 0; i < loaded; i++)
		close(progs[i]);
	close(fd);
	munmap(sh, sizeof(*sh));
	if (!bad)
		result("ok", id, NULL);
	else if (loaded == n && made == n)
		result("fail", id, "%s", why);
	return failed;
}

/*
 * attach-bench N...: one round of each N (at most ATTACH_MAX), each on
 * a map slot of its own. A process may hold 1024 files by default: the
 * limit is raised to hold 2 * ATTACH_MAX and the map fds.
 */
int attach_bench(int argc, char **argv)
{
	struct rlimit r = { 2 * ATTACH_MAX + 64, 2 * ATTACH_MAX + 64 };
	int i, n;

	if (setrlimit(RLIMIT_NOFILE, &r)) {
		result("fail", "bench:attach", "cannot raise the open-files limit: %s",
		       strerror(errno));
		return 1;
	}
	for (i = 0; i < argc; i++) {
		n = atoi(argv[i]);
		if (n < 1 || n > ATTACH_MAX) {
			result("fail", "bench:attach", "%s functions: want 1 to %d", argv[i],
			       ATTACH_MAX);
			continue;
		}
		attach_round(n, i);
	}
	return failed;
}
