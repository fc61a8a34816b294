// SPDX-License-Identifier: GPL-2.0
/*
 * /bin/rm of the lab's guests.  Given an option, busybox's rm does the
 * work (run as its applet); a plain "rm FILE..." this program does
 * itself, so that the process that removes the files is this program.
 * The BPF selftests' test_local_storage copies /bin/rm and runs the copy
 * on its own file, expecting a BPF LSM program to refuse the removal to
 * a process running that very file; a copy of busybox, a multi-call
 * binary, would find no applet under the copy's name and exit with 127.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			argv[0] = "rm";
			execv("/bin/busybox", argv);
			perror("rm: /bin/busybox");
			return 127;
		}
	}
	for (i = 1; i < argc; i++) {
		if (unlink(argv[i])) {
			fprintf(stderr, "rm: cannot remove '%s': %s\n", argv[i],
				strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
