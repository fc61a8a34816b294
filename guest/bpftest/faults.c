// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: every attach path of BPF under fault injection (make
 * check-faults), as syzkaller reaches error paths. Each entry point is
 * called with this thread's first, second, ... allocation failed
 * (/proc/thread-self/fail-nth), until a call makes fewer allocations than
 * the one to fail and so runs untouched. An attach must have succeeded
 * fully (the program counts the calls) or failed with an errno and left
 * enabled_functions and the kprobes list as they were (no call counted);
 * a detach, a link's close or a module's unload, always detaches. A
 * thread of labtarget's on another CPU calls labtarget_add() throughout.
 * Reports on the console (WARN, BUG, KASAN) fail the run on the host.
 */
#include "bpftest.h"
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#define SWEEP_MAX	2000
#define CALLS_KEY	25

static int fail_fd = -1;

/* Fail this thread's @n-th allocation from the next system call on */
static int fail_nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fail_fd, buf, len, 0) == len ? 0 : -1;
}

/* Whether the allocation to fail was failed; none is after this */
static int fail_nth_injected(void)
{
	char buf[16] = "";

	if (pread(fail_fd, buf, sizeof(buf) - 1, 0) <= 0)
		buf[0] = '?';
	fail_nth_set(0);
	return buf[0] == '0';
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return 0;
}

/* What the kernel says is attached: compared before and after a step */
struct attached {
	char enabled[65536];
	char kprobes[8192];
};

static struct attached before, after;

static void attached_read(struct attached *a)
{
	read_file("/sys/kernel/tracing/enabled_functions", a->enabled, sizeof(a->enabled));
	read_file("/sys/kernel/debug/kprobes/list", a->kprobes, sizeof(a->kprobes));
}

struct sweep {
	const char *id;
	/* the entry point: an attach returns its fd or -1, a detach 0 */
	int (*call)(struct sweep *s);
	/* no fault: the state the call starts from (a link to close) */
	int (*setup)(struct sweep *s);
	int attach;		/* 1: an attach, 0: a detach */
	int prog;		/* the program to attach */
	int link;		/* the link setup made, for a detach */
	const char *func;	/* what the program traces */
	const char *module;	/* for the module sweeps: the .ko */
	int kmulti;
	int bad;
};

/* the runs of the sweep's program, in slot CALLS_KEY */
static uint64_t runs(void)
{
	return slot(CALLS_KEY).count;
}

static void sweep_fail(struct sweep *s, unsigned int n, const char *fmt, ...)
{
	va_list ap;

	if (!s->bad)
		printf("fail %s at allocation %u: ", s->id, n);
	else
		printf("# %s at allocation %u: ", s->id, n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	s->bad++;
	failed = 1;
}

/* The program counts labtarget_add()'s calls, ours and the thread's */
static int counting(void)
{
	uint64_t r = runs();
	int sum, rejected;

	if (labtarget_call(3, &sum, &rejected))
		return -1;
	return runs() >= r + 3;
}

/*
 * Nothing counts any more. A call that passed the site before the detach
 * returned may still run the program later: its task preempted in the
 * trampoline, or its vCPU not scheduled by a busy host (the two host CPUs
 * also run other guests and builds). Such calls are a few and then stop;
 * a site that still calls the trampoline counts labtarget's caller's and
 * our own calls in every round. Quiet in one of 20 rounds of 100 ms is
 * detached; a late quiet is said, with its round.
 */
static int silent(const char *id)
{
	uint64_t r;
	int sum, rejected, round;

	for (round = 1; round <= 20; round++) {
		usleep(50000);
		r = runs();
		if (labtarget_call(3, &sum, &rejected))
			return -1;
		usleep(50000);
		if (runs() == r) {
			if (round > 1)
				printf("# %s: quiet only in round %d\n", id, round);
			return 1;
		}
	}
	return 0;
}

static int link_attach(struct sweep *s)
{
	if (s->kmulti) {
		uint64_t addr = ksym_addr(s->func), cookie = 0;

		return kmulti_attach(s->prog, 0, &addr, &cookie, 1);
	}
	return attach(s->prog);
}

static int link_close(struct sweep *s)
{
	return close(s->link);
}

static int setup_nothing(struct sweep *s)
{
	return 0;
}

static int setup_link(struct sweep *s)
{
	s->link = link_attach(s);
	return s->link < 0 ? -1 : 0;
}

/*
 * Why a program that is attached does not count: its recursion misses
 * (the trampoline entered, the program skipped) and the trampoline
 * images kallsyms lists (the site's may be an older one)
 */
static void show_not_counting(const char *id, int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;
	char line[256];
	FILE *f;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
		printf("# %s: program id %u, recursion misses %llu\n", id, info.id,
		       (unsigned long long)info.recursion_misses);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " bpf_trampoline_"))
			printf("#   %s", line);
	fclose(f);
}

/* After the step at allocation @n, which returned @ret (errno @err) */
static void check_link(struct sweep *s, unsigned int n, int ret, int err)
{
	int attached = s->attach && ret >= 0;

	if (attached) {
		int c = counting();

		if (c < 0)
			sweep_fail(s, n, "attached, but labtarget's call failed: %s",
				   strerror(errno));
		if (!c)
			sweep_fail(s, n, "attached, but the program does not count the calls");
		if (c != 1) {
			show_records(s->func);
			show_not_counting(s->id, s->prog);
			/* the same a second later: late or never */
			sleep(1);
			printf("# %s: a second later the program %s\n", s->id,
			       counting() == 1 ? "counts them" : "still does not count them");
		}
		close(ret);
	} else if (s->attach && (!err || err == ENOTSUPP)) {
		sweep_fail(s, n, "failed with errno %d", err);
	}
	if (silent(s->id) != 1)
		sweep_fail(s, n, "detached, but the program still counts the calls");
	attached_read(&after);
	if (strcmp(before.enabled, after.enabled))
		sweep_fail(s, n, "enabled_functions differs from before");
	if (strcmp(before.kprobes, after.kprobes))
		sweep_fail(s, n, "the kprobes list differs from before");
}

/*
 * Load (finit_module) and unload (delete_module) a module that registers
 * a direct trampoline in its init and unregisters it in its exit, as the
 * samples do: the unload must always take it away, the load must fail
 * with nothing left or work.
 */
static char module_name[64];

static int module_load(struct sweep *s)
{
	return module_insert(s->module);
}

static int module_unload(struct sweep *s)
{
	return module_remove(module_name);
}

static int setup_module(struct sweep *s)
{
	return module_load(s);
}

static void check_module(struct sweep *s, unsigned int n, int ret, int err)
{
	if (s->attach && ret == 0 && module_unload(s))
		sweep_fail(s, n, "loaded, but cannot be unloaded: %s", strerror(errno));
	else if (s->attach && ret && !err)
		sweep_fail(s, n, "failed with no errno");
	else if (!s->attach && ret)
		sweep_fail(s, n, "not unloaded: %s", strerror(err));
	attached_read(&after);
	if (strcmp(before.enabled, after.enabled))
		sweep_fail(s, n, "enabled_functions differs from before");
}

static void sweep(struct sweep *s)
{
	unsigned int n, nfailed = 0;
	int ret, err, injected;

	s->bad = 0;
	attached_read(&before);
	for (n = 1; n <= SWEEP_MAX && s->bad < 5; n++) {
		if (s->setup(s)) {
			sweep_fail(s, n, "setup: %s", strerror(errno));
			break;
		}
		fail_nth_set(n);
		ret = s->call(s);
		err = errno;
		injected = fail_nth_injected();
		if (ret < 0)
			nfailed++;
		if (s->module)
			check_module(s, n, ret, ret < 0 ? err : 0);
		else
			check_link(s, n, ret, ret < 0 ? err : 0);
		if (!injected) {
			if (ret < 0)
				sweep_fail(s, n, "nothing failed, yet: %s", strerror(err));
			break;
		}
	}
	if (n > SWEEP_MAX)
		sweep_fail(s, n, "still failing allocations after %d", SWEEP_MAX);
	printf("# %s: %u injection points, %u of them failed the call\n", s->id, n - 1, nfailed);
	if (!s->bad)
		result("ok", s->id, NULL);
}

static void sweep_prog(const char *kind, const char *func, int prog, int kmulti)
{
	char id[64];
	struct sweep s = { .prog = prog, .func = func, .kmulti = kmulti };

	snprintf(id, sizeof(id), "faults:%s-attach", kind);
	s.id = id;
	s.attach = 1;
	s.call = link_attach;
	s.setup = setup_nothing;
	sweep(&s);

	snprintf(id, sizeof(id), "faults:%s-close", kind);
	s.attach = 0;
	s.call = link_close;
	s.setup = setup_link;
	sweep(&s);
}

static void sweep_module(const char *ko)
{
	const char *base = strrchr(ko, '/') ? strrchr(ko, '/') + 1 : ko;
	struct sweep s = { .module = ko };
	char *p;

	snprintf(module_name, sizeof(module_name), "%s", base);
	for (p = module_name; *p; p++)
		if (*p == '-')
			*p = '_';
	if ((p = strstr(module_name, ".ko")))
		*p = 0;

	s.id = "faults:module-load";
	s.attach = 1;
	s.call = module_load;
	s.setup = setup_nothing;
	sweep(&s);

	s.id = "faults:module-unload";
	s.attach = 0;
	s.call = module_unload;
	s.setup = setup_module;
	sweep(&s);
}

/*
 * usage: bpftest HAS_DIRECT faults MODULE.ko: the sweeps, labtarget
 * loaded, MODULE a module whose init registers a direct trampoline
 */
static const struct sweep_kind {
	const char *kind, *func;
	int type;
} kinds[] = {
	{ "fentry", "labtarget_add", BPF_TRACE_FENTRY },
	{ "fexit", "labtarget_add", BPF_TRACE_FEXIT },
	/* fmod_ret only where error injection is allowed */
	{ "fmod_ret", "labtarget_check", BPF_MODIFY_RETURN },
	{ "kprobe-multi", "labtarget_add", BPF_TRACE_KPROBE_MULTI },
};

int faults(const char *ko)
{
	char id[64];
	cpu_set_t set;
	int prog, k;

	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_fd < 0) {
		result("skip", "faults", "no /proc/thread-self/fail-nth: no CONFIG_FAULT_INJECTION");
		return 0;
	}
	/* on CPU 0: labtarget's caller thread is on another */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);

	for (k = 0; k < 4; k++) {
		const struct sweep_kind *sk = &kinds[k];

		if (sk->type == BPF_TRACE_KPROBE_MULTI && !ksym_addr("register_fprobe_ips")) {
			result("skip", "faults:kprobe-multi", "this kernel has no fprobe");
			continue;
		}
		if (sk->type == BPF_TRACE_KPROBE_MULTI)
			prog = load_kmulti_prog(CALLS_KEY);
		else
			prog = load_module_prog("labtarget", sk->func, sk->type,
						0, CALLS_KEY, 0);
		if (prog < 0) {
			snprintf(id, sizeof(id), "faults:%s", sk->kind);
			step_failed(id, "load");
			continue;
		}
		sweep_prog(sk->kind, sk->func, prog, sk->type == BPF_TRACE_KPROBE_MULTI);
		close(prog);
	}

	if (ko)
		sweep_module(ko);
	return failed;
}

#define FEI "/sys/kernel/debug/fail_function"
#define OVERRIDE_KEY	28

/*
 * A perf kprobe on @func with BPF program @prog: the event's fd, or -1.
 * The kprobe PMU's type is read from sysfs; config1 names the function,
 * config2 is the offset.
 */
static int perf_kprobe(int prog, const char *func)
{
	struct perf_event_attr attr;
	char buf[32] = "";
	int fd;

	if (read_file("/sys/bus/event_source/devices/kprobe/type", buf, sizeof(buf)))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = atoi(buf);
	attr.config1 = (uintptr_t)func;
	attr.config2 = 0;
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * labtarget_check() overridden to return -12 at entry: by a kprobe.multi
 * program's bpf_override_return() where the kernel has both, else by a
 * kprobe program's (a kprobe on ftrace whose handler moves the ip), else
 * by fail_function (a kprobe too). Returns the
 * kprobe.multi link, 0 for fail_function, -1 if neither is there, -2 if
 * fail_function refused the function.
 */
static int override_on(const char **how)
{
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, -12),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_override_return),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	uint64_t addr = ksym_addr("labtarget_check"), cookie = 0;
	int prog, link;

	prog = prog_load(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, 0,
			 insns, sizeof(insns) / sizeof(insns[0]));
	if (prog >= 0) {
		link = kmulti_attach(prog, 0, &addr, &cookie, 1);
		close(prog);
		if (link >= 0) {
			*how = "a kprobe.multi program's bpf_override_return()";
			return link;
		}
	}
	/* a kprobe (on ftrace where the function's site is) by perf */
	prog = prog_load(BPF_PROG_TYPE_KPROBE, 0, 0, 0,
			 insns, sizeof(insns) / sizeof(insns[0]));
	if (prog >= 0) {
		link = perf_kprobe(prog, "labtarget_check");
		close(prog);
		if (link >= 0) {
			*how = "a kprobe program's bpf_override_return()";
			return link;
		}
	}
	/* the debugfs files take unsigned values: -12 as 64 bits */
	static const char * const fei[][2] = {
		{ FEI "/inject", "labtarget_check" },
		{ FEI "/labtarget_check/retval", "0xfffffffffffffff4" },
		{ FEI "/probability", "100" },
		{ FEI "/interval", "1" },
		{ FEI "/times", "-1" },
		{ FEI "/verbose", "0" },
	};
	unsigned int i;

	if (access(FEI, F_OK))
		return -1;
	for (i = 0; i < sizeof(fei) / sizeof(fei[0]); i++) {
		if (write_str(fei[i][0], fei[i][1])) {
			printf("# fail_function: cannot write %s to %s: %s\n",
			       fei[i][1], fei[i][0], strerror(errno));
			return -2;
		}
	}
	*how = "fail_function";
	return 0;
}

static void override_off(int link)
{
	if (link > 0)
		close(link);
	else
		write_str(FEI "/inject", "\n");
}

/*
 * fexit on labtarget_check() while something else overrides it at entry
 * (a callback of the ftrace trampoline that moves the ip): the override
 * takes the call over, the function does not run and the fexit program
 * does not see it; gone, both are as before. No architecture may "call"
 * the moved address as the function from the trampoline's frame.
 */
void test_override(const char *id)
{
	int prog, link, ovr, sum, rejected;
	const char *how = NULL;
	uint64_t before;

#ifdef __mips__
	/* its override is a break at the entry, before the site */
	result("skip", id, "MIPS64's site follows the prologue: no callback of its ftrace moves the ip");
	return;
#endif
	prog = load_module_prog("labtarget", "labtarget_check", BPF_TRACE_FEXIT,
				WORD_RET, OVERRIDE_KEY, 0);
	link = attach_or_fail(id, prog);
	if (link < 0)
		return;
	ovr = override_on(&how);
	if (ovr == -1) {
		result("skip", id, "no kprobe.multi override (BPF_KPROBE_OVERRIDE, FPROBE) and no fail_function (FAIL_FUNCTION)");
		goto out;
	}
	if (ovr < 0) {
		result("fail", id, "fail_function refused labtarget_check()");
		goto out;
	}
	printf("# %s: the override is %s\n", id, how);
	{
		/* where the kprobe sits: [FTRACE] if on the function's site */
		static char list[8192];
		char *l;

		read_file("/sys/kernel/debug/kprobes/list", list, sizeof(list));
		for (l = strtok(list, "\n"); l; l = strtok(NULL, "\n"))
			if (strstr(l, "labtarget_check"))
				printf("# %s: kprobe %s\n", id, l);
	}
	before = slot(OVERRIDE_KEY).count;
	if (labtarget_call(3, &sum, &rejected)) {
		result("fail", id, "cannot drive labtarget: %s", strerror(errno));
		override_off(ovr);
		goto out;
	}
	override_off(ovr);
	if (rejected != 3 || sum != 6 || slot(OVERRIDE_KEY).count != before) {
		result("fail", id, "overridden: %d of 3 calls overridden, sum %d, fexit saw %llu; want 3, 6, 0",
		       rejected, sum, (unsigned long long)(slot(OVERRIDE_KEY).count - before));
		goto out;
	}
	before = slot(OVERRIDE_KEY).count;
	if (labtarget_call(3, &sum, &rejected) || rejected ||
	    slot(OVERRIDE_KEY).count != before + 3)
		result("fail", id, "after the override: %d rejected, fexit saw %llu; want 0, 3",
		       rejected, (unsigned long long)(slot(OVERRIDE_KEY).count - before));
	else
		result("ok", id, NULL);
out:
	close(link);
	close(prog);
}
