// SPDX-License-Identifier: GPL-2.0
/*
 * Black-box tests of the public LNet API (include/linux/lnet/api.h): the
 * message flows of Documentation/wire/lnet-header.md ("Message flows")
 * through the loopback NI. PUT with and without ACK, GET/REPLY, truncation
 * both ways, offsets, empty and LNET_MTU-sized payloads, unmatched
 * messages, lazy portals and the ping target of
 * Documentation/wire/routing-health-multirail.md ("Portal 0", "Answering a
 * ping"). Every byte moved is checked against a pattern, and
 * bytes that must not be written are checked against a poison fill.
 */
#include "api_test_util.h"

#define PING_MAGIC		0x70696E67U
#define PING_FEAT_NI_STATUS	0x02U
#define PING_FEAT_LARGE_ADDR	0x20U

struct msg_env {
	struct lnet_handle_eq seq;	/* initiator side */
	struct lnet_handle_eq teq;	/* target side */
};

static struct msg_env *msg_env(struct kunit *test)
{
	struct msg_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, env);
	env->seq = lat_eq(test, 64, NULL);
	env->teq = lat_eq(test, 64, NULL);
	return env;
}

static struct lnet_handle_md msg_bind(struct kunit *test, struct msg_env *env,
				      void *buf, unsigned int len,
				      unsigned int options, void *user_ptr)
{
	return lat_bind(test, lat_mkmd(buf, len, LNET_MD_THRESH_INF, options,
				       user_ptr, env->seq), LNET_UNLINK);
}

static void msg_expect_lo(struct kunit *test, struct lnet_process_id id,
			  const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, id.nid, LNET_NID_LO_0, "%s nid", what);
	KUNIT_EXPECT_EQ_MSG(test, id.pid, (lnet_pid_t)LNET_PID_LUSTRE,
			    "%s pid", what);
}

/* ---- PUT ----------------------------------------------------------------- */

static void msg_put_ack(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	static const u64 bits = 0x0123456789abcdefULL;
	static const u64 hdr = 0xfedcba9876543210ULL;
	u8 *src = lat_buf(test, 1000, 0x101), *dst = lat_pbuf(test, 4096);
	struct lnet_handle_md smd, tmd;
	struct lnet_event ev;
	unsigned long send_seq;

	tmd = lat_post(test, 1, bits,
		       lat_mkmd(dst, 4096, LNET_MD_THRESH_INF,
				LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE, dst,
				env->teq), NULL);
	smd = msg_bind(test, env, src, 1000, 0, src);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 1, bits, 300, hdr), 0);

	/* target: the PUT */
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	msg_expect_lo(test, ev.initiator, "PUT initiator");
	msg_expect_lo(test, ev.target, "PUT target");
	KUNIT_EXPECT_EQ(test, ev.sender, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, ev.pt_index, 1U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	KUNIT_EXPECT_EQ(test, ev.hdr_data, hdr);
	KUNIT_EXPECT_EQ(test, ev.rlength, 1000U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 1000U);
	KUNIT_EXPECT_EQ(test, ev.offset, 300U);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)dst);
	KUNIT_EXPECT_PTR_EQ(test, ev.md.start, (void *)dst);
	KUNIT_EXPECT_EQ(test, ev.md.length, 4096U);
	KUNIT_EXPECT_EQ(test, ev.md.options,
			LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);

	/* initiator: SEND, then ACK */
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, smd));
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)src);
	msg_expect_lo(test, ev.target, "SEND target");
	KUNIT_EXPECT_EQ(test, ev.pt_index, 1U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	send_seq = ev.sequence;

	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, smd));
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)src);
	KUNIT_EXPECT_EQ(test, ev.mlength, 1000U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_GT(test, ev.sequence, send_seq);

	KUNIT_EXPECT_EQ(test, memcmp(dst + 300, src, 1000), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 300));
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 1300, 4096 - 1300));
	lat_quiet(test, env->seq, "after the ACK");
	KUNIT_EXPECT_EQ(test, lat_poll(env->teq, 0, &ev), 0);
}

static void msg_put_noack(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 200, 0x102), *dst = lat_pbuf(test, 200);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	lat_post(test, 2, 5, lat_mkmd(dst, 200, LNET_MD_THRESH_INF,
				      LNET_MD_OP_PUT, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, 200, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_NOACK_REQ,
				      lat_lo(), 2, 5, 0, 77), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.hdr_data, 77ULL);
	KUNIT_EXPECT_EQ(test, ev.mlength, 200U);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	lat_quiet(test, env->seq, "PUT without ACK");
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 200), 0);
}

static void msg_put_zero(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 16, 0x103), *dst = lat_pbuf(test, 16);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	lat_post(test, 3, 0, lat_mkmd(dst, 16, LNET_MD_THRESH_INF,
				      LNET_MD_OP_PUT, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, 0, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 3, 0, 0, 3), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.rlength, 0U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 0U);
	KUNIT_EXPECT_EQ(test, ev.hdr_data, 3ULL);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 0U);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 16));
}

/* PUT @len bytes at remote @off into a fresh MD; check every byte. */
static void msg_put_one(struct kunit *test, struct msg_env *env,
			unsigned int portal, unsigned int len, unsigned int off)
{
	unsigned int room = off + len + 64;
	u8 *src = lat_buf(test, len, len), *dst = lat_pbuf(test, room);
	struct lnet_handle_md smd, tmd;
	struct lnet_event ev;

	tmd = lat_post(test, portal, len,
		       lat_mkmd(dst, room, 1, LNET_MD_OP_PUT |
				LNET_MD_MANAGE_REMOTE, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, len, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), portal, len, off, len), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ_MSG(test, ev.mlength, len, "len %u", len);
	KUNIT_EXPECT_EQ_MSG(test, ev.offset, off, "len %u", len);
	KUNIT_EXPECT_EQ_MSG(test, ev.unlinked, 1, "len %u", len);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ_MSG(test, ev.mlength, len, "len %u", len);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(dst + off, src, len), 0, "len %u",
			    len);
	KUNIT_EXPECT_TRUE_MSG(test, lat_poisoned(dst, off), "len %u", len);
	KUNIT_EXPECT_TRUE_MSG(test, lat_poisoned(dst + off + len, 64),
			      "len %u", len);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(smd), 0);
	lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
}

static void msg_put_sizes(struct kunit *test)
{
	static const unsigned int len[] = { 1, 7, 4095, 4096, 4097, 65536,
					    100000 };
	static const unsigned int off[] = { 0, 4093, 1, 0, 4095, 3, 4096 };
	struct msg_env *env = msg_env(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(len); i++)
		msg_put_one(test, env, 4, len[i], off[i]);
}

/* ---- GET ----------------------------------------------------------------- */

static void msg_get_reply(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	static const u64 bits = 0x4000000000000001ULL;
	u8 *src = lat_buf(test, 3000, 0x104), *sink = lat_pbuf(test, 1200);
	struct lnet_handle_md kmd, tmd;
	struct lnet_event ev;
	unsigned long send_seq;

	tmd = lat_post(test, 5, bits,
		       lat_mkmd(src, 3000, LNET_MD_THRESH_INF,
				LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE, src,
				env->teq), NULL);
	kmd = msg_bind(test, env, sink, 1000, 0, sink);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 5, bits,
				      1500), 0);

	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	msg_expect_lo(test, ev.initiator, "GET initiator");
	msg_expect_lo(test, ev.target, "GET target");
	KUNIT_EXPECT_EQ(test, ev.pt_index, 5U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	KUNIT_EXPECT_EQ(test, ev.rlength, 1000U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 1000U);
	KUNIT_EXPECT_EQ(test, ev.offset, 1500U);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)src);

	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, kmd));
	msg_expect_lo(test, ev.target, "SEND target");
	KUNIT_EXPECT_EQ(test, ev.pt_index, 5U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, bits);
	send_seq = ev.sequence;

	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, kmd));
	KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)sink);
	KUNIT_EXPECT_EQ(test, ev.mlength, 1000U);
	KUNIT_EXPECT_GE(test, ev.rlength, ev.mlength);
	KUNIT_EXPECT_EQ(test, ev.offset, 0U);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_GT(test, ev.sequence, send_seq);
	msg_expect_lo(test, ev.initiator, "REPLY initiator");

	KUNIT_EXPECT_EQ(test, memcmp(sink, src + 1500, 1000), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + 1000, 200));
	lat_quiet(test, env->seq, "after the REPLY");
}

static void msg_get_zero(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 16, 0x105), *sink = lat_pbuf(test, 16);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_post(test, 6, 0, lat_mkmd(src, 16, LNET_MD_THRESH_INF,
				      LNET_MD_OP_GET, NULL, env->teq), NULL);
	kmd = msg_bind(test, env, sink, 0, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 6, 0, 0),
			0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, 0U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 0U);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.mlength, 0U);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink, 16));
}

static void msg_get_sizes(struct kunit *test)
{
	static const unsigned int len[] = { 1, 4096, 4097, 65536 };
	static const unsigned int off[] = { 4095, 1, 0, 4097 };
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 70000, 0x106), *sink;
	struct lnet_handle_md kmd;
	struct lnet_event ev;
	unsigned int i;

	lat_post(test, 7, 0, lat_mkmd(src, 70000, LNET_MD_THRESH_INF,
				      LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE,
				      NULL, env->teq), NULL);
	for (i = 0; i < ARRAY_SIZE(len); i++) {
		sink = lat_pbuf(test, len[i] + 32);
		kmd = msg_bind(test, env, sink, len[i], 0, NULL);
		KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 7, 0,
					      off[i]), 0);
		lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
		lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
		KUNIT_EXPECT_EQ(test, ev.mlength, len[i]);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(sink, src + off[i], len[i]),
				    0, "len %u at %u", len[i], off[i]);
		KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + len[i], 32));
		lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
		KUNIT_EXPECT_EQ(test, ev.offset, off[i]);
		KUNIT_EXPECT_EQ(test, ev.mlength, len[i]);
		KUNIT_EXPECT_EQ(test, LNetMDUnlink(kmd), 0);
		lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
	}
}

/* the sink is smaller than what the target has: sink-sized REPLY */
static void msg_get_truncate_sink(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 100, 0x107), *sink = lat_pbuf(test, 64);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_post(test, 8, 0, lat_mkmd(src, 100, LNET_MD_THRESH_INF,
				      LNET_MD_OP_GET, NULL, env->teq), NULL);
	kmd = msg_bind(test, env, sink, 40, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 8, 0, 0),
			0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, 40U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 40U);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 40U);
	KUNIT_EXPECT_EQ(test, memcmp(sink, src, 40), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + 40, 24));
}

/* the target has less than the sink asks for: TRUNCATE serves it */
static void msg_get_truncate_target(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 100, 0x108), *sink = lat_pbuf(test, 200);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_post(test, 9, 0, lat_mkmd(src, 100, LNET_MD_THRESH_INF,
				      LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE |
				      LNET_MD_TRUNCATE, NULL, env->teq), NULL);
	kmd = msg_bind(test, env, sink, 200, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 9, 0, 30),
			0);
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, 200U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 70U);
	KUNIT_EXPECT_EQ(test, ev.offset, 30U);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 70U);
	KUNIT_EXPECT_EQ(test, memcmp(sink, src + 30, 70), 0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + 70, 130));
}

/* ... and without TRUNCATE the oversize GET is dropped */
static void msg_get_oversize_dropped(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 100, 0x109), *sink = lat_pbuf(test, 200);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_post(test, 10, 0, lat_mkmd(src, 100, LNET_MD_THRESH_INF,
				       LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE,
				       NULL, env->teq), NULL);
	kmd = msg_bind(test, env, sink, 200, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 10, 0, 30),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_quiet(test, env->seq, "oversize GET: no REPLY");
	lat_quiet(test, env->teq, "oversize GET");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink, 200));
}

static void msg_same_eq_both_sides(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 16, NULL);
	u8 *src = lat_buf(test, 64, 0x10a), *dst = lat_pbuf(test, 64);
	struct lnet_handle_md smd;
	struct lnet_event ev;
	unsigned long seq = 0;
	int i, n[LNET_EVENT_UNLINK + 1] = { 0 };
	int send_at = -1, ack_at = -1;

	lat_post(test, 11, 0, lat_mkmd(dst, 64, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, eqh), NULL);
	smd = lat_bind(test, lat_mkmd(src, 64, LNET_MD_THRESH_INF, 0, NULL,
				      eqh), LNET_UNLINK);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 11, 0, 0, 0), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, lat_poll(eqh, LAT_WAIT_MS, &ev), 1);
		KUNIT_ASSERT_GE(test, (int)ev.type, (int)LNET_EVENT_GET);
		KUNIT_ASSERT_LE(test, (int)ev.type, (int)LNET_EVENT_UNLINK);
		n[ev.type]++;
		if (ev.type == LNET_EVENT_SEND)
			send_at = i;
		if (ev.type == LNET_EVENT_ACK)
			ack_at = i;
		if (i)
			KUNIT_EXPECT_GT(test, ev.sequence, seq);
		seq = ev.sequence;
	}
	KUNIT_EXPECT_EQ(test, n[LNET_EVENT_PUT], 1);
	KUNIT_EXPECT_EQ(test, n[LNET_EVENT_SEND], 1);
	KUNIT_EXPECT_EQ(test, n[LNET_EVENT_ACK], 1);
	KUNIT_EXPECT_LT(test, send_at, ack_at);
	lat_quiet(test, eqh, "after PUT, SEND and ACK");
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 64), 0);
}

static void msg_self_nid(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 64, 0x10b), *dst = lat_pbuf(test, 64);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	lat_post(test, 12, 0, lat_mkmd(dst, 64, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, 64, 0, NULL);
	/* explicitly from 0@lo rather than LNET_NID_ANY */
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_LO_0, smd, LNET_ACK_REQ,
				      lat_lo(), 12, 0, 0, 0), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	msg_expect_lo(test, ev.initiator, "PUT initiator");
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 64), 0);
}

/* ---- LNET_MTU ---------------------------------------------------------------- */

static void msg_put_mtu_kiov(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	struct bio_vec *sbv = lat_kiov(test, LNET_MAX_IOV, NULL, NULL);
	struct bio_vec *tbv = lat_kiov(test, LNET_MAX_IOV, NULL, NULL);
	u8 *ref = lat_kvzalloc(test, LNET_MTU);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	KUNIT_ASSERT_EQ(test, lat_kiov_len(sbv, LNET_MAX_IOV), LNET_MTU);
	lat_fill(ref, LNET_MTU, 0x10c);
	lat_kiov_copy(sbv, LNET_MAX_IOV, 0, ref, LNET_MTU, true);
	lat_post(test, 13, 0, lat_mkmd(tbv, LNET_MAX_IOV, LNET_MD_THRESH_INF,
				       LNET_MD_KIOV | LNET_MD_OP_PUT, NULL,
				       env->teq), NULL);
	smd = lat_bind(test, lat_mkmd(sbv, LNET_MAX_IOV, LNET_MD_THRESH_INF,
				      LNET_MD_KIOV, NULL, env->seq),
		       LNET_UNLINK);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 13, 0, 0, 0), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, LNET_MTU);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, tbv, LNET_MAX_IOV, 0, ref,
					    LNET_MTU));
}

static void msg_get_mtu_kiov(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	struct bio_vec *tbv = lat_kiov(test, LNET_MAX_IOV, NULL, NULL);
	struct bio_vec *kbv = lat_kiov(test, LNET_MAX_IOV, NULL, NULL);
	u8 *ref = lat_kvzalloc(test, LNET_MTU);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	lat_fill(ref, LNET_MTU, 0x10d);
	lat_kiov_copy(tbv, LNET_MAX_IOV, 0, ref, LNET_MTU, true);
	lat_post(test, 14, 0, lat_mkmd(tbv, LNET_MAX_IOV, LNET_MD_THRESH_INF,
				       LNET_MD_KIOV | LNET_MD_OP_GET, NULL,
				       env->teq), NULL);
	kmd = lat_bind(test, lat_mkmd(kbv, LNET_MAX_IOV, LNET_MD_THRESH_INF,
				      LNET_MD_KIOV, NULL, env->seq),
		       LNET_UNLINK);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 14, 0, 0),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
	KUNIT_EXPECT_TRUE(test, lat_kiov_eq(test, kbv, LNET_MAX_IOV, 0, ref,
					    LNET_MTU));
	lat_wait(test, env->teq, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
}

static void *msg_big_buf(struct kunit *test, size_t len)
{
	void *p = kunit_kmalloc(test, len, GFP_KERNEL | __GFP_NOWARN);

	if (!p)
		kunit_skip(test, "no %zu contiguous bytes in this guest", len);
	return p;
}

static void msg_put_mtu_contig(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = msg_big_buf(test, LNET_MTU), *dst = msg_big_buf(test, LNET_MTU);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	lat_fill(src, LNET_MTU, 0x10e);
	memset(dst, LAT_POISON, LNET_MTU);
	lat_post(test, 15, 0, lat_mkmd(dst, LNET_MTU, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, LNET_MTU, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 15, 0, 0, 0), 0);
	lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_wait(test, env->seq, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, LNET_MTU);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, LNET_MTU), 0);
}

/*
 * LNET_MTU + 1: Documentation/wire/lnet-header.md ("Message types",
 * "Receive checks") caps a PUT payload at 1 MiB (larger is a protocol
 * error at the receiver), and the contract says nothing
 * about where the sender must refuse. Accepted here: LNetMDBind refuses
 * the MD, or LNetPut returns -errno, or the PUT fails asynchronously (its
 * SEND event has status < 0). Never accepted: any byte reaching the
 * target, even truncated into a TRUNCATE MD, or a successful SEND.
 */
static void msg_put_mtu_plus_one(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = msg_big_buf(test, LNET_MTU + 1), *dst = lat_pbuf(test, 4096);
	struct lnet_handle_md smd;
	struct lnet_event ev;
	int rc;

	lat_fill(src, LNET_MTU + 1, 0x10f);
	lat_post(test, 16, 0, lat_mkmd(dst, 4096, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT | LNET_MD_TRUNCATE, NULL,
				       env->teq), NULL);
	rc = LNetMDBind(lat_mkmd(src, LNET_MTU + 1, LNET_MD_THRESH_INF, 0,
				 NULL, env->seq), LNET_UNLINK, &smd);
	if (rc) {
		KUNIT_EXPECT_LT(test, rc, 0);
		kunit_info(test, "LNetMDBind refused MTU + 1: %d\n", rc);
		return;
	}
	lat_track_md(test, smd);
	rc = LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ, lat_lo(), 16, 0, 0, 0);
	if (rc) {
		KUNIT_EXPECT_LT(test, rc, 0);
		kunit_info(test, "LNetPut refused MTU + 1: %d\n", rc);
	} else {
		lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
		KUNIT_EXPECT_LT_MSG(test, ev.status, 0,
				    "a PUT of LNET_MTU + 1 bytes was sent");
		lat_quiet(test, env->seq, "failed PUT: no ACK");
	}
	lat_quiet(test, env->teq, "PUT of LNET_MTU + 1");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 4096));
}

/* ---- unmatched ------------------------------------------------------------ */

static void msg_put_no_match(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src = lat_buf(test, 32, 0x110), *dst = lat_pbuf(test, 32);
	struct lnet_handle_md smd;
	struct lnet_event ev;

	/* portal 17: nothing at all; portal 18: an ME with other bits */
	lat_post(test, 18, 1, lat_mkmd(dst, 32, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq), NULL);
	smd = msg_bind(test, env, src, 32, 0, NULL);

	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 17, 1, 0, 0), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, smd));
	lat_quiet(test, env->seq, "dropped PUT: no ACK");

	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
				      lat_lo(), 18, 2, 0, 0), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	lat_quiet(test, env->seq, "dropped PUT: no ACK");
	lat_quiet(test, env->teq, "PUT with other bits");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 32));
}

static void msg_get_no_match(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *sink = lat_pbuf(test, 32);
	struct lnet_handle_md kmd;
	struct lnet_event ev;

	kmd = msg_bind(test, env, sink, 32, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(), 19, 1, 0),
			0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, kmd));
	lat_quiet(test, env->seq, "dropped GET: no REPLY");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink, 32));
}

/* ---- lazy portals ---------------------------------------------------------- */

#define MSG_LZ	16	/* bytes per lazy PUT */

/* Three PUTs (hdr_data 1..3, distinct payloads) to @portal, no waiting. */
static void msg_lazy_send3(struct kunit *test, struct msg_env *env,
			   unsigned int portal, u8 **src)
{
	struct lnet_handle_md smd;
	int i;

	for (i = 0; i < 3; i++) {
		src[i] = lat_buf(test, MSG_LZ, 0x200 + i);
		smd = msg_bind(test, env, src[i], MSG_LZ, 0, NULL);
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd,
					      LNET_NOACK_REQ, lat_lo(), portal,
					      0, 0, i + 1), 0);
	}
	msleep(LAT_QUIET_MS);	/* let them arrive and queue */
}

/*
 * The initiator sees one SEND per PUT, whenever it completes; @ok: the PUT
 * was delivered (a dropped one's SEND status is not specified).
 */
static void msg_expect_sends(struct kunit *test, struct msg_env *env, int n,
			     bool ok)
{
	struct lnet_event ev;
	int i;

	for (i = 0; i < n; i++) {
		lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
		if (ok)
			KUNIT_EXPECT_EQ(test, ev.status, 0);
	}
}

static void msg_lazy_queue_order(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src[3], *dst = lat_pbuf(test, 3 * MSG_LZ + 8);
	struct lnet_event ev;
	int i;

	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(20), 0);
	lat_track_lazy(test, 20);
	msg_lazy_send3(test, env, 20, src);

	/* the ME arrives late: the queued PUTs land in arrival order */
	lat_post(test, 20, 0, lat_mkmd(dst, 3 * MSG_LZ + 8, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq), NULL);
	for (i = 0; i < 3; i++) {
		lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)i + 1);
		KUNIT_EXPECT_EQ(test, ev.offset, i * MSG_LZ);
		KUNIT_EXPECT_EQ(test, ev.mlength, MSG_LZ);
		KUNIT_EXPECT_EQ(test, memcmp(dst + i * MSG_LZ, src[i], MSG_LZ),
				0);
	}
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst + 3 * MSG_LZ, 8));
	msg_expect_sends(test, env, 3, true);
	KUNIT_EXPECT_EQ(test, LNetClearLazyPortal(20), 0);
}

static void msg_lazy_one_at_a_time(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src[3], *dst;
	struct lnet_event ev;
	int i;

	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(21), 0);
	lat_track_lazy(test, 21);
	msg_lazy_send3(test, env, 21, src);

	for (i = 0; i < 3; i++) {
		dst = lat_pbuf(test, MSG_LZ);
		lat_post(test, 21, 0, lat_mkmd(dst, MSG_LZ, 1, LNET_MD_OP_PUT,
					       NULL, env->teq), NULL);
		lat_wait(test, env->teq, LNET_EVENT_PUT, &ev);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)i + 1);
		KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
		KUNIT_EXPECT_EQ(test, memcmp(dst, src[i], MSG_LZ), 0);
	}
	/* nothing left in the queue */
	dst = lat_pbuf(test, MSG_LZ);
	lat_post(test, 21, 0, lat_mkmd(dst, MSG_LZ, 1, LNET_MD_OP_PUT, NULL,
				       env->teq), NULL);
	lat_quiet(test, env->teq, "queue drained");
	msg_expect_sends(test, env, 3, true);
	KUNIT_EXPECT_EQ(test, LNetClearLazyPortal(21), 0);
}

static void msg_lazy_clear_drops(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *src[3], *dst = lat_pbuf(test, 4 * MSG_LZ);
	struct lnet_handle_md smd;

	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(22), 0);
	lat_track_lazy(test, 22);
	msg_lazy_send3(test, env, 22, src);
	KUNIT_ASSERT_EQ(test, LNetClearLazyPortal(22), 0);
	/* the dropped PUTs are finished on the initiator */
	msg_expect_sends(test, env, 3, false);

	/* and the portal no longer queues: this one is dropped at once */
	smd = msg_bind(test, env, src[0], MSG_LZ, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_NOACK_REQ,
				      lat_lo(), 22, 0, 0, 4), 0);
	msg_expect_sends(test, env, 1, false);

	lat_post(test, 22, 0, lat_mkmd(dst, 4 * MSG_LZ, LNET_MD_THRESH_INF,
				       LNET_MD_OP_PUT, NULL, env->teq), NULL);
	lat_quiet(test, env->teq, "cleared lazy portal");
	KUNIT_EXPECT_TRUE(test, lat_poisoned(dst, 4 * MSG_LZ));
}

static void msg_lazy_bad_portal(struct kunit *test)
{
	KUNIT_EXPECT_LT(test, LNetSetLazyPortal(LNET_MAX_PORTALS), 0);
	KUNIT_EXPECT_LT(test, LNetSetLazyPortal(-1), 0);
	KUNIT_EXPECT_LT(test, LNetSetLazyPortal(1000), 0);
	KUNIT_EXPECT_LT(test, LNetClearLazyPortal(LNET_MAX_PORTALS), 0);
	KUNIT_EXPECT_LT(test, LNetClearLazyPortal(-1), 0);
	/* the last valid portal */
	KUNIT_EXPECT_EQ(test, LNetSetLazyPortal(LNET_MAX_PORTALS - 1), 0);
	lat_track_lazy(test, LNET_MAX_PORTALS - 1);
	KUNIT_EXPECT_EQ(test, LNetClearLazyPortal(LNET_MAX_PORTALS - 1), 0);
}

/* ---- ping (Documentation/wire/routing-health-multirail.md) --------------- */

static u32 msg_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 msg_u64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* GET @len bytes of the ping info at @offset into @sink; returns mlength. */
static unsigned int msg_ping(struct kunit *test, struct msg_env *env,
			     u8 *sink, unsigned int len, unsigned int offset)
{
	struct lnet_handle_md kmd;
	struct lnet_event ev;
	unsigned int mlength;

	kmd = msg_bind(test, env, sink, len, 0, NULL);
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, kmd, lat_lo(),
				      LNET_RESERVED_PORTAL,
				      LNET_PROTO_PING_MATCHBITS, offset), 0);
	lat_wait(test, env->seq, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	lat_wait(test, env->seq, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_LE(test, ev.mlength, len);
	mlength = ev.mlength;
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(kmd), 0);
	lat_wait(test, env->seq, LNET_EVENT_UNLINK, &ev);
	return mlength;
}

static void msg_ping_info(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *sink = lat_pbuf(test, 4096);
	struct lnet_process_id id;
	unsigned int mlen, nnis, nids, i, j;
	u32 features;
	bool found;

	mlen = msg_ping(test, env, sink, 4096, 0);
	KUNIT_ASSERT_GE(test, mlen, 32U);
	KUNIT_EXPECT_EQ(test, msg_u32(sink), PING_MAGIC);
	features = msg_u32(sink + 4);
	KUNIT_EXPECT_TRUE_MSG(test, features & PING_FEAT_NI_STATUS,
			      "features %#x", features);
	KUNIT_EXPECT_EQ(test, msg_u32(sink + 8), (u32)LNET_PID_LUSTRE);
	nnis = msg_u32(sink + 12);
	KUNIT_ASSERT_GE(test, nnis, 1U);
	KUNIT_ASSERT_LE(test, nnis, (4096U - 16) / 16);
	if (features & PING_FEAT_LARGE_ADDR)
		KUNIT_EXPECT_GE(test, mlen, 16 + 16 * nnis);
	else
		KUNIT_EXPECT_EQ(test, mlen, 16 + 16 * nnis);
	KUNIT_EXPECT_EQ(test, msg_u64(sink + 16), LNET_NID_LO_0);

	/* the entries are this node's NIs, as LNetGetId lists them */
	for (nids = 0; nids < 256 && LNetGetId(nids, &id) == 0; nids++)
		;
	KUNIT_EXPECT_EQ(test, nnis, nids);
	for (i = 1; i < nnis; i++) {
		found = false;
		for (j = 0; j < nids && LNetGetId(j, &id) == 0; j++)
			if (id.nid == msg_u64(sink + 16 + 16 * i))
				found = true;
		KUNIT_EXPECT_TRUE_MSG(test, found, "ping entry %u: %llx", i,
				      msg_u64(sink + 16 + 16 * i));
	}
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + mlen, 4096 - mlen));
}

static void msg_ping_truncated(struct kunit *test)
{
	struct msg_env *env = msg_env(test);
	u8 *sink = lat_pbuf(test, 64);

	/* a 16-byte sink gets the header only */
	KUNIT_ASSERT_EQ(test, msg_ping(test, env, sink, 16, 0), 16U);
	KUNIT_EXPECT_EQ(test, msg_u32(sink), PING_MAGIC);
	KUNIT_EXPECT_TRUE(test, msg_u32(sink + 4) & PING_FEAT_NI_STATUS);
	KUNIT_EXPECT_EQ(test, msg_u32(sink + 8), (u32)LNET_PID_LUSTRE);
	KUNIT_EXPECT_GE(test, msg_u32(sink + 12), 1U);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + 16, 48));

	/* the requester picks the offset: entry 0 is 0@lo */
	memset(sink, LAT_POISON, 64);
	KUNIT_ASSERT_EQ(test, msg_ping(test, env, sink, 8, 16), 8U);
	KUNIT_EXPECT_EQ(test, msg_u64(sink), LNET_NID_LO_0);
	KUNIT_EXPECT_TRUE(test, lat_poisoned(sink + 8, 56));
}

static struct kunit_case lnet_api_msg_cases[] = {
	KUNIT_CASE(msg_put_ack),
	KUNIT_CASE(msg_put_noack),
	KUNIT_CASE(msg_put_zero),
	KUNIT_CASE(msg_put_sizes),
	KUNIT_CASE(msg_get_reply),
	KUNIT_CASE(msg_get_zero),
	KUNIT_CASE(msg_get_sizes),
	KUNIT_CASE(msg_get_truncate_sink),
	KUNIT_CASE(msg_get_truncate_target),
	KUNIT_CASE(msg_get_oversize_dropped),
	KUNIT_CASE(msg_same_eq_both_sides),
	KUNIT_CASE(msg_self_nid),
	KUNIT_CASE(msg_put_mtu_kiov),
	KUNIT_CASE(msg_get_mtu_kiov),
	KUNIT_CASE(msg_put_mtu_contig),
	KUNIT_CASE(msg_put_mtu_plus_one),
	KUNIT_CASE(msg_put_no_match),
	KUNIT_CASE(msg_get_no_match),
	KUNIT_CASE(msg_lazy_queue_order),
	KUNIT_CASE(msg_lazy_one_at_a_time),
	KUNIT_CASE(msg_lazy_clear_drops),
	KUNIT_CASE(msg_lazy_bad_portal),
	KUNIT_CASE(msg_ping_info),
	KUNIT_CASE(msg_ping_truncated),
	{}
};

static struct kunit_suite lnet_api_msg_suite = {
	.name = "lnet_api_msg",
	.init = lat_init,
	.exit = lat_exit,
	.test_cases = lnet_api_msg_cases,
};
kunit_test_suite(lnet_api_msg_suite);
