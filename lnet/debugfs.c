// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/lnet: stats (global counters), nis, peers, and the CPU
 * partition table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>

static int lnet_stats_show(struct seq_file *m, void *v)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	seq_printf(m, "msgs_alloc: %lld\n",
		   percpu_counter_sum(&lnet_core.msg_count));
	seq_printf(m, "msgs_max: %lld\n", READ_ONCE(lnet_core.msg_max));
	seq_printf(m, "errors: %llu\n", sum.errors);
	seq_printf(m, "send_count: %llu\n", sum.send_count);
	seq_printf(m, "send_length: %llu\n", sum.send_length);
	seq_printf(m, "recv_count: %llu\n", sum.recv_count);
	seq_printf(m, "recv_length: %llu\n", sum.recv_length);
	seq_printf(m, "drop_count: %llu\n", sum.drop_count);
	seq_printf(m, "drop_length: %llu\n", sum.drop_length);
	seq_printf(m, "rst_alloc: %llu\n", lnet_md_rsp_tracked());
	seq_printf(m, "response_timeout_count: %llu\n",
		   sum.response_timeout_count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_stats);

static int lnet_nis_show(struct seq_file *m, void *v)
{
	char nid[LNET_NIDSTR_SIZE];
	struct lnet_ni_stats st;
	struct lnet_ni *ni;

	seq_puts(m, "nid status iface credits max min peer_credits send recv drop\n");
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		int credits, min_credits;

		spin_lock_bh(&lnet_core.net_lock);
		credits = ni->tx_credits;
		min_credits = ni->min_tx_credits;
		spin_unlock_bh(&lnet_core.net_lock);
		lnet_ni_stats_sum(ni, &st);
		seq_printf(m, "%s %s %s %d %d %d %d %llu %llu %llu\n",
			   lnet_nid2str(ni->nid, nid, sizeof(nid)),
			   ni->state == LNET_NI_STATE_UP ? "up" : "down",
			   ni->iface[0] ? ni->iface : "-", credits,
			   ni->max_tx_credits, min_credits,
			   ni->peer_tx_credits, st.send_count, st.recv_count,
			   st.drop_count);
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_nis);

static int lnet_peers_show(struct seq_file *m, void *v)
{
	char nid[LNET_NIDSTR_SIZE], ni[LNET_NIDSTR_SIZE];
	struct lnet_peer *peer;

	seq_puts(m, "nid ni refs credits max min sent\n");
	spin_lock_bh(&lnet_core.net_lock);
	list_for_each_entry(peer, &lnet_core.peer_list, list)
		seq_printf(m, "%s %s %u %d %d %d %llu\n",
			   lnet_nid2str(peer->nid, nid, sizeof(nid)),
			   lnet_nid2str(peer->ni->nid, ni, sizeof(ni)),
			   kref_read(&peer->kref), peer->tx_credits,
			   peer->max_tx_credits, peer->min_tx_credits,
			   peer->send_count);
	spin_unlock_bh(&lnet_core.net_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_peers);

void lnet_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("lnet", NULL);

	lnet_core.debugfs = dir;
	debugfs_create_file("stats", 0444, dir, NULL, &lnet_stats_fops);
	debugfs_create_file("nis", 0444, dir, NULL, &lnet_nis_fops);
	debugfs_create_file("peers", 0444, dir, NULL, &lnet_peers_fops);
	lnet_cpt_debugfs_init(dir);
}

void lnet_debugfs_fini(void)
{
	debugfs_remove_recursive(lnet_core.debugfs);
	lnet_core.debugfs = NULL;
}
