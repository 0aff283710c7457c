// SPDX-License-Identifier: GPL-2.0
/*
 * Black-box tests of the public LNet API (include/linux/lnet/api.h):
 * LNetNIInit/Fini reference counting, local ids and distance, and event
 * queues (sizes, overflow, callbacks, polling, stale handles).
 *
 * Events are produced without traffic where possible: unlinking an idle
 * MD that names an EQ delivers exactly one UNLINK event to it.
 */
#include <linux/workqueue.h>

#include "api_test_util.h"

#define EQ_PT_CB	1	/* portal of the callback-only EQ case */

/* Bind @n idle MDs on @eqh and unlink them in order: n UNLINK events. */
static void eq_make_unlinks(struct kunit *test, struct lnet_handle_eq eqh,
			    int n, struct lnet_handle_md *mdh, void *user_ptr)
{
	u8 *buf = lat_pbuf(test, 8);
	int i;

	for (i = 0; i < n; i++) {
		mdh[i] = lat_bind(test, lat_mkmd(buf, 8, LNET_MD_THRESH_INF, 0,
						 user_ptr, eqh), LNET_UNLINK);
		KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh[i]), 0);
	}
}

static int eq_md_index(const struct lnet_handle_md *mdh, int n,
		       struct lnet_handle_md h)
{
	int i;

	for (i = 0; i < n; i++)
		if (lat_same_md(mdh[i], h))
			return i;
	return -1;
}

/* ---- LNetNIInit / LNetNIFini / LNetGetId / LNetDist ------------------- */

static void ni_init_refcount(struct kunit *test)
{
	struct lat_ctx *ctx = test->priv;
	struct lnet_process_id id;
	struct lnet_handle_eq eqh;

	/* .init holds one reference; take two more */
	KUNIT_ASSERT_EQ(test, LNetNIInit(LNET_PID_LUSTRE), 0);
	ctx->ni_refs++;
	KUNIT_ASSERT_EQ(test, LNetNIInit(LNET_PID_LUSTRE), 0);
	ctx->ni_refs++;

	eqh = lat_eq(test, 4, NULL);

	KUNIT_EXPECT_EQ(test, LNetNIFini(), 0);
	ctx->ni_refs--;
	/* still up: ids, objects made before the fini, new objects */
	KUNIT_EXPECT_EQ(test, LNetGetId(0, &id), 0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
	eqh = lat_eq(test, 4, NULL);

	KUNIT_EXPECT_EQ(test, LNetNIFini(), 0);
	ctx->ni_refs--;
	/* the suite's own reference still keeps LNet up */
	KUNIT_EXPECT_EQ(test, LNetGetId(0, &id), 0);
	KUNIT_EXPECT_EQ(test, id.nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
}

static void ni_calls_fail_after_last_fini(struct kunit *test)
{
	struct lat_ctx *ctx = test->priv;
	struct lnet_process_id id;
	struct lnet_handle_eq eqh;
	struct lnet_handle_md mdh;
	struct lnet_handle_me meh;
	u8 *buf = lat_pbuf(test, 16);
	int rc;

	/*
	 * Assumes this suite holds the only reference (nothing else in the
	 * guest uses LNet while the KUnit module runs).
	 */
	KUNIT_ASSERT_EQ(test, LNetNIFini(), 0);
	ctx->ni_refs--;

	KUNIT_EXPECT_LT(test, LNetGetId(0, &id), 0);
	rc = LNetEQAlloc(4, NULL, &eqh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (rc == 0)
		LNetEQFree(eqh);
	rc = LNetMDBind(lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0, NULL,
				 lat_no_eq()), LNET_UNLINK, &mdh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (rc == 0)
		LNetMDUnlink(mdh);
	rc = LNetMEAttach(2, lat_any(), 0, 0, LNET_UNLINK, LNET_INS_AFTER,
			  &meh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (rc == 0)
		LNetMEUnlink(meh);
	KUNIT_EXPECT_LT(test, LNetDist(LNET_NID_LO_0, NULL, NULL), 0);

	/* and LNet comes back */
	KUNIT_ASSERT_EQ(test, LNetNIInit(LNET_PID_LUSTRE), 0);
	ctx->ni_refs++;
	KUNIT_EXPECT_EQ(test, LNetGetId(0, &id), 0);
	KUNIT_EXPECT_EQ(test, id.nid, LNET_NID_LO_0);
	eqh = lat_eq(test, 2, NULL);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
}

static void ni_getid_lo(struct kunit *test)
{
	struct lnet_process_id id = { .nid = 1, .pid = 1 };

	KUNIT_ASSERT_EQ(test, LNetGetId(0, &id), 0);
	KUNIT_EXPECT_EQ(test, id.nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, id.pid, (lnet_pid_t)LNET_PID_LUSTRE);
}

static void ni_getid_past_end(struct kunit *test)
{
	struct lnet_process_id id;
	lnet_nid_t *nids;
	unsigned int i, j, n;
	int rc = 0;

	nids = kunit_kcalloc(test, 256, sizeof(*nids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nids);
	for (n = 0; n < 256; n++) {
		rc = LNetGetId(n, &id);
		if (rc)
			break;
		KUNIT_EXPECT_EQ(test, id.pid, (lnet_pid_t)LNET_PID_LUSTRE);
		nids[n] = id.nid;
	}
	KUNIT_EXPECT_EQ_MSG(test, rc, -ENOENT, "LNetGetId(%u)", n);
	KUNIT_EXPECT_GE(test, n, 1U);
	KUNIT_EXPECT_LT(test, n, 256U);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			KUNIT_EXPECT_NE_MSG(test, nids[i], nids[j],
					    "ids %u and %u", i, j);
	KUNIT_EXPECT_EQ(test, LNetGetId(n + 1, &id), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetGetId(UINT_MAX, &id), -ENOENT);
}

static void ni_dist_local(struct kunit *test)
{
	struct lnet_process_id id;
	lnet_nid_t src = 0;
	u32 order = ~0U;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, LNetDist(LNET_NID_LO_0, &src, &order), 0);
	KUNIT_EXPECT_EQ(test, src, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, LNetDist(LNET_NID_LO_0, NULL, NULL), 0);
	/* every local NI is at distance 0 */
	for (i = 0; i < 64 && LNetGetId(i, &id) == 0; i++)
		KUNIT_EXPECT_EQ_MSG(test, LNetDist(id.nid, NULL, NULL), 0,
				    "local id %u nid %llx", i, id.nid);
}

static void ni_dist_unreachable(struct kunit *test)
{
	/* o2ib4321: no such local net and no route to it */
	lnet_nid_t far = LNET_MKNID(LNET_MKNET(LNET_LND_O2IB, 4321), 7);
	lnet_nid_t src = 0;

	KUNIT_EXPECT_EQ(test, LNetDist(far, &src, NULL), -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, LNetDist(far, NULL, NULL), -EHOSTUNREACH);
}

/* ---- EQ sizes and overflow -------------------------------------------- */

static void eq_alloc_zero_needs_callback(struct kunit *test)
{
	struct lnet_handle_eq eqh;
	int rc;

	rc = LNetEQAlloc(0, NULL, &eqh);
	KUNIT_EXPECT_LT(test, rc, 0);
	if (rc == 0)
		lat_track_eq(test, eqh);

	/* with a handler, count 0 is fine */
	KUNIT_ASSERT_EQ(test, LNetEQAlloc(0, lat_mbox_cb, &eqh), 0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
}

/* @n events fit in an EQ allocated with @count: polled in order, no loss */
static void eq_expect_fit(struct kunit *test, unsigned int count, int n)
{
	struct lnet_handle_eq eqh = lat_eq(test, count, NULL);
	struct lnet_handle_md *mdh;
	struct lnet_event ev;
	unsigned long seq = 0;
	int i, rc;

	mdh = kunit_kcalloc(test, n, sizeof(*mdh), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mdh);
	eq_make_unlinks(test, eqh, n, mdh, NULL);
	msleep(100);	/* let any deferred delivery settle */
	for (i = 0; i < n; i++) {
		rc = lat_poll(eqh, LAT_WAIT_MS, &ev);
		KUNIT_ASSERT_EQ_MSG(test, rc, 1, "count %u: event %d of %d",
				    count, i, n);
		KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_UNLINK);
		KUNIT_EXPECT_EQ_MSG(test, eq_md_index(mdh, n, ev.md_handle),
				    i, "count %u: events out of order", count);
		if (i)
			KUNIT_EXPECT_GT(test, ev.sequence, seq);
		seq = ev.sequence;
	}
	KUNIT_EXPECT_EQ(test, lat_poll(eqh, 0, &ev), 0);
}

/*
 * @n > ring size events: the first poll says -EOVERFLOW and returns an
 * event that was kept (never the oldest, which was overwritten); any
 * further events come in order and without another -EOVERFLOW.
 */
static void eq_expect_overflow(struct kunit *test, unsigned int count, int n,
			       int ring)
{
	struct lnet_handle_eq eqh = lat_eq(test, count, NULL);
	struct lnet_handle_md *mdh, extra;
	struct lnet_event ev;
	unsigned long seq;
	int i, idx, rc, got = 1;

	mdh = kunit_kcalloc(test, n, sizeof(*mdh), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mdh);
	eq_make_unlinks(test, eqh, n, mdh, NULL);
	msleep(100);

	rc = lat_poll(eqh, LAT_WAIT_MS, &ev);
	KUNIT_ASSERT_EQ_MSG(test, rc, -EOVERFLOW,
			    "count %u (ring %d), %d events", count, ring, n);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_UNLINK);
	idx = eq_md_index(mdh, n, ev.md_handle);
	KUNIT_EXPECT_GE_MSG(test, idx, n - ring,
			    "overflow returned an overwritten event (%d)", idx);
	seq = ev.sequence;
	for (i = 0; i < n; i++) {
		rc = lat_poll(eqh, 0, &ev);
		if (rc == 0)
			break;
		KUNIT_ASSERT_EQ(test, rc, 1);
		got++;
		KUNIT_EXPECT_GT(test, eq_md_index(mdh, n, ev.md_handle), idx);
		KUNIT_EXPECT_GT(test, ev.sequence, seq);
		idx = eq_md_index(mdh, n, ev.md_handle);
		seq = ev.sequence;
	}
	KUNIT_EXPECT_LE(test, got, ring);
	KUNIT_EXPECT_EQ(test, idx, n - 1);	/* the newest one is kept */

	/* the EQ works normally afterwards */
	eq_make_unlinks(test, eqh, 1, &extra, NULL);
	KUNIT_ASSERT_EQ(test, lat_poll(eqh, LAT_WAIT_MS, &ev), 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, extra));
}

static void eq_round_3_to_4(struct kunit *test)
{
	eq_expect_fit(test, 3, 4);
	eq_expect_overflow(test, 3, 5, 4);
}

static void eq_round_5_to_8(struct kunit *test)
{
	eq_expect_fit(test, 5, 8);
	eq_expect_overflow(test, 5, 9, 8);
}

static void eq_count_1(struct kunit *test)
{
	eq_expect_fit(test, 1, 1);
	eq_expect_overflow(test, 1, 2, 1);
}

static void eq_overflow_far(struct kunit *test)
{
	/* many times around the ring */
	eq_expect_overflow(test, 4, 19, 4);
}

/* ---- callbacks -------------------------------------------------------- */

static void eq_callback_only(struct kunit *test)
{
	struct lat_mbox *mb = lat_mbox_new(test);
	struct lnet_handle_eq cbq = lat_eq(test, 0, lat_mbox_cb);
	struct lnet_handle_eq seq = lat_eq(test, 8, NULL);
	struct lnet_handle_md tmd, smd;
	struct lnet_event ev;
	unsigned long sequence = 0;
	u8 *src = lat_buf(test, 32, 1);
	u8 *dst = lat_pbuf(test, 4 * 32);
	int i;

	tmd = lat_post(test, EQ_PT_CB, 7,
		       lat_mkmd(dst, 4 * 32, LNET_MD_THRESH_INF,
				LNET_MD_OP_PUT, mb, cbq), NULL);
	smd = lat_bind(test, lat_mkmd(src, 32, LNET_MD_THRESH_INF, 0, NULL,
				      seq), LNET_UNLINK);
	for (i = 1; i <= 4; i++) {
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ,
					      lat_lo(), EQ_PT_CB, 7, 0, i), 0);
		lat_wait(test, seq, LNET_EVENT_SEND, &ev);
		lat_wait(test, seq, LNET_EVENT_ACK, &ev);
	}
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(tmd), 0);

	for (i = 1; i <= 4; i++) {
		lat_mbox_wait(test, mb, LNET_EVENT_PUT, &ev);
		KUNIT_EXPECT_EQ(test, ev.hdr_data, (u64)i);
		KUNIT_EXPECT_EQ(test, ev.offset, (i - 1) * 32U);
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, tmd));
		if (i > 1)
			KUNIT_EXPECT_GT(test, ev.sequence, sequence);
		sequence = ev.sequence;
	}
	lat_mbox_wait(test, mb, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_GT(test, ev.sequence, sequence);
	KUNIT_EXPECT_EQ(test, lat_mbox_get(mb, &ev, LAT_QUIET_MS), 0);
	KUNIT_EXPECT_EQ(test, mb->total, 5U);

	/* nothing is ever queued for polling */
	KUNIT_EXPECT_EQ(test, lat_poll(cbq, 0, &ev), 0);
	KUNIT_EXPECT_EQ(test, lat_poll(cbq, 100, &ev), 0);
}

static void eq_callback_with_ring(struct kunit *test)
{
	struct lat_mbox *mb = lat_mbox_new(test);
	struct lnet_handle_eq eqh = lat_eq(test, 8, lat_mbox_cb);
	struct lnet_handle_md mdh[3];
	struct lnet_event ev, cev;
	int i;

	eq_make_unlinks(test, eqh, 3, mdh, mb);
	for (i = 0; i < 3; i++) {
		lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
		lat_mbox_wait(test, mb, LNET_EVENT_UNLINK, &cev);
		/* the callback and the ring see the same event */
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh[i]));
		KUNIT_EXPECT_TRUE(test, lat_same_md(cev.md_handle, mdh[i]));
		KUNIT_EXPECT_EQ(test, ev.sequence, cev.sequence);
		KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)mb);
	}
	KUNIT_EXPECT_EQ(test, lat_poll(eqh, 0, &ev), 0);
	KUNIT_EXPECT_EQ(test, mb->total, 3U);
}

/* ---- LNetEQFree and stale handles ------------------------------------- */

static void eq_free_busy_bound(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_handle_md mdh;
	struct lnet_event ev;

	mdh = lat_bind(test, lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0, NULL,
				      eqh), LNET_UNLINK);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -EBUSY);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -EBUSY);
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), 0);
	lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -ENOENT);
}

static void eq_free_busy_attached(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	struct lnet_event ev;

	mdh = lat_post(test, 2, 1, lat_mkmd(buf, 16, LNET_MD_THRESH_INF,
					    LNET_MD_OP_PUT, NULL, eqh), &meh);
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), -EBUSY);
	/* the ME takes its MD with it */
	KUNIT_ASSERT_EQ(test, LNetMEUnlink(meh), 0);
	lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
}

static void eq_stale_after_free(struct kunit *test)
{
	struct lnet_handle_eq old, other, both[2];
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	u8 *buf = lat_pbuf(test, 16);
	int which = -1, rc;

	KUNIT_ASSERT_EQ(test, LNetEQAlloc(4, NULL, &old), 0);
	KUNIT_ASSERT_EQ(test, LNetEQFree(old), 0);
	/* a new EQ must not make the old handle valid again */
	other = lat_eq(test, 4, NULL);
	KUNIT_EXPECT_NE(test, other.cookie, old.cookie);

	KUNIT_EXPECT_EQ(test, LNetEQFree(old), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQGet(old, &ev), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&old, 1, 0, &ev, &which), -ENOENT);
	both[0] = other;
	both[1] = old;
	KUNIT_EXPECT_EQ(test, LNetEQPoll(both, 2, 0, &ev, &which), -ENOENT);
	rc = LNetMDBind(lat_mkmd(buf, 16, 1, 0, NULL, old), LNET_UNLINK, &mdh);
	KUNIT_EXPECT_EQ(test, rc, -ENOENT);
	if (!rc)
		lat_track_md(test, mdh);

	/* the live one is unharmed */
	KUNIT_EXPECT_EQ(test, LNetEQGet(other, &ev), 0);
	KUNIT_EXPECT_EQ(test, LNetEQFree(other), 0);
}

static void eq_invalid_cookie(struct kunit *test)
{
	struct lnet_handle_eq live = lat_eq(test, 4, NULL);
	struct lnet_handle_eq bad[] = {
		{ LNET_INVALID_HANDLE_COOKIE },
		{ 0 },
		{ 0x0123456789abcdefULL },
		{ live.cookie ^ (1ULL << 40) },
		{ live.cookie + 0x10000 },
	};
	struct lnet_event ev;
	unsigned int i;
	int which;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, LNetEQFree(bad[i]), -ENOENT,
				    "cookie %llx", bad[i].cookie);
		KUNIT_EXPECT_EQ_MSG(test, LNetEQGet(bad[i], &ev), -ENOENT,
				    "cookie %llx", bad[i].cookie);
		KUNIT_EXPECT_EQ_MSG(test, LNetEQPoll(&bad[i], 1, 0, &ev,
						     &which), -ENOENT,
				    "cookie %llx", bad[i].cookie);
	}
	KUNIT_EXPECT_EQ(test, LNetEQFree(live), 0);
}

static void eq_wrong_type(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_handle_eq as_eq;
	struct lnet_handle_md mdh;
	struct lnet_handle_me meh;
	struct lnet_event ev;
	int which;

	mdh = lat_post(test, 3, 1, lat_mkmd(buf, 16, LNET_MD_THRESH_INF,
					    LNET_MD_OP_PUT, NULL, eqh), &meh);

	as_eq.cookie = mdh.cookie;
	KUNIT_EXPECT_EQ(test, LNetEQFree(as_eq), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQGet(as_eq, &ev), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&as_eq, 1, 0, &ev, &which), -ENOENT);
	as_eq.cookie = meh.cookie;
	KUNIT_EXPECT_EQ(test, LNetEQFree(as_eq), -ENOENT);
	KUNIT_EXPECT_EQ(test, LNetEQGet(as_eq, &ev), -ENOENT);

	/* the objects behind those cookies are intact */
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), 0);
	lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, LNetEQFree(eqh), 0);
}

/* ---- polling ------------------------------------------------------------ */

static void eq_poll_timeout_zero(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	struct lnet_event ev;
	ktime_t t0 = ktime_get();
	s64 ms;
	int i;

	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, lat_poll(eqh, 0, &ev), 0);
	ms = ktime_ms_delta(ktime_get(), t0);
	/* ten non-waiting polls; generous for an emulated guest */
	KUNIT_EXPECT_LT(test, ms, 1000);
	KUNIT_EXPECT_EQ(test, LNetEQGet(eqh, &ev), 0);
}

static void eq_poll_timeout_positive(struct kunit *test)
{
	struct lnet_handle_eq eqh[2];
	struct lnet_event ev;
	int which = -1;
	ktime_t t0;
	s64 ms;

	eqh[0] = lat_eq(test, 4, NULL);
	eqh[1] = lat_eq(test, 4, NULL);

	t0 = ktime_get();
	KUNIT_EXPECT_EQ(test, lat_poll(eqh[0], 400, &ev), 0);
	ms = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_GE(test, ms, 390);
	KUNIT_EXPECT_LT(test, ms, 400 + 3000);

	t0 = ktime_get();
	KUNIT_EXPECT_EQ(test, LNetEQPoll(eqh, 2, 250, &ev, &which), 0);
	ms = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_GE(test, ms, 240);
	KUNIT_EXPECT_LT(test, ms, 250 + 3000);
}

struct eq_delayed_unlink {
	struct delayed_work dwork;
	struct lnet_handle_md mdh;
	int rc;
};

static void eq_delayed_unlink_fn(struct work_struct *work)
{
	struct eq_delayed_unlink *du =
		container_of(to_delayed_work(work), struct eq_delayed_unlink,
			     dwork);

	du->rc = LNetMDUnlink(du->mdh);
}

static void eq_poll_wakes_on_event(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	struct eq_delayed_unlink *du;
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_event ev;
	ktime_t t0;
	s64 ms;
	int rc;

	du = kunit_kzalloc(test, sizeof(*du), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, du);
	du->mdh = lat_bind(test, lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0, NULL,
					  eqh), LNET_UNLINK);
	INIT_DELAYED_WORK(&du->dwork, eq_delayed_unlink_fn);

	t0 = ktime_get();
	schedule_delayed_work(&du->dwork, msecs_to_jiffies(200));
	rc = lat_poll(eqh, LAT_WAIT_MS, &ev);
	ms = ktime_ms_delta(ktime_get(), t0);
	flush_delayed_work(&du->dwork);	/* before anything may abort */

	KUNIT_EXPECT_EQ(test, du->rc, 0);
	KUNIT_ASSERT_EQ(test, rc, 1);
	KUNIT_EXPECT_EQ(test, ev.type, LNET_EVENT_UNLINK);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, du->mdh));
	KUNIT_EXPECT_GE(test, ms, 150);		/* it did wait */
	KUNIT_EXPECT_LT(test, ms, LAT_WAIT_MS - 1000);	/* and woke up */
}

static void eq_poll_which(struct kunit *test)
{
	struct lnet_handle_eq eqh[3];
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	static const int order[] = { 2, 0, 1, 2 };
	unsigned int i;
	int which, rc;

	for (i = 0; i < 3; i++)
		eqh[i] = lat_eq(test, 4, NULL);

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		eq_make_unlinks(test, eqh[order[i]], 1, &mdh, NULL);
		which = -1;
		rc = LNetEQPoll(eqh, 3, LAT_WAIT_MS, &ev, &which);
		KUNIT_ASSERT_EQ(test, rc, 1);
		KUNIT_EXPECT_EQ(test, which, order[i]);
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	}
	KUNIT_EXPECT_EQ(test, LNetEQPoll(eqh, 3, 0, &ev, &which), 0);

	/* an event on an EQ that is not polled is not seen */
	eq_make_unlinks(test, eqh[1], 1, &mdh, NULL);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(&eqh[2], 1, 100, &ev, &which), 0);
	KUNIT_EXPECT_EQ(test, LNetEQPoll(eqh, 1, 100, &ev, &which), 0);
	which = -1;
	KUNIT_EXPECT_EQ(test, LNetEQPoll(eqh, 2, LAT_WAIT_MS, &ev, &which), 1);
	KUNIT_EXPECT_EQ(test, which, 1);
}

static void eq_get_and_wait(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 4, NULL);
	struct lnet_handle_md mdh;
	struct eq_delayed_unlink *net;
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_event ev;
	int rc;

	KUNIT_EXPECT_EQ(test, LNetEQGet(eqh, &ev), 0);
	eq_make_unlinks(test, eqh, 1, &mdh, NULL);
	msleep(50);
	KUNIT_ASSERT_EQ(test, LNetEQGet(eqh, &ev), 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
	KUNIT_EXPECT_EQ(test, LNetEQGet(eqh, &ev), 0);

	/*
	 * LNetEQWait waits forever: a safety net makes a second event 3 s
	 * later so a lost event fails the case instead of hanging it.
	 */
	net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, net);
	net->mdh = lat_bind(test, lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0,
					   NULL, eqh), LNET_UNLINK);
	INIT_DELAYED_WORK(&net->dwork, eq_delayed_unlink_fn);
	eq_make_unlinks(test, eqh, 1, &mdh, NULL);
	schedule_delayed_work(&net->dwork, msecs_to_jiffies(3000));
	rc = LNetEQWait(eqh, &ev);
	cancel_delayed_work_sync(&net->dwork);
	KUNIT_ASSERT_EQ(test, rc, 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh));
}

static void eq_poll_forever(struct kunit *test)
{
	struct lnet_handle_eq eqh[2];
	struct eq_delayed_unlink *du, *net;
	u8 *buf = lat_pbuf(test, 16);
	struct lnet_event ev;
	int which = -1, rc;
	ktime_t t0;
	s64 ms;

	eqh[0] = lat_eq(test, 4, NULL);
	eqh[1] = lat_eq(test, 4, NULL);
	du = kunit_kzalloc(test, sizeof(*du), GFP_KERNEL);
	net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, du);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, net);
	du->mdh = lat_bind(test, lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0, NULL,
					  eqh[1]), LNET_UNLINK);
	/* safety net, as in eq_get_and_wait */
	net->mdh = lat_bind(test, lat_mkmd(buf, 16, LNET_MD_THRESH_INF, 0,
					   NULL, eqh[0]), LNET_UNLINK);
	INIT_DELAYED_WORK(&du->dwork, eq_delayed_unlink_fn);
	INIT_DELAYED_WORK(&net->dwork, eq_delayed_unlink_fn);

	t0 = ktime_get();
	schedule_delayed_work(&du->dwork, msecs_to_jiffies(300));
	schedule_delayed_work(&net->dwork, msecs_to_jiffies(4000));
	/* a negative timeout waits as long as it takes */
	rc = LNetEQPoll(eqh, 2, -1, &ev, &which);
	ms = ktime_ms_delta(ktime_get(), t0);
	flush_delayed_work(&du->dwork);
	cancel_delayed_work_sync(&net->dwork);

	KUNIT_ASSERT_EQ(test, rc, 1);
	KUNIT_EXPECT_EQ(test, which, 1);
	KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, du->mdh));
	KUNIT_EXPECT_GE(test, ms, 250);
	KUNIT_EXPECT_LT(test, ms, 4000);
}

static void eq_unlink_event_fields(struct kunit *test)
{
	struct lnet_handle_eq eqh = lat_eq(test, 8, NULL);
	struct lnet_handle_md mdh[3];
	struct lnet_event ev;
	unsigned long seq = 0;
	u8 *buf = lat_pbuf(test, 64);
	int i;

	for (i = 0; i < 3; i++)
		mdh[i] = lat_bind(test, lat_mkmd(buf + i, 10 + i,
						 LNET_MD_THRESH_INF,
						 LNET_MD_OP_PUT, &mdh[i], eqh),
				  LNET_UNLINK);
	for (i = 2; i >= 0; i--)
		KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh[i]), 0);
	for (i = 2; i >= 0; i--) {
		lat_wait(test, eqh, LNET_EVENT_UNLINK, &ev);
		KUNIT_EXPECT_TRUE(test, lat_same_md(ev.md_handle, mdh[i]));
		KUNIT_EXPECT_EQ(test, ev.status, 0);
		KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
		KUNIT_EXPECT_PTR_EQ(test, ev.md.user_ptr, (void *)&mdh[i]);
		KUNIT_EXPECT_PTR_EQ(test, ev.md.start, (void *)(buf + i));
		KUNIT_EXPECT_EQ(test, ev.md.length, 10U + i);
		KUNIT_EXPECT_EQ(test, ev.md.options, LNET_MD_OP_PUT);
		if (i < 2)
			KUNIT_EXPECT_GT(test, ev.sequence, seq);
		seq = ev.sequence;
		/* the MD is gone after its unlinked event */
		KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh[i]), -ENOENT);
	}
	lat_quiet(test, eqh, "after the last UNLINK");
}

static struct kunit_case lnet_api_eq_cases[] = {
	KUNIT_CASE(ni_init_refcount),
	KUNIT_CASE(ni_calls_fail_after_last_fini),
	KUNIT_CASE(ni_getid_lo),
	KUNIT_CASE(ni_getid_past_end),
	KUNIT_CASE(ni_dist_local),
	KUNIT_CASE(ni_dist_unreachable),
	KUNIT_CASE(eq_alloc_zero_needs_callback),
	KUNIT_CASE(eq_round_3_to_4),
	KUNIT_CASE(eq_round_5_to_8),
	KUNIT_CASE(eq_count_1),
	KUNIT_CASE(eq_overflow_far),
	KUNIT_CASE(eq_callback_only),
	KUNIT_CASE(eq_callback_with_ring),
	KUNIT_CASE(eq_free_busy_bound),
	KUNIT_CASE(eq_free_busy_attached),
	KUNIT_CASE(eq_stale_after_free),
	KUNIT_CASE(eq_invalid_cookie),
	KUNIT_CASE(eq_wrong_type),
	KUNIT_CASE(eq_poll_timeout_zero),
	KUNIT_CASE(eq_poll_timeout_positive),
	KUNIT_CASE(eq_poll_wakes_on_event),
	KUNIT_CASE(eq_poll_which),
	KUNIT_CASE(eq_get_and_wait),
	KUNIT_CASE(eq_poll_forever),
	KUNIT_CASE(eq_unlink_event_fields),
	{}
};

static struct kunit_suite lnet_api_eq_suite = {
	.name = "lnet_api_eq",
	.init = lat_init,
	.exit = lat_exit,
	.test_cases = lnet_api_eq_cases,
};
kunit_test_suite(lnet_api_eq_suite);
