/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsed forms of the lnet module parameters that describe networks and
 * routes. Parsing is pure (no NI is created here): lnet_parse_networks()
 * turns "tcp0(eth0,eth1)[0,1],o2ib(ib0)" into a list of lnet_net_config,
 * and reports the first error with a message naming the offending text.
 */
#ifndef _LINUX_LNET_CONFIG_H
#define _LINUX_LNET_CONFIG_H

#include <linux/list.h>
#include <linux/if.h>
#include <linux/types.h>
#include <uapi/linux/lnet/lnet-nid.h>

#define LNET_MAX_NET_IFACES	16
#define LNET_MAX_CONFIG_CPTS	64

struct lnet_net_config {
	struct list_head	list;
	u32			net_id;
	int			n_ifaces;
	char			ifaces[LNET_MAX_NET_IFACES][IFNAMSIZ];
	int			n_cpts;			/* 0: all partitions */
	u32			cpts[LNET_MAX_CONFIG_CPTS];
};

struct lnet_route_config {
	struct list_head	list;
	u32			net_id;		/* remote network */
	u32			hops;		/* 0: unspecified */
	u32			priority;
	lnet_nid_t		gateway;
};

/*
 * Parse @str (may be NULL or empty: no networks) into @nets, appending
 * lnet_net_config entries in order. On error returns -EINVAL (or -ENOMEM),
 * leaves @nets as it was (empty, for a caller that passed an empty list),
 * and writes a human-readable reason into @err ("" on success; @err may be
 * NULL when @errlen is 0). lnet_parse_routes() behaves the same way.
 */
int lnet_parse_networks(const char *str, struct list_head *nets,
			char *err, size_t errlen);
void lnet_free_net_configs(struct list_head *nets);

/* "net [hops] gw[:prio] [gw...]; ..." with [a-b] ranges in gateway NIDs. */
int lnet_parse_routes(const char *str, struct list_head *routes,
		      char *err, size_t errlen);
void lnet_free_route_configs(struct list_head *routes);

#endif /* _LINUX_LNET_CONFIG_H */
