/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpftest: what its files share. main.c says what the program does;
 * each file is one area of tests, or the BTF reader, the loader or the
 * holders the other suites use.
 */
#ifndef BPFTEST_H
#define BPFTEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Four characters as the 32-bit word that holds them in this order in
 * memory, for a string a program stores on its stack (big-endian s390x
 * and little-endian elsewhere alike)
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define STR4(a, b, c, d) \
	((int32_t)((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d)))
#else
#define STR4(a, b, c, d) \
	((int32_t)((uint32_t)(d) << 24 | (c) << 16 | (b) << 8 | (a)))
#endif

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/*
 * r0 = bpf_map_lookup_elem(map @fd, &key), the key a u32 at fp-4: the
 * 6 instructions of an initializer list, @key stored there first
 * (emit_map_lookup() appends the same; emit_lookup_fp4() the last 5, for
 * a key the program stored itself). r1 and r2 are clobbered; the caller
 * tests r0 for NULL.
 */
#define MAP_LOOKUP(fd, key) \
	INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, (key)), \
	INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, (fd)), \
	INSN(0, 0, 0, 0, 0), \
	INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0), \
	INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4), \
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem)

#define WORD_RET	(-1)	/* the value bpf_get_func_ret() gives (fexit) */

#define LABTARGET_CALL "/sys/module/labtarget/parameters/call"

#define LABTGT_ID	4

#define ENOTSUPP 524	/* the kernel's own, not in userspace errno.h */

struct slot {
	uint64_t value;
	uint64_t count;
};

struct args_value {
	uint64_t count, nslots, ret, slot[12];
};

extern int failed;
extern int show_time;
extern struct timespec last_result;
extern int args_map_fd;
extern int has_direct;
extern int map_fd;
extern char vlog[16384];

int map_create(int type, int value_size, int max_entries);
int map_lookup(int fd, int key, void *value);
int emit_lookup_fp4(struct bpf_insn *p, int n, int fd);
int emit_map_lookup(struct bpf_insn *p, int n, int fd, int key);
int btf_func_id(const char *name);
int module_btf_func_id(const char *mod, const char *name);
int module_btf_fd(const char *mod);
int prog_load(int prog_type, int attach_type, int btf_id, int obj_fd,
	      const struct bpf_insn *insns, int n);
int load_prog_id(int obj_fd, int id, int type, int word, int key, int ret);
int load_prog(const char *func, int type, int word, int key, int ret);
int load_module_prog(const char *mod, const char *func, int type,
		     int word, int key, int ret);
int attach(int prog);
int test_run(int prog, uint32_t *retval);
struct slot slot(int key);
double ms_since(const struct timespec *t0);
void result(const char *verdict, const char *id, const char *fmt, ...);
void step_failed(const char *id, const char *what);
int attach_or_fail(const char *id, int prog);
int direct_on(const char *func);
unsigned long long ksym_addr(const char *name);
void show_records(const char *func);
void test_paths(const char *id);
void test_entry_exit(const char *id, int type, int word, uint64_t want, int key);
void test_fmod_ret(const char *id, int key);
void test_fmod_ret_errno(const char *id, int key);
void test_probe_mem(const char *id, int key);
void test_modify(const char *id, int k1, int k2);
void test_link_limit(const char *id, int key);
void test_link_limit_mixed(const char *id, int key);
int write_str(const char *path, const char *s);
int labtarget_param(const char *param, int n, char *buf, size_t size);
int labtarget_call(int n, int *sum, int *rejected);
void test_module(const char *id, const char *func, int type, int word,
		 uint64_t want, int ret, int want_rejected, int key);
void test_args(const char *id, const char *func, int type, int key,
	       const char *refused);
int load_target(int ret);
int jited(int prog);
int run_filter_n(int prog, unsigned int repeat, uint32_t *retval);
void test_prog_target(const char *id, int type, int key);
void test_tail_call(const char *id, int key);
int load_kmulti_prog(int sum_key);
int kmulti_attach(int prog, int ret, const uint64_t *addrs,
		  const uint64_t *cookies, unsigned int cnt);
void test_kprobe_multi(const char *id);
void test_kprobe_multi_many(const char *prefix, int key);
void test_kmulti_ret_regs(const char *id, int key);
void test_kmulti_rethook(const char *id, int key);
void test_kmulti_rethook_nested(const char *id, int key);
void test_storm(const char *id, int cycles);
void test_bad_btf_id(const char *id);
void test_notrace(const char *id, const char *func, int want);
void test_module_busy(const char *id, int key);
int count_hits(int calls);
int hold_kmulti(const char *func);
int hold(const char *func);
int hold_empty(const char *mod, const char *func);
int prog_storm(int seconds);
int attach_cycle(const char *func, int seconds);
int attach_bench(int argc, char **argv);
int attach_storm(int n);
int faults(const char *ko);
int module_insert(const char *ko);
int module_remove(const char *name);
void test_stale_trampoline(const char *id, const char *ko);
void test_override(const char *id);
long sys_bpf(int cmd, union bpf_attr *attr);

#endif
