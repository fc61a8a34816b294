// SPDX-License-Identifier: GPL-2.0
/*
 * bpftest: BPF fentry, fexit and fmod_ret through the bpf() syscall alone.
 *
 * Each program stores one context word and counts its runs in an array
 * map slot of its own; BPF_PROG_TEST_RUN drives the traced functions
 * (bpf_fentry_test1(1) and bpf_modify_return_test(1, &b)) and the test
 * checks what the programs wrote.  BTF ids come from /sys/kernel/btf/vmlinux.
 * The module tests attach to the lab's labtarget module (guest/labtarget),
 * driven through its "call" parameter, with ids from its split BTF; its
 * "args" parameter drives the functions of 12 arguments and of structures
 * passed by value, whose every argument slot a program copies.  The
 * BPF-program tests attach to a socket filter loaded with BTF of its own
 * (the trampoline is then called from the program's JITed entry).  The
 * storm counts per CPU while programs come and go; the bad-input tests
 * check each errno and that nothing was left attached.
 *
 * Output, one line per test, for guest/suites/t-bpf.sh to turn into KTAP:
 *   ok ID | fail ID REASON | skip ID REASON | # diagnostic
 * usage: bpftest HAS_DIRECT   (1: the kernel has ftrace direct calls, so
 *                              an attach failing with ENOTSUPP is a failure)
 *        bpftest HAS_DIRECT count N   fentry on bpf_fentry_test1 counting N calls
 *        bpftest HAS_DIRECT hold FUNC  fentry on FUNC, each run writing "labbpf"
 *                                      to the trace buffer, attached until killed
 *        bpftest HAS_DIRECT hold-kmulti FUNC  a kprobe.multi program on FUNC,
 *                                      each run writing "labkmulti", attached
 *                                      until killed
 *        bpftest HAS_DIRECT hold-empty MOD FUNC  an empty fentry program on
 *                                      FUNC of module MOD (vmlinux: built in),
 *                                      attached until killed
 *        bpftest HAS_DIRECT attach-cycle FUNC SECONDS  an empty fentry
 *                                      program on FUNC (or MODULE:FUNC)
 *                                      attached and detached
 *                                      for SECONDS; prints the cycles made
 *        bpftest HAS_DIRECT prog-storm SECONDS  fentry and fexit attached
 *                                      and detached on a BPF program while
 *                                      two processes run it
 *        bpftest HAS_DIRECT attach-bench N...  fentry programs on N of
 *                                      labtarget's functions, one link each,
 *                                      attached and detached: the times
 *        bpftest HAS_DIRECT attach-storm N  fentry programs on N of
 *                                      labtarget's functions, detached in a
 *                                      random order while every CPU calls
 *                                      them: each call counted once
 *        bpftest HAS_DIRECT stale LABTARGET.ko  labtarget loaded again
 *                                      under detached programs, an IPMODIFY
 *                                      ops beside fexit (stale.c)
 *        bpftest HAS_DIRECT override  fexit on labtarget_check() while a
 *                                      kprobe.multi program or fail_function
 *                                      overrides it (faults.c)
 *        bpftest HAS_DIRECT faults [MODULE.ko]  every attach and detach
 *                                      of a program (and MODULE's load and
 *                                      unload) with its 1st, 2nd, ...
 *                                      allocation failed (faults.c)
 * environment: LAB_REACH_MIB (how far a site's call reaches, MiB) and
 * LAB_BPF_PATH (near or far) for bpf:trampoline-path
 */
#include "bpftest.h"

/*
 * Attaching to a function ftrace does not patch falls back to the JIT's
 * bpf_arch_text_poke(), which on x86_64 finds no 5-byte NOP there and on
 * the others refuses a site outside BPF code.
 */
#ifdef __x86_64__
#define NOTRACE_ERRNO	EBUSY
#else
#define NOTRACE_ERRNO	ENOTSUPP
#endif

/*
 * What 6.1's BPF trampoline of each architecture refuses among
 * labtarget's functions of many or large arguments (test_args()).
 */
#if defined(__x86_64__)
#define REFUSE_ARGS12 "6.1's x86_64 trampoline takes the 6 argument registers only"
#define REFUSE_SPLIT REFUSE_ARGS12
#elif defined(__aarch64__)
#define REFUSE_ARGS12 NULL
#define REFUSE_SPLIT "the arm64 trampoline refuses a structure passed on the stack"
#else
#define REFUSE_ARGS12 NULL
#define REFUSE_SPLIT NULL
#endif

int has_direct;
int map_fd;
char vlog[16384];

long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	int storm;

	setvbuf(stdout, NULL, _IOLBF, 0);
	has_direct = argc > 1 && atoi(argv[1]) == 1;
	map_fd = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct slot), 32);
	args_map_fd = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct args_value), 16);
	if (map_fd < 0 || args_map_fd < 0) {
		printf("fail bpf:map cannot create an array map: %s\n", strerror(errno));
		return 1;
	}
	if (argc > 3 && !strcmp(argv[2], "hold"))
		return hold(argv[3]);
	if (argc > 3 && !strcmp(argv[2], "hold-kmulti"))
		return hold_kmulti(argv[3]);
	if (argc > 4 && !strcmp(argv[2], "hold-empty"))
		return hold_empty(argv[3], argv[4]);
	if (argc > 3 && !strcmp(argv[2], "count"))
		return count_hits(atoi(argv[3]));
	if (argc > 4 && !strcmp(argv[2], "attach-cycle"))
		return attach_cycle(argv[3], atoi(argv[4]));
	if (argc > 3 && !strcmp(argv[2], "prog-storm"))
		return prog_storm(atoi(argv[3]));
	if (argc > 3 && !strcmp(argv[2], "attach-bench"))
		return attach_bench(argc - 3, argv + 3);
	if (argc > 3 && !strcmp(argv[2], "attach-storm"))
		return attach_storm(atoi(argv[3]));
	if (argc > 2 && !strcmp(argv[2], "faults"))
		return faults(argc > 3 ? argv[3] : NULL);
	if (argc > 2 && !strcmp(argv[2], "override")) {
		test_override("bpf:override-fexit");
		return failed;
	}
	if (argc > 3 && !strcmp(argv[2], "stale")) {
		test_stale_trampoline("bpf:stale-trampoline", argv[3]);
		return failed;
	}
	show_time = 1;
	clock_gettime(CLOCK_MONOTONIC, &last_result);
	test_entry_exit("bpf:fentry", BPF_TRACE_FENTRY, 0, 1, 0);
	test_entry_exit("bpf:fexit", BPF_TRACE_FEXIT, 1, 2, 1);
	test_fmod_ret("bpf:fmod_ret", 2);
	test_modify("bpf:modify", 3, 4);
	test_link_limit("bpf:link-limit", 8);
	test_link_limit_mixed("bpf:link-limit-mixed", 22);
	/* fentry reads a of labtarget_add(2, 1), fexit its result 3 */
	test_module("bpf:module-fentry", "labtarget_add", BPF_TRACE_FENTRY, 0, 2, 0, 0, 9);
	test_module("bpf:module-fexit", "labtarget_add", BPF_TRACE_FEXIT, 2, 3, 0, 0, 10);
	test_module("bpf:module-fmod_ret", "labtarget_check", BPF_MODIFY_RETURN, 0, 2,
		    0x1234, 3, 11);
	test_fmod_ret_errno("bpf:fmod_ret-errno", 24);
	test_probe_mem("bpf:probe-mem", 29);
	test_args("bpf:args12-fentry", "labtarget_args12", BPF_TRACE_FENTRY, 0, REFUSE_ARGS12);
	test_args("bpf:args12-fexit", "labtarget_args12", BPF_TRACE_FEXIT, 1, REFUSE_ARGS12);
	test_args("bpf:struct-args-fentry", "labtarget_structs", BPF_TRACE_FENTRY, 2, NULL);
	test_args("bpf:struct-args-fexit", "labtarget_structs", BPF_TRACE_FEXIT, 3, NULL);
	test_args("bpf:struct-split-fentry", "labtarget_split", BPF_TRACE_FENTRY, 4, REFUSE_SPLIT);
	test_args("bpf:struct-split-fexit", "labtarget_split", BPF_TRACE_FEXIT, 5, REFUSE_SPLIT);
	test_kprobe_multi("bpf:kprobe-multi");
	test_kprobe_multi_many("bpf:kprobe-multi", 20);
	test_kmulti_rethook("bpf:kprobe-multi-rethook", 21);
	test_kmulti_rethook_nested("bpf:kprobe-multi-rethook-nested", 25);
	test_kmulti_ret_regs("bpf:kprobe-multi-return-regs", 14);
	test_prog_target("bpf:prog-fentry", BPF_TRACE_FENTRY, 12);
	test_prog_target("bpf:prog-fexit", BPF_TRACE_FEXIT, 13);
	test_tail_call("bpf:tail-call", 14);
	test_module_busy("bpf:module-busy", 16);
	test_bad_btf_id("bpf:bad-btf-id");
	test_notrace("bpf:notrace", "ftrace_set_filter_ip", NOTRACE_ERRNO);
	/* 100 cycles unless lab.bpf_storm= says otherwise (make check: fewer) */
	storm = getenv("LAB_BPF_STORM") ? atoi(getenv("LAB_BPF_STORM")) : 100;
	test_storm("bpf:storm", storm > 0 ? storm : 100);
	test_paths("bpf:trampoline-path");
	return failed;
}
