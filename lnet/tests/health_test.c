// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of health (health.c; spec: routing-health-multirail.md
 * 3.1, 3.2) through a fake LND that plays the network: how an unclassified
 * failure is classified, the arithmetic within 0..1000, which statuses
 * cost the local NI health and which are only counted against the peer
 * (one NI, no gateway), successes giving health back, a receive raising a
 * peer set low by hand, and sensitivity 0 freezing everything.
 */
#include "fake_lnd.h"
#include "wb_util.h"

#define PEER		FAKE_PEER(0, 1)
#define PT		41
#define SENS		100

struct health_env {
	struct lnet_handle_eq	eqh;
	u8			buf[64];
	int			sensitivity;	/* restored by .exit */
};

static struct health_env *henv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int health_init(struct kunit *test)
{
	struct health_env *env;

	env = fake_suite_init(test, 1, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->sensitivity = lnet_tunable(&lnet_health_sensitivity);
	WRITE_ONCE(lnet_health_sensitivity.value, SENS);
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void health_exit(struct kunit *test)
{
	struct health_env *env;

	if (!test->priv)
		return;
	env = henv(test);
	if (env)
		WRITE_ONCE(lnet_health_sensitivity.value, env->sensitivity);
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static int ni_health(void)
{
	return atomic_read(&fake.ni[0]->healthv);
}

static u64 ni_failures(enum lnet_msg_status hs)
{
	struct lnet_ni_stats sum;

	lnet_ni_stats_sum(fake.ni[0], &sum);
	return sum.health[hs];
}

static u64 global_failures(enum lnet_msg_status hs)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	return sum.health[hs];
}

/*
 * One PUT to the peer that the "LND" ends with @status, after calling it
 * @hs if @hs is not OK; its SEND event is consumed.
 */
static void put_ends(struct kunit *test, int status, enum lnet_msg_status hs)
{
	struct health_env *env = henv(test);
	struct lnet_event ev;
	struct lnet_msg *msg;
	int which;

	msg = fake_put_held(test, env->eqh, env->buf, sizeof(env->buf), PEER,
			    PT);
	if (hs != LNET_MSG_STATUS_OK)
		lnet_msg_set_health(msg, hs);
	fake_done(msg, status);
	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_SEND);
	KUNIT_EXPECT_EQ(test, ev.status, status);
}

/* A GET to the peer and its REPLY: one message received from the peer. */
static void get_replied(struct kunit *test)
{
	struct health_env *env = henv(test);
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	struct lnet_hdr hdr;
	int which;

	mdh = wb_bind(test, wb_md(env->buf, sizeof(env->buf), 2, 0, NULL,
				  env->eqh));
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 2, 0),
			0);
	fake_done(fake_take_send(WB_WAIT_MS), 0);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 8);
	hdr.msg.reply.dst_wmd.wh_interface_cookie = lnet_core.interface_cookie;
	hdr.msg.reply.dst_wmd.wh_object_cookie = mdh.cookie;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, PEER, NULL, false),
			0);
	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_SEND);
	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_REPLY);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
}

/* The errno table for failures no LND classified (the socklnd one). */
static void health_errno_classes(struct kunit *test)
{
	static const struct {
		int err;
		enum lnet_msg_status hs;
	} table[] = {
		{ 0,		LNET_MSG_STATUS_OK },
		{ -ETIMEDOUT,	LNET_MSG_STATUS_NETWORK_TIMEOUT },
		{ -ENETDOWN,	LNET_MSG_STATUS_REMOTE_DROPPED },
		{ -EHOSTUNREACH, LNET_MSG_STATUS_REMOTE_DROPPED },
		{ -ENETUNREACH,	LNET_MSG_STATUS_REMOTE_DROPPED },
		{ -ECONNREFUSED, LNET_MSG_STATUS_REMOTE_DROPPED },
		{ -ECONNRESET,	LNET_MSG_STATUS_REMOTE_DROPPED },
		{ -EIO,		LNET_MSG_STATUS_LOCAL_ERROR },
		{ -ENOMEM,	LNET_MSG_STATUS_LOCAL_ERROR },
		{ -ECONNABORTED, LNET_MSG_STATUS_LOCAL_ERROR },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		KUNIT_EXPECT_EQ_MSG(test, lnet_health_status_of(table[i].err),
				    table[i].hs, "errno %d", table[i].err);
}

/* Which statuses blame whom (spec 3.2), and the 0..1000 arithmetic. */
static void health_blame_and_bounds(struct kunit *test)
{
	enum lnet_msg_status hs;

	for (hs = LNET_MSG_STATUS_LOCAL_INTERRUPT; hs < LNET_MSG_NSTATUS; hs++) {
		bool local = hs <= LNET_MSG_STATUS_LOCAL_TIMEOUT ||
			     hs == LNET_MSG_STATUS_NETWORK_TIMEOUT;
		bool remote = hs >= LNET_MSG_STATUS_REMOTE_ERROR;

		KUNIT_EXPECT_EQ_MSG(test, lnet_health_blames_local(hs), local,
				    "status %d", hs);
		KUNIT_EXPECT_EQ_MSG(test, lnet_health_blames_remote(hs), remote,
				    "status %d", hs);
	}
	KUNIT_EXPECT_FALSE(test, lnet_health_blames_local(LNET_MSG_STATUS_OK));
	KUNIT_EXPECT_FALSE(test, lnet_health_blames_remote(LNET_MSG_STATUS_OK));
	KUNIT_EXPECT_EQ(test, lnet_health_step(1000, 100), 1000);
	KUNIT_EXPECT_EQ(test, lnet_health_step(950, 100), 1000);
	KUNIT_EXPECT_EQ(test, lnet_health_step(50, -100), 0);
	KUNIT_EXPECT_EQ(test, lnet_health_step(0, -100), 0);
	KUNIT_EXPECT_EQ(test, lnet_health_step(500, -100), 400);
	KUNIT_EXPECT_EQ(test, lnet_health_step(500, 0), 500);
}

/*
 * A local failure costs the NI one step and is counted on the NI and
 * globally; each success gives a step back, never above 1000; the NI's
 * value bottoms out at 0.
 */
static void health_local_failures(struct kunit *test)
{
	u64 ni_err = ni_failures(LNET_MSG_STATUS_LOCAL_ERROR);
	u64 all_err = global_failures(LNET_MSG_STATUS_LOCAL_ERROR);
	u64 ni_drop = ni_failures(LNET_MSG_STATUS_LOCAL_DROPPED);
	int i;

	KUNIT_ASSERT_EQ(test, ni_health(), LNET_MAX_HEALTH);
	put_ends(test, -EIO, LNET_MSG_STATUS_OK);	/* unclassified */
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH - SENS);
	KUNIT_EXPECT_EQ(test, ni_failures(LNET_MSG_STATUS_LOCAL_ERROR),
			ni_err + 1);
	KUNIT_EXPECT_EQ(test, global_failures(LNET_MSG_STATUS_LOCAL_ERROR),
			all_err + 1);
	put_ends(test, -EIO, LNET_MSG_STATUS_LOCAL_DROPPED);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH - 2 * SENS);
	KUNIT_EXPECT_EQ(test, ni_failures(LNET_MSG_STATUS_LOCAL_DROPPED),
			ni_drop + 1);
	KUNIT_EXPECT_EQ(test, ni_failures(LNET_MSG_STATUS_LOCAL_ERROR),
			ni_err + 1);

	put_ends(test, 0, LNET_MSG_STATUS_OK);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH - SENS);
	put_ends(test, 0, LNET_MSG_STATUS_OK);
	put_ends(test, 0, LNET_MSG_STATUS_OK);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);

	for (i = 0; i < LNET_MAX_HEALTH / SENS + 2; i++)
		put_ends(test, -EIO, LNET_MSG_STATUS_LOCAL_ERROR);
	KUNIT_EXPECT_EQ(test, ni_health(), 0);
	KUNIT_EXPECT_EQ(test, lnet_ni_set_health(fake.ni[0]->nid, false,
						 LNET_MAX_HEALTH), 0);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);
}

/*
 * Remote failures are counted against the peer and leave its value (one
 * NI, not a gateway) and the NI's alone; a network timeout costs the NI.
 */
static void health_remote_failures(struct kunit *test)
{
	u64 before, after;

	put_ends(test, 0, LNET_MSG_STATUS_OK);		/* make the peer */
	KUNIT_ASSERT_EQ(test,
			fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_DROPPED,
					 &before), LNET_MAX_HEALTH);
	put_ends(test, -ECONNREFUSED, LNET_MSG_STATUS_OK);
	KUNIT_EXPECT_EQ(test,
			fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_DROPPED,
					 &after), LNET_MAX_HEALTH);
	KUNIT_EXPECT_EQ(test, after, before + 1);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);

	fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_TIMEOUT, &before);
	put_ends(test, -EIO, LNET_MSG_STATUS_REMOTE_TIMEOUT);
	fake_peer_health(PEER, LNET_MSG_STATUS_REMOTE_TIMEOUT, &after);
	KUNIT_EXPECT_EQ(test, after, before + 1);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);

	fake_peer_health(PEER, LNET_MSG_STATUS_NETWORK_TIMEOUT, &before);
	put_ends(test, -ETIMEDOUT, LNET_MSG_STATUS_OK);
	fake_peer_health(PEER, LNET_MSG_STATUS_NETWORK_TIMEOUT, &after);
	KUNIT_EXPECT_EQ(test, after, before + 1);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH - SENS);
	put_ends(test, 0, LNET_MSG_STATUS_OK);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);
}

/*
 * A peer set low by hand rises a step with each message received from
 * it; the count of unhealthy peers follows (what makes receives look).
 */
static void health_peer_set_and_receive(struct kunit *test)
{
	int unhealthy = atomic_read(&lnet_core.peers_unhealthy);

	put_ends(test, 0, LNET_MSG_STATUS_OK);		/* make the peer */
	KUNIT_EXPECT_EQ(test, lnet_peer_set_health(PEER, false, 1001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_peer_set_health(FAKE_PEER(0, 9), false,
						   10), -ENOENT);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false, 750), 0);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), 750);
	KUNIT_EXPECT_EQ(test, atomic_read(&lnet_core.peers_unhealthy),
			unhealthy + 1);
	get_replied(test);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), 750 + SENS);
	get_replied(test);
	get_replied(test);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), LNET_MAX_HEALTH);
	KUNIT_EXPECT_EQ(test, atomic_read(&lnet_core.peers_unhealthy),
			unhealthy);

	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(LNET_NID_ANY, true, 0), 0);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(LNET_NID_ANY, true,
						   LNET_MAX_HEALTH), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lnet_core.peers_unhealthy),
			unhealthy);
}

/* Sensitivity 0: failures are still counted, no value moves. */
static void health_sensitivity_zero(struct kunit *test)
{
	u64 ni_err = ni_failures(LNET_MSG_STATUS_LOCAL_ERROR);

	WRITE_ONCE(lnet_health_sensitivity.value, 0);
	put_ends(test, -EIO, LNET_MSG_STATUS_LOCAL_ERROR);
	KUNIT_EXPECT_EQ(test, ni_health(), LNET_MAX_HEALTH);
	KUNIT_EXPECT_EQ(test, ni_failures(LNET_MSG_STATUS_LOCAL_ERROR),
			ni_err + 1);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false, 500), 0);
	get_replied(test);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), 500);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false,
						   LNET_MAX_HEALTH), 0);
}

static struct kunit_case lnet_health_cases[] = {
	KUNIT_CASE(health_errno_classes),
	KUNIT_CASE(health_blame_and_bounds),
	KUNIT_CASE(health_local_failures),
	KUNIT_CASE(health_remote_failures),
	KUNIT_CASE(health_peer_set_and_receive),
	KUNIT_CASE(health_sensitivity_zero),
	{}
};

static struct kunit_suite lnet_health_suite = {
	.name = "lnet_health",
	.init = health_init,
	.exit = health_exit,
	.test_cases = lnet_health_cases,
};

kunit_test_suite(lnet_health_suite);
