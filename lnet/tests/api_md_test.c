// SPDX-License-Identifier: GPL-2.0
/*
 * Black-box tests of the public LNet API (include/linux/lnet/api.h): memory
 * descriptors. Contiguous and page-vector (LNET_MD_KIOV) buffers, threshold,
 * max_size, the option bits, unlinking (idle, from a callback, with an
 * operation in flight) and stale handles, all through loopback traffic.
 */
#include "api_test_util.h"

struct md_env {
	struct lnet_handle_eq seq;	/* initiator side */
	struct lnet_handle_eq teq;	/* target side */
};

static struct md_env *md_env(struct kunit *test)
{
	struct md_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, env);
	env->seq = lat_eq(test, 32, NULL);
	env->teq = lat_eq(test, 32, NULL);
	return env;
}

/* A bound source/sink MD over @buf on the initiator's EQ. */
static struct lnet_handle_md md_src(struct kunit *test, struct md_env *env,
				    void *buf, unsigned int len)
{
	return lat_bind(test, lat_mkmd(buf, len, LNET_MD_THRESH_INF, 0, NULL,
				       env->seq), LNET_UNLINK);
}

/* A target MD on a match-any ME at the tail of @portal. */
static struct lnet_handle_md md_tgt(struct kunit *test, struct md_env *env,
				    unsigned int portal, void *buf,
				    unsigned int len, int threshold,
				    unsigned int options)
{
	return lat_post(test, portal, 0,
			lat_mkmd(buf, len, threshold, options, buf, env->teq),
			NULL);
}

static void md_put(struct kunit *test, struct md_env *env,
		   struct lnet_handle_md smd, unsigned int portal,
		   unsigned int offset, u64 hdr, enum lnet_ack_req ack)
{
	struct lnet_event ev;

	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, ack, lat_lo(), portal,
				      0, offset, hdr), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, smd));
}

/* The next target event: a PUT of @rlen bytes, @mlen kept at @offset. */
static void md_expect_put(struct kunit *test, struct md_env *env,
			  unsigned int rlen, unsigned int mlen,
			  unsigned int offset, int unlinked,
			  struct lnet_event *ev)
{
	lat_wait(test, env->teq, LNET_EVENT_PUT, ev);
	KUNIT_EXPECT_EQ(test, ev->status, 0);
	KUNIT_EXPECT_EQ(test, ev->rlength, rlen);
	KUNIT_EXPECT_EQ(test, ev->mlength, mlen);
	KUNIT_EXPECT_EQ(test, ev->offset, offset);
	KUNIT_EXPECT_EQ(test, ev->unlinked, unlinked);
}

/* ---- page vectors -------------------------------------------------------- */

/* entry 0 starts mid-page, entry 2 is short and misaligned: 9092 bytes */
static const unsigned int md_kv_offs[] = { 100, 0, 8 };
static const unsigned int md_kv_lens[] = { 3996, 4096, 1000 };
#define MD_KV_LEN	9092

static bool md_kv_outside_poisoned(const struct bio_vec *bv)
{
	return lat_page_poisoned(bv[0].bv_page, 0, 100) &&
	       lat_page_poisoned(bv[2].bv_page, 0, 8) &&
	       lat_page_poisoned(bv[2].bv_page, 1008, PAGE_SIZE);
}

static void md_kiov_put_target(struct kunit *test)
{
	struct md_env *env = md_env(test);
	struct bio_vec *bv = lat_kiov(test, 3, md_kv_offs, md_kv_lens);
	u8 *src = lat_buf(test, 6000, 0x11);
	u8 *poison = lat_pbuf(test, MD_KV_LEN);
	struct lnet_handle_md smd, tail;
	struct lnet_event ev;

	KUNIT_ASSERT_EQ(test, lat_kiov_len(bv, 3), MD_KV_LEN);
	lat_post(test, 1, 0, lat_mkmd(bv, 3, LNET_MD_THRESH_INF,
				      LNET_MD_KIOV | LNET_MD_OP_PUT |
				      LNET_MD_MANAGE_REMOTE, bv, env->teq),
		 NULL);
	smd = md_src(test, env, src, 6000);

	/* bytes 3000..8999: the end of entry 0, all of 1, the start of 2 */
	md_put(test, env, smd, 1, 3000, 1, LNET_ACK_REQ);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 6000U);
	md_expect_put(test, env, 6000, 6000, 3000, 0, &ev);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.start, (void *)bv);
	KUNIT_EXPECT_EQ(test, ev.md.length, 3U);
	KUNIT_EXPECT_TRUE(test, ev.md.options & LNET_MD_KIOV);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)bv);

	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 3000, src, 6000));
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 0, poison, 3000));
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 9000, poison, 92));
	KUNIT_EXPECT_TRUE(test, md_kv_outside_poisoned(bv));

	/* the last 92 bytes, exactly to the end of the vector */
	tail = md_src(test, env, src + 100, 92);
	md_put(test, env, tail, 1, 9000, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 92, 92, 9000, 0, &ev);
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 9000, src + 100, 92));
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 3000, src, 6000));
	KUNIT_EXPECT_TRUE(test, md_kv_outside_poisoned(bv));
}

static void md_kiov_local_offset(struct kunit *test)
{
	struct md_env *env = md_env(test);
	struct bio_vec *bv = lat_kiov(test, 3, md_kv_offs, md_kv_lens);
	u8 *src = lat_buf(test, 4000, 0x12);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	/* no MANAGE_REMOTE: 4000-byte PUTs land back to back */
	lat_post(test, 28, 0, lat_mkmd(bv, 3, LNET_MD_THRESH_INF,
				       LNET_MD_KIOV | LNET_MD_OP_PUT |
				       LNET_MD_TRUNCATE, bv, env->teq), NULL);
	smd = md_src(test, env, src, 4000);
	md_put(test, env, smd, 28, 5000, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 4000, 4000, 0, 0, &ev);
	md_put(test, env, smd, 28, 0, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 4000, 4000, 4000, 0, &ev);
	/* the third one is truncated to the 1092 bytes left */
	md_put(test, env, smd, 28, 0, 3, LNET_NOACK_REQ);
	md_expect_put(test, env, 4000, 1092, 8000, 0, &ev);

	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 0, src, 4000));
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 4000, src, 4000));
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 8000, src, 1092));
	KUNIT_EXPECT_TRUE(test, md_kv_outside_poisoned(bv));
}

static void md_kiov_get_source(struct kunit *test)
{
	struct md_env *env = md_env(test);
	struct bio_vec *bv = lat_kiov(test, 3, md_kv_offs, md_kv_lens);
	u8 *ref = lat_buf(test, MD_KV_LEN, 0x22);
	u8 *sink = lat_pbuf(test, 5000);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_kiov_copy(bv, 3, 0, ref, MD_KV_LEN, true);
	lat_post(test, 2, 0, lat_mkmd(bv, 3, LNET_MD_THRESH_INF,
				      LNET_MD_KIOV | LNET_MD_OP_GET |
				      LNET_MD_MANAGE_REMOTE, bv, env->teq),
		 NULL);
	kmd = md_src(test, env, sink, 5000);

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 2, 0, 3500),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 5000U);
	KUNIT_EXPECT_EQ(test, memcmp(sink, ref + 3500, 5000), 0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.offset, 3500U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 5000U);
	KUNIT_EXPECT_EQ(test, ev.rlength, 5000U);
	/* serving a GET leaves the source alone */
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 0, ref, MD_KV_LEN));
}

static void md_kiov_bind_put_source(struct kunit *test)
{
	static const unsigned int offs[] = { 1000, 0, 2048 };
	static const unsigned int lens[] = { 3096, 4096, 100 };
	struct md_env *env = md_env(test);
	struct bio_vec *bv = lat_kiov(test, 3, offs, lens);
	u8 *ref = lat_buf(test, 7292, 0x33);
	u8 *dst = lat_pbuf(test, 8192);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	lat_kiov_copy(bv, 3, 0, ref, 7292, true);
	md_tgt(test, env, 3, dst, 8192, LNET_MD_THRESH_INF, LNET_MD_OP_PUT);
	smd = lat_bind(test, lat_mkmd(bv, 3, LNET_MD_THRESH_INF, LNET_MD_KIOV,
				      NULL, env->seq), LNET_UNLINK);

	md_put(test, env, smd, 3, 0, 3, LNET_ACK_REQ);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 7292U);
	md_expect_put(test, env, 7292, 7292, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst, ref, 7292), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 7292, 8192 - 7292));
}

static void md_kiov_bind_get_sink(struct kunit *test)
{
	static const unsigned int offs[] = { 3000, 0, 0 };
	static const unsigned int lens[] = { 1096, 4096, 500 };
	struct md_env *env = md_env(test);
	struct bio_vec *bv = lat_kiov(test, 3, offs, lens);
	u8 *src = lat_buf(test, 8192, 0x44);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_post(test, 4, 0, lat_mkmd(src, 8192, LNET_MD_THRESH_INF,
				      LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE,
				      NULL, env->teq), NULL);
	kmd = lat_bind(test, lat_mkmd(bv, 3, LNET_MD_THRESH_INF, LNET_MD_KIOV,
				      bv, env->seq), LNET_UNLINK);

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 4, 0, 100),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 5692U);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)bv);
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, bv, 3, 0, src + 100, 5692));
	KUNIT_EXPECT_TRUE(test, lat_page_poisoned(bv[0].bv_page, 0, 3000));
	KUNIT_EXPECT_TRUE(test, lat_page_poisoned(bv[2].bv_page, 500,
						  PAGE_SIZE));
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, 5692U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 5692U);
	KUNIT_EXPECT_EQ(test, ev.offset, 100U);
}

static void md_kiov_too_many(struct kunit *test)
{
	struct bio_vec *one = lat_kiov(test, 1, NULL, NULL);
	struct bio_vec *bv;
	struct lnet_handle_md mdh;
	struct lnet_handle_me meh;
	unsigned int i;
	int rc;

	bv = kunit_kcalloc(test, LNET_MAX_IOV + 1, sizeof(*bv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bv);
	for (i = 0; i <= LNET_MAX_IOV; i++) {
		bv[i].bv_page = one[0].bv_page;
		bv[i].bv_offset = 16 * (i % 256);
		bv[i].bv_len = 16;
	}
	rc = LNetMDBind(lat_mkmd(bv, LNET_MAX_IOV + 1, LNET_MD_THRESH_INF,
				 LNET_MD_KIOV, NULL, lat_no_eq()),
			LNET_UNLINK, &mdh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (!rc)
		lat_track_md(test, mdh);
	meh = lat_me(test, 5, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER);
	rc = LNetMDAttach(meh, lat_mkmd(bv, LNET_MAX_IOV + 1,
					LNET_MD_THRESH_INF,
					LNET_MD_KIOV | LNET_MD_OP_PUT, NULL,
					lat_no_eq()), LNET_UNLINK, &mdh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (!rc)
		lat_track_md(test, mdh);

	/* exactly LNET_MAX_IOV entries is fine */
	mdh = lat_bind(test, lat_mkmd(bv, LNET_MAX_IOV, LNET_MD_THRESH_INF,
				      LNET_MD_KIOV, NULL, lat_no_eq()),
		       LNET_UNLINK);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

/* ---- threshold ------------------------------------------------------------- */

static void md_threshold_n(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 16, 0x55);
	u8 *dst = lat_pbuf(test, 16), *other = lat_pbuf(test, 16);
	struct lnet_handle_md smd, tmd;
	struct lnet_event ev;
	int i;

	tmd = md_tgt(test, env, 6, dst, 16, 3,
		     LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	md_tgt(test, env, 6, other, 16, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT);			/* catches what follows */
	smd = md_src(test, env, src, 16);

	for (i = 0; i < 3; i++) {
		md_put(test, env, smd, 6, 0, i, LNET_NOACK_REQ);
		md_expect_put(test, env, 16, 16, 0, i == 2, &ev);
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	}
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), -ENOENT);
	md_put(test, env, smd, 6, 0, 3, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 0, 0, &ev);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)other);
	KUNIT_EXPECT_EQ(test, memcmp(other, src, 16), 0);
}

static void md_threshold_mixed(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 32, 0x66);
	u8 *dst = lat_pbuf(test, 64), *sink = lat_pbuf(test, 32);
	struct lnet_handle_md smd, kmd, tmd;
	struct lnet_event ev;

	tmd = md_tgt(test, env, 7, dst, 64, 2, LNET_MD_OP_PUT |
		     LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	smd = md_src(test, env, src, 32);
	kmd = md_src(test, env, sink, 32);

	md_put(test, env, smd, 7, 16, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 32, 32, 16, 0, &ev);

	/* a GET is an operation too: the second and last one */
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 7, 0, 16),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(sink, src, 32), 0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 7, 0, 16),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_quiet(test, env->seq, "GET after exhaustion: no REPLY");
	lat_quiet(test, env->teq, "GET after exhaustion");
}

static void md_threshold_inf(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 8, 0x77), *dst = lat_pbuf(test, 8);
	struct lnet_handle_md smd, tmd;
	struct lnet_event ev;
	int i;

	tmd = md_tgt(test, env, 8, dst, 8, LNET_MD_THRESH_INF,
		     LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	smd = md_src(test, env, src, 8);
	for (i = 0; i < 8; i++) {
		md_put(test, env, smd, 8, 0, i, LNET_NOACK_REQ);
		md_expect_put(test, env, 8, 8, 0, 0, &ev);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)i);
	}
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(tmd), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
}

static void md_threshold_retain(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 8, 0x78), *dst = lat_pbuf(test, 32);
	struct lnet_handle_md smd, tmd;
	struct lnet_handle_me meh;
	struct lnet_event ev;

	meh = lat_me(test, 9, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER);
	tmd = lat_attach(test, meh, lat_mkmd(dst, 32, 1, LNET_MD_OP_PUT |
					     LNET_MD_MANAGE_REMOTE, dst,
					     env->teq), LNET_RETAIN);
	smd = md_src(test, env, src, 8);

	md_put(test, env, smd, 9, 0, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 8, 8, 0, 0, &ev);	/* not unlinked */
	/* exhausted: takes nothing more, but stays until unlinked */
	md_put(test, env, smd, 9, 16, 2, LNET_NOACK_REQ);
	lat_quiet(test, env->teq, "exhausted MD");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 8, 24));
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(tmd), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
}

/* ---- offsets and sizes ----------------------------------------------------- */

static void md_max_size(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 30, 0x79);
	u8 *dst = lat_pbuf(test, 100), *other = lat_pbuf(test, 64);
	struct lnet_handle_md s30, s25, tmd;
	struct lnet_event ev;
	struct lnet_md md;

	md = lat_mkmd(dst, 100, LNET_MD_THRESH_INF,
		      LNET_MD_OP_PUT | LNET_MD_MAX_SIZE, dst, env->teq);
	md.max_size = 30;
	tmd = lat_post(test, 10, 0, md, NULL);
	md_tgt(test, env, 10, other, 64, LNET_MD_THRESH_INF, LNET_MD_OP_PUT);
	s30 = md_src(test, env, src, 30);
	s25 = md_src(test, env, src, 25);

	md_put(test, env, s30, 10, 77, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 30, 30, 0, 0, &ev);	/* room 70 */
	md_put(test, env, s25, 10, 0, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 25, 25, 30, 0, &ev);	/* room 45 */
	md_put(test, env, s30, 10, 0, 3, LNET_NOACK_REQ);
	md_expect_put(test, env, 30, 30, 55, 1, &ev);	/* room 15 < 30 */
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));

	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 30), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 30, src, 25), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 55, src, 30), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 85, 15));
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), -ENOENT);

	md_put(test, env, s25, 10, 0, 4, LNET_NOACK_REQ);
	md_expect_put(test, env, 25, 25, 0, 0, &ev);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)other);
}

static void md_local_offset(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 40, 0x7a), *dst = lat_pbuf(test, 64);
	struct lnet_handle_md s16, s40, s32;
	struct lnet_event ev;

	md_tgt(test, env, 11, dst, 64, LNET_MD_THRESH_INF, LNET_MD_OP_PUT);
	s16 = md_src(test, env, src, 16);
	s40 = md_src(test, env, src, 40);
	s32 = md_src(test, env, src, 32);

	/* without MANAGE_REMOTE the initiator's offset is ignored */
	md_put(test, env, s16, 11, 40, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 0, 0, &ev);
	md_put(test, env, s16, 11, 7, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 16, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 16, src, 16), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 32, 32));

	/* 40 bytes do not fit in the 32 left, no TRUNCATE: dropped */
	md_put(test, env, s40, 11, 0, 3, LNET_NOACK_REQ);
	lat_quiet(test, env->teq, "oversize PUT");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 32, 32));
	/* 32 fit exactly */
	md_put(test, env, s32, 11, 0, 4, LNET_NOACK_REQ);
	md_expect_put(test, env, 32, 32, 32, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 32, src, 32), 0);
}

static void md_manage_remote(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 16, 0x7b), *dst = lat_pbuf(test, 64);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	md_tgt(test, env, 12, dst, 64, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	smd = md_src(test, env, src, 16);

	md_put(test, env, smd, 12, 40, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 40, 0, &ev);
	md_put(test, env, smd, 12, 40, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 40, 0, &ev);	/* no advance */
	md_put(test, env, smd, 12, 0, 3, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 0, 0, &ev);
	md_put(test, env, smd, 12, 48, 4, LNET_NOACK_REQ);
	md_expect_put(test, env, 16, 16, 48, 0, &ev);	/* to the end */
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 16), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 16, 24));
	KUNIT_EXPECT_EQ(test, memcmp(dst + 40, src, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 48, src, 16), 0);
}

static void md_truncate(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 40, 0x7c);
	u8 *dst = lat_pbuf(test, 64), *dst2 = lat_pbuf(test, 50);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	md_tgt(test, env, 13, dst, 64, LNET_MD_THRESH_INF, LNET_MD_OP_PUT |
	       LNET_MD_MANAGE_REMOTE | LNET_MD_TRUNCATE);
	smd = md_src(test, env, src, 40);

	/* 40 bytes at 32 of 64: the first 32 are kept */
	md_put(test, env, smd, 13, 32, 1, LNET_ACK_REQ);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 32U);
	md_expect_put(test, env, 40, 32, 32, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 32, src, 32), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 32));

	/* local offset: 40 of 50, then 10 of the next 40 */
	md_tgt(test, env, 14, dst2, 50, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_TRUNCATE);
	md_put(test, env, smd, 14, 0, 2, LNET_NOACK_REQ);
	md_expect_put(test, env, 40, 40, 0, 0, &ev);
	md_put(test, env, smd, 14, 0, 3, LNET_NOACK_REQ);
	md_expect_put(test, env, 40, 10, 40, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst2, src, 40), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst2 + 40, src, 10), 0);
}

static void md_no_truncate(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 65, 0x7d), *dst = lat_pbuf(test, 64);
	struct lnet_handle_md s40, s65, s32;
	struct lnet_event ev;

	md_tgt(test, env, 15, dst, 64, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	s40 = md_src(test, env, src, 40);
	s65 = md_src(test, env, src, 65);
	s32 = md_src(test, env, src, 32);

	md_put(test, env, s40, 15, 32, 1, LNET_ACK_REQ);
	lat_quiet(test, env->teq, "40 bytes at 32 of 64");
	lat_quiet(test, env->seq, "dropped PUT: no ACK");
	md_put(test, env, s65, 15, 0, 2, LNET_NOACK_REQ);
	lat_quiet(test, env->teq, "65 bytes into 64");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 64));

	md_put(test, env, s32, 15, 32, 3, LNET_ACK_REQ);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 32U);
	md_expect_put(test, env, 32, 32, 32, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 32, src, 32), 0);
}

/* ---- options ----------------------------------------------------------- */

static void md_op_put_only(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 32, 0x7e), *dst = lat_buf(test, 32, 0x7f);
	u8 *sink = lat_pbuf(test, 32);
	struct lnet_handle_md smd, kmd;
	struct lnet_event ev;

	md_tgt(test, env, 16, dst, 32, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	kmd = md_src(test, env, sink, 32);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 16, 0, 0),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_quiet(test, env->seq, "GET of a PUT-only MD: no REPLY");
	lat_quiet(test, env->teq, "GET of a PUT-only MD");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink, 32));

	smd = md_src(test, env, src, 32);
	md_put(test, env, smd, 16, 0, 1, LNET_NOACK_REQ);
	md_expect_put(test, env, 32, 32, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 32), 0);
}

static void md_op_get_only(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 32, 0x80), *dst = lat_buf(test, 32, 0x81);
	u8 *ref = lat_buf(test, 32, 0x81), *sink = lat_pbuf(test, 32);
	struct lnet_handle_md smd, kmd;
	struct lnet_event ev;

	md_tgt(test, env, 17, dst, 32, LNET_MD_THRESH_INF,
	       LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	smd = md_src(test, env, src, 32);
	md_put(test, env, smd, 17, 0, 1, LNET_ACK_REQ);
	lat_quiet(test, env->seq, "PUT to a GET-only MD: no ACK");
	lat_quiet(test, env->teq, "PUT to a GET-only MD");
	KUNIT_EXPECT_EQ(test, memcmp(dst, ref, 32), 0);

	kmd = md_src(test, env, sink, 32);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 17, 0, 0),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(sink, ref, 32), 0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
}

static void md_ack_disable(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 24, 0x82), *dst = lat_pbuf(test, 24);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	md_tgt(test, env, 18, dst, 24, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	smd = md_src(test, env, src, 24);
	md_put(test, env, smd, 18, 0, 1, LNET_ACK_REQ);
	md_expect_put(test, env, 24, 24, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 24), 0);
	lat_quiet(test, env->seq, "ACK_DISABLE: no ACK");
}

static void md_no_eq(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 24, 0x83), *dst = lat_pbuf(test, 24);
	u8 *dst2 = lat_pbuf(test, 24);
	struct lnet_handle_md smd, tmd, quiet_src;
	struct lnet_event ev;

	/* a target MD without EQ still receives, and the ACK still comes */
	tmd = lat_post(test, 19, 0, lat_mkmd(dst, 24, LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT, NULL,
					     lat_no_eq()), NULL);
	smd = md_src(test, env, src, 24);
	md_put(test, env, smd, 19, 0, 1, LNET_ACK_REQ);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 24U);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 24), 0);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), 0);

	/* a source MD without EQ still sends */
	md_tgt(test, env, 20, dst2, 24, LNET_MD_THRESH_INF, LNET_MD_OP_PUT);
	quiet_src = lat_bind(test, lat_mkmd(src, 24, LNET_MD_THRESH_INF, 0,
					    NULL, lat_no_eq()), LNET_UNLINK);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, quiet_src, LNET_ACK_REQ,
				      lat_lo(), 20, 0, 0, 2), 0);
	md_expect_put(test, env, 24, 24, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst2, src, 24), 0);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(quiet_src), 0);
	lat_quiet(test, env->seq, "MDs without EQ");
}

/* ---- unlinking ----------------------------------------------------------- */

static void md_unlink_idle(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, 8, 0x84), *dst = lat_pbuf(test, 8);
	struct lnet_handle_md smd, tmd;
	struct lnet_event ev;

	tmd = md_tgt(test, env, 21, dst, 8, LNET_MD_THRESH_INF,
		     LNET_MD_OP_PUT);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(tmd), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)dst);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), -ENOENT);

	/* the portal is empty again */
	smd = md_src(test, env, src, 8);
	md_put(test, env, smd, 21, 0, 1, LNET_NOACK_REQ);
	lat_quiet(test, env->teq, "unlinked MD");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 8));

	/* a bound MD the same way */
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(smd), 0);
	lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, smd));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(smd), -ENOENT);
	lat_quiet(test, env->seq, "after UNLINK");
}

/* A target MD on a callback-only EQ that unlinks itself on @on. */
static void md_unlink_in_callback(struct kunit *test, unsigned int portal,
				  enum lnet_event_kind on)
{
	struct md_env *env = md_env(test);
	struct lnet_handle_eq cbq = lat_eq(test, 0, lat_mbox_cb);
	struct lat_mbox *mb = lat_mbox_new(test);
	u8 *src = lat_buf(test, 48, 0x85), *dst = lat_buf(test, 48, 0x86);
	u8 *ref = lat_buf(test, 48, 0x86), *sink = lat_pbuf(test, 48);
	struct lnet_handle_md tmd, smd;
	struct lnet_event ev;

	mb->unlink_on = on;
	tmd = lat_post(test, portal, 0, lat_mkmd(dst, 48, LNET_MD_THRESH_INF,
						 LNET_MD_OP_PUT |
						 LNET_MD_OP_GET, mb, cbq),
		       NULL);
	smd = md_src(test, env, on == LNET_EVENT_PUT ? src : sink, 48);
	if (on == LNET_EVENT_PUT) {
		md_put(test, env, smd, portal, 0, 1, LNET_ACK_REQ);
		/* the PUT completed before the unlink: it is ACKed */
		lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
		KUNIT_EXPECT_EQ(test, ev.mlength, 48U);
		KUNIT_EXPECT_EQ(test, memcmp(dst, src, 48), 0);
	} else {
		KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, smd, lat_lo(),
					      portal, 0, 0), 0);
		lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
		/* the GET was served before the unlink: REPLY comes */
		lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
		KUNIT_EXPECT_EQ(test, ev.mlength, 48U);
		KUNIT_EXPECT_EQ(test, memcmp(sink, ref, 48), 0);
	}

	lat_mbox_wait(test, mb, on, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	lat_mbox_wait(test, mb, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	KUNIT_EXPECT_EQ(test, mb->unlink_rc, 0);
	KUNIT_EXPECT_EQ(test, lat_mbox_get(mb, &ev, LAT_QUIET_MS), 0);
	KUNIT_EXPECT_EQ(test, mb->total, 2U);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), -ENOENT);
}

static void md_unlink_in_put_callback(struct kunit *test)
{
	md_unlink_in_callback(test, 22, LNET_EVENT_PUT);
}

static void md_unlink_in_get_callback(struct kunit *test)
{
	md_unlink_in_callback(test, 23, LNET_EVENT_GET);
}

/*
 * Collect a source/sink MD's events until its UNLINK: @first must come
 * first, @maybe at most once (it may be lost to the unlink), UNLINK last.
 */
static void md_expect_deferred(struct kunit *test, struct lnet_handle_eq eqh,
			       struct lnet_handle_md mdh,
			       enum lnet_event_kind first,
			       enum lnet_event_kind maybe, int *got_maybe)
{
	struct lnet_event ev;
	int i;

	*got_maybe = 0;
	lat_wait(test, eqh, first, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ_MSG(test, lat_poll(eqh, LAT_WAIT_MS, &ev), 1,
				    "no UNLINK within %d ms", LAT_WAIT_MS);
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
		if (ev.type == LNET_EVENT_UNLINK)
			break;
		KUNIT_EXPECT_EQ_MSG(test, ev.type, maybe, "unexpected %s",
				    lat_evname(ev.type));
		KUNIT_EXPECT_EQ(test, *got_maybe, 0);
		KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
		(*got_maybe)++;
	}
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_UNLINK);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	lat_quiet(test, eqh, "after UNLINK");
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
}

#define MD_BIG	(128 * 1024)

static void md_unlink_put_in_flight(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, MD_BIG, 0x87), *dst = lat_pbuf(test, MD_BIG);
	struct lnet_handle_md smd;
	struct lnet_event ev;
	int acked, pass;

	md_tgt(test, env, 24, dst, MD_BIG, LNET_MD_THRESH_INF,
	       LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	for (pass = 0; pass < 2; pass++) {
		memset(dst, LAT_POISON, MD_BIG);
		smd = md_src(test, env, src, MD_BIG);
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd,
					      pass ? LNET_ACK_REQ :
					      LNET_NOACK_REQ, lat_lo(), 24, 0,
					      0, pass), 0);
		/* the PUT still goes out in full; UNLINK comes last */
		KUNIT_ASSERT_EQ(test, LNetMDUnlink(smd), 0);
		md_expect_deferred(test, env->seq, smd, LNET_EVENT_SEND,
				   pass ? LNET_EVENT_ACK : LNET_EVENT_SEND,
				   &acked);
		if (!pass)
			KUNIT_EXPECT_EQ(test, acked, 0);
		md_expect_put(test, env, MD_BIG, MD_BIG, 0, 0, &ev);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)pass);
		KUNIT_EXPECT_EQ(test, memcmp(dst, src, MD_BIG), 0);
	}
}

static void md_unlink_get_in_flight(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *src = lat_buf(test, MD_BIG, 0x88), *sink = lat_pbuf(test, MD_BIG);
	struct lnet_handle_md kmd;
	struct lnet_event ev;
	int replied;

	md_tgt(test, env, 25, src, MD_BIG, LNET_MD_THRESH_INF,
	       LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	kmd = md_src(test, env, sink, MD_BIG);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 25, 0, 0),
			0);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(kmd), 0);
	md_expect_deferred(test, env->seq, kmd, LNET_EVENT_SEND,
			   LNET_EVENT_REPLY, &replied);
	if (replied)
		KUNIT_EXPECT_EQ(test, memcmp(sink, src, MD_BIG), 0);
	/* the target served the GET either way */
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, (unsigned int)MD_BIG);
}

/* ---- handles ------------------------------------------------------------ */

static void md_stale_handle(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *buf = lat_buf(test, 16, 0x89);
	struct lnet_handle_md old, fresh;
	struct lnet_handle_me meh;
	struct lnet_event ev;

	KUNIT_ASSERT_EQ(test, LNetMDBind(lat_mkmd(buf, 16, LNET_MD_THRESH_INF,
						  0, NULL, env->seq),
					 LNET_UNLINK, &old), 0);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(old), 0);
	lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
	fresh = md_src(test, env, buf, 16);
	KUNIT_EXPECT_NE(test, fresh.cookie, old.cookie);

	KUNIT_EXPECT_EQ(test, LNetMDUnlink(old), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, old, LNET_ACK_REQ, lat_lo(),
				      26, 0, 0, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetGet(LNET_NID_ANY, old, lat_lo(), 26, 0, 0),
			-ENOENT);

	/* an attached MD whose ME was unlinked */
	old = lat_post(test, 26, 0, lat_mkmd(buf, 16, LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT, NULL, env->teq),
		       &meh);
	KUNIT_ASSERT_EQ(test, LNetMEUnlink(meh), 0);
	lat_wait(test, env->teq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(old), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetGet(LNET_NID_ANY, old, lat_lo(), 26, 0, 0),
			-ENOENT);
	lat_quiet(test, env->seq, "operations on stale MDs");
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(fresh), 0);
}

static void md_invalid_and_wrong_type(struct kunit *test)
{
	struct md_env *env = md_env(test);
	u8 *buf = lat_buf(test, 16, 0x8a);
	struct lnet_handle_md mdh, bad[6];
	struct lnet_handle_me meh;
	struct lnet_event ev;
	unsigned int i;

	mdh = md_src(test, env, buf, 16);
	meh = lat_me(test, 27, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER);
	bad[0].cookie = LNET_INVALID_HANDLE_COOKIE;
	bad[1].cookie = 0;
	bad[2].cookie = 0x5555aaaa5555aaaaULL;
	bad[3].cookie = mdh.cookie ^ (1ULL << 36);
	bad[4].cookie = meh.cookie;		/* an ME */
	bad[5].cookie = env->teq.cookie;	/* an EQ */

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, LNetMDUnlink(bad[i]), -ENOENT,
				    "cookie %llx", bad[i].cookie);
		KUNIT_EXPECT_EQ_MSG(test, LNetPut(LNET_NID_ANY, bad[i],
						  LNET_NOACK_REQ, lat_lo(), 27,
						  0, 0, 0), -ENOENT,
				    "cookie %llx", bad[i].cookie);
		KUNIT_EXPECT_EQ_MSG(test, LNetGet(LNET_NID_ANY, bad[i],
						  lat_lo(), 27, 0, 0), -ENOENT,
				    "cookie %llx", bad[i].cookie);
	}
	lat_quiet(test, env->seq, "operations on bad handles");
	KUNIT_EXPECT_EQ(test, LNetMEUnlink(meh), 0);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), 0);
	lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, LNetEQFree(env->teq), 0);
}

static struct kunit_case lnet_api_md_cases[] = {
	KUNIT_CASE(md_kiov_put_target),
	KUNIT_CASE(md_kiov_local_offset),
	KUNIT_CASE(md_kiov_get_source),
	KUNIT_CASE(md_kiov_bind_put_source),
	KUNIT_CASE(md_kiov_bind_get_sink),
	KUNIT_CASE(md_kiov_too_many),
	KUNIT_CASE(md_threshold_n),
	KUNIT_CASE(md_threshold_mixed),
	KUNIT_CASE(md_threshold_inf),
	KUNIT_CASE(md_threshold_retain),
	KUNIT_CASE(md_max_size),
	KUNIT_CASE(md_local_offset),
	KUNIT_CASE(md_manage_remote),
	KUNIT_CASE(md_truncate),
	KUNIT_CASE(md_no_truncate),
	KUNIT_CASE(md_op_put_only),
	KUNIT_CASE(md_op_get_only),
	KUNIT_CASE(md_ack_disable),
	KUNIT_CASE(md_no_eq),
	KUNIT_CASE(md_unlink_idle),
	KUNIT_CASE(md_unlink_in_put_callback),
	KUNIT_CASE(md_unlink_in_get_callback),
	KUNIT_CASE(md_unlink_put_in_flight),
	KUNIT_CASE(md_unlink_get_in_flight),
	KUNIT_CASE(md_stale_handle),
	KUNIT_CASE(md_invalid_and_wrong_type),
	{}
};

static struct kunit_suite lnet_api_md_suite = {
	.name = "lnet_api_md",
	.init = lat_init,
	.exit = lat_exit,
	.test_cases = lnet_api_md_cases,
};
kunit_test_suite(lnet_api_md_suite);
