// SPDX-License-Identifier: GPL-2.0
/*
 * White-box stress of the loopback data path: kthreads PUT and GET for a
 * few seconds on private and shared MDs and EQs, checking every event and
 * byte; callbacks check that one MD's events never overlap and come in
 * order; MDs are attached and unlinked under traffic. Afterwards the core
 * must be back at rest: no message and no ME left.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/lnet/lib-lnet.h>
#include "wb_util.h"

#define ST_THREADS	4
#define ST_MS		3000
#define ST_REGION	1024
#define ST_PT_SHARED	55
#define ST_PT_PRIV	56	/* + thread index */
#define ST_PT_CHURN	61

/* What a callback-only EQ learns about one target MD. */
struct st_md_watch {
	atomic_t	in_cb;		/* callbacks running right now */
	unsigned long	last_seq;
	unsigned long	events;
	unsigned long	unlinked;	/* events with unlinked set */
	bool		after_unlink;	/* an event came after that */
	bool		overlap;
	bool		disorder;
};

struct st_shared {
	struct lnet_handle_eq	cbq;	/* callback-only, all target MDs */
	struct st_md_watch	watch[ST_THREADS + 1];	/* last: shared MD */
	u8			*tbuf;	/* shared target: one region each */
	unsigned long		deadline;
};

struct st_thread {
	struct completion	done;
	struct st_shared	*sh;
	int			id;
	unsigned long		iters;
	int			rc;
	char			err[128];
};

static void st_cb(struct lnet_event *ev)
{
	struct st_md_watch *w = ev->md.user_ptr;

	if (atomic_inc_return(&w->in_cb) != 1)
		w->overlap = true;
	if (w->events && ev->sequence <= w->last_seq)
		w->disorder = true;
	if (w->unlinked)
		w->after_unlink = true;
	w->last_seq = ev->sequence;
	w->events++;
	if (ev->unlinked)
		w->unlinked++;
	atomic_dec(&w->in_cb);
}

static int st_fail(struct st_thread *t, const char *what, int rc)
{
	if (!t->rc) {
		t->rc = rc ?: -EIO;
		snprintf(t->err, sizeof(t->err), "iter %lu: %s (%d)", t->iters,
			 what, rc);
	}
	return t->rc;
}

static int st_event(struct st_thread *t, struct lnet_handle_eq eqh,
		    enum lnet_event_kind type, unsigned int mlength)
{
	struct lnet_event ev;
	int which, rc;

	rc = LNetEQPoll(&eqh, 1, WB_WAIT_MS, &ev, &which);
	if (rc != 1)
		return st_fail(t, "no event", rc);
	if (ev.type != type || ev.status || ev.mlength != mlength)
		return st_fail(t, "wrong event", ev.type * 1000 + ev.status);
	return 0;
}

/* PUT @src to @portal at @offset, then GET it back into @sink and compare. */
static int st_roundtrip(struct st_thread *t, struct lnet_handle_eq eqh,
			struct lnet_handle_md smd, struct lnet_handle_md kmd,
			const u8 *src, u8 *sink, unsigned int len,
			unsigned int portal, u64 bits, unsigned int offset)
{
	int rc;

	rc = LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ, wb_lo(), portal, bits,
		     offset, t->id);
	if (rc)
		return st_fail(t, "LNetPut", rc);
	if (st_event(t, eqh, LNET_EVENT_SEND, len) ||
	    st_event(t, eqh, LNET_EVENT_ACK, len))
		return t->rc;
	memset(sink, 0, len);
	rc = LNetGet(LNET_NID_ANY, kmd, wb_lo(), portal, bits, offset);
	if (rc)
		return st_fail(t, "LNetGet", rc);
	if (st_event(t, eqh, LNET_EVENT_SEND, 0) ||
	    st_event(t, eqh, LNET_EVENT_REPLY, len))
		return t->rc;
	if (memcmp(sink, src, len))
		return st_fail(t, "data differs", 0);
	return 0;
}

static int st_thread_fn(void *arg)
{
	struct st_thread *t = arg;
	struct st_shared *sh = t->sh;
	struct lnet_handle_md smd, kmd, tmd;
	struct lnet_handle_me meh;
	struct lnet_handle_eq eqh;
	u8 *src, *sink, *priv;
	unsigned int i;

	src = kmalloc(ST_REGION, GFP_KERNEL);
	sink = kmalloc(ST_REGION, GFP_KERNEL);
	priv = kmalloc(ST_REGION, GFP_KERNEL);
	if (!src || !sink || !priv) {
		st_fail(t, "no memory", -ENOMEM);
		goto out_free;
	}
	if (LNetEQAlloc(16, NULL, &eqh)) {
		st_fail(t, "LNetEQAlloc", -ENOMEM);
		goto out_free;
	}
	/* a private target: exact ME on the thread's own portal */
	if (LNetMEAttach(ST_PT_PRIV + t->id, wb_lo(), t->id, 0, LNET_UNLINK,
			 LNET_INS_AFTER, &meh) ||
	    LNetMDAttach(meh, wb_md(priv, ST_REGION, LNET_MD_THRESH_INF,
				    LNET_MD_OP_PUT | LNET_MD_OP_GET |
				    LNET_MD_MANAGE_REMOTE, &sh->watch[t->id],
				    sh->cbq), LNET_UNLINK, &tmd)) {
		st_fail(t, "posting", -EINVAL);
		goto out_eq;
	}
	if (LNetMDBind(wb_md(src, ST_REGION, LNET_MD_THRESH_INF, 0, NULL, eqh),
		       LNET_UNLINK, &smd) ||
	    LNetMDBind(wb_md(sink, ST_REGION, LNET_MD_THRESH_INF, 0, NULL, eqh),
		       LNET_UNLINK, &kmd)) {
		st_fail(t, "binding", -EINVAL);
		goto out_me;
	}

	while (time_before(jiffies, sh->deadline) && !t->rc) {
		for (i = 0; i < ST_REGION; i++)
			src[i] = t->id * 31 + t->iters * 7 + i;
		if (st_roundtrip(t, eqh, smd, kmd, src, sink, ST_REGION,
				 ST_PT_SHARED, 0, t->id * ST_REGION) ||
		    st_roundtrip(t, eqh, smd, kmd, src, sink, ST_REGION,
				 ST_PT_PRIV + t->id, t->id, 0))
			break;
		t->iters++;
		cond_resched();
	}

	LNetMDUnlink(smd);
	LNetMDUnlink(kmd);
	/* two UNLINKs; EQFree waits for nothing else */
	st_event(t, eqh, LNET_EVENT_UNLINK, 0);
	st_event(t, eqh, LNET_EVENT_UNLINK, 0);
out_me:
	LNetMEUnlink(meh);
out_eq:
	if (LNetEQFree(eqh))
		st_fail(t, "LNetEQFree", -EBUSY);
out_free:
	kfree(src);
	kfree(sink);
	kfree(priv);
	complete(&t->done);
	return 0;
}

static bool st_wait_all(struct kunit *test, struct st_thread *t, int n)
{
	bool ok = true;
	int i;

	for (i = 0; i < n; i++) {
		/* slices of a second keep the hung-task detector quiet */
		unsigned long end = jiffies + msecs_to_jiffies(ST_MS + 30000);
		unsigned long done;

		do {
			done = wait_for_completion_timeout(&t[i].done, HZ);
		} while (!done && time_before(jiffies, end));
		if (!done) {
			KUNIT_FAIL(test, "thread %d hangs", i);
			ok = false;
		}
	}
	return ok;
}

/* The core is idle: every message freed, no ME left. */
static void st_expect_rest(struct kunit *test)
{
	struct lnet_ptl_stats st;
	int i;

	for (i = 0; i < 100 && percpu_counter_sum(&lnet_core.msg_count); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(&lnet_core.msg_count), 0LL);
	for (i = ST_PT_SHARED; i <= ST_PT_CHURN; i++) {
		KUNIT_ASSERT_EQ(test, lnet_ptl_get_stats(i, &st), 0);
		KUNIT_EXPECT_EQ_MSG(test, st.nme, 0U, "portal %d", i);
		KUNIT_EXPECT_EQ_MSG(test, st.ndelayed, 0U, "portal %d", i);
	}
}

static void stress_shared_and_private(struct kunit *test)
{
	struct st_thread *t;
	struct st_shared *sh;
	struct lnet_handle_me meh;
	struct lnet_handle_md tmd;
	int i;

	sh = kunit_kzalloc(test, sizeof(*sh), GFP_KERNEL);
	t = kunit_kcalloc(test, ST_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sh);
	KUNIT_ASSERT_NOT_NULL(test, t);
	sh->tbuf = kunit_kzalloc(test, ST_THREADS * ST_REGION, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sh->tbuf);
	KUNIT_ASSERT_EQ(test, LNetEQAlloc(0, st_cb, &sh->cbq), 0);
	meh = wb_me(test, ST_PT_SHARED, wb_any(), 0, 0);
	KUNIT_ASSERT_EQ(test, LNetMDAttach(meh, wb_md(sh->tbuf,
						      ST_THREADS * ST_REGION,
						      LNET_MD_THRESH_INF,
						      LNET_MD_OP_PUT |
						      LNET_MD_OP_GET |
						      LNET_MD_MANAGE_REMOTE,
						      &sh->watch[ST_THREADS],
						      sh->cbq),
					   LNET_UNLINK, &tmd), 0);
	sh->deadline = jiffies + msecs_to_jiffies(ST_MS);

	for (i = 0; i < ST_THREADS; i++) {
		init_completion(&t[i].done);
		t[i].sh = sh;
		t[i].id = i;
		if (IS_ERR(kthread_run(st_thread_fn, &t[i], "lnet_st%d", i))) {
			t[i].rc = -ECHILD;
			complete(&t[i].done);
		}
	}
	if (!st_wait_all(test, t, ST_THREADS))
		return;		/* leave it all: memory must stay valid */
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), 0);

	for (i = 0; i < ST_THREADS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, t[i].rc, 0, "thread %d: %s", i,
				    t[i].err);
		KUNIT_EXPECT_GT(test, t[i].iters, 0UL);
		kunit_info(test, "thread %d: %lu round trips\n", i,
			   t[i].iters);
	}
	for (i = 0; i <= ST_THREADS; i++) {
		struct st_md_watch *w = &sh->watch[i];
		/* shared: 2 per round trip per thread, + UNLINK */
		unsigned long want = 1;
		int j;

		for (j = 0; j < ST_THREADS; j++)
			if (i == ST_THREADS || i == j)
				want += 2 * t[j].iters;
		KUNIT_EXPECT_FALSE_MSG(test, w->overlap, "MD %d", i);
		KUNIT_EXPECT_FALSE_MSG(test, w->disorder, "MD %d", i);
		KUNIT_EXPECT_FALSE_MSG(test, w->after_unlink, "MD %d", i);
		KUNIT_EXPECT_EQ_MSG(test, w->unlinked, 1UL, "MD %d", i);
		/* a thread's last trip may have failed half-way */
		KUNIT_EXPECT_GE_MSG(test, w->events, want, "MD %d", i);
		KUNIT_EXPECT_LE_MSG(test, w->events,
				    want + 2 * ST_THREADS, "MD %d", i);
	}
	KUNIT_EXPECT_EQ(test, LNetEQFree(sh->cbq), 0);
	st_expect_rest(test);
}

/* ---- MDs attached and unlinked while PUTs hit the portal ----------------- */

struct churn {
	struct lnet_handle_eq	cbq;
	struct st_md_watch	watch[64];
	u8			buf[64][16];
	unsigned long		deadline;
	struct completion	done[2];
	unsigned long		puts, posts;
	int			rc;
};

static int churn_poster(void *arg)
{
	struct churn *c = arg;
	struct lnet_handle_md mdh[64];
	struct lnet_handle_me meh;
	unsigned int i, n = 0;

	while (time_before(jiffies, c->deadline) && n < 64 && !c->rc) {
		if (LNetMEAttach(ST_PT_CHURN, wb_any(), 0, ~0ULL, LNET_UNLINK,
				 LNET_INS_AFTER, &meh) ||
		    LNetMDAttach(meh, wb_md(c->buf[n], 16, 3, LNET_MD_OP_PUT |
					    LNET_MD_TRUNCATE, &c->watch[n],
					    c->cbq), LNET_UNLINK, &mdh[n])) {
			c->rc = -EINVAL;
			break;
		}
		c->posts++;
		msleep(20);
		/* every other MD is unlinked early, perhaps mid-operation */
		if (n & 1)
			LNetMDUnlink(mdh[n]);
		n++;
	}
	for (i = 0; i < n; i++)
		LNetMDUnlink(mdh[i]);	/* -ENOENT for the ones gone */
	complete(&c->done[0]);
	return 0;
}

static int churn_putter(void *arg)
{
	struct churn *c = arg;
	struct lnet_handle_md smd;
	u8 src[16] = { 1, 2, 3 };

	if (LNetMDBind(wb_md(src, sizeof(src), LNET_MD_THRESH_INF, 0, NULL,
			     wb_no_eq()), LNET_UNLINK, &smd)) {
		c->rc = -EINVAL;
		goto out;
	}
	while (time_before(jiffies, c->deadline) && !c->rc) {
		if (LNetPut(LNET_NID_ANY, smd, LNET_NOACK_REQ, wb_lo(),
			    ST_PT_CHURN, 0, 0, 0))
			c->rc = -EIO;
		c->puts++;
		cond_resched();
	}
	LNetMDUnlink(smd);
out:
	complete(&c->done[1]);
	return 0;
}

static void stress_attach_unlink_race(struct kunit *test)
{
	struct churn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, LNetEQAlloc(0, st_cb, &c->cbq), 0);
	init_completion(&c->done[0]);
	init_completion(&c->done[1]);
	c->deadline = jiffies + msecs_to_jiffies(ST_MS / 2);
	if (IS_ERR(kthread_run(churn_poster, c, "lnet_churn_p")))
		complete(&c->done[0]);
	if (IS_ERR(kthread_run(churn_putter, c, "lnet_churn_u")))
		complete(&c->done[1]);
	if (!wait_for_completion_timeout(&c->done[0], 60 * HZ) ||
	    !wait_for_completion_timeout(&c->done[1], 60 * HZ)) {
		KUNIT_FAIL(test, "churn threads hang");
		return;
	}
	KUNIT_EXPECT_EQ(test, c->rc, 0);
	KUNIT_EXPECT_GT(test, c->posts, 0UL);
	kunit_info(test, "%lu MDs posted under %lu PUTs\n", c->posts, c->puts);
	for (i = 0; i < c->posts; i++) {
		struct st_md_watch *w = &c->watch[i];

		/* each MD: one last event with unlinked set, nothing after */
		KUNIT_EXPECT_EQ_MSG(test, w->unlinked, 1UL, "MD %u", i);
		KUNIT_EXPECT_FALSE_MSG(test, w->after_unlink, "MD %u", i);
		KUNIT_EXPECT_FALSE_MSG(test, w->overlap, "MD %u", i);
		KUNIT_EXPECT_FALSE_MSG(test, w->disorder, "MD %u", i);
		KUNIT_EXPECT_LE_MSG(test, w->events, 4UL, "MD %u", i);
	}
	KUNIT_EXPECT_EQ(test, LNetEQFree(c->cbq), 0);
	st_expect_rest(test);
}

static struct kunit_case lnet_stress_cases[] = {
	KUNIT_CASE(stress_shared_and_private),
	KUNIT_CASE(stress_attach_unlink_race),
	{}
};

static struct kunit_suite lnet_stress_suite = {
	.name = "lnet_stress",
	.init = wb_init,
	.exit = wb_exit,
	.test_cases = lnet_stress_cases,
};
kunit_test_suite(lnet_stress_suite);
