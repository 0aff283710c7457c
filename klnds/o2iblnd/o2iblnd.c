// SPDX-License-Identifier: GPL-2.0
/*
 * ko2iblnd: module load and unload, the LND operations, NI startup and
 * shutdown, and the per-NI peer table.
 *
 * An NI is an IPv4 interface with an RDMA device behind it (an IPoIB
 * interface, or an Ethernet one with RoCE or soft-RoCE). Startup binds the
 * rdma_cm listener to the NI's address, which finds the device; the NI
 * then owns a protection domain and a pool of tx descriptors on it.
 * Shutdown stops the listener, closes every connection and waits until
 * each is destroyed: by then every message we were given is finalized and
 * no lnet_parse() for the NI can be running.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/lnet/nidstr.h>
#include "o2iblnd.h"

struct kib_data kib_data;

/* ---- peers ---------------------------------------------------------------------- */

struct kib_peer *kib_peer_find_locked(struct kib_net *net, lnet_nid_t nid)
{
	struct kib_peer *peer;

	lockdep_assert_held(&net->lock);
	hash_for_each_possible(net->peers, peer, hnode, nid)
		if (peer->nid == nid)
			return peer;
	return NULL;
}

static struct kib_peer *kib_peer_alloc(struct kib_net *net, lnet_nid_t nid,
				       gfp_t gfp)
{
	struct kib_peer *peer = kzalloc(sizeof(*peer), gfp);

	if (!peer)
		return NULL;
	kref_init(&peer->kref);		/* the table's */
	peer->net = net;
	peer->nid = nid;
	INIT_LIST_HEAD(&peer->conns);
	INIT_LIST_HEAD(&peer->passive);
	INIT_LIST_HEAD(&peer->tx_queue);
	peer->version = KIB_MSG_VERSION;
	peer->queue_depth = net->queue_depth;
	peer->max_frags = KIB_MAX_RDMA_FRAGS;
	peer->last_alive = jiffies;
	atomic_inc(&net->npeers);
	return peer;
}

/*
 * The peer @nid of @net with a reference for the caller, made if need be;
 * NULL if out of memory or the net is going down. Called without net->lock.
 */
struct kib_peer *kib_peer_find_or_create(struct kib_net *net, lnet_nid_t nid,
					 gfp_t gfp)
{
	struct kib_peer *peer, *new;

	spin_lock_bh(&net->lock);
	peer = kib_peer_find_locked(net, nid);
	if (peer)
		kib_peer_get(peer);
	spin_unlock_bh(&net->lock);
	if (peer)
		return peer;

	new = kib_peer_alloc(net, nid, gfp);
	if (!new)
		return NULL;
	spin_lock_bh(&net->lock);
	peer = kib_peer_find_locked(net, nid);
	if (!peer && !net->shutdown && !net->dev_removed) {
		hash_add(net->peers, &new->hnode, nid);
		peer = new;
		new = NULL;
	}
	if (peer)
		kib_peer_get(peer);
	spin_unlock_bh(&net->lock);
	if (new)
		kib_peer_put(new);
	return peer;
}

/* Take @peer off the table; it goes once its connections have. */
void kib_peer_unhash_locked(struct kib_peer *peer)
{
	lockdep_assert_held(&peer->net->lock);
	if (peer->unhashed)
		return;
	WARN_ON_ONCE(!list_empty(&peer->tx_queue));
	hash_del(&peer->hnode);
	peer->unhashed = true;
	kib_peer_put(peer);
}

void kib_peer_release(struct kref *kref)
{
	struct kib_peer *peer = container_of(kref, struct kib_peer, kref);
	struct kib_net *net = peer->net;

	WARN_ON_ONCE(!list_empty(&peer->conns));
	WARN_ON_ONCE(!list_empty(&peer->passive));
	WARN_ON_ONCE(!list_empty(&peer->tx_queue));
	kfree(peer);
	/* after the decrement @net may be freed by kib_shutdown() */
	atomic_dec(&net->npeers);
	wake_up_all(&kib_data.waitq);
}

/* ---- NI startup and shutdown ------------------------------------------------------ */

/* Off the reaper's list; the last net stops the reaper. */
static void kib_net_unlist(struct kib_net *net)
{
	mutex_lock(&kib_data.mutex);
	spin_lock_bh(&kib_data.nets_lock);
	list_del(&net->list);
	spin_unlock_bh(&kib_data.nets_lock);
	if (!--kib_data.nnets)
		cancel_delayed_work_sync(&kib_data.reaper);
	mutex_unlock(&kib_data.mutex);
}

/*
 * The NI's link went down (lnd.h, @link_down): what its connections hold
 * and what waits for one fail now, as dropped here, so that LNet resends
 * them on another rail rather than after the RC transport's retries or
 * our timeout. The peers go with their connections; a message the core
 * still hands this NI makes a new one, which connects once the link is
 * back.
 */
static void kib_link_down_work(struct work_struct *work)
{
	kib_net_close_peers(container_of(work, struct kib_net, link_work),
			    -ENETDOWN);
}

static void kib_link_down(struct lnet_ni *ni)
{
	struct kib_net *net = lnet_ni_data(ni);

	queue_work(kib_data.wq, &net->link_work);
}

static int kib_startup(struct lnet_ni *ni)
{
	char nidstr[LNET_NIDSTR_SIZE];
	const char *iface = lnet_ni_iface(ni);
	struct kib_net *net;
	int rc;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	net->ni = ni;
	spin_lock_init(&net->lock);
	spin_lock_init(&net->pool_lock);
	INIT_LIST_HEAD(&net->free_txs);
	hash_init(net->peers);
	INIT_WORK(&net->link_work, kib_link_down_work);
#ifdef LNET_KUNIT
	INIT_LIST_HEAD(&net->flood_conns);
#endif
	atomic_set(&net->npeers, 0);
	atomic_set(&net->nconns, 0);
	/*
	 * Microseconds since the epoch when the NI started
	 * (Documentation/wire/o2iblnd.md, "Message header").
	 */
	net->incarnation = ktime_to_us(ktime_get_real());

	rc = lnet_ipif_pick("ko2iblnd", *iface ? iface : kib_ipif_name,
			    net->ifname, &net->ip);
	if (rc)
		goto fail_free;
	lnet_ni_set_addr(ni, ntohl(net->ip));
	rc = kib_ni_tunables(net, lnet_nid2str(lnet_ni_nid(ni), nidstr,
					       sizeof(nidstr)),
			     lnet_ni_lnd_tunables(ni));
	if (rc)
		goto fail_free;
	lnet_ni_set_credits(ni, kib_credits, kib_peer_credits);
	/* the NI's peer credits (maybe from lnetctl) are the queue depth */
	net->queue_depth = clamp(lnet_ni_peer_credits(ni), 1, KIB_CREDITS_MAX);
	lnet_ni_set_data(ni, net);

	rc = kib_listen(net);
	if (rc)
		goto fail_free;
	lnet_ni_set_dev_node(ni, dev_to_node(&net->ibdev->dev));
	rc = kib_pool_init(net);
	if (rc)
		goto fail_listener;

	mutex_lock(&kib_data.mutex);
	if (!kib_data.nnets++)
		queue_delayed_work(kib_data.wq, &kib_data.reaper, HZ);
	spin_lock_bh(&kib_data.nets_lock);
	list_add_tail(&net->list, &kib_data.nets);
	spin_unlock_bh(&kib_data.nets_lock);
	mutex_unlock(&kib_data.mutex);

	rc = kib_listen_start(net);
	if (rc) {
		pr_err("%s: cannot listen: %d\n", net->ifname, rc);
		goto fail_listed;
	}
	pr_info("%s up on %s (%s), queue depth %d\n",
		lnet_nid2str(lnet_ni_nid(ni), nidstr, sizeof(nidstr)),
		net->ifname, dev_name(&net->ibdev->dev), net->queue_depth);
	return 0;

fail_listed:
	kib_net_unlist(net);
	kib_pool_fini(net);
fail_listener:
	rdma_destroy_id(net->listener);
	ib_dealloc_pd(net->pd);
fail_free:
	lnet_ni_set_data(ni, NULL);
	kfree(net);
	return rc;
}

static void kib_shutdown(struct lnet_ni *ni)
{
	struct kib_net *net = lnet_ni_data(ni);
	char nidstr[LNET_NIDSTR_SIZE];

	kib_net_unlist(net);
	kib_net_release(net);
	while (!wait_event_timeout(kib_data.waitq,
				   !atomic_read(&net->nconns) &&
				   !atomic_read(&net->npeers), 10 * HZ)) {
		pr_info("%s: waiting for %d peers, %d connections\n",
			lnet_nid2str(lnet_ni_nid(ni), nidstr, sizeof(nidstr)),
			atomic_read(&net->npeers), atomic_read(&net->nconns));
		kib_net_close_peers(net, -ESHUTDOWN);
	}
	/* every work item of the net's connections (and link_work) has run */
	flush_workqueue(kib_data.wq);
	if (net->pd) {
		kib_pool_close(net);
		kib_pool_fini(net);
		ib_dealloc_pd(net->pd);
	}
	lnet_ni_set_data(ni, NULL);
	kfree(net);
}

/* ---- /sys/kernel/debug/ko2iblnd ------------------------------------------------ */

#define KIB_STAT(name)	{ #name, offsetof(struct kib_stats, name) }

static const struct {
	const char	*name;
	size_t		offset;
} kib_stat_fields[] = {
	KIB_STAT(sinks_registered),
	KIB_STAT(sinks_invalidated),
	KIB_STAT(sinks_deregistered),
	KIB_STAT(finalized_after_dereg),
	KIB_STAT(finalized_mr_live),
	KIB_STAT(done_nob_rejected),
	KIB_STAT(sends_refused),
	KIB_STAT(connreqs_refused),
};

static int kib_stats_show(struct seq_file *m, void *v)
{
	struct kib_net *net;
	int i;

	spin_lock_bh(&kib_data.nets_lock);
	list_for_each_entry(net, &kib_data.nets, list) {
		const char *n = net->ifname;

		seq_printf(m, "%s txs %d\n", n, net->pool_size);
		seq_printf(m, "%s txs_out %d\n", n, READ_ONCE(net->ntx_out));
		seq_printf(m, "%s pool_closed %d\n", n,
			   READ_ONCE(net->pool_closed));
		seq_printf(m, "%s conns %d\n", n, atomic_read(&net->nconns));
		seq_printf(m, "%s peers %d\n", n, atomic_read(&net->npeers));
		seq_printf(m, "%s conns_max %d\n", n,
			   READ_ONCE(net->nconns_max));
		seq_printf(m, "%s passive_max %d\n", n,
			   READ_ONCE(net->npassive_max));
		for (i = 0; i < ARRAY_SIZE(kib_stat_fields); i++) {
			atomic64_t *v = (void *)&net->stats +
					kib_stat_fields[i].offset;

			seq_printf(m, "%s %s %lld\n", n,
				   kib_stat_fields[i].name, atomic64_read(v));
		}
	}
	spin_unlock_bh(&kib_data.nets_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kib_stats);

static unsigned int kib_lnd_timeout(struct lnet_ni *ni)
{
	return kib_timeout_secs(lnet_ni_data(ni));
}

static struct lnet_lnd kib_lnd = {
	.owner			= THIS_MODULE,
	.type			= LNET_LND_O2IB,
	.startup		= kib_startup,
	.shutdown		= kib_shutdown,
	.send			= kib_send,
	.recv			= kib_recv,
	.timeout		= kib_lnd_timeout,
	.link_down		= kib_link_down,
};

static int __init kib_module_init(void)
{
	int rc;

	rc = kib_modparams_check();
	if (rc)
		return rc;
	mutex_init(&kib_data.mutex);
	spin_lock_init(&kib_data.nets_lock);
	INIT_LIST_HEAD(&kib_data.nets);
	init_waitqueue_head(&kib_data.waitq);
	INIT_DELAYED_WORK(&kib_data.reaper, kib_reaper);
	kib_data.wq = alloc_workqueue("ko2iblnd", WQ_MEM_RECLAIM, 0);
	if (!kib_data.wq)
		return -ENOMEM;
	kib_data.debugfs = debugfs_create_dir("ko2iblnd", NULL);
	debugfs_create_file("stats", 0444, kib_data.debugfs, NULL,
			    &kib_stats_fops);
	rc = lnet_register_lnd(&kib_lnd);
	if (rc) {
		debugfs_remove_recursive(kib_data.debugfs);
		destroy_workqueue(kib_data.wq);
		return rc;
	}
	kib_ioctl_init();
	return 0;
}

static void __exit kib_module_exit(void)
{
	kib_ioctl_fini();
	/* no NI of ours can exist: each holds a reference on this module */
	lnet_unregister_lnd(&kib_lnd);
	debugfs_remove_recursive(kib_data.debugfs);
	destroy_workqueue(kib_data.wq);
}

module_init(kib_module_init);
module_exit(kib_module_exit);
MODULE_DESCRIPTION("LNet InfiniBand/RoCE network driver (o2iblnd protocol V2)");
MODULE_LICENSE("GPL");
