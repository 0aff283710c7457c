/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal functions that the KUnit module (lnet_kunit.ko, debug builds
 * only) calls are exported to it alone, in the lnet_kunit namespace; in a
 * product build the macro expands to nothing. The namespace token must not
 * be a macro name: LNET_KUNIT is the build flag (-DLNET_KUNIT), and the
 * export macros would expand it to "1".
 */
#ifndef _LINUX_LNET_TEST_EXPORT_H
#define _LINUX_LNET_TEST_EXPORT_H

#include <linux/export.h>

#ifdef LNET_KUNIT
#define LNET_EXPORT_FOR_TEST(sym)	EXPORT_SYMBOL_NS_GPL(sym, lnet_kunit)
#else
#define LNET_EXPORT_FOR_TEST(sym)
#endif

#endif /* _LINUX_LNET_TEST_EXPORT_H */
