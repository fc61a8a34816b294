// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: the time to attach and detach many BPF trampolines at once,
 * one program and one link per function as bpftrace and Tetragon make
 * them (make bench-attach, guest/suites/t-attach.sh).
 */
#include "bpftest.h"
#include <sys/resource.h>

#define ATTACH_MAX	1000	/* labtarget_fn000() .. labtarget_fn999() */

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
 * (both fields the wall time, for scripts/bench/median.sh) and a result.
 */
static void attach_round(int n, int key)
{
	static int progs[ATTACH_MAX], links[ATTACH_MAX];
	char id[32], func[32], buf[64];
	double attach_ms, detach_ms;
	struct timespec t0;
	int i, loaded = 0, made = 0;
	struct slot s;

	snprintf(id, sizeof(id), "bench:attach-%d", n);
	for (i = 0; i < n; i++) {
		snprintf(func, sizeof(func), "labtarget_fn%03d", i);
		progs[i] = load_module_prog("labtarget", func, BPF_TRACE_FENTRY, 0, key, 0);
		if (progs[i] < 0) {
			printf("# loading the program on %s\n", func);
			step_failed(id, "load");
			goto out;
		}
		loaded++;
	}
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
	printf("# bench: attach-%d %.1f %.1f\n", n, attach_ms, attach_ms);
	printf("# bench: detach-%d %.1f %.1f\n", n, detach_ms, detach_ms);
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
