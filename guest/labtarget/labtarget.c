// SPDX-License-Identifier: GPL-2.0
/*
 * labtarget: functions in a module, for the lab's BPF tests to attach
 * fentry, fexit and fmod_ret programs to (guest/bpftest/).
 *
 * Writing N to /sys/module/labtarget/parameters/call calls, for i from 0
 * to N - 1, labtarget_add(i, 1) and labtarget_check(i); reading it gives
 * the sum of what labtarget_add() returned and how many labtarget_check()
 * calls returned non-zero (only an fmod_ret program makes them).
 *
 * Writing N to .../parameters/args makes N calls, for i from 0 to N - 1,
 * of each function of many or large arguments, with values derived from
 * i (labtarget_args_of() below, mirrored by guest/bpftest/); reading it
 * gives what each returned, summed over the calls: a trampoline that
 * calls the function with an argument out of place changes the sums.
 *
 * Writing an address to .../parameters/deref calls labtarget_deref() with
 * it, for a tracing program to follow.
 *
 * Writing N to .../parameters/errno calls labtarget_errno() N times, its
 * result taken as a long; reading it gives how many were negative and the
 * last (below).
 *
 * Writing N to .../parameters/fns calls each of the LABTARGET_NFNS
 * functions labtarget_fn000() to labtarget_fn999() N times, for the
 * kprobe.multi tests that attach to all of them at once; reading it gives
 * the sum of what they returned.
 *
 * Writing N to .../parameters/insns (riscv64) calls labtarget_insns(),
 * a block of LABTARGET_NINSNS instructions for kprobes, N times.
 *
 * Writing N to .../parameters/icache_flush (riscv64) calls
 * flush_icache_all() N times, for the hazards suite.
 *
 * Writing labtarget_add to .../parameters/redirect_ops sends its calls to
 * labtarget_add_alt(), which returns 1000 more, through an IPMODIFY
 * ftrace_ops, as livepatch does.
 *
 * Writing a function's name to .../parameters/regs_ops attaches an
 * ftrace_ops asking for pt_regs (SAVE_REGS where the architecture has
 * them, none where it has only ftrace_regs) to that function, for the
 * sharing tests (guest/suites/t-sharing.sh); writing "-" detaches it. Reading it
 * gives the calls the ops saw since it was attached; .../regs_missing
 * counts the calls it was given without the pt_regs it asked for, which
 * ftrace must never make.
 */
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/version.h>

#include <asm/cacheflush.h>

int labtarget_add(int a, int b);
int labtarget_check(int x);

/*
 * Each function is opaque to the compiler's interprocedural passes: its
 * arguments must be passed and its result used as returned, or a BPF
 * program on it would see and change nothing. clang (LLVM's IPSCCP)
 * otherwise folds labtarget_check()'s constant 0 into the caller and
 * leaves the unused x in w0 unset.
 */
noinline int labtarget_add(int a, int b)
{
	asm volatile ("" : "+r" (a) : "r" (b));
	return a + b;
}

noinline int labtarget_check(int x)
{
	int ret = 0;

	asm volatile ("" : "+r" (ret) : "r" (x));
	return ret;
}
ALLOW_ERROR_INJECTION(labtarget_check, ERRNO);

/*
 * An int function whose caller takes its result as a long, as the
 * kernel's callers of an error-returning function do: an fmod_ret
 * program that returns an errno in 32 bits (BPF's "w0 = -22", which
 * zero-extends) must still be negative there. ELFv2 (ppc64) leaves the
 * extension to the callee, here the trampoline. Writing N to
 * .../parameters/errno makes N calls; reading it gives how many results
 * were negative, and the last one.
 */
int labtarget_errno(int x);
noinline int labtarget_errno(int x)
{
	int ret = 0;

	asm volatile ("" : "+r" (ret) : "r" (x));
	return ret;
}
ALLOW_ERROR_INJECTION(labtarget_errno, ERRNO);

static int (*volatile errno_fn)(int) = labtarget_errno;
static unsigned int errno_negative;
static long errno_last;

static int errno_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;
	long r;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	errno_negative = 0;
	for (i = 0; i < n; i++) {
		r = errno_fn(i);
		if (r < 0)
			errno_negative++;
		errno_last = r;
	}
	return 0;
}

static int errno_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u %ld\n", errno_negative, errno_last);
}

static const struct kernel_param_ops errno_ops = {
	.set = errno_set,
	.get = errno_get,
};
module_param_cb(errno, &errno_ops, NULL, 0644);
MODULE_PARM_DESC(errno, "write N: N calls of labtarget_errno(); read: the negative results and the last");

/*
 * A function given a pointer it does not follow, for a tracing program
 * that does (a BPF_PROBE_MEM load): writing an address to
 * .../parameters/deref calls labtarget_deref() with it; reading gives the
 * calls made. A bad address must give the program 0, not an oops.
 */
struct labtarget_pair;
u64 labtarget_deref(struct labtarget_pair *p);
noinline u64 labtarget_deref(struct labtarget_pair *p)
{
	unsigned long v = (unsigned long)p;

	asm volatile ("" : "+r" (v));
	return v;
}

static u64 (*volatile deref_fn)(struct labtarget_pair *) = labtarget_deref;
static unsigned long deref_calls;

static int deref_set(const char *val, const struct kernel_param *kp)
{
	unsigned long addr;
	int ret;

	ret = kstrtoul(val, 0, &addr);
	if (ret)
		return ret;
	deref_fn((struct labtarget_pair *)addr);
	deref_calls++;
	return 0;
}

static int deref_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", deref_calls);
}

static const struct kernel_param_ops deref_ops = {
	.set = deref_set,
	.get = deref_get,
};
module_param_cb(deref, &deref_ops, NULL, 0644);
MODULE_PARM_DESC(deref, "write ADDR: labtarget_deref(ADDR), which a tracing program may follow; read: the calls");

/*
 * Functions whose arguments take more than the argument registers of
 * some architectures, or are structures passed by value: slots, as BPF
 * programs index them, 0-11 for labtarget_args12(), 0-5 for
 * labtarget_structs() (a, p.lo, p.hi, t's 12 bytes from the start of two
 * slots, c) and 0-9 for labtarget_split(), whose p finds only the 8th
 * argument register free on arm64 and riscv64 (and is passed by
 * reference on s390x, as t is).
 */
struct labtarget_pair {
	u64 lo, hi;
};

struct labtarget_triple {
	u32 a, b, c;
};

u64 labtarget_args12(u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
		     u64 a7, u64 a8, u64 a9, u64 a10, u64 a11, u64 a12);
u64 labtarget_structs(int a, struct labtarget_pair p,
		      struct labtarget_triple t, int c);
u64 labtarget_split(u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
		    u64 a7, struct labtarget_pair p, u64 a9);

/* each argument weighed by its place, so that a swap shows */
noinline u64 labtarget_args12(u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
			      u64 a7, u64 a8, u64 a9, u64 a10, u64 a11, u64 a12)
{
	return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 +
	       8 * a8 + 9 * a9 + 10 * a10 + 11 * a11 + 12 * a12;
}

noinline u64 labtarget_structs(int a, struct labtarget_pair p,
			       struct labtarget_triple t, int c)
{
	return (u64)a + 2 * p.lo + 3 * p.hi + 4 * (u64)t.a + 5 * (u64)t.b +
	       6 * (u64)t.c + 7 * (u64)c;
}

noinline u64 labtarget_split(u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
			     u64 a7, struct labtarget_pair p, u64 a9)
{
	return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 +
	       8 * p.lo + 9 * p.hi + 10 * a9;
}

/*
 * Called through pointers the compiler cannot see through, so that it
 * can neither specialise the functions for these calls (a .constprop
 * clone would take the calls and leave the traced symbol idle) nor pass
 * their arguments other than as the ABI says.
 */
static u64 (*volatile args12_fn)(u64, u64, u64, u64, u64, u64,
				 u64, u64, u64, u64, u64, u64) = labtarget_args12;
static u64 (*volatile structs_fn)(int, struct labtarget_pair,
				  struct labtarget_triple, int) = labtarget_structs;
static u64 (*volatile split_fn)(u64, u64, u64, u64, u64, u64, u64,
				struct labtarget_pair, u64) = labtarget_split;

/* argument k (1-12) of call i: every byte of the 64 bits in play */
static u64 labtarget_args_of(unsigned int k, unsigned int i)
{
	return 0x0101010101010101ULL * k + ((u64)i << 20) + i;
}

static u64 args12_sum, structs_sum, split_sum;

static int args_set(const char *val, const struct kernel_param *kp)
{
	struct labtarget_triple t;
	struct labtarget_pair p;
	unsigned int i, n;
	u64 v[13];
	int k, ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > 1000000)
		return -EINVAL;
	args12_sum = 0;
	structs_sum = 0;
	split_sum = 0;
	for (i = 0; i < n; i++) {
		for (k = 1; k <= 12; k++)
			v[k] = labtarget_args_of(k, i);
		args12_sum += args12_fn(v[1], v[2], v[3], v[4], v[5], v[6],
					v[7], v[8], v[9], v[10], v[11], v[12]);
		p.lo = v[2];
		p.hi = v[3];
		t.a = v[4];
		t.b = v[5];
		t.c = v[6];
		structs_sum += structs_fn(v[1], p, t, v[7]);
		p.lo = v[8];
		p.hi = v[9];
		split_sum += split_fn(v[1], v[2], v[3], v[4], v[5], v[6], v[7],
				      p, v[10]);
	}
	return 0;
}

static int args_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu %llu %llu\n", args12_sum, structs_sum,
			  split_sum);
}

static const struct kernel_param_ops args_ops = {
	.set = args_set,
	.get = args_get,
};
module_param_cb(args, &args_ops, NULL, 0644);
MODULE_PARM_DESC(args, "write N: N calls of each many-argument function; read: the sums of their results");

/* LABTARGET_NFNS one-line functions, labtarget_fn000() to labtarget_fn999() */
#define LABTARGET_NFNS 1000
#define LT_FN(n)							\
	int labtarget_fn##n(int x);					\
	noinline int labtarget_fn##n(int x)				\
	{								\
		asm volatile ("" : "+r" (x));				\
		return x + 1;						\
	}
#define LT_FN10(n)	LT_FN(n##0) LT_FN(n##1) LT_FN(n##2) LT_FN(n##3) LT_FN(n##4) \
			LT_FN(n##5) LT_FN(n##6) LT_FN(n##7) LT_FN(n##8) LT_FN(n##9)
#define LT_FN100(n)	LT_FN10(n##0) LT_FN10(n##1) LT_FN10(n##2) LT_FN10(n##3) \
			LT_FN10(n##4) LT_FN10(n##5) LT_FN10(n##6) LT_FN10(n##7) \
			LT_FN10(n##8) LT_FN10(n##9)
LT_FN100(0) LT_FN100(1) LT_FN100(2) LT_FN100(3) LT_FN100(4)
LT_FN100(5) LT_FN100(6) LT_FN100(7) LT_FN100(8) LT_FN100(9)

#define LT_PTR(n)	labtarget_fn##n,
#define LT_PTR10(n)	LT_PTR(n##0) LT_PTR(n##1) LT_PTR(n##2) LT_PTR(n##3) LT_PTR(n##4) \
			LT_PTR(n##5) LT_PTR(n##6) LT_PTR(n##7) LT_PTR(n##8) LT_PTR(n##9)
#define LT_PTR100(n)	LT_PTR10(n##0) LT_PTR10(n##1) LT_PTR10(n##2) LT_PTR10(n##3) \
			LT_PTR10(n##4) LT_PTR10(n##5) LT_PTR10(n##6) LT_PTR10(n##7) \
			LT_PTR10(n##8) LT_PTR10(n##9)

/* called through pointers the compiler must reload, as for args12_fn */
static int (*volatile labtarget_fns[LABTARGET_NFNS])(int) = {
	LT_PTR100(0) LT_PTR100(1) LT_PTR100(2) LT_PTR100(3) LT_PTR100(4)
	LT_PTR100(5) LT_PTR100(6) LT_PTR100(7) LT_PTR100(8) LT_PTR100(9)
};

static u64 fns_sum;

static int fns_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n, f;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > 1000)
		return -EINVAL;
	fns_sum = 0;
	for (i = 0; i < n; i++)
		for (f = 0; f < LABTARGET_NFNS; f++)
			fns_sum += labtarget_fns[f](f);
	return 0;
}

static int fns_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n", fns_sum);
}

static const struct kernel_param_ops fns_ops = {
	.set = fns_set,
	.get = fns_get,
};
module_param_cb(fns, &fns_ops, NULL, 0644);
MODULE_PARM_DESC(fns, "write N: call each of the 1000 labtarget_fnNNN() N times; read: the sum of their results");

static int sum, rejected;

/*
 * What labtarget_add() becomes under redirect_ops (below), as a livepatch
 * replaces a function: its result is 1000 more.
 */
int labtarget_add_alt(int a, int b);
noinline int labtarget_add_alt(int a, int b)
{
	asm volatile ("" : "+r" (a) : "r" (b));
	return a + b + 1000;
}

static int call_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > 1000000)
		return -EINVAL;
	sum = 0;
	rejected = 0;
	for (i = 0; i < n; i++) {
		sum += labtarget_add(i, 1);
		if (labtarget_check(i))
			rejected++;
	}
	return 0;
}

static int call_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d %d\n", sum, rejected);
}

static const struct kernel_param_ops call_ops = {
	.set = call_set,
	.get = call_get,
};
module_param_cb(call, &call_ops, NULL, 0644);
MODULE_PARM_DESC(call, "write N: make N calls; read: sum and rejections");

/*
 * The ftrace_ops below need the function tracer, which a riscv64 PREEMPT
 * kernel has only from the series' PREEMPT patch on (make check-bisect
 * builds this module at every patch).
 */
#ifdef CONFIG_FUNCTION_TRACER
static unsigned long regs_hits, regs_missing;
static bool regs_on;

static void notrace regs_func(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/* where the arch has pt_regs, a REGS user must be given them */
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && !ftrace_get_regs(fregs)) {
		WRITE_ONCE(regs_missing, regs_missing + 1);
		return;
	}
	WRITE_ONCE(regs_hits, regs_hits + 1);
}

/* Calls of the REGS ops without pt_regs, since the module was loaded */
module_param(regs_missing, ulong, 0444);
MODULE_PARM_DESC(regs_missing, "calls of the REGS ftrace_ops given no pt_regs");

/* SAVE_REGS where the arch has it; elsewhere the core accepts it as is */
static struct ftrace_ops regs_ops = {
	.func	= regs_func,
	.flags	= FTRACE_OPS_FL_SAVE_REGS |
		  FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED,
};

static DEFINE_MUTEX(regs_lock);

static int regs_set(const char *val, const struct kernel_param *kp)
{
	char name[KSYM_NAME_LEN];
	int ret = 0;

	strscpy(name, val, sizeof(name));
	strim(name);
	mutex_lock(&regs_lock);
	if (regs_on) {
		ret = unregister_ftrace_function(&regs_ops);
		ftrace_free_filter(&regs_ops);
		regs_on = false;
	}
	if (!ret && strcmp(name, "-")) {
		regs_hits = 0;
		ret = ftrace_set_filter(&regs_ops, name, strlen(name), 1);
		if (!ret)
			ret = register_ftrace_function(&regs_ops);
		if (ret)
			ftrace_free_filter(&regs_ops);
		regs_on = !ret;
	}
	mutex_unlock(&regs_lock);
	return ret;
}

static int regs_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(regs_hits));
}

static const struct kernel_param_ops regs_param_ops = {
	.set = regs_set,
	.get = regs_get,
};
module_param_cb(regs_ops, &regs_param_ops, NULL, 0644);
MODULE_PARM_DESC(regs_ops, "write FUNC: attach a REGS ftrace_ops, -: detach; read: its hits");

/*
 * A plain ftrace_ops, the cheapest there is (it only counts), for the
 * preempt suite: with it alone on a function, its site calls
 * ftrace_caller with this ops, and a caller spends a good part of each
 * call in ftrace_caller before it loads the ops. Writing a function's
 * name to .../parameters/plain_ops attaches it, "-" detaches it.
 */
static unsigned long plain_hits;
static bool plain_on;

static void notrace plain_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	WRITE_ONCE(plain_hits, plain_hits + 1);
}

static struct ftrace_ops plain_ops = {
	.func	= plain_func,
};

static int plain_set(const char *val, const struct kernel_param *kp)
{
	char name[KSYM_NAME_LEN];
	int ret = 0;

	strscpy(name, val, sizeof(name));
	strim(name);
	mutex_lock(&regs_lock);
	if (plain_on) {
		ret = unregister_ftrace_function(&plain_ops);
		ftrace_free_filter(&plain_ops);
		plain_on = false;
	}
	if (!ret && strcmp(name, "-")) {
		ret = ftrace_set_filter(&plain_ops, name, strlen(name), 1);
		if (!ret)
			ret = register_ftrace_function(&plain_ops);
		if (ret)
			ftrace_free_filter(&plain_ops);
		plain_on = !ret;
	}
	mutex_unlock(&regs_lock);
	return ret;
}

static int plain_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(plain_hits));
}

static const struct kernel_param_ops plain_param_ops = {
	.set = plain_set,
	.get = plain_get,
};
module_param_cb(plain_ops, &plain_param_ops, NULL, 0644);
MODULE_PARM_DESC(plain_ops, "write FUNC: attach a plain ftrace_ops, -: detach; read: its hits");

/*
 * For the preempt suite: N rounds of the order that gives labtarget_add()
 * a site of its own that wants pt_regs while a caller may still be in
 * ftrace_caller from before: the plain ops alone (ftrace_caller and the
 * plain ops), a 50 ms pause in which a caller runs, the REGS ops beside it
 * (ftrace_regs_caller), the plain ops off (the REGS ops alone), which
 * waits for its grace periods only after the site's ops changed, and the
 * REGS ops off. The writer runs SCHED_FIFO meanwhile: at the end of each
 * pause it preempts a caller on its CPU wherever the caller is, and the
 * caller runs again only once the writer waits. Writing N runs them;
 * reading gives the rounds made.
 */
static unsigned int storm_rounds;

static int ops_storm_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	sched_set_fifo(current);
	for (i = 0; i < n && !ret; i++) {
		ret = plain_set("labtarget_add", NULL);
		if (!ret) {
			msleep(50);
			ret = regs_set("labtarget_add", NULL);
		}
		if (!ret)
			ret = plain_set("-", NULL);
		if (!ret)
			ret = regs_set("-", NULL);
		if (!ret)
			storm_rounds++;
	}
	sched_set_normal(current, 0);
	plain_set("-", NULL);
	regs_set("-", NULL);
	return ret;
}

/*
 * An IPMODIFY ftrace_ops that sends labtarget_add() to labtarget_add_alt(),
 * as livepatch does: with a BPF fexit program on labtarget_add(), the
 * trampoline must call the function the ops chose (x86_64's trampolines
 * shared with an IPMODIFY ops call it through the stack), or the
 * architecture refuse the pair. Writing "labtarget_add" to
 * .../parameters/redirect_ops attaches it, "-" detaches it; reading it
 * gives the calls it redirected.
 */
static unsigned long redirect_hits;
static bool redirect_on;

/* 6.12, make bench's mainline kernel, has the helper under a new name */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ftrace_instruction_pointer_set(fregs, ip) \
	ftrace_regs_set_instruction_pointer(fregs, ip)
#endif

static void notrace redirect_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ftrace_instruction_pointer_set(fregs, (unsigned long)labtarget_add_alt);
	WRITE_ONCE(redirect_hits, redirect_hits + 1);
}

static struct ftrace_ops redirect_ops = {
	.func	= redirect_func,
	.flags	= FTRACE_OPS_FL_IPMODIFY |
		  (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) ?
		   FTRACE_OPS_FL_SAVE_REGS : 0),
};

static int redirect_set(const char *val, const struct kernel_param *kp)
{
	char name[KSYM_NAME_LEN];
	int ret = 0;

	strscpy(name, val, sizeof(name));
	strim(name);
	mutex_lock(&regs_lock);
	if (redirect_on) {
		ret = unregister_ftrace_function(&redirect_ops);
		ftrace_free_filter(&redirect_ops);
		redirect_on = false;
	}
	if (!ret && strcmp(name, "-")) {
		redirect_hits = 0;
		ret = ftrace_set_filter(&redirect_ops, name, strlen(name), 1);
		if (!ret)
			ret = register_ftrace_function(&redirect_ops);
		if (ret)
			ftrace_free_filter(&redirect_ops);
		redirect_on = !ret;
	}
	mutex_unlock(&regs_lock);
	return ret;
}

static int redirect_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(redirect_hits));
}

static const struct kernel_param_ops redirect_param_ops = {
	.set = redirect_set,
	.get = redirect_get,
};
module_param_cb(redirect_ops, &redirect_param_ops, NULL, 0644);
MODULE_PARM_DESC(redirect_ops, "write FUNC: send FUNC to labtarget_add_alt() (IPMODIFY), -: detach; read: calls sent");

static int ops_storm_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", storm_rounds);
}

static const struct kernel_param_ops ops_storm_ops = {
	.set = ops_storm_set,
	.get = ops_storm_get,
};
module_param_cb(ops_storm, &ops_storm_ops, NULL, 0644);
MODULE_PARM_DESC(ops_storm, "write N: N rounds of plain and REGS ops on labtarget_add; read: rounds made");
#endif /* CONFIG_FUNCTION_TRACER */

/*
 * For the preempt and faults suites: a kernel thread on one CPU that
 * calls labtarget_add() and labtarget_check() until it is stopped, outside the module's parameter
 * lock, which ops_storm holds while it runs (a caller writing to the
 * call parameter would wait for it). Writing a CPU number to
 * .../parameters/caller_cpu starts it there, -1 stops it; reading gives
 * the calls it made.
 */
static struct task_struct *caller_task;
static unsigned long caller_calls;

static int caller_fn(void *unused)
{
	while (!kthread_should_stop()) {
		labtarget_add(caller_calls & 0xff, 1);
		labtarget_check(caller_calls & 0xff);
		WRITE_ONCE(caller_calls, caller_calls + 1);
		/* updates wait for RCU tasks: never sleeping, report it */
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

static int caller_cpu_set(const char *val, const struct kernel_param *kp)
{
	int cpu, ret;

	ret = kstrtoint(val, 0, &cpu);
	if (ret)
		return ret;
	if (caller_task) {
		kthread_stop(caller_task);
		caller_task = NULL;
	}
	if (cpu < 0)
		return 0;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	caller_calls = 0;
	caller_task = kthread_create_on_cpu(caller_fn, NULL, cpu, "labcaller/%u");
	if (IS_ERR(caller_task)) {
		ret = PTR_ERR(caller_task);
		caller_task = NULL;
		return ret;
	}
	wake_up_process(caller_task);
	return 0;
}

static int caller_cpu_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(caller_calls));
}

static const struct kernel_param_ops caller_cpu_ops = {
	.set = caller_cpu_set,
	.get = caller_cpu_get,
};
module_param_cb(caller_cpu, &caller_cpu_ops, NULL, 0644);
MODULE_PARM_DESC(caller_cpu, "write CPU: a thread there calls labtarget_add(), -1: stop it; read: its calls");

/*
 * LABTARGET_NINSNS instructions that kprobes single-step out of line
 * (not simulated), for the hazards suite: a kprobe on each fills the
 * kprobe instruction slot pages to their last slot, whose single-step
 * EBREAK ends its page. riscv64 only: its EBREAK handler is what the
 * suite checks. Writing N to .../parameters/insns makes N calls; reading
 * it gives where the instructions start, as an offset from
 * labtarget_insns (once it has been called), and the last result.
 */
#define LABTARGET_NINSNS 1030
static unsigned long insns_block;

#ifdef CONFIG_RISCV
int labtarget_insns(int x);
noinline int labtarget_insns(int x)
{
	unsigned long block;

	asm volatile (".option push\n"
		      ".option norvc\n"
		      "lla %1, 1f\n"
		      "1:\n"
		      ".rept %2\n"
		      "addi %0, %0, 1\n"
		      ".endr\n"
		      ".option pop\n"
		      : "+r" (x), "=&r" (block) : "i" (LABTARGET_NINSNS));
	WRITE_ONCE(insns_block, block);
	return x;
}
#else
static int labtarget_insns(int x)
{
	return -ENOTSUPP;
}
#endif

static int insns_last;

static int insns_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		insns_last = labtarget_insns(i);
	return insns_last < 0 ? insns_last : 0;
}

static int insns_get(char *buf, const struct kernel_param *kp)
{
	unsigned long off = 0;

	if (insns_block)
		off = insns_block - (unsigned long)labtarget_insns;
	return sysfs_emit(buf, "%lu %d\n", off, insns_last);
}

static const struct kernel_param_ops insns_ops = {
	.set = insns_set,
	.get = insns_get,
};
module_param_cb(insns, &insns_ops, NULL, 0644);
MODULE_PARM_DESC(insns, "write N: N calls of labtarget_insns(); read: the last result");

/*
 * Writing N to .../parameters/icache_flush (riscv64) makes every CPU's
 * instruction cache coherent N times (flush_icache_all()), preemptible
 * and without cpus_read_lock(), as the series' ftrace updates do: the
 * hazards suite runs it beside CPU hotplug. Reading it gives the number
 * of flushes made since the module was loaded.
 */
static unsigned long icache_flushes;

static int icache_flush_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!IS_ENABLED(CONFIG_RISCV))
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++) {
#ifdef CONFIG_RISCV
		flush_icache_all();
#endif
		icache_flushes++;
		cond_resched();
	}
	return 0;
}

static int icache_flush_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", icache_flushes);
}

static const struct kernel_param_ops icache_flush_ops = {
	.set = icache_flush_set,
	.get = icache_flush_get,
};
module_param_cb(icache_flush, &icache_flush_ops, NULL, 0644);
MODULE_PARM_DESC(icache_flush, "write N: N flush_icache_all() (riscv64); read: the flushes made");

static void __exit labtarget_exit(void)
{
	caller_cpu_set("-1", NULL);
#ifdef CONFIG_FUNCTION_TRACER
	regs_set("-", NULL);
	plain_set("-", NULL);
	redirect_set("-", NULL);
#endif
}
module_exit(labtarget_exit);

MODULE_DESCRIPTION("Functions in a module for the lab's BPF tests");
MODULE_LICENSE("GPL");
