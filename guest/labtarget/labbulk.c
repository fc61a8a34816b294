// SPDX-License-Identifier: GPL-2.0
/*
 * labbulk: LABBULK_NFNS traceable functions that nothing calls, so that
 * loading the module adds as many ftrace records (make bench-attach
 * times an attach with and without it: what one costs per record of
 * the kernel). Each function returns its argument plus its own number,
 * so that no two are the same code for the compiler to merge.
 */
#include <linux/module.h>

#define LABBULK_NFNS	16384

#define F(n)	noinline int labbulk_fn_##n(int x); \
		noinline int labbulk_fn_##n(int x) { return x + 0x##n; }
#define F16(p)	F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) \
		F(p##8) F(p##9) F(p##a) F(p##b) F(p##c) F(p##d) F(p##e) F(p##f)
#define F256(p)	F16(p##0) F16(p##1) F16(p##2) F16(p##3) F16(p##4) F16(p##5) \
		F16(p##6) F16(p##7) F16(p##8) F16(p##9) F16(p##a) F16(p##b) \
		F16(p##c) F16(p##d) F16(p##e) F16(p##f)
#define F4096(p) F256(p##0) F256(p##1) F256(p##2) F256(p##3) F256(p##4) \
		F256(p##5) F256(p##6) F256(p##7) F256(p##8) F256(p##9) \
		F256(p##a) F256(p##b) F256(p##c) F256(p##d) F256(p##e) F256(p##f)

F4096(0)
F4096(1)
F4096(2)
F4096(3)

MODULE_DESCRIPTION("ftrace records in bulk, for the lab's attach benchmark");
MODULE_LICENSE("GPL");
