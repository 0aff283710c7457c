// SPDX-License-Identifier: GPL-2.0
/*
 * Peers: the nodes we send to, one per NID, hashed by NID under
 * lnet_core.net_lock; the list of them can also be walked under RCU. The
 * table holds a reference, and so does every message being sent to the
 * peer. A peer belongs to the NI it is reached through and is removed when
 * that NI goes down, or once it has been idle (no message holding it,
 * nothing queued) for peer_idle_timeout seconds: every NID a remote node
 * makes us answer costs a peer, and those must not pile up for the NI's
 * lifetime. A peer freed that way starts afresh (full credits, counters at
 * zero) at its next message. A peer an admin added (peer add) is kept
 * until peer del or its NI's end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

static unsigned int lnet_peer_idle_timeout = 3600;
module_param_named(peer_idle_timeout, lnet_peer_idle_timeout, uint, 0644);
MODULE_PARM_DESC(peer_idle_timeout,
		 "seconds an idle peer (nothing in flight or queued) is kept after its last message (0: until its NI goes down)");

static void lnet_peers_reap_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_peer_reaper, lnet_peers_reap_work);

/* A reaper pass at most once a minute (sooner for short timeouts). */
static void lnet_peers_reap_schedule(void)
{
	unsigned int timeout = READ_ONCE(lnet_peer_idle_timeout);

	if (timeout)
		queue_delayed_work(system_wq, &lnet_peer_reaper,
				   min(timeout, 60U) * HZ);
}

int lnet_peers_init(void)
{
	INIT_LIST_HEAD(&lnet_core.peer_list);
	INIT_LIST_HEAD(&lnet_core.peers_waiting);
	lnet_core.npeers = 0;
	return lnet_htable_init(&lnet_core.peers, &lnet_core.net_lock);
}

void lnet_peers_fini(void)
{
	cancel_delayed_work_sync(&lnet_peer_reaper);
	lnet_htable_fini(&lnet_core.peers);
}

static void lnet_peer_release(struct kref *kref)
{
	struct lnet_peer *peer = container_of(kref, struct lnet_peer, kref);

	/* a GET_PEER_NI walk under RCU may still be looking at it */
	kfree_rcu(peer, rcu);
}

void lnet_peer_put(struct lnet_peer *peer)
{
	kref_put(&peer->kref, lnet_peer_release);
}

struct lnet_peer *lnet_peer_find_locked(lnet_nid_t nid)
{
	struct lnet_hnode *n = lnet_htable_find(&lnet_core.peers, nid);

	return n ? container_of(n, struct lnet_peer, hnode) : NULL;
}
LNET_EXPORT_FOR_TEST(lnet_peer_find_locked);

void lnet_peer_unhash_locked(struct lnet_peer *peer)
{
	lockdep_assert_held(&lnet_core.net_lock);
	lnet_htable_del(&lnet_core.peers, &peer->hnode);
	lnet_peer_health_unhash(peer);
	list_del_rcu(&peer->list);
	list_del_init(&peer->waiting);
	peer->unhashed = true;
	lnet_core.npeers--;
	/* messages sending to it keep it until they are freed */
	lnet_peer_put(peer);
}

/* The peer @nid on @ni, created if need be; a reference for the caller. */
struct lnet_peer *lnet_peer_get(struct lnet_ni *ni, lnet_nid_t nid, gfp_t gfp)
{
	struct lnet_peer *peer, *new;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer) {
		kref_get(&peer->kref);
		peer->last_used = jiffies;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	if (peer)
		return peer;

	new = kzalloc(sizeof(*new), gfp);
	if (!new)
		return NULL;
	kref_init(&new->kref);		/* the table's */
	new->nid = nid;
	new->ni = ni;
	new->max_tx_credits = ni->peer_tx_credits;
	new->tx_credits = new->max_tx_credits;
	new->min_tx_credits = new->max_tx_credits;
	new->healthv = LNET_MAX_HEALTH;
	new->max_rtr_credits = lnet_peer_rtr_credits(ni);
	new->rtr_credits = new->max_rtr_credits;
	new->min_rtr_credits = new->max_rtr_credits;
	INIT_LIST_HEAD(&new->rtr_queue);
	INIT_LIST_HEAD(&new->tx_queue);
	INIT_LIST_HEAD(&new->recovery.list);
	INIT_LIST_HEAD(&new->waiting);

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (!peer && ni->state == LNET_NI_STATE_UP &&
	    !lnet_htable_add(&lnet_core.peers, &new->hnode, nid)) {
		list_add_tail_rcu(&new->list, &lnet_core.peer_list);
		lnet_core.npeers++;
		peer = new;
		new = NULL;
	}
	if (peer) {
		kref_get(&peer->kref);
		peer->last_used = jiffies;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	if (peer && !new)
		lnet_peers_reap_schedule();	/* a no-op while pending */
	kfree(new);
	return peer;
}

/* Nothing holds @peer but the table, nothing waits, not used lately. */
static bool lnet_peer_idle(struct lnet_peer *peer, unsigned long now,
			   unsigned long idle)
{
	return !READ_ONCE(peer->configured) && kref_read(&peer->kref) == 1 &&
	       list_empty(&peer->tx_queue) && list_empty(&peer->rtr_queue) &&
	       time_after_eq(now, READ_ONCE(peer->last_used) + idle);
}

/**
 * lnet_peers_reap() - free the peers idle for at least @idle jiffies
 * @idle: how long
 *
 * The walk is under RCU; net_lock (BH off) is taken only to recheck and
 * remove a candidate. A message takes its peer reference under net_lock,
 * so a peer seen idle there cannot be in use.
 *
 * Return: how many were freed.
 */
unsigned int lnet_peers_reap(unsigned long idle)
{
	unsigned long now = jiffies;
	struct lnet_peer *peer;
	unsigned int n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(peer, &lnet_core.peer_list, list) {
		if (!lnet_peer_idle(peer, now, idle))
			continue;
		spin_lock_bh(&lnet_core.net_lock);
		if (!peer->unhashed && lnet_peer_idle(peer, now, idle)) {
			lnet_peer_unhash_locked(peer);
			n++;
		}
		spin_unlock_bh(&lnet_core.net_lock);
	}
	rcu_read_unlock();
	return n;
}
LNET_EXPORT_FOR_TEST(lnet_peers_reap);

static void lnet_peers_reap_work(struct work_struct *work)
{
	unsigned int timeout = READ_ONCE(lnet_peer_idle_timeout);

	if (!timeout)
		return;
	lnet_peers_reap((unsigned long)timeout * HZ);
	if (lnet_peer_count())
		lnet_peers_reap_schedule();
}

/*
 * @ni is going down: unhash its peers and move the messages waiting for
 * their send credits to @queued, those waiting for their router credits
 * to @rtr_queued. Called with net_lock held.
 */
void lnet_peers_del_ni(struct lnet_ni *ni, struct list_head *queued,
		       struct list_head *rtr_queued)
{
	struct lnet_peer *peer, *tmp;

	lockdep_assert_held(&lnet_core.net_lock);
	list_for_each_entry_safe(peer, tmp, &lnet_core.peer_list, list) {
		if (peer->ni != ni)
			continue;
		list_splice_tail_init(&peer->tx_queue, queued);
		list_splice_tail_init(&peer->rtr_queue, rtr_queued);
		lnet_peer_unhash_locked(peer);
	}
}

/**
 * lnet_peer_configure() - peer add: a peer kept until peer del
 * @nid: the peer's NID
 *
 * An existing peer is marked; otherwise one is made on the NI of @nid's
 * net that its first message would choose, and it keeps that NI.
 *
 * Return: 0, -EEXIST (configured already), -EINVAL (@nid is one of ours),
 * -EHOSTUNREACH (no NI on its net: a node behind a router has no peer
 * state here, its gateway has), -ESHUTDOWN (the NI is going down) or
 * -ENOMEM.
 */
int lnet_peer_configure(lnet_nid_t nid)
{
	struct lnet_peer *peer;
	struct lnet_ni *ni;
	int rc = 0;

	rcu_read_lock();
	if (lnet_ni_find_rcu(nid)) {
		rcu_read_unlock();
		return -EINVAL;
	}
	ni = lnet_select_ni_rcu(nid, NUMA_NO_NODE, true);
	if (ni && !percpu_ref_tryget_live(&ni->ref))
		ni = NULL;
	rcu_read_unlock();
	if (!ni)
		return -EHOSTUNREACH;
	peer = lnet_peer_get(ni, nid, GFP_KERNEL);
	if (!peer) {
		rc = READ_ONCE(ni->state) == LNET_NI_STATE_UP ? -ENOMEM :
								 -ESHUTDOWN;
		lnet_ni_put(ni);
		return rc;
	}
	lnet_ni_put(ni);
	spin_lock_bh(&lnet_core.net_lock);
	if (peer->unhashed)
		rc = -ESHUTDOWN;
	else if (peer->configured)
		rc = -EEXIST;
	else
		WRITE_ONCE(peer->configured, true);
	spin_unlock_bh(&lnet_core.net_lock);
	lnet_peer_put(peer);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_peer_configure);

/* Undo lnet_peer_configure() (a peer add that failed further on). */
void lnet_peer_unconfigure(lnet_nid_t nid)
{
	struct lnet_peer *peer;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer)
		WRITE_ONCE(peer->configured, false);
	spin_unlock_bh(&lnet_core.net_lock);
}

/**
 * lnet_peer_del() - peer del: forget a peer, configured or not
 * @nid: the peer's NID
 *
 * The messages in flight keep the forgotten peer until they complete (its
 * credits with it); the next message to @nid makes a new peer.
 *
 * Return: 0, -ENOENT, or -EBUSY while messages wait for its credits.
 */
int lnet_peer_del(lnet_nid_t nid)
{
	struct lnet_peer *peer;
	int rc = 0;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (!peer)
		rc = -ENOENT;
	else if (!list_empty(&peer->tx_queue) || !list_empty(&peer->rtr_queue))
		rc = -EBUSY;
	else
		lnet_peer_unhash_locked(peer);
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_peer_del);

/* Whether @nid is a peer (traffic or peer add made it one). */
bool lnet_peer_known(lnet_nid_t nid)
{
	bool known;

	spin_lock_bh(&lnet_core.net_lock);
	known = lnet_peer_find_locked(nid);
	spin_unlock_bh(&lnet_core.net_lock);
	return known;
}

/* How many peers the table holds. */
unsigned int lnet_peer_count(void)
{
	unsigned int n;

	spin_lock_bh(&lnet_core.net_lock);
	n = lnet_core.npeers;
	spin_unlock_bh(&lnet_core.net_lock);
	return n;
}
LNET_EXPORT_FOR_TEST(lnet_peer_count);

int lnet_peer_credit_state(lnet_nid_t nid, int *credits, int *min_credits,
			   int *queued)
{
	struct lnet_peer *peer;
	struct lnet_msg *msg;
	int max = -ENOENT;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer) {
		max = peer->max_tx_credits;
		*credits = peer->tx_credits;
		*min_credits = peer->min_tx_credits;
		*queued = 0;
		list_for_each_entry(msg, &peer->tx_queue, list)
			(*queued)++;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return max;
}
LNET_EXPORT_FOR_TEST(lnet_peer_credit_state);
