// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler threads and the reaper (work items on the ordered
 * ksock_data.reaper_wq).
 *
 * Each scheduler serves its own connections (placed on the least loaded
 * scheduler of the peer's CPU partition): a connection with something to
 * read or write sits on the scheduler's rx or tx list - put there by a
 * socket callback, a sender, recv() or a close - and holds a reference
 * while it does. The scheduler reads and writes without blocking and
 * puts the connection back if there is more to do.
 *
 * The reaper runs when a connection dies (ksock_reap_zombies(): frees
 * dead connections) and every second (ksock_reaper(): closes connections
 * that stopped making progress (sock_timeout), fails messages that waited
 * too long for a connection, sends keepalive NOOPs to quiet peers and
 * retries connections).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"

/* ---- scheduling ---------------------------------------------------------------- */

void ksock_conn_schedule_rx_locked(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;

	lockdep_assert_held(&sched->lock);
	if (conn->rx_scheduled)
		return;
	/* PARSE: the scheduler has it; PARKED: recv() will schedule it */
	if (conn->rx_state == KSOCK_RX_PARSE ||
	    conn->rx_state == KSOCK_RX_PARKED ||
	    conn->rx_state == KSOCK_RX_DEAD)
		return;
	conn->rx_scheduled = true;
	ksock_conn_get(conn);
	list_add_tail(&conn->rx_list, &sched->rx_conns);
	wake_up(&sched->waitq);
}

void ksock_conn_schedule_tx_locked(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;

	lockdep_assert_held(&sched->lock);
	if (conn->tx_scheduled || !conn->tx_ready)
		return;
	if (list_empty(&conn->tx_queue) && !conn->closing)
		return;
	conn->tx_scheduled = true;
	ksock_conn_get(conn);
	list_add_tail(&conn->tx_list, &sched->tx_conns);
	wake_up(&sched->waitq);
}

/* Pick the least loaded scheduler of @nid's partition and count a conn. */
struct ksock_sched *ksock_sched_pick(struct lnet_ni *ni, lnet_nid_t nid)
{
	int cpt = lnet_ni_cpt_of_nid(ni, nid);
	struct ksock_sched *s, *best = NULL;
	int i;

	for (i = 0; i < ksock_data.nscheds; i++) {
		s = &ksock_data.scheds[i];
		if (s->cpt != cpt)
			continue;
		if (!best || READ_ONCE(s->nconns) < READ_ONCE(best->nconns))
			best = s;
	}
	if (!best)
		best = &ksock_data.scheds[0];
	spin_lock_bh(&best->lock);
	best->nconns++;
	spin_unlock_bh(&best->lock);
	return best;
}

void ksock_sched_release(struct ksock_sched *sched)
{
	spin_lock_bh(&sched->lock);
	sched->nconns--;
	spin_unlock_bh(&sched->lock);
}

static bool ksock_sched_busy(struct ksock_sched *sched)
{
	return !list_empty(&sched->rx_conns) || !list_empty(&sched->tx_conns);
}

/* One rx turn; returns whether there was anything to do. */
static bool ksock_sched_rx(struct ksock_sched *sched)
{
	struct ksock_conn *conn;
	bool requeue;
	int rc;

	spin_lock_bh(&sched->lock);
	conn = list_first_entry_or_null(&sched->rx_conns, struct ksock_conn,
					rx_list);
	if (!conn) {
		spin_unlock_bh(&sched->lock);
		return false;
	}
	list_del_init(&conn->rx_list);
	conn->rx_ready = false;
	spin_unlock_bh(&sched->lock);

	rc = ksock_process_rx(conn);

	spin_lock_bh(&sched->lock);
	if (rc == KSOCK_IO_PARSED && conn->rx_state == KSOCK_RX_PARSE) {
		/* recv() not called yet: it reschedules us */
		conn->rx_state = KSOCK_RX_PARKED;
		requeue = false;
	} else {
		requeue = rc == KSOCK_IO_MORE || rc == KSOCK_IO_PARSED ||
			  (rc == KSOCK_IO_WAIT && conn->rx_ready);
	}
	if (requeue)
		list_add_tail(&conn->rx_list, &sched->rx_conns);
	else
		conn->rx_scheduled = false;
	spin_unlock_bh(&sched->lock);
	if (!requeue)
		ksock_conn_put(conn);
	return true;
}

static bool ksock_sched_tx(struct ksock_sched *sched)
{
	struct ksock_conn *conn;
	bool requeue;
	int rc;

	spin_lock_bh(&sched->lock);
	conn = list_first_entry_or_null(&sched->tx_conns, struct ksock_conn,
					tx_list);
	if (!conn) {
		spin_unlock_bh(&sched->lock);
		return false;
	}
	list_del_init(&conn->tx_list);
	spin_unlock_bh(&sched->lock);

	rc = ksock_process_tx(conn);

	spin_lock_bh(&sched->lock);
	switch (rc) {
	case KSOCK_IO_MORE:
		requeue = true;
		break;
	case KSOCK_IO_WAIT:
		requeue = conn->tx_ready;	/* space came meanwhile */
		break;
	default:
		/*
		 * A sender may have queued while we finished - and a close
		 * may have come after it, which could not schedule us as
		 * the turn was ours: the next turn fails what is queued.
		 */
		requeue = conn->tx_ready && !list_empty(&conn->tx_queue);
		break;
	}
	if (requeue)
		list_add_tail(&conn->tx_list, &sched->tx_conns);
	else
		conn->tx_scheduled = false;
	spin_unlock_bh(&sched->lock);
	if (!requeue)
		ksock_conn_put(conn);
	return true;
}

static int ksock_scheduler(void *arg)
{
	struct ksock_sched *sched = arg;
	bool did;

	while (!kthread_should_stop()) {
		did = ksock_sched_rx(sched);
		did |= ksock_sched_tx(sched);
		if (did)
			cond_resched();
		else
			wait_event_interruptible(sched->waitq,
						 kthread_should_stop() ||
						 ksock_sched_busy(sched));
	}
	return 0;
}

void ksock_scheds_stop(void)
{
	int i;

	if (!ksock_data.scheds)
		return;
	for (i = 0; i < ksock_data.nscheds; i++) {
		struct ksock_sched *sched = &ksock_data.scheds[i];

		if (sched->task)
			kthread_stop(sched->task);
		WARN_ON_ONCE(ksock_sched_busy(sched) || sched->nconns);
		free_page((unsigned long)sched->scratch);
	}
	kfree(ksock_data.scheds);
	ksock_data.scheds = NULL;
	ksock_data.nscheds = 0;
}

static int ksock_scheds_per_cpt(int cpt)
{
	if (ksock_nscheds)
		return ksock_nscheds;
	return clamp_t(int, cpumask_weight(lnet_cpt_cpumask(cpt)), 1, 4);
}

int ksock_scheds_start(void)
{
	int ncpt = lnet_cpt_number();
	struct ksock_sched *sched;
	int cpt, i, n = 0, total = 0;

	for (cpt = 0; cpt < ncpt; cpt++)
		total += ksock_scheds_per_cpt(cpt);
	ksock_data.scheds = kcalloc(total, sizeof(*ksock_data.scheds),
				    GFP_KERNEL);
	if (!ksock_data.scheds)
		return -ENOMEM;
	ksock_data.nscheds = total;

	for (cpt = 0; cpt < ncpt; cpt++) {
		for (i = 0; i < ksock_scheds_per_cpt(cpt); i++, n++) {
			sched = &ksock_data.scheds[n];
			spin_lock_init(&sched->lock);
			INIT_LIST_HEAD(&sched->rx_conns);
			INIT_LIST_HEAD(&sched->tx_conns);
			init_waitqueue_head(&sched->waitq);
			sched->cpt = cpt;
			sched->index = i;
			sched->scratch = (void *)__get_free_page(GFP_KERNEL);
			if (!sched->scratch)
				goto fail;
			sched->task = lnet_cpt_kthread_run(cpt, ksock_scheduler,
							   sched,
							   "socknal_sd%02d_%02d",
							   cpt, i);
			if (IS_ERR(sched->task)) {
				sched->task = NULL;
				goto fail;
			}
		}
	}
	return 0;

fail:
	ksock_scheds_stop();
	return -ENOMEM;
}

/* ---- the reaper ------------------------------------------------------------------ */

/*
 * Has @conn stopped making progress? The reaper reads the scheduler's
 * deadlines racily: a stale value only delays the verdict by a scan.
 * A connection whose peer no longer takes what was written to the socket
 * has its queued messages blamed on the peer (REMOTE_TIMEOUT); a stalled
 * receive or send queue on the network (NETWORK_TIMEOUT, by the errno).
 */
static int ksock_conn_timed_out(struct ksock_conn *conn, unsigned long now)
{
	struct sock *sk = conn->sock->sk;
	enum ksock_rx_state rxs = READ_ONCE(conn->rx_state);
	int bufnob;

	if (READ_ONCE(conn->rx_started) && rxs != KSOCK_RX_PARKED &&
	    rxs != KSOCK_RX_PARSE &&
	    time_after(now, READ_ONCE(conn->rx_deadline)))
		return -ETIMEDOUT;
	if (!list_empty(&conn->tx_queue) &&
	    time_after(now, READ_ONCE(conn->tx_deadline)))
		return -ETIMEDOUT;
	/* written, but the peer does not take it off the socket */
	bufnob = READ_ONCE(sk->sk_wmem_queued);
	if (bufnob != conn->tx_bufnob) {
		conn->tx_bufnob = bufnob;
		conn->buf_deadline = now + ksock_timeout(conn->net) * HZ;
	} else if (bufnob && time_after(now, conn->buf_deadline)) {
		conn->tx_hstatus = LNET_MSG_STATUS_REMOTE_TIMEOUT;
		return -ETIMEDOUT;
	}
	return 0;
}

static void ksock_peer_scan_locked(struct ksock_peer *peer, unsigned long now,
				   struct list_head *expired)
{
	int keepalive = READ_ONCE(ksock_keepalive);
	unsigned long last_alive = READ_ONCE(peer->last_alive);
	char str[LNET_NIDSTR_SIZE];
	struct ksock_conn *conn;
	struct ksock_tx *tx, *ttmp;
	int err;

	lockdep_assert_held(&peer->net->lock);
again:
	list_for_each_entry(conn, &peer->conns, peer_list) {
		err = ksock_conn_timed_out(conn, now);
		if (!err)
			continue;
		pr_warn_ratelimited("connection to %s (type %d) timed out\n",
				    lnet_nid2str(peer->id.nid, str, sizeof(str)),
				    conn->type);
		/* the siblings leave the list too: start over */
		ksock_conn_close_siblings_locked(conn, err);
		goto again;
	}

	list_for_each_entry(tx, &peer->zc_reqs, zc_list) {
		if (READ_ONCE(tx->sent) == tx->nob &&
		    time_after(now, READ_ONCE(tx->deadline))) {
			pr_warn_ratelimited("%s did not ACK a zero-copy send in %d s: closing its connections\n",
					    lnet_nid2str(peer->id.nid, str,
							 sizeof(str)),
					    ksock_timeout(peer->net));
			ksock_peer_close_locked(peer, -ETIMEDOUT);
			break;
		}
	}

	list_for_each_entry_safe(tx, ttmp, &peer->tx_queue, list)
		if (time_after(now, tx->deadline))
			list_move_tail(&tx->list, expired);

	/* NOOP keepalives are V3 only */
	if (keepalive > 0 && !list_empty(&peer->conns) &&
	    peer->proto == KSOCK_PROTO_V3) {
		if (time_after(now, last_alive + (keepalive + ksock_timeout(peer->net)) * HZ)) {
			pr_warn_ratelimited("nothing from %s for %d s: closing its connections\n",
					    lnet_nid2str(peer->id.nid, str,
							 sizeof(str)),
					    keepalive + ksock_timeout(peer->net));
			ksock_peer_close_locked(peer, -ETIMEDOUT);
		} else if (time_after(now, last_alive + keepalive * HZ) &&
			   time_after(now, peer->last_keepalive + 10 * HZ)) {
			tx = ksock_tx_alloc_noop(0, KSOCK_KEEPALIVE_PING,
						 GFP_ATOMIC);
			if (tx && ksock_launch_noop_locked(peer, tx))
				kfree(tx);
			peer->last_keepalive = now;
		}
	}

	if (!list_empty(&peer->tx_queue))
		ksock_peer_maybe_connect_locked(peer);
}

static void ksock_reaper_scan(void)
{
	unsigned long now = jiffies;
	struct ksock_peer *peer;
	struct ksock_net *net;
	LIST_HEAD(expired);
	int b;

	spin_lock_bh(&ksock_data.nets_lock);
	list_for_each_entry(net, &ksock_data.nets, list) {
		spin_lock(&net->lock);
		hash_for_each(net->peers, b, peer, hnode)
			ksock_peer_scan_locked(peer, now, &expired);
		spin_unlock(&net->lock);
	}
	spin_unlock_bh(&ksock_data.nets_lock);
	ksock_txlist_done(&expired, -ETIMEDOUT);
}

/* Free the connections whose last reference went (ksock_conn_release()). */
void ksock_reap_zombies(struct work_struct *work)
{
	struct ksock_conn *conn, *tmp;
	unsigned long flags;
	LIST_HEAD(zombies);

	spin_lock_irqsave(&ksock_data.reaper_lock, flags);
	list_splice_init(&ksock_data.zombies, &zombies);
	spin_unlock_irqrestore(&ksock_data.reaper_lock, flags);
	list_for_each_entry_safe(conn, tmp, &zombies, zombie_list) {
		list_del_init(&conn->zombie_list);
		ksock_conn_destroy(conn);
	}
}

/* Once a second: timeouts, keepalives, reconnects. */
void ksock_reaper(struct work_struct *work)
{
	ksock_reaper_scan();
	queue_delayed_work(ksock_data.reaper_wq, &ksock_data.reaper, HZ);
}
