// SPDX-License-Identifier: GPL-2.0
/*
 * Event queues: a ring of events for LNetEQPoll() and/or a callback.
 *
 * Events reach an EQ through lnet_eq_deliver(), called by the deliverer of
 * an MD lock slot with no lock held. Only the EQ's own lock is taken: once
 * to hand out the sequence number (so the callback sees it) and, after the
 * callback returned, to write the ring. Two slots may deliver to one EQ at
 * the same time and finish out of order; a ring entry therefore carries its
 * sequence number, and the poller waits for the next one in sequence
 * rather than trusting a write index.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include "trace.h"

#define LNET_EQ_MAX_SIZE	(1U << 20)
#define LNET_EQ_POLL_STACK	4

static struct lock_class_key lnet_eq_key, lnet_eq_table_key;

int lnet_eq_table_init(void)
{
	spin_lock_init(&lnet_core.eq_lock);
	lockdep_set_class_and_name(&lnet_core.eq_lock, &lnet_eq_table_key,
				   "lnet_eq_table");
	lnet_core.eq_next_seq = 1;
	INIT_LIST_HEAD(&lnet_core.eqs);
	return lnet_htable_init(&lnet_core.eq_handles, &lnet_core.eq_lock);
}

void lnet_eq_table_fini(void)
{
	lnet_htable_fini(&lnet_core.eq_handles);
}

static void lnet_eq_release(struct kref *kref)
{
	struct lnet_eq *eq = container_of(kref, struct lnet_eq, kref);

	kvfree(eq->ring);
	kfree(eq);
}

static struct lnet_eq *lnet_eq_lookup(struct lnet_handle_eq eqh)
{
	struct lnet_hnode *n;

	if (lnet_cookie_type(eqh.cookie) != LNET_COOKIE_EQ)
		return NULL;
	n = lnet_htable_find(&lnet_core.eq_handles, eqh.cookie);
	return n ? container_of(n, struct lnet_eq, handle) : NULL;
}

/**
 * LNetEQAlloc() - allocate an event queue
 * @count: ring entries, rounded up to a power of two; 0 for a callback-only
 *	EQ, which then needs @handler
 * @handler: called for every event, or NULL
 * @handle: the new EQ's handle
 *
 * Return: 0, -EINVAL, -ENOMEM, or -ENETDOWN if LNet is not up.
 */
int LNetEQAlloc(unsigned int count, lnet_eq_handler_t handler,
		struct lnet_handle_eq *handle)
{
	struct lnet_eq *eq;
	u64 cookie;
	int rc;

	if (!handle || (!count && !handler) || count > LNET_EQ_MAX_SIZE)
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;

	eq = kzalloc(sizeof(*eq), GFP_KERNEL);
	if (!eq)
		return -ENOMEM;
	if (count) {
		count = roundup_pow_of_two(count);
		eq->ring = kvcalloc(count, sizeof(*eq->ring), GFP_KERNEL);
		if (!eq->ring) {
			kfree(eq);
			return -ENOMEM;
		}
	}
	eq->size = count;
	eq->handler = handler;
	kref_init(&eq->kref);
	atomic_set(&eq->md_refs, 0);
	spin_lock_init(&eq->lock);
	lockdep_set_class_and_name(&eq->lock, &lnet_eq_key, "lnet_eq");
	init_waitqueue_head(&eq->waitq);
	/* sequences start at 1: a ring entry with sequence 0 is unwritten */
	eq->enq_seq = 1;
	eq->read_seq = 1;

	spin_lock_bh(&lnet_core.eq_lock);
	cookie = lnet_cookie_make(lnet_core.eq_next_seq++, 0, 0,
				  LNET_COOKIE_EQ);
	rc = lnet_htable_add(&lnet_core.eq_handles, &eq->handle, cookie);
	if (!rc)
		list_add_tail(&eq->list, &lnet_core.eqs);
	spin_unlock_bh(&lnet_core.eq_lock);
	if (rc) {
		kref_put(&eq->kref, lnet_eq_release);
		return rc;
	}

	handle->cookie = cookie;
	return 0;
}
EXPORT_SYMBOL_GPL(LNetEQAlloc);

static void lnet_eq_unhash(struct lnet_eq *eq)
{
	lnet_htable_del(&lnet_core.eq_handles, &eq->handle);
	list_del(&eq->list);
}

static void lnet_eq_kill(struct lnet_eq *eq)
{
	spin_lock_bh(&eq->lock);
	eq->freed = true;
	spin_unlock_bh(&eq->lock);
	wake_up_all(&eq->waitq);
	kref_put(&eq->kref, lnet_eq_release);
}

/**
 * LNetEQFree() - free an event queue
 * @eqh: its handle
 *
 * Pollers still waiting on the EQ return -ENOENT.
 *
 * Return: 0, -ENOENT for a stale handle, -EBUSY while an MD names the EQ.
 */
int LNetEQFree(struct lnet_handle_eq eqh)
{
	struct lnet_eq *eq;
	int rc = 0;

	spin_lock_bh(&lnet_core.eq_lock);
	eq = lnet_eq_lookup(eqh);
	if (!eq)
		rc = -ENOENT;
	else if (atomic_read(&eq->md_refs))
		rc = -EBUSY;
	else
		lnet_eq_unhash(eq);
	spin_unlock_bh(&lnet_core.eq_lock);

	if (!rc)
		lnet_eq_kill(eq);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetEQFree);

/* An MD that names @eqh holds it (and makes LNetEQFree() say -EBUSY). */
struct lnet_eq *lnet_eq_get_for_md(struct lnet_handle_eq eqh)
{
	struct lnet_eq *eq;

	if (LNetEQHandleIsInvalid(eqh))
		return NULL;
	spin_lock_bh(&lnet_core.eq_lock);
	eq = lnet_eq_lookup(eqh);
	if (eq) {
		atomic_inc(&eq->md_refs);
		kref_get(&eq->kref);
	}
	spin_unlock_bh(&lnet_core.eq_lock);
	return eq ?: ERR_PTR(-ENOENT);
}

void lnet_eq_put_for_md(struct lnet_eq *eq)
{
	atomic_dec(&eq->md_refs);
	kref_put(&eq->kref, lnet_eq_release);
}

/* Put @ev into the ring; false if it cannot be seen there. */
static bool lnet_eq_commit(struct lnet_eq *eq, const struct lnet_event *ev,
			   u64 stamp)
{
	struct lnet_eq_slot *slot;

	lockdep_assert_held(&eq->lock);
	if (!eq->size || eq->freed)
		return false;
	slot = &eq->ring[ev->sequence & (eq->size - 1)];
	/*
	 * A newer event got here first: ours was overwritten before it was
	 * ever written, and the poller will count it as lost.
	 */
	if (slot->ev.sequence > ev->sequence)
		return false;
	slot->ev = *ev;
	slot->stamp = stamp;
	return true;
}

/**
 * lnet_eq_deliver() - hand one event to its EQ
 * @item: the event; if it is its MD's last, the MD is freed here
 *
 * Called by an MD slot's deliverer, no lock held. The callback runs before
 * the event is visible to pollers, so a poller never sees an event whose
 * callback is still running.
 */
void lnet_eq_deliver(struct lnet_ev_item *item)
{
	struct lnet_eq *eq = item->eq;
	struct lnet_event *ev = &item->ev;
	struct lnet_libmd *md = item->md_done;
	struct lnet_msg *msg = item->msg;
	u64 stamp = ktime_get_ns();
	bool wake = false, freed;

	/* the MD is unreachable now: LNetEQFree() may succeed from here on */
	if (md)
		atomic_dec(&eq->md_refs);

	spin_lock_bh(&eq->lock);
	ev->sequence = eq->enq_seq++;
	freed = eq->freed;
	if (!eq->handler)
		wake = lnet_eq_commit(eq, ev, stamp);
	spin_unlock_bh(&eq->lock);

	trace_lnet_event(ev);
	if (eq->handler && !freed) {
		eq->handler(ev);
		if (eq->size) {
			spin_lock_bh(&eq->lock);
			wake = lnet_eq_commit(eq, ev, stamp);
			spin_unlock_bh(&eq->lock);
		}
	}
	if (wake)
		wake_up_all(&eq->waitq);

	/* @item lives in one of these two */
	if (md) {
		kref_put(&eq->kref, lnet_eq_release);
		lnet_md_free(md);
	}
	if (msg)
		lnet_msg_free(msg);
}

/*
 * The ring entry of the next event to poll, skipping what was overwritten.
 * NULL if there is none yet (or its callback is still running).
 */
static struct lnet_eq_slot *lnet_eq_head(struct lnet_eq *eq)
{
	struct lnet_eq_slot *slot;

	lockdep_assert_held(&eq->lock);
	if (!eq->size)
		return NULL;
	while (eq->read_seq != eq->enq_seq) {
		slot = &eq->ring[eq->read_seq & (eq->size - 1)];
		if (slot->ev.sequence == eq->read_seq)
			return slot;
		if (slot->ev.sequence < eq->read_seq)
			return NULL;	/* handed out, not written yet */
		/*
		 * Lapped: resume at the oldest event that can still be in
		 * the ring; the next event returned reports the loss.
		 */
		eq->lost = true;
		eq->read_seq = max(eq->read_seq + 1, eq->enq_seq - eq->size);
	}
	return NULL;
}

/* 1, -EOVERFLOW (copied after a loss), 0 (nothing) or -ENOENT (freed). */
static int lnet_eq_dequeue(struct lnet_eq *eq, struct lnet_event *ev)
{
	struct lnet_eq_slot *slot;
	int rc = 0;

	spin_lock_bh(&eq->lock);
	if (eq->freed) {
		rc = -ENOENT;
	} else {
		slot = lnet_eq_head(eq);
		if (slot) {
			*ev = slot->ev;
			eq->read_seq++;
			rc = eq->lost ? -EOVERFLOW : 1;
			eq->lost = false;
		}
	}
	spin_unlock_bh(&eq->lock);
	return rc;
}

/* Take the oldest event of any of @eqs. */
static int lnet_eq_poll_all(struct lnet_eq **eqs, int neq,
			    struct lnet_event *ev, int *which)
{
	struct lnet_eq_slot *slot;
	u64 oldest;
	int i, best, rc;

	if (neq == 1) {
		*which = 0;
		return lnet_eq_dequeue(eqs[0], ev);
	}
	for (;;) {
		best = -1;
		oldest = U64_MAX;
		for (i = 0; i < neq; i++) {
			spin_lock_bh(&eqs[i]->lock);
			if (eqs[i]->freed) {
				spin_unlock_bh(&eqs[i]->lock);
				return -ENOENT;
			}
			slot = lnet_eq_head(eqs[i]);
			if (slot && (best < 0 || slot->stamp < oldest)) {
				best = i;
				oldest = slot->stamp;
			}
			spin_unlock_bh(&eqs[i]->lock);
		}
		if (best < 0)
			return 0;
		rc = lnet_eq_dequeue(eqs[best], ev);
		if (rc) {
			*which = best;
			return rc;
		}
		/* another poller took it; look again */
	}
}

/**
 * LNetEQPoll() - wait for the oldest event of several EQs
 * @eqhs: the EQs
 * @neq: how many
 * @timeout_ms: 0: do not wait; negative: wait forever
 * @event: the event
 * @which: index in @eqhs of the EQ it came from
 *
 * Return: 1, 0 (timed out), -EOVERFLOW (an event was copied but older
 * ones were lost since the last poll), -ENOENT (a stale handle, or an EQ
 * freed while waiting), -EINTR (signal) or -EINVAL.
 */
int LNetEQPoll(struct lnet_handle_eq *eqhs, int neq, int timeout_ms,
	       struct lnet_event *event, int *which)
{
	struct lnet_eq *stack_eqs[LNET_EQ_POLL_STACK];
	wait_queue_entry_t stack_waits[LNET_EQ_POLL_STACK];
	struct lnet_eq **eqs = stack_eqs;
	wait_queue_entry_t *waits = stack_waits;
	long remaining;
	int i, got, dummy, rc = 0;

	if (!eqhs || neq < 1 || !event)
		return -EINVAL;
	if (!which)
		which = &dummy;
	if (neq > LNET_EQ_POLL_STACK) {
		eqs = kcalloc(neq, sizeof(*eqs), GFP_KERNEL);
		waits = kcalloc(neq, sizeof(*waits), GFP_KERNEL);
		if (!eqs || !waits) {
			rc = -ENOMEM;
			goto out_free;
		}
	}

	spin_lock_bh(&lnet_core.eq_lock);
	for (got = 0; got < neq; got++) {
		eqs[got] = lnet_eq_lookup(eqhs[got]);
		if (!eqs[got]) {
			rc = -ENOENT;
			break;
		}
		kref_get(&eqs[got]->kref);
	}
	spin_unlock_bh(&lnet_core.eq_lock);
	if (rc)
		goto out_put;

	rc = lnet_eq_poll_all(eqs, neq, event, which);
	if (rc || !timeout_ms)
		goto out_put;

	for (i = 0; i < neq; i++) {
		init_waitqueue_entry(&waits[i], current);
		add_wait_queue(&eqs[i]->waitq, &waits[i]);
	}
	remaining = timeout_ms < 0 ? MAX_SCHEDULE_TIMEOUT :
				     msecs_to_jiffies(timeout_ms);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		rc = lnet_eq_poll_all(eqs, neq, event, which);
		if (rc || !remaining)
			break;
		if (signal_pending(current)) {
			rc = -EINTR;
			break;
		}
		remaining = schedule_timeout(remaining);
	}
	__set_current_state(TASK_RUNNING);
	for (i = 0; i < neq; i++)
		remove_wait_queue(&eqs[i]->waitq, &waits[i]);

out_put:
	for (i = 0; i < got; i++)
		kref_put(&eqs[i]->kref, lnet_eq_release);
out_free:
	if (eqs != stack_eqs)
		kfree(eqs);
	if (waits != stack_waits)
		kfree(waits);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetEQPoll);

/**
 * LNetEQGet() - take the oldest event of an EQ without waiting
 * @eqh: the EQ
 * @event: the event
 *
 * Return: as LNetEQPoll().
 */
int LNetEQGet(struct lnet_handle_eq eqh, struct lnet_event *event)
{
	int which;

	return LNetEQPoll(&eqh, 1, 0, event, &which);
}
EXPORT_SYMBOL_GPL(LNetEQGet);

/**
 * LNetEQWait() - wait as long as it takes for an event of an EQ
 * @eqh: the EQ
 * @event: the event
 *
 * Return: as LNetEQPoll().
 */
int LNetEQWait(struct lnet_handle_eq eqh, struct lnet_event *event)
{
	int which;

	return LNetEQPoll(&eqh, 1, -1, event, &which);
}
EXPORT_SYMBOL_GPL(LNetEQWait);

/* Shutdown: free the EQs clients left behind (their MDs are gone). */
unsigned int lnet_eq_cleanup(void)
{
	struct lnet_eq *eq, *tmp;
	unsigned int n = 0;
	LIST_HEAD(dead);

	spin_lock_bh(&lnet_core.eq_lock);
	list_for_each_entry_safe(eq, tmp, &lnet_core.eqs, list) {
		lnet_htable_del(&lnet_core.eq_handles, &eq->handle);
		list_move_tail(&eq->list, &dead);
		n++;
	}
	spin_unlock_bh(&lnet_core.eq_lock);

	list_for_each_entry_safe(eq, tmp, &dead, list) {
		list_del(&eq->list);
		WARN_ON(atomic_read(&eq->md_refs));
		lnet_eq_kill(eq);
	}
	return n;
}
