// SPDX-License-Identifier: GPL-2.0
/*
 * Send credits. A message needs one credit of its peer (peer_credits per
 * peer) and then one of its NI (credits per NI) before it goes to the LND.
 * A counter below zero counts the messages queued for it, in FIFO order;
 * a returned credit goes straight to the first of them. The lowest value
 * seen is kept for debugfs.
 *
 * All of it is under lnet_core.net_lock. The loopback NI has no credit
 * limit and no peers.
 *
 * A peer that sends us GETs and PUTs asking for ACKs but does not take
 * what we send it back holds its credits for good: every REPLY and ACK it
 * makes us produce would wait on its queue, without bound. So a response
 * is refused (-ENOBUFS) when max_queued_responses messages already wait
 * for that peer's credits, and whatever waits there (responses or our own
 * PUTs and GETs) fails with -ETIMEDOUT at its deadline, transaction_timeout
 * seconds after it was queued: lnet_credits_expiry scans the peers once a
 * second while something waits.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

int lnet_max_queued_responses = 256;
module_param_named(max_queued_responses, lnet_max_queued_responses, int,
		   0644);
MODULE_PARM_DESC(max_queued_responses,
		 "REPLYs and ACKs that may wait for one peer's send credits; more are dropped (<= 0: no limit)");
LNET_EXPORT_FOR_TEST(lnet_max_queued_responses);

static void lnet_credits_expire(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_credits_expiry, lnet_credits_expire);

static bool lnet_msg_is_response(const struct lnet_msg *msg)
{
	return msg->hdr.type == LNET_MSG_REPLY || msg->hdr.type == LNET_MSG_ACK;
}

/* Take an NI credit for @msg: 0 to send now, 1 if it queued. */
static int lnet_ni_credit_take(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->ni;

	lockdep_assert_held(&lnet_core.net_lock);
	if (!ni->max_tx_credits)
		return 0;
	msg->tx_ni_credit = 1;
	ni->tx_credits--;
	ni->min_tx_credits = min(ni->min_tx_credits, ni->tx_credits);
	if (ni->tx_credits >= 0)
		return 0;
	msg->tx_wait_ni = 1;
	list_add_tail(&msg->list, &ni->tx_queue);
	return 1;
}

/* 0: send @msg now; 1: it waits for a credit; -ESHUTDOWN: NI is down. */
int lnet_credits_acquire(struct lnet_msg *msg)
{
	struct lnet_peer *peer = msg->txpeer;
	unsigned long timeout;
	int rc = 0, max;

	/* no peer, no NI limit (loopback): nothing to count, no lock */
	if (!peer && !msg->ni->max_tx_credits)
		return READ_ONCE(msg->ni->state) == LNET_NI_STATE_UP ?
		       0 : -ESHUTDOWN;

	spin_lock_bh(&lnet_core.net_lock);
	if (msg->ni->state != LNET_NI_STATE_UP) {
		rc = -ESHUTDOWN;
		goto out;
	}
	if (peer) {
		max = READ_ONCE(lnet_max_queued_responses);
		/* below zero, the credits count the messages queued */
		if (max > 0 && -peer->tx_credits >= max &&
		    lnet_msg_is_response(msg)) {
			rc = -ENOBUFS;
			goto out;
		}
		peer->send_count++;
		msg->txqnob = LNET_HDR_NID4_SIZE + msg->len;
		peer->txqnob += msg->txqnob;
		msg->tx_peer_credit = 1;
		peer->tx_credits--;
		peer->min_tx_credits = min(peer->min_tx_credits,
					   peer->tx_credits);
		if (peer->tx_credits < 0) {
			msg->tx_wait_peer = 1;
			timeout = lnet_tunable(&lnet_transaction_timeout) * HZ;
			msg->deadline = jiffies + timeout;
			list_add_tail(&msg->list, &peer->tx_queue);
			if (list_empty(&peer->waiting))
				list_add_tail(&peer->waiting,
					      &lnet_core.peers_waiting);
			/*
			 * A no-op while it is pending. One second, not
			 * @timeout: a scan still pending from before
			 * transaction_timeout was lowered would come long
			 * after this message's deadline.
			 */
			queue_delayed_work(system_wq, &lnet_credits_expiry, HZ);
			rc = 1;
			goto out;
		}
	}
	rc = lnet_ni_credit_take(msg);
out:
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}

/* @msg is done sending: give its credits to whoever waits for them. */
void lnet_credits_return(struct lnet_msg *msg)
{
	struct lnet_peer *peer = msg->txpeer;
	struct lnet_ni *ni = msg->ni;
	struct lnet_msg *next, *tmp;
	LIST_HEAD(ready);

	if (!msg->tx_peer_credit && !msg->tx_ni_credit)
		return;
	spin_lock_bh(&lnet_core.net_lock);
	/*
	 * A message that never got a credit it waited for only cancels its
	 * debt; it has nothing to hand on. Its queue may have been flushed.
	 */
	if ((msg->tx_wait_peer || msg->tx_wait_ni) && !list_empty(&msg->list))
		list_del_init(&msg->list);
	/* the NI credit first: a peer's next message may need it */
	if (msg->tx_ni_credit) {
		ni->tx_credits++;
		next = list_first_entry_or_null(&ni->tx_queue,
						struct lnet_msg, list);
		if (!msg->tx_wait_ni && next && ni->tx_credits <= 0) {
			list_del_init(&next->list);
			next->tx_wait_ni = 0;
			list_add_tail(&next->list, &ready);
		}
	}
	if (msg->tx_peer_credit) {
		peer->tx_credits++;
		peer->txqnob -= msg->txqnob;
		next = list_first_entry_or_null(&peer->tx_queue,
						struct lnet_msg, list);
		if (!msg->tx_wait_peer && next && peer->tx_credits <= 0) {
			list_del_init(&next->list);
			next->tx_wait_peer = 0;
			if (!lnet_ni_credit_take(next))
				list_add_tail(&next->list, &ready);
		}
	}
	msg->tx_ni_credit = 0;
	msg->tx_peer_credit = 0;
	msg->tx_wait_ni = 0;
	msg->tx_wait_peer = 0;
	spin_unlock_bh(&lnet_core.net_lock);

	list_for_each_entry_safe(next, tmp, &ready, list) {
		list_del_init(&next->list);
		lnet_ni_send(next);
	}
}

/*
 * Fail what waited for a peer credit past its deadline. Each queue is in
 * deadline order (FIFO, one timeout), so a scan stops at the first live
 * message. lnet_finalize() then only cancels the message's debt: it never
 * got a credit, and is off the queue.
 *
 * Only the peers that queued since the last scan are visited (a node may
 * know thousands of peers, and this runs with bottom halves off); a peer
 * leaves the list here once its queue has drained.
 */
static void lnet_credits_expire(struct work_struct *work)
{
	unsigned long now = jiffies;
	struct lnet_peer *peer, *ptmp;
	struct lnet_msg *msg, *tmp;
	bool waiting = false;
	LIST_HEAD(expired);

	spin_lock_bh(&lnet_core.net_lock);
	list_for_each_entry_safe(peer, ptmp, &lnet_core.peers_waiting,
				 waiting) {
		list_for_each_entry_safe(msg, tmp, &peer->tx_queue, list) {
			if (time_before(now, msg->deadline)) {
				waiting = true;
				break;
			}
			list_move_tail(&msg->list, &expired);
		}
		if (list_empty(&peer->tx_queue))
			list_del_init(&peer->waiting);
	}
	spin_unlock_bh(&lnet_core.net_lock);

	list_for_each_entry_safe(msg, tmp, &expired, list) {
		list_del_init(&msg->list);
		lnet_finalize(msg, -ETIMEDOUT);
	}
	if (waiting)
		queue_delayed_work(system_wq, &lnet_credits_expiry, HZ);
}

/* Module unload: the expiry scan must not outlive the module. */
void lnet_credits_fini(void)
{
	cancel_delayed_work_sync(&lnet_credits_expiry);
}

/**
 * lnet_ni_set_credits() - set an NI's default send credits (LND startup())
 * @ni: the NI
 * @credits: messages in flight on the NI; 0: no limit
 * @peer_credits: messages in flight to one peer
 *
 * Values given for this NI by its configuration ("lnetctl net add
 * --credits/--peer-credits") take precedence over these defaults.
 */
void lnet_ni_set_credits(struct lnet_ni *ni, int credits, int peer_credits)
{
	ni->max_tx_credits = ni->cfg_credits ?: max(credits, 0);
	ni->peer_tx_credits = ni->cfg_peer_credits ?: max(peer_credits, 1);
}
EXPORT_SYMBOL_GPL(lnet_ni_set_credits);

int lnet_ni_credit_state(struct lnet_ni *ni, int *credits, int *min_credits,
			 int *queued)
{
	struct lnet_msg *msg;

	spin_lock_bh(&lnet_core.net_lock);
	*credits = ni->tx_credits;
	*min_credits = ni->min_tx_credits;
	*queued = 0;
	list_for_each_entry(msg, &ni->tx_queue, list)
		(*queued)++;
	spin_unlock_bh(&lnet_core.net_lock);
	return ni->max_tx_credits;
}
LNET_EXPORT_FOR_TEST(lnet_ni_credit_state);
