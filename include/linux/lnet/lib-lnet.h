/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions shared between the files of lnet.ko. Not for LNDs (they use
 * <linux/lnet/lnd.h>) nor for clients (<linux/lnet/api.h>).
 */
#ifndef _LINUX_LNET_LIB_LNET_H
#define _LINUX_LNET_LIB_LNET_H

#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <uapi/linux/lnet/lnet-ioctl.h>
#include <linux/lnet/config.h>
#include <linux/lnet/lib-types.h>
#include <linux/lnet/lnd.h>

/* module parameters (module.c) */
extern char *lnet_networks;
extern char *lnet_ip2nets;
extern int lnet_credits;
extern int lnet_peer_credits;
extern unsigned int lnet_md_lock_slots;

/*
 * tunables.c: the global tunables ("lnetctl global show", "lnetctl set"),
 * module parameters range-checked on every write; read them with
 * lnet_tunable().
 */
/*
 * A global tunable (tunables.c). @deprecated: writes are ignored with a
 * warning, as Lustre does.
 */
struct lnet_int_param {
	int		value;
	int		min;
	int		max;
	int		def;
	bool		deprecated;
};

static inline int lnet_tunable(const struct lnet_int_param *p)
{
	return READ_ONCE(p->value);
}

extern struct lnet_int_param lnet_numa_range;
extern struct lnet_int_param lnet_interfaces_max;
extern struct lnet_int_param lnet_peer_discovery_disabled;
extern struct lnet_int_param lnet_drop_asym_route;
extern struct lnet_int_param lnet_retry_count;
extern struct lnet_int_param lnet_transaction_timeout;
extern struct lnet_int_param lnet_health_sensitivity;
extern struct lnet_int_param lnet_recovery_interval;
extern struct lnet_int_param lnet_router_sensitivity;
extern struct lnet_int_param lnet_response_tracking;
extern struct lnet_int_param lnet_recovery_limit;
extern struct lnet_int_param lnet_max_recovery_ping_interval;
extern char *lnet_routes;
extern char *lnet_forwarding;
unsigned int lnet_lnd_timeout_of(int transaction_timeout, int retry_count);
int lnet_int_param_check(const struct lnet_int_param *p, const char *val,
			 int *out);
int lnet_params_check(void);

static inline bool lnet_is_running(void)
{
	return READ_ONCE(lnet_core.state) == LNET_STATE_RUNNING;
}

/*
 * Per-CPU statistics are counted from task and softirq context alike:
 * this_cpu_add() is one operation no interrupt on this CPU can tear, and
 * the u64_stats section (interrupts off on 32-bit machines only) lets a
 * reader there see the 64-bit value whole.
 */
#define lnet_pcpu_stat_add(pcpu, field, n)				\
do {									\
	struct u64_stats_sync *syncp__;					\
	unsigned long flags__;						\
									\
	preempt_disable();						\
	syncp__ = this_cpu_ptr(&(pcpu)->syncp);				\
	flags__ = u64_stats_update_begin_irqsave(syncp__);		\
	this_cpu_add((pcpu)->field, (n));				\
	u64_stats_update_end_irqrestore(syncp__, flags__);		\
	preempt_enable();						\
} while (0)
#define lnet_counter_add(field, n) \
	lnet_pcpu_stat_add(lnet_core.counters, field, n)
#define lnet_ni_stat_add(ni, field, n) \
	lnet_pcpu_stat_add((ni)->stats, field, n)

/* stats.c */
struct lnet_counters __percpu *lnet_counters_alloc(void);
struct lnet_ni_stats __percpu *lnet_ni_stats_alloc(void);
void lnet_counters_sum(struct lnet_counters *sum);
void lnet_ni_stats_sum(struct lnet_ni *ni, struct lnet_ni_stats *sum);
void lnet_counters_reset(void);

/* handle.c */
int lnet_htable_init(struct lnet_htable *t, spinlock_t *lock);
void lnet_htable_fini(struct lnet_htable *t);
struct lnet_hnode *lnet_htable_find(struct lnet_htable *t, u64 key);
int lnet_htable_add(struct lnet_htable *t, struct lnet_hnode *n, u64 key);
void lnet_htable_del(struct lnet_htable *t, struct lnet_hnode *n);
unsigned int lnet_htable_count(struct lnet_htable *t);

/* eq.c */
int lnet_eq_table_init(void);
void lnet_eq_table_fini(void);
struct lnet_eq *lnet_eq_get_for_md(struct lnet_handle_eq eqh);
void lnet_eq_put_for_md(struct lnet_eq *eq);
void lnet_eq_deliver(struct lnet_ev_item *item);
unsigned int lnet_eq_cleanup(void);

/* md.c */
int lnet_md_slots_init(void);
void lnet_md_slots_fini(void);
struct lnet_libmd *lnet_md_build(const struct lnet_md *umd,
				 enum lnet_unlink unlink, int ptl_index);
void lnet_md_free(struct lnet_libmd *md);
int lnet_md_slot_insert(struct lnet_md_slot *slot, struct lnet_libmd *md);
struct lnet_md_slot *lnet_md_pick_slot(void);
struct lnet_md_slot *lnet_md_slot_of(u64 cookie);
struct lnet_libmd *lnet_md_lookup(struct lnet_md_slot *slot, u64 cookie);
bool lnet_md_exhausted(const struct lnet_libmd *md);
bool lnet_md_active(const struct lnet_libmd *md);
void lnet_md_commit(struct lnet_libmd *md, struct lnet_msg *msg);
bool lnet_md_unlink(struct lnet_libmd *md);
bool lnet_md_unlinking(struct lnet_libmd *md);
bool lnet_md_slot_queue(struct lnet_md_slot *slot, struct lnet_ev_item *item);
void lnet_md_slot_deliver(struct lnet_md_slot *slot);
void lnet_msg_detach_md(struct lnet_msg *msg, int status);
int lnet_md_commit_wire(const struct lnet_handle_wire *wh,
			struct lnet_msg *msg, u32 type, lnet_nid_t src,
			unsigned int rlength);
void lnet_md_expect_retarget(struct lnet_msg *msg, lnet_nid_t old);
int lnet_md_mem_node(struct lnet_handle_md mdh);
int lnet_md_take(struct lnet_handle_md mdh, struct lnet_msg *msg,
		 unsigned int *length, bool answer);
void lnet_md_rsp_stop(void);
u64 lnet_md_rsp_tracked(void);
void lnet_md_slots_quiesce(void);
unsigned int lnet_md_cleanup(void);

/* portals.c */
int lnet_portals_init(void);
void lnet_portals_fini(void);
struct lnet_portal *lnet_portal_of_cookie(u64 cookie);
struct lnet_me *lnet_me_lookup(struct lnet_portal *ptl, u64 cookie);
int lnet_ptl_link_me(struct lnet_portal *ptl, struct lnet_me *me,
		     enum lnet_ins_pos pos, struct lnet_me *cur);
void lnet_ptl_unlink_me(struct lnet_portal *ptl, struct lnet_me *me);
void lnet_ptl_detach_md(struct lnet_me *me, struct lnet_libmd *md);
void lnet_ptl_attach_md(struct lnet_portal *ptl, struct lnet_me *me,
			struct lnet_libmd *md, struct list_head *matched,
			struct list_head *dropped);

struct lnet_match_info {
	u64			match_bits;
	struct lnet_process_id	src;
	unsigned int		rlength;
	unsigned int		roffset;
	unsigned int		op;	/* LNET_MD_OP_PUT or LNET_MD_OP_GET */
	unsigned int		portal;
};

enum lnet_match_rc {
	LNET_MATCH_NONE,
	LNET_MATCH_OK,
	LNET_MATCH_DROP,
	LNET_MATCH_DELAYED,
};

enum lnet_match_rc lnet_ptl_match(struct lnet_msg *msg,
				  const struct lnet_match_info *info);
enum lnet_match_rc lnet_md_try_match(struct lnet_libmd *md,
				     const struct lnet_match_info *info,
				     struct lnet_msg *msg);
void lnet_ptl_drop_delayed(struct lnet_portal *ptl, struct lnet_ni *ni,
			   bool count);
void lnet_ptl_drop_all_delayed(struct lnet_ni *ni);
unsigned int lnet_ptl_cleanup(void);

/* me.c */
int lnet_me_cache_init(void);
void lnet_me_cache_fini(void);
void lnet_me_free(struct lnet_me *me);

/* msg.c */
int lnet_msg_cache_init(void);
void lnet_msg_cache_fini(void);
struct lnet_msg *lnet_msg_alloc(gfp_t gfp);
void lnet_msg_free(struct lnet_msg *msg);

/* move.c */
int lnet_get(lnet_nid_t self, struct lnet_handle_md mdh,
	     struct lnet_process_id target, unsigned int portal,
	     u64 match_bits, unsigned int offset, bool recovery);
int lnet_msg_route(struct lnet_msg *msg, lnet_nid_t self, lnet_nid_t dst,
		   gfp_t gfp);
void lnet_msg_launch(struct lnet_msg *msg);
void lnet_msg_reselect(struct lnet_msg *msg);
void lnet_msg_reselect_answer(struct lnet_msg *msg);
bool lnet_msg_move_to(struct lnet_msg *msg, struct lnet_ni *ni,
		      lnet_nid_t nid);
void lnet_ni_send(struct lnet_msg *msg);
void lnet_ni_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		  bool delayed, unsigned int mlen, unsigned int rlen);
void lnet_drop_rx(struct lnet_ni *ni, void *private, unsigned int rlen,
		  bool delayed, const char *why);
void lnet_drop_msg(struct lnet_msg *msg, const char *why);
void lnet_put_matched(struct lnet_msg *msg);
void lnet_rdma_get_abort(struct lnet_msg *msg);
void lnet_parse_release(struct lnet_msg *msg);

/* fault.c: fault injection rules (Documentation/fault-injection.md) */
struct lnet_fault_rule {
	struct list_head	list;		/* lnet_fault's drop or delay list */
	struct rcu_head		rcu;
	struct lnet_fault_attr	attr;		/* checked; fixed once added */
	bool			delay;
	/* BH; the fields below; a leaf (inside lnet_fault.mutex or alone) */
	spinlock_t		lock;
	bool			dead;		/* deleted: hold nothing more */
	struct rnd_state	rnd;		/* this rule's choices */
	u64			nmatch;		/* rate: matches so far */
	u64			next_hit;	/* rate: index of the next hit */
	unsigned long		next_at;	/* interval: next hit, jiffies */
	unsigned long		window;		/* interval: next window's start */
	struct lnet_fault_stat	stat;
	struct list_head	held;		/* delay: messages, by release */
};

DECLARE_STATIC_KEY_FALSE(lnet_fault_active);
int lnet_fault_attr_check(struct lnet_fault_attr *a, bool delay);
bool lnet_fault_match(const struct lnet_fault_attr *a,
		      const struct lnet_hdr *hdr, lnet_nid_t local);
void lnet_fault_rule_reset(struct lnet_fault_rule *r, unsigned long now);
bool lnet_fault_decide(struct lnet_fault_rule *r, unsigned long now);
enum lnet_msg_status lnet_fault_pick_status(struct lnet_fault_rule *r);
bool lnet_fault_drop_rx(struct lnet_ni *ni, const struct lnet_hdr *hdr);
bool lnet_fault_delay_rx(struct lnet_msg *msg);
bool lnet_fault_tx(struct lnet_msg *msg);
void lnet_fault_ni_stop(struct lnet_ni *ni);
int lnet_fault_ioctl(struct lnet_ioctl_fault *f);
void lnet_fault_init(void);
void lnet_fault_clear(void);
void lnet_fault_fini(void);

/* health.c */
enum lnet_msg_status lnet_health_status_of(int status);
bool lnet_health_blames_local(enum lnet_msg_status hs);
bool lnet_health_blames_remote(enum lnet_msg_status hs);
int lnet_health_step(int value, int delta);
void lnet_health_check(struct lnet_msg *msg, int status);
void lnet_peer_health_unhash(struct lnet_peer *peer);
int lnet_ni_set_health(lnet_nid_t nid, bool all, int value);
void lnet_peer_response_timeout(lnet_nid_t nid);
int lnet_peer_set_health(lnet_nid_t nid, bool all, int value);
void lnet_ni_health_recovered(struct lnet_ni *ni);

/* resend.c */
bool lnet_health_status_resendable(enum lnet_msg_status hs, bool local_alt,
				   bool remote_alt);
unsigned long lnet_msg_lifetime(unsigned int lnd_timeout, int retry_count,
				int transaction_timeout);
void lnet_resend_arm(struct lnet_msg *msg);
bool lnet_resend(struct lnet_msg *msg);
void lnet_resend_fini(void);

/* recovery.c */
extern bool lnet_recovery_paused;
/* when the console next names the NIDs of one recovery queue */
struct lnet_recovery_console {
	unsigned long	next;		/* jiffies */
	unsigned int	reports;	/* since the queue was last empty, <= 5 */
};
bool lnet_recovery_console_due(struct lnet_recovery_console *c,
			       unsigned int queued, unsigned long now);
unsigned int lnet_recovery_backoff(unsigned int ping_count,
				    unsigned int max_interval);
void lnet_recovery_queue_ni(struct lnet_ni *ni);
void lnet_recovery_ni_link_up(struct lnet_ni *ni);
void lnet_recovery_queue_peer_locked(struct lnet_peer *peer);
void lnet_recovery_peer_heard_locked(struct lnet_peer *peer);
void lnet_recovery_ni_stop(struct lnet_ni *ni);
int lnet_recovery_start(void);
void lnet_recovery_stop(void);
void lnet_recovery_fini(void);
int lnet_recovery_list(u32 type, struct lnet_ioctl_recovery_list *rl);
void lnet_recovery_state(struct lnet_recovery *r, u32 *ping_count,
			 s64 *next_ping);

/* credits.c */
int lnet_credits_acquire(struct lnet_msg *msg);
void lnet_credits_return(struct lnet_msg *msg);
void lnet_credits_fini(void);
extern int lnet_max_queued_responses;
extern int lnet_lazy_portal_max;
extern int lnet_lazy_peer_max;

/* peer.c */
struct lnet_peer *lnet_peer_get(struct lnet_ni *ni, lnet_nid_t nid,
				gfp_t gfp);
void lnet_peer_put(struct lnet_peer *peer);
void lnet_peers_del_ni(struct lnet_ni *ni, struct list_head *queued,
		       struct list_head *rtr_queued);
struct lnet_peer *lnet_peer_find_locked(lnet_nid_t nid);
int lnet_peer_configure(lnet_nid_t nid);
void lnet_peer_unconfigure(lnet_nid_t nid);
bool lnet_peer_known(lnet_nid_t nid);
int lnet_peer_del(lnet_nid_t nid);
void lnet_peer_unhash_locked(struct lnet_peer *peer);
int lnet_peers_init(void);
void lnet_peers_fini(void);

/* peer-node.c */
int lnet_nodes_init(void);
void lnet_nodes_fini(void);
void lnet_nodes_clear(void);
void lnet_node_put(struct lnet_peer_node *node);
struct lnet_peer_node *lnet_node_find_rcu(lnet_nid_t nid);
struct lnet_peer_node *lnet_node_get(lnet_nid_t nid);
struct lnet_peer_node *lnet_node_get_or_new(lnet_nid_t nid);
lnet_nid_t lnet_peer_primary_nid(lnet_nid_t nid);
bool lnet_peer_has_other_nid(lnet_nid_t nid);
bool lnet_peer_nids_same_node(lnet_nid_t a, lnet_nid_t b);
void lnet_node_merge_nids_locked(struct lnet_peer_node *node,
				 const lnet_nid_t *nids, unsigned int n,
				 bool replace);
void lnet_node_keep_one_nid_locked(struct lnet_peer_node *node,
				   lnet_nid_t nid);
void lnet_node_set_down_locked(struct lnet_peer_node *node, lnet_nid_t nid,
			       bool down);
bool lnet_node_nid_down(lnet_nid_t nid);
void lnet_node_nid_heard(lnet_nid_t nid);
int lnet_node_configure(lnet_nid_t prim, lnet_nid_t nid, u32 flags);
int lnet_node_del(lnet_nid_t prim, lnet_nid_t nid, u32 flags);
lnet_nid_t lnet_node_nid_at(u32 *index, lnet_nid_t *primary, u32 *flags);
u32 lnet_node_ioctl_flags(const struct lnet_peer_node *node);
int lnet_node_nids(lnet_nid_t nid, lnet_nid_t *nids, unsigned int max,
		   u32 *flags);

/* A node that sends go to without (further) discovery. */
static inline bool
lnet_node_needs_no_discovery(const struct lnet_peer_node *node)
{
	return test_bit(LNET_NODE_DISCOVERED, &node->flags) ||
	       (test_bit(LNET_NODE_CONFIGURED, &node->flags) &&
		test_bit(LNET_NODE_NO_DISCOVERY, &node->flags));
}

/* select.c */
struct lnet_ni *lnet_select_pair_rcu(struct lnet_peer_node *node,
				     int md_node, lnet_nid_t *nid);
struct lnet_ni *lnet_select_ni_rcu(lnet_nid_t nid, int md_node, bool keep);
struct lnet_ni *lnet_select_mr_rcu(struct lnet_peer_node *node, int md_node,
				   lnet_nid_t *nid);
struct lnet_ni *lnet_select_up_pair_rcu(struct lnet_peer_node *node,
					lnet_nid_t *nid);

/* discovery.c */
int lnet_discovery_init(void);
void lnet_discovery_fini(void);
int lnet_discovery_start(void);
void lnet_discovery_stop(void);
bool lnet_discovery_enabled(void);
bool lnet_discovery_gate(struct lnet_msg *msg);
void lnet_discovery_work(struct work_struct *work);
void lnet_discovery_push_all(bool last);
int lnet_discover(lnet_nid_t nid, bool force, lnet_nid_t *nids,
		  unsigned int max, u32 *flags, u32 *features);

/* api-ni.c */
struct lnet_ni *lnet_ni_find_rcu(lnet_nid_t nid);
struct lnet_ni *lnet_ni_find_net_rcu(u32 net);
bool lnet_nid_is_local(lnet_nid_t nid);
int lnet_ni_set_conns_per_peer(lnet_nid_t nid, bool all, unsigned int value);
bool lnet_ni_call_begin(struct lnet_ni *ni);
void lnet_ni_call_end(struct lnet_ni *ni);
int lnet_net_add(const struct lnet_net_config *cfg,
		 const struct lnet_ni_tunables *tun);
int lnet_net_del(u32 net_id);
int lnet_ni_add(const struct lnet_net_config *cfg,
		const struct lnet_ni_tunables *tun, lnet_nid_t *nid);
int lnet_ni_del(lnet_nid_t nid);
int lnet_ni_init_config(bool mod_config, bool take_ref);
int lnet_ni_fini_last(void);
int lnet_ni_hold(void);
void lnet_shutdown_all(void);

/*
 * routes.c: the route table and the router checker. Configuration holds
 * api_mutex; the send path reads the table under RCU.
 */
struct lnet_route_info {
	u32		net;		/* remote network */
	lnet_nid_t	gateway;
	s32		hops;		/* -1: unspecified */
	u32		priority;
	u32		sensitivity;
	bool		alive;		/* see lnet_route_get() */
	bool		multi_hop;
};

struct lnet_gateway_info {
	lnet_nid_t	nid;
	unsigned int	refs;		/* routes, a ping out, a lookup */
	unsigned int	nroutes;	/* routes through it */
	bool		alive;		/* as its checker last judged */
};

int lnet_route_check(u32 net, lnet_nid_t gateway, s32 hops);
int lnet_route_add(const struct lnet_route_info *route);
int lnet_route_del(u32 net, lnet_nid_t gateway);
int lnet_gateway_get_info(unsigned int index, struct lnet_gateway_info *info);
void lnet_routes_wait_checked(void);
int lnet_route_get(unsigned int index, struct lnet_route_info *route);
lnet_nid_t lnet_route_select_rcu(u32 net, u32 src_net);
unsigned int lnet_route_hops_rcu(u32 net);
bool lnet_route_reachable_rcu(u32 net);
void lnet_gateway_forwarded(lnet_nid_t from, u32 src_net);
void lnet_gateway_pushed(lnet_nid_t from, const struct lnet_ping_info *info,
			 int n);
bool lnet_route_is_via(u32 net, lnet_nid_t gateway);
int lnet_routes_start(void);
void lnet_routes_clear(void);
void lnet_routes_fini(void);
int lnet_routes_apply_param(void);

/*
 * router.c: forwarding messages for other nodes, router buffer pools and
 * router credits (Documentation/routing.md).
 */
enum lnet_rtrpool_kind {
	LNET_RTRPOOL_TINY,	/* no payload: GET, ACK, empty PUT/REPLY */
	LNET_RTRPOOL_SMALL,	/* up to a page */
	LNET_RTRPOOL_LARGE,	/* up to LNET_MTU */
	LNET_NRTRPOOLS
};

extern int lnet_router_buffers[LNET_NRTRPOOLS];
extern int lnet_alive_router_check_interval;
extern int lnet_check_routers_before_use;
void lnet_router_named(void);
bool lnet_forwarding_enabled(void);
bool lnet_routing_wanted(void);
bool lnet_router_advertised_now(void);
void lnet_router_settle(void);
bool lnet_router_unsettled(void);
int lnet_router_start(void);
int lnet_router_set(bool on);
int lnet_router_resize(const int totals[LNET_NRTRPOOLS]);
void lnet_router_stop(void);
void lnet_router_ni_stop(struct lnet_ni *ni, struct list_head *credit_waiters);
int lnet_peer_rtr_credits(const struct lnet_ni *ni);
void lnet_forward_parse(struct lnet_ni *ni, const struct lnet_hdr *hdr,
			lnet_nid_t from, void *private);
void lnet_forward_rx_done(struct lnet_msg *msg, int status);
void lnet_forward_final_hop(struct lnet_msg *msg);
void lnet_forward_release(struct lnet_msg *msg);
struct lnet_libmd *lnet_rtrbuf_md(struct lnet_rtrbuf *rb);
int lnet_rtrpool_state(int cpt, int pool, int *npages, int *nbuffers,
		       int *credits, int *min_credits);

static inline struct lnet_libmd *lnet_msg_payload_md(const struct lnet_msg *msg)
{
	return msg->rtrbuf ? lnet_rtrbuf_md(msg->rtrbuf) : msg->md;
}

/*
 * ioctl.c: /dev/lnet; the handlers of other modules' commands are
 * registered through <linux/lnet/lnd.h>.
 */
struct lnet_ioctl_data;

/* The inline buffers of a validated generic block (NULL if absent). */
char *lnet_ioctl_inline1(struct lnet_ioctl_data *data);
char *lnet_ioctl_inline2(struct lnet_ioctl_data *data);

int lnet_ioctl_kernel(unsigned int cmd, void *arg);
long lnet_ioctl_user(unsigned int cmd, void __user *uarg);
int lnet_configure(bool all);
int lnet_unconfigure(void);
void lnet_config_fini(void);

/* dev.c */
int lnet_dev_init(void);
void lnet_dev_fini(void);

/* ioctl.c, pure helpers (KUnit suite lnet_ioctl) */
int lnet_ioctl_check_cmd(unsigned int cmd);
int lnet_ioctl_check_hdr(const struct lnet_ioctl_hdr *hdr, u32 min_len,
			 u32 version);
int lnet_ioctl_check_data(const struct lnet_ioctl_data *data, u32 len);
int lnet_ioctl_ping_timeout(s32 ms);
int lnet_ioctl_ni_tunables(const void *buf, u32 len, u32 lnd_type,
			   struct lnet_ni_tunables *tun);

/* ipif.c (lnet_ipif_pick() for the LNDs is in lnd.h) */
struct lnet_ipif {
	char	name[IFNAMSIZ];
	u32	addr;			/* IPv4, host order */
};

int lnet_ipif_list(struct lnet_ipif *ifs, int max);
int lnet_ipif_of_addr(u32 addr, char *name);

/* ip2nets.c */
#define LNET_IP2NETS_MAX_IFS	32	/* interfaces looked at */

struct lnet_ip2nets_ni {
	u32	net;
	char	ifname[IFNAMSIZ];
};

int lnet_ip2nets_select(const char *rules, const struct lnet_ipif *ifs,
			int nifs, struct lnet_ip2nets_ni *sel, int max);
int lnet_ip2nets_local(const char *rules, struct lnet_ip2nets_ni *sel,
		       int max);

/* link.c */
int lnet_link_init(void);
void lnet_link_fini(void);
void lnet_link_changed(const char *ifname, bool up);
void lnet_ni_link_seed(struct lnet_ni *ni);
bool lnet_ni_has_alternative_rcu(const struct lnet_ni *ni);

/* What @ni says of itself in the ping info: DOWN, or UP. */
static inline bool lnet_ni_says_down(const struct lnet_ni *ni)
{
	return test_bit(LNET_NI_HEALTH_DOWN, &ni->health_flags) ||
	       test_bit(LNET_NI_LINK_DOWN, &ni->health_flags) ||
	       test_bit(LNET_NI_QUIET_DOWN, &ni->health_flags);
}

/* router-status.c */
extern int lnet_router_ping_timeout;
void lnet_router_pinged(struct lnet_ni *ni, lnet_nid_t src);
void lnet_router_status_start(void);
void lnet_router_status_stop(void);
void lnet_router_status_clear(void);
long lnet_router_last_pinged(const struct lnet_ni *ni);
unsigned long lnet_router_status_delay(void);

/* lo.c */
extern struct lnet_lnd lnet_lo_lnd;

/* ping.c */
int lnet_ping_target_init(void);
void lnet_ping_target_fini(void);
int lnet_ping_target_update(void);
void lnet_ping_status_changed(void);
void lnet_ping_status_flush(void);
size_t lnet_ping_info_fill(void *buf, size_t size, u32 seq);
int lnet_ping_info_check(void *buf, unsigned int len);
void *lnet_ping_info_copy(size_t *size, u32 *seq);
int lnet_ping_full(struct lnet_process_id id, lnet_nid_t src, int timeout_ms,
		   struct lnet_process_id *ids, unsigned int nids,
		   u32 *features);
int lnet_ping(struct lnet_process_id id, lnet_nid_t src, int timeout_ms,
	      struct lnet_process_id *ids, unsigned int nids);

/* debugfs.c */
void lnet_debugfs_init(void);
void lnet_debugfs_fini(void);

/* copy.c */
void lnet_md_iter(const struct lnet_libmd *md, unsigned int dir,
		  unsigned int offset, unsigned int len,
		  struct iov_iter *iter);

/* test-only views (exported to lnet_kunit.ko) */
struct lnet_ptl_stats {
	unsigned int	nme;
	unsigned int	nexact;
	unsigned int	nwild;
	unsigned int	hash_bits;
	unsigned int	max_chain;
	unsigned int	ndelayed;
	unsigned long	ndropped;
};

int lnet_ptl_get_stats(unsigned int portal, struct lnet_ptl_stats *st);
struct lnet_ni *lnet_ni_get_by_nid(lnet_nid_t nid);
void lnet_ni_put(struct lnet_ni *ni);
int lnet_ni_credit_state(struct lnet_ni *ni, int *credits, int *min_credits,
			 int *queued);
int lnet_peer_credit_state(lnet_nid_t nid, int *credits, int *min_credits,
			   int *queued);
unsigned int lnet_peer_count(void);
unsigned int lnet_peers_reap(unsigned long idle);

#endif /* _LINUX_LNET_LIB_LNET_H */
