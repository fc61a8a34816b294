// SPDX-License-Identifier: GPL-2.0
/*
 * labtarget: functions in a module, for the lab's BPF tests to attach
 * fentry, fexit and fmod_ret programs to (guest/bpftest.c).
 *
 * Writing N to /sys/module/labtarget/parameters/call calls, for i from 0
 * to N - 1, labtarget_add(i, 1) and labtarget_check(i); reading it gives
 * the sum of what labtarget_add() returned and how many labtarget_check()
 * calls returned non-zero (only an fmod_ret program makes them).
 *
 * Writing a function's name to .../parameters/regs_ops attaches an
 * ftrace_ops asking for pt_regs (SAVE_REGS where the architecture has
 * them, none where it has only ftrace_regs) to that function, for the
 * sharing tests (guest/t-sharing.sh); writing "-" detaches it. Reading it
 * gives the calls the ops saw since it was attached.
 */
#include <linux/error-injection.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>

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

static int sum, rejected;

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

static unsigned long regs_hits;
static bool regs_on;

static void notrace regs_func(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/* where the arch has pt_regs, a REGS user must be given them */
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && !ftrace_get_regs(fregs))
		return;
	WRITE_ONCE(regs_hits, regs_hits + 1);
}

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

static void __exit labtarget_exit(void)
{
	regs_set("-", NULL);
}
module_exit(labtarget_exit);

MODULE_DESCRIPTION("Functions in a module for the lab's BPF tests");
MODULE_LICENSE("GPL");
