/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the black-box KUnit suites of the public LNet API
 * (api_*_test.c). They use only <linux/lnet/api.h> and the uapi NID header:
 * the suites test the contract, not the implementation.
 *
 * Every object a case creates through these helpers is recorded in the
 * case's context and released by lat_exit() (the suites' .exit hook), so a
 * case that fails half-way still unlinks its MDs and MEs, frees its EQs and
 * drops its LNetNIInit() reference. Buffers and pages are test-managed
 * resources, freed by KUnit after .exit, i.e. after LNet has let go of them.
 *
 * Every wait is bounded (LAT_WAIT_MS) so a broken implementation fails a
 * case instead of hanging the run.
 */
#ifndef _LNET_TESTS_API_TEST_UTIL_H
#define _LNET_TESTS_API_TEST_UTIL_H

#include <kunit/test.h>
#include <kunit/resource.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/lnet/api.h>

#define LAT_WAIT_MS	5000	/* bound of every wait for an expected event */
#define LAT_QUIET_MS	300	/* how long "no event comes" is observed */
#define LAT_MAX_OBJS	64	/* objects of each kind a case may track */
#define LAT_POISON	0xa5	/* fill of buffers nothing may write to */
#define LAT_ANY_BITS	(~0ULL)	/* ignore_bits of an ME that matches any bits */

/* Per-case context (test->priv), set up by lat_init(). */
struct lat_ctx {
	struct kunit *test;
	int ni_refs;		/* LNetNIInit references this case holds */
	struct mutex lock;	/* tracking may happen from helper threads */
	int n_eq, n_me, n_md, n_lazy;
	bool track_overflow;
	struct lnet_handle_eq eq[LAT_MAX_OBJS];
	struct lnet_handle_me me[LAT_MAX_OBJS];
	struct lnet_handle_md md[LAT_MAX_OBJS];
	int lazy[LAT_MAX_OBJS];
};

static inline struct lnet_process_id lat_id(lnet_nid_t nid, lnet_pid_t pid)
{
	struct lnet_process_id id = { .nid = nid, .pid = pid };

	return id;
}

/* The loopback target: 0@lo, pid 12345. */
static inline struct lnet_process_id lat_lo(void)
{
	return lat_id(LNET_NID_LO_0, LNET_PID_LUSTRE);
}

static inline struct lnet_process_id lat_any(void)
{
	return lat_id(LNET_NID_ANY, LNET_PID_ANY);
}

static inline struct lnet_handle_eq lat_no_eq(void)
{
	struct lnet_handle_eq h;

	LNetInvalidateEQHandle(&h);
	return h;
}

static inline const char *lat_evname(int type)
{
	switch (type) {
	case LNET_EVENT_GET:	return "GET";
	case LNET_EVENT_PUT:	return "PUT";
	case LNET_EVENT_REPLY:	return "REPLY";
	case LNET_EVENT_ACK:	return "ACK";
	case LNET_EVENT_SEND:	return "SEND";
	case LNET_EVENT_UNLINK:	return "UNLINK";
	default:		return "?";
	}
}

/* ---- case setup and teardown ------------------------------------------ */

static inline int lat_init(struct kunit *test)
{
	struct lat_ctx *ctx;
	int rc;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->test = test;
	mutex_init(&ctx->lock);
	test->priv = ctx;

	rc = LNetNIInit(LNET_PID_LUSTRE);
	if (rc < 0) {
		kunit_err(test, "LNetNIInit(LNET_PID_LUSTRE) = %d\n", rc);
		return rc;
	}
	ctx->ni_refs = 1;
	return 0;
}

static inline void lat_track_eq(struct kunit *test, struct lnet_handle_eq h)
{
	struct lat_ctx *ctx = test->priv;

	mutex_lock(&ctx->lock);
	if (ctx->n_eq < LAT_MAX_OBJS)
		ctx->eq[ctx->n_eq++] = h;
	else
		ctx->track_overflow = true;
	mutex_unlock(&ctx->lock);
}

static inline void lat_track_me(struct kunit *test, struct lnet_handle_me h)
{
	struct lat_ctx *ctx = test->priv;

	mutex_lock(&ctx->lock);
	if (ctx->n_me < LAT_MAX_OBJS)
		ctx->me[ctx->n_me++] = h;
	else
		ctx->track_overflow = true;
	mutex_unlock(&ctx->lock);
}

static inline void lat_track_md(struct kunit *test, struct lnet_handle_md h)
{
	struct lat_ctx *ctx = test->priv;

	mutex_lock(&ctx->lock);
	if (ctx->n_md < LAT_MAX_OBJS)
		ctx->md[ctx->n_md++] = h;
	else
		ctx->track_overflow = true;
	mutex_unlock(&ctx->lock);
}

static inline void lat_track_lazy(struct kunit *test, int portal)
{
	struct lat_ctx *ctx = test->priv;

	mutex_lock(&ctx->lock);
	if (ctx->n_lazy < LAT_MAX_OBJS)
		ctx->lazy[ctx->n_lazy++] = portal;
	else
		ctx->track_overflow = true;
	mutex_unlock(&ctx->lock);
}

/*
 * The suites' .exit: runs after the case body (also after an aborted one,
 * then in KUnit's own thread), so it must never use KUNIT_ASSERT_*.
 * Handles that are already gone return -ENOENT, which is fine here.
 */
static inline void lat_exit(struct kunit *test)
{
	struct lat_ctx *ctx = test->priv;
	struct lnet_event ev;
	unsigned long end;
	int i, rc;

	if (!ctx)
		return;
	for (i = ctx->n_lazy - 1; i >= 0; i--)
		LNetClearLazyPortal(ctx->lazy[i]);
	for (i = ctx->n_md - 1; i >= 0; i--)
		LNetMDUnlink(ctx->md[i]);
	for (i = ctx->n_me - 1; i >= 0; i--)
		LNetMEUnlink(ctx->me[i]);
	for (i = ctx->n_eq - 1; i >= 0; i--) {
		/* an MD whose operations are still in flight holds its EQ */
		end = jiffies + msecs_to_jiffies(LAT_WAIT_MS);
		while ((rc = LNetEQFree(ctx->eq[i])) == -EBUSY &&
		       time_before(jiffies, end)) {
			do {
				rc = LNetEQGet(ctx->eq[i], &ev);
			} while (rc == 1 || rc == -EOVERFLOW);
			msleep(20);
		}
		KUNIT_EXPECT_NE_MSG(test, rc, -EBUSY,
				    "cleanup: EQ %d still busy after %d ms",
				    i, LAT_WAIT_MS);
	}
	KUNIT_EXPECT_FALSE_MSG(test, ctx->track_overflow,
			       "case created more than %d objects of a kind",
			       LAT_MAX_OBJS);
	while (ctx->ni_refs > 0) {
		LNetNIFini();
		ctx->ni_refs--;
	}
}

/* ---- objects (asserting helpers: call from the case's thread only) ----- */

static inline struct lnet_md lat_mkmd(void *start, unsigned int length,
				      int threshold, unsigned int options,
				      void *user_ptr, struct lnet_handle_eq eqh)
{
	struct lnet_md md = {
		.start = start,
		.length = length,
		.threshold = threshold,
		.options = options,
		.user_ptr = user_ptr,
		.eq_handle = eqh,
	};

	return md;
}

static inline struct lnet_handle_eq lat_eq(struct kunit *test,
					   unsigned int count,
					   lnet_eq_handler_t handler)
{
	struct lnet_handle_eq h;
	int rc;

	rc = LNetEQAlloc(count, handler, &h);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "LNetEQAlloc(%u)", count);
	lat_track_eq(test, h);
	return h;
}

static inline struct lnet_handle_me lat_me(struct kunit *test,
					   unsigned int portal,
					   struct lnet_process_id id,
					   u64 match_bits, u64 ignore_bits,
					   enum lnet_unlink unlink,
					   enum lnet_ins_pos pos)
{
	struct lnet_handle_me h;
	int rc;

	rc = LNetMEAttach(portal, id, match_bits, ignore_bits, unlink, pos,
			  &h);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "LNetMEAttach(portal %u)", portal);
	lat_track_me(test, h);
	return h;
}

static inline struct lnet_handle_md lat_attach(struct kunit *test,
					       struct lnet_handle_me meh,
					       struct lnet_md md,
					       enum lnet_unlink unlink)
{
	struct lnet_handle_md h;
	int rc;

	rc = LNetMDAttach(meh, md, unlink, &h);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "LNetMDAttach");
	lat_track_md(test, h);
	return h;
}

static inline struct lnet_handle_md lat_bind(struct kunit *test,
					     struct lnet_md md,
					     enum lnet_unlink unlink)
{
	struct lnet_handle_md h;
	int rc;

	rc = LNetMDBind(md, unlink, &h);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "LNetMDBind(length %u)", md.length);
	lat_track_md(test, h);
	return h;
}

/*
 * An ME at the tail of @portal matching any initiator and exactly
 * @match_bits, with @md attached; both go away when the MD is unlinked.
 */
static inline struct lnet_handle_md lat_post(struct kunit *test,
					     unsigned int portal,
					     u64 match_bits, struct lnet_md md,
					     struct lnet_handle_me *mehp)
{
	struct lnet_handle_me meh;

	meh = lat_me(test, portal, lat_any(), match_bits, 0, LNET_UNLINK,
		     LNET_INS_AFTER);
	if (mehp)
		*mehp = meh;
	return lat_attach(test, meh, md, LNET_UNLINK);
}

/* ---- buffers and pages (test-managed, freed after .exit) -------------- */

static inline u8 lat_pat(u32 seed, size_t i)
{
	u32 x = (u32)i * 0x9e3779b1U + seed * 0x85ebca6bU + 0x1234567U;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return (u8)x;
}

static inline void lat_fill(void *buf, size_t len, u32 seed)
{
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = lat_pat(seed, i);
}

/* kmalloc'ed (physically contiguous) buffer, filled with @seed's pattern */
static inline u8 *lat_buf(struct kunit *test, size_t len, u32 seed)
{
	u8 *p = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	lat_fill(p, len, seed);
	return p;
}

/* kmalloc'ed buffer filled with LAT_POISON */
static inline u8 *lat_pbuf(struct kunit *test, size_t len)
{
	u8 *p = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memset(p, LAT_POISON, len ? len : 1);
	return p;
}

/* true if [p, p + len) still holds LAT_POISON only */
static inline bool lat_poisoned(const void *p, size_t len)
{
	return !len || !memchr_inv(p, LAT_POISON, len);
}

struct lat_pages {
	unsigned int n;
	struct page *page[];
};

static inline int lat_pages_init(struct kunit_resource *res, void *context)
{
	unsigned int i, n = (unsigned long)context;
	struct lat_pages *lp;

	lp = kzalloc(struct_size(lp, page, n), GFP_KERNEL);
	if (!lp)
		return -ENOMEM;
	lp->n = n;
	for (i = 0; i < n; i++) {
		lp->page[i] = alloc_page(GFP_KERNEL);
		if (!lp->page[i])
			break;
		memset(page_address(lp->page[i]), LAT_POISON, PAGE_SIZE);
	}
	res->data = lp;
	return 0;
}

static inline void lat_pages_free(struct kunit_resource *res)
{
	struct lat_pages *lp = res->data;
	unsigned int i;

	for (i = 0; i < lp->n; i++)
		if (lp->page[i])
			__free_page(lp->page[i]);
	kfree(lp);
}

/*
 * A page vector of @n entries over @n fresh poisoned pages. Entry i covers
 * [offs[i], offs[i] + lens[i]) of its page; NULL arrays mean whole pages.
 */
static inline struct bio_vec *lat_kiov(struct kunit *test, unsigned int n,
				       const unsigned int *offs,
				       const unsigned int *lens)
{
	struct lat_pages *lp;
	struct bio_vec *bv;
	unsigned int i;

	lp = kunit_alloc_resource(test, lat_pages_init, lat_pages_free,
				  GFP_KERNEL, (void *)(unsigned long)n);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, lp);
	bv = kunit_kcalloc(test, n, sizeof(*bv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bv);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, lp->page[i]);
		bv[i].bv_page = lp->page[i];
		bv[i].bv_offset = offs ? offs[i] : 0;
		bv[i].bv_len = lens ? lens[i] : PAGE_SIZE;
	}
	return bv;
}

static inline unsigned int lat_kiov_len(const struct bio_vec *bv,
					unsigned int n)
{
	unsigned int i, len = 0;

	for (i = 0; i < n; i++)
		len += bv[i].bv_len;
	return len;
}

/*
 * Copy @len bytes between @buf and the page vector's bytes starting at
 * byte @off of the vector (to_kiov: buf -> vector).
 */
static inline void lat_kiov_copy(const struct bio_vec *bv, unsigned int n,
				 unsigned int off, void *buf, unsigned int len,
				 bool to_kiov)
{
	unsigned int i, chunk;
	u8 *b = buf;
	u8 *va;

	for (i = 0; i < n && len; i++) {
		if (off >= bv[i].bv_len) {
			off -= bv[i].bv_len;
			continue;
		}
		chunk = min(len, bv[i].bv_len - off);
		va = kmap_local_page(bv[i].bv_page);
		if (to_kiov)
			memcpy(va + bv[i].bv_offset + off, b, chunk);
		else
			memcpy(b, va + bv[i].bv_offset + off, chunk);
		kunmap_local(va);
		b += chunk;
		len -= chunk;
		off = 0;
	}
}

/* true if the page vector's bytes [off, off + len) equal @ref */
static inline bool lat_kiov_eq(struct kunit *test, const struct bio_vec *bv,
			       unsigned int n, unsigned int off,
			       const void *ref, unsigned int len)
{
	u8 *tmp = kvmalloc(len ? len : 1, GFP_KERNEL);
	bool eq;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tmp);
	lat_kiov_copy(bv, n, off, tmp, len, false);
	eq = !memcmp(tmp, ref, len);
	kvfree(tmp);
	return eq;
}

/* true if the page bytes [from, to) of @page hold LAT_POISON only */
static inline bool lat_page_poisoned(struct page *page, unsigned int from,
				     unsigned int to)
{
	u8 *va = kmap_local_page(page);
	bool ok = lat_poisoned(va + from, to - from);

	kunmap_local(va);
	return ok;
}

/* kvmalloc'ed zeroed memory (need not be DMA-able: bookkeeping only) */
static inline void lat_kvfree_res(struct kunit_resource *res)
{
	kvfree(res->data);
}

static inline int lat_kvzalloc_init(struct kunit_resource *res, void *ctx)
{
	res->data = kvzalloc((size_t)(unsigned long)ctx, GFP_KERNEL);
	return res->data ? 0 : -ENOMEM;
}

static inline void *lat_kvzalloc(struct kunit *test, size_t size)
{
	void *p = kunit_alloc_resource(test, lat_kvzalloc_init, lat_kvfree_res,
				       GFP_KERNEL, (void *)(unsigned long)size);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	return p;
}

/* ---- events ------------------------------------------------------------ */

/* LNetEQPoll() on one EQ; returns its result. */
static inline int lat_poll(struct lnet_handle_eq eqh, int timeout_ms,
			   struct lnet_event *ev)
{
	int which = -1;

	return LNetEQPoll(&eqh, 1, timeout_ms, ev, &which);
}

/* Wait (bounded) for the next event of @eqh and require its type. */
static inline void lat_wait(struct kunit *test, struct lnet_handle_eq eqh,
			    enum lnet_event_kind type, struct lnet_event *ev)
{
	int rc;

	memset(ev, 0, sizeof(*ev));
	rc = lat_poll(eqh, LAT_WAIT_MS, ev);
	KUNIT_ASSERT_EQ_MSG(test, rc, 1, "no %s event within %d ms",
			    lat_evname(type), LAT_WAIT_MS);
	KUNIT_ASSERT_EQ_MSG(test, ev->type, type, "got a %s event, want %s",
			    lat_evname(ev->type), lat_evname(type));
}

/* Require that @eqh stays empty for LAT_QUIET_MS. */
static inline void lat_quiet(struct kunit *test, struct lnet_handle_eq eqh,
			     const char *what)
{
	struct lnet_event ev;
	int rc;

	memset(&ev, 0, sizeof(ev));
	rc = lat_poll(eqh, LAT_QUIET_MS, &ev);
	KUNIT_EXPECT_EQ_MSG(test, rc, 0, "%s: unexpected %s event (rc %d)",
			    what, rc == 0 ? "no" : lat_evname(ev.type), rc);
}

static inline bool lat_same_md(struct lnet_handle_md a, struct lnet_handle_md b)
{
	return a.cookie == b.cookie;
}

/*
 * An event mailbox: callback-only EQs (and tests that route events to
 * threads) queue events here. The mailbox is found through the MD's
 * user_ptr, which every event carries in its MD copy.
 */
#define LAT_MBOX_SIZE	32

struct lat_mbox {
	spinlock_t lock;
	wait_queue_head_t wq;
	unsigned int head, tail;	/* queued: [tail, head) */
	unsigned int total;		/* events ever queued */
	bool overflow;
	/* if set, LNetMDUnlink() the event's MD on an event of this type */
	enum lnet_event_kind unlink_on;
	int unlink_rc;
	struct lnet_event ev[LAT_MBOX_SIZE];
};

static inline void lat_mbox_init(struct lat_mbox *mb)
{
	memset(mb, 0, sizeof(*mb));
	spin_lock_init(&mb->lock);
	init_waitqueue_head(&mb->wq);
	mb->unlink_rc = 1;	/* "not called" */
}

static inline struct lat_mbox *lat_mbox_new(struct kunit *test)
{
	struct lat_mbox *mb = kunit_kmalloc(test, sizeof(*mb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mb);
	lat_mbox_init(mb);
	return mb;
}

static inline void lat_mbox_put(struct lat_mbox *mb,
				const struct lnet_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&mb->lock, flags);
	if (mb->head - mb->tail < LAT_MBOX_SIZE)
		mb->ev[mb->head++ % LAT_MBOX_SIZE] = *ev;
	else
		mb->overflow = true;
	mb->total++;
	spin_unlock_irqrestore(&mb->lock, flags);
	wake_up_all(&mb->wq);
}

static inline bool lat_mbox_take(struct lat_mbox *mb, struct lnet_event *ev)
{
	unsigned long flags;
	bool got = false;

	spin_lock_irqsave(&mb->lock, flags);
	if (mb->head != mb->tail) {
		*ev = mb->ev[mb->tail++ % LAT_MBOX_SIZE];
		got = true;
	}
	spin_unlock_irqrestore(&mb->lock, flags);
	return got;
}

/* 1: an event was taken; 0: none within @timeout_ms */
static inline int lat_mbox_get(struct lat_mbox *mb, struct lnet_event *ev,
			       int timeout_ms)
{
	if (lat_mbox_take(mb, ev))
		return 1;
	wait_event_timeout(mb->wq, READ_ONCE(mb->head) != READ_ONCE(mb->tail),
			   msecs_to_jiffies(timeout_ms));
	return lat_mbox_take(mb, ev) ? 1 : 0;
}

/* EQ handler: queue the event in the mailbox its MD's user_ptr names. */
static inline void lat_mbox_cb(struct lnet_event *ev)
{
	struct lat_mbox *mb = ev->md.user_ptr;

	if (!mb)
		return;
	lat_mbox_put(mb, ev);
	if (mb->unlink_on && ev->type == mb->unlink_on)
		mb->unlink_rc = LNetMDUnlink(ev->md_handle);
}

/* Wait (bounded) for the mailbox's next event and require its type. */
static inline void lat_mbox_wait(struct kunit *test, struct lat_mbox *mb,
				 enum lnet_event_kind type,
				 struct lnet_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	KUNIT_ASSERT_EQ_MSG(test, lat_mbox_get(mb, ev, LAT_WAIT_MS), 1,
			    "callback: no %s event within %d ms",
			    lat_evname(type), LAT_WAIT_MS);
	KUNIT_ASSERT_EQ_MSG(test, ev->type, type,
			    "callback: got a %s event, want %s",
			    lat_evname(ev->type), lat_evname(type));
}

/* ---- helper threads ---------------------------------------------------- */

struct lat_thread;
typedef int (*lat_thread_fn)(struct lat_thread *t);

struct lat_thread {
	struct completion done;
	lat_thread_fn fn;
	void *arg;
	int id;
	unsigned long deadline;		/* jiffies */
	unsigned long ops;		/* completed iterations */
	int rc;
	char err[192];			/* first error, for the report */
};

static inline __printf(2, 3) int lat_terr(struct lat_thread *t,
					  const char *fmt, ...)
{
	va_list args;

	if (!t->err[0]) {
		va_start(args, fmt);
		vsnprintf(t->err, sizeof(t->err), fmt, args);
		va_end(args);
	}
	return -EIO;
}

static inline int lat_thread_main(void *data)
{
	struct lat_thread *t = data;

	t->rc = t->fn(t);
	kthread_complete_and_exit(&t->done, 0);
}

/*
 * Run @n threads of @fn for about @ms milliseconds and wait for them.
 * The thread array is not test-managed: if a thread never finishes (an
 * implementation that hangs), it is leaked rather than freed under it.
 * Returns the array (results in ops/rc/err), or NULL after a failure
 * that was already reported.
 */
static inline struct lat_thread *lat_run_threads(struct kunit *test, int n,
						 lat_thread_fn fn, void **args,
						 unsigned int ms)
{
	struct lat_thread *t;
	struct task_struct *task;
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);
	unsigned long give_up = deadline + msecs_to_jiffies(4 * LAT_WAIT_MS);
	int i, started = 0;
	bool done, all_done = true;

	t = kcalloc(n, sizeof(*t), GFP_KERNEL);
	if (!t) {
		KUNIT_FAIL(test, "no memory for %d threads", n);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		init_completion(&t[i].done);
		t[i].fn = fn;
		t[i].arg = args[i];
		t[i].id = i;
		t[i].deadline = deadline;
	}
	for (i = 0; i < n; i++) {
		task = kthread_run(lat_thread_main, &t[i], "lnet_api_t%d", i);
		if (IS_ERR(task)) {
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(task));
			/* let the ones started so far stop at once */
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		/* wait in short slices: the hung-task detector watches us */
		do {
			done = wait_for_completion_timeout(&t[i].done, HZ);
		} while (!done && time_before(jiffies, give_up));
		if (!done) {
			KUNIT_FAIL(test, "thread %d did not finish", i);
			all_done = false;
		}
	}
	if (!all_done)
		return NULL;	/* leaked on purpose, see above */
	if (started < n) {
		kfree(t);
		return NULL;
	}
	return t;
}

#endif /* _LNET_TESTS_API_TEST_UTIL_H */
