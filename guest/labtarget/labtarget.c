// SPDX-License-Identifier: GPL-2.0
/*
 * labtarget: functions in a module, for the lab's BPF tests to attach
 * fentry, fexit and fmod_ret programs to (guest/bpftest.c).
 *
 * Writing N to /sys/module/labtarget/parameters/call calls, for i from 0
 * to N - 1, labtarget_add(i, 1) and labtarget_check(i); reading it gives
 * the sum of what labtarget_add() returned and how many labtarget_check()
 * calls returned non-zero (only an fmod_ret program makes them).
 */
#include <linux/error-injection.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

int labtarget_add(int a, int b);
int labtarget_check(int x);

noinline int labtarget_add(int a, int b)
{
	asm volatile ("");
	return a + b;
}

noinline int labtarget_check(int x)
{
	asm volatile ("");
	return 0;
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

MODULE_DESCRIPTION("Functions in a module for the lab's BPF tests");
MODULE_LICENSE("GPL");
