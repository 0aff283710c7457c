// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing LNet up and down, network interfaces (NIs) and LND registration.
 *
 * LNetNIInit() is reference counted: the first call starts the loopback
 * NI, the networks of the "networks" module parameter and the ping target;
 * the last LNetNIFini() stops them again, failing whatever is still queued
 * with -ESHUTDOWN and waiting for the LNDs to finalize what they hold.
 *
 * The NI list is read under RCU on the data path; it changes only under
 * api_mutex (which serializes all of this) and net_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/kmod.h>
#include <linux/ktime.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

struct lnet_core lnet_core;
LNET_EXPORT_FOR_TEST(lnet_core);

static LIST_HEAD(lnet_lnds);
static DEFINE_MUTEX(lnet_lnd_mutex);	/* not api_mutex: see lnet_lnd_get() */

/* ---- LND registry ----------------------------------------------------------- */

static struct lnet_lnd *lnet_lnd_find(u32 type)
{
	struct lnet_lnd *lnd;

	lockdep_assert_held(&lnet_lnd_mutex);
	list_for_each_entry(lnd, &lnet_lnds, list)
		if (lnd->type == type)
			return lnd;
	return NULL;
}

/**
 * lnet_register_lnd() - make an LND type available
 * @lnd: its operations, static in the LND module
 *
 * Return: 0, or -EEXIST if the type is taken.
 */
int lnet_register_lnd(struct lnet_lnd *lnd)
{
	int rc = 0;

	mutex_lock(&lnet_lnd_mutex);
	if (lnet_lnd_find(lnd->type))
		rc = -EEXIST;
	else
		list_add_tail(&lnd->list, &lnet_lnds);
	mutex_unlock(&lnet_lnd_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_register_lnd);

/**
 * lnet_unregister_lnd() - withdraw an LND type (from its module exit)
 * @lnd: as registered
 *
 * No NI can be using it: each holds a reference on @lnd->owner.
 */
void lnet_unregister_lnd(struct lnet_lnd *lnd)
{
	mutex_lock(&lnet_lnd_mutex);
	list_del_init(&lnd->list);
	mutex_unlock(&lnet_lnd_mutex);
}
EXPORT_SYMBOL_GPL(lnet_unregister_lnd);

static const char *lnet_lnd_module(u32 type)
{
	switch (type) {
	case LNET_LND_SOCK:
		return "ksocklnd";
	case LNET_LND_O2IB:
		return "ko2iblnd";
	default:
		return NULL;
	}
}

static struct lnet_lnd *lnet_lnd_grab(u32 type)
{
	struct lnet_lnd *lnd;

	mutex_lock(&lnet_lnd_mutex);
	lnd = lnet_lnd_find(type);
	if (lnd && !try_module_get(lnd->owner))
		lnd = NULL;
	mutex_unlock(&lnet_lnd_mutex);
	return lnd;
}

/*
 * The LND for @type with a module reference, loading its module if need
 * be. The module registers its LND from its init, which must not wait for
 * a lock we hold: hence lnet_lnd_mutex rather than api_mutex, and no lock
 * across request_module().
 */
static struct lnet_lnd *lnet_lnd_get(u32 type)
{
	struct lnet_lnd *lnd = lnet_lnd_grab(type);
	const char *name = lnet_lnd_module(type);

	if (lnd || !name)
		return lnd;
	if (request_module("%s", name))
		return NULL;
	return lnet_lnd_grab(type);
}

/* ---- NIs -------------------------------------------------------------------- */

struct lnet_ni *lnet_ni_find_rcu(lnet_nid_t nid)
{
	struct lnet_ni *ni;

	list_for_each_entry_rcu(ni, &lnet_core.nis, list,
				lockdep_is_held(&lnet_core.net_lock) ||
				lockdep_is_held(&lnet_core.api_mutex))
		if (ni->nid == nid)
			return ni;
	return NULL;
}

/* After an NI came or went: do two of ours share a network? */
static void lnet_nets_shared_update_locked(void)
{
	struct lnet_ni *a, *b;
	bool shared = false;

	lockdep_assert_held(&lnet_core.net_lock);
	list_for_each_entry(a, &lnet_core.nis, list)
		list_for_each_entry(b, &lnet_core.nis, list)
			if (a != b && a != lnet_core.lo_ni &&
			    LNET_NIDNET(a->nid) == LNET_NIDNET(b->nid))
				shared = true;
	WRITE_ONCE(lnet_core.nets_shared, shared);
}

/* The first NI on @net that is not the loopback one. */
struct lnet_ni *lnet_ni_find_net_rcu(u32 net)
{
	struct lnet_ni *ni;

	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		if (LNET_NIDNET(ni->nid) == net && ni != lnet_core.lo_ni)
			return ni;
	return NULL;
}

bool lnet_nid_is_local(lnet_nid_t nid)
{
	bool local;

	rcu_read_lock();
	local = lnet_ni_find_rcu(nid);
	rcu_read_unlock();
	return local;
}

/**
 * lnet_ni_set_conns_per_peer() - net set --conns-per-peer
 * @nid: the NI; ignored with @all
 * @all: every NI whose LND has the setting
 * @value: 0 (the LND's default) .. LNET_IOCTL_CONNS_PER_PEER_MAX
 *
 * Return: 0, -EINVAL, -ENOENT (no such NI, or none with @all),
 * -EOPNOTSUPP (the NI's LND has one connection per peer).
 */
int lnet_ni_set_conns_per_peer(lnet_nid_t nid, bool all, unsigned int value)
{
	struct lnet_ni *ni;
	int rc = -ENOENT;

	if (value > LNET_IOCTL_CONNS_PER_PEER_MAX)
		return -EINVAL;
	mutex_lock(&lnet_core.api_mutex);
	list_for_each_entry(ni, &lnet_core.nis, list) {
		if (ni == lnet_core.lo_ni || (!all && ni->nid != nid))
			continue;
		if (!ni->lnd->set_conns_per_peer) {
			if (!all)
				rc = -EOPNOTSUPP;
			continue;
		}
		ni->lnd->set_conns_per_peer(ni, value);
		rc = 0;
	}
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/*
 * Slow-path calls into an LND (accept, ctl) that may race with the NI's
 * shutdown are bracketed by these: lnet_ni_call_begin() fails once the NI
 * is down, and lnet_ni_stop() waits for the calls in progress before it
 * calls shutdown(). (The data path uses lnet_core.lnd_srcu instead, which
 * keeps the counting per CPU.)
 */
bool lnet_ni_call_begin(struct lnet_ni *ni)
{
	atomic_inc(&ni->lnd_calls);
	smp_mb__after_atomic();	/* pairs with smp_mb() in lnet_ni_stop() */
	if (READ_ONCE(ni->state) == LNET_NI_STATE_UP)
		return true;
	lnet_ni_call_end(ni);
	return false;
}

void lnet_ni_call_end(struct lnet_ni *ni)
{
	if (atomic_dec_and_test(&ni->lnd_calls) &&
	    READ_ONCE(ni->state) != LNET_NI_STATE_UP)
		wake_up_var(&ni->lnd_calls);
}

static void lnet_ni_ref_release(struct percpu_ref *ref)
{
	struct lnet_ni *ni = container_of(ref, struct lnet_ni, ref);

	complete(&ni->ref_done);
}

static void lnet_ni_free(struct lnet_ni *ni)
{
	percpu_ref_exit(&ni->ref);
	free_percpu(ni->stats);
	kfree(ni->cpts);
	kfree(ni);
}

static struct lnet_ni *lnet_ni_alloc(struct lnet_lnd *lnd, u32 net_id,
				     const char *iface,
				     const struct lnet_net_config *cfg,
				     const struct lnet_ni_tunables *tun)
{
	struct lnet_ni *ni = kzalloc(sizeof(*ni), GFP_KERNEL);

	if (!ni)
		return NULL;
	atomic_set(&ni->healthv, LNET_MAX_HEALTH);
	ni->dev_node = NUMA_NO_NODE;
	ni->stats = lnet_ni_stats_alloc();
	if (!ni->stats)
		goto fail_free;
	if (percpu_ref_init(&ni->ref, lnet_ni_ref_release, 0, GFP_KERNEL))
		goto fail_stats;
	if (cfg && cfg->n_cpts) {
		ni->cpts = kmemdup(cfg->cpts, cfg->n_cpts * sizeof(u32),
				   GFP_KERNEL);
		if (!ni->cpts)
			goto fail_ref;
		ni->ncpts = cfg->n_cpts;
	}
	init_completion(&ni->ref_done);
	atomic_set(&ni->lnd_calls, 0);
	INIT_LIST_HEAD(&ni->list);
	INIT_LIST_HEAD(&ni->tx_queue);
	INIT_LIST_HEAD(&ni->recovery.list);
	ni->lnd = lnd;
	ni->nid = LNET_MKNID(net_id, 0);
	ni->state = LNET_NI_STATE_INIT;
	strscpy(ni->iface, iface, sizeof(ni->iface));
	if (tun) {
		ni->cfg_credits = tun->credits;
		ni->cfg_peer_credits = tun->peer_credits;
		ni->cfg_peer_rtr_credits = tun->peer_rtr_credits;
		ni->lnd_tunables = tun->lnd;
	} else {
		ni->lnd_tunables.tos = -1;
	}
	/* the LND's startup() may set its own defaults in their place */
	lnet_ni_set_credits(ni, lnet_credits, lnet_peer_credits);
	return ni;

fail_ref:
	percpu_ref_exit(&ni->ref);
fail_stats:
	free_percpu(ni->stats);
fail_free:
	kfree(ni);
	return NULL;
}

/*
 * Partition for @ni's traffic with @nid: when the NI was given a CPT list
 * (tcp0(eth0)[0,1]) its peers are hashed over that list only, so the LND's
 * threads and completions for the NI stay on the CPUs the admin chose.
 */
int lnet_ni_cpt_of_nid(const struct lnet_ni *ni, lnet_nid_t nid)
{
	if (!ni->ncpts)
		return lnet_cpt_of_nid(nid);
	return ni->cpts[hash_64(nid, 32) % ni->ncpts];
}
EXPORT_SYMBOL_GPL(lnet_ni_cpt_of_nid);

/* Start @ni and publish it; on error the caller frees it. */
static int lnet_ni_start(struct lnet_ni *ni)
{
	char buf[LNET_NIDSTR_SIZE];
	int rc;
	u32 i;

	lockdep_assert_held(&lnet_core.api_mutex);
	/* networks= is parsed before the table exists: check the list here */
	for (i = 0; i < ni->ncpts; i++) {
		if (ni->cpts[i] >= lnet_cpt_number()) {
			pr_err("%s: CPT %u does not exist (there are %d)\n",
			       lnet_net2str(LNET_NIDNET(ni->nid), buf,
					    sizeof(buf)),
			       ni->cpts[i], lnet_cpt_number());
			return -EINVAL;
		}
	}
	rc = ni->lnd->startup(ni);
	if (rc)
		return rc;

	spin_lock_bh(&lnet_core.net_lock);
	if (lnet_ni_find_rcu(ni->nid)) {
		spin_unlock_bh(&lnet_core.net_lock);
		ni->lnd->shutdown(ni);
		return -EEXIST;
	}
	ni->tx_credits = ni->max_tx_credits;
	ni->min_tx_credits = ni->max_tx_credits;
	WRITE_ONCE(ni->state, LNET_NI_STATE_UP);
	ni->last_pinged = jiffies;
	list_add_tail_rcu(&ni->list, &lnet_core.nis);
	lnet_core.nni++;
	lnet_nets_shared_update_locked();
	spin_unlock_bh(&lnet_core.net_lock);
	lnet_ni_link_seed(ni);
	return 0;
}

/*
 * Stop @ni and free it: no new sends, fail what waits for credits, drop
 * what waits on lazy portals, let the LND finalize what it holds, wait for
 * every message that used the NI to be gone.
 */
static void lnet_ni_stop(struct lnet_ni *ni)
{
	struct lnet_msg *msg, *tmp;
	LIST_HEAD(rtr_queued);
	LIST_HEAD(queued);

	lockdep_assert_held(&lnet_core.api_mutex);
	spin_lock_bh(&lnet_core.net_lock);
	WRITE_ONCE(ni->state, LNET_NI_STATE_DOWN);
	list_del_rcu(&ni->list);
	lnet_core.nni--;
	lnet_nets_shared_update_locked();
	list_splice_init(&ni->tx_queue, &queued);
	lnet_peers_del_ni(ni, &queued, &rtr_queued);
	spin_unlock_bh(&lnet_core.net_lock);
	lnet_router_ni_stop(ni, &rtr_queued);
	lnet_recovery_ni_stop(ni);
	smp_mb();	/* the state, before lnd_calls is read */
	synchronize_rcu();

	list_for_each_entry_safe(msg, tmp, &queued, list) {
		list_del_init(&msg->list);
		lnet_finalize(msg, -ESHUTDOWN);
	}
	lnet_ptl_drop_all_delayed(ni);
	lnet_fault_ni_stop(ni);
	/*
	 * Sends check the NI's state and call the LND inside lnd_srcu, and
	 * so do receives of PUTs taken off a lazy portal: after this grace
	 * period no such call is running or can start.
	 */
	synchronize_srcu(&lnet_core.lnd_srcu);
	wait_var_event(&ni->lnd_calls, !atomic_read(&ni->lnd_calls));
	ni->lnd->shutdown(ni);

	percpu_ref_kill(&ni->ref);
	wait_for_completion(&ni->ref_done);
	module_put(ni->lnd->owner);
	lnet_ni_free(ni);
}

/*
 * Start the NIs of one network (one per interface); api_mutex held. With
 * @join the network may already have NIs (adding one NI to it).
 */
static int __lnet_net_add(const struct lnet_net_config *cfg,
			  const struct lnet_ni_tunables *tun, bool join)
{
	u32 type = LNET_NETTYP(cfg->net_id);
	struct lnet_ni *started[LNET_MAX_NET_IFACES];
	char name[LNET_NETSTR_SIZE];
	int i, n = max(cfg->n_ifaces, 1);
	struct lnet_lnd *lnd;
	struct lnet_ni *ni;
	bool exists;
	int rc = 0;

	lockdep_assert_held(&lnet_core.api_mutex);
	if (type == LNET_LND_LO)
		return 0;	/* always there */
	if (n > LNET_MAX_NET_IFACES)
		return -EINVAL;
	rcu_read_lock();
	exists = lnet_ni_find_net_rcu(cfg->net_id);
	rcu_read_unlock();
	if (exists && !join)
		return -EEXIST;

	lnet_net2str(cfg->net_id, name, sizeof(name));
	lnd = lnet_lnd_get(type);
	if (!lnd) {
		pr_err("no LND for network %s\n", name);
		return -EPROTONOSUPPORT;
	}
	for (i = 0; i < n; i++) {
		if (i)
			__module_get(lnd->owner);	/* one per NI */
		ni = lnet_ni_alloc(lnd, cfg->net_id,
				   cfg->n_ifaces ? cfg->ifaces[i] : "", cfg,
				   tun);
		rc = ni ? lnet_ni_start(ni) : -ENOMEM;
		if (rc) {
			if (ni)
				lnet_ni_free(ni);
			module_put(lnd->owner);
			pr_err("cannot start network %s%s%s: %d\n",
			       name, n > 1 || cfg->n_ifaces ? " on " : "",
			       cfg->n_ifaces ? cfg->ifaces[i] : "", rc);
			while (i--)
				lnet_ni_stop(started[i]);
			return rc;
		}
		started[i] = ni;
	}
	return 0;
}

/**
 * lnet_net_add() - bring up a network while LNet is running
 * @cfg: the network and its interfaces
 * @tun: credits for its NIs, or NULL for the module parameters
 *
 * Return: 0, -EEXIST, -EPROTONOSUPPORT (no LND), -ENETDOWN, or the LND's
 * error.
 */
int lnet_net_add(const struct lnet_net_config *cfg,
		 const struct lnet_ni_tunables *tun)
{
	int rc = -ENETDOWN;

	mutex_lock(&lnet_core.api_mutex);
	if (lnet_is_running()) {
		rc = __lnet_net_add(cfg, tun, false);
		if (!rc)
			lnet_ping_target_update();
	}
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_net_add);

/**
 * lnet_ni_add() - bring up one NI, on a new network or beside its NIs
 * @cfg: the network, at most one interface ("" or none: the LND's choice)
 * @tun: credits for the NI, or NULL for the module parameters
 * @nid: set to the new NI's NID
 *
 * Return: 0, -EEXIST (that interface or NID is up already), -EINVAL,
 * -EPROTONOSUPPORT (no LND), -ENETDOWN, or the LND's error.
 */
int lnet_ni_add(const struct lnet_net_config *cfg,
		const struct lnet_ni_tunables *tun, lnet_nid_t *nid)
{
	const char *iface = cfg->n_ifaces ? cfg->ifaces[0] : "";
	struct lnet_ni *ni;
	int rc = -ENETDOWN;

	if (cfg->n_ifaces > 1)
		return -EINVAL;
	mutex_lock(&lnet_core.api_mutex);
	if (!lnet_is_running())
		goto out;
	list_for_each_entry(ni, &lnet_core.nis, list) {
		if (LNET_NIDNET(ni->nid) == cfg->net_id &&
		    !strcmp(ni->iface, iface)) {
			rc = -EEXIST;
			goto out;
		}
	}
	rc = __lnet_net_add(cfg, tun, true);
	if (rc)
		goto out;
	/* the newest NI of the net on that interface is ours */
	list_for_each_entry(ni, &lnet_core.nis, list)
		if (LNET_NIDNET(ni->nid) == cfg->net_id &&
		    !strcmp(ni->iface, iface))
			*nid = ni->nid;
	lnet_ping_target_update();
out:
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_ni_add);

/**
 * lnet_ni_del() - take one NI down while LNet is running
 * @nid: its NID (not 0@lo)
 *
 * Return: 0, -EINVAL for 0@lo, or -ENOENT.
 */
int lnet_ni_del(lnet_nid_t nid)
{
	struct lnet_ni *ni;
	int rc = -ENOENT;

	if (LNET_NETTYP(LNET_NIDNET(nid)) == LNET_LND_LO)
		return -EINVAL;
	mutex_lock(&lnet_core.api_mutex);
	list_for_each_entry(ni, &lnet_core.nis, list) {
		if (ni->nid == nid) {
			lnet_ni_stop(ni);
			lnet_ping_target_update();
			rc = 0;
			break;
		}
	}
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/**
 * lnet_net_del() - take a network down while LNet is running
 * @net_id: the network
 *
 * Return: 0 or -ENOENT.
 */
int lnet_net_del(u32 net_id)
{
	struct lnet_ni *ni, *tmp;
	int rc = -ENOENT;

	if (LNET_NETTYP(net_id) == LNET_LND_LO)
		return -EINVAL;
	mutex_lock(&lnet_core.api_mutex);
	list_for_each_entry_safe(ni, tmp, &lnet_core.nis, list) {
		if (LNET_NIDNET(ni->nid) != net_id)
			continue;
		lnet_ni_stop(ni);
		rc = 0;
	}
	if (!rc)
		lnet_ping_target_update();
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_net_del);

/* A test's handle on an NI: holds its memory, not its life. */
struct lnet_ni *lnet_ni_get_by_nid(lnet_nid_t nid)
{
	struct lnet_ni *ni;

	rcu_read_lock();
	ni = lnet_ni_find_rcu(nid);
	if (ni && !percpu_ref_tryget_live(&ni->ref))
		ni = NULL;
	rcu_read_unlock();
	return ni;
}
LNET_EXPORT_FOR_TEST(lnet_ni_get_by_nid);

void lnet_ni_put(struct lnet_ni *ni)
{
	percpu_ref_put(&ni->ref);
}
LNET_EXPORT_FOR_TEST(lnet_ni_put);

/* ---- bring-up and shutdown ---------------------------------------------------- */

static void lnet_shutdown(void)
{
	struct lnet_ni *ni, *tmp;
	unsigned int nme, nmd, neq;

	lockdep_assert_held(&lnet_core.api_mutex);
	WRITE_ONCE(lnet_core.state, LNET_STATE_STOPPING);
	/* messages waiting for discovery fail while their NIs are up */
	lnet_discovery_stop();
	lnet_recovery_stop();
	lnet_routes_clear();

	/* newest first; the loopback NI, which carries local traffic, last */
	list_for_each_entry_safe_reverse(ni, tmp, &lnet_core.nis, list)
		if (ni != lnet_core.lo_ni)
			lnet_ni_stop(ni);
	lnet_routes_fini();
	/* no REPLY can still be reading the ping info on a network now */
	lnet_ping_target_fini();
	if (lnet_core.lo_ni)
		lnet_ni_stop(lnet_core.lo_ni);
	lnet_core.lo_ni = NULL;
	lnet_recovery_fini();
	lnet_fault_clear();
	lnet_nodes_clear();

	/* every message held an NI reference, and they are all gone */
	WARN_ON(percpu_counter_sum(&lnet_core.msg_count));
	lnet_router_stop();
	lnet_md_rsp_stop();
	lnet_md_slots_quiesce();
	nme = lnet_ptl_cleanup();
	nmd = lnet_md_cleanup();
	neq = lnet_eq_cleanup();
	if (nme || nmd || neq)
		pr_warn("freed %u MEs, %u MDs and %u EQs left behind at shutdown\n",
			nme, nmd, neq);
	WRITE_ONCE(lnet_core.state, LNET_STATE_DOWN);
}

/*
 * The networks the ip2nets= rules choose on this node now, as networks=
 * would list them: one config per network, with the interfaces chosen for
 * it in rule order.
 */
static int lnet_ip2nets_param_configs(struct list_head *nets)
{
	struct lnet_ip2nets_ni *sel;
	struct lnet_net_config *cfg;
	int nsel, i, rc = 0;

	sel = kcalloc(LNET_IP2NETS_MAX_IFS, sizeof(*sel), GFP_KERNEL);
	if (!sel)
		return -ENOMEM;
	nsel = lnet_ip2nets_local(lnet_ip2nets, sel, LNET_IP2NETS_MAX_IFS);
	if (nsel <= 0) {
		pr_err("ip2nets=\"%s\": %s\n", lnet_ip2nets,
		       nsel ? "more matching interfaces than LNet takes" :
			      "no rule matches an IPv4 address of this node");
		rc = nsel ?: -EADDRNOTAVAIL;
		goto out;
	}
	for (i = 0; i < nsel; i++) {
		bool found = false;

		list_for_each_entry(cfg, nets, list) {
			if (cfg->net_id == sel[i].net) {
				found = true;
				break;
			}
		}
		if (!found) {
			cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
			if (!cfg) {
				rc = -ENOMEM;
				goto out;
			}
			cfg->net_id = sel[i].net;
			list_add_tail(&cfg->list, nets);
		}
		if (cfg->n_ifaces == LNET_MAX_NET_IFACES) {
			pr_err("ip2nets=\"%s\": more than %d interfaces for one network\n",
			       lnet_ip2nets, LNET_MAX_NET_IFACES);
			rc = -E2BIG;
			goto out;
		}
		strscpy(cfg->ifaces[cfg->n_ifaces++], sel[i].ifname, IFNAMSIZ);
	}
out:
	kfree(sel);
	if (rc)
		lnet_free_net_configs(nets);
	return rc;
}

/*
 * Bring up what the networks= (or ip2nets=) and routes= module parameters
 * describe (all were checked at load); api_mutex held. @skip_existing:
 * LNet is running already, leave the networks that are up alone.
 */
static int lnet_mod_config_apply(bool skip_existing)
{
	struct lnet_net_config *cfg;
	LIST_HEAD(nets);
	char err[128];
	bool exists;
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	if (lnet_ip2nets[0]) {
		rc = lnet_ip2nets_param_configs(&nets);
		if (rc)
			return rc;
	} else {
		rc = lnet_parse_networks(lnet_networks, &nets, err,
					 sizeof(err));
		if (rc) {
			pr_err("networks=\"%s\": %s\n", lnet_networks, err);
			return rc;
		}
	}
	list_for_each_entry(cfg, &nets, list) {
		rcu_read_lock();
		exists = lnet_ni_find_net_rcu(cfg->net_id);
		rcu_read_unlock();
		if (exists && skip_existing)
			continue;
		rc = __lnet_net_add(cfg, NULL, false);
		if (rc)
			break;
		/* answer pings that come as soon as the NI is up */
		lnet_ping_target_update();
	}
	lnet_free_net_configs(&nets);
	return rc ?: lnet_routes_apply_param();
}

static int lnet_startup(lnet_pid_t pid, bool mod_config)
{
	struct lnet_ni *ni;
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	lnet_core.pid = pid == LNET_PID_ANY ? LNET_PID_LUSTRE : pid;
	/* stale REPLY/ACK handles from an earlier bring-up must not match */
	lnet_core.interface_cookie = ktime_get_real_ns();
	if (lnet_core.interface_cookie == LNET_WIRE_HANDLE_COOKIE_NONE)
		lnet_core.interface_cookie--;
	WRITE_ONCE(lnet_core.state, LNET_STATE_RUNNING);

	ni = lnet_ni_alloc(&lnet_lo_lnd, LNET_MKNET(LNET_LND_LO, 0), "", NULL,
			   NULL);
	if (!ni) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = lnet_ni_start(ni);
	if (rc) {
		lnet_ni_free(ni);
		goto fail;
	}
	lnet_core.lo_ni = ni;

	rc = lnet_routes_start();
	if (rc)
		goto fail;
	/*
	 * The ping target goes up before the networks do: a peer's ping (a
	 * router checker's) that arrives as soon as an NI is up gets an
	 * answer instead of waiting for transaction_timeout.
	 */
	rc = lnet_ping_target_init();
	if (rc)
		goto fail;
	rc = lnet_discovery_start();
	if (rc)
		goto fail;
	rc = lnet_router_start();	/* forwarding=enabled */
	if (rc)
		goto fail;
	if (mod_config) {
		rc = lnet_mod_config_apply(false);
		if (rc)
			goto fail;
	}
	rc = lnet_router_start();	/* routes= naming a local NID */
	if (rc)
		goto fail;
	lnet_ping_target_update();
	rc = lnet_recovery_start();
	if (rc)
		goto fail;
	lnet_routes_wait_checked();
	return 0;

fail:
	lnet_shutdown();
	return rc;
}

/*
 * Module unload: every in-kernel user should have called LNetNIFini()
 * (they cannot unload before us, they use our symbols); tidy up if not.
 */
void lnet_shutdown_all(void)
{
	mutex_lock(&lnet_core.api_mutex);
	if (WARN_ON(lnet_core.refcount)) {
		lnet_core.refcount = 0;
		lnet_shutdown();
	}
	mutex_unlock(&lnet_core.api_mutex);
}

/**
 * LNetNIInit() - bring LNet up for this caller
 * @requested_pid: the LNet pid, LNET_PID_ANY for the default (12345); only
 *	the first caller's choice counts
 *
 * Reference counted; each successful call needs an LNetNIFini().
 *
 * Return: 0 or -errno.
 */
int LNetNIInit(lnet_pid_t requested_pid)
{
	int rc = 0;

	mutex_lock(&lnet_core.api_mutex);
	if (!lnet_core.refcount)
		rc = lnet_startup(requested_pid, true);
	if (!rc)
		lnet_core.refcount++;
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetNIInit);

/**
 * lnet_ni_init_config() - LNetNIInit() for the configuration interface
 * @mod_config: also bring up the networks=/routes= parameters (bring-up
 *	when LNet is down, or the networks missing when it is running)
 * @take_ref: take a reference (else the caller holds one already)
 *
 * Return: 0 or -errno (no reference taken then).
 */
int lnet_ni_init_config(bool mod_config, bool take_ref)
{
	int rc = 0;

	mutex_lock(&lnet_core.api_mutex);
	if (!lnet_core.refcount) {
		rc = take_ref ? lnet_startup(LNET_PID_LUSTRE, mod_config) :
				-ENETDOWN;
	} else if (mod_config) {
		rc = lnet_mod_config_apply(true);
		lnet_ping_target_update();
	}
	if (!rc && take_ref)
		lnet_core.refcount++;
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/**
 * lnet_ni_fini_last() - drop a reference only if it is the last one
 *
 * Return: 0 (LNet is down now), -EBUSY while other users hold LNet, or
 * -ENETDOWN if nobody does.
 */
int lnet_ni_fini_last(void)
{
	int rc = 0;

	mutex_lock(&lnet_core.api_mutex);
	if (!lnet_core.refcount) {
		rc = -ENETDOWN;
	} else if (lnet_core.refcount > 1) {
		rc = -EBUSY;
	} else {
		lnet_core.refcount = 0;
		lnet_shutdown();
	}
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/**
 * lnet_ni_hold() - a reference on LNet if it is running (never starts it)
 *
 * Return: 0 (drop it with LNetNIFini()) or -ENETDOWN.
 */
int lnet_ni_hold(void)
{
	int rc = -ENETDOWN;

	mutex_lock(&lnet_core.api_mutex);
	if (lnet_core.refcount && lnet_is_running()) {
		lnet_core.refcount++;
		rc = 0;
	}
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

/**
 * LNetNIFini() - drop the caller's reference; the last one stops LNet
 *
 * Return: 0, or -ENETDOWN if there was no reference.
 */
int LNetNIFini(void)
{
	int rc = 0;

	mutex_lock(&lnet_core.api_mutex);
	if (!lnet_core.refcount)
		rc = -ENETDOWN;
	else if (!--lnet_core.refcount)
		lnet_shutdown();
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetNIFini);

/**
 * LNetGetId() - the local process ids
 * @index: 0 is 0@lo, then the NIs in the order they came up
 * @id: the id
 *
 * Return: 0, -ENOENT past the end, or -ENETDOWN.
 */
int LNetGetId(unsigned int index, struct lnet_process_id *id)
{
	struct lnet_ni *ni;
	unsigned int i = 0;
	int rc = -ENOENT;

	if (!id)
		return -EINVAL;
	rcu_read_lock();
	if (!lnet_is_running()) {
		rc = -ENETDOWN;
		goto out;
	}
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (i++ == index) {
			id->nid = ni->nid;
			id->pid = lnet_core.pid;
			rc = 0;
			break;
		}
	}
out:
	rcu_read_unlock();
	return rc;
}
EXPORT_SYMBOL_GPL(LNetGetId);

/**
 * LNetDist() - how far a NID is
 * @nid: the NID
 * @srcnid: if not NULL, the local NID used to reach it
 * @order: if not NULL, that NI's LNetGetId() index
 *
 * Return: 0 for a local NID, 1 for a directly reachable one, hops + 1 for
 * one reached through gateways (the fewest hops of the routes to its
 * network, an unspecified count being 1; @srcnid and @order then name the
 * first NI, as no NI is chosen before a gateway is), -EHOSTUNREACH, or
 * -ENETDOWN.
 */
int LNetDist(lnet_nid_t nid, lnet_nid_t *srcnid, u32 *order)
{
	struct lnet_ni *ni, *best = NULL;
	u32 i = 0, best_i = 0;
	int rc = -EHOSTUNREACH;

	rcu_read_lock();
	if (!lnet_is_running()) {
		rcu_read_unlock();
		return -ENETDOWN;
	}
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (ni->nid == nid) {
			best = ni;
			best_i = i;
			rc = 0;
			break;
		}
		if (!best && ni != lnet_core.lo_ni &&
		    LNET_NIDNET(ni->nid) == LNET_NIDNET(nid)) {
			best = ni;
			best_i = i;
			rc = 1;
		}
		i++;
	}
	if (!best) {
		i = lnet_route_hops_rcu(LNET_NIDNET(nid));
		if (i)
			rc = i + 1;
	}
	if (best) {
		if (srcnid)
			*srcnid = best->nid;
		if (order)
			*order = best_i;
	}
	rcu_read_unlock();
	return rc;
}
EXPORT_SYMBOL_GPL(LNetDist);

/**
 * LNetCtl() - a /dev/lnet command from inside the kernel
 * @cmd: the ioctl command (LNET_IOC_*)
 * @arg: its argument in kernel memory, starting with struct lnet_ioctl_hdr
 *	and ioc_len bytes long
 *
 * The same commands and checks as the ioctl, without the capability
 * check; commands that carry user-space pointers (PING_PEER) are refused.
 *
 * Return: 0 or -errno, as the ioctl.
 */
int LNetCtl(unsigned int cmd, void *arg)
{
	return lnet_ioctl_kernel(cmd, arg);
}
EXPORT_SYMBOL_GPL(LNetCtl);
