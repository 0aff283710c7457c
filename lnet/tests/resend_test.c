// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of resend (resend.c; spec: routing-health-multirail.md
 * 3.3) with a fake LND on two nets, so that this node has a second NI: a
 * send the "LND" fails with a local status is sent again, up to
 * retry_count times, and its MD's owner sees one event with the last
 * status; the counters say how many resends there were and how they
 * ended. A local error, a remote drop (the peer has one NI), retry_count
 * 0, health_sensitivity 0, an LND refusing the message outright and a
 * node with one NI get no resend; nor does a message past its deadline,
 * which gives each try the LND's timeout (spec 3.4).
 */
#include <linux/delay.h>

#include "fake_lnd.h"
#include "wb_util.h"

#define PEER		FAKE_PEER(0, 1)
#define PT		42

struct resend_env {
	struct lnet_handle_eq	eqh;
	u8			buf[64];
	/* restored by .exit */
	int			retry_count;
	int			sensitivity;
};

static struct resend_env *renv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int resend_init(struct kunit *test)
{
	struct resend_env *env;

	env = fake_suite_init(test, 2, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->retry_count = lnet_tunable(&lnet_retry_count);
	env->sensitivity = lnet_tunable(&lnet_health_sensitivity);
	WRITE_ONCE(lnet_retry_count.value, 2);
	WRITE_ONCE(lnet_health_sensitivity.value, 100);
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void resend_exit(struct kunit *test)
{
	struct resend_env *env;

	if (!test->priv)
		return;
	env = renv(test);
	if (env) {
		WRITE_ONCE(lnet_retry_count.value, env->retry_count);
		WRITE_ONCE(lnet_health_sensitivity.value, env->sensitivity);
	}
	fake.send_mode = FAKE_SEND_HOLD;
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

struct resend_counts {
	u64	resent;
	u64	succeeded;
	u64	failed;
};

static struct resend_counts resend_counts(void)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	return (struct resend_counts){
		.resent = sum.resend_count,
		.succeeded = sum.successful_resends,
		.failed = sum.failed_resends,
	};
}

/* A PUT to the peer on net 0; the LND holds it. */
static struct lnet_msg *resend_put(struct kunit *test)
{
	struct resend_env *env = renv(test);

	return fake_put_held(test, env->eqh, env->buf, sizeof(env->buf), PEER,
			     PT);
}

/* The LND fails @msg with @status, calling it @hs. */
static void resend_fail(struct lnet_msg *msg, int status,
			enum lnet_msg_status hs)
{
	lnet_msg_set_health(msg, hs);
	fake_done(msg, status);
}

/* The one event of the PUT: SEND with @status; no other event follows. */
static void resend_event(struct kunit *test, int status)
{
	struct resend_env *env = renv(test);
	struct lnet_event ev;
	int which;

	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_SEND);
	KUNIT_EXPECT_EQ(test, ev.status, status);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	wb_quiet(test, env->eqh);
}

/* Which statuses are retried, and when (spec 3.2). */
static void resend_status_table(struct kunit *test)
{
	enum lnet_msg_status hs;

	for (hs = LNET_MSG_STATUS_OK; hs < LNET_MSG_NSTATUS; hs++) {
		bool local = hs == LNET_MSG_STATUS_LOCAL_INTERRUPT ||
			     hs == LNET_MSG_STATUS_LOCAL_DROPPED ||
			     hs == LNET_MSG_STATUS_LOCAL_ABORTED ||
			     hs == LNET_MSG_STATUS_LOCAL_NO_ROUTE ||
			     hs == LNET_MSG_STATUS_LOCAL_TIMEOUT;
		bool remote = hs == LNET_MSG_STATUS_REMOTE_DROPPED;

		KUNIT_EXPECT_EQ_MSG(test, lnet_health_status_resendable(hs, true,
									true),
				    local || remote, "status %d", hs);
		KUNIT_EXPECT_EQ_MSG(test,
				    lnet_health_status_resendable(hs, false,
								  true),
				    remote, "status %d", hs);
		KUNIT_EXPECT_EQ_MSG(test,
				    lnet_health_status_resendable(hs, true,
								  false),
				    local, "status %d", hs);
	}
}

/* Failed once, sent again, then through: one event, status 0. */
static void resend_then_success(struct kunit *test)
{
	struct resend_counts c0 = resend_counts(), c1;
	struct lnet_msg *msg = resend_put(test), *again;

	resend_fail(msg, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
	again = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_PTR_EQ(test, again, msg);
	fake_done(again, 0);
	resend_event(test, 0);
	c1 = resend_counts();
	KUNIT_EXPECT_EQ(test, c1.resent, c0.resent + 1);
	KUNIT_EXPECT_EQ(test, c1.succeeded, c0.succeeded + 1);
	KUNIT_EXPECT_EQ(test, c1.failed, c0.failed);
}

/*
 * retry_count 2: three tries, all failing; the owner sees the last
 * status once, and the exhausted retries are counted.
 */
static void resend_exhausted(struct kunit *test)
{
	struct resend_counts c0 = resend_counts(), c1;
	struct lnet_msg *msg = resend_put(test);
	int i;

	for (i = 0; i < 2; i++) {
		resend_fail(msg, -EIO, LNET_MSG_STATUS_LOCAL_TIMEOUT);
		msg = fake_take_send(WB_WAIT_MS);
		KUNIT_ASSERT_NOT_NULL(test, msg);
	}
	resend_fail(msg, -EINTR, LNET_MSG_STATUS_LOCAL_INTERRUPT);
	KUNIT_EXPECT_NULL(test, fake_take_send(200));
	resend_event(test, -EINTR);
	c1 = resend_counts();
	KUNIT_EXPECT_EQ(test, c1.resent, c0.resent + 2);
	KUNIT_EXPECT_EQ(test, c1.failed, c0.failed + 1);
	KUNIT_EXPECT_EQ(test, c1.succeeded, c0.succeeded);
}

/* A failure no other try could fix ends the message at once. */
static void resend_not_for(struct kunit *test, int status,
			   enum lnet_msg_status hs)
{
	struct resend_counts c0 = resend_counts(), c1;

	resend_fail(resend_put(test), status, hs);
	KUNIT_EXPECT_NULL(test, fake_take_send(200));
	resend_event(test, status);
	c1 = resend_counts();
	KUNIT_EXPECT_EQ(test, c1.resent, c0.resent);
}

static void resend_not_local_error(struct kunit *test)
{
	resend_not_for(test, -EIO, LNET_MSG_STATUS_LOCAL_ERROR);
	resend_not_for(test, -EIO, LNET_MSG_STATUS_OK);	/* by errno: same */
	/* the peer has no other NI to try */
	resend_not_for(test, -ECONNRESET, LNET_MSG_STATUS_REMOTE_DROPPED);
	resend_not_for(test, -ETIMEDOUT, LNET_MSG_STATUS_NETWORK_TIMEOUT);
}

static void resend_turned_off(struct kunit *test)
{
	WRITE_ONCE(lnet_retry_count.value, 0);
	resend_not_for(test, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
	WRITE_ONCE(lnet_retry_count.value, 2);
	WRITE_ONCE(lnet_health_sensitivity.value, 0);
	resend_not_for(test, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
}

/* send() refusing the message outright: it never left, no resend. */
static void resend_not_refused(struct kunit *test)
{
	struct resend_env *env = renv(test);
	struct resend_counts c0 = resend_counts();
	struct lnet_handle_md mdh;

	fake.send_mode = FAKE_SEND_FAIL;
	fake.send_rc = -EAGAIN;
	mdh = wb_bind(test, wb_md(env->buf, sizeof(env->buf), 1, 0, NULL,
				  env->eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 1, 0,
				      0), 0);
	resend_event(test, -EAGAIN);
	KUNIT_EXPECT_EQ(test, resend_counts().resent, c0.resent);
	fake.send_mode = FAKE_SEND_HOLD;
}

/* With one NI left, a local failure has nowhere else to go. */
static void resend_needs_second_ni(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, lnet_net_del(FAKE_NET(1)), 0);
	KUNIT_ASSERT_NULL(test, fake.ni[1]);	/* its shutdown ran */
	resend_not_for(test, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
}

/* Spec 3.4's figures: 49 s per try, 151 s (148 s, 150 s) per message. */
static void resend_lifetime_arithmetic(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_lnd_timeout_of(150, 2), 49U);
	KUNIT_EXPECT_EQ(test, lnet_lnd_timeout_of(31, 2), 10U);
	KUNIT_EXPECT_EQ(test, lnet_lnd_timeout_of(151, 0), 150U);
	KUNIT_EXPECT_EQ(test, lnet_lnd_timeout_of(2, 1), 1U);	/* not 0 */
	KUNIT_EXPECT_EQ(test, lnet_lnd_timeout_of(1, 0), 1U);
	KUNIT_EXPECT_EQ(test, lnet_msg_lifetime(50, 2, 150), 151UL);
	KUNIT_EXPECT_EQ(test, lnet_msg_lifetime(49, 2, 150), 148UL);
	KUNIT_EXPECT_EQ(test, lnet_msg_lifetime(0, 2, 150), 150UL);
	KUNIT_EXPECT_EQ(test, lnet_msg_lifetime(1, 0, 150), 2UL);
}

/* The deadline starts at the first try and is the LND's to set. */
static void resend_deadline_of_lnd(struct kunit *test)
{
	struct lnet_msg *msg;
	long left;

	fake.timeout = 7;	/* x (2 + 1) + 1 = 22 s */
	msg = resend_put(test);
	left = (long)(msg->resend_deadline - jiffies);
	KUNIT_EXPECT_GT(test, left, 21L * HZ);
	KUNIT_EXPECT_LE(test, left, 22L * HZ);
	resend_fail(msg, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	/* a resend keeps the first try's deadline */
	KUNIT_EXPECT_LE(test, (long)(msg->resend_deadline - jiffies),
			left);
	fake_done(msg, 0);
	resend_event(test, 0);

	fake.timeout = 0;	/* no timeout of its own: transaction_timeout */
	msg = resend_put(test);
	left = (long)(msg->resend_deadline - jiffies);
	KUNIT_EXPECT_GT(test, left,
			(lnet_tunable(&lnet_transaction_timeout) - 1L) * HZ);
	KUNIT_EXPECT_LE(test, left,
			(long)lnet_tunable(&lnet_transaction_timeout) * HZ);
	fake_done(msg, 0);
	resend_event(test, 0);
}

/* A failure after the deadline ends the message, whatever the status. */
static void resend_not_after_deadline(struct kunit *test)
{
	struct resend_counts c0 = resend_counts();
	struct lnet_msg *msg;

	WRITE_ONCE(lnet_retry_count.value, 1);
	fake.timeout = 1;	/* x (1 + 1) + 1 = 3 s */
	msg = resend_put(test);
	msleep(3100);
	resend_fail(msg, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
	KUNIT_EXPECT_NULL(test, fake_take_send(200));
	resend_event(test, -EIO);
	KUNIT_EXPECT_EQ(test, resend_counts().resent, c0.resent);
}

static struct kunit_case lnet_resend_cases[] = {
	KUNIT_CASE(resend_lifetime_arithmetic),
	KUNIT_CASE(resend_deadline_of_lnd),
	KUNIT_CASE(resend_not_after_deadline),
	KUNIT_CASE(resend_status_table),
	KUNIT_CASE(resend_then_success),
	KUNIT_CASE(resend_exhausted),
	KUNIT_CASE(resend_not_local_error),
	KUNIT_CASE(resend_turned_off),
	KUNIT_CASE(resend_not_refused),
	KUNIT_CASE(resend_needs_second_ni),
	{}
};

static struct kunit_suite lnet_resend_suite = {
	.name = "lnet_resend",
	.init = resend_init,
	.exit = resend_exit,
	.test_cases = lnet_resend_cases,
};

kunit_test_suite(lnet_resend_suite);
