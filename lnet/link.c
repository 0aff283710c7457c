// SPDX-License-Identifier: GPL-2.0
/*
 * The link state of each NI's network interface. An NI whose interface is
 * down or has lost its carrier says DOWN in this node's ping info, as a
 * Lustre node's does: that is how a router tells the nodes routing through
 * it that one of its sides is cut, and they stop using the routes that
 * need that side (routes.c). The NI itself stays up and keeps sending: the
 * link may be back before anyone notices, and a send that cannot go fails
 * in the LND as it would have anyway. But on a node with another NI up,
 * what the LND holds for the NI when the link goes (lnd.h, @link_down)
 * fails at once, resendably: Multi-Rail selection already keeps new
 * messages off a link that is down, and those go again on another rail
 * instead of waiting for the LND's timeout.
 *
 * Netdev events come under RTNL; they read the NI list under RCU and flip
 * a bit of the NI, so they never wait for LNet. An NI's first state is
 * read under RTNL too, so that no event is lost between the two.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

static bool lnet_dev_link_up(const struct net_device *dev)
{
	return netif_running(dev) && netif_oper_up(dev);
}

/* Record @up for @ni; true if that changed what its ping entry says. */
static bool lnet_ni_link_set(struct lnet_ni *ni, bool up)
{
	char nid[LNET_NIDSTR_SIZE];
	bool was_down;

	if (up)
		was_down = test_and_clear_bit(LNET_NI_LINK_DOWN,
					      &ni->health_flags);
	else
		was_down = test_and_set_bit(LNET_NI_LINK_DOWN,
					    &ni->health_flags);
	if (up != was_down)
		return false;
	pr_info("%s: link %s on %s: the NI says %s in the ping info\n",
		lnet_nid2str(ni->nid, nid, sizeof(nid)), up ? "up" : "down",
		ni->iface, up ? "UP" : "DOWN");
	return true;
}

/* Another NI than @ni, with its link up, that a resend could take. */
bool lnet_ni_has_alternative_rcu(const struct lnet_ni *ni)
{
	struct lnet_ni *other;

	list_for_each_entry_rcu(other, &lnet_core.nis, list)
		if (other != ni && other != lnet_core.lo_ni &&
		    !test_bit(LNET_NI_LINK_DOWN, &other->health_flags))
			return true;
	return false;
}

/**
 * lnet_link_changed() - an interface's link went up or down
 * @ifname: the interface
 * @up: running with its carrier
 *
 * Context: process; RTNL held when called for a netdev event.
 */
void lnet_link_changed(const char *ifname, bool up)
{
	bool changed = false;
	struct lnet_ni *ni;

	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (!ni->iface[0] || strcmp(ni->iface, ifname) ||
		    !lnet_ni_link_set(ni, up))
			continue;
		changed = true;
		if (up)
			lnet_recovery_ni_link_up(ni);
		/*
		 * What is on the cut link goes again on another rail now; with
		 * no other rail it waits for this one, as it always did.
		 */
		if (!up && ni->lnd->link_down &&
		    lnet_ni_has_alternative_rcu(ni) && lnet_ni_call_begin(ni)) {
			ni->lnd->link_down(ni);
			lnet_ni_call_end(ni);
		}
	}
	rcu_read_unlock();
	if (changed)
		lnet_ping_status_changed();
}
LNET_EXPORT_FOR_TEST(lnet_link_changed);

/**
 * lnet_ni_link_seed() - read a new NI's link state
 * @ni: the NI, on lnet_core.nis already (events from now on find it)
 *
 * An NI without an interface (loopback), or whose interface is not in the
 * initial network namespace, is taken as up.
 */
void lnet_ni_link_seed(struct lnet_ni *ni)
{
	struct net_device *dev;

	lockdep_assert_held(&lnet_core.api_mutex);	/* then RTNL */
	if (!ni->iface[0])
		return;
	rtnl_lock();
	dev = __dev_get_by_name(&init_net, ni->iface);
	if (dev && lnet_ni_link_set(ni, lnet_dev_link_up(dev)))
		lnet_ping_status_changed();
	rtnl_unlock();
}

static int lnet_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event != NETDEV_UP && event != NETDEV_DOWN &&
	    event != NETDEV_CHANGE)
		return NOTIFY_DONE;
	if (!net_eq(dev_net(dev), &init_net))
		return NOTIFY_DONE;
	lnet_link_changed(dev->name, lnet_dev_link_up(dev));
	return NOTIFY_DONE;
}

static struct notifier_block lnet_netdev_notifier = {
	.notifier_call = lnet_netdev_event,
};

int lnet_link_init(void)
{
	return register_netdevice_notifier(&lnet_netdev_notifier);
}

void lnet_link_fini(void)
{
	unregister_netdevice_notifier(&lnet_netdev_notifier);
}
