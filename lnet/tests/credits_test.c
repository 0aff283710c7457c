// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of send credits with a fake LND that holds what it is
 * given: peer credits, then NI credits, block in FIFO order; returned
 * credits release the next waiter; low-water marks; failed sends and a
 * network going down with messages waiting. And what a remote peer can
 * make us hold: REPLYs and ACKs waiting for its credits are capped
 * (max_queued_responses) and whatever waits for a credit fails at its
 * deadline (transaction_timeout); PUTs waiting on a lazy portal are capped
 * per portal and per peer (lazy_portal_max, lazy_peer_max) and dropped at
 * their deadline (Documentation/hardening.md).
 */
#include <linux/delay.h>
#include <linux/module.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define NI_CREDITS	4
#define PEER_CREDITS	2
#define PT		33		/* where the ACKed PUTs land */
#define LAZY_PT		34
#define PEER		FAKE_PEER(0, 1)

struct credits_env {
	struct lnet_handle_eq	eqh;
	struct lnet_handle_md	smd;
	u8			src[32];
	u8			dst[64];
	/* module parameters, restored by .exit */
	int			responses_max;
	int			ptl_max;
	int			peer_max;
	int			timeout;
};

static int credits_init(struct kunit *test)
{
	struct credits_env *env;

	env = fake_suite_init(test, 1, NI_CREDITS, PEER_CREDITS, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->responses_max = lnet_max_queued_responses;
	env->ptl_max = lnet_lazy_portal_max;
	env->peer_max = lnet_lazy_peer_max;
	env->timeout = lnet_tunable(&lnet_transaction_timeout);
	env->eqh = wb_eq(test, 256, NULL);
	env->smd = wb_bind(test, wb_md(env->src, sizeof(env->src),
				       LNET_MD_THRESH_INF, 0, NULL, env->eqh));
	return 0;
}

static struct credits_env *cenv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static void credits_exit(struct kunit *test)
{
	struct credits_env *env;

	if (!test->priv)
		return;
	env = cenv(test);
	if (env) {
		lnet_max_queued_responses = env->responses_max;
		lnet_lazy_portal_max = env->ptl_max;
		lnet_lazy_peer_max = env->peer_max;
		WRITE_ONCE(lnet_transaction_timeout.value, env->timeout);
		LNetClearLazyPortal(LAZY_PT);
	}
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static void put_to(struct kunit *test, int peer, u64 tag)
{
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, cenv(test)->smd,
				      LNET_NOACK_REQ,
				      wb_id(FAKE_PEER(0, peer), LNET_PID_LUSTRE),
				      4, 0, 0, tag), 0);
}

/* The next message at the LND must be the PUT tagged @tag. */
static struct lnet_msg *expect_send(struct kunit *test, u64 tag)
{
	struct lnet_msg *msg = fake_take_send(WB_WAIT_MS);

	KUNIT_ASSERT_NOT_NULL_MSG(test, msg, "no send for PUT %llu", tag);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.put.hdr_data, tag);
	return msg;
}

static void expect_sent_events(struct kunit *test, int n, int status)
{
	struct lnet_event ev;
	int i;

	for (i = 0; i < n; i++) {
		wb_wait(test, cenv(test)->eqh, LNET_EVENT_SEND, &ev);
		KUNIT_EXPECT_EQ(test, ev.status, status);
	}
}

static void peer_state(struct kunit *test, int peer, int credits, int min,
		       int queued)
{
	int c, m, q;

	KUNIT_ASSERT_EQ(test, lnet_peer_credit_state(FAKE_PEER(0, peer), &c,
						     &m, &q), PEER_CREDITS);
	KUNIT_EXPECT_EQ(test, c, credits);
	KUNIT_EXPECT_EQ(test, m, min);
	KUNIT_EXPECT_EQ(test, q, queued);
}

static void ni_state(struct kunit *test, int credits, int min, int queued)
{
	int c, m, q;

	KUNIT_ASSERT_EQ(test, lnet_ni_credit_state(fake.ni[0], &c, &m, &q),
			NI_CREDITS);
	KUNIT_EXPECT_EQ(test, c, credits);
	KUNIT_EXPECT_EQ(test, m, min);
	KUNIT_EXPECT_EQ(test, q, queued);
}

static void credits_peer_blocks(struct kunit *test)
{
	struct lnet_msg *m1, *m2, *m3;

	put_to(test, 1, 1);
	put_to(test, 1, 2);
	put_to(test, 1, 3);
	m1 = expect_send(test, 1);
	m2 = expect_send(test, 2);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	peer_state(test, 1, -1, -1, 1);
	ni_state(test, NI_CREDITS - 2, NI_CREDITS - 2, 0);

	fake_done(m1, 0);			/* frees a peer credit ... */
	m3 = expect_send(test, 3);		/* ... which PUT 3 takes */
	peer_state(test, 1, 0, -1, 0);
	fake_done(m2, 0);
	fake_done(m3, 0);
	expect_sent_events(test, 3, 0);
	peer_state(test, 1, PEER_CREDITS, -1, 0);
	ni_state(test, NI_CREDITS, NI_CREDITS - 2, 0);
}

static void credits_ni_blocks(struct kunit *test)
{
	struct lnet_msg *m[6];
	int i;

	/* peers 1, 2, 3 get two PUTs each; the NI has room for four */
	for (i = 0; i < 6; i++)
		put_to(test, 1 + i / 2, i + 1);
	for (i = 0; i < 4; i++)
		m[i] = expect_send(test, i + 1);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	ni_state(test, -2, -2, 2);
	peer_state(test, 3, 0, 0, 0);	/* holding its credits, NI-queued */

	fake_done(m[2], 0);
	m[4] = expect_send(test, 5);
	fake_done(m[0], 0);
	m[5] = expect_send(test, 6);
	ni_state(test, 0, -2, 0);
	for (i = 1; i < 6; i++)
		if (i != 2)
			fake_done(m[i], 0);
	expect_sent_events(test, 6, 0);
	ni_state(test, NI_CREDITS, -2, 0);
}

static void credits_fifo(struct kunit *test)
{
	struct lnet_msg *held[2];
	int i;

	for (i = 1; i <= 6; i++)
		put_to(test, 2, i);
	held[0] = expect_send(test, 1);
	held[1] = expect_send(test, 2);
	peer_state(test, 2, -4, -4, 4);
	for (i = 3; i <= 6; i++) {
		fake_done(held[i & 1], 0);
		held[i & 1] = expect_send(test, i);
	}
	fake_done(held[0], 0);
	fake_done(held[1], 0);
	expect_sent_events(test, 6, 0);
	peer_state(test, 2, PEER_CREDITS, -4, 0);
}

static void credits_send_error(struct kunit *test)
{
	fake.send_mode = FAKE_SEND_FAIL;
	fake.send_rc = -EIO;
	put_to(test, 1, 1);
	put_to(test, 1, 2);
	put_to(test, 1, 3);
	expect_sent_events(test, 3, -EIO);
	/* every credit came back */
	peer_state(test, 1, PEER_CREDITS, PEER_CREDITS - 1, 0);
	ni_state(test, NI_CREDITS, NI_CREDITS - 1, 0);
}

/* The network goes: held and queued messages all fail -ESHUTDOWN. */
static void credits_net_down(struct kunit *test)
{
	int i;

	for (i = 0; i < 8; i++)
		put_to(test, 1 + i % 3, i + 1);
	KUNIT_EXPECT_EQ(test, fake.nheld, (unsigned int)NI_CREDITS);
	KUNIT_ASSERT_EQ(test, lnet_net_del(FAKE_NET(0)), 0);
	expect_sent_events(test, 8, -ESHUTDOWN);
	KUNIT_EXPECT_EQ(test, fake.nshutdown, 1U);
	/* its peers went with it */
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(FAKE_PEER(0, 1), &i, &i,
						     &i), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, cenv(test)->smd,
				      LNET_NOACK_REQ,
				      wb_id(FAKE_PEER(0, 1), LNET_PID_LUSTRE),
				      4, 0, 0, 0), -EHOSTUNREACH);
}

/* The loopback NI has no credit limit and no peers. */
static void credits_lo_unlimited(struct kunit *test)
{
	int i;

	KUNIT_ASSERT_NOT_NULL(test, lnet_core.lo_ni);
	KUNIT_EXPECT_EQ(test, lnet_core.lo_ni->max_tx_credits, 0);
	for (i = 0; i < 20; i++)
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, cenv(test)->smd,
					      LNET_NOACK_REQ, wb_lo(), 60, 0,
					      0, i), 0);
	expect_sent_events(test, 20, 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(LNET_NID_LO_0, &i, &i,
						     &i), -ENOENT);
}

/* Each NI of a network holds a reference on its LND's module. */
static void credits_lnd_module_ref(struct kunit *test)
{
	struct lnet_net_config cfg = { .net_id = FAKE_NET(1) };
	int refs = module_refcount(THIS_MODULE);

	KUNIT_ASSERT_EQ(test, lnet_net_add(&cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
	KUNIT_EXPECT_EQ(test, lnet_net_add(&cfg, NULL), -EEXIST);
	KUNIT_ASSERT_EQ(test, lnet_net_del(FAKE_NET(1)), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	KUNIT_EXPECT_EQ(test, lnet_net_del(FAKE_NET(1)), -ENOENT);
}

static int queued_to(struct kunit *test, lnet_nid_t nid)
{
	int c, m, q;

	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(nid, &c, &m, &q),
			PEER_CREDITS);
	return q;
}

/* The LND finishes the next message it holds. */
static void done_next(struct kunit *test)
{
	struct lnet_msg *msg = fake_take_send(WB_WAIT_MS);

	KUNIT_ASSERT_NOT_NULL(test, msg);
	fake_done(msg, 0);
}

/* A PUT from @src to @portal, @bits; ACK wanted if @ack. */
static void parse_put(struct kunit *test, lnet_nid_t src, unsigned int portal,
		      u64 bits, bool ack)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, src, 0);
	hdr.msg.put.ptl_index = portal;
	hdr.msg.put.match_bits = bits;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	if (ack) {
		hdr.msg.put.ack_wmd.wh_interface_cookie = 0x1111;
		hdr.msg.put.ack_wmd.wh_object_cookie = 0x2222;
	}
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[0], &hdr, src, NULL, false),
			0);
}

/*
 * A peer that asks for ACKs and never lets its credits come back: two
 * ACKs go to the LND, max_queued_responses wait, the rest are dropped.
 */
static void credits_responses_capped(struct kunit *test)
{
	struct credits_env *env = cenv(test);
	struct lnet_msg *held[PEER_CREDITS];
	struct lnet_event ev;
	int i;

	lnet_max_queued_responses = 3;
	wb_attach(test, wb_me(test, PT, wb_any(), 7, 0),
		  wb_md(env->dst, sizeof(env->dst), LNET_MD_THRESH_INF,
			LNET_MD_OP_PUT, NULL, env->eqh));
	for (i = 0; i < 10; i++) {
		parse_put(test, PEER, PT, 7, true);
		wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	}
	KUNIT_EXPECT_EQ(test, fake.nsend, (unsigned int)PEER_CREDITS);
	KUNIT_EXPECT_EQ(test, queued_to(test, PEER), 3);

	/* the queued ones still go, in order, as credits come back */
	for (i = 0; i < PEER_CREDITS; i++)
		held[i] = fake_take_send(WB_WAIT_MS);
	for (i = 0; i < PEER_CREDITS; i++) {
		KUNIT_ASSERT_NOT_NULL(test, held[i]);
		KUNIT_EXPECT_EQ(test, held[i]->hdr.type, (u32)LNET_MSG_ACK);
		fake_done(held[i], 0);
	}
	for (i = 0; i < 3; i++)
		done_next(test);
	KUNIT_EXPECT_EQ(test, fake.nsend, (unsigned int)PEER_CREDITS + 3);
	KUNIT_EXPECT_EQ(test, queued_to(test, PEER), 0);
	/* and the peer's next ACK is welcome again */
	parse_put(test, PEER, PT, 7, true);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	done_next(test);
}

/* What waits for a peer credit fails at its deadline; the rest is intact. */
static void credits_queue_deadline(struct kunit *test)
{
	struct credits_env *env = cenv(test);
	struct lnet_msg *held[PEER_CREDITS];
	struct lnet_event ev;
	int i;

	WRITE_ONCE(lnet_transaction_timeout.value, 1);
	for (i = 0; i < PEER_CREDITS + 3; i++)
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, env->smd,
					      LNET_NOACK_REQ,
					      wb_id(PEER, LNET_PID_LUSTRE),
					      4, 0, 0, i), 0);
	for (i = 0; i < PEER_CREDITS; i++) {
		held[i] = fake_take_send(WB_WAIT_MS);
		KUNIT_ASSERT_NOT_NULL(test, held[i]);
	}
	KUNIT_EXPECT_EQ(test, queued_to(test, PEER), 3);
	/* one to two seconds later, the three waiting ones fail */
	for (i = 0; i < 3; i++) {
		wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
		KUNIT_EXPECT_EQ(test, ev.status, -ETIMEDOUT);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)(PEER_CREDITS + i));
	}
	KUNIT_EXPECT_EQ(test, queued_to(test, PEER), 0);
	KUNIT_EXPECT_EQ(test, fake.nsend, (unsigned int)PEER_CREDITS);
	for (i = 0; i < PEER_CREDITS; i++) {
		fake_done(held[i], 0);
		wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
		KUNIT_EXPECT_EQ(test, ev.status, 0);
	}
	/* every credit came back: the expired ones' debts were cancelled */
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, env->smd, LNET_NOACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 0, 0,
				      99), 0);
	done_next(test);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, queued_to(test, PEER), 0);
}

static struct lnet_ptl_stats lazy_stats(struct kunit *test)
{
	struct lnet_ptl_stats st;

	KUNIT_EXPECT_EQ(test, lnet_ptl_get_stats(LAZY_PT, &st), 0);
	return st;
}

/* Unmatched PUTs on a lazy portal: per-peer and per-portal caps. */
static void credits_lazy_caps(struct kunit *test)
{
	unsigned long dropped;
	unsigned int nnull;
	int i;

	lnet_lazy_peer_max = 3;
	lnet_lazy_portal_max = 5;
	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(LAZY_PT), 0);
	dropped = lazy_stats(test).ndropped;
	nnull = fake.nrecv_null;

	for (i = 0; i < 6; i++)
		parse_put(test, FAKE_PEER(0, 1), LAZY_PT, i, false);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 3U);
	/* the over-cap PUTs were dropped at once: recv() without a message */
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 3);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndropped, dropped + 3);

	/* another peer has its own share, up to the portal's cap */
	for (i = 0; i < 4; i++)
		parse_put(test, FAKE_PEER(0, 2), LAZY_PT, i, false);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 5U);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 5);

	/* an MD that takes peer 1's first PUT frees a place for peer 1 */
	wb_attach(test, wb_me(test, LAZY_PT, wb_id(FAKE_PEER(0, 1),
						   LNET_PID_ANY), 0, 0),
		  wb_md(cenv(test)->dst, 8, 1, LNET_MD_OP_PUT, NULL,
			wb_no_eq()));
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 4U);
	parse_put(test, FAKE_PEER(0, 1), LAZY_PT, 9, false);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 5U);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 5);

	KUNIT_EXPECT_EQ(test, LNetClearLazyPortal(LAZY_PT), 0);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 0U);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 10);
}

/* A PUT that no MD took before its deadline is dropped. */
static void credits_lazy_deadline(struct kunit *test)
{
	unsigned int nnull = fake.nrecv_null;
	int i;

	WRITE_ONCE(lnet_transaction_timeout.value, 1);
	KUNIT_ASSERT_EQ(test, LNetSetLazyPortal(LAZY_PT), 0);
	for (i = 0; i < 3; i++)
		parse_put(test, FAKE_PEER(0, 1 + i), LAZY_PT, i, false);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 3U);
	/* the expiry unqueues them all, then drops them one by one */
	for (i = 0; i < 50 && (lazy_stats(test).ndelayed ||
			       READ_ONCE(fake.nrecv_null) < nnull + 3); i++)
		msleep(100);
	KUNIT_EXPECT_EQ(test, lazy_stats(test).ndelayed, 0U);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 3);
	KUNIT_EXPECT_TRUE(test, fake.last_recv.delayed);
}

static struct kunit_case lnet_credits_cases[] = {
	KUNIT_CASE(credits_peer_blocks),
	KUNIT_CASE(credits_ni_blocks),
	KUNIT_CASE(credits_fifo),
	KUNIT_CASE(credits_send_error),
	KUNIT_CASE(credits_net_down),
	KUNIT_CASE(credits_lo_unlimited),
	KUNIT_CASE(credits_lnd_module_ref),
	KUNIT_CASE(credits_responses_capped),
	KUNIT_CASE(credits_queue_deadline),
	KUNIT_CASE(credits_lazy_caps),
	KUNIT_CASE(credits_lazy_deadline),
	{}
};

static struct kunit_suite lnet_credits_suite = {
	.name = "lnet_credits",
	.init = credits_init,
	.exit = credits_exit,
	.test_cases = lnet_credits_cases,
};
kunit_test_suite(lnet_credits_suite);
