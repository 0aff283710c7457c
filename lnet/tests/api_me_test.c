// SPDX-License-Identifier: GPL-2.0
/*
 * Black-box tests of the public LNet API (include/linux/lnet/api.h): match
 * entries. Which ME a loopback PUT/GET selects (initiator NID/pid, match
 * and ignore bits, list order from LNetMEAttach/LNetMEInsert), and ME
 * lifetime (LNET_UNLINK vs LNET_RETAIN, stale handles).
 *
 * A PUT that an ME must not take is usually caught by a "catch-all" ME
 * placed after it: landing there is positive proof that the ME was
 * skipped, with no need to wait for an event that should not come.
 */
#include "api_test_util.h"

#define ME_LEN	16

struct me_env {
	struct lnet_handle_eq seq;	/* initiator's EQ */
	struct lnet_handle_eq teq;	/* every target MD's EQ */
	struct lnet_handle_md smd;	/* PUT source */
	u8 *src;
	u8 tag[8];			/* user_ptr values: &tag[i] */
};

static struct me_env *me_env(struct kunit *test)
{
	struct me_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, env);
	env->seq = lat_eq(test, 16, NULL);
	env->teq = lat_eq(test, 16, NULL);
	env->src = lat_buf(test, ME_LEN, 0x3e);
	env->smd = lat_bind(test, lat_mkmd(env->src, ME_LEN,
					   LNET_MD_THRESH_INF, 0, NULL,
					   env->seq), LNET_UNLINK);
	return env;
}

/* An ME with an MD (tagged &env->tag[tag]) on it. */
static struct lnet_handle_md me_target(struct kunit *test, struct me_env *env,
				       unsigned int portal,
				       struct lnet_process_id id, u64 bits,
				       u64 ignore, enum lnet_ins_pos pos,
				       int tag, int threshold,
				       struct lnet_handle_me *mehp)
{
	struct lnet_handle_me meh;
	u8 *buf = lat_pbuf(test, ME_LEN);

	meh = lat_me(test, portal, id, bits, ignore, LNET_UNLINK, pos);
	if (mehp)
		*mehp = meh;
	/* MANAGE_REMOTE: every PUT lands at offset 0, however many come */
	return lat_attach(test, meh, lat_mkmd(buf, ME_LEN, threshold,
					      LNET_MD_OP_PUT | LNET_MD_OP_GET |
					      LNET_MD_MANAGE_REMOTE,
					      &env->tag[tag], env->teq),
			  LNET_UNLINK);
}

/* The catch-all ME (any initiator, any bits) at the tail: tag 7. */
static struct lnet_handle_md me_catch_all(struct kunit *test,
					  struct me_env *env,
					  unsigned int portal)
{
	return me_target(test, env, portal, lat_any(), 0, LAT_ANY_BITS,
			 LNET_INS_AFTER, 7, LNET_MD_THRESH_INF, NULL);
}

/* PUT (no ACK) from 0@lo and wait for its SEND. */
static void me_put(struct kunit *test, struct me_env *env,
		   unsigned int portal, u64 bits)
{
	struct lnet_event ev;

	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, env->smd, LNET_NOACK_REQ,
				      lat_lo(), portal, bits, 0, bits), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
}

/* The next target event must be a PUT into the MD tagged @tag. */
static void me_expect_in(struct kunit *test, struct me_env *env, int tag,
			 u64 bits)
{
	struct lnet_event ev;

	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_PTR_EQ_MSG(test, ev.md.user_ptr, (void *)&env->tag[tag],
				"PUT landed in MD tag %ld, want %d",
				(long)((u8 *)ev.md.user_ptr - env->tag), tag);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	KUNIT_EXPECT_EQ(test, ev.hdr_data, bits);
}

/* ---- matching on the initiator --------------------------------------- */

static void me_match_any(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_md mdh;
	struct lnet_event ev;

	mdh = me_target(test, env, 1, lat_any(), 0x42, 0, LNET_INS_AFTER, 0,
			LNET_MD_THRESH_INF, NULL);
	me_put(test, env, 1, 0x42);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, ev.initiator.pid, (lnet_pid_t)LNET_PID_LUSTRE);
	KUNIT_EXPECT_EQ(test, ev.pt_index, 1U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, 0x42ULL);
}

static void me_match_exact_id(struct kunit *test)
{
	struct me_env *env = me_env(test);

	/* exact nid+pid, exact nid with any pid, any nid with exact pid */
	me_target(test, env, 2, lat_lo(), 1, 0, LNET_INS_AFTER, 0,
		  LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 2, lat_id(LNET_NID_LO_0, LNET_PID_ANY), 2, 0,
		  LNET_INS_AFTER, 1, LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 2, lat_id(LNET_NID_ANY, LNET_PID_LUSTRE), 3, 0,
		  LNET_INS_AFTER, 2, LNET_MD_THRESH_INF, NULL);
	me_catch_all(test, env, 2);

	me_put(test, env, 2, 1);
	me_expect_in(test, env, 0, 1);
	me_put(test, env, 2, 2);
	me_expect_in(test, env, 1, 2);
	me_put(test, env, 2, 3);
	me_expect_in(test, env, 2, 3);
}

static void me_nid_mismatch(struct kunit *test)
{
	struct me_env *env = me_env(test);
	lnet_nid_t other = LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0),
				      0xc0000201);	/* 192.0.2.1@tcp */

	me_target(test, env, 3, lat_id(other, LNET_PID_ANY), 0, LAT_ANY_BITS,
		  LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 3, lat_id(other, LNET_PID_LUSTRE), 0,
		  LAT_ANY_BITS, LNET_INS_AFTER, 1, LNET_MD_THRESH_INF, NULL);
	me_catch_all(test, env, 3);

	me_put(test, env, 3, 9);
	me_expect_in(test, env, 7, 9);
	me_put(test, env, 3, 10);
	me_expect_in(test, env, 7, 10);
}

static void me_pid_mismatch(struct kunit *test)
{
	struct me_env *env = me_env(test);

	me_target(test, env, 4, lat_id(LNET_NID_LO_0, 54321), 0, LAT_ANY_BITS,
		  LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 4, lat_id(LNET_NID_ANY, 54321), 0, LAT_ANY_BITS,
		  LNET_INS_AFTER, 1, LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 4,
		  lat_id(LNET_NID_ANY, LNET_PID_LUSTRE | LNET_PID_USERFLAG),
		  0, LAT_ANY_BITS, LNET_INS_AFTER, 2, LNET_MD_THRESH_INF,
		  NULL);
	me_catch_all(test, env, 4);

	me_put(test, env, 4, 11);
	me_expect_in(test, env, 7, 11);
}

static void me_no_match_dropped(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_event ev;
	u8 *buf = lat_pbuf(test, ME_LEN);
	struct lnet_handle_me meh;

	meh = lat_me(test, 5, lat_any(), 0x100, 0, LNET_UNLINK,
		     LNET_INS_AFTER);
	lat_attach(test, meh, lat_mkmd(buf, ME_LEN, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq),
		   LNET_UNLINK);
	/* wrong bits: dropped; the initiator still sees its SEND */
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, env->smd, LNET_ACK_REQ,
				      lat_lo(), 5, 0x101, 0, 0), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_quiet(test, env->teq, "no ME matches");
	lat_quiet(test, env->seq, "dropped PUT: no ACK");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(buf, ME_LEN));
}

/* ---- matching on bits -------------------------------------------------- */

static void me_match_bits(struct kunit *test)
{
	struct me_env *env = me_env(test);
	static const u64 bits = 0x8000000000001234ULL;

	me_target(test, env, 6, lat_any(), bits, 0, LNET_INS_AFTER, 0,
		  LNET_MD_THRESH_INF, NULL);
	me_catch_all(test, env, 6);

	me_put(test, env, 6, bits);
	me_expect_in(test, env, 0, bits);
	me_put(test, env, 6, bits ^ 1);
	me_expect_in(test, env, 7, bits ^ 1);
	me_put(test, env, 6, bits & ~(1ULL << 63));
	me_expect_in(test, env, 7, bits & ~(1ULL << 63));
	me_put(test, env, 6, 0);
	me_expect_in(test, env, 7, 0);
}

static void me_ignore_bits(struct kunit *test)
{
	struct me_env *env = me_env(test);

	/* bits 0x1234, low byte and bit 40 ignored */
	me_target(test, env, 7, lat_any(), 0x1234, 0xffULL | (1ULL << 40),
		  LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, NULL);
	me_catch_all(test, env, 7);

	me_put(test, env, 7, 0x12ab);
	me_expect_in(test, env, 0, 0x12ab);	/* event has the PUT's bits */
	me_put(test, env, 7, 0x1200 | (1ULL << 40));
	me_expect_in(test, env, 0, 0x1200 | (1ULL << 40));
	me_put(test, env, 7, 0x1334);
	me_expect_in(test, env, 7, 0x1334);
	me_put(test, env, 7, 0x1234 | (1ULL << 41));
	me_expect_in(test, env, 7, 0x1234 | (1ULL << 41));
}

static void me_get_matching(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_eq keq = lat_eq(test, 8, NULL);
	struct lnet_handle_md kmd;
	struct lnet_handle_me meh;
	struct lnet_event ev;
	u8 *a = lat_buf(test, ME_LEN, 0xa);
	u8 *b = lat_buf(test, ME_LEN, 0xb);
	u8 *sink = lat_pbuf(test, ME_LEN);

	meh = lat_me(test, 8, lat_any(), 5, 0, LNET_UNLINK, LNET_INS_AFTER);
	lat_attach(test, meh, lat_mkmd(a, ME_LEN, LNET_MD_THRESH_INF,
				       LNET_MD_OP_GET, NULL, env->teq),
		   LNET_UNLINK);
	meh = lat_me(test, 8, lat_any(), 0, LAT_ANY_BITS, LNET_UNLINK,
		     LNET_INS_AFTER);
	lat_attach(test, meh, lat_mkmd(b, ME_LEN, LNET_MD_THRESH_INF,
				       LNET_MD_OP_GET, NULL, env->teq),
		   LNET_UNLINK);
	kmd = lat_bind(test, lat_mkmd(sink, ME_LEN, LNET_MD_THRESH_INF, 0,
				      NULL, keq), LNET_UNLINK);

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 8, 6, 0),
			0);
	lat_wait(test, keq, LNET_EVENT_SEND, &ev);
	lat_wait(test, keq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(sink, b, ME_LEN), 0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.start, (void *)b);

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 8, 5, 0),
			0);
	lat_wait(test, keq, LNET_EVENT_SEND, &ev);
	lat_wait(test, keq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(sink, a, ME_LEN), 0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.start, (void *)a);
}

/* ---- list order ---------------------------------------------------------- */

static void me_attach_order(struct kunit *test)
{
	struct me_env *env = me_env(test);

	/* threshold 1: each MD (and its ME) goes after one PUT */
	me_target(test, env, 9, lat_any(), 0, LAT_ANY_BITS, LNET_INS_AFTER,
		  0, 1, NULL);					/* A */
	me_target(test, env, 9, lat_any(), 0, LAT_ANY_BITS, LNET_INS_BEFORE,
		  1, 1, NULL);					/* B A */
	me_target(test, env, 9, lat_any(), 0, LAT_ANY_BITS, LNET_INS_AFTER,
		  2, 1, NULL);					/* B A C */
	me_target(test, env, 9, lat_any(), 0, LAT_ANY_BITS, LNET_INS_BEFORE,
		  3, 1, NULL);					/* D B A C */

	me_put(test, env, 9, 1);
	me_expect_in(test, env, 3, 1);
	me_put(test, env, 9, 2);
	me_expect_in(test, env, 1, 2);
	me_put(test, env, 9, 3);
	me_expect_in(test, env, 0, 3);
	me_put(test, env, 9, 4);
	me_expect_in(test, env, 2, 4);
	me_put(test, env, 9, 5);
	lat_quiet(test, env->teq, "every ME used up");
}

static struct lnet_handle_me me_insert(struct kunit *test, struct me_env *env,
				       struct lnet_handle_me cur,
				       enum lnet_ins_pos pos, int tag)
{
	struct lnet_handle_me meh;
	u8 *buf = lat_pbuf(test, ME_LEN);

	KUNIT_ASSERT_EQ(test, LNetMEInsert(cur, lat_any(), 0, LAT_ANY_BITS,
					   LNET_UNLINK, pos, &meh), 0);
	lat_track_me(test, meh);
	lat_attach(test, meh, lat_mkmd(buf, ME_LEN, 1, LNET_MD_OP_PUT,
				       &env->tag[tag], env->teq), LNET_UNLINK);
	return meh;
}

static void me_insert_order(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_me a, b;
	static const int want[] = { 2, 0, 3, 1, 4 };
	unsigned int i;

	me_target(test, env, 10, lat_any(), 0, LAT_ANY_BITS, LNET_INS_AFTER,
		  0, 1, &a);				/* A */
	b = me_insert(test, env, a, LNET_INS_AFTER, 1);	/* A B */
	me_insert(test, env, a, LNET_INS_BEFORE, 2);	/* C A B */
	me_insert(test, env, b, LNET_INS_BEFORE, 3);	/* C A D B */
	me_insert(test, env, b, LNET_INS_AFTER, 4);	/* C A D B E */

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		me_put(test, env, 10, i);
		me_expect_in(test, env, want[i], i);
	}
	me_put(test, env, 10, 99);
	lat_quiet(test, env->teq, "every ME used up");
}

static void me_first_match_wins(struct kunit *test)
{
	struct me_env *env = me_env(test);
	int i;

	/* two match-any MEs: all traffic goes to the first */
	me_target(test, env, 11, lat_any(), 0, LAT_ANY_BITS, LNET_INS_AFTER,
		  0, LNET_MD_THRESH_INF, NULL);
	me_target(test, env, 11, lat_any(), 0, LAT_ANY_BITS, LNET_INS_AFTER,
		  1, LNET_MD_THRESH_INF, NULL);
	for (i = 0; i < 3; i++) {
		me_put(test, env, 11, i);
		me_expect_in(test, env, 0, i);
	}
	/* a third one at the head takes over */
	me_target(test, env, 11, lat_any(), 0, LAT_ANY_BITS, LNET_INS_BEFORE,
		  2, LNET_MD_THRESH_INF, NULL);
	me_put(test, env, 11, 3);
	me_expect_in(test, env, 2, 3);
}

/* ---- lifetime -------------------------------------------------------- */

static void me_unlink_with_md(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	struct lnet_event ev;

	mdh = me_target(test, env, 12, lat_any(), 0, LAT_ANY_BITS,
			LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, &meh);
	KUNIT_ASSERT_EQ(test, LNetMEUnlink(meh), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)&env->tag[0]);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), -ENOENT);
	me_put(test, env, 12, 0);
	lat_quiet(test, env->teq, "ME unlinked");
}

static void me_unlink_follows_md(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	u8 *buf = lat_pbuf(test, ME_LEN);
	int rc;

	mdh = me_target(test, env, 13, lat_any(), 0, LAT_ANY_BITS,
			LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, &meh);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	/* LNET_UNLINK: the ME went with its MD */
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), -ENOENT);
	rc = LNetMDAttach(meh, lat_mkmd(buf, ME_LEN, LNET_MD_THRESH_INF,
					LNET_MD_OP_PUT, NULL, env->teq),
			  LNET_UNLINK, &mdh);
	KUNIT_EXPECT_EQ(test, rc, -ENOENT);
	if (!rc)
		lat_track_md(test, mdh);
}

static void me_retain_reattach(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_md md1, md2, md3;
	struct lnet_handle_me meh;
	struct lnet_event ev;
	u8 *b2 = lat_pbuf(test, ME_LEN), *b3 = lat_pbuf(test, ME_LEN);

	meh = lat_me(test, 14, lat_any(), 0, LAT_ANY_BITS, LNET_RETAIN,
		     LNET_INS_AFTER);
	md1 = lat_attach(test, meh, lat_mkmd(lat_pbuf(test, ME_LEN), ME_LEN,
					     LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT, &env->tag[0],
					     env->teq), LNET_UNLINK);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(md1), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);

	/* the ME stayed: it takes a new MD, which then receives */
	md2 = lat_attach(test, meh, lat_mkmd(b2, ME_LEN, 1, LNET_MD_OP_PUT,
					     &env->tag[1], env->teq),
			 LNET_UNLINK);
	me_put(test, env, 14, 1);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, md2));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);	/* threshold 1 used up */
	KUNIT_EXPECT_EQ(test, memcmp(b2, env->src, ME_LEN), 0);

	/* still there after its MD was exhausted too */
	md3 = lat_attach(test, meh, lat_mkmd(b3, ME_LEN, LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT, &env->tag[2],
					     env->teq), LNET_UNLINK);
	me_put(test, env, 14, 2);
	me_expect_in(test, env, 2, 2);
	KUNIT_EXPECT_EQ(test, memcmp(b3, env->src, ME_LEN), 0);

	KUNIT_ASSERT_EQ(test, LNetMEUnlink(meh), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, md3));
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), -ENOENT);
}

static void me_exhausted_md_unlinks_me(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	struct lnet_event ev;

	mdh = me_target(test, env, 15, lat_any(), 0, LAT_ANY_BITS,
			LNET_INS_AFTER, 0, 1, &meh);
	me_catch_all(test, env, 15);

	me_put(test, env, 15, 1);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
	me_put(test, env, 15, 2);
	me_expect_in(test, env, 7, 2);
}

static void me_md_attach_busy(struct kunit *test)
{
	struct me_env *env = me_env(test);
	struct lnet_handle_md mdh, second;
	struct lnet_handle_me meh;
	u8 *buf = lat_pbuf(test, ME_LEN);
	int rc;

	mdh = me_target(test, env, 16, lat_any(), 0, LAT_ANY_BITS,
			LNET_INS_AFTER, 0, LNET_MD_THRESH_INF, &meh);
	rc = LNetMDAttach(meh, lat_mkmd(buf, ME_LEN, LNET_MD_THRESH_INF,
					LNET_MD_OP_PUT, &env->tag[1],
					env->teq), LNET_UNLINK, &second);
	KUNIT_EXPECT_EQ(test, rc, -EBUSY);
	if (!rc)
		lat_track_md(test, second);
	me_put(test, env, 16, 1);
	me_expect_in(test, env, 0, 1);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(buf, ME_LEN));
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

static void me_stale_handle(struct kunit *test)
{
	struct lnet_handle_me old, meh, fresh;
	struct lnet_handle_md mdh;
	u8 *buf = lat_pbuf(test, ME_LEN);
	int rc;

	KUNIT_ASSERT_EQ(test, LNetMEAttach(17, lat_any(), 0, 0, LNET_UNLINK,
					   LNET_INS_AFTER, &old), 0);
	KUNIT_ASSERT_EQ(test, LNetMEUnlink(old), 0);
	fresh = lat_me(test, 17, lat_any(), 0, 0, LNET_UNLINK,
		       LNET_INS_AFTER);
	KUNIT_EXPECT_NE(test, fresh.cookie, old.cookie);

	KUNIT_EXPECT_EQ(test, LNetMEUnlink(old), -ENOENT);
	rc = LNetMDAttach(old, lat_mkmd(buf, ME_LEN, 1, LNET_MD_OP_PUT, NULL,
					lat_no_eq()), LNET_UNLINK, &mdh);
	KUNIT_EXPECT_EQ(test, rc, -ENOENT);
	if (!rc)
		lat_track_md(test, mdh);
	rc = LNetMEInsert(old, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER,
			  &meh);
	KUNIT_EXPECT_EQ(test, rc, -ENOENT);
	if (!rc)
		lat_track_me(test, meh);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(fresh), 0);
}

static void me_invalid_and_wrong_type(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	u8 *buf = lat_pbuf(test, ME_LEN);
	struct lnet_handle_md mdh, out;
	struct lnet_handle_me meh, bad[6];
	struct lnet_event ev;
	unsigned int i;
	int rc;

	mdh = lat_bind(test, lat_mkmd(buf, ME_LEN, LNET_MD_THRESH_INF, 0, NULL,
				      eqh), LNET_UNLINK);
	meh = lat_me(test, 18, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER);
	bad[0].cookie = LNET_INVALID_HANDLE_COOKIE;
	bad[1].cookie = 0;
	bad[2].cookie = 0xfedcba9876543210ULL;
	bad[3].cookie = meh.cookie ^ (1ULL << 44);
	bad[4].cookie = mdh.cookie;	/* an MD */
	bad[5].cookie = eqh.cookie;	/* an EQ */

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, LNetMEUnlink(bad[i]), -ENOENT,
				    "cookie %llx", bad[i].cookie);
		rc = LNetMDAttach(bad[i], lat_mkmd(buf, ME_LEN, 1,
						   LNET_MD_OP_PUT, NULL,
						   lat_no_eq()),
				  LNET_UNLINK, &out);
		KUNIT_EXPECT_EQ_MSG(test, rc, -ENOENT, "cookie %llx",
				    bad[i].cookie);
		if (!rc)
			lat_track_md(test, out);
	}
	/* the real objects behind the borrowed cookies are intact */
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), 0);
	lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), 0);
}

static void me_bad_portal(struct kunit *test)
{
	static const unsigned int bad[] = { LNET_MAX_PORTALS,
					    LNET_MAX_PORTALS + 1, 1000,
					    UINT_MAX };
	struct lnet_handle_me meh;
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rc = LNetMEAttach(bad[i], lat_any(), 0, 0, LNET_UNLINK,
				  LNET_INS_AFTER, &meh);
		KUNIT_EXPECT_LT_MSG(test, rc, 0, "portal %u", bad[i]);
		if (!rc)
			lat_track_me(test, meh);
	}
	/* the last valid one works */
	meh = lat_me(test, LNET_MAX_PORTALS - 1, lat_any(), 0, 0, LNET_UNLINK,
		     LNET_INS_AFTER);
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), 0);
}

static struct kunit_case lnet_api_me_cases[] = {
	KUNIT_CASE(me_match_any),
	KUNIT_CASE(me_match_exact_id),
	KUNIT_CASE(me_nid_mismatch),
	KUNIT_CASE(me_pid_mismatch),
	KUNIT_CASE(me_no_match_dropped),
	KUNIT_CASE(me_match_bits),
	KUNIT_CASE(me_ignore_bits),
	KUNIT_CASE(me_get_matching),
	KUNIT_CASE(me_attach_order),
	KUNIT_CASE(me_insert_order),
	KUNIT_CASE(me_first_match_wins),
	KUNIT_CASE(me_unlink_with_md),
	KUNIT_CASE(me_unlink_follows_md),
	KUNIT_CASE(me_retain_reattach),
	KUNIT_CASE(me_exhausted_md_unlinks_me),
	KUNIT_CASE(me_md_attach_busy),
	KUNIT_CASE(me_stale_handle),
	KUNIT_CASE(me_invalid_and_wrong_type),
	KUNIT_CASE(me_bad_portal),
	{}
};

static struct kunit_suite lnet_api_me_suite = {
	.name = "lnet_api_me",
	.init = lat_init,
	.exit = lat_exit,
	.test_cases = lnet_api_me_cases,
};
kunit_test_suite(lnet_api_me_suite);
