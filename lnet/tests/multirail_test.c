// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of Multi-Rail (peer-node.c, select.c; spec:
 * routing-health-multirail.md 4) through a fake LND on two nets, with a
 * configured Multi-Rail peer that has one NID on each: peer add's rules
 * and errors, round robin over the rails, health steering the choice, a
 * resend going to the other rail, a PUT from the second NID matching an
 * ME that names the primary (and the event naming it too), a --non_mr
 * peer keeping one pair (and, on a net where we have two NIs, the NI its
 * first message chose), what goes confirmed, a REPLY lost with its
 * connection waited for again (and its copy resent while it was still
 * arriving taken too), a REPLY kept off a link that is down, a
 * discovered peer's NIDs merged from a ping info, and the NUMA distance
 * choosing between two NIs of one net. Behind routers (nets 2 and 3 are
 * remote): a Multi-Rail node's networks take turns, each through its own
 * route, and a routed PUT waits while discovery pings its node through
 * the gateway (the test plays the REPLY and the push's ACK). Discovery is
 * off (kunit.sh loads lnet so) but for that case: the other peers here
 * are configured, and the fake LND's peers answer no ping.
 */
#include "fake_lnd.h"
#include "wb_util.h"

#define PRIM		FAKE_PEER(0, 1)
#define SECOND		FAKE_PEER(1, 1)
#define OTHER		FAKE_PEER(0, 2)
#define PT		43
/* behind routers: nets 2 and 3, through GW0 on net 0 and GW1 on net 1 */
#define RPRIM		FAKE_PEER(2, 1)
#define RSECOND		FAKE_PEER(3, 1)
#define GW0		FAKE_PEER(0, 9)
#define GW1		FAKE_PEER(1, 9)

struct mr_env {
	struct lnet_handle_eq	eqh;
	u8			buf[64];
	/* restored by .exit */
	int			retry_count;
	int			sensitivity;
	int			discovery_disabled;
	int			numa_range;
	int			check_interval;
};

static struct mr_env *menv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int mr_init(struct kunit *test)
{
	struct mr_env *env;
	int rc;

	env = fake_suite_init(test, 2, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->retry_count = lnet_tunable(&lnet_retry_count);
	env->sensitivity = lnet_tunable(&lnet_health_sensitivity);
	env->discovery_disabled = lnet_tunable(&lnet_peer_discovery_disabled);
	env->numa_range = lnet_tunable(&lnet_numa_range);
	env->check_interval = lnet_alive_router_check_interval;
	/* no router checker: routes stay alive, and ping no gateway */
	WRITE_ONCE(lnet_alive_router_check_interval, 0);
	WRITE_ONCE(lnet_retry_count.value, 2);
	WRITE_ONCE(lnet_health_sensitivity.value, 100);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 1);
	env->eqh = wb_eq(test, 64, NULL);
	rc = lnet_node_configure(PRIM, LNET_NID_ANY, 0);
	if (!rc)
		rc = lnet_node_configure(PRIM, SECOND, 0);
	return rc;
}

static void mr_exit(struct kunit *test)
{
	struct mr_env *env;

	if (!test->priv)
		return;
	env = menv(test);
	if (env) {
		WRITE_ONCE(lnet_retry_count.value, env->retry_count);
		WRITE_ONCE(lnet_health_sensitivity.value, env->sensitivity);
		WRITE_ONCE(lnet_peer_discovery_disabled.value,
			   env->discovery_disabled);
		WRITE_ONCE(lnet_numa_range.value, env->numa_range);
		WRITE_ONCE(lnet_alive_router_check_interval,
			   env->check_interval);
	}
	fake.send_mode = FAKE_SEND_HOLD;
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

/* A PUT with no source NID to @dst; the LND holds it. */
static struct lnet_msg *mr_put(struct kunit *test, lnet_nid_t dst)
{
	struct mr_env *env = menv(test);

	return fake_put_held(test, env->eqh, env->buf, sizeof(env->buf), dst,
			     PT);
}

/* Which net @msg went out on; its destination is the peer's NID there. */
static int mr_net_of(struct kunit *test, struct lnet_msg *msg)
{
	int net = msg->ni == fake.ni[0] ? 0 : msg->ni == fake.ni[1] ? 1 : -1;

	KUNIT_EXPECT_GE(test, net, 0);
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, net ? SECOND : PRIM);
	KUNIT_EXPECT_EQ(test, msg->target.nid, msg->hdr.dest_nid);
	KUNIT_EXPECT_EQ(test, msg->hdr.src_nid, msg->ni->nid);
	return net;
}

static void mr_set_peer_health(lnet_nid_t nid, int health)
{
	struct lnet_peer *peer;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer)
		peer->healthv = health;
	spin_unlock_bh(&lnet_core.net_lock);
}

static void mr_configure_rules(struct kunit *test)
{
	lnet_nid_t nids[4];
	u32 flags = 0;

	KUNIT_EXPECT_EQ(test, lnet_peer_primary_nid(SECOND), PRIM);
	KUNIT_EXPECT_EQ(test, LNetPrimaryNID(PRIM), PRIM);
	KUNIT_EXPECT_EQ(test, lnet_node_nids(SECOND, nids, 4, &flags), 2);
	KUNIT_EXPECT_EQ(test, nids[0], PRIM);
	KUNIT_EXPECT_EQ(test, nids[1], SECOND);
	KUNIT_EXPECT_EQ(test, flags, LNET_IOCTL_PEER_MULTI_RAIL |
				     LNET_IOCTL_PEER_CONFIGURED);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(PRIM, LNET_NID_ANY, 0),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(PRIM, SECOND, 0), -EEXIST);
	/* a NID of ours, a peer nobody added, another peer's NID */
	KUNIT_EXPECT_EQ(test, lnet_node_configure(PRIM, fake.ni[1]->nid, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(OTHER, SECOND, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(SECOND, LNET_NID_ANY, 0),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, LNetIsPeerLocal(fake.ni[0]->nid));
	KUNIT_EXPECT_FALSE(test, LNetIsPeerLocal(PRIM));

	/* one NID leaves, and comes back */
	KUNIT_EXPECT_EQ(test, lnet_node_del(PRIM, SECOND, 0), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_primary_nid(SECOND), SECOND);
	KUNIT_EXPECT_EQ(test, lnet_node_del(PRIM, SECOND, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(PRIM, SECOND, 0), 0);

	/* a --non_mr peer takes no second NID; a locked primary needs force */
	KUNIT_EXPECT_EQ(test, lnet_node_configure(OTHER, LNET_NID_ANY,
						  LNET_IOCTL_PEER_CFG_NON_MR |
						  LNET_IOCTL_PEER_CFG_LOCK_PRIM),
			0);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(OTHER, FAKE_PEER(1, 2), 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY,
					    LNET_IOCTL_PEER_CFG_FORCE), 0);
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY, 0), -ENOENT);
}

/* Equal rails take turns. */
static void mr_round_robin(struct kunit *test)
{
	struct lnet_msg *msg;
	int i, n[2] = { 0, 0 }, net, last = -1;

	for (i = 0; i < 8; i++) {
		msg = mr_put(test, PRIM);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		net = mr_net_of(test, msg);
		if (net >= 0)
			n[net]++;
		KUNIT_EXPECT_NE(test, net, last);
		last = net;
		fake_done(msg, 0);
	}
	KUNIT_EXPECT_EQ(test, n[0], 4);
	KUNIT_EXPECT_EQ(test, n[1], 4);
}

/* A peer NID below full health is passed over while the other is whole. */
static void mr_health_steers(struct kunit *test)
{
	struct lnet_msg *msg;
	int i;

	for (i = 0; i < 2; i++)		/* both peer NIDs get their state */
		fake_done(mr_put(test, PRIM), 0);
	mr_set_peer_health(SECOND, LNET_MAX_HEALTH / 2);
	for (i = 0; i < 4; i++) {
		msg = mr_put(test, SECOND);	/* any NID of the peer */
		KUNIT_ASSERT_NOT_NULL(test, msg);
		KUNIT_EXPECT_EQ(test, mr_net_of(test, msg), 0);
		fake_done(msg, 0);
	}
	mr_set_peer_health(SECOND, LNET_MAX_HEALTH);
}

/* Which of @nis sent @msgs PUTs of @buf to @dst; each is then completed. */
static void mr_count_nis(struct kunit *test, void *buf, lnet_nid_t dst,
			 int msgs, struct lnet_ni *nis[2], int n[2])
{
	struct mr_env *env = menv(test);
	struct lnet_msg *msg;
	int i;

	n[0] = 0;
	n[1] = 0;
	for (i = 0; i < msgs; i++) {
		msg = fake_put_held(test, env->eqh, buf, 64, dst, PT);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		if (msg->ni == nis[0])
			n[0]++;
		else if (msg->ni == nis[1])
			n[1]++;
		fake_done(msg, 0);
	}
}

/*
 * Two NIs on net 0 whose devices sit on NUMA nodes 0 and 1 (kunit.sh
 * boots two fake nodes 20 apart): a PUT goes from the NI near its
 * memory; with numa_range covering the distance they take turns; a
 * device of unknown node counts as near.
 */
static void mr_numa_distance(struct kunit *test)
{
	struct lnet_net_config cfg = { .net_id = FAKE_NET(0), .n_ifaces = 1 };
	int i, n[2];
	struct page *page[2] = { NULL, NULL };
	struct lnet_ni *nis[2];
	void *buf[2];
	lnet_nid_t nid;

	if (num_online_nodes() < 2 || !node_state(1, N_MEMORY) ||
	    node_distance(0, 1) <= LOCAL_DISTANCE) {
		KUNIT_FAIL(test, "needs NUMA nodes 0 and 1 apart, with memory (numa=fake=2:10,20,20,10)");
		return;
	}
	strscpy(cfg.ifaces[0], FAKE_SECOND_IFACE, IFNAMSIZ);
	KUNIT_ASSERT_EQ(test, lnet_ni_add(&cfg, NULL, &nid), 0);
	KUNIT_ASSERT_NOT_NULL(test, fake.ni2[0]);
	nis[0] = fake.ni[0];
	nis[1] = fake.ni2[0];
	nis[0]->dev_node = 0;
	nis[1]->dev_node = 1;
	/* net 0 it is: the peer's NID on net 1 is unwell */
	for (i = 0; i < 3; i++)
		fake_done(mr_put(test, PRIM), 0);
	mr_set_peer_health(SECOND, LNET_MAX_HEALTH / 2);

	for (i = 0; i < 2; i++) {
		page[i] = alloc_pages_node(i, GFP_KERNEL | __GFP_THISNODE, 0);
		if (!page[i])
			goto out;
		buf[i] = page_address(page[i]);
	}
	mr_count_nis(test, buf[0], PRIM, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[0], 4);
	mr_count_nis(test, buf[1], PRIM, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[1], 4);

	WRITE_ONCE(lnet_numa_range.value, node_distance(0, 1));
	mr_count_nis(test, buf[1], PRIM, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[0], 2);
	KUNIT_EXPECT_EQ(test, n[1], 2);
	WRITE_ONCE(lnet_numa_range.value, 0);

	nis[1]->dev_node = NUMA_NO_NODE;
	mr_count_nis(test, buf[0], PRIM, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[0], 2);
	KUNIT_EXPECT_EQ(test, n[1], 2);
	mr_count_nis(test, buf[1], PRIM, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[1], 4);
out:
	KUNIT_EXPECT_NOT_NULL(test, page[0]);
	KUNIT_EXPECT_NOT_NULL(test, page[1]);
	for (i = 0; i < 2; i++)
		if (page[i])
			__free_page(page[i]);
}

/* A send failed on one rail goes again on the other; one event, OK. */
static void mr_resend_other_rail(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_msg *msg, *again;
	struct lnet_event ev;
	int net, which;

	msg = mr_put(test, PRIM);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	net = mr_net_of(test, msg);
	lnet_msg_set_health(msg, LNET_MSG_STATUS_LOCAL_TIMEOUT);
	fake_done(msg, -ETIMEDOUT);
	again = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_PTR_EQ(test, again, msg);
	KUNIT_EXPECT_EQ(test, msg->retries, 1);
	KUNIT_EXPECT_EQ(test, mr_net_of(test, msg), !net);
	fake_done(msg, 0);
	KUNIT_ASSERT_EQ(test, LNetEQPoll(&env->eqh, 1, WB_WAIT_MS, &ev,
					 &which), 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_SEND);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
}

/*
 * A PUT that comes from the peer's second NID matches an ME that names
 * its primary, and its event names the primary as initiator.
 */
static void mr_rx_initiator_is_primary(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_process_id prim = { .nid = PRIM, .pid = LNET_PID_LUSTRE };
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_me meh;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	meh = wb_me(test, PT, prim, 7, 0);
	wb_attach(test, meh, wb_md(buf, 64, LNET_MD_THRESH_INF,
				   LNET_MD_OP_PUT, buf, env->eqh));
	fake_hdr(&hdr, LNET_MSG_PUT, 1, SECOND, 16);
	hdr.src_pid = LNET_PID_LUSTRE;
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 7;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[1], &hdr, SECOND, NULL,
					 false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, PRIM);
	KUNIT_EXPECT_EQ(test, ev.sender, SECOND);
}

/*
 * What LNet could resend on another rail goes confirmed (lnd.h, @send):
 * a send to a Multi-Rail peer with two NIDs, not one to a --non_mr peer
 * or one with no retries allowed.
 */
static void mr_confirm_when_resendable(struct kunit *test)
{
	struct lnet_msg *msg;

	msg = mr_put(test, PRIM);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_TRUE(test, msg->confirm);
	fake_done(msg, 0);

	KUNIT_ASSERT_EQ(test, lnet_node_configure(OTHER, LNET_NID_ANY,
						  LNET_IOCTL_PEER_CFG_NON_MR),
			0);
	msg = mr_put(test, OTHER);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_FALSE(test, msg->confirm);
	fake_done(msg, 0);
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY, 0), 0);

	WRITE_ONCE(lnet_retry_count.value, 0);
	msg = mr_put(test, PRIM);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_FALSE(test, msg->confirm);
	fake_done(msg, 0);
}

/* A GET to @dst into a new bound MD, sent; its SEND event taken. */
static struct lnet_handle_md mr_get_sent(struct kunit *test, lnet_nid_t dst)
{
	struct mr_env *env = menv(test);
	struct lnet_handle_md mdh;
	struct lnet_msg *get;
	struct lnet_event ev;

	mdh = wb_bind(test, wb_md(env->buf, sizeof(env->buf), 2, 0, NULL,
				  env->eqh));
	KUNIT_EXPECT_EQ(test, LNetGet(LNET_NID_ANY, mdh,
				      wb_id(dst, LNET_PID_LUSTRE), PT, 7, 0),
			0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_EXPECT_NOT_NULL(test, get);
	if (get)
		fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	return mdh;
}

/* The peer answers the GET whose sink is @mdh, from @src, on net @net. */
static int mr_reply(struct lnet_handle_md mdh, lnet_nid_t src, int net,
		    unsigned int len)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_REPLY, net, src, len);
	hdr.msg.reply.dst_wmd.wh_interface_cookie = lnet_core.interface_cookie;
	hdr.msg.reply.dst_wmd.wh_object_cookie = mdh.cookie;
	return lnet_parse(fake.ni[net], &hdr, src, NULL, false);
}

/*
 * A REPLY from a Multi-Rail peer lost with its connection (recv() fails
 * with -ECONNABORTED) ends nothing: the GET's MD waits again, and the
 * REPLY the peer resends from its other NID completes it with one event.
 * The same loss from a peer with one NID fails the GET at once.
 */
static void mr_reply_lost_waits_again(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	int which;

	mdh = mr_get_sent(test, PRIM);
	fake.recv_rc = -ECONNABORTED;
	KUNIT_EXPECT_EQ(test, mr_reply(mdh, PRIM, 0, 16), 0);
	fake.recv_rc = 0;
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&env->eqh, 1, 100, &ev, &which), 0);

	KUNIT_EXPECT_EQ(test, mr_reply(mdh, SECOND, 1, 16), 0);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.mlength, 16U);
	KUNIT_EXPECT_TRUE(test, ev.unlinked);

	/* one NID: nobody resends it, the GET fails now */
	KUNIT_ASSERT_EQ(test, lnet_node_configure(OTHER, LNET_NID_ANY,
						  LNET_IOCTL_PEER_CFG_NON_MR),
			0);
	mdh = mr_get_sent(test, OTHER);
	fake.recv_rc = -ECONNABORTED;
	KUNIT_EXPECT_EQ(test, mr_reply(mdh, OTHER, 0, 16), 0);
	fake.recv_rc = 0;
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -ECONNABORTED);
	KUNIT_EXPECT_TRUE(test, ev.unlinked);
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY, 0), 0);
}

/*
 * The peer resent the REPLY from its other NID while the first was still
 * arriving here (it saw that rail die first): the copy is taken too, and
 * the GET ends with one event, status 0, whichever of the two ends first
 * and however the other ends.
 */
static void mr_reply_resent_while_arriving(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_handle_md mdh;
	struct lnet_msg *first;
	struct lnet_event ev;
	int which, round;

	for (round = 0; round < 2; round++) {
		mdh = mr_get_sent(test, PRIM);
		fake.recv_hold = true;
		KUNIT_EXPECT_EQ(test, mr_reply(mdh, PRIM, 0, 16), 0);
		first = fake.last_recv.msg;
		KUNIT_ASSERT_NOT_NULL(test, first);
		if (round) {
			/* the first is lost before the copy ends */
			KUNIT_EXPECT_EQ(test, mr_reply(mdh, SECOND, 1, 16), 0);
			fake.recv_hold = false;
			lnet_finalize(first, -ECONNABORTED);
			KUNIT_EXPECT_EQ(test, LNetEQPoll(&env->eqh, 1, 100, &ev,
							 &which), 0);
			first = fake.last_recv.msg;
			lnet_finalize(first, 0);
		} else {
			/* the copy ends well first; then the first is lost */
			fake.recv_hold = false;
			KUNIT_EXPECT_EQ(test, mr_reply(mdh, SECOND, 1, 16), 0);
			KUNIT_EXPECT_EQ(test, LNetEQPoll(&env->eqh, 1, 100, &ev,
							 &which), 0);
			lnet_finalize(first, -ECONNABORTED);
		}
		wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
		KUNIT_EXPECT_EQ(test, ev.status, 0);
		KUNIT_EXPECT_EQ(test, ev.mlength, 16U);
		KUNIT_EXPECT_TRUE(test, ev.unlinked);
		KUNIT_EXPECT_EQ(test, LNetEQPoll(&env->eqh, 1, 100, &ev,
						 &which), 0);
	}
}

/*
 * A GET from the peer's second NID came to our NI on net 1 just as its
 * link went down: the REPLY does not wait on that link, it goes from net
 * 0 to the peer's primary NID (and the peer accepts it from there).
 * With both links down it waits on its own.
 */
static void mr_answer_leaves_link_down(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_process_id any = { .nid = LNET_NID_ANY,
				       .pid = LNET_PID_ANY };
	u8 *src = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_msg *reply;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, src);
	/* room for two GETs of 32 bytes (the MD's offset is its own) */
	wb_attach(test, wb_me(test, PT, any, 9, 0),
		  wb_md(src, 64, LNET_MD_THRESH_INF, LNET_MD_OP_GET, NULL,
			env->eqh));
	set_bit(LNET_NI_LINK_DOWN, &fake.ni[1]->health_flags);
	fake_hdr(&hdr, LNET_MSG_GET, 1, SECOND, 0);
	hdr.src_pid = LNET_PID_LUSTRE;
	hdr.msg.get.ptl_index = PT;
	hdr.msg.get.match_bits = 9;
	hdr.msg.get.sink_length = 32;
	hdr.msg.get.return_wmd.wh_interface_cookie = 0xaa;
	hdr.msg.get.return_wmd.wh_object_cookie = 0xbb;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, SECOND, NULL,
					 false), 0);
	reply = fake_take_send(WB_WAIT_MS);
	clear_bit(LNET_NI_LINK_DOWN, &fake.ni[1]->health_flags);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->hdr.type, (u32)LNET_MSG_REPLY);
	KUNIT_EXPECT_PTR_EQ(test, reply->ni, fake.ni[0]);
	KUNIT_EXPECT_EQ(test, reply->hdr.dest_nid, PRIM);
	KUNIT_EXPECT_EQ(test, reply->retries, 1);
	fake_done(reply, 0);

	/* with every link down it waits for its own (the LND holds it) */
	set_bit(LNET_NI_LINK_DOWN, &fake.ni[0]->health_flags);
	set_bit(LNET_NI_LINK_DOWN, &fake.ni[1]->health_flags);
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, SECOND, NULL,
					 false), 0);
	reply = fake_take_send(WB_WAIT_MS);
	clear_bit(LNET_NI_LINK_DOWN, &fake.ni[0]->health_flags);
	clear_bit(LNET_NI_LINK_DOWN, &fake.ni[1]->health_flags);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_PTR_EQ(test, reply->ni, fake.ni[1]);
	KUNIT_EXPECT_EQ(test, reply->hdr.dest_nid, SECOND);
	KUNIT_EXPECT_EQ(test, reply->retries, 0);
	fake_done(reply, 0);
}

/* A --non_mr peer: always the NID asked for, from its net's NI. */
static void mr_non_mr_one_pair(struct kunit *test)
{
	struct lnet_msg *msg;
	int i;

	KUNIT_ASSERT_EQ(test, lnet_node_configure(OTHER, LNET_NID_ANY,
						  LNET_IOCTL_PEER_CFG_NON_MR),
			0);
	for (i = 0; i < 4; i++) {
		msg = mr_put(test, OTHER);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		KUNIT_EXPECT_PTR_EQ(test, msg->ni, fake.ni[0]);
		KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, OTHER);
		fake_done(msg, 0);
	}
	KUNIT_EXPECT_EQ(test, lnet_node_del(OTHER, LNET_NID_ANY, 0), 0);
}

/* The NI the peer @nid keeps, or NULL. */
static struct lnet_ni *mr_peer_ni(lnet_nid_t nid)
{
	struct lnet_peer *peer;
	struct lnet_ni *ni;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	ni = peer ? peer->ni : NULL;
	spin_unlock_bh(&lnet_core.net_lock);
	return ni;
}

/*
 * Two NIs on net 0 and peers that are not Multi-Rail (spec 4.4): each
 * keeps the NI its first message chose, and new peers go to the NI least
 * recently chosen, so they spread; a peer first heard from on one NI
 * keeps the NI its answer left from; a kept NI whose link is down is
 * passed over. A Multi-Rail peer with one NID has our best NI for each
 * message: they take turns.
 */
static void mr_non_mr_keeps_ni(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_net_config cfg = { .net_id = FAKE_NET(0), .n_ifaces = 1 };
	struct lnet_process_id any = { .nid = LNET_NID_ANY,
				       .pid = LNET_PID_ANY };
	lnet_nid_t x = FAKE_PEER(0, 3), y = FAKE_PEER(0, 4);
	lnet_nid_t z = FAKE_PEER(0, 5), m = FAKE_PEER(0, 6);
	u8 *src = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_msg *reply;
	struct lnet_ni *nis[2];
	struct lnet_hdr hdr;
	lnet_nid_t nid;
	int n[2];

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(lnet_core.nets_shared));
	strscpy(cfg.ifaces[0], FAKE_SECOND_IFACE, IFNAMSIZ);
	KUNIT_ASSERT_EQ(test, lnet_ni_add(&cfg, NULL, &nid), 0);
	KUNIT_ASSERT_NOT_NULL(test, fake.ni2[0]);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(lnet_core.nets_shared));
	nis[0] = fake.ni[0];
	nis[1] = fake.ni2[0];

	mr_count_nis(test, env->buf, x, 4, nis, n);
	KUNIT_EXPECT_TRUE(test, n[0] == 4 || n[1] == 4);
	mr_count_nis(test, env->buf, y, 4, nis, n);
	KUNIT_EXPECT_TRUE(test, n[0] == 4 || n[1] == 4);
	KUNIT_EXPECT_PTR_NE(test, mr_peer_ni(x), mr_peer_ni(y));

	/* z's GET comes to the second NI: its REPLY, then our PUTs, leave there */
	wb_attach(test, wb_me(test, PT, any, 9, 0),
		  wb_md(src, 64, LNET_MD_THRESH_INF, LNET_MD_OP_GET, NULL,
			env->eqh));
	fake_hdr(&hdr, LNET_MSG_GET, 0, z, 0);
	hdr.dest_nid = nis[1]->nid;
	hdr.src_pid = LNET_PID_LUSTRE;
	hdr.msg.get.ptl_index = PT;
	hdr.msg.get.match_bits = 9;
	hdr.msg.get.sink_length = 32;
	hdr.msg.get.return_wmd.wh_interface_cookie = 0xaa;
	hdr.msg.get.return_wmd.wh_object_cookie = 0xbb;
	KUNIT_EXPECT_EQ(test, lnet_parse(nis[1], &hdr, z, NULL, false), 0);
	reply = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_PTR_EQ(test, reply->ni, nis[1]);
	fake_done(reply, 0);
	mr_count_nis(test, env->buf, z, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[1], 4);

	/* its kept NI's link goes down: the other NI carries it meanwhile */
	set_bit(LNET_NI_LINK_DOWN, &nis[1]->health_flags);
	mr_count_nis(test, env->buf, z, 2, nis, n);
	clear_bit(LNET_NI_LINK_DOWN, &nis[1]->health_flags);
	KUNIT_EXPECT_EQ(test, n[0], 2);
	mr_count_nis(test, env->buf, z, 2, nis, n);
	KUNIT_EXPECT_EQ(test, n[1], 2);

	/* a Multi-Rail peer with one NID: no NI kept */
	KUNIT_ASSERT_EQ(test, lnet_node_configure(m, LNET_NID_ANY, 0), 0);
	mr_count_nis(test, env->buf, m, 4, nis, n);
	KUNIT_EXPECT_EQ(test, n[0], 2);
	KUNIT_EXPECT_EQ(test, n[1], 2);
	KUNIT_EXPECT_EQ(test, lnet_node_del(m, LNET_NID_ANY, 0), 0);
}

/*
 * What a ping info says: NIDs another (unconfigured) node had come over,
 * and the emptied node is merged; the primary follows the info's first
 * NID unless locked.
 */
static void mr_merge_nids(struct kunit *test)
{
	lnet_nid_t a = FAKE_PEER(0, 5), b = FAKE_PEER(1, 5);
	lnet_nid_t info[2] = { b, a }, nids[4];
	struct lnet_peer_node *na, *nb;
	u32 flags;

	na = lnet_node_get_or_new(a);
	nb = lnet_node_get_or_new(b);
	KUNIT_ASSERT_NOT_NULL(test, na);
	KUNIT_ASSERT_NOT_NULL(test, nb);
	KUNIT_EXPECT_PTR_NE(test, na, nb);
	spin_lock_bh(&lnet_core.net_lock);
	lnet_node_merge_nids_locked(na, info, 2, true);
	spin_unlock_bh(&lnet_core.net_lock);
	KUNIT_EXPECT_TRUE(test, test_bit(LNET_NODE_UNHASHED, &nb->flags));
	KUNIT_EXPECT_EQ(test, lnet_node_nids(a, nids, 4, &flags), 2);
	KUNIT_EXPECT_EQ(test, nids[0], b);	/* the info's primary */
	KUNIT_EXPECT_EQ(test, lnet_peer_primary_nid(a), b);
	lnet_node_put(nb);
	lnet_node_put(na);
	KUNIT_EXPECT_EQ(test, lnet_node_del(b, LNET_NID_ANY, 0), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_primary_nid(a), a);
}

static int mr_route(u32 net, lnet_nid_t gw, bool add)
{
	struct lnet_route_info r = { .net = net, .gateway = gw, .hops = -1 };
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = add ? lnet_route_add(&r) : lnet_route_del(net, gw);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/* @msg went to the gateway of its destination's network: which network. */
static int mr_routed_net_of(struct kunit *test, struct lnet_msg *msg)
{
	bool two = LNET_NIDNET(msg->hdr.dest_nid) == FAKE_NET(2);

	KUNIT_EXPECT_TRUE(test, two || LNET_NIDNET(msg->hdr.dest_nid) ==
					      FAKE_NET(3));
	KUNIT_EXPECT_EQ(test, msg->target.nid, two ? GW0 : GW1);
	KUNIT_EXPECT_PTR_EQ(test, msg->ni, fake.ni[two ? 0 : 1]);
	KUNIT_EXPECT_EQ(test, msg->hdr.src_nid, msg->ni->nid);
	return two ? 2 : 3;
}

/* A discovered Multi-Rail node of @n NIDs, @nids[0] its primary. */
static void mr_routed_node(struct kunit *test, const lnet_nid_t *nids,
			   unsigned int n)
{
	struct lnet_peer_node *node = lnet_node_get_or_new(nids[0]);

	KUNIT_ASSERT_NOT_NULL(test, node);
	spin_lock_bh(&lnet_core.net_lock);
	lnet_node_merge_nids_locked(node, nids, n, true);
	set_bit(LNET_NODE_MULTI_RAIL, &node->flags);
	set_bit(LNET_NODE_DISCOVERED, &node->flags);
	spin_unlock_bh(&lnet_core.net_lock);
	lnet_node_put(node);
}

/*
 * A Multi-Rail node none of whose networks is ours (spec 1.2, "MR
 * destination with no NI on a local net"): its networks take turns, each
 * through the gateway of its route, and its NIDs on one network take
 * turns too; a network whose route is gone is passed over; with no route
 * to any, nothing goes. Such a node can be configured (peer add) while a
 * route leads to its network.
 */
static void mr_routed_spread(struct kunit *test)
{
	lnet_nid_t third = FAKE_PEER(3, 2);
	lnet_nid_t nids[3] = { RPRIM, RSECOND, third };
	struct lnet_msg *msg;
	int i, n[4] = {}, net, last = 0, r3 = 0;

	/* peer add behind routers: refused only with no route to its net */
	KUNIT_EXPECT_EQ(test, lnet_node_configure(FAKE_PEER(2, 5),
						  LNET_NID_ANY, 0),
			-EHOSTUNREACH);
	KUNIT_ASSERT_EQ(test, mr_route(FAKE_NET(2), GW0, true), 0);
	KUNIT_ASSERT_EQ(test, mr_route(FAKE_NET(3), GW1, true), 0);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(FAKE_PEER(2, 5),
						  LNET_NID_ANY, 0), 0);
	KUNIT_EXPECT_EQ(test, lnet_node_configure(FAKE_PEER(2, 5),
						  FAKE_PEER(3, 5), 0), 0);
	KUNIT_EXPECT_EQ(test, lnet_node_del(FAKE_PEER(2, 5), LNET_NID_ANY, 0),
			0);
	mr_routed_node(test, nids, 3);
	for (i = 0; i < 8; i++) {
		msg = mr_put(test, RSECOND);	/* any NID of the node */
		KUNIT_ASSERT_NOT_NULL(test, msg);
		net = mr_routed_net_of(test, msg);
		n[net]++;
		KUNIT_EXPECT_NE(test, net, last);
		last = net;
		if (net == 3)
			r3 += msg->hdr.dest_nid == RSECOND ? 1 : 0;
		fake_done(msg, 0);
	}
	KUNIT_EXPECT_EQ(test, n[2], 4);
	KUNIT_EXPECT_EQ(test, n[3], 4);
	KUNIT_EXPECT_EQ(test, r3, 2);		/* RSECOND and third */

	KUNIT_EXPECT_EQ(test, mr_route(FAKE_NET(3), GW1, false), 0);
	for (i = 0; i < 3; i++) {
		msg = mr_put(test, RSECOND);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		KUNIT_EXPECT_EQ(test, mr_routed_net_of(test, msg), 2);
		KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, RPRIM);
		fake_done(msg, 0);
	}
	KUNIT_EXPECT_EQ(test, mr_route(FAKE_NET(2), GW0, false), 0);
	KUNIT_EXPECT_EQ(test,
			LNetPut(LNET_NID_ANY,
				wb_bind(test, wb_md(menv(test)->buf, 8, 1, 0,
						    NULL, menv(test)->eqh)),
				LNET_NOACK_REQ, wb_id(RPRIM, LNET_PID_LUSTRE),
				PT, 1, 0, 0),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, lnet_node_del(RPRIM, LNET_NID_ANY, 0), 0);
}

/* @msg is discovery's ping (GET) or push (PUT) to RPRIM, through GW0. */
static void mr_expect_via_gw0(struct kunit *test, struct lnet_msg *msg,
			      u32 type)
{
	KUNIT_EXPECT_EQ(test, msg->hdr.type, type);
	KUNIT_EXPECT_EQ(test, type == LNET_MSG_GET ?
				      msg->hdr.msg.get.ptl_index :
				      msg->hdr.msg.put.ptl_index,
			(u32)LNET_RESERVED_PORTAL);
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, RPRIM);
	KUNIT_EXPECT_EQ(test, msg->target.nid, GW0);
}

/*
 * Discovery through a router (spec 4.6: on every send): the first PUT to
 * a node behind GW0 waits while the node's primary is pinged through
 * GW0; its ping info says Multi-Rail with a NID behind GW1 too; we push
 * through GW0, and once that is ACKed the PUT goes, to either network.
 */
static void mr_routed_discovery(struct kunit *test)
{
	struct mr_env *env = menv(test);
	struct lnet_ping_info *info;
	size_t info_len = lnet_ping_info_size(3);
	struct lnet_msg *ping, *push, *put;
	struct lnet_handle_wire wmd;
	struct lnet_handle_md mdh;
	struct lnet_hdr hdr;
	lnet_nid_t nids[4];
	u32 flags = 0;

	info = kunit_kzalloc(test, info_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	info->magic = LNET_PROTO_PING_MAGIC;
	info->features = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL |
			 LNET_PING_FEAT_DISCOVERY;
	info->pid = LNET_PID_LUSTRE;
	info->nnis = 3;
	info->ni[0].nid = LNET_NID_LO_0;
	info->ni[1].nid = RPRIM;
	info->ni[2].nid = RSECOND;
	KUNIT_ASSERT_EQ(test, mr_route(FAKE_NET(2), GW0, true), 0);
	KUNIT_ASSERT_EQ(test, mr_route(FAKE_NET(3), GW1, true), 0);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 0);

	mdh = wb_bind(test, wb_md(env->buf, 8, 1, 0, NULL, env->eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(RPRIM, LNET_PID_LUSTRE), PT, 1, 0,
				      0), 0);
	ping = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, ping);
	mr_expect_via_gw0(test, ping, LNET_MSG_GET);
	wmd = ping->hdr.msg.get.return_wmd;
	fake_done(ping, 0);
	KUNIT_EXPECT_PTR_EQ(test, fake_take_send(100), NULL); /* PUT waits */

	/* the REPLY, from the node through GW0 */
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, RPRIM, info_len);
	hdr.msg.reply.dst_wmd = wmd;
	fake.rx_data = info;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[0], &hdr, GW0, NULL, false), 0);
	push = fake_take_send(WB_WAIT_MS);
	fake.rx_data = NULL;
	KUNIT_ASSERT_NOT_NULL(test, push);
	mr_expect_via_gw0(test, push, LNET_MSG_PUT);
	wmd = push->hdr.msg.put.ack_wmd;
	fake_done(push, 0);
	KUNIT_EXPECT_PTR_EQ(test, fake_take_send(100), NULL);

	/* its ACK: discovery is over, the PUT goes */
	fake_hdr(&hdr, LNET_MSG_ACK, 0, RPRIM, 0);
	hdr.msg.ack.dst_wmd = wmd;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[0], &hdr, GW0, NULL, false), 0);
	put = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, put);
	KUNIT_EXPECT_EQ(test, put->hdr.msg.put.ptl_index, (u32)PT);
	mr_routed_net_of(test, put);
	fake_done(put, 0);

	KUNIT_EXPECT_EQ(test, lnet_node_nids(RSECOND, nids, 4, &flags), 2);
	KUNIT_EXPECT_EQ(test, nids[0], RPRIM);
	KUNIT_EXPECT_TRUE(test, flags & LNET_IOCTL_PEER_MULTI_RAIL);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 1);
	KUNIT_EXPECT_EQ(test, mr_route(FAKE_NET(3), GW1, false), 0);
	KUNIT_EXPECT_EQ(test, mr_route(FAKE_NET(2), GW0, false), 0);
}

static struct kunit_case lnet_multirail_cases[] = {
	KUNIT_CASE(mr_configure_rules),
	KUNIT_CASE(mr_round_robin),
	KUNIT_CASE(mr_health_steers),
	KUNIT_CASE(mr_numa_distance),
	KUNIT_CASE(mr_resend_other_rail),
	KUNIT_CASE(mr_rx_initiator_is_primary),
	KUNIT_CASE(mr_non_mr_one_pair),
	KUNIT_CASE(mr_non_mr_keeps_ni),
	KUNIT_CASE(mr_confirm_when_resendable),
	KUNIT_CASE(mr_reply_lost_waits_again),
	KUNIT_CASE(mr_reply_resent_while_arriving),
	KUNIT_CASE(mr_answer_leaves_link_down),
	KUNIT_CASE(mr_merge_nids),
	KUNIT_CASE(mr_routed_spread),
	KUNIT_CASE(mr_routed_discovery),
	{}
};

static struct kunit_suite lnet_multirail_suite = {
	.name		= "lnet_multirail",
	.init		= mr_init,
	.exit		= mr_exit,
	.test_cases	= lnet_multirail_cases,
};
kunit_test_suite(lnet_multirail_suite);
