// SPDX-License-Identifier: GPL-2.0
/*
 * Peers: the nodes we send to, one per NID, hashed by NID under
 * lnet_core.net_lock; the list of them can also be walked under RCU. The table holds a reference, and so does every
 * message being sent to the peer. A peer belongs to the NI it is reached
 * through and is removed when that NI goes down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

int lnet_peers_init(void)
{
	INIT_LIST_HEAD(&lnet_core.peer_list);
	INIT_LIST_HEAD(&lnet_core.peers_waiting);
	lnet_core.npeers = 0;
	return lnet_htable_init(&lnet_core.peers, &lnet_core.net_lock);
}

void lnet_peers_fini(void)
{
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

static struct lnet_peer *lnet_peer_find_locked(lnet_nid_t nid)
{
	struct lnet_hnode *n = lnet_htable_find(&lnet_core.peers, nid);

	return n ? container_of(n, struct lnet_peer, hnode) : NULL;
}

static void lnet_peer_unhash(struct lnet_peer *peer)
{
	lockdep_assert_held(&lnet_core.net_lock);
	lnet_htable_del(&lnet_core.peers, &peer->hnode);
	list_del_rcu(&peer->list);
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
	if (peer)
		kref_get(&peer->kref);
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
	INIT_LIST_HEAD(&new->tx_queue);
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
	if (peer)
		kref_get(&peer->kref);
	spin_unlock_bh(&lnet_core.net_lock);
	kfree(new);
	return peer;
}

/*
 * @ni is going down: unhash its peers and move the messages waiting for
 * their credits to @queued. Called with net_lock held.
 */
void lnet_peers_del_ni(struct lnet_ni *ni, struct list_head *queued)
{
	struct lnet_peer *peer, *tmp;

	lockdep_assert_held(&lnet_core.net_lock);
	list_for_each_entry_safe(peer, tmp, &lnet_core.peer_list, list) {
		if (peer->ni != ni)
			continue;
		list_splice_tail_init(&peer->tx_queue, queued);
		list_del_init(&peer->waiting);
		lnet_peer_unhash(peer);
	}
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
