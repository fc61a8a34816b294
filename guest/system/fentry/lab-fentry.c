// SPDX-License-Identifier: GPL-2.0
/*
 * lab-fentry [OBJECT]: make check-system's fentry client where Debian has
 * none for the architecture (no bpftrace; bcc takes kprobes off x86_64).
 * Loads OBJECT (lab-fentry.bpf.o beside its installed place by default)
 * with the suite's own libbpf, attaches its fentry program to vfs_read()
 * and prints the count once a second and when stopped by SIGINT.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int print_calls(struct bpf_map *bss)
{
	unsigned long long calls;
	int zero = 0;

	if (bpf_map__lookup_elem(bss, &zero, sizeof(zero), &calls,
				 sizeof(calls), 0)) {
		fprintf(stderr, "lab-fentry: reading the count failed: %s\n",
			strerror(errno));
		return -1;
	}
	printf("vfs_read: %llu calls\n", calls);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] :
		"/usr/local/lib/lab-fentry/lab-fentry.bpf.o";
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_link *link;
	struct bpf_map *bss;
	int err = 1;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "lab-fentry: cannot open %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "lab-fentry: loading failed: %s\n",
			strerror(errno));
		goto out;
	}
	prog = bpf_object__find_program_by_name(obj, "count_vfs_read");
	bss = bpf_object__find_map_by_name(obj, ".bss");
	if (!prog || !bss) {
		fprintf(stderr, "lab-fentry: %s has no count_vfs_read or .bss\n",
			path);
		goto out;
	}
	link = bpf_program__attach(prog);
	if (!link) {
		fprintf(stderr, "lab-fentry: attaching to vfs_read failed: %s\n",
			strerror(errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("lab-fentry: attached to vfs_read; Ctrl-C to stop\n");
	fflush(stdout);
	err = 0;
	while (!stop && !err) {
		sleep(1);
		err = print_calls(bss) ? 1 : 0;
	}
	bpf_link__destroy(link);
out:
	bpf_object__close(obj);
	return err;
}
