// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (lnet/fault.c): rule checks and matching, the rate,
 * interval and random choices with fixed seeds, the health status of a
 * simulated send failure, and the rules at work on a fake LND through
 * LNetCtl(LNET_IOC_LNET_FAULT): receive drops, held receives and sends,
 * a deleted rule releasing what it holds, a stopping NI dropping it.
 */
#include <linux/delay.h>
#include <uapi/linux/lnet/lnet-ioctl.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define PT		31
#define PEER		FAKE_PEER(0, 1)
#define OTHER		FAKE_PEER(0, 2)
#define MY_NID		FAKE_NID(0, FAKE_MY_ADDR)
#define PRIV		((void *)0xfa17)
#define SEED		0x1234abcdULL
#define ANY_OF_NET(n)	LNET_MKNID(FAKE_NET(n), 0xFFFFFFFFU)

/* ---- the rules alone ---------------------------------------------------------- */

static struct lnet_fault_attr attr_of(u32 rate, u32 interval)
{
	return (struct lnet_fault_attr){
		.fa_src = LNET_NID_ANY, .fa_dst = LNET_NID_ANY,
		.fa_local_nid = LNET_NID_ANY,
		.fa_rate = rate, .fa_interval = interval, .fa_seed = SEED,
	};
}

static void fault_attr_checks(struct kunit *test)
{
	struct lnet_fault_attr a;

	a = attr_of(0, 0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a = attr_of(2, 3);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a = attr_of(2, 0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	/* delay rules need a latency; drop rules take none */
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, true), -EINVAL);
	a.fa_latency = 2;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, true), 0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	/* random needs an interval */
	a = attr_of(2, 0);
	a.fa_flags = LNET_FAULT_F_RANDOM;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a = attr_of(0, 4);
	a.fa_flags = LNET_FAULT_F_RANDOM;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	a.fa_flags = 0x80;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	/* health statuses 1..10 only, or "random" */
	a = attr_of(1, 0);
	a.fa_health_mask = BIT(0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a.fa_health_mask = BIT(11);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a.fa_health_mask = BIT(1) | BIT(10);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	a.fa_health_mask = LNET_FAULT_HEALTH_RANDOM;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	/* and none on a delay rule, nor a local NID */
	a.fa_latency = 1;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, true), -EINVAL);
	a = attr_of(1, 0);
	a.fa_latency = 1;
	a.fa_local_nid = MY_NID;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, true), -EINVAL);
	/* a portal mask leaves PUT and GET of the message mask */
	a = attr_of(1, 0);
	a.fa_ptl_mask = BIT_ULL(PT);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	KUNIT_EXPECT_EQ(test, a.fa_msg_mask,
			(u32)(BIT(LNET_MSG_PUT) | BIT(LNET_MSG_GET)));
	a = attr_of(1, 0);
	a.fa_ptl_mask = BIT_ULL(PT);
	a.fa_msg_mask = BIT(LNET_MSG_ACK) | BIT(LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), 0);
	KUNIT_EXPECT_EQ(test, a.fa_msg_mask, (u32)BIT(LNET_MSG_GET));
	a.fa_msg_mask = BIT(LNET_MSG_ACK);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a = attr_of(1, 0);
	a.fa_msg_mask = BIT(4);		/* HELLO: not a message LNet sees */
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
	a = attr_of(0, 100000);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, false), -EINVAL);
}

static void put_hdr(struct lnet_hdr *hdr, lnet_nid_t src, lnet_nid_t dst,
		    u32 portal)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = LNET_MSG_PUT;
	hdr->src_nid = src;
	hdr->dest_nid = dst;
	hdr->msg.put.ptl_index = portal;
}

static void fault_match_rules(struct kunit *test)
{
	struct lnet_fault_attr a = attr_of(1, 0);
	struct lnet_hdr hdr;

	put_hdr(&hdr, PEER, MY_NID, PT);
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, LNET_NID_ANY));

	a.fa_src = PEER;
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_src = OTHER;
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	/* "*@net": any NID of that net, none of another */
	a.fa_src = ANY_OF_NET(0);
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_src = ANY_OF_NET(1);
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_src = LNET_NID_ANY;
	a.fa_dst = FAKE_NID(1, FAKE_MY_ADDR);
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_dst = MY_NID;
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));

	/* a local NID: the receiving NI's; never on the send side */
	a.fa_local_nid = MY_NID;
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr,
						  FAKE_NID(1, FAKE_MY_ADDR)));
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, LNET_NID_ANY));
	a.fa_local_nid = LNET_NID_ANY;

	a.fa_msg_mask = BIT(LNET_MSG_GET);
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_msg_mask = BIT(LNET_MSG_GET) | BIT(LNET_MSG_PUT);
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));

	a.fa_ptl_mask = BIT_ULL(PT + 1);
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	a.fa_ptl_mask |= BIT_ULL(PT);
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	hdr.type = LNET_MSG_GET;
	hdr.msg.get.ptl_index = PT + 2;
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
	hdr.msg.get.ptl_index = PT + 1;
	KUNIT_EXPECT_TRUE(test, lnet_fault_match(&a, &hdr, MY_NID));
	/* with a portal mask, messages without a portal never match */
	a.fa_msg_mask = 0;
	hdr.type = LNET_MSG_ACK;
	KUNIT_EXPECT_FALSE(test, lnet_fault_match(&a, &hdr, MY_NID));
}

static struct lnet_fault_rule *new_rule(struct kunit *test,
					struct lnet_fault_attr a, bool delay)
{
	struct lnet_fault_rule *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, lnet_fault_attr_check(&a, delay), 0);
	r->attr = a;
	r->delay = delay;
	spin_lock_init(&r->lock);
	INIT_LIST_HEAD(&r->held);
	lnet_fault_rule_reset(r, jiffies);
	return r;
}

/* which of @n matches the rule acts on, as a bitmap (n <= 64) */
static u64 decide_n(struct lnet_fault_rule *r, unsigned int n,
		    unsigned long now, unsigned long step)
{
	u64 hits = 0;
	unsigned int i;

	spin_lock_bh(&r->lock);
	for (i = 0; i < n; i++)
		if (lnet_fault_decide(r, now + i * step))
			hits |= BIT_ULL(i);
	spin_unlock_bh(&r->lock);
	return hits;
}

static void fault_rate_sequence(struct kunit *test)
{
	struct lnet_fault_rule *r = new_rule(test, attr_of(4, 0), false);
	struct lnet_fault_rule *other;
	struct lnet_fault_attr a;
	u64 hits, again;
	int w;

	hits = decide_n(r, 64, jiffies, 0);
	/* exactly one hit in each window of 4 matches */
	for (w = 0; w < 16; w++)
		KUNIT_EXPECT_EQ_MSG(test, hweight64((hits >> (4 * w)) & 0xf), 1,
				    "window %d of %016llx", w, hits);
	KUNIT_EXPECT_EQ(test, r->stat.fs_count, 64ULL);

	/* the same seed, after a reset, makes the same choices */
	spin_lock_bh(&r->lock);
	lnet_fault_rule_reset(r, jiffies);
	spin_unlock_bh(&r->lock);
	KUNIT_EXPECT_EQ(test, r->stat.fs_count, 0ULL);
	again = decide_n(r, 64, jiffies, 0);
	KUNIT_EXPECT_EQ(test, again, hits);

	/* another seed, other choices (16 windows: 4^-16 to be equal) */
	a = attr_of(4, 0);
	a.fa_seed = SEED + 1;
	other = new_rule(test, a, false);
	KUNIT_EXPECT_NE(test, decide_n(other, 64, jiffies, 0), hits);

	/* rate 1: every match */
	other = new_rule(test, attr_of(1, 0), false);
	KUNIT_EXPECT_EQ(test, decide_n(other, 64, jiffies, 0), ~0ULL);
}

static void fault_interval_sequence(struct kunit *test)
{
	struct lnet_fault_rule *r;
	unsigned long t0 = jiffies, step = HZ / 4;
	u64 hits, again;
	int n;

	/*
	 * 2 s windows, a match every 1/4 s for 16 s: one hit per window, at
	 * the first match at or after a uniform instant of the window (a
	 * late instant's hit may fall in the next window's first slot, and
	 * the last window's may fall after the 16 s)
	 */
	r = new_rule(test, attr_of(0, 2), false);
	lnet_fault_rule_reset(r, t0);
	hits = decide_n(r, 64, t0, step);
	n = hweight64(hits);
	KUNIT_EXPECT_GE_MSG(test, n, 7, "hits %016llx", hits);
	KUNIT_EXPECT_LE_MSG(test, n, 8, "hits %016llx", hits);
	KUNIT_EXPECT_EQ(test, r->stat.fs_count, 64ULL);
	lnet_fault_rule_reset(r, t0);
	again = decide_n(r, 64, t0, step);
	KUNIT_EXPECT_EQ(test, again, hits);

	/* no match for a long time: one hit when matches come again */
	lnet_fault_rule_reset(r, t0);
	KUNIT_EXPECT_EQ(test, decide_n(r, 1, t0 + 60 * HZ, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, decide_n(r, 1, t0 + 60 * HZ + 1, 0), 0ULL);
}

static void fault_random_half(struct kunit *test)
{
	struct lnet_fault_attr a = attr_of(0, 10);
	struct lnet_fault_rule *r;
	unsigned int i, hits = 0;

	a.fa_flags = LNET_FAULT_F_RANDOM;
	r = new_rule(test, a, false);
	spin_lock_bh(&r->lock);
	for (i = 0; i < 1000; i++)
		hits += lnet_fault_decide(r, jiffies);
	spin_unlock_bh(&r->lock);
	KUNIT_EXPECT_GE(test, hits, 400U);
	KUNIT_EXPECT_LE(test, hits, 600U);
	/* random rules do not count matches */
	KUNIT_EXPECT_EQ(test, r->stat.fs_count, 0ULL);

	a = attr_of(0, 10);
	a.fa_flags = LNET_FAULT_F_DROP_ALL;
	r = new_rule(test, a, false);
	KUNIT_EXPECT_EQ(test, decide_n(r, 64, jiffies, 0), ~0ULL);
}

/* the spec's choice for a draw of @pick under @mask */
static int nearest_status(u32 mask, int pick)
{
	int d;

	pick = max(pick, 1);
	if (mask == LNET_FAULT_HEALTH_RANDOM || (mask & BIT(pick)))
		return pick;
	for (d = 1; d <= 10; d++) {
		if (pick + d <= 10 && (mask & BIT(pick + d)))
			return pick + d;
		if (pick - d >= 1 && (mask & BIT(pick - d)))
			return pick - d;
	}
	return -1;
}

static void fault_pick_status(struct kunit *test)
{
	static const u32 masks[] = {
		BIT(LNET_MSG_STATUS_LOCAL_ERROR),
		BIT(3) | BIT(7),		/* a draw of 5 is a tie: 7 */
		BIT(1) | BIT(10),
		LNET_FAULT_HEALTH_RANDOM,
	};
	struct lnet_fault_attr a = attr_of(1, 0);
	struct lnet_fault_rule *r;
	struct rnd_state mirror;
	unsigned int i, k, seen = 0;
	int draw, got;

	for (k = 0; k < ARRAY_SIZE(masks); k++) {
		a.fa_health_mask = masks[k];
		r = new_rule(test, a, false);
		/* the draw is uniform in 0..10 from the rule's sequence */
		mirror = r->rnd;
		spin_lock_bh(&r->lock);
		for (i = 0; i < 200; i++) {
			draw = ((u64)prandom_u32_state(&mirror) * 11) >> 32;
			got = lnet_fault_pick_status(r);
			KUNIT_EXPECT_EQ_MSG(test, got, nearest_status(masks[k], draw),
					    "mask %x draw %d", masks[k], draw);
			if (masks[k] == (BIT(3) | BIT(7)) && draw == 5)
				seen++;
		}
		spin_unlock_bh(&r->lock);
	}
	KUNIT_EXPECT_GT_MSG(test, seen, 0U, "the tie was never drawn");
}

/* ---- the rules at work -------------------------------------------------------- */

struct fault_env {
	struct lnet_handle_eq	eqh;
	u8			data[128];
};

static int fault_init(struct kunit *test)
{
	struct fault_env *env;
	int i;

	env = fake_suite_init(test, 2, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	for (i = 0; i < sizeof(env->data); i++)
		env->data[i] = i * 5 + 1;
	fake.rx_data = env->data;
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void fault_ctl(struct kunit *test, u32 opc,
		      struct lnet_fault_attr *a, struct lnet_ioctl_fault *out)
{
	struct lnet_ioctl_fault f = {
		.lfi_hdr = { .ioc_len = sizeof(f),
			     .ioc_version = LNET_IOCTL_VERSION2 },
		.lfi_opc = opc,
	};

	if (a)
		f.lfi_attr = *a;
	KUNIT_ASSERT_EQ(test, LNetCtl(LNET_IOC_LNET_FAULT, &f), 0);
	if (out)
		*out = f;
}

static void fault_del_all(struct kunit *test)
{
	struct lnet_fault_attr all = attr_of(0, 0);

	fault_ctl(test, LNET_FAULT_DROP_DEL, &all, NULL);
	fault_ctl(test, LNET_FAULT_DELAY_DEL, &all, NULL);
}

static void fault_exit(struct kunit *test)
{
	if (!test->priv)
		return;
	fault_del_all(test);
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static struct fault_env *fenv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static struct lnet_fault_stat rule_stat(struct kunit *test, u32 opc)
{
	struct lnet_ioctl_fault f;

	fault_ctl(test, opc, NULL, &f);
	return f.lfi_stat;
}

/* a PUT of 40 bytes from PEER to portal PT, match bits @bits */
static int parse_put(u64 bits)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 40);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = bits;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	return lnet_parse(fake.ni[0], &hdr, PEER, PRIV, false);
}

static void post(struct kunit *test, u64 bits, unsigned int len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	struct lnet_handle_me meh;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	meh = wb_me(test, PT, wb_any(), bits, 0);
	wb_attach(test, meh, wb_md(buf, len, LNET_MD_THRESH_INF,
				   LNET_MD_OP_PUT, buf, fenv(test)->eqh));
}

static void fault_drop_rx(struct kunit *test)
{
	struct lnet_fault_attr a = attr_of(1, 0);
	struct lnet_ioctl_fault f;
	struct lnet_fault_stat st;
	struct lnet_event ev;
	unsigned int nnull;

	post(test, 1, 64);
	a.fa_src = PEER;
	a.fa_msg_mask = BIT(LNET_MSG_PUT);
	a.fa_seed = 0;			/* the kernel picks one and says */
	fault_ctl(test, LNET_FAULT_DROP_ADD, &a, &f);
	KUNIT_EXPECT_NE(test, f.lfi_attr.fa_seed, 0ULL);

	nnull = fake.nrecv_null;
	KUNIT_ASSERT_EQ(test, parse_put(1), 0);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 1);	/* dropped */
	KUNIT_EXPECT_PTR_EQ(test, fake.last_recv.private, PRIV);
	wb_quiet(test, fenv(test)->eqh);
	st = rule_stat(test, LNET_FAULT_DROP_LIST);
	KUNIT_EXPECT_EQ(test, st.fs_count, 1ULL);
	KUNIT_EXPECT_EQ(test, st.fs_put, 1ULL);
	KUNIT_EXPECT_EQ(test, st.fs_total, 1ULL);

	/* a send-side (health) rule does not drop receives */
	a = attr_of(1, 0);
	a.fa_health_mask = BIT(LNET_MSG_STATUS_LOCAL_ERROR);
	fault_ctl(test, LNET_FAULT_DROP_DEL, &f.lfi_attr, &f);
	KUNIT_EXPECT_EQ(test, f.lfi_count, 1U);
	fault_ctl(test, LNET_FAULT_DROP_ADD, &a, NULL);
	KUNIT_ASSERT_EQ(test, parse_put(1), 0);
	wb_wait(test, fenv(test)->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 40U);
}

static void fault_delay_rx(struct kunit *test)
{
	struct lnet_fault_attr a = attr_of(1, 0);
	struct lnet_fault_stat st;
	struct lnet_event ev;
	unsigned long t0;
	unsigned int nrecv;
	int which;

	post(test, 2, 128);		/* room for both PUTs */
	a.fa_latency = 1;
	fault_ctl(test, LNET_FAULT_DELAY_ADD, &a, NULL);

	nrecv = fake.nrecv;
	t0 = jiffies;
	KUNIT_ASSERT_EQ(test, parse_put(2), 0);
	KUNIT_EXPECT_EQ(test, fake.nrecv, nrecv);	/* not yet */
	st = rule_stat(test, LNET_FAULT_DELAY_LIST);
	KUNIT_EXPECT_EQ(test, st.fs_held, 1ULL);
	KUNIT_EXPECT_EQ(test, st.fs_put, 1ULL);
	wb_wait(test, fenv(test)->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_GE(test, jiffies - t0, (unsigned long)HZ);
	KUNIT_EXPECT_EQ(test, ev.mlength, 40U);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	st = rule_stat(test, LNET_FAULT_DELAY_LIST);
	KUNIT_EXPECT_EQ(test, st.fs_held, 0ULL);

	/* a deleted rule lets go of what it holds at once */
	fault_del_all(test);
	a.fa_latency = 600;
	fault_ctl(test, LNET_FAULT_DELAY_ADD, &a, NULL);
	KUNIT_ASSERT_EQ(test, parse_put(2), 0);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&fenv(test)->eqh, 1, WB_QUIET_MS,
					 &ev, &which), 0);
	t0 = jiffies;
	fault_del_all(test);
	wb_wait(test, fenv(test)->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_LT(test, jiffies - t0, 5UL * HZ);
}

static void fault_delay_rx_ni_stop(struct kunit *test)
{
	struct lnet_fault_attr a = attr_of(1, 0);
	unsigned int nnull = fake.nrecv_null;
	unsigned long t0;

	a.fa_latency = 600;
	fault_ctl(test, LNET_FAULT_DELAY_ADD, &a, NULL);
	KUNIT_ASSERT_EQ(test, parse_put(3), 0);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull);
	/* the NI stops: the held receive is dropped, nothing waits 600 s */
	t0 = jiffies;
	KUNIT_ASSERT_EQ(test, lnet_net_del(FAKE_NET(0)), 0);
	KUNIT_EXPECT_LT(test, jiffies - t0, 30UL * HZ);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 1);
	KUNIT_EXPECT_PTR_EQ(test, fake.last_recv.private, PRIV);
	KUNIT_EXPECT_EQ(test, rule_stat(test, LNET_FAULT_DELAY_LIST).fs_held,
			0ULL);
}

static void fault_send_side(struct kunit *test)
{
	struct fault_env *env = fenv(test);
	struct lnet_fault_attr a = attr_of(1, 0);
	struct lnet_process_id ids[1];
	struct lnet_handle_md mdh;
	struct lnet_msg *msg;
	struct lnet_event ev;
	unsigned long t0;

	mdh = wb_bind(test, wb_md(env->data, 16, LNET_MD_THRESH_INF, 0, NULL,
				  env->eqh));
	/* a health rule fails the send before the LND sees it */
	a.fa_dst = PEER;
	a.fa_health_mask = BIT(LNET_MSG_STATUS_REMOTE_DROPPED);
	fault_ctl(test, LNET_FAULT_DROP_ADD, &a, NULL);
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 9, 0, 0),
			0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -EINVAL);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	KUNIT_EXPECT_EQ(test, rule_stat(test, LNET_FAULT_DROP_LIST).fs_put,
			1ULL);
	/* a ping whose GET failed to go ends then, not at its timeout */
	t0 = jiffies;
	KUNIT_EXPECT_EQ(test, lnet_ping(wb_id(PEER, LNET_PID_LUSTRE),
					LNET_NID_ANY, 20000, ids, 1), -EINVAL);
	KUNIT_EXPECT_LT(test, jiffies - t0, 5UL * HZ);
	/* to another peer: untouched */
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(OTHER, LNET_PID_LUSTRE), PT, 9, 0, 0),
			0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	fake_done(msg, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);

	/* a delay rule holds the send, with its credits, then sends it */
	fault_del_all(test);
	a = attr_of(1, 0);
	a.fa_latency = 1;
	fault_ctl(test, LNET_FAULT_DELAY_ADD, &a, NULL);
	t0 = jiffies;
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), PT, 9, 0, 0),
			0);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_GE(test, jiffies - t0, (unsigned long)HZ);
	fake_done(msg, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, rule_stat(test, LNET_FAULT_DELAY_LIST).fs_total,
			1ULL);
}

static void fault_ioctl_errors(struct kunit *test)
{
	struct lnet_ioctl_fault f = {
		.lfi_hdr = { .ioc_len = sizeof(f),
			     .ioc_version = LNET_IOCTL_VERSION2 },
		.lfi_opc = LNET_FAULT_DROP_ADD,
		.lfi_attr = attr_of(2, 2),
	};

	KUNIT_EXPECT_EQ(test, LNetCtl(LNET_IOC_LNET_FAULT, &f), -EINVAL);
	f.lfi_opc = 8;
	KUNIT_EXPECT_EQ(test, LNetCtl(LNET_IOC_LNET_FAULT, &f), -EINVAL);
	f.lfi_opc = LNET_FAULT_DELAY_LIST;
	f.lfi_index = 0;
	KUNIT_EXPECT_EQ(test, LNetCtl(LNET_IOC_LNET_FAULT, &f), -ENOENT);
	f.lfi_hdr.ioc_len = sizeof(f) - 8;
	KUNIT_EXPECT_EQ(test, LNetCtl(LNET_IOC_LNET_FAULT, &f), -EINVAL);
}

static struct kunit_case lnet_fault_cases[] = {
	KUNIT_CASE(fault_attr_checks),
	KUNIT_CASE(fault_match_rules),
	KUNIT_CASE(fault_rate_sequence),
	KUNIT_CASE(fault_interval_sequence),
	KUNIT_CASE(fault_random_half),
	KUNIT_CASE(fault_pick_status),
	{}
};

static struct kunit_suite lnet_fault_suite = {
	.name = "lnet_fault",
	.test_cases = lnet_fault_cases,
};

static struct kunit_case lnet_fault_live_cases[] = {
	KUNIT_CASE(fault_drop_rx),
	KUNIT_CASE(fault_delay_rx),
	KUNIT_CASE(fault_delay_rx_ni_stop),
	KUNIT_CASE(fault_send_side),
	KUNIT_CASE(fault_ioctl_errors),
	{}
};

static struct kunit_suite lnet_fault_live_suite = {
	.name = "lnet_fault_live",
	.init = fault_init,
	.exit = fault_exit,
	.test_cases = lnet_fault_live_cases,
};
kunit_test_suites(&lnet_fault_suite, &lnet_fault_live_suite);
