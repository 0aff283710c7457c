// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-Rail selection: which of our NIs and which of a Multi-Rail peer's
 * NIDs carry a message that names no source NID
 * (Documentation/wire/routing-health-multirail.md, "Choosing the local NI",
 * "Choosing the destination peer NI"), and which of our NIs on one network
 * carries a message to a single NID ("Non-MR peers": the peer keeps the NI
 * first chosen for it).
 *
 * The network first, among those both sides have: the best health of the
 * peer's NIDs there, then the best health of our NIs there, then round
 * robin. On that network our NI: up with its link, health, NUMA distance
 * from the MD's memory to the NI's device (distances up to numa_range count
 * as one), free send credits, least recently chosen. Then the peer's NID
 * there: health, free credits, least recently chosen. No UDSP rules: this
 * LNet has none. A node with no NID on a network of ours is reached
 * through routers: one of its networks that a route leads to, then one of
 * its NIDs there, take turns; the gateway is routes.c's choice. A
 * router's final hop to a Multi-Rail node whose addressed NI is DOWN
 * chooses the same way among the node's NIDs not said DOWN (router.c).
 *
 * Reads credits and health without their locks but under net_lock for the
 * peers: a choice made on a value a moment old is as good as any.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/topology.h>
#include <linux/lnet/lib-lnet.h>

struct lnet_sel_net {
	u32	net;
	int	peer_health;	/* best of the peer's NIDs on @net */
	int	local_health;	/* best of our NIs on @net; -1: none up */
};

static bool lnet_ni_usable(const struct lnet_ni *ni)
{
	return READ_ONCE(ni->state) == LNET_NI_STATE_UP &&
	       !test_bit(LNET_NI_LINK_DOWN, &ni->health_flags);
}

/* A peer NID's health and free credits; a NID no message used yet is new. */
static void lnet_sel_peer_state(lnet_nid_t nid, int *health, int *credits,
				u64 *seq)
{
	struct lnet_peer *peer = lnet_peer_find_locked(nid);

	*health = peer ? peer->healthv : LNET_MAX_HEALTH;
	*credits = peer ? peer->tx_credits : INT_MAX;
	*seq = peer ? peer->sel_seq : 0;
}

static int lnet_sel_local_health(u32 net)
{
	struct lnet_ni *ni;
	int best = -1;

	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		if (LNET_NIDNET(ni->nid) == net && lnet_ni_usable(ni))
			best = max(best, atomic_read(&ni->healthv));
	return best;
}

/*
 * How far @ni's device is from memory on @md_node; distances up to
 * numa_range count as equal. An unknown node at either end (no MD, a
 * device without one) counts as near: no NI is passed over for want of
 * knowing.
 */
static int lnet_sel_distance(const struct lnet_ni *ni, int md_node)
{
	int range = lnet_tunable(&lnet_numa_range);
	int d = LOCAL_DISTANCE;

	if (md_node != NUMA_NO_NODE && ni->dev_node != NUMA_NO_NODE)
		d = node_distance(md_node, ni->dev_node);
	return max(d, range);
}

/*
 * Our best NI on @net: usable, healthiest, nearest @md_node, most credits,
 * least used.
 */
static struct lnet_ni *lnet_sel_ni(u32 net, int md_node)
{
	struct lnet_ni *ni, *best = NULL;
	int h, d, bh = -1, bd = 0;

	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (LNET_NIDNET(ni->nid) != net || !lnet_ni_usable(ni))
			continue;
		h = atomic_read(&ni->healthv);
		d = lnet_sel_distance(ni, md_node);
		if (!best || h > bh ||
		    (h == bh && (d < bd ||
				 (d == bd &&
				  (ni->tx_credits > best->tx_credits ||
				   (ni->tx_credits == best->tx_credits &&
				    ni->sel_seq < best->sel_seq)))))) {
			best = ni;
			bh = h;
			bd = d;
		}
	}
	return best;
}

/**
 * lnet_select_ni_rcu() - our NI for a message to one NID of a network we
 *	are on
 * @nid: the peer NID; the message goes to it, whatever NI carries it
 * @md_node: NUMA node of the message's memory, or NUMA_NO_NODE
 * @keep: the peer is not Multi-Rail: the NI it already has (its struct
 *	lnet_peer's, made by the first message sent or answered to it), as
 *	long as that NI is usable. A Multi-Rail peer with one NID has the
 *	best NI for each message.
 *
 * On a network where we have one NI, that NI, with no lock taken. With
 * several, the best of them (lnet_sel_ni()), which the peer then keeps if
 * @keep; with none usable, the peer's own or the first, where the message
 * waits for the link as it would on a network of one NI.
 *
 * Context: rcu_read_lock() (the NI list); may take net_lock.
 *
 * Return: our NI (no reference taken), or NULL if none is on @nid's
 * network.
 */
struct lnet_ni *lnet_select_ni_rcu(lnet_nid_t nid, int md_node, bool keep)
{
	struct lnet_ni *ni, *first = NULL, *best;
	u32 net = LNET_NIDNET(nid);
	struct lnet_peer *peer;
	unsigned int n = 0;

	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		if (LNET_NIDNET(ni->nid) == net && ni != lnet_core.lo_ni &&
		    !n++)
			first = ni;
	if (n < 2)
		return first;

	spin_lock_bh(&lnet_core.net_lock);
	peer = keep ? lnet_peer_find_locked(nid) : NULL;
	/* a hashed peer's NI is on the NI list: lnet_peers_del_ni() */
	if (peer && LNET_NIDNET(peer->ni->nid) == net &&
	    lnet_ni_usable(peer->ni)) {
		best = peer->ni;
	} else {
		best = lnet_sel_ni(net, md_node);
		if (best)
			best->sel_seq = ++lnet_core.sel_seq;
		else
			best = peer ? peer->ni : first;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return best;
}

/* The peer's best NID on @net (not one it said is DOWN, if @up_only). */
static lnet_nid_t lnet_sel_peer_nid(const struct lnet_peer_node *node,
				    u32 net, bool up_only)
{
	lnet_nid_t best = LNET_NID_ANY;
	int h, c, bh = -1, bc = 0;
	unsigned int i;
	u64 s, bs = 0;

	for (i = 0; i < node->nnids; i++) {
		lnet_nid_t nid = node->nids[i]->nid;

		if (LNET_NIDNET(nid) != net ||
		    (up_only && READ_ONCE(node->nids[i]->down)))
			continue;
		lnet_sel_peer_state(nid, &h, &c, &s);
		if (best == LNET_NID_ANY || h > bh ||
		    (h == bh && (c > bc || (c == bc && s < bs)))) {
			best = nid;
			bh = h;
			bc = c;
			bs = s;
		}
	}
	return best;
}

/*
 * @node's networks, each with the best health of its NIDs there and ours:
 * for a direct send the best of our NIs there, for a routed one 0 if an
 * alive route leads there (-1: not usable either way). With @up_only, the
 * NIDs its ping info said are DOWN do not count.
 */
static unsigned int lnet_sel_node_nets(const struct lnet_peer_node *node,
				       struct lnet_sel_net *nets, bool routed,
				       bool up_only)
{
	unsigned int i, j, nnets = 0;
	int h, c;
	u64 s;

	lockdep_assert_held(&lnet_core.net_lock);
	for (i = 0; i < node->nnids; i++) {
		u32 net = LNET_NIDNET(node->nids[i]->nid);

		if (up_only && READ_ONCE(node->nids[i]->down))
			continue;
		lnet_sel_peer_state(node->nids[i]->nid, &h, &c, &s);
		for (j = 0; j < nnets; j++)
			if (nets[j].net == net)
				break;
		if (j < nnets) {
			nets[j].peer_health = max(nets[j].peer_health, h);
			continue;
		}
		nets[nnets].net = net;
		nets[nnets].peer_health = h;
		if (routed)
			nets[nnets].local_health =
				lnet_route_reachable_rcu(net) ? 0 : -1;
		else
			nets[nnets].local_health = lnet_sel_local_health(net);
		nnets++;
	}
	return nnets;
}

static bool lnet_sel_net_ties(const struct lnet_sel_net *a,
			      const struct lnet_sel_net *b)
{
	return a->peer_health == b->peer_health &&
	       a->local_health == b->local_health;
}

/*
 * The usable network of the best (peer health, our health), the equally
 * good ones taking turns; *@turn is what is left of the node's turn for a
 * choice among them (its NIDs there). NULL if none is usable.
 */
static const struct lnet_sel_net *
lnet_sel_pick_net(struct lnet_peer_node *node, const struct lnet_sel_net *nets,
		  unsigned int nnets, unsigned int *turn)
{
	const struct lnet_sel_net *best = NULL;
	unsigned int i, nties = 0, pick;

	for (i = 0; i < nnets; i++) {
		if (nets[i].local_health < 0)
			continue;
		if (!best || nets[i].peer_health > best->peer_health ||
		    (nets[i].peer_health == best->peer_health &&
		     nets[i].local_health > best->local_health)) {
			best = &nets[i];
			nties = 1;
		} else if (lnet_sel_net_ties(&nets[i], best)) {
			nties++;
		}
	}
	if (!best)
		return NULL;
	pick = node->rr++;
	*turn = pick / nties;
	pick %= nties;
	for (i = 0; i < nnets; i++)
		if (nets[i].local_health >= 0 &&
		    lnet_sel_net_ties(&nets[i], best) && !pick--)
			break;
	return &nets[i];
}

static struct lnet_ni *lnet_sel_pair_locked(struct lnet_peer_node *node,
					    int md_node, lnet_nid_t *nid,
					    bool up_only)
{
	struct lnet_sel_net nets[LNET_NODE_MAX_NIDS];
	const struct lnet_sel_net *net;
	struct lnet_ni *ni = NULL;
	unsigned int turn;

	lockdep_assert_held(&lnet_core.net_lock);
	net = lnet_sel_pick_net(node, nets,
				lnet_sel_node_nets(node, nets, false, up_only),
				&turn);
	if (net) {
		ni = lnet_sel_ni(net->net, md_node);
		*nid = lnet_sel_peer_nid(node, net->net, up_only);
		if (ni) {
			struct lnet_peer *peer = lnet_peer_find_locked(*nid);

			ni->sel_seq = ++lnet_core.sel_seq;
			if (peer)
				peer->sel_seq = lnet_core.sel_seq;
		}
	}
	return ni;
}

static struct lnet_ni *lnet_sel_pair(struct lnet_peer_node *node,
				     int md_node, lnet_nid_t *nid,
				     bool up_only)
{
	struct lnet_ni *ni;

	spin_lock_bh(&lnet_core.net_lock);
	ni = lnet_sel_pair_locked(node, md_node, nid, up_only);
	spin_unlock_bh(&lnet_core.net_lock);
	return ni;
}

/**
 * lnet_select_pair_rcu() - choose our NI and @node's NID for a message
 * @node: a Multi-Rail peer node
 * @md_node: NUMA node of the message's memory, or NUMA_NO_NODE
 * @nid: set to the peer NID chosen
 *
 * Context: rcu_read_lock() (the NI list); takes net_lock.
 *
 * Return: our NI (no reference taken), or NULL if the peer has no NID on
 * a network where we have a usable NI.
 */
struct lnet_ni *lnet_select_pair_rcu(struct lnet_peer_node *node,
				     int md_node, lnet_nid_t *nid)
{
	return lnet_sel_pair(node, md_node, nid, false);
}

/**
 * lnet_select_up_pair_rcu() - the same among the NIDs of @node that its
 *	ping info did not say are DOWN: a router's final hop to a node whose
 *	addressed NI is down (router.c)
 * @node: a Multi-Rail peer node
 * @nid: set to the peer NID chosen
 *
 * The message's memory is a router buffer: no NUMA preference.
 *
 * Context: rcu_read_lock() (the NI list); takes net_lock.
 *
 * Return: our NI (no reference taken), or NULL if none of the node's NIDs
 * said UP is on a network where we have a usable NI.
 */
struct lnet_ni *lnet_select_up_pair_rcu(struct lnet_peer_node *node,
					lnet_nid_t *nid)
{
	return lnet_sel_pair(node, NUMA_NO_NODE, nid, true);
}

/*
 * The NID of a Multi-Rail node to route a message to, when none of its
 * NIDs is on a network of ours, or LNET_NID_ANY if no route leads to any
 * of its networks.
 *
 * Among the node's networks that an alive route leads to: the best health
 * of its NIDs there, then round robin; on that network, round robin among
 * its healthiest NIDs (they have no per-NID state here to tell them apart:
 * their gateway has). The gateway is chosen afterwards, for the NID's
 * network (lnet_route_select_rcu()), so traffic to a node behind routers
 * spreads over its networks and over the routes to each.
 */
static lnet_nid_t lnet_sel_routed_nid_locked(struct lnet_peer_node *node)
{
	struct lnet_sel_net nets[LNET_NODE_MAX_NIDS];
	const struct lnet_sel_net *net;
	lnet_nid_t nid = LNET_NID_ANY;
	unsigned int i, j, nties = 0, turn;
	int h, c, best = -1;
	u64 s;

	lockdep_assert_held(&lnet_core.net_lock);
	net = lnet_sel_pick_net(node, nets,
				lnet_sel_node_nets(node, nets, true, false),
				&turn);
	if (!net)
		return LNET_NID_ANY;
	for (i = 0; i < node->nnids; i++) {
		if (LNET_NIDNET(node->nids[i]->nid) != net->net)
			continue;
		lnet_sel_peer_state(node->nids[i]->nid, &h, &c, &s);
		if (h > best) {
			best = h;
			nties = 0;
		}
		nties += h == best;
	}
	for (i = 0, j = turn % nties; i < node->nnids; i++) {
		if (LNET_NIDNET(node->nids[i]->nid) != net->net)
			continue;
		lnet_sel_peer_state(node->nids[i]->nid, &h, &c, &s);
		if (h == best && !j--) {
			nid = node->nids[i]->nid;
			break;
		}
	}
	return nid;
}

/**
 * lnet_select_mr_rcu() - choose how a message goes to a Multi-Rail node
 * @node: a Multi-Rail peer node
 * @md_node: NUMA node of the message's memory, or NUMA_NO_NODE
 * @nid: set to the peer NID chosen, or LNET_NID_ANY
 *
 * The pair of lnet_select_pair_rcu() if one of the node's networks is
 * ours; else, under the same lock, the NID of the node to route to.
 *
 * Context: rcu_read_lock() (the NI list, the route table); takes
 * net_lock.
 *
 * Return: our NI (no reference taken), or NULL: then *@nid is the NID to
 * route to, or LNET_NID_ANY if no route leads to the node.
 */
struct lnet_ni *lnet_select_mr_rcu(struct lnet_peer_node *node, int md_node,
				   lnet_nid_t *nid)
{
	struct lnet_ni *ni;

	spin_lock_bh(&lnet_core.net_lock);
	ni = lnet_sel_pair_locked(node, md_node, nid, false);
	if (!ni)
		*nid = lnet_sel_routed_nid_locked(node);
	spin_unlock_bh(&lnet_core.net_lock);
	return ni;
}
