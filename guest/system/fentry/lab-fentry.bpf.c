// SPDX-License-Identifier: GPL-2.0
/*
 * lab-fentry's BPF side: counts the calls of vfs_read() through an fentry
 * program, which the kernel reaches by a BPF trampoline called from the
 * function's ftrace site.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 calls;

SEC("fentry/vfs_read")
int count_vfs_read(void *ctx)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
