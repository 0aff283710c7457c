// SPDX-License-Identifier: GPL-2.0
/*
 * Black-box concurrency tests of the public LNet API (api.h): several
 * kthreads drive PUT/GET through the loopback NI for a few seconds each,
 * on private and on shared MDs/EQs, while every event and every byte is
 * checked; one case unlinks the target MDs under the traffic; one checks
 * that a callback-only EQ sees each MD's events serialized and in order.
 *
 * Helper threads never use KUNIT_* (they are not the case's thread): they
 * record their first error in lat_thread.err and the case reports it.
 * Case state touched by callbacks is checked only after the threads are
 * joined and the MDs are gone.
 */
#include <linux/atomic.h>

#include "api_test_util.h"

#define ST_MS		3000	/* traffic time per case */
#define ST_THREADS	4

static int st_wait(struct lat_thread *t, struct lnet_handle_eq eqh,
		   enum lnet_event_kind type, struct lnet_handle_md mdh,
		   struct lnet_event *ev)
{
	int rc = lat_poll(eqh, LAT_WAIT_MS, ev);

	if (rc != 1)
		return lat_terr(t, "iter %lu: no %s event (rc %d)", t->ops,
				lat_evname(type), rc);
	if (ev->type != type)
		return lat_terr(t, "iter %lu: %s event, want %s", t->ops,
				lat_evname(ev->type), lat_evname(type));
	if (ev->status)
		return lat_terr(t, "iter %lu: %s status %d", t->ops,
				lat_evname(type), ev->status);
	if (!lat_same_md(ev->md_handle, mdh))
		return lat_terr(t, "iter %lu: %s for another MD", t->ops,
				lat_evname(type));
	return 0;
}

static void st_report(struct kunit *test, struct lat_thread *t, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, t[i].rc, 0, "thread %d: %s", i,
				    t[i].err);
		KUNIT_EXPECT_GT_MSG(test, t[i].ops, 0UL,
				    "thread %d did no work", i);
		kunit_info(test, "thread %d: %lu iterations\n", i, t[i].ops);
	}
}

/* ---- distinct: each thread its own portal, EQs and MDs --------------------- */

#define SD_LEN	8192

struct sd_state {
	unsigned int portal;
	struct lnet_handle_eq seq, teq;
	struct lnet_handle_md tmd;
	u8 *tbuf, *sbuf, *kbuf;
};

static int sd_iter(struct lat_thread *t, struct sd_state *s)
{
	unsigned long i = t->ops;
	unsigned int len = 1 + (i * 977 + t->id * 131) % SD_LEN;
	unsigned int off = (i * 389) % (SD_LEN - len + 1);
	struct lnet_handle_md smd, kmd;
	struct lnet_event ev;
	int rc;

	/* PUT with ACK: SEND, ACK on our side; PUT on the target */
	lat_fill(s->sbuf, len, t->id << 24 | i);
	rc = LNetMDBind(lat_mkmd(s->sbuf, len, LNET_MD_THRESH_INF, 0, s,
				 s->seq), LNET_UNLINK, &smd);
	if (rc)
		return lat_terr(t, "iter %lu: LNetMDBind %d", i, rc);
	rc = LNetPut(LNET_NID_ANY, smd, LNET_ACK_REQ, lat_lo(), s->portal, i,
		     off, i);
	if (rc)
		return lat_terr(t, "iter %lu: LNetPut %d", i, rc);
	if (st_wait(t, s->seq, LNET_EVENT_SEND, smd, &ev) ||
	    st_wait(t, s->seq, LNET_EVENT_ACK, smd, &ev))
		return -EIO;
	if (ev.mlength != len)
		return lat_terr(t, "iter %lu: ACK mlength %u, want %u", i,
				ev.mlength, len);
	if (st_wait(t, s->teq, LNET_EVENT_PUT, s->tmd, &ev))
		return -EIO;
	if (ev.rlength != len || ev.mlength != len || ev.offset != off ||
	    ev.hdr_data != i || ev.match_bits != i || ev.md.user_ptr != s)
		return lat_terr(t, "iter %lu: PUT event %u/%u@%u hdr %llu",
				i, ev.rlength, ev.mlength, ev.offset,
				ev.hdr_data);
	if (memcmp(s->tbuf + off, s->sbuf, len))
		return lat_terr(t, "iter %lu: PUT bytes differ", i);
	if (LNetMDUnlink(smd) ||
	    st_wait(t, s->seq, LNET_EVENT_UNLINK, smd, &ev))
		return lat_terr(t, "iter %lu: source unlink", i);

	/* GET it back: SEND, REPLY on our side; GET on the target */
	memset(s->kbuf, LAT_POISON, len);
	rc = LNetMDBind(lat_mkmd(s->kbuf, len, LNET_MD_THRESH_INF, 0, s,
				 s->seq), LNET_UNLINK, &kmd);
	if (rc)
		return lat_terr(t, "iter %lu: LNetMDBind %d", i, rc);
	rc = LNetGet(LNET_NID_ANY, kmd, lat_lo(), s->portal, i, off);
	if (rc)
		return lat_terr(t, "iter %lu: LNetGet %d", i, rc);
	if (st_wait(t, s->seq, LNET_EVENT_SEND, kmd, &ev) ||
	    st_wait(t, s->seq, LNET_EVENT_REPLY, kmd, &ev))
		return -EIO;
	if (ev.mlength != len)
		return lat_terr(t, "iter %lu: REPLY mlength %u, want %u", i,
				ev.mlength, len);
	if (st_wait(t, s->teq, LNET_EVENT_GET, s->tmd, &ev))
		return -EIO;
	if (ev.mlength != len || ev.offset != off)
		return lat_terr(t, "iter %lu: GET event %u@%u", i, ev.mlength,
				ev.offset);
	if (memcmp(s->kbuf, s->sbuf, len))
		return lat_terr(t, "iter %lu: REPLY bytes differ", i);
	if (LNetMDUnlink(kmd) ||
	    st_wait(t, s->seq, LNET_EVENT_UNLINK, kmd, &ev))
		return lat_terr(t, "iter %lu: sink unlink", i);
	return 0;
}

static int sd_thread(struct lat_thread *t)
{
	struct sd_state *s = t->arg;
	int rc;

	while (time_before(jiffies, t->deadline)) {
		rc = sd_iter(t, s);
		if (rc)
			return rc;
		t->ops++;
	}
	return 0;
}

static void stress_distinct(struct kunit *test)
{
	struct lnet_handle_me meh;
	struct sd_state *s;
	struct lat_thread *t;
	void *args[ST_THREADS];
	int i;

	s = kunit_kcalloc(test, ST_THREADS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (i = 0; i < ST_THREADS; i++) {
		s[i].portal = 1 + i;
		s[i].seq = lat_eq(test, 8, NULL);
		s[i].teq = lat_eq(test, 8, NULL);
		s[i].tbuf = lat_pbuf(test, SD_LEN);
		s[i].sbuf = lat_pbuf(test, SD_LEN);
		s[i].kbuf = lat_pbuf(test, SD_LEN);
		/* any match bits: each iteration uses its own */
		meh = lat_me(test, s[i].portal, lat_any(), 0, LAT_ANY_BITS,
			     LNET_UNLINK, LNET_INS_AFTER);
		s[i].tmd = lat_attach(test, meh,
				      lat_mkmd(s[i].tbuf, SD_LEN,
					       LNET_MD_THRESH_INF,
					       LNET_MD_OP_PUT |
					       LNET_MD_OP_GET |
					       LNET_MD_MANAGE_REMOTE, &s[i],
					       s[i].teq), LNET_UNLINK);
		args[i] = &s[i];
	}

	t = lat_run_threads(test, ST_THREADS, sd_thread, args, ST_MS);
	if (!t)
		return;
	st_report(test, t, ST_THREADS);
	kfree(t);
}

/* ---- shared: one target MD and two shared callback EQs ----------------- */

#define SS_CH	2048

struct ss_shared {
	spinlock_t lock;
	u32 last_put[ST_THREADS];
	unsigned long nput[ST_THREADS], nget[ST_THREADS];
	char err[128];
};

struct ss_thread {
	struct ss_shared *sh;
	unsigned int portal;
	struct lat_mbox *mb;		/* our source MD's events */
	struct lnet_handle_eq keq;	/* our sink's ring EQ */
	struct lnet_handle_md smd, kmd;
	u8 *tbuf;			/* the shared target buffer */
	u8 *sbuf, *kbuf;
};

static __printf(2, 3) void ss_err(struct ss_shared *sh, const char *fmt, ...)
{
	va_list args;

	if (sh->err[0])
		return;
	va_start(args, fmt);
	vsnprintf(sh->err, sizeof(sh->err), fmt, args);
	va_end(args);
}

/* Shared target's callback: every PUT/GET of every thread, checked. */
static void ss_target_cb(struct lnet_event *ev)
{
	struct ss_shared *sh = ev->md.user_ptr;
	unsigned long flags;
	u64 tid;
	u32 iter;

	spin_lock_irqsave(&sh->lock, flags);
	if (ev->type == LNET_EVENT_UNLINK)
		goto out;
	tid = ev->match_bits >> 32;
	iter = (u32)ev->match_bits;
	if (tid >= ST_THREADS) {
		ss_err(sh, "%s with match bits %llx", lat_evname(ev->type),
		       ev->match_bits);
		goto out;
	}
	if (ev->status || ev->mlength != SS_CH || ev->offset != tid * SS_CH) {
		ss_err(sh, "thread %llu: %s status %d %u@%u", tid,
		       lat_evname(ev->type), ev->status, ev->mlength,
		       ev->offset);
		goto out;
	}
	if (ev->type == LNET_EVENT_PUT) {
		if (iter != sh->last_put[tid] + 1 || ev->hdr_data != iter)
			ss_err(sh, "thread %llu: PUT %u after %u (hdr %llu)",
			       tid, iter, sh->last_put[tid], ev->hdr_data);
		sh->last_put[tid] = iter;
		sh->nput[tid]++;
	} else if (ev->type == LNET_EVENT_GET) {
		sh->nget[tid]++;
	} else {
		ss_err(sh, "unexpected %s event", lat_evname(ev->type));
	}
out:
	spin_unlock_irqrestore(&sh->lock, flags);
}

static int ss_mbox_wait(struct lat_thread *t, struct lat_mbox *mb,
			enum lnet_event_kind type, struct lnet_handle_md mdh,
			struct lnet_event *ev)
{
	if (lat_mbox_get(mb, ev, LAT_WAIT_MS) != 1)
		return lat_terr(t, "iter %lu: no %s callback", t->ops,
				lat_evname(type));
	if (ev->type != type || ev->status || !lat_same_md(ev->md_handle, mdh))
		return lat_terr(t, "iter %lu: %s callback status %d, want %s",
				t->ops, lat_evname(ev->type), ev->status,
				lat_evname(type));
	return 0;
}

static int ss_thread_fn(struct lat_thread *t)
{
	struct ss_thread *s = t->arg;
	unsigned int off = t->id * SS_CH;
	struct lnet_event ev;
	u64 bits;
	u32 iter;
	int rc;

	while (time_before(jiffies, t->deadline)) {
		iter = t->ops + 1;
		bits = (u64)t->id << 32 | iter;
		lat_fill(s->sbuf, SS_CH, bits);
		memset(s->tbuf + off, LAT_POISON, SS_CH);
		rc = LNetPut(LNET_NID_ANY, s->smd, LNET_ACK_REQ, lat_lo(),
			     s->portal, bits, off, iter);
		if (rc)
			return lat_terr(t, "iter %u: LNetPut %d", iter, rc);
		if (ss_mbox_wait(t, s->mb, LNET_EVENT_SEND, s->smd, &ev) ||
		    ss_mbox_wait(t, s->mb, LNET_EVENT_ACK, s->smd, &ev))
			return -EIO;
		if (ev.mlength != SS_CH)
			return lat_terr(t, "iter %u: ACK mlength %u", iter,
					ev.mlength);
		/* ACKed: our bytes are in place, nobody else writes there */
		if (memcmp(s->tbuf + off, s->sbuf, SS_CH))
			return lat_terr(t, "iter %u: PUT bytes differ", iter);

		memset(s->kbuf, LAT_POISON, SS_CH);
		rc = LNetGet(LNET_NID_ANY, s->kmd, lat_lo(), s->portal, bits,
			     off);
		if (rc)
			return lat_terr(t, "iter %u: LNetGet %d", iter, rc);
		if (st_wait(t, s->keq, LNET_EVENT_SEND, s->kmd, &ev) ||
		    st_wait(t, s->keq, LNET_EVENT_REPLY, s->kmd, &ev))
			return -EIO;
		if (ev.mlength != SS_CH || memcmp(s->kbuf, s->sbuf, SS_CH))
			return lat_terr(t, "iter %u: REPLY %u bytes differ",
					iter, ev.mlength);
		t->ops++;
	}
	return 0;
}

static void stress_shared(struct kunit *test)
{
	struct lnet_handle_eq tcb = lat_eq(test, 0, ss_target_cb);
	struct lnet_handle_eq scb = lat_eq(test, 0, lat_mbox_cb);
	u8 *tbuf = lat_pbuf(test, ST_THREADS * SS_CH);
	struct lnet_handle_md tmd;
	struct lnet_handle_me meh;
	struct ss_shared *sh;
	struct ss_thread *s;
	struct lat_thread *t;
	void *args[ST_THREADS];
	unsigned long end;
	int i;

	sh = kunit_kzalloc(test, sizeof(*sh), GFP_KERNEL);
	s = kunit_kcalloc(test, ST_THREADS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sh);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	spin_lock_init(&sh->lock);

	meh = lat_me(test, 5, lat_any(), 0, LAT_ANY_BITS, LNET_UNLINK,
		     LNET_INS_AFTER);
	tmd = lat_attach(test, meh, lat_mkmd(tbuf, ST_THREADS * SS_CH,
					     LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT | LNET_MD_OP_GET |
					     LNET_MD_MANAGE_REMOTE, sh, tcb),
			 LNET_UNLINK);
	for (i = 0; i < ST_THREADS; i++) {
		s[i].sh = sh;
		s[i].portal = 5;
		s[i].tbuf = tbuf;
		s[i].mb = lat_mbox_new(test);
		s[i].sbuf = lat_pbuf(test, SS_CH);
		s[i].kbuf = lat_pbuf(test, SS_CH);
		s[i].keq = lat_eq(test, 8, NULL);
		s[i].smd = lat_bind(test, lat_mkmd(s[i].sbuf, SS_CH,
						   LNET_MD_THRESH_INF, 0,
						   s[i].mb, scb), LNET_UNLINK);
		s[i].kmd = lat_bind(test, lat_mkmd(s[i].kbuf, SS_CH,
						   LNET_MD_THRESH_INF, 0, NULL,
						   s[i].keq), LNET_UNLINK);
		args[i] = &s[i];
	}

	t = lat_run_threads(test, ST_THREADS, ss_thread_fn, args, ST_MS);
	if (!t)
		return;
	st_report(test, t, ST_THREADS);

	/* the target's callbacks may trail the initiators' events a little */
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd), 0);
	for (i = 0; i < ST_THREADS; i++) {
		end = jiffies + msecs_to_jiffies(LAT_WAIT_MS);
		while ((READ_ONCE(sh->nput[i]) != t[i].ops ||
			READ_ONCE(sh->nget[i]) != t[i].ops) &&
		       time_before(jiffies, end))
			msleep(20);
		KUNIT_EXPECT_EQ_MSG(test, sh->nput[i], t[i].ops,
				    "thread %d: PUT callbacks", i);
		KUNIT_EXPECT_EQ_MSG(test, sh->nget[i], t[i].ops,
				    "thread %d: GET callbacks", i);
		KUNIT_EXPECT_FALSE(test, s[i].mb->overflow);
	}
	KUNIT_EXPECT_EQ_MSG(test, sh->err[0], 0, "target callback: %s",
			    sh->err);
	kfree(t);
}

/* ---- unlink target MDs under traffic ------------------------------------- */

#define UC_SENDERS	3
#define UC_CH		512
#define UC_LEN		(UC_SENDERS * UC_CH)
#define UC_GENS		1024

struct uc_state;

/* One target MD's life, from attach to its UNLINK event. */
struct uc_gen {
	struct uc_state *st;
	u8 *buf;
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	bool gone;		/* its UNLINK was delivered */
	unsigned int nput;
	const char *err;
	u64 errval;
};

struct uc_state {
	unsigned int portal;
	struct lnet_handle_eq cbq;
	wait_queue_head_t wq;
	u8 *ref[UC_SENDERS];		/* what each sender PUTs */
	u8 *slot[2];			/* buffers, reused once gone */
	struct uc_gen *gen;
	int ngen;
	struct lnet_handle_eq seq[UC_SENDERS];
	struct lnet_handle_md smd[UC_SENDERS];
};

static void uc_cb(struct lnet_event *ev)
{
	struct uc_gen *g = ev->md.user_ptr;
	struct uc_state *st = g->st;
	u64 tid = ev->hdr_data >> 32;

	if (READ_ONCE(g->gone)) {
		g->err = "event after the UNLINK";
		g->errval = ev->type;
		return;
	}
	switch (ev->type) {
	case LNET_EVENT_PUT:
		if (tid >= UC_SENDERS || ev->status || ev->unlinked ||
		    ev->mlength != UC_CH || ev->offset != tid * UC_CH) {
			g->err = "bad PUT event";
			g->errval = ev->hdr_data;
		} else if (memcmp(g->buf + ev->offset, st->ref[tid], UC_CH)) {
			g->err = "PUT bytes differ";
			g->errval = ev->hdr_data;
		}
		g->nput++;
		break;
	case LNET_EVENT_UNLINK:
		if (!ev->unlinked) {
			g->err = "UNLINK without unlinked";
			g->errval = 0;
		}
		/* pairs with uc_unlink(): g's fields are final now */
		smp_store_release(&g->gone, true);
		wake_up_all(&st->wq);
		break;
	default:
		g->err = "unexpected event type";
		g->errval = ev->type;
		break;
	}
}

static int uc_attach(struct lat_thread *t, struct uc_state *st, int slot)
{
	struct uc_gen *g;
	int rc;

	if (st->ngen >= UC_GENS)
		return 1;	/* out of generations: stop recycling */
	g = &st->gen[st->ngen];
	g->st = st;
	g->buf = st->slot[slot];
	memset(g->buf, LAT_POISON, UC_LEN);
	rc = LNetMEAttach(st->portal, lat_any(), 0, LAT_ANY_BITS, LNET_UNLINK,
			  st->ngen & 1 ? LNET_INS_BEFORE : LNET_INS_AFTER,
			  &g->meh);
	if (rc)
		return lat_terr(t, "gen %d: LNetMEAttach %d", st->ngen, rc);
	rc = LNetMDAttach(g->meh, lat_mkmd(g->buf, UC_LEN, LNET_MD_THRESH_INF,
					   LNET_MD_OP_PUT |
					   LNET_MD_MANAGE_REMOTE, g, st->cbq),
			  LNET_UNLINK, &g->mdh);
	if (rc) {
		LNetMEUnlink(g->meh);
		return lat_terr(t, "gen %d: LNetMDAttach %d", st->ngen, rc);
	}
	st->ngen++;
	return 0;
}

static int uc_unlink(struct lat_thread *t, struct uc_state *st, int gi)
{
	struct uc_gen *g = &st->gen[gi];
	int rc;

	/* alternately through the MD and through its ME */
	rc = gi % 3 ? LNetMDUnlink(g->mdh) : LNetMEUnlink(g->meh);
	if (rc)
		return lat_terr(t, "gen %d: unlink %d", gi, rc);
	/* pairs with uc_cb(): once gone, the slot buffer is ours again */
	if (!wait_event_timeout(st->wq, smp_load_acquire(&g->gone),
				msecs_to_jiffies(LAT_WAIT_MS)))
		return lat_terr(t, "gen %d: no UNLINK within %d ms", gi,
				LAT_WAIT_MS);
	return 0;
}

static int uc_unlinker(struct lat_thread *t, struct uc_state *st)
{
	int cur[2] = { -1, -1 };
	int slot, rc = 0;

	for (slot = 0; slot < 2; slot++) {
		rc = uc_attach(t, st, slot);
		if (rc)
			return rc < 0 ? rc : 0;
		cur[slot] = st->ngen - 1;
	}
	slot = 0;
	while (time_before(jiffies, t->deadline)) {
		usleep_range(200, 1000);
		rc = uc_unlink(t, st, cur[slot]);
		cur[slot] = -1;
		if (rc)
			break;
		rc = uc_attach(t, st, slot);
		if (rc)
			break;
		cur[slot] = st->ngen - 1;
		t->ops++;
		slot ^= 1;
	}
	/* let the senders finish first, then take the rest down */
	while (time_before(jiffies, t->deadline))
		msleep(20);
	msleep(100);
	for (slot = 0; slot < 2; slot++)
		if (cur[slot] >= 0 && uc_unlink(t, st, cur[slot]) && !rc)
			rc = -EIO;
	return rc < 0 ? rc : 0;
}

static int uc_sender(struct lat_thread *t, struct uc_state *st)
{
	struct lnet_event ev;
	int rc;

	while (time_before(jiffies, t->deadline)) {
		rc = LNetPut(LNET_NID_ANY, st->smd[t->id], LNET_NOACK_REQ,
			     lat_lo(), st->portal, 0, t->id * UC_CH,
			     (u64)t->id << 32 | t->ops);
		if (rc)
			return lat_terr(t, "iter %lu: LNetPut %d", t->ops, rc);
		/* matched or dropped, the SEND comes; status unspecified */
		rc = lat_poll(st->seq[t->id], LAT_WAIT_MS, &ev);
		if (rc != 1 || ev.type != LNET_EVENT_SEND ||
		    !lat_same_md(ev.md_handle, st->smd[t->id]))
			return lat_terr(t, "iter %lu: SEND rc %d type %s",
					t->ops, rc, lat_evname(ev.type));
		t->ops++;
	}
	return 0;
}

static int uc_thread(struct lat_thread *t)
{
	struct uc_state *st = t->arg;

	return t->id < UC_SENDERS ? uc_sender(t, st) : uc_unlinker(t, st);
}

static void stress_unlink_under_traffic(struct kunit *test)
{
	struct uc_state *st;
	struct lat_thread *t;
	void *args[UC_SENDERS + 1];
	unsigned long sent = 0, landed = 0;
	int i;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, st);
	st->gen = kunit_kcalloc(test, UC_GENS, sizeof(*st->gen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, st->gen);
	init_waitqueue_head(&st->wq);
	st->portal = 6;
	st->cbq = lat_eq(test, 0, uc_cb);
	st->slot[0] = lat_pbuf(test, UC_LEN);
	st->slot[1] = lat_pbuf(test, UC_LEN);
	for (i = 0; i < UC_SENDERS; i++) {
		st->ref[i] = lat_buf(test, UC_CH, 0x300 + i);
		st->seq[i] = lat_eq(test, 8, NULL);
		st->smd[i] = lat_bind(test, lat_mkmd(st->ref[i], UC_CH,
						     LNET_MD_THRESH_INF, 0,
						     NULL, st->seq[i]),
				      LNET_UNLINK);
	}
	for (i = 0; i <= UC_SENDERS; i++)
		args[i] = st;

	t = lat_run_threads(test, UC_SENDERS + 1, uc_thread, args, ST_MS);
	if (!t)
		return;
	st_report(test, t, UC_SENDERS + 1);
	msleep(100);	/* a late event would show up as an error now */

	for (i = 0; i < st->ngen; i++) {
		struct uc_gen *g = &st->gen[i];

		KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(g->gone),
				      "MD %d never delivered its UNLINK", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, g->err, (const char *)NULL,
					"MD %d: %s (%llx)", i, g->err,
					g->errval);
		landed += g->nput;
	}
	for (i = 0; i < UC_SENDERS; i++)
		sent += t[i].ops;
	kunit_info(test, "%d MDs, %lu PUTs sent, %lu landed\n", st->ngen,
		   sent, landed);
	KUNIT_EXPECT_GE(test, st->ngen, 4);
	KUNIT_EXPECT_GT(test, landed, 0UL);
	KUNIT_EXPECT_LE(test, landed, sent);
	kfree(t);
}

/* ---- callback order per MD on a callback-only EQ ---------------------- */

#define CO_CH	256

struct co_md {
	atomic_t in_cb;
	bool have_seq;
	unsigned long last_seq;
	u32 last_iter[ST_THREADS];
	unsigned long n;
	int first_tid;		/* this MD serves threads first_tid, +1 */
	bool unlinked;
	const char *err;
	u64 errval;
};

struct co_thread {
	unsigned int portal;
	u64 bits;
	struct lnet_handle_eq seq;
	struct lnet_handle_md smd;
};

static void co_cb(struct lnet_event *ev)
{
	struct co_md *m = ev->md.user_ptr;
	u64 tid = ev->hdr_data >> 32;
	u32 iter = (u32)ev->hdr_data;

	if (atomic_inc_return(&m->in_cb) != 1 && !m->err) {
		m->err = "concurrent callbacks for one MD";
		m->errval = ev->sequence;
	}
	if (m->unlinked && !m->err) {
		m->err = "event after the UNLINK";
		m->errval = ev->type;
	}
	if (m->have_seq && ev->sequence <= m->last_seq && !m->err) {
		m->err = "sequence went backwards";
		m->errval = ev->sequence;
	}
	m->have_seq = true;
	m->last_seq = ev->sequence;

	if (ev->type == LNET_EVENT_UNLINK) {
		m->unlinked = true;
	} else if (ev->type != LNET_EVENT_PUT || ev->status ||
		   tid < (u64)m->first_tid || tid > (u64)m->first_tid + 1) {
		if (!m->err) {
			m->err = "unexpected event";
			m->errval = ev->hdr_data;
		}
	} else {
		if (iter != m->last_iter[tid] + 1 && !m->err) {
			m->err = "PUTs of one thread out of order";
			m->errval = ev->hdr_data;
		}
		m->last_iter[tid] = iter;
		m->n++;
	}
	udelay(20);	/* widen the window for an overlapping callback */
	atomic_dec(&m->in_cb);
}

static int co_thread_fn(struct lat_thread *t)
{
	struct co_thread *s = t->arg;
	struct lnet_event ev;
	u32 iter;
	int rc;

	while (time_before(jiffies, t->deadline)) {
		iter = t->ops + 1;
		rc = LNetPut(LNET_NID_ANY, s->smd, LNET_ACK_REQ, lat_lo(),
			     s->portal, s->bits, t->id * CO_CH,
			     (u64)t->id << 32 | iter);
		if (rc)
			return lat_terr(t, "iter %u: LNetPut %d", iter, rc);
		/* the ACK means our PUT landed before the next one goes */
		if (st_wait(t, s->seq, LNET_EVENT_SEND, s->smd, &ev) ||
		    st_wait(t, s->seq, LNET_EVENT_ACK, s->smd, &ev))
			return -EIO;
		t->ops++;
	}
	return 0;
}

static void stress_callback_order(struct kunit *test)
{
	struct lnet_handle_eq cbq = lat_eq(test, 0, co_cb);
	struct lnet_handle_md tmd[2];
	struct lnet_handle_me meh;
	struct co_md *m;
	struct co_thread *s;
	struct lat_thread *t;
	void *args[ST_THREADS];
	unsigned long want, end;
	u8 *src, *dst[2];
	int i;

	m = kunit_kcalloc(test, 2, sizeof(*m), GFP_KERNEL);
	s = kunit_kcalloc(test, ST_THREADS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	/* MD 0 (bits 0xa) serves threads 0 and 1, MD 1 (0xb) 2 and 3 */
	for (i = 0; i < 2; i++) {
		atomic_set(&m[i].in_cb, 0);
		m[i].first_tid = 2 * i;
		dst[i] = lat_pbuf(test, ST_THREADS * CO_CH);
		meh = lat_me(test, 7, lat_any(), 0xa + i, 0, LNET_UNLINK,
			     LNET_INS_AFTER);
		tmd[i] = lat_attach(test, meh,
				    lat_mkmd(dst[i], ST_THREADS * CO_CH,
					     LNET_MD_THRESH_INF,
					     LNET_MD_OP_PUT |
					     LNET_MD_MANAGE_REMOTE, &m[i],
					     cbq), LNET_UNLINK);
	}
	for (i = 0; i < ST_THREADS; i++) {
		s[i].portal = 7;
		s[i].bits = 0xa + i / 2;
		s[i].seq = lat_eq(test, 8, NULL);
		src = lat_buf(test, CO_CH, 0x400 + i);
		s[i].smd = lat_bind(test, lat_mkmd(src, CO_CH,
						   LNET_MD_THRESH_INF, 0, NULL,
						   s[i].seq), LNET_UNLINK);
		args[i] = &s[i];
	}

	t = lat_run_threads(test, ST_THREADS, co_thread_fn, args, ST_MS);
	if (!t)
		return;
	st_report(test, t, ST_THREADS);

	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, LNetMDUnlink(tmd[i]), 0);
		want = t[2 * i].ops + t[2 * i + 1].ops;
		end = jiffies + msecs_to_jiffies(LAT_WAIT_MS);
		while (!READ_ONCE(m[i].unlinked) && time_before(jiffies, end))
			msleep(20);
		KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(m[i].unlinked),
				      "MD %d: no UNLINK", i);
		KUNIT_EXPECT_EQ_MSG(test, m[i].n, want, "MD %d: PUT events",
				    i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, m[i].err, (const char *)NULL,
					"MD %d: %s (%llx)", i, m[i].err,
					m[i].errval);
	}
	kfree(t);
}

static struct kunit_case lnet_api_stress_cases[] = {
	KUNIT_CASE(stress_distinct),
	KUNIT_CASE(stress_shared),
	KUNIT_CASE(stress_unlink_under_traffic),
	KUNIT_CASE(stress_callback_order),
	{}
};

static struct kunit_suite lnet_api_stress_suite = {
	.name = "lnet_api_stress",
	.init = lat_init,
	.exit = lat_exit,
	.test_cases = lnet_api_stress_cases,
};
kunit_test_suite(lnet_api_stress_suite);
