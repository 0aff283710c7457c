// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv4 interface behind an NI, for the LNDs that address peers by IP
 * (ksocklnd, ko2iblnd).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/lnet/lnd.h>

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

/**
 * lnet_ipif_pick() - an NI's interface and its IPv4 address
 * @lnd: the LND's name, for error messages
 * @name: the interface named in networks=, or NULL/"" for the first
 *	non-loopback interface that is up and has an IPv4 address
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
	struct net_device *dev = NULL, *d;
	int rc = -ENODEV;

	rtnl_lock();
	if (name && *name) {
		dev = __dev_get_by_name(&init_net, name);
		if (!dev) {
			pr_err("%s: no interface %s\n", lnd, name);
			goto out;
		}
		rc = lnet_dev_ipv4(dev, ip);
		if (rc) {
			pr_err("%s: interface %s is %s\n", lnd, name,
			       rc == -ENETDOWN ? "down" :
			       "without an IPv4 address");
			goto out;
		}
	} else {
		for_each_netdev(&init_net, d) {
			if (d->flags & IFF_LOOPBACK)
				continue;
			if (!lnet_dev_ipv4(d, ip)) {
				dev = d;
				rc = 0;
				break;
			}
		}
		if (rc) {
			pr_err("%s: no interface is up with an IPv4 address\n",
			       lnd);
			goto out;
		}
	}
	strscpy(ifname, dev->name, IFNAMSIZ);
out:
	rtnl_unlock();
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_ipif_pick);
