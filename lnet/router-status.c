// SPDX-License-Identifier: GPL-2.0
/*
 * What a router says of each of its networks in its ping info
 * (Documentation/routing.md, "What a router advertises").
 *
 * Nodes that route through us ping us, on the network they share with
 * us, every alive_router_check_interval seconds (routes.c on their side).
 * While we forward, a network on which no such ping has come for
 * router_ping_timeout + alive_router_check_interval seconds is taken to be
 * cut off somewhere past our interface: its NI says DOWN, so that the
 * nodes on our other networks stop sending to it through us
 * (avoid_asym_router_failure) instead of losing their messages here. The
 * next ping on it brings it back at once. Lustre's routers do the same,
 * and its nodes judge our routes by it.
 *
 * The NI's quiet bit and its last ping time are written without a lock
 * (bit operations, WRITE_ONCE); the check runs once a second from a work
 * item that only forwarding keeps queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

int lnet_router_ping_timeout = 50;
LNET_EXPORT_FOR_TEST(lnet_router_ping_timeout);
module_param_named(router_ping_timeout, lnet_router_ping_timeout, int, 0644);
MODULE_PARM_DESC(router_ping_timeout,
		 "seconds a forwarding node waits, beyond alive_router_check_interval, for a ping on a network before saying its NI is down");

static void lnet_router_quiet_check(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_router_quiet_work, lnet_router_quiet_check);

/**
 * lnet_router_status_delay() - how long a network may go unpinged
 *
 * Also how long forwarding turned on or off at run time takes to show
 * (router.c).
 *
 * Return: router_ping_timeout + alive_router_check_interval, in jiffies.
 */
unsigned long lnet_router_status_delay(void)
{
	int secs = max(READ_ONCE(lnet_router_ping_timeout), 0) +
		   max(READ_ONCE(lnet_alive_router_check_interval), 0);

	return max(secs, 1) * HZ;
}

/**
 * lnet_router_pinged() - a ping (GET on the reserved portal) came in
 * @ni: the NI it came on
 * @src: its source
 *
 * Context: any; takes no lock.
 */
void lnet_router_pinged(struct lnet_ni *ni, lnet_nid_t src)
{
	char nid[LNET_NIDSTR_SIZE];
	bool local;

	if (!lnet_forwarding_enabled() || ni == lnet_core.lo_ni)
		return;
	rcu_read_lock();
	local = lnet_ni_find_rcu(src);
	rcu_read_unlock();
	if (local)
		return;
	WRITE_ONCE(ni->last_pinged, jiffies);
	if (test_and_clear_bit(LNET_NI_QUIET_DOWN, &ni->health_flags)) {
		pr_info("%s: pinged again: it says UP in the ping info\n",
			lnet_nid2str(ni->nid, nid, sizeof(nid)));
		lnet_ping_status_changed();
	}
}
LNET_EXPORT_FOR_TEST(lnet_router_pinged);

static void lnet_router_quiet_check(struct work_struct *work)
{
	unsigned long limit = lnet_router_status_delay();
	char nid[LNET_NIDSTR_SIZE];
	bool changed = false;
	struct lnet_ni *ni;

	if (!lnet_forwarding_enabled())
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (ni == lnet_core.lo_ni ||
		    time_before(jiffies, READ_ONCE(ni->last_pinged) + limit) ||
		    test_and_set_bit(LNET_NI_QUIET_DOWN, &ni->health_flags))
			continue;
		/* a ping that came meanwhile may have missed the bit */
		if (time_before(jiffies, READ_ONCE(ni->last_pinged) + limit)) {
			clear_bit(LNET_NI_QUIET_DOWN, &ni->health_flags);
			continue;
		}
		pr_info("%s: no ping for %lu s: it says DOWN in the ping info\n",
			lnet_nid2str(ni->nid, nid, sizeof(nid)), limit / HZ);
		changed = true;
	}
	rcu_read_unlock();
	if (changed)
		lnet_ping_status_changed();
	/*
	 * Not mutex_lock(): lnet_router_status_stop() cancels this work
	 * under api_mutex and waits for it. Missed now, done a second later.
	 */
	if (lnet_router_unsettled() && mutex_trylock(&lnet_core.api_mutex)) {
		lnet_router_settle();	/* may turn forwarding off */
		mutex_unlock(&lnet_core.api_mutex);
	}
	if (lnet_forwarding_enabled())
		queue_delayed_work(system_wq, &lnet_router_quiet_work, HZ);
}

/**
 * lnet_router_status_start() - forwarding starts
 *
 * Every network gets the whole time to be pinged from now.
 */
void lnet_router_status_start(void)
{
	struct lnet_ni *ni;

	lockdep_assert_held(&lnet_core.api_mutex);
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		WRITE_ONCE(ni->last_pinged, jiffies);
	rcu_read_unlock();
	queue_delayed_work(system_wq, &lnet_router_quiet_work, HZ);
}

/**
 * lnet_router_status_clear() - forwarding stopped: no network is quiet
 *
 * Called after forwarding is off (lnet_forwarding_enabled() false), so
 * that neither a ping nor the check sets a bit again; the check does not
 * come back.
 */
void lnet_router_status_clear(void)
{
	bool changed = false;
	struct lnet_ni *ni;

	lockdep_assert_held(&lnet_core.api_mutex);
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		changed |= test_and_clear_bit(LNET_NI_QUIET_DOWN,
					      &ni->health_flags);
	rcu_read_unlock();
	if (changed)
		lnet_ping_status_changed();
}

/* LNet goes down: forwarding is off, and the check is not running. */
void lnet_router_status_stop(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	cancel_delayed_work_sync(&lnet_router_quiet_work);
	lnet_router_status_clear();
}

/**
 * lnet_router_last_pinged() - seconds since a ping came on @ni
 * @ni: an NI
 *
 * Return: the seconds, or -1 if this node does not forward (debugfs nis).
 */
long lnet_router_last_pinged(const struct lnet_ni *ni)
{
	if (!lnet_forwarding_enabled())
		return -1;
	return (long)(jiffies - READ_ONCE(ni->last_pinged)) / HZ;
}
LNET_EXPORT_FOR_TEST(lnet_router_last_pinged);
