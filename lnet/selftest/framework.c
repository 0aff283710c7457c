// SPDX-License-Identifier: GPL-2.0
/*
 * The test node (Documentation/wire/selftest.md, "Framework semantics"):
 * one session at a time, made and removed by a console; batches of tests;
 * the framework services on portal 51; the client side of tests (units
 * sending RPCs back to back).
 *
 * lst_fw.mutex guards the session and its batches and tests. Units run
 * without it: their RPC completions step them (lst_unit_done()), and the
 * batch's lock orders their end against a stop.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/lnet/nidstr.h>
#include "selftest.h"

struct lst_session {
	struct lst_sid		sid;
	char			name[LST_NAME_LEN];
	u32			feats;
	u32			timeout;	/* s, 0: never expires */
	unsigned int		nref;
	unsigned long		last_active;	/* jiffies */
	ktime_t			start;
	struct list_head	batches;
	/* what its tests hold (admission, lst_test_admit()) */
	unsigned int		ntests;
	unsigned int		nunits;
	u64			bulk_bytes;
	atomic_t		brw_errors;
	atomic_t		ping_errors;
};

static struct {
	struct mutex		mutex;
	struct lst_session	*ses;
	struct delayed_work	expire_work;
	bool			shutdown;
} lst_fw;

static bool lst_sid_equal(const struct lst_sid *a, const struct lst_sid *b)
{
	return a->ses_nid == b->ses_nid && a->ses_stamp == b->ses_stamp;
}

static const struct lst_test_ops *lst_test_ops_of(u32 service)
{
	if (service == LST_SVC_BRW)
		return &lst_brw_ops;
	if (service == LST_SVC_PING)
		return &lst_ping_ops;
	return NULL;
}

/* ---- units --------------------------------------------------------------- */

static void lst_batch_stop(struct lst_batch *b, bool force);

/* The unit is over: the batch stops being active with its last unit. */
static void lst_unit_end(struct lst_unit *u)
{
	struct lst_batch *b = u->test->batch;
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	u->active = false;
	if (--b->active == 0) {
		b->running = false;
		b->stopping = false;
		wake_up(&b->waitq);
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

/* Post the unit's next RPC; false if the unit is over. */
static bool lst_unit_next(struct lst_unit *u)
{
	struct lst_test *t = u->test;
	int rc;

	t->ops->prep_rpc(u, &u->rpc);
	u->rpc.done = lst_unit_done;
	rc = lst_rpc_post(&u->rpc);
	if (!rc)
		return true;
	atomic_inc(&t->errors);
	lst_fw_count_error(t->batch->ses, t->ops->service);
	return false;
}

void lst_unit_done(struct lst_rpc *rpc)
{
	struct lst_unit *u = container_of(rpc, struct lst_unit, rpc);
	struct lst_test *t = u->test;
	struct lst_batch *b = t->batch;
	unsigned long flags;
	bool more;
	int rc;

	rc = t->ops->done_rpc(u, rpc);
	/* an RPC aborted by a stop is not the test's failure */
	if (rc == -EINTR && READ_ONCE(b->stopping))
		rc = 0;
	if (rc) {
		atomic_inc(&t->errors);
		lst_fw_count_error(b->ses, t->ops->service);
		pr_info_ratelimited("test RPC to %llx failed: %d\n",
				    u->dest.nid, rc);
	}
	u->loops_done++;

	spin_lock_irqsave(&b->lock, flags);
	more = !b->stopping &&
	       (t->loop == U32_MAX || u->loops_done < t->loop) &&
	       !(b->deadline && time_after(jiffies, b->deadline));
	spin_unlock_irqrestore(&b->lock, flags);
	if (rc && t->stop_onerr) {
		lst_batch_stop(b, false);
		more = false;
	}
	if (!more || !lst_unit_next(u))
		lst_unit_end(u);
}

/* ---- batches ---------------------------------------------------------------- */

static struct lst_batch *lst_batch_find(struct lst_session *ses, u64 bid)
{
	struct lst_batch *b;

	list_for_each_entry(b, &ses->batches, list)
		if (b->bid == bid)
			return b;
	return NULL;
}

static int lst_batch_run(struct lst_batch *b, u32 timeout)
{
	struct lst_test *t;
	unsigned long flags;
	unsigned int i, n = 0;

	lockdep_assert_held(&lst_fw.mutex);
	spin_lock_irqsave(&b->lock, flags);
	if (b->active) {
		spin_unlock_irqrestore(&b->lock, flags);
		return -EBUSY;
	}
	list_for_each_entry(t, &b->tests, list)
		if (t->is_client)
			n += t->nunits;
	if (!n) {
		spin_unlock_irqrestore(&b->lock, flags);
		return 0;
	}
	b->running = true;
	b->stopping = false;
	b->deadline = timeout ? jiffies + timeout * HZ : 0;
	b->active = n;
	spin_unlock_irqrestore(&b->lock, flags);

	list_for_each_entry(t, &b->tests, list) {
		if (!t->is_client)
			continue;
		for (i = 0; i < t->nunits; i++) {
			struct lst_unit *u = &t->units[i];

			u->loops_done = 0;
			u->active = true;
			if (!lst_unit_next(u))
				lst_unit_end(u);
		}
	}
	return 0;
}

/* Stop the units after their RPC in flight (@force: abort that RPC). */
static void lst_batch_stop(struct lst_batch *b, bool force)
{
	struct lst_test *t;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&b->lock, flags);
	if (b->active)
		b->stopping = true;
	spin_unlock_irqrestore(&b->lock, flags);
	if (!force)
		return;
	list_for_each_entry(t, &b->tests, list) {
		if (!t->is_client)
			continue;
		for (i = 0; i < t->nunits; i++)
			if (READ_ONCE(t->units[i].active))
				lst_rpc_abort(&t->units[i].rpc, -EINTR);
	}
}

static unsigned int lst_batch_active(struct lst_batch *b, u32 testidx)
{
	struct lst_test *t;
	unsigned int i, n = 0, idx = 0;

	list_for_each_entry(t, &b->tests, list) {
		idx++;
		if (testidx && idx != testidx)
			continue;
		for (i = 0; i < t->nunits; i++)
			n += READ_ONCE(t->units[i].active);
	}
	return n;
}

static void lst_test_free(struct lst_test *t)
{
	unsigned int i;

	if (t->units) {
		for (i = 0; i < t->nunits; i++)
			if (t->units[i].test)
				t->ops->unit_fini(&t->units[i]);
		kvfree(t->units);
	}
	kvfree(t->dests);
	kfree(t);
}

/*
 * The batch's last unit is over and lst_unit_end() is out of the batch:
 * it drops b->active to 0, wakes us and unlocks, all under b->lock, so
 * taking that lock here orders our kfree() after its last touch of @b.
 */
static bool lst_batch_idle(struct lst_batch *b)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&b->lock, flags);
	idle = b->active == 0;
	spin_unlock_irqrestore(&b->lock, flags);
	return idle;
}

static void lst_batch_destroy(struct lst_batch *b)
{
	struct lst_test *t, *tmp;

	lst_batch_stop(b, true);
	wait_event(b->waitq, lst_batch_idle(b));
	list_for_each_entry_safe(t, tmp, &b->tests, list) {
		list_del(&t->list);
		lst_test_free(t);
	}
	list_del(&b->list);
	kfree(b);
}

/* ---- the session ------------------------------------------------------------ */

static void lst_session_destroy(void)
{
	struct lst_session *ses = lst_fw.ses;
	struct lst_batch *b, *tmp;

	lockdep_assert_held(&lst_fw.mutex);
	if (!ses)
		return;
	list_for_each_entry_safe(b, tmp, &ses->batches, list)
		lst_batch_destroy(b);
	pr_info("session %s ended\n", ses->name);
	lst_fw.ses = NULL;
	kfree(ses);
}

void lst_fw_count_error(struct lst_session *ses, u32 service)
{
	atomic_inc(service == LST_SVC_BRW ? &ses->brw_errors :
					    &ses->ping_errors);
}

static void lst_session_expire(struct work_struct *work)
{
	struct lst_session *ses;

	mutex_lock(&lst_fw.mutex);
	ses = lst_fw.ses;
	if (ses && ses->timeout &&
	    time_after(jiffies, ses->last_active + ses->timeout * HZ)) {
		pr_info("session %s: no console for %u s\n",
			ses->name, ses->timeout);
		lst_session_destroy();
	}
	if (!lst_fw.shutdown)
		schedule_delayed_work(&lst_fw.expire_work, HZ);
	mutex_unlock(&lst_fw.mutex);
}

/*
 * The session a framework request names: NULL (with *status) unless it
 * is ours and carries its features. A match keeps the session alive.
 */
static struct lst_session *lst_session_check(struct lst_srpc *s,
					     const struct lst_sid *sid,
					     u32 nomatch, u32 *status)
{
	struct lst_session *ses = lst_fw.ses;

	lockdep_assert_held(&lst_fw.mutex);
	if (!ses || !lst_sid_equal(sid, &ses->sid)) {
		*status = nomatch;
		return NULL;
	}
	ses->last_active = jiffies;
	if (s->feats != ses->feats) {
		*status = EPROTO;
		return NULL;
	}
	return ses;
}

/* Reply header features and sid of the node's session. */
static struct lst_sid lst_reply_sid(struct lst_srpc *s)
{
	struct lst_session *ses = lst_fw.ses;

	s->rpy.ses_feats = ses ? ses->feats : LST_FEATS_MASK;
	return ses ? ses->sid : LST_SID_NONE;
}

/* ---- framework services --------------------------------------------------- */

static int lst_handle_mksn(struct lst_srpc *s)
{
	struct lst_mksn_req *req = &s->req.body.mksn_req;
	struct lst_mksn_rpy *rpy = &s->rpy.body.mksn_rpy;
	char nidstr[LNET_NIDSTR_SIZE];
	struct lst_session *ses;

	mutex_lock(&lst_fw.mutex);
	ses = lst_fw.ses;
	if (req->sid.ses_nid == LNET_NID_ANY) {
		rpy->status = EINVAL;
		goto out;
	}
	if (ses && lst_sid_equal(&ses->sid, &req->sid)) {
		ses->nref++;
		ses->last_active = jiffies;
		goto out;
	}
	if (ses && !req->force) {
		rpy->status = EBUSY;
		goto out;
	}
	if (s->feats & ~LST_FEATS_MASK) {
		rpy->status = EPROTO;
		goto out;
	}
	lst_session_destroy();
	ses = kzalloc(sizeof(*ses), GFP_KERNEL);
	if (!ses) {
		rpy->status = ENOMEM;
		goto out;
	}
	ses->sid = req->sid;
	strscpy(ses->name, req->name, sizeof(ses->name));
	ses->feats = s->feats;
	ses->timeout = lst_session_timeout;
	ses->nref = 1;
	ses->last_active = jiffies;
	ses->start = ktime_get();
	INIT_LIST_HEAD(&ses->batches);
	lst_fw.ses = ses;
	pr_info("session %s from console %s\n", ses->name,
		lnet_nid2str(ses->sid.ses_nid, nidstr, sizeof(nidstr)));
out:
	ses = lst_fw.ses;
	rpy->sid = lst_reply_sid(s);
	rpy->timeout = ses ? ses->timeout : 0;
	if (ses)
		memcpy(rpy->name, ses->name, sizeof(rpy->name));
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static int lst_handle_rmsn(struct lst_srpc *s)
{
	struct lst_rmsn_req *req = &s->req.body.rmsn_req;
	struct lst_rmsn_rpy *rpy = &s->rpy.body.rmsn_rpy;
	struct lst_session *ses;

	mutex_lock(&lst_fw.mutex);
	ses = lst_session_check(s, &req->sid, lst_fw.ses ? EBUSY : ESRCH,
				&rpy->status);
	if (ses && --ses->nref == 0)
		lst_session_destroy();
	rpy->sid = lst_reply_sid(s);
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static int lst_handle_debug(struct lst_srpc *s)
{
	struct lst_debug_req *req = &s->req.body.debug_req;
	struct lst_debug_rpy *rpy = &s->rpy.body.debug_rpy;
	struct lst_session *ses;

	mutex_lock(&lst_fw.mutex);
	ses = lst_fw.ses;
	if (ses && lst_sid_equal(&req->sid, &ses->sid))
		ses->last_active = jiffies;
	rpy->sid = lst_reply_sid(s);
	if (ses) {
		rpy->timeout = ses->timeout;
		memcpy(rpy->name, ses->name, sizeof(rpy->name));
	}
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static int lst_handle_batch(struct lst_srpc *s)
{
	struct lst_batch_req *req = &s->req.body.batch_req;
	struct lst_batch_rpy *rpy = &s->rpy.body.batch_rpy;
	struct lst_session *ses;
	struct lst_batch *b;

	mutex_lock(&lst_fw.mutex);
	ses = lst_session_check(s, &req->sid, ESRCH, &rpy->status);
	if (!ses)
		goto out;
	b = lst_batch_find(ses, req->bid);
	if (!b) {
		rpy->status = ENOENT;
		goto out;
	}
	switch (req->opc) {
	case LST_BATCH_RUN:
		rpy->status = -lst_batch_run(b, req->arg);
		break;
	case LST_BATCH_STOP:
		lst_batch_stop(b, req->arg);
		break;
	case LST_BATCH_QUERY:
		rpy->active = lst_batch_active(b, req->testidx);
		break;
	default:
		rpy->status = EINVAL;
	}
out:
	rpy->sid = lst_reply_sid(s);
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static void lst_test_param_swab(u32 service, u32 feats,
				union lst_test_param *p)
{
	if (service == LST_SVC_BRW && (feats & LST_FEAT_BULK_LEN)) {
		p->brw1.opc = swab16(p->brw1.opc);
		p->brw1.flags = swab16(p->brw1.flags);
		p->brw1.len = swab32(p->brw1.len);
		p->brw1.offset = swab32(p->brw1.offset);
	} else if (service == LST_SVC_BRW) {
		p->brw0.opc = swab32(p->brw0.opc);
		p->brw0.npages = swab32(p->brw0.npages);
		p->brw0.flags = swab32(p->brw0.flags);
	} else {
		p->ping.size = swab32(p->ping.size);
		p->ping.flags = swab32(p->ping.flags);
	}
}

/* Client role: the destination list, GET from the console. */
static int lst_test_fetch_dests(struct lst_srpc *s, struct lst_test *t)
{
	struct lst_test_req *req = &s->req.body.test_req;
	unsigned int i, j, n = 0;
	struct lst_bulk *bk;
	int rc;

	bk = lst_bulk_alloc(req->ndest * sizeof(struct lst_dest), 0,
			    LST_DESTS_PER_PAGE * sizeof(struct lst_dest));
	t->dests = kvcalloc(req->ndest, sizeof(*t->dests), GFP_KERNEL);
	if (!bk || !t->dests) {
		lst_bulk_free(bk);
		return -ENOMEM;
	}
	rc = lst_bulk_xfer(s, req->bulkid, bk, true, lst_rpc_timeout_s);
	if (rc) {
		lst_bulk_free(bk);
		return -EIO;
	}
	for (i = 0; i < bk->nbv; i++) {
		struct lst_dest *d = page_address(bk->bv[i].bv_page);

		for (j = 0; j < bk->bv[i].bv_len / sizeof(*d); j++, n++) {
			t->dests[n].nid = s->swapped ? swab64(d[j].nid) : d[j].nid;
			t->dests[n].pid = s->swapped ? swab32(d[j].pid) : d[j].pid;
		}
	}
	t->ndest = n;
	lst_bulk_free(bk);
	return 0;
}

static int lst_test_make_units(struct lst_test *t)
{
	unsigned int i;
	u64 n = (u64)t->ndest * t->concur;

	t->units = kvcalloc(n, sizeof(*t->units), GFP_KERNEL | __GFP_NOWARN);
	if (!t->units)
		return -ENOMEM;
	t->nunits = n;
	for (i = 0; i < n; i++) {
		struct lst_unit *u = &t->units[i];

		u->dest = t->dests[i / t->concur];
		if (t->ops->unit_init(u, t))
			return -ENOMEM;
		u->test = t;
	}
	return 0;
}

static void lst_test_refused(struct lst_srpc *s, const struct lst_session *ses,
			     u64 units, u64 unit_bytes)
{
	char nidstr[LNET_NIDSTR_SIZE];

	pr_warn_ratelimited("session %s: TEST from %s refused: %llu units of %llu bulk bytes on top of %u tests, %u units, %llu bytes (max_tests %u, max_units %u, max_bulk_mb %llu)\n",
			    ses->name,
			    lnet_nid2str(s->peer.nid, nidstr, sizeof(nidstr)),
			    units, unit_bytes, ses->ntests, ses->nunits,
			    ses->bulk_bytes, lst_max_tests, lst_max_units,
			    lst_max_bulk_bytes() >> 20);
}

/**
 * lst_test_admit() - may a session take one more test?
 * @ses: the session, with what its tests hold already
 * @units: units the test asks for (destinations x concurrency)
 * @unit_bytes: bulk bytes (whole pages) each unit keeps for its life
 *
 * A TEST makes the node allocate every unit and its buffer up front, for
 * whoever made the session: the module parameters max_tests, max_units
 * and max_bulk_mb bound what one session can make it hold.
 *
 * Return: 0, or -E2BIG (the reply's status tells the console).
 */
static int lst_test_admit(const struct lst_session *ses, u64 units,
			  u64 unit_bytes)
{
	u64 bytes = units * unit_bytes;	/* < 2^27 units of < 2^21 bytes */

	if (ses->ntests >= lst_max_tests ||
	    units > lst_max_units - min(ses->nunits, lst_max_units) ||
	    bytes > lst_max_bulk_bytes() -
		    min(ses->bulk_bytes, lst_max_bulk_bytes()))
		return -E2BIG;
	return 0;
}

static int lst_handle_test(struct lst_srpc *s)
{
	struct lst_test_req *req = &s->req.body.test_req;
	struct lst_test_rpy *rpy = &s->rpy.body.test_rpy;
	const struct lst_test_ops *ops = lst_test_ops_of(req->service);
	struct lst_session *ses;
	struct lst_test *t = NULL;
	u64 units = 0, unit_bytes = 0;
	struct lst_batch *b;
	int rc;

	if (!ops || !req->loop || !req->concur || req->concur > LST_MAX_CONCUR ||
	    req->ndest > LST_MAX_NDEST || (req->is_client && !req->ndest)) {
		mutex_lock(&lst_fw.mutex);
		rpy->status = EINVAL;
		goto out;
	}
	if (s->swapped)
		lst_test_param_swab(req->service, s->feats, &req->param);

	mutex_lock(&lst_fw.mutex);
	ses = lst_session_check(s, &req->sid, ENOENT, &rpy->status);
	if (!ses)
		goto out;
	rpy->status = req->is_client ? -ops->check_param(req, ses->feats) : 0;
	if (rpy->status)
		goto out;
	/* a server-role test holds no unit, but its test all the same */
	if (req->is_client) {
		units = (u64)req->ndest * req->concur;
		unit_bytes = ops->unit_bytes ?
			     ops->unit_bytes(&req->param, ses->feats) : 0;
	}
	rc = lst_test_admit(ses, units, unit_bytes);
	if (rc) {
		lst_test_refused(s, ses, units, unit_bytes);
		rpy->status = -rc;
		goto out;
	}
	b = lst_batch_find(ses, req->bid);
	if (b && READ_ONCE(b->active)) {
		rpy->status = EBUSY;
		goto out;
	}
	if (!b) {
		b = kzalloc(sizeof(*b), GFP_KERNEL);
		if (!b) {
			rpy->status = ENOMEM;
			goto out;
		}
		b->bid = req->bid;
		b->ses = ses;
		spin_lock_init(&b->lock);
		init_waitqueue_head(&b->waitq);
		INIT_LIST_HEAD(&b->tests);
		list_add_tail(&b->list, &ses->batches);
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		rpy->status = ENOMEM;
		goto out;
	}
	t->batch = b;
	t->ops = ops;
	t->is_client = req->is_client;
	t->stop_onerr = req->stop_onerr;
	t->loop = req->loop;
	t->concur = req->concur;
	t->feats = ses->feats;
	t->param = req->param;
	atomic_set(&t->errors, 0);
	/* server role: the service's buffers and the lazy portal take the load */
	if (t->is_client) {
		rc = lst_test_fetch_dests(s, t);
		if (!rc)
			rc = lst_test_make_units(t);
		rpy->status = -rc;
		if (rpy->status) {
			lst_test_free(t);
			goto out;
		}
	}
	list_add_tail(&t->list, &b->tests);
	ses->ntests++;
	ses->nunits += t->nunits;
	ses->bulk_bytes += t->nunits * unit_bytes;
out:
	rpy->sid = lst_reply_sid(s);
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static int lst_handle_stat(struct lst_srpc *s)
{
	struct lst_stat_req *req = &s->req.body.stat_req;
	struct lst_stat_rpy *rpy = &s->rpy.body.stat_rpy;
	struct lst_session *ses;
	struct lst_batch *b;

	mutex_lock(&lst_fw.mutex);
	if (req->sid.ses_nid == LNET_NID_ANY) {
		rpy->status = EINVAL;
		goto out;
	}
	ses = lst_session_check(s, &req->sid, ESRCH, &rpy->status);
	if (!ses)
		goto out;
	rpy->fw.running_ms = ktime_ms_delta(ktime_get(), ses->start);
	list_for_each_entry(b, &ses->batches, list)
		rpy->fw.active_batches += READ_ONCE(b->active) != 0;
	rpy->fw.brw_errors = atomic_read(&ses->brw_errors);
	rpy->fw.ping_errors = atomic_read(&ses->ping_errors);
	rpy->rpc.errors = atomic_read(&lst_stats.errors);
	rpy->rpc.rpcs_sent = atomic_read(&lst_stats.sent);
	rpy->rpc.rpcs_rcvd = atomic_read(&lst_stats.rcvd);
	rpy->rpc.rpcs_dropped = atomic_read(&lst_stats.dropped);
	rpy->rpc.rpcs_expired = atomic_read(&lst_stats.expired);
	rpy->rpc.bulk_get = atomic64_read(&lst_stats.bulk_get);
	rpy->rpc.bulk_put = atomic64_read(&lst_stats.bulk_put);
	lst_get_lnet_counters(&rpy->lnet);
out:
	rpy->sid = lst_reply_sid(s);
	mutex_unlock(&lst_fw.mutex);
	return 0;
}

static struct lst_service lst_fw_services[] = {
	{ .id = LST_SVC_DEBUG, .req_type = LST_MSG_DEBUG_REQST,
	  .name = "debug", .handle = lst_handle_debug },
	{ .id = LST_SVC_MAKE_SESSION, .req_type = LST_MSG_MKSN_REQST,
	  .name = "make_session", .handle = lst_handle_mksn },
	{ .id = LST_SVC_REMOVE_SESSION, .req_type = LST_MSG_RMSN_REQST,
	  .name = "remove_session", .handle = lst_handle_rmsn },
	{ .id = LST_SVC_BATCH, .req_type = LST_MSG_BATCH_REQST,
	  .name = "batch", .handle = lst_handle_batch },
	{ .id = LST_SVC_TEST, .req_type = LST_MSG_TEST_REQST,
	  .name = "test", .handle = lst_handle_test },
	{ .id = LST_SVC_QUERY_STAT, .req_type = LST_MSG_STAT_REQST,
	  .name = "query_stat", .handle = lst_handle_stat },
};

int lst_framework_startup(void)
{
	unsigned int i;
	int rc;

	mutex_init(&lst_fw.mutex);
	lst_fw.shutdown = false;
	INIT_DELAYED_WORK(&lst_fw.expire_work, lst_session_expire);

	rc = lst_service_start(&lst_ping_service, lst_test_buffers);
	if (rc)
		return rc;
	rc = lst_service_start(&lst_brw_service, lst_test_buffers);
	if (rc)
		goto out_ping;
	for (i = 0; i < ARRAY_SIZE(lst_fw_services); i++) {
		rc = lst_service_start(&lst_fw_services[i],
				       lst_framework_buffers);
		if (rc)
			goto out_fw;
	}
	schedule_delayed_work(&lst_fw.expire_work, HZ);
	return 0;

out_fw:
	while (i--)
		lst_service_stop(&lst_fw_services[i]);
	lst_service_stop(&lst_brw_service);
out_ping:
	lst_service_stop(&lst_ping_service);
	return rc;
}

void lst_framework_shutdown(void)
{
	unsigned int i;

	mutex_lock(&lst_fw.mutex);
	lst_fw.shutdown = true;
	mutex_unlock(&lst_fw.mutex);
	cancel_delayed_work_sync(&lst_fw.expire_work);

	/* no new request, then no session: its units end with it */
	for (i = 0; i < ARRAY_SIZE(lst_fw_services); i++)
		lst_service_stop(&lst_fw_services[i]);
	mutex_lock(&lst_fw.mutex);
	lst_session_destroy();
	mutex_unlock(&lst_fw.mutex);
	lst_service_stop(&lst_brw_service);
	lst_service_stop(&lst_ping_service);
}
