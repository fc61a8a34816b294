// SPDX-License-Identifier: GPL-2.0
/*
 * smcspin [ROUNDS [BURST]]: does CPU 1 run the code CPU 0 rewrote?
 *
 * A thread on CPU 1 calls a function of two or three instructions
 * ("return v") in a loop. CPU 0, ROUNDS times (default 2000), rewrites v
 * BURST times in a row (default 8), makes the change visible as the
 * architecture asks (riscv64: riscv_flush_icache() for every CPU of the
 * process; s390x: CPU 1 serializes after each call; ppc64: dcbst, icbi
 * and isync on CPU 0, isync on CPU 1; mips64: cacheflush()), and waits
 * up to 500 ms for CPU 1 to return the last v. A round in which it does
 * not, although it made 1000 calls or more meanwhile, is stale: CPU 1
 * still runs code that was rewritten and synchronized (with fewer calls,
 * CPU 1 was held up: counted apart).
 *
 * ftrace patches the kernel the same way, one CPU writing while the
 * others run the code: a stale round here is a missed or extra ftrace
 * call there (scripts/check-smc.sh runs it under QEMU).
 *
 * Run as the guest's /init: prints "smcspin: R rounds of B writes, H
 * held up, S stale" and powers off. Exit 0, 1 if a round was stale.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __mips__
#include <sys/cachectl.h>
#endif
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 500

static volatile uint32_t *code;
static volatile long seen = -1, calls, stop;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* the function's first instruction: load @v into the return register */
static void put(long v)
{
#if defined(__s390x__)
	code[0] = 0xa7290000u | (uint32_t)v;		/* lghi %r2, v */
#elif defined(__riscv)
	code[0] = 0x00000513u | ((uint32_t)v << 20);	/* addi a0, zero, v */
#elif defined(__powerpc64__)
	code[0] = 0x38600000u | (uint32_t)v;		/* li r3, v */
#elif defined(__mips__)
	code[0] = 0x24020000u | (uint32_t)v;		/* addiu v0, zero, v */
#else
#error "smcspin: no encoding for this architecture"
#endif
}

static void sync_all(void)
{
#if defined(__riscv)
	/* riscv_flush_icache(start, end, 0): fence.i on every CPU of the mm */
	syscall(259, code, code + 2, 0);
#elif defined(__powerpc64__)
	asm volatile("dcbst 0,%0; sync; icbi 0,%0; sync; isync"
		     :: "r"(code) : "memory");
#elif defined(__mips__)
	cacheflush((void *)code, 12, BCACHE);
#endif
}

static void *runner(void *arg)
{
	long (*f)(void) = (long (*)(void))code;

	pin(1);
	while (!stop) {
		seen = f();
		calls++;
#if defined(__s390x__)
		asm volatile("bcr 15,0" ::: "memory");
#elif defined(__powerpc64__)
		asm volatile("isync" ::: "memory");
#endif
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	int burst = argc > 2 ? atoi(argv[2]) : 8;
	int r, k, stale = 0, held = 0;
	pthread_t t;
	long v = 0;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("smcspin: mmap");
		return 2;
	}
	put(0);
#if defined(__s390x__)
	code[1] = 0x07fe0000u;				/* br %r14 */
#elif defined(__riscv)
	code[1] = 0x00008067u;				/* ret */
#elif defined(__powerpc64__)
	code[1] = 0x4e800020u;				/* blr */
#elif defined(__mips__)
	code[1] = 0x03e00008u;				/* jr ra */
	code[2] = 0;					/* nop, its delay slot */
#endif
	sync_all();
	pin(0);
	pthread_create(&t, NULL, runner, NULL);
	for (r = 0; r < rounds; r++) {
		double t0;
		long c0;

		for (k = 0; k < burst; k++) {
			v = (v + 1) % 2048;
			put(v);
		}
		sync_all();
		t0 = now();
		c0 = calls;
		while (seen != v && now() - t0 < WAIT_MS / 1000.0)
			sched_yield();
		if (seen != v && calls - c0 < 1000) {
			held++;
		} else if (seen != v) {
			stale++;
			printf("smcspin: round %d: CPU 1 returns %ld, %d ms after %ld was written\n",
			       r, seen, WAIT_MS, v);
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("smcspin: %d rounds of %d writes, %d held up, %d stale\n",
	       rounds, burst, held, stale);
	fflush(stdout);
	if (getpid() == 1)
		reboot(RB_POWER_OFF);
	return stale ? 1 : 0;
}
