// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of recovery (recovery.c; spec: routing-health-multirail.md
 * 3.6) through a fake LND that plays the network: the back-off sequence,
 * which NIs and peers are queued (a peer only once it was alive, and not
 * once recovery_limit has passed), the recovery ping itself (a GET of the
 * ping info to the exact NID, a local NI's own one sent out through that
 * NI), what its REPLY gives back, an NI whose link is down not pinged
 * until it returns, and entries leaving the queue at full health.
 */
#include <linux/delay.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define PEER		FAKE_PEER(0, 1)
#define PEER2		FAKE_PEER(0, 2)
#define PT		42
#define SENS		100

struct recovery_env {
	struct lnet_handle_eq	eqh;
	u8			buf[64];
	int			sensitivity;	/* restored by .exit */
	int			limit;
	int			max_interval;
	struct lnet_ioctl_recovery_list rl;
};

static struct recovery_env *renv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int recovery_init(struct kunit *test)
{
	struct recovery_env *env;

	env = fake_suite_init(test, 1, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->sensitivity = lnet_tunable(&lnet_health_sensitivity);
	env->limit = lnet_tunable(&lnet_recovery_limit);
	env->max_interval = lnet_tunable(&lnet_max_recovery_ping_interval);
	WRITE_ONCE(lnet_health_sensitivity.value, SENS);
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void recovery_exit(struct kunit *test)
{
	struct recovery_env *env;

	if (!test->priv)
		return;
	env = renv(test);
	if (env) {
		WRITE_ONCE(lnet_health_sensitivity.value, env->sensitivity);
		WRITE_ONCE(lnet_recovery_limit.value, env->limit);
		WRITE_ONCE(lnet_max_recovery_ping_interval.value,
			   env->max_interval);
	}
	WRITE_ONCE(lnet_recovery_paused, true);
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

/* The queue of @type as GET_RECOVERY_QUEUE reports it. */
static struct lnet_ioctl_recovery_list *queue_of(struct kunit *test, u32 type)
{
	struct lnet_ioctl_recovery_list *rl = &renv(test)->rl;

	memset(rl, 0, sizeof(*rl));
	KUNIT_EXPECT_EQ(test, lnet_recovery_list(type, rl), 0);
	return rl;
}

/* Wait (up to WB_WAIT_MS) for the queue of @type to hold @n entries. */
static bool queue_reaches(struct kunit *test, u32 type, u32 n)
{
	int i;

	for (i = 0; i < WB_WAIT_MS / 50; i++) {
		if (queue_of(test, type)->rl_total == n)
			return true;
		msleep(50);
	}
	return false;
}

/* One PUT to @peer that the "LND" ends with @status. */
static void put_ends(struct kunit *test, lnet_nid_t peer, int status)
{
	struct recovery_env *env = renv(test);
	struct lnet_event ev;
	int which;

	fake_done(fake_put_held(test, env->eqh, env->buf, sizeof(env->buf),
				peer, PT), status);
	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_SEND);
}

/* The next send must be a recovery ping from our NI to @dst. */
static struct lnet_msg *take_ping(struct kunit *test, lnet_nid_t dst)
{
	struct lnet_msg *msg = fake_take_send(WB_WAIT_MS);

	KUNIT_ASSERT_NOT_NULL_MSG(test, msg, "no recovery ping was sent");
	KUNIT_EXPECT_TRUE(test, msg->recovery);
	KUNIT_EXPECT_TRUE(test, msg->no_resend);
	KUNIT_EXPECT_PTR_EQ(test, msg->ni, fake.ni[0]);
	KUNIT_EXPECT_EQ(test, msg->hdr.type, (u32)LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, dst);
	KUNIT_EXPECT_EQ(test, msg->hdr.src_nid, fake.ni[0]->nid);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.get.ptl_index,
			(u32)LNET_RESERVED_PORTAL);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.get.match_bits,
			LNET_PROTO_PING_MATCHBITS);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.get.sink_length,
			(u32)LNET_PING_INFO_MIN_SIZE);
	return msg;
}

/* Complete the ping @msg and play its REPLY from @src. */
static void ping_replied(struct kunit *test, struct lnet_msg *msg,
			 lnet_nid_t src)
{
	struct lnet_handle_wire wmd = msg->hdr.msg.get.return_wmd;
	struct lnet_hdr hdr;

	fake_done(msg, 0);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, src, 0);
	hdr.msg.reply.dst_wmd = wmd;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, src, NULL, false),
			0);
}

/* 2, 4, ..., 512, then the maximum; a maximum below 2 s is kept. */
static void recovery_backoff_sequence(struct kunit *test)
{
	unsigned int n;

	for (n = 1; n <= 9; n++)
		KUNIT_EXPECT_EQ_MSG(test, lnet_recovery_backoff(n, 900),
				    1U << n, "ping %u", n);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(10, 900), 900U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(1000, 900), 900U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(9, 1024), 512U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(10, 1024), 1024U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(11, 1024), 1024U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(1, 1), 1U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(5, 1), 1U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(1, 3), 2U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_backoff(2, 3), 3U);
}

/*
 * The console names a queue's NIDs when it first holds any, then after
 * 60, 120, 180, 240, 300, 300 s; emptied, it starts over.
 */
static void recovery_console_schedule(struct kunit *test)
{
	static const unsigned int gaps[] = { 60, 120, 180, 240, 300, 300 };
	struct lnet_recovery_console c = {};
	unsigned long t = jiffies;
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, lnet_recovery_console_due(&c, 0, t));
	KUNIT_EXPECT_TRUE(test, lnet_recovery_console_due(&c, 3, t));
	for (i = 0; i < ARRAY_SIZE(gaps); i++) {
		KUNIT_EXPECT_FALSE_MSG(test,
				       lnet_recovery_console_due(&c, 3,
								 t + gaps[i] * HZ - 1),
				       "report %u", i + 2);
		t += gaps[i] * HZ;
		KUNIT_EXPECT_TRUE_MSG(test, lnet_recovery_console_due(&c, 3, t),
				      "report %u", i + 2);
	}
	KUNIT_EXPECT_FALSE(test, lnet_recovery_console_due(&c, 0, t + HZ));
	KUNIT_EXPECT_TRUE(test, lnet_recovery_console_due(&c, 1, t + 2 * HZ));
	KUNIT_EXPECT_FALSE(test, lnet_recovery_console_due(&c, 1, t + 3 * HZ));
}

/*
 * An NI set low is queued and pinged at its own NID through itself; the
 * REPLY gives it health (the send, the receive and the recovery each a
 * step); back at full health it leaves the queue.
 */
static void recovery_local_ni(struct kunit *test)
{
	lnet_nid_t me = fake.ni[0]->nid;
	struct lnet_ioctl_recovery_list *rl;
	struct lnet_msg *msg;
	int i;

	KUNIT_EXPECT_EQ(test, lnet_recovery_list(7, &renv(test)->rl),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_LOCAL_NI)->rl_total,
			0U);
	WRITE_ONCE(lnet_recovery_paused, false);
	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(me, false, 0), 0);
	rl = queue_of(test, LNET_HEALTH_LOCAL_NI);
	KUNIT_ASSERT_EQ(test, rl->rl_total, 1U);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_nid, me);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_health_value, 0);

	msg = take_ping(test, me);
	rl = queue_of(test, LNET_HEALTH_LOCAL_NI);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_ping_count, 1U);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_next_ping, -1LL);
	ping_replied(test, msg, me);
	for (i = 0; i < 100 && atomic_read(&fake.ni[0]->healthv) < 3 * SENS;
	     i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&fake.ni[0]->healthv), 3 * SENS);
	rl = queue_of(test, LNET_HEALTH_LOCAL_NI);
	KUNIT_ASSERT_EQ(test, rl->rl_total, 1U);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_ping_count, 1U);
	KUNIT_EXPECT_GE(test, rl->rl_entries[0].re_next_ping, 0LL);
	KUNIT_EXPECT_LE(test, rl->rl_entries[0].re_next_ping, 2LL);

	/* the second ping, 2 s after the first, fails: pinged again later */
	msg = take_ping(test, me);
	fake_done(msg, -EIO);
	KUNIT_EXPECT_TRUE(test, queue_reaches(test, LNET_HEALTH_LOCAL_NI, 1));

	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(me, false, LNET_MAX_HEALTH),
			0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      queue_reaches(test, LNET_HEALTH_LOCAL_NI, 0),
			      "a healthy NI stayed queued");
}

/*
 * An NI whose link is down stays queued but is not pinged (its ping would
 * come back through the host's loopback route); when the link returns it
 * is pinged at once.
 */
static void recovery_link_down_waits(struct kunit *test)
{
	lnet_nid_t me = fake.ni[0]->nid;
	struct lnet_msg *msg;

	set_bit(LNET_NI_LINK_DOWN, &fake.ni[0]->health_flags);
	WRITE_ONCE(lnet_recovery_paused, false);
	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(me, false, 0), 0);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_LOCAL_NI)->rl_total,
			1U);
	/* two passes of the monitor */
	msg = fake_take_send(2500);
	KUNIT_EXPECT_PTR_EQ_MSG(test, msg, NULL,
				"an NI whose link is down was pinged");
	if (msg)
		fake_done(msg, -ENETDOWN);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_LOCAL_NI)->rl_total,
			1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&fake.ni[0]->healthv), 0);

	clear_bit(LNET_NI_LINK_DOWN, &fake.ni[0]->health_flags);
	lnet_recovery_ni_link_up(fake.ni[0]);
	msg = take_ping(test, me);
	ping_replied(test, msg, me);
}

/*
 * A peer is queued only once it was alive, and not once it has been
 * silent for longer than recovery_limit.
 */
static void recovery_peer_rules(struct kunit *test)
{
	struct lnet_peer *peer;

	put_ends(test, PEER, -ECONNREFUSED);	/* made, never alive */
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false, 0), 0);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_PEER_NI)->rl_total,
			0U);
	put_ends(test, PEER, 0);		/* alive now */
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false, 0), 0);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_PEER_NI)->rl_total,
			1U);
	KUNIT_EXPECT_EQ(test,
			queue_of(test, LNET_HEALTH_PEER_NI)->rl_entries[0].re_nid,
			PEER);

	/* alive, but 3 s ago, with a 1 s limit */
	put_ends(test, PEER2, 0);
	WRITE_ONCE(lnet_recovery_limit.value, 1);
	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(PEER2);
	if (peer)
		peer->last_alive = (jiffies - 3 * HZ) | 1;
	spin_unlock_bh(&lnet_core.net_lock);
	KUNIT_ASSERT_NOT_NULL(test, peer);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER2, false, 0), 0);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_PEER_NI)->rl_total,
			1U);
	WRITE_ONCE(lnet_recovery_limit.value, 0);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER2, false, 0), 0);
	KUNIT_EXPECT_EQ(test, queue_of(test, LNET_HEALTH_PEER_NI)->rl_total,
			2U);
}

/*
 * A queued peer is pinged from the NI that reaches it; its REPLY raises
 * it and starts the back-off over (the next ping is due at once); a
 * failed ping leaves it queued; at full health it leaves the queue.
 */
static void recovery_peer_ping(struct kunit *test)
{
	struct lnet_ioctl_recovery_list *rl;
	struct lnet_msg *msg;

	put_ends(test, PEER, 0);
	WRITE_ONCE(lnet_recovery_paused, false);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false, 0), 0);
	msg = take_ping(test, PEER);
	ping_replied(test, msg, PEER);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), SENS);
	rl = queue_of(test, LNET_HEALTH_PEER_NI);
	KUNIT_ASSERT_EQ(test, rl->rl_total, 1U);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_health_value, SENS);
	KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_ping_count, 0U);

	msg = take_ping(test, PEER);		/* due again at once */
	fake_done(msg, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, fake_peer_health(PEER, 0, NULL), SENS);
	KUNIT_EXPECT_TRUE(test, queue_reaches(test, LNET_HEALTH_PEER_NI, 1));

	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(PEER, false,
						   LNET_MAX_HEALTH), 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      queue_reaches(test, LNET_HEALTH_PEER_NI, 0),
			      "a healthy peer stayed queued");
}

/*
 * max_recovery_ping_interval caps the back-off the monitor applies: with
 * 1 s the pings come about 1 s apart (the default: 2, then 4 s).
 */
static void recovery_max_interval(struct kunit *test)
{
	lnet_nid_t me = fake.ni[0]->nid;
	struct lnet_ioctl_recovery_list *rl;
	unsigned long t0;
	int i;

	WRITE_ONCE(lnet_max_recovery_ping_interval.value, 1);
	WRITE_ONCE(lnet_recovery_paused, false);
	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(me, false, 0), 0);
	for (i = 1; i <= 3; i++) {
		t0 = jiffies;
		fake_done(take_ping(test, me), -EIO);
		if (i > 1)
			KUNIT_EXPECT_LT_MSG(test, jiffies - t0, 3UL * HZ,
					    "ping %d came late", i);
		rl = queue_of(test, LNET_HEALTH_LOCAL_NI);
		KUNIT_ASSERT_EQ(test, rl->rl_total, 1U);
		KUNIT_EXPECT_EQ(test, rl->rl_entries[0].re_ping_count, (u32)i);
		KUNIT_EXPECT_LE(test, rl->rl_entries[0].re_next_ping, 1LL);
	}
	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(me, false, LNET_MAX_HEALTH),
			0);
	KUNIT_EXPECT_TRUE(test, queue_reaches(test, LNET_HEALTH_LOCAL_NI, 0));
}

static struct kunit_case lnet_recovery_cases[] = {
	KUNIT_CASE(recovery_backoff_sequence),
	KUNIT_CASE(recovery_console_schedule),
	KUNIT_CASE(recovery_local_ni),
	KUNIT_CASE(recovery_link_down_waits),
	KUNIT_CASE(recovery_peer_rules),
	KUNIT_CASE(recovery_peer_ping),
	KUNIT_CASE(recovery_max_interval),
	{}
};

static struct kunit_suite lnet_recovery_suite = {
	.name = "lnet_recovery",
	.init = recovery_init,
	.exit = recovery_exit,
	.test_cases = lnet_recovery_cases,
};
kunit_test_suite(lnet_recovery_suite);
