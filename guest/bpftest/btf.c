// SPDX-License-Identifier: GPL-2.0
/* bpftest: BTF: the id of a FUNC in vmlinux or in a module. */
#include "bpftest.h"

struct btf_file {
	char *buf;
	const struct btf_header *h;
	const char *types, *strs;
	uint32_t nr_types;
};

static int btf_read(const char *path, struct btf_file *b, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	b->buf = malloc(size);
	if (!b->buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while (len < size && (n = read(fd, b->buf + len, size - len)) > 0)
		len += n;
	close(fd);
	b->h = (const void *)b->buf;
	if (len < sizeof(*b->h) || b->h->magic != BTF_MAGIC)
		return -EINVAL;
	b->types = b->buf + b->h->hdr_len + b->h->type_off;
	b->strs = b->buf + b->h->hdr_len + b->h->str_off;
	return 0;
}

/*
 * Walk the types of @b, whose ids start at @first and whose names past
 * @base->h->str_len are its own (split BTF of a module; @base NULL for
 * vmlinux): the id of FUNC @name, or 0 with b->nr_types set.
 */
static int btf_find_func(struct btf_file *b, const struct btf_file *base,
			 uint32_t first, const char *name)
{
	uint32_t off, id = first, base_len = base ? base->h->str_len : 0;

	for (off = 0; off < b->h->type_len; id++) {
		const struct btf_type *t = (const void *)(b->types + off);
		unsigned int kind = BTF_INFO_KIND(t->info);
		unsigned int vlen = BTF_INFO_VLEN(t->info);
		const char *tname = t->name_off < base_len ?
			base->strs + t->name_off : b->strs + t->name_off - base_len;

		if (kind == BTF_KIND_FUNC && !strcmp(tname, name))
			return id;
		off += sizeof(*t);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			off += 4;
			break;
		case BTF_KIND_ARRAY:
			off += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			off += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			off += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			off += vlen * 12;
			break;
		case BTF_KIND_FUNC_PROTO:
			off += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			off += vlen * sizeof(struct btf_var_secinfo);
			break;
		default:	/* PTR, FWD, TYPEDEF, qualifiers, FUNC, FLOAT, TYPE_TAG */
			break;
		}
	}
	b->nr_types = id - first;
	return 0;
}

static struct btf_file vmlinux_btf;

static int vmlinux_btf_read(void)
{
	int err;

	if (vmlinux_btf.h)
		return 0;
	err = btf_read("/sys/kernel/btf/vmlinux", &vmlinux_btf, 16 << 20);
	if (!err)
		btf_find_func(&vmlinux_btf, NULL, 1, "");	/* counts the types */
	return err;
}

int btf_func_id(const char *name)
{
	int err = vmlinux_btf_read();

	if (err)
		return err;
	return btf_find_func(&vmlinux_btf, NULL, 1, name) ?: -ENOENT;
}

/* The id of FUNC @name in module @mod's BTF, which follows vmlinux's */
int module_btf_func_id(const char *mod, const char *name)
{
	struct btf_file b = { 0 };
	char path[128];
	int err, id;

	err = vmlinux_btf_read();
	if (err)
		return err;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	err = btf_read(path, &b, 1 << 20);
	id = err ? err : btf_find_func(&b, &vmlinux_btf, vmlinux_btf.nr_types + 1, name);
	free(b.buf);
	return id ?: -ENOENT;
}

/* The kernel's BTF object of module @mod, for attach_btf_obj_fd */
int module_btf_fd(const char *mod)
{
	struct bpf_btf_info info;
	union bpf_attr a;
	char name[64];
	uint32_t id = 0;
	int fd;

	for (;;) {
		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_BTF_GET_NEXT_ID, &a))
			return -1;
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.btf_id = id;
		fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		name[0] = 0;
		info.name = (uintptr_t)name;
		info.name_len = sizeof(name);
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = fd;
		a.info.info_len = sizeof(info);
		a.info.info = (uintptr_t)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) && !strcmp(name, mod))
			return fd;
		close(fd);
	}
}
