// SPDX-License-Identifier: GPL-2.0
/*
 * ksocklnd: module load and unload, the LND operations, NI startup and
 * shutdown, and the per-NI peer table.
 *
 * The scheduler threads and the reaper's timer run while at least one NI
 * of ours is up; the workqueues (handshakes, reaper) live as long as the
 * module. Shutting an NI down closes every connection of it (aborting
 * handshakes in progress), waits until the reaper freed them and every
 * peer is gone: by then each message we were given has been finalized and
 * no lnet_parse() for the NI can be running.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/lnet/acceptor.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"

struct ksock_data ksock_data;

/* ---- peers ---------------------------------------------------------------------- */

static u64 ksock_peer_key(struct lnet_process_id id)
{
	return id.nid ^ ((u64)id.pid << 32);
}

struct ksock_peer *ksock_peer_find_locked(struct ksock_net *net,
					  struct lnet_process_id id)
{
	struct ksock_peer *peer;

	lockdep_assert_held(&net->lock);
	hash_for_each_possible(net->peers, peer, hnode, ksock_peer_key(id))
		if (peer->id.nid == id.nid && peer->id.pid == id.pid)
			return peer;
	return NULL;
}

static struct ksock_peer *ksock_peer_alloc(struct ksock_net *net,
					   struct lnet_process_id id, gfp_t gfp)
{
	struct ksock_peer *peer = kzalloc(sizeof(*peer), gfp);

	if (!peer)
		return NULL;
	kref_init(&peer->kref);			/* the table's */
	peer->net = net;
	peer->id = id;
	peer->ip = htonl(LNET_NIDADDR(id.nid));
	peer->userspace = id.pid & LNET_PID_USERFLAG;
	INIT_LIST_HEAD(&peer->conns);
	INIT_LIST_HEAD(&peer->tx_queue);
	INIT_LIST_HEAD(&peer->zc_reqs);
	INIT_WORK(&peer->connd_work, ksock_connd_peer_work);
	peer->zc_cookie = KSOCK_KEEPALIVE_PING;
	peer->last_alive = jiffies;
	peer->last_keepalive = jiffies;
	atomic_inc(&net->npeers);
	return peer;
}

/*
 * The peer @id of @net with a reference for the caller, made if need be;
 * NULL if out of memory or the net is shutting down. Called without
 * net->lock.
 */
struct ksock_peer *ksock_peer_find_or_create(struct ksock_net *net,
					     struct lnet_process_id id,
					     gfp_t gfp)
{
	struct ksock_peer *peer, *new;

	spin_lock_bh(&net->lock);
	peer = ksock_peer_find_locked(net, id);
	if (peer)
		ksock_peer_get(peer);
	spin_unlock_bh(&net->lock);
	if (peer)
		return peer;

	new = ksock_peer_alloc(net, id, gfp);
	if (!new)
		return NULL;
	spin_lock_bh(&net->lock);
	peer = ksock_peer_find_locked(net, id);
	if (!peer && !net->shutdown) {
		hash_add(net->peers, &new->hnode, ksock_peer_key(id));
		peer = new;
		new = NULL;
	}
	if (peer)
		ksock_peer_get(peer);
	spin_unlock_bh(&net->lock);
	if (new)
		ksock_peer_put(new);
	return peer;
}

void ksock_peer_release(struct kref *kref)
{
	struct ksock_peer *peer = container_of(kref, struct ksock_peer, kref);
	struct ksock_net *net = peer->net;

	WARN_ON_ONCE(!list_empty(&peer->conns));
	WARN_ON_ONCE(!list_empty(&peer->tx_queue));
	WARN_ON_ONCE(!list_empty(&peer->zc_reqs));
	kfree(peer);
	/* after the decrement @net may be freed by ksock_shutdown() */
	atomic_dec(&net->npeers);
	wake_up_all(&ksock_data.shutdown_waitq);
}

/* ---- threads ------------------------------------------------------------------- */

/*
 * The last NI is down: no handshake is queued or running (shutdown waited
 * for every net's nbusy) and every connection is freed, so only the
 * reaper's own timer is left to stop.
 */
static void ksock_threads_stop(void)
{
	cancel_delayed_work_sync(&ksock_data.reaper);
	flush_workqueue(ksock_data.reaper_wq);
	flush_workqueue(ksock_data.connd_wq);
	ksock_scheds_stop();
}

static int ksock_threads_start(void)
{
	int rc;

	rc = ksock_scheds_start();
	if (rc)
		return rc;
	queue_delayed_work(ksock_data.reaper_wq, &ksock_data.reaper, HZ);
	return 0;
}

/* ---- NI startup and shutdown ------------------------------------------------------ */

/*
 * The NI's link went down (lnd.h, @link_down): its connections are cut,
 * and what waits for a connection would wait for the link. Both fail now
 * as dropped here - queued, and written but not ACKed - so that LNet
 * resends them on another rail rather than after sock_timeout.
 */
static void ksock_link_down_work(struct work_struct *work)
{
	struct ksock_net *net = container_of(work, struct ksock_net,
					     link_work);
	struct ksock_peer *peer;
	struct ksock_conn *conn;
	struct ksock_tx *tx;
	LIST_HEAD(dropped);
	int b;

	spin_lock_bh(&net->lock);
	hash_for_each(net->peers, b, peer, hnode) {
		list_splice_tail_init(&peer->tx_queue, &dropped);
		list_for_each_entry(conn, &peer->conns, peer_list)
			conn->tx_hstatus = LNET_MSG_STATUS_LOCAL_DROPPED;
		ksock_peer_close_locked(peer, -ENETDOWN);
	}
	spin_unlock_bh(&net->lock);
	list_for_each_entry(tx, &dropped, list)
		tx->hstatus = LNET_MSG_STATUS_LOCAL_DROPPED;
	ksock_txlist_done(&dropped, -ENETDOWN);
}

static void ksock_link_down(struct lnet_ni *ni)
{
	struct ksock_net *net = lnet_ni_data(ni);

	queue_work(ksock_data.reaper_wq, &net->link_work);
}

static int ksock_startup(struct lnet_ni *ni)
{
	char nidstr[LNET_NIDSTR_SIZE];
	struct ksock_net *net;
	int rc;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	net->ni = ni;
	spin_lock_init(&net->lock);
	hash_init(net->peers);
	mutex_init(&net->sock_mutex);
	INIT_LIST_HEAD(&net->socks);
	atomic_set(&net->npeers, 0);
	atomic_set(&net->nconns, 0);
	atomic_set(&net->nbusy, 0);
	INIT_WORK(&net->link_work, ksock_link_down_work);
	/* constant for the NI's life; a restarted NI is a new incarnation */
	net->incarnation = ktime_get_real_ns();

	rc = ksock_net_pick_iface(net, lnet_ni_iface(ni));
	if (rc)
		goto fail_free;
	rc = ksock_net_tunables(net, lnet_ni_lnd_tunables(ni));
	if (rc)
		goto fail_free;
	lnet_ni_set_addr(ni, ntohl(net->ip));
	lnet_ni_set_dev_node(ni, ksock_net_dev_node(net));
	lnet_ni_set_credits(ni, ksock_credits, ksock_peer_credits);

	mutex_lock(&ksock_data.mutex);
	if (!ksock_data.nnets) {
		rc = ksock_threads_start();
		if (rc) {
			mutex_unlock(&ksock_data.mutex);
			goto fail_free;
		}
	}
	ksock_data.nnets++;
	mutex_unlock(&ksock_data.mutex);

	rc = lnet_acceptor_start();
	if (rc)
		goto fail_threads;

	lnet_ni_set_data(ni, net);
	spin_lock_bh(&ksock_data.nets_lock);
	list_add_tail(&net->list, &ksock_data.nets);
	spin_unlock_bh(&ksock_data.nets_lock);

	pr_info("%s up on %s (%d bulk connection(s) per direction)\n",
		lnet_nid2str(lnet_ni_nid(ni), nidstr, sizeof(nidstr)),
		net->ifname, net->conns_per_peer);
	return 0;

fail_threads:
	mutex_lock(&ksock_data.mutex);
	if (!--ksock_data.nnets)
		ksock_threads_stop();
	mutex_unlock(&ksock_data.mutex);
fail_free:
	kfree(net);
	return rc;
}

/* Take every peer off the table and close everything it has. */
static void ksock_net_close_all(struct ksock_net *net)
{
	struct ksock_peer *peer;
	struct hlist_node *tmp;
	LIST_HEAD(zombies);
	int b;

	spin_lock_bh(&net->lock);
	net->shutdown = true;
	hash_for_each_safe(net->peers, b, tmp, peer, hnode) {
		ksock_peer_close_locked(peer, -ESHUTDOWN);
		list_splice_tail_init(&peer->tx_queue, &zombies);
		hash_del(&peer->hnode);
		peer->unhashed = true;
		/* the table's reference; connd jobs hold their own */
		ksock_peer_put(peer);
	}
	spin_unlock_bh(&net->lock);
	ksock_txlist_done(&zombies, -ESHUTDOWN);
}

static void ksock_shutdown(struct lnet_ni *ni)
{
	struct ksock_net *net = lnet_ni_data(ni);
	char nidstr[LNET_NIDSTR_SIZE];
	int waited = 0;

	/* the core calls link_down() no more */
	cancel_work_sync(&net->link_work);

	spin_lock_bh(&ksock_data.nets_lock);
	list_del(&net->list);
	spin_unlock_bh(&ksock_data.nets_lock);

	lnet_acceptor_stop();
	ksock_net_close_all(net);
	ksock_net_abort_handshakes(net);

	/* connections die through the schedulers and the reaper */
	while (!wait_event_timeout(ksock_data.shutdown_waitq,
				   !atomic_read(&net->nconns) &&
				   !atomic_read(&net->npeers) &&
				   !atomic_read(&net->nbusy), HZ)) {
		ksock_net_abort_handshakes(net);
		if (!(++waited % 10))
			pr_info("%s: waiting for %d peers, %d connections, %d handshakes\n",
				lnet_nid2str(lnet_ni_nid(ni), nidstr,
					     sizeof(nidstr)),
				atomic_read(&net->npeers),
				atomic_read(&net->nconns),
				atomic_read(&net->nbusy));
	}

	mutex_lock(&ksock_data.mutex);
	if (!--ksock_data.nnets)
		ksock_threads_stop();
	mutex_unlock(&ksock_data.mutex);
	lnet_ni_set_data(ni, NULL);
	kfree(net);
}

static unsigned int ksock_lnd_timeout(struct lnet_ni *ni)
{
	return ksock_timeout(lnet_ni_data(ni));
}

static struct lnet_lnd ksock_lnd = {
	.owner			= THIS_MODULE,
	.type			= LNET_LND_SOCK,
	.startup		= ksock_startup,
	.shutdown		= ksock_shutdown,
	.send			= ksock_send,
	.recv			= ksock_recv,
	.accept			= ksock_accept,
	.timeout		= ksock_lnd_timeout,
	.set_conns_per_peer	= ksock_set_conns_per_peer,
	.link_down		= ksock_link_down,
};

static int __init ksock_module_init(void)
{
	int rc;

	rc = ksock_modparams_check();
	if (rc)
		return rc;
	mutex_init(&ksock_data.mutex);
	spin_lock_init(&ksock_data.nets_lock);
	INIT_LIST_HEAD(&ksock_data.nets);
	spin_lock_init(&ksock_data.reaper_lock);
	INIT_LIST_HEAD(&ksock_data.zombies);
	INIT_WORK(&ksock_data.zombie_work, ksock_reap_zombies);
	INIT_DELAYED_WORK(&ksock_data.reaper, ksock_reaper);
	init_waitqueue_head(&ksock_data.shutdown_waitq);

	/* handshakes may be on the way of memory reclaim (Lustre writeback) */
	ksock_data.connd_wq = alloc_workqueue("ksocklnd_connd",
					      WQ_UNBOUND | WQ_MEM_RECLAIM,
					      ksock_nconnds);
	if (!ksock_data.connd_wq)
		return -ENOMEM;
	ksock_data.reaper_wq = alloc_ordered_workqueue("ksocklnd_reaper",
						       WQ_MEM_RECLAIM);
	if (!ksock_data.reaper_wq) {
		rc = -ENOMEM;
		goto fail_connd_wq;
	}

	rc = lnet_hs_pool_init(&ksock_data.passive, "ksocklnd_hello");
	if (rc)
		goto fail_reaper_wq;

	rc = lnet_register_lnd(&ksock_lnd);
	if (rc)
		goto fail_passive;
	ksock_ioctl_init();
	return 0;

fail_passive:
	lnet_hs_pool_fini(&ksock_data.passive);
fail_reaper_wq:
	destroy_workqueue(ksock_data.reaper_wq);
fail_connd_wq:
	destroy_workqueue(ksock_data.connd_wq);
	return rc;
}

static void __exit ksock_module_exit(void)
{
	ksock_ioctl_fini();
	/* no NI of ours can exist: each holds a reference on this module */
	lnet_unregister_lnd(&ksock_lnd);
	lnet_hs_pool_fini(&ksock_data.passive);
	destroy_workqueue(ksock_data.reaper_wq);
	destroy_workqueue(ksock_data.connd_wq);
}

module_init(ksock_module_init);
module_exit(ksock_module_exit);
MODULE_DESCRIPTION("LNet TCP socket network driver (socklnd protocol V3)");
MODULE_LICENSE("GPL");
