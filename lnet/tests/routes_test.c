// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of routing (Documentation/routing.md) with the fake LND
 * on nets 0 and 1; net 3 is remote. The route table: what is refused,
 * gateway choice (priority, hops, the gateway's health and queue, round
 * robin, source net), LNetDist().
 * An end node's send through a gateway; drop_asym_route. Forwarding: a
 * message for another node is received into a router buffer and sent on
 * unchanged; short of a buffer or of the sending peer's router credit it
 * waits, its LND not asked to receive, until one comes back; no route:
 * dropped, buffer back; a message for a node not yet discovered waits for
 * the router's ping of it; the final hop to a Multi-Rail node whose
 * addressed NI is DOWN goes to another of its NIDs; a router pushes when
 * one of its NIs goes down or up, and a gateway's push judges its routes;
 * a node that does not forward drops it; pools resized at run time; a
 * network nobody pings said DOWN by a router.
 *
 * The checker is off (alive_router_check_interval 0): routes stay alive,
 * or dead from the start with check_routers_before_use, until a message
 * from the gateway's far side shows it forwards.
 */
#include <linux/delay.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/lnet/lnd.h>
#include <linux/lnet/cpt.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define REMOTE		FAKE_NET(3)
#define GW1		FAKE_PEER(0, 1)
#define GW2		FAKE_PEER(0, 2)
#define GW3		FAKE_PEER(1, 3)
#define PAYLOAD		100

struct routes_env {
	int	interval;
	int	drop_asym;
	int	discovery_disabled;
	int	buffers[LNET_NRTRPOOLS];
	u8	data[PAYLOAD];
	u8	out[PAYLOAD];
};

static struct routes_env *renv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int routes_init(struct kunit *test)
{
	struct routes_env *env;
	int i;

	/* one router credit per peer (peer_credits 1), no NI credit limit */
	env = fake_suite_init(test, 2, 0, 1, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	env->interval = lnet_alive_router_check_interval;
	WRITE_ONCE(lnet_alive_router_check_interval, 0);
	env->drop_asym = lnet_tunable(&lnet_drop_asym_route);
	env->discovery_disabled = lnet_tunable(&lnet_peer_discovery_disabled);
	memcpy(env->buffers, lnet_router_buffers, sizeof(env->buffers));
	for (i = 0; i < PAYLOAD; i++)
		env->data[i] = i * 7 + 3;
	return 0;
}

static void routes_exit(struct kunit *test)
{
	struct routes_env *env;

	if (!test->priv)
		return;
	env = renv(test);
	if (env) {
		WRITE_ONCE(lnet_alive_router_check_interval, env->interval);
		WRITE_ONCE(lnet_check_routers_before_use, 0);
		WRITE_ONCE(lnet_drop_asym_route.value, env->drop_asym);
		WRITE_ONCE(lnet_peer_discovery_disabled.value,
			   env->discovery_disabled);
		memcpy(lnet_router_buffers, env->buffers, sizeof(env->buffers));
	}
	fake.rx_data = NULL;
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static int rt_add(u32 net, lnet_nid_t gw, s32 hops, u32 priority)
{
	struct lnet_route_info r = {
		.net = net, .gateway = gw, .hops = hops, .priority = priority,
	};
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_route_add(&r);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static int rt_del(u32 net, lnet_nid_t gw)
{
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_route_del(net, gw);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static lnet_nid_t rt_pick(u32 net, u32 src_net)
{
	lnet_nid_t gw;

	rcu_read_lock();
	gw = lnet_route_select_rcu(net, src_net);
	rcu_read_unlock();
	return gw;
}

static void routes_add_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rt_add(FAKE_NET(1), GW1, -1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, FAKE_NID(0, FAKE_MY_ADDR), -1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, FAKE_PEER(2, 1), -1, 0),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, GW1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, GW1, 256, 0), -EINVAL);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, -1, 0), 0);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, GW1, 2, 5), -EEXIST);
	KUNIT_EXPECT_EQ(test, rt_del(REMOTE, GW2), -ENOENT);
	KUNIT_EXPECT_EQ(test, rt_del(REMOTE, GW1), 0);
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), LNET_NID_ANY);
}

static void routes_choice(struct kunit *test)
{
	int n1 = 0, n2 = 0, i;
	lnet_nid_t gw, prev = LNET_NID_ANY;

	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, -1, 0), 0);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW2, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW3, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, FAKE_PEER(1, 4), 3, 1), 0);

	/* priority 0 twice, same hops: turn about, never priority 1 */
	for (i = 0; i < 10; i++) {
		gw = rt_pick(REMOTE, LNET_NET_ANY);
		KUNIT_EXPECT_NE(test, gw, prev);
		n1 += gw == GW1;
		n2 += gw == GW2;
		prev = gw;
	}
	KUNIT_EXPECT_EQ(test, n1, 5);
	KUNIT_EXPECT_EQ(test, n2, 5);
	/* from net 1: its gateways only, the one with fewer hops */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, FAKE_NET(1)), GW3);
	KUNIT_EXPECT_EQ(test, rt_del(REMOTE, GW1), 0);
	KUNIT_EXPECT_EQ(test, rt_del(REMOTE, GW2), 0);
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), GW3);
	KUNIT_EXPECT_EQ(test, rt_pick(FAKE_NET(2), LNET_NET_ANY), LNET_NID_ANY);
}

/* rt_put: a PUT of @len bytes to a node on REMOTE, held by the fake LND */
static void rt_put(struct kunit *test, struct lnet_handle_eq eqh,
		   unsigned int len)
{
	struct lnet_process_id far = wb_id(FAKE_NID(3, 9), LNET_PID_LUSTRE + 1);
	struct lnet_handle_md mdh;

	mdh = wb_bind(test, wb_md(renv(test)->data, len, 1, 0, NULL, eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ, far,
				      40, 0, 0, 0), 0);
}

/*
 * Equal priority and hops: the gateway with fewer bytes queued to it wins
 * over round robin, and a healthier one over a less loaded one.
 */
static void routes_choice_by_load(struct kunit *test)
{
	struct lnet_handle_eq eqh = wb_eq(test, 16, NULL);
	struct lnet_msg *first, *second, *third;
	struct lnet_event ev;
	lnet_nid_t busy, idle;
	int i;

	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, -1, 0), 0);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW2, -1, 0), 0);
	fake.send_mode = FAKE_SEND_HOLD;
	rt_put(test, eqh, PAYLOAD);
	first = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, first);
	busy = first->target.nid;
	idle = busy == GW1 ? GW2 : GW1;
	rt_put(test, eqh, PAYLOAD / 10);
	second = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, second);
	KUNIT_EXPECT_EQ(test, second->target.nid, idle);
	/* round robin would say @busy; @idle still has fewer bytes queued */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), idle);
	rt_put(test, eqh, PAYLOAD / 10);	/* waits for @idle's one credit */
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	/* a less healthy gateway loses to a busier one */
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(idle, false, 500), 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), busy);
	KUNIT_ASSERT_EQ(test, lnet_peer_set_health(idle, false, LNET_MAX_HEALTH), 0);

	fake_done(second, 0);
	third = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, third);
	KUNIT_EXPECT_EQ(test, third->target.nid, idle);
	fake_done(third, 0);
	fake_done(first, 0);
	for (i = 0; i < 3; i++) {
		wb_wait(test, eqh, LNET_EVENT_SEND, &ev);
		KUNIT_EXPECT_EQ(test, ev.status, 0);
	}
	/* nothing queued any more: round robin again */
	KUNIT_EXPECT_NE(test, rt_pick(REMOTE, LNET_NET_ANY),
			rt_pick(REMOTE, LNET_NET_ANY));
}

static void routes_dist(struct kunit *test)
{
	lnet_nid_t src;
	u32 order;

	KUNIT_EXPECT_EQ(test, LNetDist(FAKE_NID(3, 9), &src, &order),
			-EHOSTUNREACH);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW3, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, LNetDist(FAKE_NID(3, 9), &src, &order), 4);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, -1, 1), 0);
	/* the fewest hops, an unspecified count being 1 */
	KUNIT_EXPECT_EQ(test, LNetDist(FAKE_NID(3, 9), NULL, NULL), 2);
	KUNIT_EXPECT_EQ(test, LNetDist(FAKE_PEER(1, 5), NULL, NULL), 1);
}

/* A gateway held dead comes back when it forwards a message to us. */
static void routes_dead_gateway_forwards(struct kunit *test)
{
	struct lnet_route_info info;
	struct lnet_hdr hdr;

	WRITE_ONCE(lnet_check_routers_before_use, 1);
	KUNIT_EXPECT_EQ(test, rt_add(REMOTE, GW1, -1, 0), 0);
	KUNIT_EXPECT_EQ(test, rt_add(FAKE_NET(2), GW1, -1, 0), 0);
	WRITE_ONCE(lnet_check_routers_before_use, 0);
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), LNET_NID_ANY);
	mutex_lock(&lnet_core.api_mutex);
	KUNIT_EXPECT_EQ(test, lnet_route_get(0, &info), 0);
	mutex_unlock(&lnet_core.api_mutex);
	KUNIT_EXPECT_FALSE(test, info.alive);

	/* a message for us from net 3, through GW1: nothing takes it */
	fake_hdr(&hdr, LNET_MSG_PUT, 0, FAKE_NID(3, 5), 0);
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, GW1, NULL, false), 0);
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), GW1);
	/* its route to another network waits for the next check */
	KUNIT_EXPECT_EQ(test, rt_pick(FAKE_NET(2), LNET_NET_ANY), LNET_NID_ANY);
}

/*
 * drop_asym_route: a message for us from net 3 is taken from GW1, which
 * our route to net 3 goes through, and dropped from GW2, which it does
 * not, before it can count as GW2 forwarding (which would revive GW2).
 */
static u64 rt_drop_count(void)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	return sum.drop_count;
}

static void rt_for_me_from(struct kunit *test, lnet_nid_t from)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, FAKE_NID(3, 5), 0);
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, from, NULL, false), 0);
}

static bool rt_gateway_alive(struct kunit *test, lnet_nid_t nid)
{
	struct lnet_gateway_info gi;
	unsigned int i;
	bool alive = false;

	mutex_lock(&lnet_core.api_mutex);
	for (i = 0; !lnet_gateway_get_info(i, &gi); i++)
		if (gi.nid == nid)
			alive = gi.alive;
	mutex_unlock(&lnet_core.api_mutex);
	return alive;
}

static void routes_drop_asym_route(struct kunit *test)
{
	u64 drops;

	/* both gateways held dead until a message shows they forward */
	WRITE_ONCE(lnet_check_routers_before_use, 1);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, -1, 0), 0);
	KUNIT_ASSERT_EQ(test, rt_add(FAKE_NET(2), GW2, -1, 0), 0);
	WRITE_ONCE(lnet_check_routers_before_use, 0);
	KUNIT_EXPECT_FALSE(test, rt_gateway_alive(test, GW2));

	WRITE_ONCE(lnet_drop_asym_route.value, 1);
	drops = rt_drop_count();
	rt_for_me_from(test, GW2);
	KUNIT_EXPECT_EQ(test, rt_drop_count(), drops + 1);
	KUNIT_EXPECT_FALSE(test, rt_gateway_alive(test, GW2));
	rt_for_me_from(test, GW1);
	KUNIT_EXPECT_TRUE(test, rt_gateway_alive(test, GW1));
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), GW1);

	/* off (the default): any gateway's */
	WRITE_ONCE(lnet_drop_asym_route.value, 0);
	rt_for_me_from(test, GW2);
	KUNIT_EXPECT_TRUE(test, rt_gateway_alive(test, GW2));
}

static void routes_send_via_gateway(struct kunit *test)
{
	struct lnet_process_id far = wb_id(FAKE_NID(3, 9), LNET_PID_LUSTRE + 1);
	struct lnet_handle_eq eqh = wb_eq(test, 16, NULL);
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	struct lnet_msg *msg;

	fake.send_mode = FAKE_SEND_HOLD;
	mdh = wb_bind(test, wb_md(renv(test)->data, PAYLOAD, 1, 0, NULL, eqh));
	KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ, far,
				      40, 0, 0, 0), -EHOSTUNREACH);
	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW3, -1, 0), 0);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ, far,
				      40, 0, 0, 0), 0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, msg->target.nid, GW3);
	KUNIT_EXPECT_EQ(test, msg->target.pid, LNET_PID_LUSTRE);
	KUNIT_EXPECT_PTR_EQ(test, msg->ni, fake.ni[1]);
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, far.nid);
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_pid, far.pid);
	KUNIT_EXPECT_EQ(test, msg->hdr.src_nid, FAKE_NID(1, FAKE_MY_ADDR));
	KUNIT_EXPECT_TRUE(test, lnet_msg_is_routed(msg));
	fake_done(msg, 0);
	wb_wait(test, eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.target.nid, far.nid);
}

/* ---- forwarding ------------------------------------------------------------- */

static void rt_router_on(struct kunit *test, int tiny, int small, int large)
{
	char *saved = lnet_forwarding;
	int rc;

	lnet_router_buffers[LNET_RTRPOOL_TINY] = tiny;
	lnet_router_buffers[LNET_RTRPOOL_SMALL] = small;
	lnet_router_buffers[LNET_RTRPOOL_LARGE] = large;
	lnet_forwarding = "enabled";
	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_router_start();
	mutex_unlock(&lnet_core.api_mutex);
	lnet_forwarding = saved;
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_ASSERT_TRUE(test, lnet_forwarding_enabled());
}

/* Free buffers (or minus the waiters) of pool @kind, over every CPT. */
static int rt_pool_credits(int kind, int *nbuffers)
{
	int cpt, npages, n, credits, min, sum = 0;

	*nbuffers = 0;
	for (cpt = 0; cpt < lnet_cpt_number(); cpt++) {
		if (lnet_rtrpool_state(cpt, kind, &npages, &n, &credits, &min))
			continue;
		*nbuffers += n;
		sum += credits;
	}
	return sum;
}

/* A second sender on net 0 whose messages use GW1's CPT's pools. */
static lnet_nid_t rt_peer_like_gw1(void)
{
	lnet_nid_t other = GW2;
	int a;

	for (a = 2; a < 100; a++) {
		other = FAKE_PEER(0, a);
		if (lnet_ni_cpt_of_nid(fake.ni[0], other) ==
		    lnet_ni_cpt_of_nid(fake.ni[0], GW1))
			break;
	}
	return other;
}

/* A PUT of PAYLOAD bytes from far away, handed in by @from on net 0. */
static void rt_inject(struct kunit *test, lnet_nid_t from, lnet_nid_t dst)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, FAKE_NID(3, 5), PAYLOAD);
	hdr.dest_nid = dst;
	hdr.dest_pid = LNET_PID_LUSTRE + 2;
	hdr.msg.put.ptl_index = 7;
	hdr.msg.put.match_bits = 0x1234;
	hdr.msg.put.hdr_data = 0xabcd;
	fake.rx_data = renv(test)->data;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, from, (void *)(uintptr_t)from,
					 false), 0);
}

static void rt_expect_forwarded(struct kunit *test, struct lnet_msg *msg,
				lnet_nid_t dst)
{
	struct routes_env *env = renv(test);
	struct iov_iter iter;

	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_PTR_EQ(test, msg->ni, fake.ni[1]);
	KUNIT_EXPECT_EQ(test, msg->target.nid, dst);
	KUNIT_EXPECT_EQ(test, msg->target.pid, LNET_PID_LUSTRE + 2);
	KUNIT_EXPECT_EQ(test, msg->hdr.type, LNET_MSG_PUT);
	KUNIT_EXPECT_EQ(test, msg->hdr.src_nid, FAKE_NID(3, 5));
	KUNIT_EXPECT_EQ(test, msg->hdr.dest_nid, dst);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.put.match_bits, 0x1234ULL);
	KUNIT_EXPECT_EQ(test, msg->hdr.msg.put.hdr_data, 0xabcdULL);
	KUNIT_EXPECT_EQ(test, lnet_msg_len(msg), PAYLOAD);
	KUNIT_EXPECT_TRUE(test, lnet_msg_is_routed(msg));
	memset(env->out, 0, PAYLOAD);
	lnet_msg_iter(msg, ITER_SOURCE, &iter);
	KUNIT_EXPECT_EQ(test, copy_from_iter(env->out, PAYLOAD, &iter),
			(size_t)PAYLOAD);
	KUNIT_EXPECT_EQ(test, memcmp(env->out, env->data, PAYLOAD), 0);
}

static void routes_forward_final_hop(struct kunit *test)
{
	lnet_nid_t dst = FAKE_PEER(1, 9);
	struct lnet_msg *msg;
	int n, full;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	full = rt_pool_credits(LNET_RTRPOOL_SMALL, &n);
	KUNIT_EXPECT_EQ(test, full, n);
	rt_inject(test, GW1, dst);
	msg = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, msg, dst);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full - 1);
	fake_done(msg, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
}

/* Another peer's PUT waits for the only small buffer. */
/*
 * One small buffer per CPT: GW1's message takes the one of its CPT (and is
 * held in send), then @other's waits for it, not received yet. Returns
 * GW1's; @nrecv is the receive count before the second.
 */
static struct lnet_msg *rt_second_waits(struct kunit *test, lnet_nid_t dst,
					lnet_nid_t *other, unsigned int *nrecv)
{
	struct lnet_msg *m1;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	*other = rt_peer_like_gw1();
	rt_inject(test, GW1, dst);
	m1 = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, m1);
	*nrecv = READ_ONCE(fake.nrecv);
	rt_inject(test, *other, dst);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), *nrecv);
	return m1;
}

static void routes_forward_waits_for_buffer(struct kunit *test)
{
	lnet_nid_t dst = FAKE_PEER(1, 9), other;
	struct lnet_msg *m1, *m2;
	unsigned int nrecv;
	int n;

	m1 = rt_second_waits(test, dst, &other, &nrecv);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), n - 2);

	fake_done(m1, 0);	/* its buffer goes to the waiter */
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), nrecv + 1);
	KUNIT_EXPECT_TRUE(test, fake.last_recv.delayed);
	KUNIT_EXPECT_EQ(test, (lnet_nid_t)(uintptr_t)fake.last_recv.private, other);
	m2 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m2, dst);
	fake_done(m2, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), n);
}

/* The same peer's second PUT waits for its router credit (1). */
static void routes_forward_waits_for_credit(struct kunit *test)
{
	lnet_nid_t dst = FAKE_PEER(1, 9);
	struct lnet_msg *m1, *m2;
	unsigned int nrecv;
	int n, full;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 4, 4, 4);
	full = rt_pool_credits(LNET_RTRPOOL_SMALL, &n);
	rt_inject(test, GW1, dst);
	m1 = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, m1);
	nrecv = READ_ONCE(fake.nrecv);
	rt_inject(test, GW1, dst);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), nrecv);
	/* waiting for a credit takes no buffer */
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full - 1);

	fake_done(m1, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), nrecv + 1);
	KUNIT_EXPECT_TRUE(test, fake.last_recv.delayed);
	m2 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m2, dst);
	fake_done(m2, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
}

static void routes_forward_no_route(struct kunit *test)
{
	int n, full;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	full = rt_pool_credits(LNET_RTRPOOL_SMALL, &n);
	rt_inject(test, GW1, FAKE_NID(2, 9));	/* net 2: not up, no route */
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
	/* through a gateway once there is a route */
	KUNIT_ASSERT_EQ(test, rt_add(FAKE_NET(2), GW3, -1, 0), 0);
	rt_inject(test, GW1, FAKE_NID(2, 9));
	fake_done(fake_take_send(WB_WAIT_MS), 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
}

/*
 * A router forwarding a PUT to a node it has not discovered pings the node
 * first (spec 1.3, 4.6), the message waiting in its router buffer; once
 * the ping is answered the PUT goes on unchanged. A second node's ping
 * fails: its PUT is dropped, the buffer comes back.
 */
static void routes_forward_discovers_first(struct kunit *test)
{
	size_t info_len = lnet_ping_info_size(2);
	lnet_nid_t dst = FAKE_PEER(1, 9), dead = FAKE_PEER(1, 10);
	struct lnet_msg *ping, *msg;
	struct lnet_ping_info *info;
	struct lnet_handle_wire wmd;
	struct lnet_hdr hdr;
	int n, full;

	info = kunit_kzalloc(test, info_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	info->magic = LNET_PROTO_PING_MAGIC;
	info->features = LNET_PING_FEAT_NI_STATUS;	/* no discovery: no push */
	info->pid = LNET_PID_LUSTRE;
	info->nnis = 2;
	info->ni[0].nid = LNET_NID_LO_0;
	info->ni[1].nid = dst;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	full = rt_pool_credits(LNET_RTRPOOL_SMALL, &n);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 0);
	rt_inject(test, GW1, dst);
	ping = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, ping);
	KUNIT_EXPECT_EQ(test, ping->hdr.type, LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, ping->hdr.msg.get.ptl_index, LNET_RESERVED_PORTAL);
	KUNIT_EXPECT_EQ(test, ping->target.nid, dst);
	KUNIT_EXPECT_PTR_EQ(test, ping->ni, fake.ni[1]);
	wmd = ping->hdr.msg.get.return_wmd;
	fake_done(ping, 0);
	/* received, holding its buffer, not sent on yet */
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full - 1);

	fake_hdr(&hdr, LNET_MSG_REPLY, 1, dst, info_len);
	hdr.msg.reply.dst_wmd = wmd;
	fake.rx_data = info;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, dst, NULL, false), 0);
	msg = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, msg, dst);
	if (msg)
		fake_done(msg, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);

	rt_inject(test, GW1, dead);
	ping = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, ping);
	KUNIT_EXPECT_EQ(test, ping->target.nid, dead);
	KUNIT_EXPECT_EQ(test, ping->hdr.msg.get.ptl_index, LNET_RESERVED_PORTAL);
	fake_done(ping, -EHOSTUNREACH);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
}

/* A Multi-Rail ping info: 0@lo, then @nids, those in @down_mask DOWN. */
static struct lnet_ping_info *rt_mr_info(struct kunit *test,
					 const lnet_nid_t *nids,
					 unsigned int n, u32 down_mask)
{
	struct lnet_ping_info *info;
	unsigned int i;

	info = kunit_kzalloc(test, lnet_ping_info_size(n + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	info->magic = LNET_PROTO_PING_MAGIC;
	info->features = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL |
			 LNET_PING_FEAT_DISCOVERY;
	info->pid = LNET_PID_LUSTRE;
	info->nnis = n + 1;
	info->ni[0].nid = LNET_NID_LO_0;
	for (i = 0; i < n; i++) {
		info->ni[i + 1].nid = nids[i];
		info->ni[i + 1].status = down_mask & BIT(i) ?
					 LNET_NI_STATUS_DOWN :
					 LNET_NI_STATUS_UP;
	}
	return info;
}

/* The router's push to @dst on net 1: checked, ACKed from @dst. */
static void rt_push_acked(struct kunit *test, struct lnet_msg *push,
			  lnet_nid_t dst)
{
	struct lnet_handle_wire wmd;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, push);
	KUNIT_EXPECT_EQ(test, push->hdr.type, LNET_MSG_PUT);
	KUNIT_EXPECT_EQ(test, push->hdr.msg.put.ptl_index,
			(u32)LNET_RESERVED_PORTAL);
	KUNIT_EXPECT_EQ(test, push->hdr.dest_nid, dst);
	wmd = push->hdr.msg.put.ack_wmd;
	fake_done(push, 0);
	fake_hdr(&hdr, LNET_MSG_ACK, 1, dst, 0);
	hdr.msg.ack.dst_wmd = wmd;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, dst, NULL, false), 0);
}

/* What the router's ping info, as @push carries it, says of @nid. */
static u32 rt_pushed_status(struct lnet_msg *push, lnet_nid_t nid)
{
	size_t len = lnet_msg_len(push);
	struct lnet_ping_info *info;
	struct iov_iter iter;
	u32 status = 0;
	unsigned int i;

	info = kzalloc(len, GFP_KERNEL);
	if (!info)
		return 0;
	lnet_msg_iter(push, ITER_SOURCE, &iter);
	if (copy_from_iter(info, len, &iter) == len)
		for (i = 1; i < info->nnis &&
			    lnet_ping_info_size(i + 1) <= len; i++)
			if (info->ni[i].nid == nid)
				status = info->ni[i].status;
	kfree(info);
	return status;
}

/* Net 0's NI says DOWN (@quiet) or UP again: the router pushes to @dst. */
static void rt_quiet_pushed(struct kunit *test, bool quiet, lnet_nid_t dst)
{
	struct lnet_msg *push;

	if (quiet)
		set_bit(LNET_NI_QUIET_DOWN, &fake.ni[0]->health_flags);
	else
		clear_bit(LNET_NI_QUIET_DOWN, &fake.ni[0]->health_flags);
	lnet_ping_status_changed();
	lnet_ping_status_flush();
	push = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, push);
	KUNIT_EXPECT_EQ(test, rt_pushed_status(push, fake.ni[0]->nid),
			quiet ? LNET_NI_STATUS_DOWN : LNET_NI_STATUS_UP);
	rt_push_acked(test, push, dst);
}

/*
 * The final hop to a Multi-Rail node whose ping info says the NI a PUT is
 * addressed to is DOWN goes to another of its NIDs, rewritten in the
 * header (spec 1.3, dest_nid): the router learns the statuses from the
 * discovery the PUT waits for. A message forwarded from that NI says it
 * is up: the next PUT keeps its NID. When one of the router's own NIs
 * goes down or up, it pushes its ping info to the node at once (4.7).
 */
static void routes_forward_mr_down_nid(struct kunit *test)
{
	lnet_nid_t dst = FAKE_PEER(1, 20), other = FAKE_PEER(1, 21);
	const lnet_nid_t nids[] = { dst, other };
	struct lnet_ping_info *info = rt_mr_info(test, nids, 2, BIT(0));
	size_t info_len = lnet_ping_info_size(3);
	struct lnet_msg *ping, *msg;
	struct lnet_handle_wire wmd;
	struct lnet_hdr hdr;

	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 0);
	rt_inject(test, GW1, dst);
	ping = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, ping);
	KUNIT_EXPECT_EQ(test, ping->hdr.type, LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, ping->target.nid, dst);
	wmd = ping->hdr.msg.get.return_wmd;
	fake_done(ping, 0);
	fake_hdr(&hdr, LNET_MSG_REPLY, 1, dst, info_len);
	hdr.msg.reply.dst_wmd = wmd;
	fake.rx_data = info;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, dst, NULL, false), 0);
	fake.rx_data = NULL;
	rt_push_acked(test, fake_take_send(WB_WAIT_MS), dst);
	KUNIT_EXPECT_TRUE(test, lnet_node_nid_down(dst));
	KUNIT_EXPECT_FALSE(test, lnet_node_nid_down(other));

	msg = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, msg, other);
	if (msg)
		fake_done(msg, 0);
	/* discovered now: the next one goes to @other straight away */
	rt_inject(test, GW1, dst);
	msg = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, msg, other);
	if (msg)
		fake_done(msg, 0);

	/* @dst forwards a PUT to net 0: it is up */
	fake_hdr(&hdr, LNET_MSG_PUT, 1, dst, PAYLOAD);
	hdr.dest_nid = FAKE_PEER(0, 9);
	hdr.msg.put.ptl_index = 7;
	fake.rx_data = renv(test)->data;
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 1);
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[1], &hdr, dst, NULL, false), 0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, msg->target.nid, FAKE_PEER(0, 9));
	fake_done(msg, 0);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 0);
	KUNIT_EXPECT_FALSE(test, lnet_node_nid_down(dst));
	rt_inject(test, GW1, dst);
	msg = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, msg, dst);
	if (msg)
		fake_done(msg, 0);

	/* the router's NI on net 0 goes quiet, then is pinged again */
	rt_quiet_pushed(test, true, dst);
	rt_quiet_pushed(test, false, dst);
	/* nothing moved: no push */
	lnet_ping_status_changed();
	lnet_ping_status_flush();
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
}

/* A push (no ACK asked) of @info from @from on net 0. */
static void rt_push_in(struct kunit *test, lnet_nid_t from,
		       const struct lnet_ping_info *info)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, from, lnet_ping_info_size(info->nnis));
	hdr.msg.put.ptl_index = LNET_RESERVED_PORTAL;
	hdr.msg.put.match_bits = LNET_PROTO_PING_MATCHBITS;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	fake.rx_data = info;
	KUNIT_EXPECT_EQ(test, lnet_parse(fake.ni[0], &hdr, from, NULL, false), 0);
	fake.rx_data = NULL;
}

static bool rt_route_up_within(u32 net, lnet_nid_t gw, bool up,
			       unsigned int ms)
{
	lnet_nid_t got;

	return !read_poll_timeout(rt_pick, got, (got == gw) == up,
				  10 * USEC_PER_MSEC, ms * USEC_PER_MSEC,
				  false, net, LNET_NET_ANY);
}

/*
 * A gateway's push is an answer to a check: its ping info saying its NI
 * on the remote network is DOWN takes the single-hop route through it
 * down (avoid_asym_router_failure) without waiting for the next check,
 * and saying UP brings it back.
 */
static void routes_gateway_push(struct kunit *test)
{
	const lnet_nid_t nids[] = { GW1, FAKE_NID(3, 1) };
	struct lnet_peer_node *node;

	KUNIT_ASSERT_EQ(test, rt_add(REMOTE, GW1, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, rt_pick(REMOTE, LNET_NET_ANY), GW1);
	node = lnet_node_get_or_new(GW1);	/* a peer we know */
	KUNIT_ASSERT_NOT_NULL(test, node);
	lnet_node_put(node);
	WRITE_ONCE(lnet_peer_discovery_disabled.value, 0);

	rt_push_in(test, GW1, rt_mr_info(test, nids, 2, BIT(1)));
	KUNIT_EXPECT_TRUE(test, rt_route_up_within(REMOTE, GW1, false,
						   WB_WAIT_MS));
	rt_push_in(test, GW1, rt_mr_info(test, nids, 2, 0));
	KUNIT_EXPECT_TRUE(test, rt_route_up_within(REMOTE, GW1, true,
						   WB_WAIT_MS));
	KUNIT_EXPECT_EQ(test, rt_del(REMOTE, GW1), 0);
}

static int rt_router_set(bool on)
{
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_router_set(on);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/*
 * The router's own clock: the check runs once a second and may miss a turn
 * (api_mutex busy), and under TCG a guest can stall for a second or more.
 * So a change due after the delay is waited for, up to the delay plus
 * RT_SLACK_MS, and a change that must not happen yet is looked for well
 * inside the window: the delay is long enough for that to mean something.
 */
#define RT_SLACK_MS	4000

/* Wait up to @ms for forwarding to be @on; whether it is. */
static bool rt_forwarding_becomes(bool on, unsigned int ms)
{
	bool now;

	if (read_poll_timeout(lnet_forwarding_enabled, now, now == on,
			      50 * USEC_PER_MSEC, ms * USEC_PER_MSEC, false))
		return false;
	/*
	 * The switch flips first and drops the waiters after, under
	 * api_mutex: once the mutex is ours, that is done too.
	 */
	mutex_lock(&lnet_core.api_mutex);
	mutex_unlock(&lnet_core.api_mutex);
	return true;
}

/* Wait up to @ms for @ni to say DOWN in the ping info; whether it does. */
static bool rt_says_down_within(struct lnet_ni *ni, unsigned int ms)
{
	bool down;

	return !read_poll_timeout(lnet_ni_says_down, down, down,
				  50 * USEC_PER_MSEC, ms * USEC_PER_MSEC, false,
				  ni);
}

/*
 * Forwarding off at run time: the ping info says so at once; forwarding
 * goes on for the delay (2 s here: router_ping_timeout 2, the check
 * interval 0), and past it while a buffer is in use, until three times the
 * delay. Then the waiter is dropped, new messages for others too; the one
 * being forwarded finishes and its buffer comes back. On again: forwarding
 * at once with the same pools, the ping info saying so after the delay.
 */
static void routes_forward_off_and_on(struct kunit *test)
{
	int saved = lnet_router_ping_timeout;
	lnet_nid_t dst = FAKE_PEER(1, 9), other;
	unsigned int nnull;
	struct lnet_msg *m1;
	bool advertised;
	int n, full;

	WRITE_ONCE(lnet_router_ping_timeout, 2);
	fake.send_mode = FAKE_SEND_HOLD;
	rt_router_on(test, 1, 1, 1);
	KUNIT_EXPECT_TRUE(test, lnet_router_advertised_now());
	full = rt_pool_credits(LNET_RTRPOOL_SMALL, &n);
	other = rt_peer_like_gw1();
	rt_inject(test, GW1, dst);
	m1 = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, m1);
	rt_inject(test, other, dst);		/* waits for the buffer */
	nnull = READ_ONCE(fake.nrecv_null);

	KUNIT_ASSERT_EQ(test, rt_router_set(false), 0);
	KUNIT_EXPECT_FALSE(test, lnet_router_advertised_now());
	KUNIT_EXPECT_FALSE(test, lnet_routing_wanted());
	/* past the delay, 3 s short of the end: m1 holds the buffer */
	msleep(3000);
	KUNIT_EXPECT_TRUE(test, lnet_forwarding_enabled());
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv_null), nnull);
	KUNIT_EXPECT_TRUE(test, rt_forwarding_becomes(false, 3000 + RT_SLACK_MS));
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv_null), nnull + 1);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full - 1);
	rt_inject(test, GW1, dst);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv_null), nnull + 2);
	fake_done(m1, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));

	KUNIT_ASSERT_EQ(test, rt_router_set(true), 0);
	KUNIT_EXPECT_TRUE(test, lnet_forwarding_enabled());
	KUNIT_EXPECT_FALSE(test, lnet_router_advertised_now());
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), full);
	rt_inject(test, GW1, dst);
	m1 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m1, dst);
	fake_done(m1, 0);
	KUNIT_EXPECT_EQ(test, read_poll_timeout(lnet_router_advertised_now,
						advertised, advertised,
						50 * USEC_PER_MSEC,
						(2000 + RT_SLACK_MS) *
						USEC_PER_MSEC, false), 0);

	/* off, then on again before it stopped: it never stops */
	KUNIT_ASSERT_EQ(test, rt_router_set(false), 0);
	KUNIT_ASSERT_EQ(test, rt_router_set(true), 0);
	KUNIT_EXPECT_FALSE(test, rt_forwarding_becomes(false, 4000));
	WRITE_ONCE(lnet_router_ping_timeout, saved);
}

/*
 * A router whose network goes unpinged for router_ping_timeout (+ the
 * check interval, 0 here) says that NI is DOWN, until a node pings it
 * there; a ping from itself does not count. Forwarding off: none is DOWN.
 */
static void routes_router_quiet_net(struct kunit *test)
{
	int saved = lnet_router_ping_timeout;

	WRITE_ONCE(lnet_router_ping_timeout, 1);
	rt_router_on(test, 1, 1, 1);
	KUNIT_EXPECT_FALSE(test, lnet_ni_says_down(fake.ni[0]));
	KUNIT_EXPECT_FALSE(test, lnet_ni_says_down(fake.ni[1]));
	KUNIT_EXPECT_TRUE(test, rt_says_down_within(fake.ni[0],
						    1000 + RT_SLACK_MS));
	KUNIT_EXPECT_TRUE(test, rt_says_down_within(fake.ni[1],
						    1000 + RT_SLACK_MS));
	KUNIT_EXPECT_GE(test, lnet_router_last_pinged(fake.ni[1]), 1);

	lnet_router_pinged(fake.ni[0], GW1);
	KUNIT_EXPECT_FALSE(test, lnet_ni_says_down(fake.ni[0]));
	KUNIT_EXPECT_EQ(test, lnet_router_last_pinged(fake.ni[0]), 0);
	lnet_router_pinged(fake.ni[1], FAKE_NID(1, FAKE_MY_ADDR));
	KUNIT_EXPECT_TRUE(test, lnet_ni_says_down(fake.ni[1]));

	/* no buffer in use: forwarding stops once the delay has passed */
	KUNIT_EXPECT_EQ(test, rt_router_set(false), 0);
	KUNIT_EXPECT_TRUE(test, rt_forwarding_becomes(false,
						      1000 + RT_SLACK_MS));
	KUNIT_EXPECT_FALSE(test, lnet_ni_says_down(fake.ni[1]));
	KUNIT_EXPECT_EQ(test, lnet_router_last_pinged(fake.ni[0]), -1);
	WRITE_ONCE(lnet_router_ping_timeout, saved);
}

static int rt_resize(int tiny, int small, int large)
{
	const int totals[LNET_NRTRPOOLS] = { tiny, small, large };
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_router_resize(totals);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/*
 * Pools resized at run time: a grown pool serves its waiter at once; a
 * shrunk one frees the buffers in use beyond its size as they come back.
 */
static void routes_resize_pools(struct kunit *test)
{
	int ncpts = lnet_cpt_number(), n;
	lnet_nid_t dst = FAKE_PEER(1, 9), other;
	struct lnet_msg *m1, *m2, *m3;
	unsigned int nrecv;

	/* the second message waits until the pool grows */
	m1 = rt_second_waits(test, dst, &other, &nrecv);
	KUNIT_EXPECT_EQ(test, rt_resize(0, -1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rt_resize(0, 0, INT_MAX), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rt_resize(0, 0, 0), 0);	/* nothing changes */
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), ncpts - 2);
	KUNIT_EXPECT_EQ(test, n, ncpts);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), nrecv);
	KUNIT_ASSERT_EQ(test, rt_resize(0, 2 * ncpts, 0), 0);
	KUNIT_EXPECT_EQ(test, lnet_router_buffers[LNET_RTRPOOL_SMALL], 2 * ncpts);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv), nrecv + 1);
	KUNIT_EXPECT_TRUE(test, fake.last_recv.delayed);
	KUNIT_EXPECT_EQ(test, (lnet_nid_t)(uintptr_t)fake.last_recv.private, other);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n),
			2 * ncpts - 2);
	KUNIT_EXPECT_EQ(test, n, 2 * ncpts);
	/* it goes once the first is done (one send credit per peer) */
	fake_done(m1, 0);
	m2 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m2, dst);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n),
			2 * ncpts - 1);
	/* a third takes the other buffer and waits for the send credit */
	rt_inject(test, GW1, dst);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n),
			2 * ncpts - 2);

	/* back to one per CPT with both buffers out */
	KUNIT_ASSERT_EQ(test, rt_resize(0, ncpts, 0), 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n),
			ncpts - 2);
	KUNIT_EXPECT_EQ(test, n, ncpts);
	fake_done(m2, 0);	/* its buffer is beyond the size: freed */
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n),
			ncpts - 1);
	m3 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m3, dst);
	fake_done(m3, 0);	/* its buffer stays */
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), ncpts);

	/* the one buffer left serves; the pools go at shutdown, all back */
	rt_inject(test, GW1, dst);
	m1 = fake_take_send(WB_WAIT_MS);
	rt_expect_forwarded(test, m1, dst);
	fake_done(m1, 0);
	KUNIT_EXPECT_EQ(test, rt_pool_credits(LNET_RTRPOOL_SMALL, &n), ncpts);
}

static void routes_not_a_router(struct kunit *test)
{
	unsigned int nnull = READ_ONCE(fake.nrecv_null);

	fake.send_mode = FAKE_SEND_HOLD;
	KUNIT_EXPECT_FALSE(test, lnet_forwarding_enabled());
	rt_inject(test, GW1, FAKE_PEER(1, 9));
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.nrecv_null), nnull + 1);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
}

static struct kunit_case lnet_routes_cases[] = {
	KUNIT_CASE(routes_add_refused),
	KUNIT_CASE(routes_choice),
	KUNIT_CASE(routes_choice_by_load),
	KUNIT_CASE(routes_dist),
	KUNIT_CASE(routes_dead_gateway_forwards),
	KUNIT_CASE(routes_drop_asym_route),
	KUNIT_CASE(routes_send_via_gateway),
	KUNIT_CASE(routes_forward_final_hop),
	KUNIT_CASE(routes_forward_waits_for_buffer),
	KUNIT_CASE(routes_forward_waits_for_credit),
	KUNIT_CASE(routes_forward_no_route),
	KUNIT_CASE(routes_forward_discovers_first),
	KUNIT_CASE(routes_forward_mr_down_nid),
	KUNIT_CASE(routes_gateway_push),
	KUNIT_CASE(routes_forward_off_and_on),
	KUNIT_CASE(routes_resize_pools),
	KUNIT_CASE(routes_router_quiet_net),
	KUNIT_CASE(routes_not_a_router),
	{}
};

static struct kunit_suite lnet_routes_suite = {
	.name = "lnet_routes",
	.init = routes_init,
	.exit = routes_exit,
	.test_cases = lnet_routes_cases,
};
kunit_test_suite(lnet_routes_suite);
