// SPDX-License-Identifier: GPL-2.0
/*
 * tlbspin SECONDS: for SECONDS, one thread maps, touches and unmaps a
 * page in a loop on CPU 0 while another thread of the same process
 * sleeps on CPU 1 a millisecond at a time (and is put back there when
 * CPU 1 has been offline). CPU 1's idle task keeps the process's mm as
 * its lazy one, so that every unmap asks CPU 1 for a TLB flush: the
 * hazards suite runs it while CPU 1 goes offline and online, so that
 * the flushes meet CPUs on their way offline.
 *
 * Prints "unmaps N"; exit 0, or 2 if the test could not run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* fails while the CPU is offline: the next round tries again */
	sched_setaffinity(0, sizeof(set), &set);
}

static void *sleeper(void *arg)
{
	while (!stop) {
		pin(1);
		usleep(1000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long unmaps = 0;
	pthread_t thread;
	time_t end;
	char *p;

	if (argc != 2) {
		fprintf(stderr, "usage: tlbspin SECONDS\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[1]);
	if (pthread_create(&thread, NULL, sleeper, NULL)) {
		perror("pthread_create");
		return 2;
	}
	pin(0);
	while (time(NULL) < end) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 2;
		}
		p[0] = 1;
		munmap(p, 4096);
		unmaps++;
	}
	stop = 1;
	pthread_join(thread, NULL);
	printf("unmaps %ld\n", unmaps);
	return 0;
}
