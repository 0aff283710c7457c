// SPDX-License-Identifier: GPL-2.0
/*
 * The route table and the router checker (Documentation/routing.md).
 *
 * A route says "network N is reached through gateway G". Routes to one
 * network hang off a struct lnet_rnet, hashed by network; the send path
 * reads them under RCU (lnet_route_select_rcu()). Each gateway NID is a
 * struct lnet_gateway shared by its routes; the checker pings it every
 * alive_router_check_interval seconds and judges each of its routes from
 * the answer: alive while the gateway answers, does not say its routing
 * is disabled, has an NI up on the route's local network and, when the
 * route is a single hop and avoid_asym_router_failure is set, one up on
 * the remote network too.
 *
 * Configuration (add, delete, list, clear) holds lnet_core.api_mutex and
 * publishes with the _rcu list helpers; a route or gateway is freed after
 * a grace period. The checker's work items and ping events only read the
 * lists (RCU) and write the routes' and gateways' state words.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <linux/lnet/config.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

#define LNET_ROUTES_MAX		4096	/* a bound on the table's memory */
#define LNET_ROUTE_HOPS_MAX	255
#define LNET_RNET_HASH_BITS	6
/* NIDs of a gateway's ping info we look at; a router has a handful */
#define LNET_GW_PING_NIDS	64

int lnet_alive_router_check_interval = 60;
LNET_EXPORT_FOR_TEST(lnet_alive_router_check_interval);
module_param_named(alive_router_check_interval,
		   lnet_alive_router_check_interval, int, 0644);
MODULE_PARM_DESC(alive_router_check_interval,
		 "seconds between pings of each gateway (<= 0: never ping; routes keep their state)");

int lnet_check_routers_before_use;
LNET_EXPORT_FOR_TEST(lnet_check_routers_before_use);
module_param_named(check_routers_before_use, lnet_check_routers_before_use,
		   int, 0444);
MODULE_PARM_DESC(check_routers_before_use,
		 "1: a new route is down until its gateway has answered a ping, and LNet's bring-up waits for the first ping of each gateway of routes=");

static int lnet_avoid_asym_router_failure = 1;
module_param_named(avoid_asym_router_failure, lnet_avoid_asym_router_failure,
		   int, 0644);
MODULE_PARM_DESC(avoid_asym_router_failure,
		 "1: a single-hop route is down while its gateway's NI on the remote network is down");

struct lnet_gateway {
	struct list_head	list;		/* lnet_gateways; api_mutex */
	struct hlist_node	hash;		/* lnet_gw_hash (RCU) */
	struct list_head	routes;		/* its routes; RCU readers */
	struct kref		kref;		/* routes' list + a ping out */
	struct rcu_head		rcu;
	lnet_nid_t		nid;
	struct delayed_work	check;
	/* the checker's verdicts (WRITE_ONCE; read anywhere) */
	bool			alive;
	bool			rte_disabled;	/* it says it does not route */
	bool			checked;	/* a ping of it has ended */
	atomic_t		pinging;	/* a ping is out */
	struct lnet_handle_md	ping_mdh;	/* its MD; the check work's */
	unsigned long		last_check;	/* jiffies of the last answer */
};

struct lnet_route {
	struct list_head	list;		/* rnet->routes (RCU) */
	struct list_head	gw_link;	/* gw->routes (RCU) */
	struct list_head	all;		/* lnet_route_list; api_mutex */
	struct rcu_head		rcu;
	struct lnet_gateway	*gw;
	u32			net;		/* remote network */
	s32			hops;		/* -1: unspecified */
	u32			priority;	/* lower wins */
	u32			sensitivity;
	bool			alive;		/* WRITE_ONCE */
	bool			single_hop;	/* gw lists a NID on @net */
	u64			seq;		/* round robin; racy is fine */
};

struct lnet_rnet {
	struct hlist_node	hash;		/* lnet_rnets (RCU) */
	struct rcu_head		rcu;
	u32			net;
	struct list_head	routes;		/* struct lnet_route (RCU) */
};

static DEFINE_READ_MOSTLY_HASHTABLE(lnet_rnets, LNET_RNET_HASH_BITS);
static DEFINE_READ_MOSTLY_HASHTABLE(lnet_gw_hash, LNET_RNET_HASH_BITS);
static LIST_HEAD(lnet_route_list);	/* api_mutex; in the order added */
static LIST_HEAD(lnet_gateways);	/* api_mutex */
static unsigned int lnet_nroutes;	/* api_mutex */
static struct lnet_handle_eq lnet_gw_eqh;
static atomic_t lnet_gw_pings_out = ATOMIC_INIT(0);

/* A checker ping in flight: the UNLINK event frees it. */
struct lnet_gw_ping {
	struct lnet_gateway	*gw;		/* reference held */
	struct lnet_handle_md	mdh;
	bool			replied;
	unsigned int		mlength;
	u8			info[] __aligned(8);
};

/**
 * lnet_route_check() - validate a route before it is stored
 * @net: the remote network
 * @gateway: the gateway's NID
 * @hops: 1..255, or -1 for "unspecified"
 *
 * Pure: does not look at the NIs.
 *
 * Return: 0 or -EINVAL.
 */
int lnet_route_check(u32 net, lnet_nid_t gateway, s32 hops)
{
	if (net == LNET_NET_ANY || LNET_NETTYP(net) == LNET_LND_LO)
		return -EINVAL;
	if (gateway == LNET_NID_ANY ||
	    LNET_NETTYP(LNET_NIDNET(gateway)) == LNET_LND_LO ||
	    LNET_NIDNET(gateway) == net)
		return -EINVAL;
	if (hops != -1 && (hops < 1 || hops > LNET_ROUTE_HOPS_MAX))
		return -EINVAL;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_route_check);

/* An NI is up on @net (the loopback NI never counts). */
static bool lnet_net_is_local(u32 net)
{
	bool local;

	rcu_read_lock();
	local = lnet_ni_find_net_rcu(net);
	rcu_read_unlock();
	return local;
}

static struct lnet_rnet *lnet_rnet_find_rcu(u32 net)
{
	struct lnet_rnet *rnet;

	hash_for_each_possible_rcu(lnet_rnets, rnet, hash, net)
		if (rnet->net == net)
			return rnet;
	return NULL;
}

static struct lnet_route *lnet_route_find(u32 net, lnet_nid_t gateway)
{
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(r, &lnet_route_list, all)
		if (r->net == net && r->gw->nid == gateway)
			return r;
	return NULL;
}

/* ---- choosing a gateway (the send path) --------------------------------- */

static unsigned int lnet_route_hops(const struct lnet_route *r)
{
	return r->hops < 0 ? 1 : r->hops;
}

/* @a ranks before @b by configuration: lower priority, then fewer hops. */
static int lnet_route_rank_cmp(const struct lnet_route *a,
			       const struct lnet_route *b)
{
	if (a->priority != b->priority)
		return a->priority < b->priority ? -1 : 1;
	if (lnet_route_hops(a) != lnet_route_hops(b))
		return lnet_route_hops(a) < lnet_route_hops(b) ? -1 : 1;
	return 0;
}

/* How a gateway looks from this node, as the send path sees its peer. */
struct lnet_gw_load {
	int	healthv;
	u64	txqnob;
	int	tx_credits;
};

static void lnet_gateway_load_locked(const struct lnet_gateway *gw,
				     struct lnet_gw_load *load)
{
	struct lnet_peer *peer;

	lockdep_assert_held(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(gw->nid);
	if (!peer) {	/* not sent to yet (or reaped): nothing queued */
		load->healthv = LNET_MAX_HEALTH;
		load->txqnob = 0;
		load->tx_credits = INT_MAX;
		return;
	}
	load->healthv = peer->healthv;
	load->txqnob = peer->txqnob;
	load->tx_credits = peer->tx_credits;
}

/* @a is the less loaded: healthier, fewer bytes queued, more credits. */
static int lnet_gw_load_cmp(const struct lnet_gw_load *a,
			    const struct lnet_gw_load *b)
{
	if (a->healthv != b->healthv)
		return a->healthv > b->healthv ? -1 : 1;
	if (a->txqnob != b->txqnob)
		return a->txqnob < b->txqnob ? -1 : 1;
	if (a->tx_credits != b->tx_credits)
		return a->tx_credits > b->tx_credits ? -1 : 1;
	return 0;
}

static bool lnet_route_usable_rcu(const struct lnet_route *r, u32 src_net)
{
	u32 gw_net = LNET_NIDNET(r->gw->nid);

	if (!READ_ONCE(r->alive))
		return false;
	if (src_net != LNET_NET_ANY && gw_net != src_net)
		return false;
	return lnet_ni_find_net_rcu(gw_net);
}

/*
 * Among the usable routes ranked equal to @best, the one whose gateway is
 * the least loaded, then whose turn it is. The gateways' peers are looked
 * at under net_lock, once for the lot.
 */
static struct lnet_route *lnet_route_least_loaded(struct lnet_rnet *rnet,
						  struct lnet_route *best,
						  u32 src_net)
{
	struct lnet_gw_load load, best_load;
	struct lnet_route *r;
	int cmp;

	spin_lock_bh(&lnet_core.net_lock);
	lnet_gateway_load_locked(best->gw, &best_load);
	list_for_each_entry_rcu(r, &rnet->routes, list) {
		if (r == best || !lnet_route_usable_rcu(r, src_net) ||
		    lnet_route_rank_cmp(r, best))
			continue;
		lnet_gateway_load_locked(r->gw, &load);
		cmp = lnet_gw_load_cmp(&load, &best_load);
		if (cmp < 0 ||
		    (!cmp && READ_ONCE(r->seq) < READ_ONCE(best->seq))) {
			best = r;
			best_load = load;
		}
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return best;
}

/**
 * lnet_route_select_rcu() - the gateway to send a message for @net through
 * @net: the destination's network (not a local one)
 * @src_net: the local network the message must leave on, or LNET_NET_ANY
 *
 * Among the alive routes to @net whose gateway is on a local network (on
 * @src_net if given): lowest priority, then fewest hops, then the
 * gateway's peer: healthiest, fewest bytes queued, most send credits;
 * then round robin (the chosen route goes to the back of the line).
 *
 * Context: rcu_read_lock() held; takes net_lock when several routes tie
 * on priority and hops.
 *
 * Return: the gateway's NID, or LNET_NID_ANY if no route is usable.
 */
lnet_nid_t lnet_route_select_rcu(u32 net, u32 src_net)
{
	struct lnet_route *r, *best = NULL;
	struct lnet_rnet *rnet;
	bool tied = false;
	u64 last = 0;
	int cmp;

	rnet = lnet_rnet_find_rcu(net);
	if (!rnet)
		return LNET_NID_ANY;
	list_for_each_entry_rcu(r, &rnet->routes, list) {
		last = max(last, READ_ONCE(r->seq));
		if (!lnet_route_usable_rcu(r, src_net))
			continue;
		cmp = best ? lnet_route_rank_cmp(r, best) : -1;
		if (cmp < 0) {
			best = r;
			tied = false;
		} else if (!cmp) {
			tied = true;
		}
	}
	if (!best)
		return LNET_NID_ANY;
	if (tied)
		best = lnet_route_least_loaded(rnet, best, src_net);
	WRITE_ONCE(best->seq, last + 1);
	return best->gw->nid;
}
LNET_EXPORT_FOR_TEST(lnet_route_select_rcu);

/**
 * lnet_route_reachable_rcu() - whether a message for @net could go now
 * @net: a remote network
 *
 * Multi-Rail selection asks it of each network of a node behind routers:
 * the same test as lnet_route_select_rcu()'s, without taking a turn.
 *
 * Context: rcu_read_lock() held; takes no lock.
 *
 * Return: true if an alive route to @net has its gateway on a network of
 * ours.
 */
bool lnet_route_reachable_rcu(u32 net)
{
	struct lnet_rnet *rnet = lnet_rnet_find_rcu(net);
	struct lnet_route *r;

	if (!rnet)
		return false;
	list_for_each_entry_rcu(r, &rnet->routes, list)
		if (lnet_route_usable_rcu(r, LNET_NET_ANY))
			return true;
	return false;
}

/**
 * lnet_route_hops_rcu() - the fewest hops of a route to @net, for LNetDist()
 * @net: a remote network
 *
 * Context: rcu_read_lock() held.
 *
 * Return: hops (an unspecified count is 1), or 0 if no route leads there.
 */
unsigned int lnet_route_hops_rcu(u32 net)
{
	struct lnet_rnet *rnet = lnet_rnet_find_rcu(net);
	unsigned int best = 0;
	struct lnet_route *r;

	if (!rnet)
		return 0;
	list_for_each_entry_rcu(r, &rnet->routes, list)
		if (!best || lnet_route_hops(r) < best)
			best = lnet_route_hops(r);
	return best;
}

/**
 * lnet_route_is_via() - whether a route to @net goes through @gateway
 * @net: a remote network
 * @gateway: a gateway's NID
 *
 * For drop_asym_route: a message from @net that @gateway forwarded to us
 * came the way our own messages to @net would go (alive or not).
 *
 * Context: any; takes no lock.
 */
bool lnet_route_is_via(u32 net, lnet_nid_t gateway)
{
	struct lnet_rnet *rnet;
	struct lnet_route *r;
	bool via = false;

	rcu_read_lock();
	rnet = lnet_rnet_find_rcu(net);
	if (rnet) {
		list_for_each_entry_rcu(r, &rnet->routes, list) {
			if (r->gw->nid == gateway) {
				via = true;
				break;
			}
		}
	}
	rcu_read_unlock();
	return via;
}
LNET_EXPORT_FOR_TEST(lnet_route_is_via);

/* ---- the router checker -------------------------------------------------- */

static void lnet_gateway_release(struct kref *kref)
{
	struct lnet_gateway *gw = container_of(kref, struct lnet_gateway, kref);

	kfree_rcu(gw, rcu);
}

static void lnet_gateway_put(struct lnet_gateway *gw)
{
	kref_put(&gw->kref, lnet_gateway_release);
}

/* Every route through @gw is down: it did not answer. */
static void lnet_gateway_dead(struct lnet_gateway *gw)
{
	struct lnet_route *r;
	char nid[LNET_NIDSTR_SIZE];

	if (READ_ONCE(gw->alive))
		pr_info("gateway %s did not answer its ping: routes through it are down\n",
			lnet_nid2str(gw->nid, nid, sizeof(nid)));
	WRITE_ONCE(gw->alive, false);
	rcu_read_lock();
	list_for_each_entry_rcu(r, &gw->routes, gw_link)
		WRITE_ONCE(r->alive, false);
	rcu_read_unlock();
}

/*
 * Judge @r from the gateway's ping info (@n valid entries, statuses in
 * host order): see the top of this file.
 */
static bool lnet_route_judge(struct lnet_route *r,
			     const struct lnet_ping_info *info, int n)
{
	bool local_up = false, remote_seen = false, remote_up = false;
	u32 local_net = LNET_NIDNET(r->gw->nid);
	int i;

	for (i = 1; i < n; i++) {
		u32 net = LNET_NIDNET(info->ni[i].nid);
		bool up = info->ni[i].status == LNET_NI_STATUS_UP;

		if (net == local_net && up)
			local_up = true;
		if (net == r->net) {
			remote_seen = true;
			remote_up |= up;
		}
	}
	WRITE_ONCE(r->single_hop, remote_seen);
	if (!local_up)
		return false;
	if (READ_ONCE(lnet_avoid_asym_router_failure) &&
	    (r->hops == 1 || remote_seen))
		return remote_up;
	return true;
}

static void lnet_gateway_answered(struct lnet_gateway *gw,
				  const struct lnet_ping_info *info, int n)
{
	char nid[LNET_NIDSTR_SIZE];
	bool disabled = info->features & LNET_PING_FEAT_RTE_DISABLED;
	struct lnet_route *r;

	if (disabled && !READ_ONCE(gw->rte_disabled))
		pr_info("gateway %s says it does not route: routes through it are down\n",
			lnet_nid2str(gw->nid, nid, sizeof(nid)));
	else if (!READ_ONCE(gw->alive))
		pr_info("gateway %s answers again\n",
			lnet_nid2str(gw->nid, nid, sizeof(nid)));
	WRITE_ONCE(gw->rte_disabled, disabled);
	WRITE_ONCE(gw->alive, true);
	WRITE_ONCE(gw->last_check, jiffies);
	rcu_read_lock();
	list_for_each_entry_rcu(r, &gw->routes, gw_link)
		WRITE_ONCE(r->alive, !disabled && lnet_route_judge(r, info, n));
	rcu_read_unlock();
}

static void lnet_gw_ping_event(struct lnet_event *ev)
{
	struct lnet_gw_ping *ping = ev->md.user_ptr;
	struct lnet_gateway *gw = ping->gw;
	int n;

	if (ev->type == LNET_EVENT_REPLY && !ev->status) {
		ping->replied = true;
		ping->mlength = ev->mlength;
	}
	/* a GET that failed to go, or a REPLY that failed, ends the check */
	if (ev->status && !ev->unlinked)
		LNetMDUnlink(ev->md_handle);
	if (!ev->unlinked)
		return;

	n = ping->replied ? lnet_ping_info_check(ping->info, ping->mlength) :
			    -ETIMEDOUT;
	if (n > 0)
		lnet_gateway_answered(gw, (struct lnet_ping_info *)ping->info,
				      n);
	else
		lnet_gateway_dead(gw);
	WRITE_ONCE(gw->checked, true);
	atomic_set(&gw->pinging, 0);
	lnet_gateway_put(gw);
	kfree(ping);
	if (atomic_dec_and_test(&lnet_gw_pings_out))
		wake_up_var(&lnet_gw_pings_out);
}

/*
 * Ping @gw unless a ping is out already; the answer, or its absence after
 * transaction_timeout (response tracking, as Lustre 2.17 waits for it),
 * is judged in lnet_gw_ping_event().
 */
static void lnet_gateway_ping(struct lnet_gateway *gw)
{
	size_t size = lnet_ping_info_size(LNET_GW_PING_NIDS);
	struct lnet_process_id id = { .nid = gw->nid, .pid = LNET_PID_LUSTRE };
	struct lnet_gw_ping *ping;
	struct lnet_md md;
	int rc;

	if (atomic_cmpxchg(&gw->pinging, 0, 1))
		return;
	ping = kzalloc(sizeof(*ping) + size, GFP_KERNEL);
	if (!ping) {
		atomic_set(&gw->pinging, 0);
		return;
	}
	ping->gw = gw;
	kref_get(&gw->kref);
	atomic_inc(&lnet_gw_pings_out);
	md = (struct lnet_md) {
		.start		= ping->info,
		.length		= size,
		.threshold	= 2,		/* the SEND and the REPLY */
		.options	= LNET_MD_TRUNCATE | LNET_MD_TRACK_RESPONSE,
		.user_ptr	= ping,
		.eq_handle	= lnet_gw_eqh,
	};
	rc = LNetMDBind(md, LNET_UNLINK, &ping->mdh);
	if (rc) {
		WRITE_ONCE(gw->checked, true);
		atomic_set(&gw->pinging, 0);
		lnet_gateway_put(gw);
		kfree(ping);
		if (atomic_dec_and_test(&lnet_gw_pings_out))
			wake_up_var(&lnet_gw_pings_out);
		return;
	}
	/* from here on the UNLINK event ends the check */
	gw->ping_mdh = ping->mdh;
	rc = lnet_get(LNET_NID_ANY, ping->mdh, id, LNET_RESERVED_PORTAL,
		      LNET_PROTO_PING_MATCHBITS, 0, false);
	if (rc)
		LNetMDUnlink(ping->mdh);
}

static void lnet_gateway_check(struct work_struct *work)
{
	struct lnet_gateway *gw = container_of(to_delayed_work(work),
					       struct lnet_gateway, check);
	int interval = READ_ONCE(lnet_alive_router_check_interval);

	if (!lnet_is_running())
		return;
	if (interval > 0)
		lnet_gateway_ping(gw);
	/* a disabled checker looks again later, in case it is turned on */
	queue_delayed_work(system_wq, &gw->check,
			   max(interval, 1) * HZ);
}

/* The gateway object of @nid, made (and its checks started) if need be. */
static struct lnet_gateway *lnet_gateway_get(lnet_nid_t nid)
{
	struct lnet_gateway *gw;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(gw, &lnet_gateways, list)
		if (gw->nid == nid)
			return gw;
	gw = kzalloc(sizeof(*gw), GFP_KERNEL);
	if (!gw)
		return NULL;
	kref_init(&gw->kref);
	INIT_LIST_HEAD(&gw->routes);
	INIT_DELAYED_WORK(&gw->check, lnet_gateway_check);
	gw->nid = nid;
	gw->alive = !lnet_check_routers_before_use;
	list_add_tail(&gw->list, &lnet_gateways);
	hash_add_rcu(lnet_gw_hash, &gw->hash, nid);
	queue_delayed_work(system_wq, &gw->check, 0);
	return gw;
}

/*
 * @gw lost its last route: stop checking it and let it go. A ping still
 * waiting for its REPLY is unlinked, or shutdown would wait for it as
 * long as transaction_timeout when the gateway is dead (a stale handle,
 * of a ping that just ended, is harmless).
 */
static void lnet_gateway_drop(struct lnet_gateway *gw)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	if (!list_empty(&gw->routes))
		return;
	list_del(&gw->list);
	hash_del_rcu(&gw->hash);
	cancel_delayed_work_sync(&gw->check);
	if (atomic_read(&gw->pinging))
		LNetMDUnlink(gw->ping_mdh);
	lnet_gateway_put(gw);
}

/**
 * lnet_gateway_forwarded() - a message for us came through @from
 * @from: the LND-level peer it came from
 * @src_net: the network of its source, not the one it arrived on
 *
 * If @from is a gateway we hold dead, it is forwarding again: it is alive
 * and its routes to @src_net are up until its next check says otherwise.
 * Without this a gateway whose ping was lost stays dead for a whole check
 * interval while traffic flows through it.
 *
 * Context: any; takes no lock.
 */
void lnet_gateway_forwarded(lnet_nid_t from, u32 src_net)
{
	char nid[LNET_NIDSTR_SIZE], net[LNET_NETSTR_SIZE];
	struct lnet_gateway *gw;
	struct lnet_route *r;

	rcu_read_lock();
	hash_for_each_possible_rcu(lnet_gw_hash, gw, hash, from) {
		if (gw->nid != from || READ_ONCE(gw->alive) ||
		    READ_ONCE(gw->rte_disabled))
			continue;
		WRITE_ONCE(gw->alive, true);
		list_for_each_entry_rcu(r, &gw->routes, gw_link)
			if (r->net == src_net)
				WRITE_ONCE(r->alive, true);
		pr_info("gateway %s forwards to us: its routes to %s are up\n",
			lnet_nid2str(from, nid, sizeof(nid)),
			lnet_net2str(src_net, net, sizeof(net)));
	}
	rcu_read_unlock();
}

/**
 * lnet_gateway_pushed() - a node pushed its ping info to us
 * @from: the primary NID of the node
 * @info: its ping info, checked
 * @n: valid entries in @info
 *
 * If the node is one of our gateways, its routes are judged from the info
 * now, as if the checker had pinged it: a router pushes when one of its
 * NIs goes down or up, and its routes follow without waiting for the next
 * check.
 *
 * Context: process; takes no lock.
 */
void lnet_gateway_pushed(lnet_nid_t from, const struct lnet_ping_info *info,
			 int n)
{
	struct lnet_gateway *gw;
	unsigned int bkt;

	rcu_read_lock();
	hash_for_each_rcu(lnet_gw_hash, bkt, gw, hash)
		if (gw->nid == from || lnet_peer_nids_same_node(gw->nid, from))
			lnet_gateway_answered(gw, info, n);
	rcu_read_unlock();
}

/* ---- configuration ------------------------------------------------------- */

/**
 * lnet_route_add() - add a route; api_mutex held, LNet running
 * @route: net, gateway, hops, priority, sensitivity (0: the default, 1);
 *	alive is ignored
 *
 * The route is alive at once (unless check_routers_before_use) and its
 * gateway is pinged now. It goes to a random place among the routes to its
 * network, so that nodes given the same list spread their traffic.
 *
 * Return: 0; -EINVAL (see lnet_route_check(), or @route->net is a local
 * network, or the gateway is a local NID); -EHOSTUNREACH if no local NI is
 * on the gateway's network; -EEXIST for the same net and gateway; -ENOSPC
 * when the table is full; -ENOMEM.
 */
int lnet_route_add(const struct lnet_route_info *route)
{
	struct lnet_route *r, *pos;
	struct lnet_rnet *rnet;
	unsigned int n = 0, at;
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	rc = lnet_route_check(route->net, route->gateway, route->hops);
	if (rc)
		return rc;
	if (lnet_net_is_local(route->net) || lnet_nid_is_local(route->gateway))
		return -EINVAL;
	if (!lnet_net_is_local(LNET_NIDNET(route->gateway)))
		return -EHOSTUNREACH;
	if (lnet_route_find(route->net, route->gateway))
		return -EEXIST;
	if (lnet_nroutes >= LNET_ROUTES_MAX)
		return -ENOSPC;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	rnet = lnet_rnet_find_rcu(route->net);	/* api_mutex: stable */
	if (!rnet) {
		rnet = kzalloc(sizeof(*rnet), GFP_KERNEL);
		if (!rnet)
			goto fail;
		rnet->net = route->net;
		INIT_LIST_HEAD(&rnet->routes);
		hash_add_rcu(lnet_rnets, &rnet->hash, rnet->net);
	}
	r->gw = lnet_gateway_get(route->gateway);
	if (!r->gw) {
		if (list_empty(&rnet->routes)) {
			hash_del_rcu(&rnet->hash);
			kfree_rcu(rnet, rcu);
		}
		goto fail;
	}
	r->net = route->net;
	r->hops = route->hops;
	r->priority = route->priority;
	r->sensitivity = route->sensitivity ?: 1;
	r->alive = READ_ONCE(r->gw->alive);

	list_for_each_entry(pos, &rnet->routes, list)
		n++;
	at = get_random_u32_below(n + 1);
	list_for_each_entry(pos, &rnet->routes, list)
		if (!at--)
			break;
	list_add_tail_rcu(&r->list, &pos->list);	/* before @pos */
	list_add_tail_rcu(&r->gw_link, &r->gw->routes);
	list_add_tail(&r->all, &lnet_route_list);
	lnet_nroutes++;
	/* a new route gets its gateway checked now */
	mod_delayed_work(system_wq, &r->gw->check, 0);
	return 0;

fail:
	kfree(r);
	return -ENOMEM;
}
LNET_EXPORT_FOR_TEST(lnet_route_add);

static void lnet_route_unlink(struct lnet_route *r)
{
	struct lnet_rnet *rnet = lnet_rnet_find_rcu(r->net);

	lockdep_assert_held(&lnet_core.api_mutex);
	list_del_rcu(&r->list);
	list_del_rcu(&r->gw_link);
	list_del(&r->all);
	lnet_nroutes--;
	if (rnet && list_empty(&rnet->routes)) {
		hash_del_rcu(&rnet->hash);
		kfree_rcu(rnet, rcu);
	}
	lnet_gateway_drop(r->gw);
	kfree_rcu(r, rcu);
}

/**
 * lnet_route_del() - remove the route to @net through @gateway
 * @net: the remote network
 * @gateway: the gateway's NID
 *
 * Return: 0 or -ENOENT.
 */
int lnet_route_del(u32 net, lnet_nid_t gateway)
{
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	r = lnet_route_find(net, gateway);
	if (!r)
		return -ENOENT;
	lnet_route_unlink(r);
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_route_del);

/**
 * lnet_route_get() - the @index-th route, in the order they were added
 * @index: 0-based
 * @route: filled in; alive as the checker last judged it, multi_hop
 *	unless the gateway's last answer listed a NID on the remote network
 *
 * Return: 0 or -ENOENT past the last route.
 */
int lnet_route_get(unsigned int index, struct lnet_route_info *route)
{
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(r, &lnet_route_list, all) {
		if (index--)
			continue;
		*route = (struct lnet_route_info) {
			.net		= r->net,
			.gateway	= r->gw->nid,
			.hops		= r->hops,
			.priority	= r->priority,
			.sensitivity	= r->sensitivity,
			.alive		= READ_ONCE(r->alive),
			.multi_hop	= !READ_ONCE(r->single_hop),
		};
		return 0;
	}
	return -ENOENT;
}

/**
 * lnet_gateway_get_info() - the @index-th gateway, in the order added
 * @index: 0 for the first
 * @info: filled in
 *
 * Context: api_mutex held.
 *
 * Return: 0, or -ENOENT past the last one.
 */
int lnet_gateway_get_info(unsigned int index, struct lnet_gateway_info *info)
{
	struct lnet_gateway *gw;
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(gw, &lnet_gateways, list) {
		if (index--)
			continue;
		*info = (struct lnet_gateway_info) {
			.nid	= gw->nid,
			.refs	= kref_read(&gw->kref),
			.alive	= READ_ONCE(gw->alive),
		};
		list_for_each_entry(r, &gw->routes, gw_link)
			info->nroutes++;
		return 0;
	}
	return -ENOENT;
}
LNET_EXPORT_FOR_TEST(lnet_gateway_get_info);
LNET_EXPORT_FOR_TEST(lnet_route_get);

/**
 * lnet_routes_start() - bring-up: the checker's event queue
 *
 * Return: 0 or -errno.
 */
int lnet_routes_start(void)
{
	return LNetEQAlloc(0, lnet_gw_ping_event, &lnet_gw_eqh);
}

static bool lnet_gateways_checked(void)
{
	struct lnet_gateway *gw;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(gw, &lnet_gateways, list)
		if (!READ_ONCE(gw->checked))
			return false;
	return true;
}

/**
 * lnet_routes_wait_checked() - check_routers_before_use: the end of bring-up
 *
 * Waits until every gateway known so far (those of routes=) has been
 * pinged once, answered or not, polling once a second, so that the first
 * messages of LNet's users find the routes judged. A ping ends within
 * transaction_timeout, so this does too; the wait is given up (with a
 * warning) a little after that, or on a fatal signal. Nothing to wait for
 * with the checker off (alive_router_check_interval <= 0).
 *
 * Context: api_mutex held (the checks do not take it).
 */
void lnet_routes_wait_checked(void)
{
	unsigned long deadline;
	int interval = READ_ONCE(lnet_alive_router_check_interval);

	lockdep_assert_held(&lnet_core.api_mutex);
	if (!lnet_check_routers_before_use || interval <= 0)
		return;
	deadline = jiffies + (lnet_tunable(&lnet_transaction_timeout) +
			      interval + 5) * HZ;
	while (!lnet_gateways_checked()) {
		if (time_after(jiffies, deadline) ||
		    fatal_signal_pending(current)) {
			pr_warn("check_routers_before_use: going on before every gateway was checked\n");
			return;
		}
		schedule_timeout_killable(HZ);
	}
	pr_info("check_routers_before_use: every gateway checked\n");
}

/*
 * LNet is going down, before its NIs stop: forget every route and stop
 * checking the gateways (a ping still out ends as its NI stops).
 */
void lnet_routes_clear(void)
{
	struct lnet_route *r, *tmp;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry_safe(r, tmp, &lnet_route_list, all)
		lnet_route_unlink(r);
}

/* After the NIs stopped: every checker ping has ended; free the EQ. */
void lnet_routes_fini(void)
{
	wait_var_event(&lnet_gw_pings_out, !atomic_read(&lnet_gw_pings_out));
	if (lnet_gw_eqh.cookie) {
		WARN_ON(LNetEQFree(lnet_gw_eqh));
		lnet_gw_eqh.cookie = 0;
	}
}

/**
 * lnet_routes_apply_param() - the routes of the routes= parameter
 *
 * Called at bring-up after the networks= nets are up (api_mutex held). An
 * entry whose gateway is one of this node's NIDs adds no route: it says
 * this node is a router (lnet_router_named()). A route that is already
 * there is kept; any other failure (typically a gateway on a network this
 * node is not on) fails the bring-up, with the route named in the log.
 *
 * Return: 0 or -errno.
 */
int lnet_routes_apply_param(void)
{
	char net[LNET_NETSTR_SIZE], gw[LNET_NIDSTR_SIZE];
	struct lnet_route_config *rc_cfg;
	struct lnet_route_info info;
	LIST_HEAD(routes);
	char err[128];
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	rc = lnet_parse_routes(lnet_routes, &routes, err, sizeof(err));
	if (rc) {
		pr_err("routes=\"%s\": %s\n", lnet_routes, err);
		return rc;
	}
	list_for_each_entry(rc_cfg, &routes, list) {
		info = (struct lnet_route_info) {
			.net		= rc_cfg->net_id,
			.gateway	= rc_cfg->gateway,
			.hops		= rc_cfg->hops ? rc_cfg->hops : -1,
			.priority	= rc_cfg->priority,
		};
		if (lnet_nid_is_local(info.gateway)) {
			lnet_router_named();
			continue;
		}
		rc = lnet_route_add(&info);
		if (rc == -EEXIST) {
			rc = 0;
			continue;
		}
		if (rc) {
			pr_err("routes=: cannot add the route to %s via %s: %s (%d)\n",
			       lnet_net2str(info.net, net, sizeof(net)),
			       lnet_nid2str(info.gateway, gw, sizeof(gw)),
			       rc == -EHOSTUNREACH ?
			       "the gateway is not on a local network" :
			       "invalid route", rc);
			break;
		}
	}
	lnet_free_route_configs(&routes);
	return rc;
}
