// SPDX-License-Identifier: GPL-2.0
/*
 * Peer nodes: which peer NIDs are one remote node, and which of them is its
 * primary NID (Documentation/wire/routing-health-multirail.md, "Multi-Rail
 * selection"). A node is made by discovery (discovery.c) on the first
 * message to a NID, or by an admin (peer add) or an upper layer
 * (LNetAddPeer()). The per-NID state - credits, health, counters - stays
 * in struct lnet_peer (peer.c), made when a message first uses a NID and
 * freed when idle; a node only says which NIDs belong together.
 *
 * Every NID of a node is in lnet_core.node_nids, an rhashtable read under
 * RCU: the receive path turns a sender's NID into its primary NID (for
 * matching and events) with one lookup and no lock. The table, the node
 * list and every node's fields change under lnet_core.net_lock; nodes and
 * table entries are freed after an RCU grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

static const struct rhashtable_params lnet_node_nid_params = {
	.head_offset		= offsetof(struct lnet_node_nid, hnode),
	.key_offset		= offsetof(struct lnet_node_nid, nid),
	.key_len		= sizeof(lnet_nid_t),
	.automatic_shrinking	= true,
};

int lnet_nodes_init(void)
{
	INIT_LIST_HEAD(&lnet_core.nodes);
	lnet_core.nnodes = 0;
	return rhashtable_init(&lnet_core.node_nids, &lnet_node_nid_params);
}

void lnet_nodes_fini(void)
{
	WARN_ON(atomic_read(&lnet_core.node_nids.nelems));
	rhashtable_destroy(&lnet_core.node_nids);
}

static void lnet_node_release(struct kref *kref)
{
	struct lnet_peer_node *node =
		container_of(kref, struct lnet_peer_node, kref);

	WARN_ON(!list_empty(&node->parked));
	kfree(node->disc_buf);
	kfree_rcu(node, rcu);
}

void lnet_node_put(struct lnet_peer_node *node)
{
	kref_put(&node->kref, lnet_node_release);
}
LNET_EXPORT_FOR_TEST(lnet_node_put);

/* @nid's entry in the table, or NULL. Context: rcu_read_lock(). */
static struct lnet_node_nid *lnet_node_nid_lookup(lnet_nid_t nid)
{
	if (!atomic_read(&lnet_core.node_nids.nelems))
		return NULL;
	return rhashtable_lookup(&lnet_core.node_nids, &nid,
				 lnet_node_nid_params);
}

/**
 * lnet_node_find_rcu() - the node @nid belongs to
 * @nid: a peer NID
 *
 * Context: rcu_read_lock() or net_lock held (what keeps the node from
 * being freed); under RCU alone it may be unhashed meanwhile (test
 * LNET_NODE_UNHASHED under net_lock to be sure).
 *
 * Return: the node, or NULL.
 */
struct lnet_peer_node *lnet_node_find_rcu(lnet_nid_t nid)
{
	struct lnet_peer_node *node = NULL;
	struct lnet_node_nid *e;

	/* the table's own RCU section: net_lock holders have none */
	rcu_read_lock();
	e = lnet_node_nid_lookup(nid);
	if (e)
		node = READ_ONCE(e->node);
	rcu_read_unlock();
	return node;
}
LNET_EXPORT_FOR_TEST(lnet_node_find_rcu);

/* The node of @nid with a reference, or NULL. */
struct lnet_peer_node *lnet_node_get(lnet_nid_t nid)
{
	struct lnet_peer_node *node;

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(nid);
	if (node)
		kref_get(&node->kref);
	spin_unlock_bh(&lnet_core.net_lock);
	return node;
}

/**
 * lnet_peer_primary_nid() - the primary NID of the peer @nid belongs to
 * @nid: a peer NID
 *
 * Context: any.
 *
 * Return: the primary NID, or @nid itself for a NID of no known node.
 */
lnet_nid_t lnet_peer_primary_nid(lnet_nid_t nid)
{
	struct lnet_peer_node *node;

	rcu_read_lock();
	node = lnet_node_find_rcu(nid);
	if (node)
		nid = READ_ONCE(node->primary);
	rcu_read_unlock();
	return nid;
}
LNET_EXPORT_FOR_TEST(lnet_peer_primary_nid);

/* Whether @a and @b are NIDs of one Multi-Rail node. Context: any. */
bool lnet_peer_nids_same_node(lnet_nid_t a, lnet_nid_t b)
{
	struct lnet_peer_node *node;
	bool same;

	if (a == b)
		return true;
	rcu_read_lock();
	node = lnet_node_find_rcu(a);
	same = node && test_bit(LNET_NODE_MULTI_RAIL, &node->flags) &&
	       node == lnet_node_find_rcu(b);
	rcu_read_unlock();
	return same;
}

/* Whether the node of @nid has another NID a resend could use. */
bool lnet_peer_has_other_nid(lnet_nid_t nid)
{
	struct lnet_peer_node *node;
	bool other;

	rcu_read_lock();
	node = lnet_node_find_rcu(nid);
	other = node && test_bit(LNET_NODE_MULTI_RAIL, &node->flags) &&
		READ_ONCE(node->nnids) > 1;
	rcu_read_unlock();
	return other;
}

static int lnet_node_nid_index(const struct lnet_peer_node *node,
			       lnet_nid_t nid)
{
	unsigned int i;

	for (i = 0; i < node->nnids; i++)
		if (node->nids[i]->nid == nid)
			return i;
	return -1;
}

/*
 * Give @node the NID @nid, free in the table. GFP_ATOMIC: under net_lock.
 * -ENOSPC: @node has LNET_NODE_MAX_NIDS already.
 */
static int lnet_node_add_nid_locked(struct lnet_peer_node *node,
				    lnet_nid_t nid)
{
	struct lnet_node_nid *e;
	int rc;

	lockdep_assert_held(&lnet_core.net_lock);
	if (node->nnids == LNET_NODE_MAX_NIDS)
		return -ENOSPC;
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e)
		return -ENOMEM;
	e->nid = nid;
	e->node = node;
	rc = rhashtable_lookup_insert_fast(&lnet_core.node_nids, &e->hnode,
					   lnet_node_nid_params);
	if (rc) {
		kfree(e);
		return rc == -EEXIST ? -EEXIST : -ENOMEM;
	}
	node->nids[node->nnids] = e;
	WRITE_ONCE(node->nnids, node->nnids + 1);
	return 0;
}

static void lnet_node_del_nid_locked(struct lnet_peer_node *node,
				     unsigned int i)
{
	struct lnet_node_nid *e = node->nids[i];

	lockdep_assert_held(&lnet_core.net_lock);
	WARN_ON(rhashtable_remove_fast(&lnet_core.node_nids, &e->hnode,
				       lnet_node_nid_params));
	kfree_rcu(e, rcu);
	memmove(&node->nids[i], &node->nids[i + 1],
		(node->nnids - i - 1) * sizeof(node->nids[0]));
	WRITE_ONCE(node->nnids, node->nnids - 1);
}

/* Make @node's NID @i its primary (first). */
static void lnet_node_set_primary_locked(struct lnet_peer_node *node,
					 unsigned int i)
{
	struct lnet_node_nid *e = node->nids[i];

	lockdep_assert_held(&lnet_core.net_lock);
	memmove(&node->nids[1], &node->nids[0], i * sizeof(node->nids[0]));
	node->nids[0] = e;
	WRITE_ONCE(node->primary, e->nid);
}

/* Forget @node: its NIDs leave the table; the table's reference goes. */
static void lnet_node_unhash_locked(struct lnet_peer_node *node)
{
	lockdep_assert_held(&lnet_core.net_lock);
	while (node->nnids)
		lnet_node_del_nid_locked(node, node->nnids - 1);
	set_bit(LNET_NODE_UNHASHED, &node->flags);
	list_del_rcu(&node->list);
	lnet_core.nnodes--;
	lnet_node_put(node);
}

/*
 * A new node whose primary is @nid, hashed, with a reference for the
 * caller as well as the table's. ERR_PTR(-EEXIST) if another node has
 * @nid (the caller looked first).
 */
static struct lnet_peer_node *lnet_node_new_locked(lnet_nid_t nid,
						   unsigned long flags)
{
	struct lnet_peer_node *node;
	int rc;

	lockdep_assert_held(&lnet_core.net_lock);
	node = kzalloc(sizeof(*node), GFP_ATOMIC);
	if (!node)
		return ERR_PTR(-ENOMEM);
	kref_init(&node->kref);		/* the table's */
	INIT_LIST_HEAD(&node->parked);
	INIT_WORK(&node->disc_work, lnet_discovery_work);
	LNetInvalidateMDHandle(&node->disc_mdh);
	node->flags = flags;
	node->primary = nid;
	rc = lnet_node_add_nid_locked(node, nid);
	if (rc) {
		kfree(node);
		return ERR_PTR(rc);
	}
	list_add_tail_rcu(&node->list, &lnet_core.nodes);
	lnet_core.nnodes++;
	kref_get(&node->kref);
	return node;
}

/*
 * The node of @nid, made (not Multi-Rail, to be discovered) if there is
 * none; a reference for the caller. Context: any (GFP_ATOMIC).
 */
struct lnet_peer_node *lnet_node_get_or_new(lnet_nid_t nid)
{
	struct lnet_peer_node *node;

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(nid);
	if (node)
		kref_get(&node->kref);
	else
		node = lnet_node_new_locked(nid, 0);
	spin_unlock_bh(&lnet_core.net_lock);
	return IS_ERR(node) ? NULL : node;
}
LNET_EXPORT_FOR_TEST(lnet_node_get_or_new);

/*
 * @nid moves from its node @from to @to; @from, left without NIDs, is
 * forgotten and its parked messages wait for @to's discovery instead.
 */
static int lnet_node_steal_nid_locked(struct lnet_peer_node *to,
				      struct lnet_peer_node *from,
				      lnet_nid_t nid)
{
	int i = lnet_node_nid_index(from, nid);

	lockdep_assert_held(&lnet_core.net_lock);
	if (to->nnids == LNET_NODE_MAX_NIDS || i < 0)
		return -ENOSPC;
	lnet_node_del_nid_locked(from, i);
	if (!from->nnids) {
		list_splice_tail_init(&from->parked, &to->parked);
		lnet_node_unhash_locked(from);
	} else if (!i) {
		lnet_node_set_primary_locked(from, 0);
	}
	return lnet_node_add_nid_locked(to, nid);
}

/**
 * lnet_node_merge_nids_locked() - what a peer's ping info says its NIDs are
 * @node: the peer's node
 * @nids: its NIDs, primary first (0@lo and our own NIDs left out)
 * @n: how many
 * @replace: drop @node's NIDs that are not in @nids
 *
 * NIDs of other nodes come over (a node left without NIDs is merged into
 * @node). The primary changes to @nids[0] unless @node's is locked.
 */
void lnet_node_merge_nids_locked(struct lnet_peer_node *node,
				 const lnet_nid_t *nids, unsigned int n,
				 bool replace)
{
	struct lnet_peer_node *owner;
	unsigned int i, j;
	int idx;

	lockdep_assert_held(&lnet_core.net_lock);
	if (test_bit(LNET_NODE_UNHASHED, &node->flags))
		return;
	for (i = 0; i < n; i++) {
		owner = lnet_node_find_rcu(nids[i]);
		if (owner == node)
			continue;
		if (owner && test_bit(LNET_NODE_CONFIGURED, &owner->flags))
			continue;	/* an admin said where it belongs */
		if (owner)
			lnet_node_steal_nid_locked(node, owner, nids[i]);
		else
			lnet_node_add_nid_locked(node, nids[i]);
	}
	if (replace) {
		for (j = node->nnids; j-- > 0;) {
			for (i = 0; i < n; i++)
				if (node->nids[j]->nid == nids[i])
					break;
			if (i == n && node->nnids > 1 &&
			    !(j == 0 &&
			      test_bit(LNET_NODE_LOCK_PRIM, &node->flags)))
				lnet_node_del_nid_locked(node, j);
		}
		/* the NID we knew it by went: its first NID stands in */
		if (node->nids[0]->nid != node->primary)
			lnet_node_set_primary_locked(node, 0);
	}
	if (n && !test_bit(LNET_NODE_LOCK_PRIM, &node->flags)) {
		idx = lnet_node_nid_index(node, nids[0]);
		if (idx > 0)
			lnet_node_set_primary_locked(node, idx);
	}
}
LNET_EXPORT_FOR_TEST(lnet_node_merge_nids_locked);

/* The node keeps only @nid (it turned out not to be Multi-Rail). */
void lnet_node_keep_one_nid_locked(struct lnet_peer_node *node,
				   lnet_nid_t nid)
{
	int idx, j;

	lockdep_assert_held(&lnet_core.net_lock);
	idx = lnet_node_nid_index(node, nid);
	if (idx < 0)
		return;
	for (j = node->nnids - 1; j >= 0; j--)
		if (j != idx)
			lnet_node_del_nid_locked(node, j);
	lnet_node_set_primary_locked(node, 0);
}

/**
 * lnet_node_set_down_locked() - what @node's ping info or push says of @nid
 * @node: the node
 * @nid: one of its NIDs (others are ignored)
 * @down: its status word there was DOWN
 */
void lnet_node_set_down_locked(struct lnet_peer_node *node, lnet_nid_t nid,
			       bool down)
{
	char str[LNET_NIDSTR_SIZE];
	int i;

	lockdep_assert_held(&lnet_core.net_lock);
	i = lnet_node_nid_index(node, nid);
	if (i < 0 || node->nids[i]->down == down)
		return;
	WRITE_ONCE(node->nids[i]->down, down);
	pr_debug("%s says it is %s\n", lnet_nid2str(nid, str, sizeof(str)),
		 down ? "DOWN" : "UP");
}

/* Whether the node of @nid said in its ping info that @nid is DOWN. */
bool lnet_node_nid_down(lnet_nid_t nid)
{
	struct lnet_node_nid *e;
	bool down = false;

	rcu_read_lock();
	e = lnet_node_nid_lookup(nid);
	if (e)
		down = READ_ONCE(e->down);
	rcu_read_unlock();
	return down;
}
LNET_EXPORT_FOR_TEST(lnet_node_nid_down);

/*
 * A message came from @nid: whatever its ping info said, it is up now.
 * Context: any; takes net_lock only when there is something to clear.
 */
void lnet_node_nid_heard(lnet_nid_t nid)
{
	struct lnet_peer_node *node;

	if (!lnet_node_nid_down(nid))
		return;
	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(nid);
	if (node)
		lnet_node_set_down_locked(node, nid, false);
	spin_unlock_bh(&lnet_core.net_lock);
}

/* ---- configuration (peer add / del, LNetAddPeer) ------------------------- */

/*
 * peer add --prim_nid @prim: make the node, or mark an existing one
 * (whose primary @prim must be) configured.
 */
static int lnet_node_configure_primary(lnet_nid_t prim, u32 flags)
{
	struct lnet_peer_node *node;
	unsigned long nflags = BIT(LNET_NODE_CONFIGURED);
	int rc = 0;

	if (flags & LNET_IOCTL_PEER_CFG_NON_MR)
		nflags |= BIT(LNET_NODE_NO_DISCOVERY);
	else
		nflags |= BIT(LNET_NODE_MULTI_RAIL);
	if (flags & LNET_IOCTL_PEER_CFG_LOCK_PRIM)
		nflags |= BIT(LNET_NODE_LOCK_PRIM);

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(prim);
	if (!node) {
		node = lnet_node_new_locked(prim, nflags);
		if (IS_ERR(node))
			rc = PTR_ERR(node);
		else
			lnet_node_put(node);
	} else if (node->primary != prim) {
		rc = -EINVAL;		/* another peer's NID */
	} else if (test_bit(LNET_NODE_CONFIGURED, &node->flags)) {
		rc = -EEXIST;
	} else {
		/* what discovery learned gives way to the admin's word */
		if (nflags & BIT(LNET_NODE_NO_DISCOVERY)) {
			lnet_node_keep_one_nid_locked(node, prim);
			clear_bit(LNET_NODE_MULTI_RAIL, &node->flags);
		}
		node->flags |= nflags;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}

/* peer add --prim_nid @prim --nid @nid: @nid joins @prim's node. */
static int lnet_node_configure_nid(lnet_nid_t prim, lnet_nid_t nid)
{
	struct lnet_peer_node *node, *owner;
	int rc;

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(prim);
	owner = lnet_node_find_rcu(nid);
	if (!node || node->primary != prim ||
	    !test_bit(LNET_NODE_CONFIGURED, &node->flags))
		rc = -ENOENT;
	else if (!test_bit(LNET_NODE_MULTI_RAIL, &node->flags))
		rc = -EINVAL;		/* --non_mr: one NID */
	else if (owner == node)
		rc = -EEXIST;
	else if (owner && test_bit(LNET_NODE_CONFIGURED, &owner->flags))
		rc = -EINVAL;		/* an admin put it elsewhere */
	else if (owner)
		rc = lnet_node_steal_nid_locked(node, owner, nid);
	else
		rc = lnet_node_add_nid_locked(node, nid);
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}

/**
 * lnet_node_configure() - ADD_PEER_NI: see struct lnet_ioctl_peer_cfg
 * @prim: the peer's primary NID
 * @nid: LNET_NID_ANY or @prim for the peer itself, else a NID to add
 * @flags: LNET_IOCTL_PEER_CFG_*
 *
 * A primary on a local network also gets its per-NID peer configured (not
 * freed when idle), as before Multi-Rail. One behind routers has no
 * per-NID state here (its gateway has): only its node is made, if a route
 * leads to its network; with none it is refused with -EHOSTUNREACH.
 *
 * Return: 0 or -errno.
 */
int lnet_node_configure(lnet_nid_t prim, lnet_nid_t nid, u32 flags)
{
	bool routed;
	int rc;

	if (lnet_nid_is_local(prim) ||
	    (nid != LNET_NID_ANY && lnet_nid_is_local(nid)))
		return -EINVAL;
	if (nid != LNET_NID_ANY && nid != prim)
		return lnet_node_configure_nid(prim, nid);

	rc = lnet_peer_configure(prim);
	routed = rc == -EHOSTUNREACH;
	if (routed) {
		rcu_read_lock();
		if (lnet_route_hops_rcu(LNET_NIDNET(prim)))
			rc = 0;
		rcu_read_unlock();
	}
	if (rc)
		return rc;
	rc = lnet_node_configure_primary(prim, flags);
	if (rc && !routed)
		lnet_peer_unconfigure(prim);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_node_configure);

/* Unhash the per-NID peers of @node's NIDs; -EBUSY if one has queues. */
static int lnet_node_peers_del_locked(struct lnet_peer_node *node,
				      bool check_only)
{
	struct lnet_peer *peer;
	unsigned int i;

	lockdep_assert_held(&lnet_core.net_lock);
	for (i = 0; i < node->nnids; i++) {
		peer = lnet_peer_find_locked(node->nids[i]->nid);
		if (!peer)
			continue;
		if (check_only && (!list_empty(&peer->tx_queue) ||
				   !list_empty(&peer->rtr_queue)))
			return -EBUSY;
		if (!check_only)
			lnet_peer_unhash_locked(peer);
	}
	return 0;
}

/**
 * lnet_node_del() - DEL_PEER_NI: see struct lnet_ioctl_peer_cfg
 * @prim: the peer's primary NID
 * @nid: LNET_NID_ANY or @prim for the whole peer, else one NID of it
 * @flags: LNET_IOCTL_PEER_CFG_FORCE to delete a locked primary
 *
 * Return: 0, -ENOENT, -EPERM or -EBUSY.
 */
int lnet_node_del(lnet_nid_t prim, lnet_nid_t nid, u32 flags)
{
	struct lnet_peer_node *node;
	struct lnet_peer *peer;
	int rc = 0, i;

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(prim);
	if (!node) {
		spin_unlock_bh(&lnet_core.net_lock);
		/* a peer of one NID that was never discovered */
		return nid == LNET_NID_ANY || nid == prim ?
		       lnet_peer_del(prim) : -ENOENT;
	}
	if (node->primary != prim) {
		rc = -ENOENT;
	} else if (nid != LNET_NID_ANY && nid != prim) {
		i = lnet_node_nid_index(node, nid);
		if (i < 0) {
			rc = -ENOENT;
		} else {
			peer = lnet_peer_find_locked(nid);
			if (peer && (!list_empty(&peer->tx_queue) ||
				     !list_empty(&peer->rtr_queue))) {
				rc = -EBUSY;
			} else {
				if (peer)
					lnet_peer_unhash_locked(peer);
				lnet_node_del_nid_locked(node, i);
			}
		}
	} else if (test_bit(LNET_NODE_LOCK_PRIM, &node->flags) &&
		   !(flags & LNET_IOCTL_PEER_CFG_FORCE)) {
		rc = -EPERM;
	} else if (!list_empty(&node->parked) ||
		   node->disc_step != LNET_DISC_IDLE) {
		rc = -EBUSY;
	} else {
		rc = lnet_node_peers_del_locked(node, true);
		if (!rc) {
			lnet_node_peers_del_locked(node, false);
			lnet_node_unhash_locked(node);
		}
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_node_del);

/**
 * lnet_nodes_clear() - shutdown: forget every node
 *
 * Context: LNet stopping, discovery stopped (nothing parked, no ping or
 * push out).
 */
void lnet_nodes_clear(void)
{
	struct lnet_peer_node *node, *tmp;

	spin_lock_bh(&lnet_core.net_lock);
	list_for_each_entry_safe(node, tmp, &lnet_core.nodes, list)
		lnet_node_unhash_locked(node);
	spin_unlock_bh(&lnet_core.net_lock);
}

/**
 * lnet_node_nid_at() - the @index-th NID over all nodes (GET_PEER_NI)
 * @index: counts nodes' NIDs, node after node, primary first
 * @primary: set to the NID's node's primary
 * @flags: set to LNET_IOCTL_PEER_* of its node
 *
 * Context: takes net_lock.
 *
 * Return: the NID, or LNET_NID_ANY with @index reduced by the NIDs there
 * are (the caller goes on with the peers that belong to no node).
 */
lnet_nid_t lnet_node_nid_at(u32 *index, lnet_nid_t *primary, u32 *flags)
{
	struct lnet_peer_node *node;
	lnet_nid_t nid = LNET_NID_ANY;

	spin_lock_bh(&lnet_core.net_lock);
	list_for_each_entry(node, &lnet_core.nodes, list) {
		if (*index >= node->nnids) {
			*index -= node->nnids;
			continue;
		}
		nid = node->nids[*index]->nid;
		*primary = node->primary;
		*flags = lnet_node_ioctl_flags(node);
		break;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return nid;
}

u32 lnet_node_ioctl_flags(const struct lnet_peer_node *node)
{
	u32 f = 0;

	if (test_bit(LNET_NODE_MULTI_RAIL, &node->flags))
		f |= LNET_IOCTL_PEER_MULTI_RAIL;
	if (test_bit(LNET_NODE_CONFIGURED, &node->flags))
		f |= LNET_IOCTL_PEER_CONFIGURED;
	if (test_bit(LNET_NODE_LOCK_PRIM, &node->flags))
		f |= LNET_IOCTL_PEER_LOCK_PRIM;
	if (test_bit(LNET_NODE_DISCOVERED, &node->flags))
		f |= LNET_IOCTL_PEER_DISCOVERED;
	if (test_bit(LNET_NODE_NO_DISCOVERY, &node->flags))
		f |= LNET_IOCTL_PEER_NO_DISCOVERY;
	return f;
}

/*
 * The NIDs of @nid's node (primary first) into @nids (room for @max), its
 * flags into @flags. Return: how many, or -ENOENT.
 */
int lnet_node_nids(lnet_nid_t nid, lnet_nid_t *nids, unsigned int max,
		   u32 *flags)
{
	struct lnet_peer_node *node;
	unsigned int i;
	int n = -ENOENT;

	spin_lock_bh(&lnet_core.net_lock);
	node = lnet_node_find_rcu(nid);
	if (node) {
		n = min(node->nnids, max);
		for (i = 0; i < n; i++)
			nids[i] = node->nids[i]->nid;
		*flags = lnet_node_ioctl_flags(node);
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return n;
}
LNET_EXPORT_FOR_TEST(lnet_node_nids);

/* ---- the kernel API ------------------------------------------------------ */

/**
 * LNetPrimaryNID() - the primary NID of the peer that owns @nid
 * @nid: any NID of a peer
 *
 * What MEs should match and events name as the initiator of a message
 * from that peer. Does not wait for discovery: a peer not discovered yet
 * is its own primary until it is.
 *
 * Return: the primary NID, or @nid.
 */
lnet_nid_t LNetPrimaryNID(lnet_nid_t nid)
{
	return lnet_peer_primary_nid(nid);
}
EXPORT_SYMBOL_GPL(LNetPrimaryNID);

/**
 * LNetAddPeer() - configure a Multi-Rail peer with the NIDs an upper layer
 *	knows for it (a server's NIDs from its configuration)
 * @nids: the NIDs, the first one the primary (locked: discovery keeps it)
 * @n: how many
 *
 * Return: 0, or the -errno of the first NID that failed (an existing
 * peer or NID is no failure).
 */
int LNetAddPeer(const lnet_nid_t *nids, unsigned int n)
{
	unsigned int i;
	int rc;

	if (!n || !nids)
		return -EINVAL;
	rc = lnet_node_configure(nids[0], LNET_NID_ANY,
				 LNET_IOCTL_PEER_CFG_LOCK_PRIM);
	if (rc && rc != -EEXIST)
		return rc;
	for (i = 1; i < n; i++) {
		rc = lnet_node_configure(nids[0], nids[i], 0);
		if (rc && rc != -EEXIST)
			return rc;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(LNetAddPeer);

/**
 * LNetIsPeerLocal() - whether @nid is one of this node's own NIDs
 * @nid: a NID
 */
bool LNetIsPeerLocal(lnet_nid_t nid)
{
	return lnet_nid_is_local(nid);
}
EXPORT_SYMBOL_GPL(LNetIsPeerLocal);
