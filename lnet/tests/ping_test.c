// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of ping (Documentation/wire/routing-health-multirail.md):
 * the ping info this node publishes, the validation of received ones
 * (byte-swapped, truncated, malformed), the responder answering a peer's
 * GET the way a Lustre node's "lctl ping" expects, and the in-kernel ping
 * client.
 */
#include <linux/delay.h>
#include <linux/swab.h>
#include <linux/workqueue.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define PEER	FAKE_PEER(0, 9)

static int ping_init(struct kunit *test)
{
	int rc = wb_init(test);

	if (rc)
		return rc;
	rc = fake_lnd_setup(test, 1, 0, 0);
	if (rc) {
		LNetNIFini();
		test->priv = NULL;
		return rc;
	}
	fake.send_mode = FAKE_SEND_COMPLETE;
	return 0;
}

static void ping_exit(struct kunit *test)
{
	if (!test->priv)
		return;
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static size_t fill(void *buf, size_t size)
{
	size_t need;

	mutex_lock(&lnet_core.api_mutex);
	need = lnet_ping_info_fill(buf, size, lnet_core.ping.seq);
	mutex_unlock(&lnet_core.api_mutex);
	return need;
}

static void ping_info_layout(struct kunit *test)
{
	struct lnet_ping_info *info;
	size_t need;
	unsigned int i;

	info = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	need = fill(info, 4096);
	KUNIT_EXPECT_EQ(test, need, lnet_ping_info_size(lnet_core.nni));
	KUNIT_EXPECT_EQ(test, info->magic, 0x70696E67U);
	/* NI_STATUS|RTE_DISABLED|MULTI_RAIL, and DISCOVERY if on */
	KUNIT_EXPECT_EQ(test, info->features,
			0x0EU | (lnet_discovery_enabled() ? 0x10U : 0));
	KUNIT_EXPECT_EQ(test, info->pid, (u32)LNET_PID_LUSTRE);
	KUNIT_EXPECT_EQ(test, info->nnis, lnet_core.nni);
	KUNIT_ASSERT_GE(test, info->nnis, 2U);		/* lo + fake */
	KUNIT_EXPECT_EQ(test, info->ni[0].nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, info->ni[0].status, lnet_core.ping.seq);
	for (i = 1; i < info->nnis; i++) {
		KUNIT_EXPECT_EQ(test, info->ni[i].status, LNET_NI_STATUS_UP);
		KUNIT_EXPECT_EQ(test, info->ni[i].msg_size, 0U);
	}
	KUNIT_EXPECT_EQ(test, info->ni[info->nnis - 1].nid,
			FAKE_NID(0, FAKE_MY_ADDR));
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, need),
			(int)info->nnis);
}

static void ping_info_small_buffer(struct kunit *test)
{
	u8 buf[24];

	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, fill(buf, 20), lnet_ping_info_size(lnet_core.nni));
	KUNIT_EXPECT_EQ(test, ((struct lnet_ping_info *)buf)->magic,
			LNET_PROTO_PING_MAGIC);
	KUNIT_EXPECT_EQ(test, buf[16], 0);	/* no partial entry */
	KUNIT_EXPECT_EQ(test, buf[20], 0xa5);	/* nothing past @size */
}

static struct lnet_ping_info *make_info(struct kunit *test, unsigned int n)
{
	struct lnet_ping_info *info;
	unsigned int i;

	info = kunit_kzalloc(test, lnet_ping_info_size(n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	info->magic = LNET_PROTO_PING_MAGIC;
	info->features = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL;
	info->pid = 12345;
	info->nnis = n;
	info->ni[0].nid = LNET_NID_LO_0;
	info->ni[0].status = 7;
	for (i = 1; i < n; i++) {
		info->ni[i].nid = 0x00020000C0000200ULL + i;
		info->ni[i].status = LNET_NI_STATUS_UP;
	}
	return info;
}

static void ping_check_swapped(struct kunit *test)
{
	struct lnet_ping_info *info = make_info(test, 3);
	unsigned int i;

	info->magic = swab32(info->magic);
	info->features = swab32(info->features);
	info->pid = swab32(info->pid);
	info->nnis = swab32(info->nnis);
	for (i = 0; i < 3; i++) {
		info->ni[i].nid = swab64(info->ni[i].nid);
		info->ni[i].status = swab32(info->ni[i].status);
	}
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info,
						   lnet_ping_info_size(3)), 3);
	KUNIT_EXPECT_EQ(test, info->magic, LNET_PROTO_PING_MAGIC);
	KUNIT_EXPECT_EQ(test, info->pid, 12345U);
	KUNIT_EXPECT_EQ(test, info->ni[0].status, 7U);
	KUNIT_EXPECT_EQ(test, info->ni[2].nid, 0x00020000C0000202ULL);
	KUNIT_EXPECT_EQ(test, info->ni[2].status, LNET_NI_STATUS_UP);
}

/* max_interfaces (lnetctl set; Lustre 2.17.0 exports 200) bounds the count */
static void ping_check_interfaces_max(struct kunit *test)
{
	int saved = lnet_tunable(&lnet_interfaces_max);
	struct lnet_ping_info *info = make_info(test, 3);
	size_t sz = lnet_ping_info_size(3);

	WRITE_ONCE(lnet_interfaces_max.value, LNET_INTERFACES_MIN);
	info->nnis = LNET_INTERFACES_MIN;	/* 3 entries came: 3 are used */
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), 3);
	info->nnis = LNET_INTERFACES_MIN + 1;
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -ERANGE);
	WRITE_ONCE(lnet_interfaces_max.value, 200);
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), 3);
	info->nnis = 201;
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -ERANGE);
	WRITE_ONCE(lnet_interfaces_max.value, saved);
}

static void ping_check_malformed(struct kunit *test)
{
	struct lnet_ping_info *info;
	size_t sz = lnet_ping_info_size(3);

	info = make_info(test, 3);
	info->magic = 0x12345678;
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -EPROTO);
	info = make_info(test, 3);
	info->features = LNET_PING_FEAT_MULTI_RAIL;	/* no NI_STATUS */
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -EPROTO);
	info = make_info(test, 3);
	info->nnis = 0;
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -ERANGE);
	info->nnis = lnet_tunable(&lnet_interfaces_max) + 1;
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -ERANGE);
	info = make_info(test, 3);
	info->ni[0].nid = 0x00020000C0000201ULL;	/* entry 0 must be lo */
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, sz), -EPROTO);
	info = make_info(test, 3);
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, 31), -EPROTO);
}

static void ping_check_truncated(struct kunit *test)
{
	struct lnet_ping_info *info = make_info(test, 5);

	/* two whole entries and half of a third arrived */
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info,
						   lnet_ping_info_size(2) + 8),
			2);
}

static void ping_client_lo(struct kunit *test)
{
	struct lnet_process_id ids[16], me;
	int rc, i;

	rc = lnet_ping(wb_id(LNET_NID_LO_0, LNET_PID_ANY), LNET_NID_ANY, 2000,
		       ids, ARRAY_SIZE(ids));
	KUNIT_ASSERT_EQ(test, rc, (int)lnet_core.nni);
	for (i = 0; i < rc; i++) {
		KUNIT_EXPECT_EQ(test, LNetGetId(i, &me), 0);
		KUNIT_EXPECT_EQ(test, ids[i].nid, me.nid);
		KUNIT_EXPECT_EQ(test, ids[i].pid, (u32)LNET_PID_LUSTRE);
	}
	/* room for one: still a valid answer */
	KUNIT_EXPECT_EQ(test, lnet_ping(wb_lo(), LNET_NID_ANY, 2000, ids, 1),
			1);
	KUNIT_EXPECT_EQ(test, lnet_ping(wb_lo(), LNET_NID_ANY, 0, ids, 1),
			-EINVAL);
}

/* A peer that never answers: the ping times out and cleans up. */
static void ping_client_timeout(struct kunit *test)
{
	struct lnet_process_id ids[4];
	ktime_t t0 = ktime_get();

	KUNIT_EXPECT_EQ(test, lnet_ping(wb_id(PEER, LNET_PID_ANY),
					LNET_NID_ANY, 300, ids, 4),
			-ETIMEDOUT);
	KUNIT_EXPECT_GE(test, ktime_ms_delta(ktime_get(), t0), 290);
	KUNIT_EXPECT_EQ(test, fake.nsend, 1U);
}

/* A peer's GET on portal 0 (what "lctl ping" sends) gets the info. */
/* A peer's GET of our ping info, answered through the fake LND. */
static struct lnet_ping_info *ping_served(struct kunit *test,
					  unsigned int *lenp)
{
	struct lnet_ping_info *info;
	struct lnet_msg *reply;
	struct lnet_hdr hdr;
	struct iov_iter to;
	struct kvec kv;
	unsigned int len;

	fake.send_mode = FAKE_SEND_HOLD;
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 0);
	hdr.msg.get.ptl_index = LNET_RESERVED_PORTAL;
	hdr.msg.get.match_bits = LNET_PROTO_PING_MATCHBITS;
	hdr.msg.get.sink_length = 3960;
	hdr.msg.get.return_wmd.wh_object_cookie = 0x77;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, PEER, NULL, false),
			0);
	reply = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	len = reply->hdr.payload_length;
	KUNIT_EXPECT_EQ(test, reply->hdr.type, (u32)LNET_MSG_REPLY);
	KUNIT_EXPECT_EQ(test, reply->hdr.dest_nid, PEER);
	KUNIT_EXPECT_EQ(test, reply->hdr.src_nid, FAKE_NID(0, FAKE_MY_ADDR));
	KUNIT_EXPECT_EQ(test, reply->hdr.msg.reply.dst_wmd.wh_object_cookie,
			0x77ULL);

	info = kunit_kzalloc(test, 3960, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	kv.iov_base = info;
	kv.iov_len = 3960;
	iov_iter_kvec(&to, ITER_DEST, &kv, 1, 3960);
	KUNIT_EXPECT_EQ(test, lnet_msg_copy_to_iter(reply, len, &to),
			(size_t)len);
	fake_done(reply, 0);
	*lenp = len;
	return info;
}

static void ping_responder(struct kunit *test)
{
	struct lnet_ping_info *info;
	unsigned int len;

	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, len, (unsigned int)lnet_ping_info_size(lnet_core.nni));
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, len),
			(int)lnet_core.nni);
	KUNIT_EXPECT_EQ(test, info->ni[0].nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, info->ni[lnet_core.nni - 1].nid,
			FAKE_NID(0, FAKE_MY_ADDR));
}

/*
 * An NI whose health falls to 0 says DOWN in the info served, and UP
 * again only once its health is full; the sequence does not change.
 */
static void ping_ni_health_down(struct kunit *test)
{
	lnet_nid_t nid = FAKE_NID(0, FAKE_MY_ADDR);
	unsigned int last = lnet_core.nni - 1, len;
	u32 seq = lnet_core.ping.seq;
	struct lnet_ping_info *info;

	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(nid, false, 0), 0);
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].nid, nid);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_EQ(test, info->ni[0].status, seq);

	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(nid, false, 500), 0);
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_DOWN);

	KUNIT_ASSERT_EQ(test, lnet_ni_set_health(nid, false, LNET_MAX_HEALTH),
			0);
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_UP);
	KUNIT_EXPECT_EQ(test, lnet_core.ping.seq, seq);
}

/*
 * An NI whose interface loses its link says DOWN in the info served, and
 * UP when the link is back; an NI on another interface is not touched.
 */
static void ping_ni_link_down(struct kunit *test)
{
	struct lnet_net_config cfg = {
		.net_id = FAKE_NET(2), .n_ifaces = 1, .ifaces = { "lnt_nodev9" },
	};
	unsigned int last, len;
	struct lnet_ping_info *info;

	/* no such device: taken as up */
	KUNIT_ASSERT_EQ(test, lnet_net_add(&cfg, NULL), 0);
	last = lnet_core.nni - 1;
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].nid, FAKE_NID(2, FAKE_MY_ADDR));
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_UP);

	lnet_link_changed("lnt_nodev9", false);
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_EQ(test, info->ni[last - 1].status, LNET_NI_STATUS_UP);
	lnet_link_changed("lnt_nodev8", true);	/* another interface */
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_DOWN);

	lnet_link_changed("lnt_nodev9", true);
	lnet_ping_status_flush();
	info = ping_served(test, &len);
	KUNIT_EXPECT_EQ(test, info->ni[last].status, LNET_NI_STATUS_UP);
	KUNIT_EXPECT_EQ(test, lnet_net_del(FAKE_NET(2)), 0);
}

/* Bringing a network up or down changes the info and its sequence. */
static void ping_seq_bumps(struct kunit *test)
{
	struct lnet_net_config cfg = { .net_id = FAKE_NET(2) };
	u32 seq = lnet_core.ping.seq;
	struct lnet_process_id ids[8];
	int n = lnet_core.nni;

	KUNIT_ASSERT_EQ(test, lnet_net_add(&cfg, NULL), 0);
	KUNIT_EXPECT_EQ(test, lnet_core.ping.seq, seq + 1);
	KUNIT_EXPECT_EQ(test, lnet_ping(wb_lo(), LNET_NID_ANY, 2000, ids, 8),
			n + 1);
	KUNIT_EXPECT_EQ(test, ids[n].nid, FAKE_NID(2, FAKE_MY_ADDR));
	KUNIT_ASSERT_EQ(test, lnet_net_del(FAKE_NET(2)), 0);
	KUNIT_EXPECT_EQ(test, lnet_core.ping.seq, seq + 2);
	KUNIT_EXPECT_EQ(test, lnet_ping(wb_lo(), LNET_NID_ANY, 2000, ids, 8),
			n);
}

struct ping_add_work {
	struct work_struct	work;
	struct completion	done;
	int			rc;
};

static void ping_add_net(struct work_struct *work)
{
	struct ping_add_work *w = container_of(work, struct ping_add_work,
					       work);
	struct lnet_net_config cfg = { .net_id = FAKE_NET(2) };

	w->rc = lnet_net_add(&cfg, NULL);
	complete(&w->done);
}

/*
 * A REPLY still reading the ping info (a slow peer) does not hold up the
 * NI change that replaces the info: the old buffer stays alive for that
 * REPLY and is freed once it is done.
 */
static void ping_update_reply_in_flight(struct kunit *test)
{
	struct ping_add_work w = { .rc = -EINPROGRESS };
	unsigned int len, nni = lnet_core.nni;
	struct lnet_ping_info *info;
	struct lnet_msg *reply;
	struct lnet_hdr hdr;
	struct iov_iter to;
	bool in_time;
	struct kvec kv;
	int i;

	info = kunit_kzalloc(test, 3960, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	fake.send_mode = FAKE_SEND_HOLD;
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 0);
	hdr.msg.get.ptl_index = LNET_RESERVED_PORTAL;
	hdr.msg.get.match_bits = LNET_PROTO_PING_MATCHBITS;
	hdr.msg.get.sink_length = 3960;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, PEER, NULL, false),
			0);
	reply = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	len = reply->hdr.payload_length;

	INIT_WORK_ONSTACK(&w.work, ping_add_net);
	init_completion(&w.done);
	schedule_work(&w.work);
	in_time = wait_for_completion_timeout(&w.done, 5 * HZ);
	KUNIT_EXPECT_TRUE_MSG(test, in_time,
			      "the NI change waited for the REPLY");
	if (in_time) {
		KUNIT_EXPECT_EQ(test, w.rc, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&lnet_core.ping.retiring),
				1);
	}

	/* the REPLY still reads the info it started with */
	kv.iov_base = info;
	kv.iov_len = 3960;
	iov_iter_kvec(&to, ITER_DEST, &kv, 1, 3960);
	KUNIT_EXPECT_EQ(test, lnet_msg_copy_to_iter(reply, len, &to),
			(size_t)len);
	KUNIT_EXPECT_EQ(test, lnet_ping_info_check(info, len), (int)nni);
	fake_done(reply, 0);
	if (!in_time)		/* the unfixed update returns only now */
		wait_for_completion(&w.done);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	for (i = 0; i < 100 && atomic_read(&lnet_core.ping.retiring); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&lnet_core.ping.retiring), 0);
	if (!w.rc)
		KUNIT_EXPECT_EQ(test, lnet_net_del(FAKE_NET(2)), 0);
}

static struct kunit_case lnet_ping_cases[] = {
	KUNIT_CASE(ping_info_layout),
	KUNIT_CASE(ping_info_small_buffer),
	KUNIT_CASE(ping_check_swapped),
	KUNIT_CASE(ping_check_malformed),
	KUNIT_CASE(ping_check_interfaces_max),
	KUNIT_CASE(ping_check_truncated),
	KUNIT_CASE(ping_client_lo),
	KUNIT_CASE(ping_client_timeout),
	KUNIT_CASE(ping_responder),
	KUNIT_CASE(ping_ni_health_down),
	KUNIT_CASE(ping_ni_link_down),
	KUNIT_CASE(ping_seq_bumps),
	KUNIT_CASE(ping_update_reply_in_flight),
	{}
};

static struct kunit_suite lnet_ping_suite = {
	.name = "lnet_ping",
	.init = ping_init,
	.exit = ping_exit,
	.test_cases = lnet_ping_cases,
};
kunit_test_suite(lnet_ping_suite);
