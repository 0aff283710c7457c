// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/lnet: stats, nis, peers, routes and routers in the
 * column formats of Lustre's files of those names (which monitoring
 * scripts parse; writing to stats resets the counters), the same objects
 * with this LNet's own fields as stats_detail, nis_detail and
 * peers_detail, the router buffer pools, and the CPU partition table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/wire.h>

/*
 * One line: msgs_alloc msgs_max errors send_count recv_count route_count
 * drop_count send_length recv_length route_length drop_length.
 */
static int lnet_stats_show(struct seq_file *m, void *v)
{
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	seq_printf(m, "%lld %lld %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		   percpu_counter_sum(&lnet_core.msg_count),
		   READ_ONCE(lnet_core.msg_max), sum.errors,
		   sum.send_count, sum.recv_count, sum.route_count,
		   sum.drop_count, sum.send_length, sum.recv_length,
		   sum.route_length, sum.drop_length);
	return 0;
}

static int lnet_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, lnet_stats_show, inode->i_private);
}

/* Any write resets the counters, as "lnetctl stats reset" does. */
static ssize_t lnet_stats_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	lnet_counters_reset();
	return count;
}

static const struct file_operations lnet_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= lnet_stats_open,
	.read		= seq_read,
	.write		= lnet_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * nid status alive refs peer rtr max tx min: one row per NI (one credit
 * pool each). status as the ping info says it; alive the seconds since a
 * node pinged the NI while we forward, else -1 (0 for lo); refs 0 (NI
 * references are per-CPU and not summed); rtr the router credits a peer
 * of the NI starts with.
 */
static int lnet_nis_show(struct seq_file *m, void *v)
{
	char nid[LNET_NIDSTR_SIZE];
	struct lnet_ni *ni;

	seq_printf(m, "%-24s %6s %5s %4s %4s %4s %5s %5s %5s\n", "nid",
		   "status", "alive", "refs", "peer", "rtr", "max", "tx", "min");
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		bool lo = ni == lnet_core.lo_ni;
		int credits, min_credits;

		spin_lock_bh(&lnet_core.net_lock);
		credits = ni->tx_credits;
		min_credits = ni->min_tx_credits;
		spin_unlock_bh(&lnet_core.net_lock);
		seq_printf(m, "%-24s %6s %5ld %4d %4d %4d %5d %5d %5d\n",
			   lnet_nid2str(ni->nid, nid, sizeof(nid)),
			   lo || (ni->state == LNET_NI_STATE_UP &&
				  !lnet_ni_says_down(ni)) ? "up" : "down",
			   lo ? 0 : lnet_router_last_pinged(ni), 0,
			   ni->peer_tx_credits,
			   lo ? 0 : lnet_peer_rtr_credits(ni),
			   ni->max_tx_credits, credits, min_credits);
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_nis);

/*
 * pages count credits min: one row per router buffer pool (tiny, small,
 * large for each CPT in turn); only the header on a node that does not
 * forward.
 */
static int lnet_buffers_show(struct seq_file *m, void *v)
{
	int cpt, pool, npages, nbuffers, credits, min_credits;

	seq_printf(m, "%5s %5s %7s %7s\n", "pages", "count", "credits", "min");
	for (cpt = 0; cpt < lnet_cpt_number(); cpt++)
		for (pool = 0; !lnet_rtrpool_state(cpt, pool, &npages,
						    &nbuffers, &credits,
						    &min_credits); pool++)
			seq_printf(m, "%5d %5d %7d %7d\n", npages, nbuffers,
				   credits, min_credits);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_buffers);

/*
 * nid refs state last max rtr min tx min queue: state NA and last -1
 * (peer aliveness is not tracked), rtr and its min the router credits
 * (router.c), queue the bytes waiting for a send credit (headers
 * included).
 */
static int lnet_peers_show(struct seq_file *m, void *v)
{
	char nid[LNET_NIDSTR_SIZE];
	struct lnet_peer *peer;
	struct lnet_msg *msg;
	unsigned long queued;

	seq_printf(m, "%-24s %4s %5s %5s %5s %5s %5s %5s %5s %s\n", "nid",
		   "refs", "state", "last", "max", "rtr", "min", "tx", "min",
		   "queue");
	spin_lock_bh(&lnet_core.net_lock);
	list_for_each_entry(peer, &lnet_core.peer_list, list) {
		queued = 0;
		list_for_each_entry(msg, &peer->tx_queue, list)
			queued += LNET_HDR_NID4_SIZE + msg->len;
		seq_printf(m, "%-24s %4u %5s %5d %5d %5d %5d %5d %5d %lu\n",
			   lnet_nid2str(peer->nid, nid, sizeof(nid)),
			   kref_read(&peer->kref), "NA", -1,
			   peer->max_tx_credits, peer->rtr_credits,
			   peer->min_rtr_credits, peer->tx_credits,
			   peer->min_tx_credits, queued);
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_peers);

static int lnet_stats_detail_show(struct seq_file *m, void *v)
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
DEFINE_SHOW_ATTRIBUTE(lnet_stats_detail);

static int lnet_nis_detail_show(struct seq_file *m, void *v)
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
DEFINE_SHOW_ATTRIBUTE(lnet_nis_detail);

static int lnet_peers_detail_show(struct seq_file *m, void *v)
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
DEFINE_SHOW_ATTRIBUTE(lnet_peers_detail);

/*
 * Whether this node forwards, then one line per route: net, hops (-1:
 * unspecified), priority, up/down, gateway.
 */
static int lnet_routes_show(struct seq_file *m, void *v)
{
	char net[LNET_NETSTR_SIZE], gw[LNET_NIDSTR_SIZE];
	struct lnet_route_info r;
	unsigned int i;

	seq_printf(m, "Routing %s\n",
		   lnet_routing_wanted() ? "enabled" : "disabled");
	seq_printf(m, "%-8s %4s %8s %7s %s\n", "net", "hops", "priority",
		   "state", "router");
	mutex_lock(&lnet_core.api_mutex);
	for (i = 0; !lnet_route_get(i, &r); i++)
		seq_printf(m, "%-8s %4d %8u %7s %s\n",
			   lnet_net2str(r.net, net, sizeof(net)), r.hops,
			   r.priority, r.alive ? "up" : "down",
			   lnet_nid2str(r.gateway, gw, sizeof(gw)));
	mutex_unlock(&lnet_core.api_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_routes);

/* One line per gateway: references, routes through it, up/down, NID. */
static int lnet_routers_show(struct seq_file *m, void *v)
{
	char nid[LNET_NIDSTR_SIZE];
	struct lnet_gateway_info gi;
	unsigned int i;

	seq_printf(m, "%-4s %7s %5s %s\n", "ref", "rtr_ref", "alive",
		   "router");
	mutex_lock(&lnet_core.api_mutex);
	for (i = 0; !lnet_gateway_get_info(i, &gi); i++)
		seq_printf(m, "%-4u %7u %5s %s\n", gi.refs, gi.nroutes,
			   gi.alive ? "up" : "down",
			   lnet_nid2str(gi.nid, nid, sizeof(nid)));
	mutex_unlock(&lnet_core.api_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_routers);

void lnet_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("lnet", NULL);

	lnet_core.debugfs = dir;
	debugfs_create_file("stats", 0644, dir, NULL, &lnet_stats_fops);
	debugfs_create_file("buffers", 0444, dir, NULL, &lnet_buffers_fops);
	debugfs_create_file("nis", 0444, dir, NULL, &lnet_nis_fops);
	debugfs_create_file("peers", 0444, dir, NULL, &lnet_peers_fops);
	debugfs_create_file("routes", 0444, dir, NULL, &lnet_routes_fops);
	debugfs_create_file("routers", 0444, dir, NULL, &lnet_routers_fops);
	debugfs_create_file("stats_detail", 0444, dir, NULL,
			    &lnet_stats_detail_fops);
	debugfs_create_file("nis_detail", 0444, dir, NULL,
			    &lnet_nis_detail_fops);
	debugfs_create_file("peers_detail", 0444, dir, NULL,
			    &lnet_peers_detail_fops);
	lnet_cpt_debugfs_init(dir);
}

void lnet_debugfs_fini(void)
{
	debugfs_remove_recursive(lnet_core.debugfs);
	lnet_core.debugfs = NULL;
}
