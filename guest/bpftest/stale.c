// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: trampolines left behind by a module loaded again, and an
 * IPMODIFY ftrace_ops beside a BPF fexit program; loading and unloading
 * modules.
 */
#include "bpftest.h"

int module_insert(const char *ko)
{
	int fd = open(ko, O_RDONLY), ret;

	if (fd < 0)
		return -1;
	ret = syscall(__NR_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

int module_remove(const char *name)
{
	return syscall(__NR_delete_module, name, O_NONBLOCK);
}

#define REDIRECT	"/sys/module/labtarget/parameters/redirect_ops"
#define STALE_TRAMPS	4

/*
 * What a trampoline with fexit programs does with a call that an IPMODIFY
 * ops sent to another function: x86_64's calls that function (it is
 * rebuilt with BPF_TRAMP_F_ORIG_STACK), so its programs see the call; on
 * arm64, riscv64 and s390x the ops took the call over and the trampoline
 * is not called; ppc64's and MIPS64's refuse the pair (ENOTSUPP).
 */
#if defined(__x86_64__)
#define MOVED_SEEN	1
#else
#define MOVED_SEEN	0
#endif
#define STALE_KEY	26
#define FEXIT_KEY	27

static int redirect(const char *func)
{
	return write_str(REDIRECT, func);
}

/*
 * Three calls of labtarget_add(i, 1), i = 0, 1, 2, through labtarget's
 * "call": with @redirected they go to labtarget_add_alt(), 1000 more
 * each. The fexit program must see each, and the last result.
 */
static int expect_calls(const char *id, const char *what, int redirected,
			uint64_t *count)
{
	int sum, rejected, want_sum = 6 + (redirected ? 3000 : 0);
	int seen = redirected ? MOVED_SEEN : 1;
	uint64_t want_ret = 3 + (redirected ? 1000 : 0);
	struct slot s;

	if (labtarget_call(3, &sum, &rejected)) {
		result("fail", id, "%s: cannot drive labtarget: %s", what, strerror(errno));
		return -1;
	}
	s = slot(FEXIT_KEY);
	if (sum != want_sum || s.count != *count + 3 * seen ||
	    (seen && s.value != want_ret)) {
		result("fail", id, "%s: sum %d, fexit saw %llu calls returning %llu; want %d, %d, %llu",
		       what, sum, (unsigned long long)(s.count - *count),
		       (unsigned long long)s.value, want_sum, 3 * seen,
		       (unsigned long long)want_ret);
		return -1;
	}
	*count = s.count;
	return 0;
}

/*
 * The attach or the redirect failed with errno: the architecture's
 * trampoline cannot call a function an IPMODIFY ops moved (no
 * BPF_TRAMP_F_ORIG_STACK), which it must say with ENOTSUPP.
 */
static int refused(const char *id, const char *what)
{
	if (errno == ENOTSUPP) {
		printf("# %s: %s refused with ENOTSUPP: this trampoline does not call a moved function\n",
		       id, what);
		return 1;
	}
	result("fail", id, "%s: %s", what, strerror(errno));
	return 0;
}

/*
 * Two programs loaded for a module's function, one attached and detached
 * again: the other, never attached, keeps the trampoline, which the
 * attach left marked as ftrace's, when the module goes; loaded again at
 * the same address, the module's function gets a new trampoline for a new
 * program. An IPMODIFY ops (labtarget's redirect_ops, as
 * livepatch) joining the function, or there first, asks BPF's ops_func
 * about it, which must answer for the attached trampoline, not an old one:
 * the fexit program then sees the calls of the function the ops chose.
 */
void test_stale_trampoline(const char *id, const char *ko)
{
	int old[2 * STALE_TRAMPS], prog = -1, link = -1, r, same = 0;
	unsigned long long addr = ksym_addr("labtarget_add");
	uint64_t count;

	for (r = 0; r < 2 * STALE_TRAMPS; r += 2) {
		old[r] = load_module_prog("labtarget", "labtarget_add",
					  BPF_TRACE_FEXIT, WORD_RET, STALE_KEY, 0);
		old[r + 1] = load_module_prog("labtarget", "labtarget_add",
					      BPF_TRACE_FEXIT, WORD_RET, STALE_KEY, 0);
		link = old[r] < 0 || old[r + 1] < 0 ? -1 : attach(old[r]);
		if (link < 0) {
			step_failed(id, "attach the program left behind");
			r += 2;
			goto out;
		}
		close(link);
		link = -1;
		if (module_remove("labtarget") || module_insert(ko)) {
			result("fail", id, "cannot load labtarget again: %s", strerror(errno));
			r += 2;
			goto out;
		}
		same += ksym_addr("labtarget_add") == addr;
	}
	printf("# %s: labtarget_add at the same address %d of %d times\n", id, same, r / 2);

	prog = load_module_prog("labtarget", "labtarget_add", BPF_TRACE_FEXIT,
				WORD_RET, FEXIT_KEY, 0);
	link = attach_or_fail(id, prog);
	if (link < 0) {
		prog = -1;
		goto out;
	}
	count = slot(FEXIT_KEY).count;
	/* the ops joins the attached trampoline (PEER) */
	if (redirect("labtarget_add")) {
		if (refused(id, "the IPMODIFY ops beside fexit"))
			result("ok", id, NULL);
		goto out;
	}
	if (expect_calls(id, "redirected", 1, &count))
		goto out;
	redirect("-");
	if (expect_calls(id, "no longer redirected", 0, &count))
		goto out;
	close(link);
	/* the trampoline joins the ops (SELF) */
	if (redirect("labtarget_add")) {
		result("fail", id, "redirect alone: %s", strerror(errno));
		link = -1;
		goto out;
	}
	link = attach(prog);
	if (link < 0) {
		if (refused(id, "fexit beside the IPMODIFY ops"))
			result("ok", id, NULL);
		goto out;
	}
	if (expect_calls(id, "attached to a redirected function", 1, &count))
		goto out;
	result("ok", id, NULL);
out:
	redirect("-");
	if (link >= 0)
		close(link);
	if (prog >= 0)
		close(prog);
	while (r-- > 0)
		if (old[r] >= 0)
			close(old[r]);
}
