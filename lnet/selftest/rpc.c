// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest RPC layer (Documentation/wire/selftest.md, "One RPC"):
 * client RPCs (reply and bulk MDs on portal 52, the 160-byte request PUT
 * without ACK), services (request buffers on the lazy portals 50 and 51,
 * one work item per request), and a handler's active bulk and reply.
 *
 * Every MD is on one callback-only EQ whose handler finds its owner from
 * md.user_ptr (struct lst_mdcb). lst_nmd counts the MDs alive, so
 * shutdown can wait until the last one has delivered its final event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/swab.h>
#include <linux/wait.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/nidstr.h>
#include "selftest.h"

struct lst_rpc_stats lst_stats;

static struct lnet_handle_eq lst_eqh;
static atomic_t lst_nmd = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(lst_md_waitq);
static atomic64_t lst_ids;

u64 lst_next_id(void)
{
	return atomic64_inc_return(&lst_ids);
}

/*
 * Run @work on @peer's CPT: on this CPU when it belongs to that CPT, so
 * that an RPC's next step costs no cross-CPU wakeup (events arrive on the
 * CPT already when the LND honours it), else round robin over the CPT.
 */
void lst_queue_work(lnet_nid_t peer, struct work_struct *work)
{
	static atomic_t rr = ATOMIC_INIT(0);
	const struct cpumask *mask = lnet_cpt_cpumask(lnet_cpt_of_nid(peer));
	unsigned int n = 0, want;
	int cpu, pick = WORK_CPU_UNBOUND;

	if (!mask || cpumask_empty(mask)) {
		queue_work(lst_wq, work);
		return;
	}
	cpu = raw_smp_processor_id();	/* a stale pick only costs a wakeup */
	if (cpumask_test_cpu(cpu, mask)) {
		queue_work_on(cpu, lst_wq, work);
		return;
	}
	want = (unsigned int)atomic_inc_return(&rr) % cpumask_weight(mask);
	for_each_cpu_and(cpu, mask, cpu_online_mask) {
		pick = cpu;
		if (n++ == want)
			break;
	}
	queue_work_on(pick, lst_wq, work);
}

static void lst_eq_handler(struct lnet_event *ev)
{
	struct lst_mdcb *cb = ev->md.user_ptr;
	bool last = ev->unlinked;

	/*
	 * @cb may be freed by its owner once fn() saw the final event. LNet
	 * lets LNetEQFree() succeed before this callback runs (the MD stops
	 * counting then, lnet/eq.c), so the unload waits on lst_nmd, then
	 * for this RCU section to end (lst_rpc_shutdown()).
	 */
	rcu_read_lock();
	cb->fn(cb, ev);
	if (last && atomic_dec_and_test(&lst_nmd))
		wake_up(&lst_md_waitq);
	rcu_read_unlock();
}

static struct lnet_md lst_md(void *start, unsigned int len, bool kiov,
			     int threshold, unsigned int options,
			     struct lst_mdcb *cb)
{
	struct lnet_md md = {
		.start		= start,
		.length		= len,
		.threshold	= threshold,
		.options	= options | (kiov ? LNET_MD_KIOV : 0),
		.user_ptr	= cb,
		.eq_handle	= lst_eqh,
	};

	return md;
}

/* An MD on portal 52 for a peer's PUT or GET with match bits @mbits. */
static int lst_post_passive(struct lnet_process_id from, u64 mbits,
			    struct lnet_md md, struct lnet_handle_md *mdh)
{
	struct lnet_handle_me meh;
	int rc;

	rc = LNetMEAttach(LST_RDMA_PORTAL, from, mbits, 0, LNET_UNLINK,
			  LNET_INS_AFTER, &meh);
	if (rc)
		return rc;
	atomic_inc(&lst_nmd);
	rc = LNetMDAttach(meh, md, LNET_UNLINK, mdh);
	if (rc) {
		atomic_dec(&lst_nmd);
		LNetMEUnlink(meh);
	}
	return rc;
}

/*
 * Replies and bulk are matched on the peer's id; a peer that is this node
 * reaches us over loopback with another NID, so only its pid is matched.
 */
static struct lnet_process_id lst_match_id(struct lnet_process_id peer)
{
	if (LNetDist(peer.nid, NULL, NULL) == 0)
		peer.nid = LNET_NID_ANY;
	return peer;
}

/* ---- client RPCs ------------------------------------------------------- */

static u32 lst_service_req_type(u32 service)
{
	switch (service) {
	case LST_SVC_DEBUG:		return LST_MSG_DEBUG_REQST;
	case LST_SVC_MAKE_SESSION:	return LST_MSG_MKSN_REQST;
	case LST_SVC_REMOVE_SESSION:	return LST_MSG_RMSN_REQST;
	case LST_SVC_BATCH:		return LST_MSG_BATCH_REQST;
	case LST_SVC_TEST:		return LST_MSG_TEST_REQST;
	case LST_SVC_QUERY_STAT:	return LST_MSG_STAT_REQST;
	case LST_SVC_JOIN:		return LST_MSG_JOIN_REQST;
	case LST_SVC_BRW:		return LST_MSG_BRW_REQST;
	case LST_SVC_PING:		return LST_MSG_PING_REQST;
	}
	return ~0U;
}

/* "1 expired" in show_error says no more: the console names the RPC. */
static void lst_rpc_expired(const struct lst_rpc *rpc)
{
	char nid[LNET_NIDSTR_SIZE];

	atomic_inc(&lst_stats.expired);
	pr_warn_ratelimited("RPC (service %u) to %s timed out after %u s%s%s\n",
			    rpc->service,
			    lnet_nid2str(rpc->peer.nid, nid, sizeof(nid)),
			    rpc->timeout, rpc->replied ? ", replied" : "",
			    rpc->bulk && !rpc->bulk_ok ? ", bulk not done" : "");
}

static void lst_rpc_complete(struct work_struct *work)
{
	struct lst_rpc *rpc = container_of(work, struct lst_rpc, work);
	int status = rpc->err, rc;

	del_timer_sync(&rpc->timer);
	if (!status && !rpc->replied)
		status = -EIO;
	if (!status) {
		rc = lst_msg_unpack(&rpc->rpy, rpc->rpy_len);
		if (rc < 0 || rpc->rpy.type != lst_reply_type(rpc->req.type))
			status = -EPROTO;
		else
			rpc->rpy_swapped = rc;
	}
	/*
	 * A server that refuses a request (a TEST over its session's limits)
	 * answers without touching the bulk: its status is the answer. A
	 * success without the bulk is not.
	 */
	if (!status && rpc->bulk && !rpc->bulk_ok && !rpc->rpy.body.status)
		status = -EIO;
	if (status == -ETIMEDOUT)
		lst_rpc_expired(rpc);
	else if (status)
		atomic_inc(&lst_stats.errors);
	rpc->status = status;
	if (rpc->done)
		rpc->done(rpc);
	else
		complete(&rpc->comp);
}

/*
 * Called with rpc->lock held for the final MD event, the end of posting or
 * of an abort: the RPC completes (and done() may free or reuse it) only
 * once nobody is posting it or aborting it.
 */
static bool lst_rpc_settle(struct lst_rpc *rpc)
{
	lockdep_assert_held(&rpc->lock);
	return rpc->pending == 0 && !rpc->posting && !rpc->aborting;
}

/*
 * Start an abort under rpc->lock: take the MD handles to unlink and hold
 * the RPC (rpc->aborting) so that it cannot complete, and be freed or
 * reposted by its done(), before lst_rpc_abort_end() has unlinked them.
 */
static bool lst_rpc_abort_begin(struct lst_rpc *rpc, int why,
				struct lnet_handle_md mdh[3])
{
	lockdep_assert_held(&rpc->lock);
	if (rpc->aborted || rpc->pending == 0)
		return false;
	rpc->aborted = true;
	rpc->aborting = true;
	if (!rpc->err)
		rpc->err = why;
	mdh[0] = rpc->req_mdh;
	mdh[1] = rpc->rpy_mdh;
	mdh[2] = rpc->bulk_mdh;
	return true;
}

/* Drop a hold on @rpc (@hold: its posting or aborting); the last completes it. */
static void lst_rpc_release(struct lst_rpc *rpc, bool *hold)
{
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&rpc->lock, flags);
	*hold = false;
	done = lst_rpc_settle(rpc);
	spin_unlock_irqrestore(&rpc->lock, flags);
	if (done)
		lst_queue_work(rpc->peer.nid, &rpc->work);
}

static void lst_rpc_abort_end(struct lst_rpc *rpc, struct lnet_handle_md mdh[3])
{
	int i;

	/* no selftest lock held: an unlink may deliver its event here */
	for (i = 0; i < 3; i++)
		if (!LNetMDHandleIsInvalid(mdh[i]))
			LNetMDUnlink(mdh[i]);
	lst_rpc_release(rpc, &rpc->aborting);
}

/*
 * The status a reply just received carries, in host order, without
 * unpacking it (lst_rpc_complete() does that); 0 if it is malformed.
 */
static u32 lst_reply_status_peek(const struct lst_msg *m, unsigned int len)
{
	int order = lst_msg_byte_order(m, len);

	if (order < 0)
		return 0;
	return order ? swab32(m->body.status) : m->body.status;
}

static void lst_rpc_event(struct lst_rpc *rpc, struct lnet_event *ev,
			  struct lst_mdcb *which)
{
	struct lnet_handle_md mdh[3], unused_bulk;
	unsigned long flags;
	bool fail = false, done = false;

	LNetInvalidateMDHandle(&unused_bulk);
	spin_lock_irqsave(&rpc->lock, flags);
	if (which == &rpc->rpy_cb && ev->type == LNET_EVENT_PUT && !ev->status) {
		rpc->replied = true;
		rpc->rpy_len = ev->mlength;
		/*
		 * A refusal (a TEST over the server's limits) comes without
		 * the bulk, and leaves a bulk MD nobody will use. A success
		 * may overtake its bulk (another connection, another MD's
		 * callback): that bulk MD must stay.
		 */
		if (rpc->bulk && !rpc->bulk_ok &&
		    lst_reply_status_peek(&rpc->rpy, ev->mlength))
			unused_bulk = rpc->bulk_mdh;
	} else if (which == &rpc->bulk_cb && !ev->status &&
		   (ev->type == LNET_EVENT_PUT || ev->type == LNET_EVENT_GET)) {
		rpc->bulk_ok = ev->mlength == rpc->bulk->len;
		if (!rpc->bulk_ok && !rpc->err)
			rpc->err = -EPROTO;
	}
	if (ev->status && ev->type != LNET_EVENT_UNLINK && !rpc->err)
		rpc->err = ev->status;
	if (ev->unlinked)
		rpc->pending--;
	/*
	 * A request that could not be sent will never be answered: abort
	 * the MDs left, holding the RPC from here, as the others' final
	 * events may come on another CPU as soon as we unlock.
	 */
	if (rpc->err)
		fail = lst_rpc_abort_begin(rpc, rpc->err, mdh);
	if (ev->unlinked)
		done = lst_rpc_settle(rpc);
	spin_unlock_irqrestore(&rpc->lock, flags);

	if (fail)
		lst_rpc_abort_end(rpc, mdh);
	else if (!LNetMDHandleIsInvalid(unused_bulk))
		LNetMDUnlink(unused_bulk);	/* its UNLINK event settles the RPC */
	if (done)
		lst_queue_work(rpc->peer.nid, &rpc->work);
}

static void lst_rpc_req_ev(struct lst_mdcb *cb, struct lnet_event *ev)
{
	lst_rpc_event(container_of(cb, struct lst_rpc, req_cb), ev, cb);
}

static void lst_rpc_rpy_ev(struct lst_mdcb *cb, struct lnet_event *ev)
{
	lst_rpc_event(container_of(cb, struct lst_rpc, rpy_cb), ev, cb);
}

static void lst_rpc_bulk_ev(struct lst_mdcb *cb, struct lnet_event *ev)
{
	lst_rpc_event(container_of(cb, struct lst_rpc, bulk_cb), ev, cb);
}

static void lst_rpc_timeout(struct timer_list *t)
{
	struct lst_rpc *rpc = from_timer(rpc, t, timer);

	lst_rpc_abort(rpc, -ETIMEDOUT);
}

/**
 * lst_rpc_abort() - fail an RPC in flight
 * @rpc: the RPC
 * @why: its status (-ETIMEDOUT, -EINTR, ...) unless it already failed
 *
 * Unlinks whatever MD is left; the final events complete the RPC. Harmless
 * on an RPC that is completing: stale handles are refused by LNet.
 */
void lst_rpc_abort(struct lst_rpc *rpc, int why)
{
	struct lnet_handle_md mdh[3];
	unsigned long flags;
	bool begun;

	spin_lock_irqsave(&rpc->lock, flags);
	begun = lst_rpc_abort_begin(rpc, why, mdh);
	spin_unlock_irqrestore(&rpc->lock, flags);
	if (begun)
		lst_rpc_abort_end(rpc, mdh);
}

/**
 * lst_rpc_init() - prepare an RPC (first use or reuse after completion)
 * @rpc: the RPC; its lock, timer and work are set up on first use only
 *	(rpc->done == NULL and zeroed memory, or lst_rpc_init() before)
 * @peer: the destination
 * @service: the service id (request type and portal follow from it)
 * @feats: session features for the request header
 * @timeout: seconds before the RPC is aborted with -ETIMEDOUT
 */
void lst_rpc_init(struct lst_rpc *rpc, struct lnet_process_id peer,
		  u32 service, u32 feats, u32 timeout)
{
	unsigned long flags;

	if (!rpc->setup) {
		spin_lock_init(&rpc->lock);
		timer_setup(&rpc->timer, lst_rpc_timeout, 0);
		INIT_WORK(&rpc->work, lst_rpc_complete);
		rpc->req_cb.fn = lst_rpc_req_ev;
		rpc->rpy_cb.fn = lst_rpc_rpy_ev;
		rpc->bulk_cb.fn = lst_rpc_bulk_ev;
		init_completion(&rpc->comp);
		rpc->setup = true;
	}
	rpc->peer = peer;
	rpc->service = service;
	rpc->timeout = timeout ?: lst_rpc_timeout_s;
	lst_msg_init(&rpc->req, lst_service_req_type(service), feats);
	rpc->req.body.rpyid = lst_next_id();
	memset(&rpc->rpy, 0, sizeof(rpc->rpy));
	rpc->bulk = NULL;
	rpc->bulk_sink = false;
	rpc->bulkid = 0;
	rpc->status = 0;
	rpc->rpy_swapped = false;
	/*
	 * The events of its last use are all in (it completed), but what
	 * they change is rpc->lock's: reset it the same way.
	 */
	spin_lock_irqsave(&rpc->lock, flags);
	rpc->pending = 0;
	rpc->posting = false;
	rpc->err = 0;
	rpc->replied = false;
	rpc->bulk_ok = false;
	rpc->aborted = false;
	rpc->aborting = false;
	rpc->rpy_len = 0;
	spin_unlock_irqrestore(&rpc->lock, flags);
	LNetInvalidateMDHandle(&rpc->req_mdh);
	LNetInvalidateMDHandle(&rpc->rpy_mdh);
	LNetInvalidateMDHandle(&rpc->bulk_mdh);
	reinit_completion(&rpc->comp);
}

/* The bulk id of an RPC with bulk: a fresh one, also set in the request. */
u64 lst_rpc_set_bulk(struct lst_rpc *rpc, struct lst_bulk *bk, bool sink)
{
	rpc->bulk = bk;
	rpc->bulk_sink = sink;
	rpc->bulkid = lst_next_id();
	return rpc->bulkid;
}

/**
 * lst_rpc_post() - send an RPC
 * @rpc: prepared by lst_rpc_init() (and lst_rpc_set_bulk())
 *
 * Return: 0 when the RPC is under way: done() (or the completion of
 * lst_rpc_call()) follows, whatever happens next. -errno when nothing
 * could be posted; then nothing follows.
 */
int lst_rpc_post(struct lst_rpc *rpc)
{
	struct lnet_process_id from = lst_match_id(rpc->peer);
	struct lnet_handle_md mdh;
	unsigned int portal;
	unsigned long flags;
	int rc;

	portal = rpc->service <= LST_SVC_FRAMEWORK_MAX ?
		 LST_FRAMEWORK_PORTAL : LST_REQUEST_PORTAL;
	rpc->posting = true;

	rc = lst_post_passive(from, rpc->req.body.rpyid,
			      lst_md(&rpc->rpy, sizeof(rpc->rpy), false, 1,
				     LNET_MD_OP_PUT, &rpc->rpy_cb),
			      &mdh);
	if (rc) {
		rpc->posting = false;
		return rc;
	}
	spin_lock_irqsave(&rpc->lock, flags);
	rpc->rpy_mdh = mdh;
	rpc->pending++;
	spin_unlock_irqrestore(&rpc->lock, flags);

	if (rpc->bulk) {
		rc = lst_post_passive(from, rpc->bulkid,
				      lst_md(rpc->bulk->bv, rpc->bulk->nbv, true, 1,
					     rpc->bulk_sink ? LNET_MD_OP_PUT :
							      LNET_MD_OP_GET,
					     &rpc->bulk_cb),
				      &mdh);
		if (rc)
			goto fail;
		spin_lock_irqsave(&rpc->lock, flags);
		rpc->bulk_mdh = mdh;
		rpc->pending++;
		spin_unlock_irqrestore(&rpc->lock, flags);
	}

	atomic_inc(&lst_nmd);
	rc = LNetMDBind(lst_md(&rpc->req, sizeof(rpc->req), false, 1, 0,
			       &rpc->req_cb), LNET_UNLINK, &mdh);
	if (rc) {
		atomic_dec(&lst_nmd);
		goto fail;
	}
	spin_lock_irqsave(&rpc->lock, flags);
	rpc->req_mdh = mdh;
	rpc->pending++;
	spin_unlock_irqrestore(&rpc->lock, flags);

	mod_timer(&rpc->timer, jiffies + rpc->timeout * HZ);
	atomic_inc(&lst_stats.sent);
	rc = LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ, rpc->peer, portal,
		     rpc->service, 0, 0);
	if (rc)
		goto fail;
	goto posted;

fail:
	lst_rpc_abort(rpc, rc);
posted:
	lst_rpc_release(rpc, &rpc->posting);
	return 0;
}

/**
 * lst_rpc_call() - send an RPC and wait for its end
 * @rpc: prepared, with no done() callback
 *
 * Return: rpc->status.
 */
int lst_rpc_call(struct lst_rpc *rpc)
{
	int rc;

	rpc->done = NULL;
	rc = lst_rpc_post(rpc);
	if (rc) {
		rpc->status = rc;
		return rc;
	}
	wait_for_completion(&rpc->comp);
	return rpc->status;
}

/* ---- one active operation from a handler: bulk, reply -------------------- */

struct lst_active {
	struct lst_mdcb		cb;
	struct completion	done;
	int			status;
	unsigned int		mlength;
	bool			get;
	bool			replied;
};

static void lst_active_ev(struct lst_mdcb *cb, struct lnet_event *ev)
{
	struct lst_active *a = container_of(cb, struct lst_active, cb);

	if (ev->status && !a->status)
		a->status = ev->status;
	if (ev->type == LNET_EVENT_REPLY) {
		a->mlength = ev->mlength;
		a->replied = true;
	}
	if (ev->unlinked) {
		/*
		 * A GET's REPLY never came: its MD was unlinked by us. (The
		 * SEND event may come last: a send the LND finalizes when
		 * the peer confirms it can end after the REPLY is in.)
		 */
		if (a->get && !a->status && !a->replied)
			a->status = -EIO;
		complete(&a->done);
	}
}

/*
 * For @s (being served): PUT (no ACK) @start (@len bytes, or @len
 * fragments if @kiov; @nob bytes) to the requester, or GET @nob bytes into
 * it; wait for the end. A service stop unlinks the MD (s->active_mdh), so
 * an unanswered GET does not hold the unload for a whole timeout.
 */
static int lst_active_op(struct lst_srpc *s, u64 mbits, void *start,
			 unsigned int len, unsigned int nob, bool kiov,
			 bool get, unsigned int timeout)
{
	struct lst_active a = { .cb.fn = lst_active_ev, .get = get };
	struct lst_service *svc = s->svc;
	struct lnet_handle_md mdh;
	unsigned long flags;
	bool stopping;
	int rc;

	init_completion(&a.done);
	atomic_inc(&lst_nmd);
	rc = LNetMDBind(lst_md(start, len, kiov, get ? 2 : 1, 0, &a.cb),
			LNET_UNLINK, &mdh);
	if (rc) {
		atomic_dec(&lst_nmd);
		return rc;
	}
	spin_lock_irqsave(&svc->lock, flags);
	s->active_mdh = mdh;
	stopping = svc->stopping;
	spin_unlock_irqrestore(&svc->lock, flags);

	if (stopping)
		rc = -ESHUTDOWN;
	else if (get)
		rc = LNetGet(LNET_NID_ANY, mdh, s->peer, LST_RDMA_PORTAL, mbits, 0);
	else
		rc = LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ, s->peer,
			     LST_RDMA_PORTAL, mbits, 0, 0);
	if (rc) {
		a.status = rc;
		LNetMDUnlink(mdh);
	}
	/*
	 * Killable only to keep the hung-task detector quiet: an unanswered
	 * GET rightly waits the whole RPC timeout (64 s by default), and a
	 * kworker never gets the fatal signal that would end it early.
	 */
	if (wait_for_completion_killable_timeout(&a.done,
						 (timeout ?: 1) * HZ) <= 0) {
		LNetMDUnlink(mdh);
		wait_for_completion(&a.done);
		if (!a.status)
			a.status = -ETIMEDOUT;
	}
	spin_lock_irqsave(&svc->lock, flags);
	LNetInvalidateMDHandle(&s->active_mdh);
	spin_unlock_irqrestore(&svc->lock, flags);
	/* a short GET leaves part of the sink as it was: refuse it */
	if (!a.status && get && a.mlength != nob)
		return -EPROTO;
	return a.status;
}

/**
 * lst_bulk_xfer() - a handler's active bulk transfer
 * @s: the request being served (its requester owns the bulk MD)
 * @bulkid: its bulk MD's match bits
 * @bk: our buffer
 * @sink: true to GET the peer's data into @bk, false to PUT @bk
 * @timeout: seconds
 *
 * Return: 0, or -errno (-EPROTO if a GET moved another length).
 */
int lst_bulk_xfer(struct lst_srpc *s, u64 bulkid, struct lst_bulk *bk,
		  bool sink, unsigned int timeout)
{
	int rc;

	rc = lst_active_op(s, bulkid, bk->bv, bk->nbv, bk->len, true, sink,
			   timeout);
	if (rc)
		return rc;
	atomic64_add(bk->len, sink ? &lst_stats.bulk_get : &lst_stats.bulk_put);
	return 0;
}

/* ---- services ----------------------------------------------------------- */

static void lst_srpc_work(struct work_struct *work);

static void lst_srpc_ev(struct lst_mdcb *cb, struct lnet_event *ev)
{
	struct lst_srpc *s = container_of(cb, struct lst_srpc, cb);
	struct lst_service *svc = s->svc;
	unsigned long flags;

	if (ev->type == LNET_EVENT_PUT) {
		s->peer = ev->initiator;
		s->ev_status = ev->status;
		s->ev_mlength = ev->mlength;
		s->ev_rlength = ev->rlength;
	}
	if (!ev->unlinked)
		return;
	spin_lock_irqsave(&svc->lock, flags);
	s->posted = false;
	if (ev->type == LNET_EVENT_PUT) {
		s->serving = true;
		lst_queue_work(s->peer.nid, &s->work);
	} else {
		/* unlinked by lst_service_stop() */
		svc->nactive--;
		wake_up(&svc->waitq);
	}
	spin_unlock_irqrestore(&svc->lock, flags);
}

/*
 * Post @s's request MD; -ESHUTDOWN once the service is stopping.
 *
 * lst_service_stop() sets svc->stopping, then unlinks each buffer's MD
 * that it finds posted, both under svc->lock. A buffer is marked posted
 * only while the service is not stopping, and its handle is published
 * under the lock after LNetMDAttach(): if the stop began in between, the
 * stopper may have found no handle to unlink, so we unlink it ourselves
 * (a handle the stopper did unlink is stale by then, and refused). A
 * request may land inside LNetMDAttach() and be served, and the buffer
 * posted again, before we publish: post_seq keeps our stale handle from
 * replacing the newer one.
 */
static int lst_srpc_post(struct lst_srpc *s)
{
	struct lnet_process_id any = { .nid = LNET_NID_ANY, .pid = LNET_PID_ANY };
	struct lst_service *svc = s->svc;
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	unsigned long flags;
	unsigned int seq = 0;
	bool stopping;
	int rc;

	rc = LNetMEAttach(svc->portal, any, svc->id, 0, LNET_UNLINK,
			  LNET_INS_AFTER, &meh);
	if (rc)
		return rc;
	spin_lock_irqsave(&svc->lock, flags);
	stopping = svc->stopping;
	if (!stopping) {
		s->posted = true;
		seq = ++s->post_seq;
		LNetInvalidateMDHandle(&s->mdh);
	}
	spin_unlock_irqrestore(&svc->lock, flags);
	if (stopping) {
		LNetMEUnlink(meh);
		return -ESHUTDOWN;
	}
	atomic_inc(&lst_nmd);
	/* a request waiting on the lazy portal may land at once */
	rc = LNetMDAttach(meh, lst_md(&s->req, sizeof(s->req), false, 1,
				      LNET_MD_OP_PUT | LNET_MD_TRUNCATE,
				      &s->cb),
			  LNET_UNLINK, &mdh);
	if (rc) {
		atomic_dec(&lst_nmd);
		spin_lock_irqsave(&svc->lock, flags);
		s->posted = false;
		spin_unlock_irqrestore(&svc->lock, flags);
		LNetMEUnlink(meh);
		return rc;
	}
	spin_lock_irqsave(&svc->lock, flags);
	/* unless a request landed, was served and the buffer reposted since */
	if (s->posted && s->post_seq == seq)
		s->mdh = mdh;
	stopping = svc->stopping;
	spin_unlock_irqrestore(&svc->lock, flags);
	if (stopping)
		LNetMDUnlink(mdh);
	return 0;
}

#ifdef LNET_KUNIT
/*
 * Debug builds: hold each served buffer this long before it is posted
 * again, so that tests/scenarios/selftest.sh can unload the module while
 * buffers are between their request and their repost.
 */
static unsigned int lst_recycle_delay_ms;
module_param_named(recycle_delay_ms, lst_recycle_delay_ms, uint, 0644);
MODULE_PARM_DESC(recycle_delay_ms,
		 "debug builds: ms a served request buffer waits before it is posted again");

static void lst_recycle_delay(void)
{
	unsigned int ms = READ_ONCE(lst_recycle_delay_ms);

	if (ms)
		msleep(ms);
}
#else
static void lst_recycle_delay(void)
{
}
#endif

/* The request is served: post the buffer again, or retire it. */
static void lst_srpc_recycle(struct lst_srpc *s)
{
	struct lst_service *svc = s->svc;
	unsigned long flags;
	int rc;

	spin_lock_irqsave(&svc->lock, flags);
	s->serving = false;
	spin_unlock_irqrestore(&svc->lock, flags);

	/* the stop may begin at any point: lst_srpc_post() settles it */
	lst_recycle_delay();
	rc = lst_srpc_post(s);
	if (!rc)
		return;
	if (rc != -ESHUTDOWN)
		pr_warn_ratelimited("%s: cannot repost a request buffer\n",
				    svc->name);
	spin_lock_irqsave(&svc->lock, flags);
	svc->nactive--;
	wake_up(&svc->waitq);
	spin_unlock_irqrestore(&svc->lock, flags);
}

static void lst_srpc_work(struct work_struct *work)
{
	struct lst_srpc *s = container_of(work, struct lst_srpc, work);
	struct lst_service *svc = s->svc;
	int rc;

	if (s->ev_status || s->ev_rlength != LST_MSG_SIZE) {
		atomic_inc(&lst_stats.dropped);
		goto out;
	}
	rc = lst_msg_unpack(&s->req, s->ev_mlength);
	if (rc < 0 || s->req.type != svc->req_type) {
		atomic_inc(&lst_stats.dropped);
		goto out;
	}
	atomic_inc(&lst_stats.rcvd);
	s->swapped = rc;
	s->feats = s->req.ses_feats;
	lst_msg_init(&s->rpy, lst_reply_type(s->req.type), s->feats);

	if (s->req.version != LST_MSG_VERSION) {
		s->rpy.body.status = EPROTO;
	} else {
		rc = svc->handle(s);
		if (rc) {
			atomic_inc(&lst_stats.dropped);
			goto out;
		}
	}
	rc = lst_active_op(s, s->req.body.rpyid, &s->rpy, sizeof(s->rpy),
			   sizeof(s->rpy), false, false, lst_rpc_timeout_s);
	if (rc) {
		atomic_inc(&lst_stats.errors);
		pr_debug("%s: reply to %llx failed: %d\n", svc->name,
			 s->peer.nid, rc);
	}
out:
	lst_srpc_recycle(s);
}

/**
 * lst_service_start() - post a service's request buffers
 * @svc: id, req_type, name and handle set
 * @nbufs: how many requests may wait in buffers (more queue on the lazy
 *	portal)
 *
 * Return: 0 or -errno (nothing left posted).
 */
int lst_service_start(struct lst_service *svc, unsigned int nbufs)
{
	struct lst_srpc *s;
	unsigned int i;
	unsigned long flags;
	int rc = 0;

	svc->portal = svc->id <= LST_SVC_FRAMEWORK_MAX ?
		      LST_FRAMEWORK_PORTAL : LST_REQUEST_PORTAL;
	spin_lock_init(&svc->lock);
	init_waitqueue_head(&svc->waitq);
	INIT_LIST_HEAD(&svc->bufs);
	svc->nactive = 0;
	svc->stopping = false;

	for (i = 0; i < nbufs; i++) {
		s = kzalloc(sizeof(*s), GFP_KERNEL);
		if (!s) {
			rc = -ENOMEM;
			break;
		}
		s->svc = svc;
		s->cb.fn = lst_srpc_ev;
		LNetInvalidateMDHandle(&s->active_mdh);
		INIT_WORK(&s->work, lst_srpc_work);
		list_add_tail(&s->list, &svc->bufs);
		spin_lock_irqsave(&svc->lock, flags);
		svc->nactive++;
		spin_unlock_irqrestore(&svc->lock, flags);
		rc = lst_srpc_post(s);
		if (rc) {
			spin_lock_irqsave(&svc->lock, flags);
			svc->nactive--;
			spin_unlock_irqrestore(&svc->lock, flags);
			break;
		}
	}
	if (rc) {
		pr_err("%s: cannot post request buffers: %d\n",
		       svc->name, rc);
		lst_service_stop(svc);
	}
	return rc;
}

/* Unlink the idle buffers, let busy ones finish, free them all. */
void lst_service_stop(struct lst_service *svc)
{
	struct lst_srpc *s, *tmp;
	struct lnet_handle_md mdh;
	unsigned long flags;
	bool posted;

	spin_lock_irqsave(&svc->lock, flags);
	svc->stopping = true;
	spin_unlock_irqrestore(&svc->lock, flags);

	list_for_each_entry(s, &svc->bufs, list) {
		spin_lock_irqsave(&svc->lock, flags);
		posted = s->posted;
		mdh = posted ? s->mdh : s->active_mdh;
		spin_unlock_irqrestore(&svc->lock, flags);
		/* idle: its request MD; serving: its bulk or reply in flight */
		if (!LNetMDHandleIsInvalid(mdh))
			LNetMDUnlink(mdh);
	}
	wait_event(svc->waitq, READ_ONCE(svc->nactive) == 0);
	list_for_each_entry_safe(s, tmp, &svc->bufs, list) {
		flush_work(&s->work);
		list_del(&s->list);
		kfree(s);
	}
}

/* ---- start and stop -------------------------------------------------------- */

int lst_rpc_startup(void)
{
	int rc;

	atomic64_set(&lst_ids, (u64)ktime_get_real_seconds() << 48);
	rc = LNetEQAlloc(0, lst_eq_handler, &lst_eqh);
	if (rc)
		return rc;
	rc = LNetSetLazyPortal(LST_FRAMEWORK_PORTAL);
	if (!rc)
		rc = LNetSetLazyPortal(LST_REQUEST_PORTAL);
	if (rc) {
		LNetClearLazyPortal(LST_FRAMEWORK_PORTAL);
		LNetEQFree(lst_eqh);
	}
	return rc;
}

/* Every service is stopped and every client RPC completed. */
void lst_rpc_shutdown(void)
{
	int rc;

	LNetClearLazyPortal(LST_REQUEST_PORTAL);
	LNetClearLazyPortal(LST_FRAMEWORK_PORTAL);
	wait_event(lst_md_waitq, atomic_read(&lst_nmd) == 0);
	/*
	 * The handler that dropped lst_nmd to 0 may still be in
	 * wake_up(&lst_md_waitq) or returning, and nothing in LNet waits for
	 * it (see lst_eq_handler()): wait for its RCU section, whose end is
	 * after its last touch of this module's data.
	 */
	synchronize_rcu();
	rc = LNetEQFree(lst_eqh);
	if (rc)
		pr_warn("EQ free: %d\n", rc);
}
