// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of matching: which MEs go to a portal's match hash
 * ("exact") and which to its ordered list ("wild"), that the first ME in
 * portal order wins across both kinds (also through renumbering of the
 * order keys), and that 100,000 exact MEs are still found through short
 * hash chains.
 */
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/vmalloc.h>
#include <linux/lnet/lib-lnet.h>
#include "wb_util.h"

#define ANY_BITS	(~0ULL)

struct match_env {
	struct lnet_handle_eq	teq;
	struct lnet_handle_md	smd;
	u8			src[8];
	u8			dst[64][8];
};

static int match_init(struct kunit *test)
{
	struct match_env *env;
	struct wb_ctx *ctx;
	int rc = wb_init(test);

	if (rc)
		return rc;
	ctx = test->priv;
	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	if (!env)
		return -ENOMEM;
	ctx->priv = env;
	env->teq = wb_eq(test, 256, NULL);
	env->smd = wb_bind(test, wb_md(env->src, sizeof(env->src),
				       LNET_MD_THRESH_INF, 0, NULL,
				       wb_no_eq()));
	return 0;
}

static struct match_env *menv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

/* An ME + MD tagged @tag (its user_ptr); @threshold operations. */
static struct lnet_handle_me mt_target(struct kunit *test, unsigned int portal,
				       struct lnet_process_id id, u64 bits,
				       u64 ignore, int tag, int threshold)
{
	struct match_env *env = menv(test);
	struct lnet_handle_me meh = wb_me(test, portal, id, bits, ignore);

	/* the initiator's offset (0): an MD takes any number of PUTs */
	wb_attach(test, meh, wb_md(env->dst[tag], 8, threshold,
				   LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE,
				   (void *)(unsigned long)(tag + 1), env->teq));
	return meh;
}

/* PUT @bits from 0@lo to @portal: the tag of the MD it landed in, or -1. */
static int mt_put(struct kunit *test, unsigned int portal, u64 bits)
{
	struct match_env *env = menv(test);
	struct lnet_event ev;
	int which;

	KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, env->smd, LNET_NOACK_REQ,
				      wb_lo(), portal, bits, 0, 0), 0);
	if (LNetEQPoll(&env->teq, 1, WB_QUIET_MS, &ev, &which) != 1)
		return -1;
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_PUT);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	return (int)(unsigned long)ev.md.user_ptr - 1;
}

static void match_kinds(struct kunit *test)
{
	struct lnet_ptl_stats st;
	const unsigned int pt = 40;

	mt_target(test, pt, wb_lo(), 1, 0, 0, 1);		/* exact */
	mt_target(test, pt, wb_id(LNET_NID_LO_0, LNET_PID_ANY), 2, 0, 1, 1);
	mt_target(test, pt, wb_any(), 3, 0, 2, 1);		/* any NID */
	mt_target(test, pt, wb_lo(), 0x400, 0xf, 3, 1);	/* ignore bits */
	mt_target(test, pt, wb_id(LNET_NID_ANY, LNET_PID_LUSTRE), 5, 0, 4, 1);
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.nme, 5U);
	KUNIT_EXPECT_EQ(test, st.nexact, 2U);
	KUNIT_EXPECT_EQ(test, st.nwild, 3U);
	/* and each still takes its own traffic */
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 5), 4);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 1), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 0x40b), 3);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 2), 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 3), 2);
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.nme, 0U);	/* all used up and unlinked */
}

static void match_exact_hit_and_miss(struct kunit *test)
{
	const unsigned int pt = 41;

	mt_target(test, pt, wb_lo(), 0x42, 0, 0, LNET_MD_THRESH_INF);
	mt_target(test, pt, wb_any(), 0, ANY_BITS, 1, LNET_MD_THRESH_INF);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 0x42), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 0x43), 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 0x42 | (1ULL << 63)), 1);
}

/* A wild ME ahead of an exact one wins, although the hash finds both. */
static void match_wild_first(struct kunit *test)
{
	const unsigned int pt = 42;

	mt_target(test, pt, wb_any(), 0, ANY_BITS, 0, 1);
	mt_target(test, pt, wb_lo(), 7, 0, 1, LNET_MD_THRESH_INF);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 7), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 7), 1);	/* the wild is gone */
}

static void match_exact_first(struct kunit *test)
{
	const unsigned int pt = 43;

	mt_target(test, pt, wb_lo(), 7, 0, 0, 1);
	mt_target(test, pt, wb_any(), 0, ANY_BITS, 1, LNET_MD_THRESH_INF);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 7), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 7), 1);
}

/* LNetMEInsert of a wild ME between two exact ones. */
static void match_insert_between(struct kunit *test)
{
	struct match_env *env = menv(test);
	struct lnet_handle_me a, b, w;
	struct wb_ctx *ctx = test->priv;
	const unsigned int pt = 44;

	a = mt_target(test, pt, wb_lo(), 9, 0, 0, 1);
	b = mt_target(test, pt, wb_lo(), 9, 0, 1, 1);
	KUNIT_ASSERT_EQ(test, LNetMEInsert(b, wb_any(), 0, ANY_BITS,
					   LNET_UNLINK, LNET_INS_BEFORE, &w),
			0);
	ctx->me[ctx->nme++] = w;
	wb_attach(test, w, wb_md(env->dst[2], 8, 1, LNET_MD_OP_PUT,
				 (void *)3UL, env->teq));
	/* A W B */
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 9), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 9), 2);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 9), 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 9), -1);
	(void)a;
}

/* Two exact MEs with the same key: the older one first. */
static void match_duplicate_exact(struct kunit *test)
{
	const unsigned int pt = 45;

	mt_target(test, pt, wb_lo(), 11, 0, 0, 1);
	mt_target(test, pt, wb_lo(), 11, 0, 1, 1);
	mt_target(test, pt, wb_lo(), 11, 0, 2, 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 11), 0);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 11), 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 11), 2);
}

static void match_exact_pid(struct kunit *test)
{
	const unsigned int pt = 46;

	mt_target(test, pt, wb_id(LNET_NID_LO_0, 54321), 12, 0, 0, 1);
	mt_target(test, pt, wb_id(LNET_NID_LO_0, LNET_PID_ANY), 12, 0, 1, 1);
	mt_target(test, pt, wb_any(), 0, ANY_BITS, 2, LNET_MD_THRESH_INF);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 12), 1);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 12), 2);
}

/* An exact ME whose MD refuses the operation is passed over. */
static void match_skip_refusing_md(struct kunit *test)
{
	struct match_env *env = menv(test);
	struct lnet_handle_me meh;
	const unsigned int pt = 47;

	meh = wb_me(test, pt, wb_lo(), 13, 0);
	wb_attach(test, meh, wb_md(env->dst[0], 8, LNET_MD_THRESH_INF,
				   LNET_MD_OP_GET, (void *)1UL, env->teq));
	meh = wb_me(test, pt, wb_lo(), 13, 0);		/* no MD at all */
	mt_target(test, pt, wb_any(), 0, ANY_BITS, 2, LNET_MD_THRESH_INF);
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 13), 2);
}

/*
 * Insert 40 MEs, alternately exact and wild, each right before the same
 * ME: every insertion halves a gap of the order keys until the portal is
 * renumbered. The portal order must come out exactly as inserted.
 */
static void match_renumber(struct kunit *test)
{
	struct match_env *env = menv(test);
	struct wb_ctx *ctx = test->priv;
	const unsigned int pt = 48, n = 40;
	struct lnet_handle_me last, meh;
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	unsigned int i;
	int which;

	last = wb_me(test, pt, wb_any(), 0, ANY_BITS);
	wb_attach(test, last, wb_md(env->dst[63], 8, 1, LNET_MD_OP_PUT,
				    (void *)1000UL, env->teq));
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, LNetMEInsert(last,
						   i & 1 ? wb_any() : wb_lo(),
						   0, i & 1 ? ANY_BITS : 0,
						   LNET_UNLINK,
						   LNET_INS_BEFORE, &meh), 0);
		KUNIT_ASSERT_EQ(test, LNetMDAttach(meh, wb_md(env->dst[i % 63],
							      8, 1,
							      LNET_MD_OP_PUT,
							      (void *)(unsigned long)(i + 1),
							      env->teq),
						   LNET_UNLINK, &mdh), 0);
		if (ctx->nmd < WB_MAX_OBJS)
			ctx->md[ctx->nmd++] = mdh;
	}
	for (i = 0; i <= n; i++) {
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, env->smd,
					      LNET_NOACK_REQ, wb_lo(), pt, 0,
					      0, 0), 0);
		KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->teq, 1, WB_WAIT_MS, &ev,
						 &which), 1);
		KUNIT_EXPECT_EQ(test, (unsigned long)ev.md.user_ptr,
				i < n ? i + 1 : 1000UL);
	}
}

static void match_lazy_counts(struct kunit *test)
{
	struct lnet_ptl_stats st;
	const unsigned int pt = 49;
	int i;

	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(pt), 0);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, mt_put(test, pt, 21), -1);
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.ndelayed, 3U);
	mt_target(test, pt, wb_lo(), 21, 0, 0, 2);	/* takes two */
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.ndelayed, 1U);
	KUNIT_EXPECT_EQ(test, LNetClearLazyPortal(pt), 0);
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.ndelayed, 0U);
}

#define MANY	100000

/* 100,000 exact MEs: short chains, and every probe lands right. */
static void match_100k_exact(struct kunit *test)
{
	struct match_env *env = menv(test);
	const unsigned int pt = 50;
	struct lnet_handle_me *mes;
	struct lnet_handle_md mdh;
	struct lnet_ptl_stats st;
	u64 *slots, bits;
	unsigned int i, k, probe[64];
	ktime_t t0;
	s64 us;

	mes = kvcalloc(MANY, sizeof(*mes), GFP_KERNEL);
	slots = kvcalloc(MANY, sizeof(*slots), GFP_KERNEL);
	if (!mes || !slots) {
		kvfree(mes);
		kvfree(slots);
		kunit_skip(test, "no memory for %d MEs", MANY);
	}
	t0 = ktime_get();
	for (i = 0; i < MANY; i++) {
		bits = 0x1000000ULL + i * 0x10001ULL;
		if (LNetMEAttach(pt, wb_lo(), bits, 0, LNET_UNLINK,
				 LNET_INS_AFTER, &mes[i]) ||
		    LNetMDAttach(mes[i], wb_md(&slots[i], 8,
					       LNET_MD_THRESH_INF,
					       LNET_MD_OP_PUT, NULL,
					       wb_no_eq()),
				 LNET_UNLINK, &mdh)) {
			KUNIT_FAIL(test, "posting ME %u failed", i);
			break;
		}
		cond_resched();
	}
	kunit_info(test, "posted %u MEs in %lld ms\n", i,
		   ktime_ms_delta(ktime_get(), t0));
	mt_target(test, pt, wb_any(), 0, ANY_BITS, 0, LNET_MD_THRESH_INF);

	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.nexact, (unsigned int)MANY);
	KUNIT_EXPECT_EQ(test, st.nwild, 1U);
	KUNIT_EXPECT_GE(test, st.hash_bits, 15U);
	KUNIT_EXPECT_LE(test, st.max_chain, 16U);
	kunit_info(test, "hash bits %u, longest chain %u\n", st.hash_bits,
		   st.max_chain);

	probe[0] = 0;
	probe[1] = MANY - 1;
	probe[2] = MANY / 2;
	for (k = 3; k < ARRAY_SIZE(probe); k++)
		probe[k] = get_random_u32() % MANY;
	t0 = ktime_get();
	for (k = 0; k < ARRAY_SIZE(probe); k++) {
		i = probe[k];
		memcpy(env->src, &i, sizeof(i));
		KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, env->smd,
					      LNET_NOACK_REQ, wb_lo(), pt,
					      0x1000000ULL + i * 0x10001ULL, 0,
					      0), 0);
		KUNIT_EXPECT_EQ_MSG(test, slots[i] & 0xffffffff, (u64)i,
				    "ME %u", i);
	}
	us = ktime_us_delta(ktime_get(), t0);
	kunit_info(test, "%zu matched PUTs in %lld us\n", ARRAY_SIZE(probe),
		   us);
	/* bits no exact ME has: the wild catch-all at the end */
	KUNIT_EXPECT_EQ(test, mt_put(test, pt, 0x7), 0);

	for (i = 0; i < MANY; i++) {
		LNetMEUnlink(mes[i]);
		cond_resched();
	}
	KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(pt, &st), 0);
	KUNIT_EXPECT_EQ(test, st.nexact, 0U);
	kvfree(mes);
	kvfree(slots);
}

static struct kunit_case lnet_match_cases[] = {
	KUNIT_CASE(match_kinds),
	KUNIT_CASE(match_exact_hit_and_miss),
	KUNIT_CASE(match_wild_first),
	KUNIT_CASE(match_exact_first),
	KUNIT_CASE(match_insert_between),
	KUNIT_CASE(match_duplicate_exact),
	KUNIT_CASE(match_exact_pid),
	KUNIT_CASE(match_skip_refusing_md),
	KUNIT_CASE(match_renumber),
	KUNIT_CASE(match_lazy_counts),
	KUNIT_CASE(match_100k_exact),
	{}
};

static struct kunit_suite lnet_match_suite = {
	.name = "lnet_match",
	.init = match_init,
	.exit = wb_exit,
	.test_cases = lnet_match_cases,
};
kunit_test_suite(lnet_match_suite);
