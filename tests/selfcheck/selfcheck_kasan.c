// SPDX-License-Identifier: GPL-2.0
/*
 * Reads one byte past a 16-byte allocation: KASAN must report it. The index
 * is hidden from the compiler so the read is really made. Test-only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

static int __init selfcheck_kasan_init(void)
{
	size_t size = 16;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	OPTIMIZER_HIDE_VAR(size);
	pr_info("byte past the end: %d\n",
		READ_ONCE(buf[size]));
	kfree(buf);
	return 0;
}

static void __exit selfcheck_kasan_exit(void)
{
}

module_init(selfcheck_kasan_init);
module_exit(selfcheck_kasan_exit);
MODULE_DESCRIPTION("Bench self-check: a KASAN out-of-bounds read");
MODULE_LICENSE("GPL");
