// SPDX-License-Identifier: GPL-2.0
/*
 * Resend (Documentation/wire/routing-health-multirail.md, "Resend
 * rules"): a message whose send failed in a way another try could fix is
 * sent again, up to retry_count times, before its MD's owner hears of it.
 * The owner sees one event, with the last attempt's status.
 *
 * What may be resent: a failure the local side caused (interrupted,
 * dropped, aborted, no route, timed out; not a local *error*) when this
 * node has another NI to try, or a peer that dropped it when the peer has
 * another NID (Multi-Rail). Never: a message that failed
 * before it reached an LND, whose MD is being unlinked or timed out, whose
 * deadline has passed, or while health_sensitivity is 0, which turns
 * health and resend off together. The deadline (lnet_msg_lifetime()) gives
 * each of the retry_count + 1 tries the LND's timeout, or all of them
 * transaction_timeout over an LND without one (loopback).
 *
 * lnet_finalize() hands such a message here instead of finishing it; its
 * credits go back at once, and a work item sends it again through the
 * normal path (credits, fault rules, the LND). A message that lets LNet
 * choose its NI pair gets a new choice (select.c), which the failure's
 * health drop steers to another rail; any other keeps its pair.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

static void lnet_resend_work_fn(struct work_struct *work);

static DEFINE_SPINLOCK(lnet_resend_lock);	/* BH; a leaf */
static LIST_HEAD(lnet_resend_queue);		/* struct lnet_msg */
static DECLARE_WORK(lnet_resend_work, lnet_resend_work_fn);

/* Whether this node has a second NI to send from (lo aside). */
static bool lnet_has_other_ni(void)
{
	struct lnet_ni *ni;
	int n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		if (ni != lnet_core.lo_ni && ++n == 2)
			break;
	rcu_read_unlock();
	return n == 2;
}

/**
 * lnet_health_status_resendable() - may a failure with @hs be retried?
 * @hs: the failure's health status
 * @local_alt: this node has a second NI
 * @remote_alt: the peer has a second NI
 */
bool lnet_health_status_resendable(enum lnet_msg_status hs, bool local_alt,
				   bool remote_alt)
{
	switch (hs) {
	case LNET_MSG_STATUS_LOCAL_INTERRUPT:
	case LNET_MSG_STATUS_LOCAL_DROPPED:
	case LNET_MSG_STATUS_LOCAL_ABORTED:
	case LNET_MSG_STATUS_LOCAL_NO_ROUTE:
	case LNET_MSG_STATUS_LOCAL_TIMEOUT:
		return local_alt;
	case LNET_MSG_STATUS_REMOTE_DROPPED:
		return remote_alt;
	default:
		return false;
	}
}
LNET_EXPORT_FOR_TEST(lnet_health_status_resendable);

/**
 * lnet_msg_lifetime() - how long a message may be tried (spec 3.4)
 * @lnd_timeout: its LND's timeout for one try in seconds, 0 if it has none
 * @retry_count: resends allowed
 * @transaction_timeout: seconds, the lifetime over an LND without timeout
 *
 * Every try may take the LND's whole timeout; the extra second keeps the
 * last one's failure inside the deadline.
 *
 * Return: seconds from the first try.
 */
unsigned long lnet_msg_lifetime(unsigned int lnd_timeout, int retry_count,
				int transaction_timeout)
{
	if (!lnd_timeout)
		return transaction_timeout;
	return (unsigned long)lnd_timeout * (retry_count + 1) + 1;
}
LNET_EXPORT_FOR_TEST(lnet_msg_lifetime);

/* The first try of @msg is about to go: its deadline starts. */
void lnet_resend_arm(struct lnet_msg *msg)
{
	const struct lnet_lnd *lnd = msg->ni->lnd;
	unsigned long lifetime;

	if (msg->retries)
		return;
	lifetime = lnet_msg_lifetime(lnd->timeout ? lnd->timeout(msg->ni) : 0,
				     lnet_tunable(&lnet_retry_count),
				     lnet_tunable(&lnet_transaction_timeout));
	/* absurd tunables must not wrap the deadline into the past */
	msg->resend_deadline = jiffies +
		min_t(unsigned long, lifetime, MAX_JIFFY_OFFSET / HZ) * HZ;
}

/**
 * lnet_resend() - send @msg again instead of finalizing it, if allowed
 * @msg: a sent message that failed; its health status is set
 *
 * Return: true if @msg was queued to be sent again (the caller is done
 * with it), false to finalize it.
 */
bool lnet_resend(struct lnet_msg *msg)
{
	enum lnet_msg_status hs = msg->health_status;
	int limit = lnet_tunable(&lnet_retry_count);

	if (msg->no_resend || msg->rdma_get || !lnet_is_running() ||
	    !lnet_tunable(&lnet_health_sensitivity) ||
	    time_after_eq(jiffies, msg->resend_deadline))
		return false;
	if (!lnet_health_status_resendable(hs, lnet_has_other_ni(),
					   lnet_peer_has_other_nid(msg->hdr.dest_nid)))
		return false;
	if (msg->retries >= limit) {
		lnet_counter_add(failed_resends, 1);
		return false;
	}
	if (msg->md && lnet_md_unlinking(msg->md))
		return false;

	lnet_credits_return(msg);
	msg->retries++;
	msg->health_status = LNET_MSG_STATUS_OK;
	msg->fault_passed = 0;
	lnet_counter_add(resend_count, 1);
	spin_lock_bh(&lnet_resend_lock);
	list_add_tail(&msg->list, &lnet_resend_queue);
	spin_unlock_bh(&lnet_resend_lock);
	queue_work(system_wq, &lnet_resend_work);
	return true;
}

static void lnet_resend_work_fn(struct work_struct *work)
{
	struct lnet_msg *msg, *tmp;
	LIST_HEAD(queue);

	spin_lock_bh(&lnet_resend_lock);
	list_splice_init(&lnet_resend_queue, &queue);
	spin_unlock_bh(&lnet_resend_lock);

	list_for_each_entry_safe(msg, tmp, &queue, list) {
		list_del_init(&msg->list);
		if (!lnet_is_running() ||
		    READ_ONCE(msg->ni->state) != LNET_NI_STATE_UP) {
			msg->no_resend = 1;
			lnet_finalize(msg, -ESHUTDOWN);
			continue;
		}
		/* health has moved since: Multi-Rail may choose another pair */
		if (msg->mr_select)
			lnet_msg_reselect(msg);
		else if (msg->hdr.type == LNET_MSG_REPLY ||
			 msg->hdr.type == LNET_MSG_ACK)
			lnet_msg_reselect_answer(msg);
		lnet_msg_launch(msg);
	}
}

/* Module unload: nothing may be left queued (every NI is down by now). */
void lnet_resend_fini(void)
{
	flush_work(&lnet_resend_work);
}
