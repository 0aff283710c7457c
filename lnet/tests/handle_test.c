// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of handles: the cookie layout (type bits, portal or MD
 * slot bits, sequence), the self-resizing tables behind them, and that
 * stale or mistyped cookies never resolve - also across a restart.
 */
#include <linux/lnet/lib-lnet.h>
#include "wb_util.h"

static void handle_cookie_layout(struct kunit *test)
{
	u64 c;

	c = lnet_cookie_make(0x123456789ULL, 5, 6, LNET_COOKIE_ME);
	KUNIT_EXPECT_EQ(test, lnet_cookie_type(c), (unsigned int)LNET_COOKIE_ME);
	KUNIT_EXPECT_EQ(test, lnet_cookie_index(c, 6), 5U);
	KUNIT_EXPECT_EQ(test, c >> (2 + 6), 0x123456789ULL);

	c = lnet_cookie_make(1, 0, 0, LNET_COOKIE_EQ);
	KUNIT_EXPECT_EQ(test, c, 5ULL);		/* 1 << 2 | EQ */

	c = lnet_cookie_make(7, 3, 2, LNET_COOKIE_MD);
	KUNIT_EXPECT_EQ(test, lnet_cookie_type(c), (unsigned int)LNET_COOKIE_MD);
	KUNIT_EXPECT_EQ(test, lnet_cookie_index(c, 2), 3U);

	/* "no handle" and zero are never a valid EQ/ME/MD cookie */
	KUNIT_EXPECT_EQ(test, lnet_cookie_type(0), 0U);
}

static void handle_api_cookies(struct kunit *test)
{
	unsigned int bits = lnet_core.md_slot_bits;
	struct lnet_handle_eq eqh = wb_eq(test, 4, NULL);
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	u8 buf[8];
	int i;

	KUNIT_EXPECT_EQ(test, lnet_cookie_type(eqh.cookie),
			(unsigned int)LNET_COOKIE_EQ);
	for (i = 0; i < LNET_MAX_PORTALS; i += 21) {
		meh = wb_me(test, i, wb_any(), 0, 0);
		KUNIT_EXPECT_EQ(test, lnet_cookie_type(meh.cookie),
				(unsigned int)LNET_COOKIE_ME);
		KUNIT_EXPECT_EQ(test,
				lnet_cookie_index(meh.cookie, LNET_PORTAL_BITS),
				(unsigned int)i);
	}
	for (i = 0; i < 8; i++) {
		mdh = wb_bind(test, wb_md(buf, 8, 1, 0, NULL, eqh));
		KUNIT_EXPECT_EQ(test, lnet_cookie_type(mdh.cookie),
				(unsigned int)LNET_COOKIE_MD);
		KUNIT_EXPECT_LT(test, lnet_cookie_index(mdh.cookie, bits),
				1U << bits);
		KUNIT_EXPECT_PTR_EQ(test, lnet_md_slot_of(mdh.cookie),
				    &lnet_core.md_slots[lnet_cookie_index(mdh.cookie,
									  bits)]);
	}
}

/* md_lock_slots=0: a power of two covering the possible CPUs */
static void handle_md_slots(struct kunit *test)
{
	unsigned int n = 1U << lnet_core.md_slot_bits;

	if (lnet_md_lock_slots)
		KUNIT_EXPECT_EQ(test, n, roundup_pow_of_two(lnet_md_lock_slots));
	else
		KUNIT_EXPECT_GE(test, n, num_possible_cpus());
	KUNIT_EXPECT_LE(test, n, 1U << LNET_MD_SLOT_BITS_MAX);
}

struct hnode_obj {
	struct lnet_hnode	hn;
	u64			val;
};

/* Thousands of handles: the table grows by itself and finds them all. */
static void handle_htable_grows(struct kunit *test)
{
	const unsigned int n = 5000;
	struct lnet_hnode *hn, *absent, *gone, *kept;
	struct hnode_obj *objs;
	struct lnet_htable *t;
	spinlock_t lock;
	unsigned int i, found, added = 0;

	spin_lock_init(&lock);

	objs = kunit_kcalloc(test, n, sizeof(*objs), GFP_KERNEL);
	/* not on the stack: its resize work item is queued */
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, lnet_htable_init(t, &lock), 0);
	for (i = 0; i < n; i++) {
		objs[i].val = i;
		spin_lock_bh(&lock);
		added += !lnet_htable_add(t, &objs[i].hn, i * 4 + 1);
		spin_unlock_bh(&lock);
	}
	KUNIT_EXPECT_EQ(test, added, n);
	KUNIT_EXPECT_EQ(test, lnet_htable_count(t), n);

	spin_lock_bh(&lock);
	for (i = 0, found = 0; i < n; i++) {
		hn = lnet_htable_find(t, i * 4 + 1);
		if (hn && container_of(hn, struct hnode_obj, hn)->val == i)
			found++;
	}
	absent = lnet_htable_find(t, 4 * n + 1) ?: lnet_htable_find(t, 2);
	for (i = 0; i < n; i += 2)
		lnet_htable_del(t, &objs[i].hn);
	gone = lnet_htable_find(t, 1);
	kept = lnet_htable_find(t, 5);
	for (i = 1; i < n; i += 2)
		lnet_htable_del(t, &objs[i].hn);
	spin_unlock_bh(&lock);
	KUNIT_EXPECT_EQ(test, found, n);
	KUNIT_EXPECT_NULL(test, absent);
	KUNIT_EXPECT_NULL(test, gone);
	KUNIT_EXPECT_PTR_EQ(test, kept, &objs[1].hn);
	KUNIT_EXPECT_EQ(test, lnet_htable_count(t), 0U);
	lnet_htable_fini(t);
}

/* Freed handles are never handed out again, so they stay stale. */
static void handle_no_reuse(struct kunit *test)
{
	const int n = 200;
	struct lnet_handle_eq eqh, first;
	u8 buf[8];
	int i;

	KUNIT_ASSERT_EQ(test, LNetEQAlloc(1, NULL, &first), 0);
	KUNIT_ASSERT_EQ(test, LNetEQFree(first), 0);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, LNetEQAlloc(1, NULL, &eqh), 0);
		KUNIT_EXPECT_NE(test, eqh.cookie, first.cookie);
		KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
		KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -ENOENT);
	}
	KUNIT_EXPECT_EQ(test, LNetEQFree(first), -ENOENT);

	for (i = 0; i < n; i++) {
		struct lnet_handle_md mdh;

		KUNIT_ASSERT_EQ(test, LNetMDBind(wb_md(buf, 8, 1, 0, NULL,
						       wb_no_eq()),
						 LNET_UNLINK, &mdh), 0);
		KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
		KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
	}
}

/* A cookie of one type presented as another never resolves. */
static void handle_wrong_type(struct kunit *test)
{
	struct lnet_handle_eq eqh = wb_eq(test, 4, NULL), as_eq;
	struct lnet_handle_me meh = wb_me(test, 3, wb_any(), 1, 0), as_me;
	struct lnet_handle_md mdh, as_md;
	struct lnet_event ev;
	u8 buf[8];

	mdh = wb_bind(test, wb_md(buf, 8, 1, 0, NULL, eqh));
	as_me.cookie = mdh.cookie;
	as_md.cookie = meh.cookie;
	as_eq.cookie = meh.cookie;
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(as_me), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(as_md), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQGet(as_eq, &ev), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMDAttach(as_me, wb_md(buf, 8, 1, 0, NULL,
							wb_no_eq()),
					   LNET_UNLINK, &as_md), -ENOENT);
	as_eq.cookie = mdh.cookie;
	KUNIT_EXPECT_EQ(test, LNetMDBind(wb_md(buf, 8, 1, 0, NULL, as_eq),
					 LNET_UNLINK, &as_md), -ENOENT);
	/* the real objects are intact */
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
	wb_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), 0);
}

/* Handles from before a restart stay stale after it. */
static void handle_stale_across_restart(struct kunit *test)
{
	struct lnet_handle_eq eqh, eqh2;
	struct lnet_handle_me meh, meh2;
	struct lnet_handle_md mdh, mdh2;
	u8 buf[8];

	/* this case manages its own LNetNIInit references */
	if (READ_ONCE(lnet_core.refcount))
		kunit_skip(test, "LNet is held up by another user");
	KUNIT_ASSERT_EQ(test, LNetNIInit(LNET_PID_LUSTRE), 0);
	KUNIT_ASSERT_EQ(test, LNetEQAlloc(2, NULL, &eqh), 0);
	KUNIT_ASSERT_EQ(test, LNetMEAttach(7, wb_any(), 0, 0, LNET_UNLINK,
					   LNET_INS_AFTER, &meh), 0);
	KUNIT_ASSERT_EQ(test, LNetMDBind(wb_md(buf, 8, 1, 0, NULL, eqh),
					 LNET_UNLINK, &mdh), 0);
	KUNIT_ASSERT_EQ(test, LNetNIFini(), 0);

	/* the shutdown freed them; new objects get new cookies */
	KUNIT_ASSERT_EQ(test, LNetNIInit(LNET_PID_LUSTRE), 0);
	KUNIT_ASSERT_EQ(test, LNetEQAlloc(2, NULL, &eqh2), 0);
	KUNIT_ASSERT_EQ(test, LNetMEAttach(7, wb_any(), 0, 0, LNET_UNLINK,
					   LNET_INS_AFTER, &meh2), 0);
	KUNIT_ASSERT_EQ(test, LNetMDBind(wb_md(buf, 8, 1, 0, NULL, eqh2),
					 LNET_UNLINK, &mdh2), 0);
	KUNIT_EXPECT_NE(test, eqh.cookie, eqh2.cookie);
	KUNIT_EXPECT_NE(test, meh.cookie, meh2.cookie);
	KUNIT_EXPECT_NE(test, mdh.cookie, mdh2.cookie);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh2), 0);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh2), 0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh2), 0);
	KUNIT_EXPECT_EQ(test, LNetNIFini(), 0);
}

static struct kunit_case lnet_handle_cases[] = {
	KUNIT_CASE(handle_cookie_layout),
	KUNIT_CASE(handle_api_cookies),
	KUNIT_CASE(handle_md_slots),
	KUNIT_CASE(handle_htable_grows),
	KUNIT_CASE(handle_no_reuse),
	KUNIT_CASE(handle_wrong_type),
	{}
};

static struct kunit_suite lnet_handle_suite = {
	.name = "lnet_handle",
	.init = wb_init,
	.exit = wb_exit,
	.test_cases = lnet_handle_cases,
};

/* No .init: the case takes LNet down and up itself. */
static struct kunit_case lnet_handle_restart_cases[] = {
	KUNIT_CASE(handle_stale_across_restart),
	{}
};

static struct kunit_suite lnet_handle_restart_suite = {
	.name = "lnet_handle_restart",
	.test_cases = lnet_handle_restart_cases,
};
kunit_test_suites(&lnet_handle_suite, &lnet_handle_restart_suite);
