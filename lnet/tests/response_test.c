// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of response tracking (md.c; spec: routing-health-
 * multirail.md 3.5) through a fake LND that plays the peer: the ACK or
 * REPLY a bound MD waits for is given transaction_timeout seconds, as
 * response_tracking and the MD's TRACK options say. An idle MD whose
 * answer did not come gets its UNLINK event; a busy one ends with its
 * last message's event, -ETIMEDOUT, unlinked; an answer in time, or a
 * request that failed to go, stops the clock; a late answer is dropped;
 * the peer that owed the answer loses a step of health. transaction_timeout is 1 s here, so each case waits a few seconds.
 */
#include <linux/delay.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define PEER		FAKE_PEER(0, 1)
#define PT		40
#define EXPIRY_MS	3000	/* 1 s timeout, scanned once a second */

struct rsp_env {
	struct lnet_handle_eq	eqh;
	u8			buf[6][64];
	/* restored by .exit */
	int			timeout;
	int			tracking;
};

static struct rsp_env *renv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int rsp_init(struct kunit *test)
{
	struct rsp_env *env;

	env = fake_suite_init(test, 1, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->timeout = lnet_tunable(&lnet_transaction_timeout);
	env->tracking = lnet_tunable(&lnet_response_tracking);
	WRITE_ONCE(lnet_transaction_timeout.value, 1);
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void rsp_exit(struct kunit *test)
{
	struct rsp_env *env;

	if (!test->priv)
		return;
	env = renv(test);
	if (env) {
		WRITE_ONCE(lnet_transaction_timeout.value, env->timeout);
		WRITE_ONCE(lnet_response_tracking.value, env->tracking);
	}
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static u64 rsp_timeouts(void)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	return sum.response_timeout_count;
}

/* A bound MD for the SEND and the answer (threshold 2, auto-unlink). */
static struct lnet_handle_md rsp_md(struct kunit *test, int i,
				    unsigned int options)
{
	struct rsp_env *env = renv(test);

	return wb_bind(test, wb_md(env->buf[i], sizeof(env->buf[i]), 2,
				   options, (void *)(long)i, env->eqh));
}

static struct lnet_msg *rsp_get(struct kunit *test, struct lnet_handle_md mdh)
{
	struct lnet_msg *msg;

	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 7, 0),
			0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	return msg;
}

static struct lnet_msg *rsp_put_ack(struct kunit *test,
				    struct lnet_handle_md mdh)
{
	struct lnet_msg *msg;

	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_ACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 7, 0,
				      0), 0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	return msg;
}

/* The peer answers the GET whose sink is @mdh with @len bytes. */
static int rsp_reply(struct lnet_handle_md mdh, unsigned int len)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, len);
	hdr.msg.reply.dst_wmd.wh_interface_cookie = lnet_core.interface_cookie;
	hdr.msg.reply.dst_wmd.wh_object_cookie = mdh.cookie;
	return lnet_parse(fake.ni[0], &hdr, PEER, NULL, false);
}

static void rsp_wait(struct kunit *test, enum lnet_event_kind type,
		     struct lnet_event *ev)
{
	int which;

	memset(ev, 0, sizeof(*ev));
	KUNIT_ASSERT_EQ_MSG(test, LNetEQPoll(&renv(test)->eqh, 1, EXPIRY_MS,
					     ev, &which), 1,
			    "no event of type %d", type);
	KUNIT_ASSERT_EQ(test, ev->type, type);
}

/* No answer to a sent GET: UNLINK, counted; the late REPLY is dropped. */
static void rsp_get_expires_idle(struct kunit *test)
{
	struct lnet_handle_md mdh = rsp_md(test, 0, 0);
	u64 tracked = lnet_md_rsp_tracked(), timeouts = rsp_timeouts();
	unsigned int nnull = fake.nrecv_null;
	struct lnet_event ev;

	fake_done(rsp_get(test, mdh), 0);
	KUNIT_EXPECT_EQ(test, lnet_md_rsp_tracked(), tracked + 1);
	rsp_wait(test, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);

	rsp_wait(test, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, (long)ev.md.user_ptr, 0L);
	KUNIT_EXPECT_EQ(test, rsp_timeouts(), timeouts + 1);
	KUNIT_EXPECT_EQ(test, lnet_md_rsp_tracked(), tracked);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);

	/* the REPLY that comes after all finds no MD: dropped */
	KUNIT_EXPECT_EQ(test, rsp_reply(mdh, 16), 0);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 1);
	wb_quiet(test, renv(test)->eqh);
}

/*
 * The GET is still with the LND when its answer is overdue: the MD goes
 * with the SEND event, unlinked, no UNLINK after it. Its status is
 * -ETIMEDOUT where it would have been 0, else the LND's own.
 */
static void rsp_busy(struct kunit *test, int lnd_status, int want)
{
	struct lnet_handle_md mdh = rsp_md(test, 1, 0);
	u64 timeouts = rsp_timeouts();
	struct lnet_event ev;
	struct lnet_msg *get;
	int which;

	get = rsp_get(test, mdh);
	msleep(EXPIRY_MS);
	KUNIT_EXPECT_EQ(test, rsp_timeouts(), timeouts + 1);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&renv(test)->eqh, 1, 0, &ev, &which),
			0);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
	fake_done(get, lnd_status);
	rsp_wait(test, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, want);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	wb_quiet(test, renv(test)->eqh);
}

static void rsp_get_expires_busy(struct kunit *test)
{
	rsp_busy(test, 0, -ETIMEDOUT);
}

static void rsp_get_expires_busy_failed(struct kunit *test)
{
	rsp_busy(test, -EIO, -EIO);
}

/* The REPLY in time stops the clock: nothing expires afterwards. */
static void rsp_reply_in_time(struct kunit *test)
{
	struct lnet_handle_md mdh = rsp_md(test, 2, 0);
	u64 tracked = lnet_md_rsp_tracked(), timeouts = rsp_timeouts();
	struct lnet_event ev;

	fake_done(rsp_get(test, mdh), 0);
	rsp_wait(test, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, rsp_reply(mdh, 16), 0);
	rsp_wait(test, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, lnet_md_rsp_tracked(), tracked);
	msleep(EXPIRY_MS);
	wb_quiet(test, renv(test)->eqh);
	KUNIT_EXPECT_EQ(test, rsp_timeouts(), timeouts);
}

/*
 * A GET that failed to go waits for no REPLY: its MD (one operation
 * left) is the owner's again, not timed out.
 */
static void rsp_send_failure_untracks(struct kunit *test)
{
	struct lnet_handle_md mdh = rsp_md(test, 3, 0);
	u64 tracked = lnet_md_rsp_tracked(), timeouts = rsp_timeouts();
	struct lnet_event ev;

	fake_done(rsp_get(test, mdh), -EHOSTUNREACH);
	rsp_wait(test, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);
	KUNIT_EXPECT_EQ(test, lnet_md_rsp_tracked(), tracked);
	msleep(EXPIRY_MS);
	wb_quiet(test, renv(test)->eqh);
	KUNIT_EXPECT_EQ(test, rsp_timeouts(), timeouts);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
	rsp_wait(test, LNET_EVENT_UNLINK, &ev);
}

/*
 * Which answers are timed: response_tracking 1 = REPLYs, 2 = ACKs, 0 =
 * neither; LNET_MD_TRACK_RESPONSE and LNET_MD_NO_TRACK_RESPONSE win.
 * Each round sends everything, waits once, and reads which MDs went.
 */
static unsigned int rsp_round(struct kunit *test, int mode,
			      const bool *is_get, const unsigned int *opts,
			      int n)
{
	struct lnet_handle_md mdh[6];
	unsigned int unlinked = 0;
	struct lnet_event ev;
	int i, which;

	WRITE_ONCE(lnet_response_tracking.value, mode);
	for (i = 0; i < n; i++) {
		mdh[i] = rsp_md(test, i, opts[i]);
		fake_done(is_get[i] ? rsp_get(test, mdh[i]) :
				      rsp_put_ack(test, mdh[i]), 0);
		rsp_wait(test, LNET_EVENT_SEND, &ev);
	}
	msleep(EXPIRY_MS);
	while (LNetEQPoll(&renv(test)->eqh, 1, 0, &ev, &which) == 1) {
		KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_UNLINK);
		unlinked |= 1U << (long)ev.md.user_ptr;
	}
	/* the untimed ones are still there, for their owner to unlink */
	for (i = 0; i < n; i++)
		if (!(unlinked & (1U << i))) {
			KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh[i]), 0);
			rsp_wait(test, LNET_EVENT_UNLINK, &ev);
		}
	return unlinked;
}

static void rsp_tracking_modes(struct kunit *test)
{
	static const bool is_get[] = { true, false, true, false, true, false };
	static const unsigned int opts[] = {
		0, 0, LNET_MD_NO_TRACK_RESPONSE, LNET_MD_NO_TRACK_RESPONSE,
		LNET_MD_TRACK_RESPONSE, LNET_MD_TRACK_RESPONSE,
	};

	/* GET, PUT, GET no-track, PUT no-track, GET track, PUT track */
	KUNIT_EXPECT_EQ(test, rsp_round(test, 0, is_get, opts, 6), 0x30U);
	KUNIT_EXPECT_EQ(test, rsp_round(test, 1, is_get, opts, 6), 0x31U);
	KUNIT_EXPECT_EQ(test, rsp_round(test, 2, is_get, opts, 6), 0x32U);
	KUNIT_EXPECT_EQ(test, rsp_round(test, 3, is_get, opts, 6), 0x33U);
}

/* Both TRACK options at once make no sense: the MD is refused. */
static void rsp_both_options_refused(struct kunit *test)
{
	struct lnet_handle_md mdh;
	u8 buf[8];

	KUNIT_EXPECT_EQ(test, LNetMDBind(wb_md(buf, sizeof(buf), 1,
					       LNET_MD_TRACK_RESPONSE |
					       LNET_MD_NO_TRACK_RESPONSE,
					       NULL, wb_no_eq()),
					 LNET_UNLINK, &mdh), -EINVAL);
}

/* Even with one NI, a peer that owes an answer pays for it (spec 3.5). */
static void rsp_expiry_costs_peer_health(struct kunit *test)
{
	int step = lnet_tunable(&lnet_health_sensitivity);
	struct lnet_handle_md mdh = rsp_md(test, 0, 0);
	struct lnet_event ev;
	u64 before, after;
	int i, health;

	KUNIT_ASSERT_GT(test, step, 0);
	fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_TIMEOUT, &before);
	fake_done(rsp_get(test, mdh), 0);
	rsp_wait(test, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), LNET_MAX_HEALTH);
	rsp_wait(test, LNET_EVENT_UNLINK, &ev);
	/* blamed just after the events are delivered */
	for (i = 0; i < 50; i++) {
		health = fake_peer_health(PEER, 0, NULL);
		if (health != LNET_MAX_HEALTH)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, health, LNET_MAX_HEALTH - step);
	fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_TIMEOUT, &after);
	KUNIT_EXPECT_EQ(test, after, before + 1);
}

static struct kunit_case lnet_response_cases[] = {
	KUNIT_CASE(rsp_expiry_costs_peer_health),
	KUNIT_CASE(rsp_get_expires_idle),
	KUNIT_CASE(rsp_get_expires_busy),
	KUNIT_CASE(rsp_get_expires_busy_failed),
	KUNIT_CASE(rsp_reply_in_time),
	KUNIT_CASE(rsp_send_failure_untracks),
	KUNIT_CASE(rsp_tracking_modes),
	KUNIT_CASE(rsp_both_options_refused),
	{}
};

static struct kunit_suite lnet_response_suite = {
	.name = "lnet_response",
	.init = rsp_init,
	.exit = rsp_exit,
	.test_cases = lnet_response_cases,
};
kunit_test_suite(lnet_response_suite);
