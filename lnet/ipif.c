// SPDX-License-Identifier: GPL-2.0
/*
 * This node's IPv4 interfaces: the one behind an NI, for the LNDs that
 * address peers by IP (ksocklnd, ko2iblnd), and the list ip2nets rules are
 * matched against. Every walk of the network devices is here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/lnet/lnd.h>
#include <linux/lnet/lib-lnet.h>

static int lnet_dev_ipv4(struct net_device *dev, __be32 *ip)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;

	ASSERT_RTNL();
	if (!(dev->flags & IFF_UP))
		return -ENETDOWN;
	in_dev = __in_dev_get_rtnl(dev);
	if (!in_dev)
		return -EADDRNOTAVAIL;
	in_dev_for_each_ifa_rtnl(ifa, in_dev) {
		*ip = ifa->ifa_local;
		return 0;
	}
	return -EADDRNOTAVAIL;
}

/* Fill @ifs with the up, non-loopback interfaces that have IPv4. */
static int lnet_ipif_list_rtnl(struct lnet_ipif *ifs, int max)
{
	struct net_device *dev;
	__be32 ip;
	int n = 0;

	ASSERT_RTNL();
	for_each_netdev(&init_net, dev) {
		if (n == max)
			break;
		if ((dev->flags & IFF_LOOPBACK) || lnet_dev_ipv4(dev, &ip))
			continue;
		strscpy(ifs[n].name, dev->name, IFNAMSIZ);
		ifs[n].addr = ntohl(ip);
		n++;
	}
	return n;
}

/**
 * lnet_ipif_list() - this node's interfaces that can carry an NI
 * @ifs: filled with each interface that is up, not loopback and has an
 *	IPv4 address: its name and first address, in device order
 * @max: room in @ifs
 *
 * Context: process context; takes the RTNL lock.
 *
 * Return: the number of entries filled.
 */
int lnet_ipif_list(struct lnet_ipif *ifs, int max)
{
	int n;

	rtnl_lock();
	n = lnet_ipif_list_rtnl(ifs, max);
	rtnl_unlock();
	return n;
}

/**
 * lnet_ipif_of_addr() - the interface that has an IPv4 address
 * @addr: the address, host order
 * @name: its interface's name (IFNAMSIZ bytes)
 *
 * Return: 0 or -EADDRNOTAVAIL.
 */
int lnet_ipif_of_addr(u32 addr, char *name)
{
	struct net_device *dev = ip_dev_find(&init_net, htonl(addr));

	if (!dev)
		return -EADDRNOTAVAIL;
	strscpy(name, dev->name, IFNAMSIZ);
	dev_put(dev);
	return 0;
}

/**
 * lnet_ipif_pick() - an NI's interface and its IPv4 address
 * @lnd: the LND's name, for error messages
 * @name: the interface named in networks=, or NULL/"" for the first
 *	interface lnet_ipif_list() would report
 * @ifname: the interface's name (IFNAMSIZ bytes)
 * @ip: its first IPv4 address
 *
 * Context: process context; takes the RTNL lock.
 *
 * Return: 0, -ENODEV, -ENETDOWN or -EADDRNOTAVAIL (logged).
 */
int lnet_ipif_pick(const char *lnd, const char *name, char *ifname,
		   __be32 *ip)
{
	struct net_device *dev;
	struct lnet_ipif first;
	int rc = 0;

	rtnl_lock();
	if (!name || !*name) {
		if (!lnet_ipif_list_rtnl(&first, 1)) {
			pr_err("%s: no interface is up with an IPv4 address\n",
			       lnd);
			rc = -ENODEV;
			goto out;
		}
		strscpy(ifname, first.name, IFNAMSIZ);
		*ip = htonl(first.addr);
		goto out;
	}
	dev = __dev_get_by_name(&init_net, name);
	if (!dev) {
		pr_err("%s: no interface %s\n", lnd, name);
		rc = -ENODEV;
		goto out;
	}
	rc = lnet_dev_ipv4(dev, ip);
	if (rc) {
		pr_err("%s: interface %s is %s\n", lnd, name,
		       rc == -ENETDOWN ? "down" : "without an IPv4 address");
		goto out;
	}
	strscpy(ifname, dev->name, IFNAMSIZ);
out:
	rtnl_unlock();
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_ipif_pick);
