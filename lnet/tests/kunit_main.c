// SPDX-License-Identifier: GPL-2.0
/* Module boilerplate for lnet_kunit.ko; the suites register themselves. */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit suites for lnet.ko");
MODULE_IMPORT_NS(lnet_kunit);
