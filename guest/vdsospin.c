// SPDX-License-Identifier: GPL-2.0
/*
 * vdsospin SECONDS: on every online CPU at once, a process pinned there
 * calls the vDSO's clock_gettime(CLOCK_MONOTONIC) in a loop for SECONDS,
 * while the kernel updates the time it reads; time must never go back
 * and no process may die. The function is looked up in the vDSO image
 * itself (AT_SYSINFO_EHDR), so a libc that falls back to the syscall
 * cannot hide a broken vDSO.
 *
 * Prints "# cpu N: CALLS calls" per CPU; exit 0 if all passed, 1 with
 * the reason on stderr if not, 2 if the test could not run.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdint.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

/* A SysV hash table's word: 64 bits on s390x (as in glibc's Elf_Symndx) */
#ifdef __s390x__
typedef uint64_t hash_word;
#else
typedef Elf32_Word hash_word;
#endif

/* The vDSO's symbol NAME, through its dynamic table and SysV hash */
static void *vdso_sym(const char *name)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	const Elf64_Sym *sym = NULL;
	const hash_word *hash = NULL;
	const char *str = NULL;
	Elf64_Addr load = 0;
	int i, have_load = 0;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return NULL;
	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			load = ph[i].p_vaddr - ph[i].p_offset;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const Elf64_Dyn *)(base + ph[i].p_offset);
		}
	}
	if (!dyn || !have_load)
		return NULL;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const char *p = base + (dyn->d_un.d_ptr - load);

		if (dyn->d_tag == DT_SYMTAB)
			sym = (const Elf64_Sym *)p;
		else if (dyn->d_tag == DT_STRTAB)
			str = p;
		else if (dyn->d_tag == DT_HASH)
			hash = (const hash_word *)p;
	}
	if (!sym || !str || !hash)
		return NULL;
	for (i = 0; i < (int)hash[1]; i++) {	/* nchain: the symbol count */
		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || !sym[i].st_shndx)
			continue;
		if (!strcmp(str + sym[i].st_name, name))
			return (void *)(base + (sym[i].st_value - load));
	}
	return NULL;
}

/* One CPU's loop; its exit status says how it ended */
static int spin(gettime_fn gettime, int cpu, int seconds, unsigned long *calls)
{
	struct timespec prev = { 0 }, now, end;
	cpu_set_t set;

	alarm(seconds + 60);	/* a reader that never gets out dies of SIGALRM */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return 3;
	if (gettime(CLOCK_MONOTONIC, &end))
		return 4;
	end.tv_sec += seconds;
	for (;;) {
		if (gettime(CLOCK_MONOTONIC, &now))
			return 4;
		(*calls)++;
		if (now.tv_sec < prev.tv_sec ||
		    (now.tv_sec == prev.tv_sec && now.tv_nsec < prev.tv_nsec))
			return 5;
		prev = now;
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return 0;
	}
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"__vdso_clock_gettime", "__kernel_clock_gettime",
	};
	static const char *const why[] = {
		[3] = "sched_setaffinity failed", [4] = "clock_gettime failed",
		[5] = "time went back",
	};
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long *calls;
	gettime_fn gettime = NULL;
	int cpu, bad = 0;
	unsigned int n;

	for (n = 0; n < sizeof(names) / sizeof(names[0]) && !gettime; n++)
		gettime = (gettime_fn)vdso_sym(names[n]);
	if (!gettime) {
		fprintf(stderr, "no clock_gettime in the vDSO\n");
		return 2;
	}
	/* Each child counts into its own slot of a shared page */
	calls = mmap(NULL, ncpus * sizeof(*calls), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (calls == MAP_FAILED || ncpus < 1) {
		perror("vdsospin");
		return 2;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (!pid)
			_exit(spin(gettime, cpu, seconds, &calls[cpu]));
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		int status, rc;

		if (wait(&status) < 0) {
			perror("wait");
			return 2;
		}
		if (WIFSIGNALED(status)) {
			fprintf(stderr, "a process died of signal %d (%s)\n",
				WTERMSIG(status), strsignal(WTERMSIG(status)));
			bad = 1;
			continue;
		}
		rc = WEXITSTATUS(status);
		if (rc) {
			fprintf(stderr, "a process failed: %s\n",
				rc < 6 && why[rc] ? why[rc] : "unknown");
			bad = 1;
		}
	}
	for (cpu = 0; cpu < ncpus; cpu++)
		printf("# cpu %d: %lu calls\n", cpu, calls[cpu]);
	return bad;
}
