// SPDX-License-Identifier: GPL-2.0
/*
 * lnet.ko: module parameters, load and unload.
 *
 * Loading sets up what lives as long as the module (CPU partitions,
 * portals, MD lock slots, handle tables, debugfs); LNet itself comes up
 * with the first LNetNIInit(), or at load with config_on_load=1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

char *lnet_networks = "";
module_param_named(networks, lnet_networks, charp, 0444);
MODULE_PARM_DESC(networks,
		 "networks to bring up, e.g. \"tcp0(eth0),o2ib(ib0)\"; empty: 0@lo only");

static int config_on_load;
module_param(config_on_load, int, 0444);
MODULE_PARM_DESC(config_on_load, "bring LNet up when the module loads (0/1)");

unsigned int lnet_md_lock_slots;
module_param_named(md_lock_slots, lnet_md_lock_slots, uint, 0444);
LNET_EXPORT_FOR_TEST(lnet_md_lock_slots);
MODULE_PARM_DESC(md_lock_slots,
		 "MD lock slots, rounded up to a power of 2 (0: one per possible CPU; 1: a single lock)");

int lnet_credits = 256;
module_param_named(credits, lnet_credits, int, 0444);
MODULE_PARM_DESC(credits, "messages in flight per NI");

int lnet_peer_credits = 8;
module_param_named(peer_credits, lnet_peer_credits, int, 0444);
MODULE_PARM_DESC(peer_credits, "messages in flight per peer");

/*
 * Not from the module's init: bringing up a network may load an LND module,
 * which cannot finish loading before lnet.ko has. Takes the same
 * "configured" reference as "lnetctl lnet configure --all" (ioctl.c), so
 * "lnetctl lnet unconfigure" undoes it.
 */
static void lnet_configure_on_load(struct work_struct *work)
{
	int rc = lnet_configure(true);

	if (rc)
		pr_err("config_on_load: cannot bring LNet up (%s=\"%s\"): %d\n",
		       lnet_ip2nets[0] ? "ip2nets" : "networks",
		       lnet_ip2nets[0] ? lnet_ip2nets : lnet_networks, rc);
}
static DECLARE_WORK(lnet_configure_work, lnet_configure_on_load);

static struct lock_class_key lnet_net_lock_key;

static int __init lnet_init(void)
{
	int rc;

	rc = lnet_params_check();	/* networks=, routes=, forwarding= */
	if (rc)
		return rc;
	mutex_init(&lnet_core.api_mutex);
	spin_lock_init(&lnet_core.net_lock);
	lockdep_set_class_and_name(&lnet_core.net_lock, &lnet_net_lock_key,
				   "lnet_net");
	INIT_LIST_HEAD(&lnet_core.nis);
	LNetInvalidateEQHandle(&lnet_core.ping.eqh);
	lnet_fault_init();

	rc = lnet_cpt_init();
	if (rc)
		return rc;
	rc = init_srcu_struct(&lnet_core.lnd_srcu);
	if (rc)
		goto fail_cpt;
	rc = percpu_counter_init(&lnet_core.msg_count, 0, GFP_KERNEL);
	if (rc)
		goto fail_srcu;
	rc = -ENOMEM;
	lnet_core.counters = lnet_counters_alloc();
	if (!lnet_core.counters)
		goto fail_msg_count;
	rc = lnet_msg_cache_init();
	if (rc)
		goto fail_counters;
	rc = lnet_me_cache_init();
	if (rc)
		goto fail_msg;
	rc = lnet_portals_init();
	if (rc)
		goto fail_me;
	rc = lnet_md_slots_init();
	if (rc)
		goto fail_portals;
	rc = lnet_eq_table_init();
	if (rc)
		goto fail_slots;
	rc = lnet_peers_init();
	if (rc)
		goto fail_eq;
	rc = lnet_nodes_init();
	if (rc)
		goto fail_peers;
	rc = lnet_discovery_init();
	if (rc)
		goto fail_nodes;
	rc = lnet_register_lnd(&lnet_lo_lnd);
	if (rc)
		goto fail_discovery;
	lnet_debugfs_init();
	rc = lnet_link_init();
	if (rc)
		goto fail_lo;
	rc = lnet_dev_init();
	if (rc)
		goto fail_link;
	if (config_on_load)
		schedule_work(&lnet_configure_work);
	return 0;

fail_link:
	lnet_link_fini();
fail_lo:
	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lo_lnd);
fail_discovery:
	lnet_discovery_fini();
fail_nodes:
	lnet_nodes_fini();
fail_peers:
	lnet_peers_fini();
fail_eq:
	lnet_eq_table_fini();
fail_slots:
	lnet_md_slots_fini();
fail_portals:
	lnet_portals_fini();
fail_me:
	lnet_me_cache_fini();
fail_msg:
	lnet_msg_cache_fini();
fail_counters:
	free_percpu(lnet_core.counters);
fail_msg_count:
	percpu_counter_destroy(&lnet_core.msg_count);
fail_srcu:
	cleanup_srcu_struct(&lnet_core.lnd_srcu);
fail_cpt:
	lnet_cpt_fini();
	return rc;
}

static void __exit lnet_exit(void)
{
	flush_work(&lnet_configure_work);
	lnet_dev_fini();
	lnet_shutdown_all();
	lnet_link_fini();
	lnet_fault_fini();
	lnet_resend_fini();
	lnet_ping_status_flush();
	lnet_credits_fini();

	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lo_lnd);
	lnet_discovery_fini();
	lnet_nodes_fini();
	lnet_peers_fini();
	lnet_eq_table_fini();
	lnet_md_slots_fini();
	lnet_portals_fini();
	lnet_me_cache_fini();
	lnet_msg_cache_fini();
	free_percpu(lnet_core.counters);
	percpu_counter_destroy(&lnet_core.msg_count);
	cleanup_srcu_struct(&lnet_core.lnd_srcu);
	lnet_cpt_fini();
}

module_init(lnet_init);
module_exit(lnet_exit);
MODULE_DESCRIPTION("LNet, the Lustre network message layer");
MODULE_LICENSE("GPL");
