// SPDX-License-Identifier: GPL-2.0
/*
 * The route table: which gateway leads to which remote network. Routes are
 * stored and listed ("lnetctl route add/del/show", routes= at bring-up);
 * nothing is sent through a gateway yet and there is no router checker, so
 * a route's "alive" state is an assumption: a route counts as alive while
 * this node has an NI up on the gateway's network (the gateway is
 * reachable in one hop), never from a probe of the gateway.
 *
 * The table lives while LNet runs: lnet_shutdown() empties it. It is only
 * touched on configuration paths, all under lnet_core.api_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/lnet/config.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

#define LNET_ROUTES_MAX		4096	/* a bound on the table's memory */
#define LNET_ROUTE_HOPS_MAX	255

struct lnet_route {
	struct list_head	list;
	struct lnet_route_info	info;
};

static LIST_HEAD(lnet_route_list);	/* api_mutex; in the order added */
static unsigned int lnet_nroutes;	/* api_mutex */

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

static struct lnet_route *lnet_route_find(u32 net, lnet_nid_t gateway)
{
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(r, &lnet_route_list, list)
		if (r->info.net == net && r->info.gateway == gateway)
			return r;
	return NULL;
}

/**
 * lnet_route_add() - store a route; api_mutex held, LNet running
 * @route: net, gateway, hops, priority, sensitivity (0: the default, 1);
 *	alive is ignored
 *
 * Return: 0; -EINVAL (see lnet_route_check(), or @route->net is a local
 * network, or the gateway is a local NID); -EHOSTUNREACH if no local NI is
 * on the gateway's network; -EEXIST for the same net and gateway; -ENOSPC
 * when the table is full; -ENOMEM.
 */
int lnet_route_add(const struct lnet_route_info *route)
{
	struct lnet_route *r;
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
	r->info = *route;
	r->info.alive = false;
	if (!r->info.sensitivity)
		r->info.sensitivity = 1;
	list_add_tail(&r->list, &lnet_route_list);
	lnet_nroutes++;
	return 0;
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
	list_del(&r->list);
	lnet_nroutes--;
	kfree(r);
	return 0;
}

/**
 * lnet_route_get() - the @index-th route, in the order they were added
 * @index: 0-based
 * @route: filled in; @route->alive as described at the top of this file
 *
 * Return: 0 or -ENOENT past the last route.
 */
int lnet_route_get(unsigned int index, struct lnet_route_info *route)
{
	struct lnet_route *r;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry(r, &lnet_route_list, list) {
		if (index--)
			continue;
		*route = r->info;
		route->alive = lnet_net_is_local(LNET_NIDNET(r->info.gateway));
		return 0;
	}
	return -ENOENT;
}

/* LNet is going down: forget every route. */
void lnet_routes_clear(void)
{
	struct lnet_route *r, *tmp;

	lockdep_assert_held(&lnet_core.api_mutex);
	list_for_each_entry_safe(r, tmp, &lnet_route_list, list) {
		list_del(&r->list);
		kfree(r);
	}
	lnet_nroutes = 0;
}

/**
 * lnet_routes_apply_param() - store the routes of the routes= parameter
 *
 * Called at bring-up after the networks= nets are up (api_mutex held). A
 * route that is already there is kept; any other failure (typically a
 * gateway on a network this node is not on) fails the bring-up, with the
 * route named in the log.
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
