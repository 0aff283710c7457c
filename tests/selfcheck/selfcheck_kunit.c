// SPDX-License-Identifier: GPL-2.0
/*
 * A KUnit suite with one passing and one failing case: the bench must count
 * the failure. Test-only; never built for the stock kernel.
 */
#include <kunit/test.h>
#include <linux/module.h>

static void selfcheck_passes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 4);
}

static void selfcheck_fails(struct kunit *test)
{
	KUNIT_FAIL(test, "deliberate failure: the bench must report this case");
}

static struct kunit_case selfcheck_cases[] = {
	KUNIT_CASE(selfcheck_passes),
	KUNIT_CASE(selfcheck_fails),
	{}
};

static struct kunit_suite selfcheck_suite = {
	.name = "lnet_bench_selfcheck",
	.test_cases = selfcheck_cases,
};
kunit_test_suite(selfcheck_suite);

MODULE_DESCRIPTION("Bench self-check: a failing KUnit case");
MODULE_LICENSE("GPL");
