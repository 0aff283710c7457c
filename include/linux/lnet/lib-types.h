/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNet core's objects. LNDs see struct lnet_msg and struct lnet_ni
 * through <linux/lnet/lnd.h>; everything else is private to lnet.ko (and
 * its white-box tests).
 *
 * Locking (Documentation/locking.md has the full story):
 *
 *   lnet_core.api_mutex	LNetNIInit/Fini, adding and removing NIs
 *     RTNL			interface lookups while networks come up
 *				(ip2nets=, LND startup, an NI's link state);
 *				never the reverse: the netdev notifier
 *				(link.c) takes no LNet lock
 *     portal->lock		one per portal: its MEs, match hash, ME
 *				handles, lazy queue; attach/detach/match
 *       md_slot->lock		one per MD lock slot: the slot's MD handles
 *				and every mutable field of its MDs; the
 *				slot's event queue (keeps per-MD order)
 *   lnet_core.net_lock		peers and peer nodes, credits and NI/peer
 *				send queues, router buffer pools and router
 *				credits; never held with a portal or slot
 *				lock
 *     lnet_recovery_lock	recovery queues and NI/peer recovery state
 *				(recovery.c); a leaf
 *   eq->lock			one per EQ: its ring and sequence numbers;
 *				a leaf, never held with another lock
 *   lnet_core.eq_lock		the EQ handle table; a leaf
 *   lnet_core.lnd_srcu		(SRCU) core calls into an LND that could
 *				race with the NI's shutdown
 *   lnet_resend_lock		messages waiting to be resent (resend.c);
 *				a leaf
 *   lnet_ping_copy_lock	the copy of our ping info pushes send
 *				(ping.c); a leaf
 *   lnet_push.rx_lock		received pushes waiting to be applied
 *				(discovery.c); a leaf
 *
 * The nesting shown is the only one allowed: a portal lock may be held
 * while taking one MD slot lock, net_lock while taking the recovery lock;
 * nothing else nests. EQ callbacks run with
 * no LNet lock held, one at a time per MD slot, so they may call
 * LNetMDUnlink(). All spinlocks are taken with BH disabled because LNDs
 * may complete messages from softirq context.
 */
#ifndef _LINUX_LNET_LIB_TYPES_H
#define _LINUX_LNET_LIB_TYPES_H

#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/if.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/percpu_counter.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/lnet/api.h>
#include <linux/lnet/wire.h>

struct lnet_lnd;
struct lnet_ni;
struct lnet_msg;
struct lnet_rtrbuf;
struct lnet_rtrpool;

/* ---- handles --------------------------------------------------------------
 *
 * A handle cookie is [ sequence | index | type ]: the two type bits say
 * which table to look in, the index picks the portal (MEs) or the MD lock
 * slot (MDs), and the sequence is never reused while lnet.ko is loaded,
 * so a stale handle can only miss.
 */
enum lnet_cookie_type {
	LNET_COOKIE_EQ	= 1,
	LNET_COOKIE_ME	= 2,
	LNET_COOKIE_MD	= 3,
};

#define LNET_COOKIE_TYPE_BITS	2
#define LNET_COOKIE_TYPE_MASK	((1U << LNET_COOKIE_TYPE_BITS) - 1)
#define LNET_PORTAL_BITS	6
#define LNET_MD_SLOT_BITS_MAX	8

static_assert(LNET_MAX_PORTALS == 1 << LNET_PORTAL_BITS);

static inline u64 lnet_cookie_make(u64 seq, unsigned int index,
				   unsigned int index_bits,
				   enum lnet_cookie_type type)
{
	return (((seq << index_bits) | index) << LNET_COOKIE_TYPE_BITS) | type;
}

static inline unsigned int lnet_cookie_type(u64 cookie)
{
	return cookie & LNET_COOKIE_TYPE_MASK;
}

static inline unsigned int lnet_cookie_index(u64 cookie,
					     unsigned int index_bits)
{
	return (cookie >> LNET_COOKIE_TYPE_BITS) & ((1U << index_bits) - 1);
}

/*
 * A handle table (handle.c): an rhashtable that resizes itself in the
 * background; the owner's lock orders every add, removal and lookup.
 */
struct lnet_hnode {
	struct rhash_head	node;
	u64			key;
};

struct lnet_htable {
	struct rhashtable	ht;
	spinlock_t		*lock;		/* the owner's */
};

/* ---- event queues -------------------------------------------------------- */

struct lnet_eq_slot {
	struct lnet_event	ev;	/* ev.sequence 0: never written */
	u64			stamp;	/* ktime: oldest-first across EQs */
};

struct lnet_eq {
	struct lnet_hnode	handle;		/* lnet_core.eq_handles */
	struct list_head	list;		/* lnet_core.eqs */
	struct kref		kref;
	atomic_t		md_refs;	/* MDs naming us: -EBUSY */
	lnet_eq_handler_t	handler;
	unsigned int		size;		/* 0 or a power of two */

	/*
	 * @lock orders sequence numbers and the ring. A sequence is handed
	 * out before the callback runs (the callback sees it) and the event
	 * is written into the ring after the callback returned, so a poller
	 * never sees an event whose callback has not finished. Deliveries
	 * for MDs in different slots may finish out of order; the ring
	 * tolerates that (see lnet_eq_poll_one()).
	 */
	spinlock_t		lock;
	unsigned long		enq_seq;	/* next sequence to hand out */
	unsigned long		read_seq;	/* next sequence to poll */
	bool			lost;		/* overwritten since last poll */
	bool			freed;		/* LNetEQFree()d */
	wait_queue_head_t	waitq;
	struct lnet_eq_slot	*ring;
};

/*
 * An event on its way from an MD to its EQ. Embedded in the message that
 * caused it, or in the MD for its UNLINK event.
 */
struct lnet_ev_item {
	struct list_head	link;		/* md_slot->events */
	struct lnet_event	ev;
	struct lnet_eq		*eq;
	struct lnet_msg		*msg;		/* freed once delivered */
	struct lnet_libmd	*md_done;	/* MD's last event: free MD */
};

/* ---- memory descriptors -------------------------------------------------- */

/* lnet_libmd.flags */
#define LNET_MD_FL_AUTO_UNLINK	0x1	/* made with LNET_UNLINK */
#define LNET_MD_FL_EXHAUSTED	0x2	/* auto-unlink once idle */
#define LNET_MD_FL_UNLINK_REQ	0x4	/* LNetMDUnlink: UNLINK when idle */
#define LNET_MD_FL_HASHED	0x8	/* in its slot's handle table */
#define LNET_MD_FL_RSP_EXPIRED	0x10	/* unlinked: a response never came */

/*
 * What a bound MD waits for: the ACK of a PUT or the REPLY of a GET it
 * sourced, from the peer that request went to. Anything else naming the
 * MD's wire handle is dropped, so a cookie alone lets no one write into
 * the MD or use up its operations.
 */
struct lnet_md_expect {
	struct list_head	link;		/* md->expects */
	lnet_nid_t		peer;		/* the request's destination */
	u32			type;		/* LNET_MSG_ACK or LNET_MSG_REPLY */
	unsigned int		length;		/* bytes sent, or the sink */
	/*
	 * Response tracking (md.c): on slot->tracked, in deadline order,
	 * while the answer is awaited at most until @deadline.
	 */
	struct list_head	track_link;
	unsigned long		deadline;	/* jiffies */
	struct lnet_libmd	*md;
};

struct lnet_libmd {
	struct lnet_hnode	handle;		/* slot->handles, key: cookie */
	struct list_head	slot_link;	/* slot->mds */
	struct lnet_md_slot	*slot;
	int			ptl_index;	/* -1: bound; never changes */
	struct lnet_eq		*eq;		/* reference held */

	/* slot->lock (@me: the portal lock as well to change) */
	struct lnet_me		*me;
	unsigned int		flags;
	unsigned int		msg_refs;	/* messages in flight */
	unsigned int		offset;		/* locally managed offset */
	struct lnet_md		umd;		/* .threshold is live */
	struct list_head	expects;	/* struct lnet_md_expect */
	/* the usual single answer, without an allocation per request */
	struct lnet_md_expect	expect_inline;
	/*
	 * A REPLY being received, and the copy its Multi-Rail peer resent
	 * on another rail before this side saw the first one's connection
	 * die (md.c, lnet_md_reply_twin()); the first of the two to end
	 * well holds its event in @reply_held until the other ends.
	 */
	struct lnet_msg		*reply_rx;
	struct lnet_msg		*reply_twin;
	struct lnet_msg		*reply_held;
	bool			reply_paired;

	unsigned int		length;		/* bytes */
	unsigned int		niov;		/* 0: contiguous (@kvec) */
	int			mem_node;	/* NUMA node of its first page */
	struct lnet_ev_item	unlink_ev;
	struct kvec		kvec;
	struct bio_vec		bvec[];
};

/*
 * MDs are spread over a power-of-two number of lock slots (module
 * parameter md_lock_slots; the slot is encoded in the MD's cookie). A slot
 * lock guards its MDs and their handle table; it also owns the slot's
 * event queue, which is what keeps one MD's callbacks ordered while
 * different slots deliver concurrently: whoever finds the queue idle
 * becomes its deliverer and runs callbacks with no lock held.
 */
struct lnet_md_slot {
	spinlock_t		lock;
	struct lnet_htable	handles;
	struct list_head	mds;		/* every MD in @handles */
	u64			next_seq;
	struct list_head	events;		/* struct lnet_ev_item */
	bool			delivering;
	unsigned int		index;
	/* tracked responses (struct lnet_md_expect), earliest deadline first */
	struct list_head	tracked;
	unsigned int		ntracked;
} ____cacheline_aligned_in_smp;

/* ---- match entries and portals ------------------------------------------- */

/*
 * MEs that can match only one (match bits, initiator NID) pair - exact
 * bits and an exact NID - are "exact": they live in the portal's match
 * hash and are found in O(1). All others are "wild" and are scanned in
 * order. @order numbers every ME in portal order so that the first ME
 * (in LNetMEAttach/LNetMEInsert order) still wins across the two kinds.
 */
struct lnet_me {
	struct lnet_hnode	handle;		/* ptl->me_handles, key: cookie */
	struct rhlist_head	mnode;		/* ptl->match_hash (exact) */
	u64			mkey;		/* its key there */
	struct list_head	all_link;	/* ptl->me_all */
	struct list_head	wild_link;	/* ptl->me_wild (!exact) */
	struct lnet_portal	*ptl;
	u64			order;
	struct lnet_process_id	match_id;
	u64			match_bits;
	u64			ignore_bits;
	enum lnet_unlink	unlink;
	bool			exact;
	struct lnet_libmd	*md;		/* portal + slot lock */
};

#define LNET_PTL_FROM_BUCKETS	16

struct lnet_portal {
	spinlock_t		lock;
	unsigned int		index;
	bool			lazy;
	u64			next_seq;	/* ME cookies */
	unsigned int		nme;
	unsigned int		nexact;		/* in @match_hash */
	struct lnet_htable	me_handles;
	struct rhltable		match_hash;	/* exact MEs; portals.c */
	struct list_head	me_all;		/* every ME, in match order */
	struct list_head	me_wild;	/* wild MEs, in match order */
	struct list_head	delayed;	/* lazy: unmatched PUTs */
	unsigned int		ndelayed;
	/* lazy: delayed PUTs per sending peer (portals.c) */
	struct hlist_head	delayed_from[LNET_PTL_FROM_BUCKETS];
	unsigned long		ndropped;	/* cleared, refused, expired */
} ____cacheline_aligned_in_smp;

/* ---- NIs, peers, messages ------------------------------------------------- */

/*
 * What became of a message, for health and resend (Documentation/wire/
 * routing-health-multirail.md, "Message health status"). Fault injection
 * sets the status of the send failures it simulates.
 */
enum lnet_msg_status {
	LNET_MSG_STATUS_OK,
	LNET_MSG_STATUS_LOCAL_INTERRUPT,
	LNET_MSG_STATUS_LOCAL_DROPPED,
	LNET_MSG_STATUS_LOCAL_ABORTED,
	LNET_MSG_STATUS_LOCAL_NO_ROUTE,
	LNET_MSG_STATUS_LOCAL_ERROR,
	LNET_MSG_STATUS_LOCAL_TIMEOUT,
	LNET_MSG_STATUS_REMOTE_ERROR,
	LNET_MSG_STATUS_REMOTE_DROPPED,
	LNET_MSG_STATUS_REMOTE_TIMEOUT,
	LNET_MSG_STATUS_NETWORK_TIMEOUT,
	LNET_MSG_NSTATUS
};

/* Health values (health.c): 0 (failing) .. LNET_MAX_HEALTH (healthy). */
#define LNET_MAX_HEALTH		1000

enum lnet_ni_state {
	LNET_NI_STATE_INIT,
	LNET_NI_STATE_UP,
	LNET_NI_STATE_DOWN,
};

/* per CPU; lnet_ni_stat_add() counts, lnet_ni_stats_sum() reads (stats.c) */
struct lnet_ni_stats {
	u64	send_count;
	u64	send_length;
	u64	recv_count;
	u64	recv_length;
	u64	drop_count;
	u64	drop_length;
	u64	health[LNET_MSG_NSTATUS];	/* failures by status */
	/* after the counters: stats.c sums them as an array of u64 */
	struct u64_stats_sync syncp;
};

/*
 * Per-NI LND tunables (lnetctl net add, the YAML "lnd tunables"): 0, or -1
 * for tos, picks the LND module parameter's value. The LND's startup()
 * applies them, or fails with a message for one it cannot apply, and then
 * writes back the values in effect, which net show reports.
 */
struct lnet_lnd_tunables {
	int	conns_per_peer;
	int	timeout;		/* seconds */
	int	tos;			/* IP type of service, -1..255 */
	/* o2iblnd */
	int	peercredits_hiw;
	int	concurrent_sends;
	int	ntx;
	/* o2iblnd, obsolete (no FMR pools): shown, never used */
	int	map_on_demand;
	int	fmr_pool_size;
	int	fmr_flush_trigger;
	int	fmr_cache;
};

/*
 * Lustre's LNDs' default peer_timeout (s), in every lnetctl export. This
 * LNet judges peers by health and the router checker instead: a per-NI
 * peer timeout of this value (or -1, 0) is taken, any other refused.
 */
#define LNET_PEER_TIMEOUT_DEFAULT	180

/* Per-NI tunables; 0 picks the module parameter's value. */
struct lnet_ni_tunables {
	int	credits;
	int	peer_credits;
	int	peer_rtr_credits;	/* router buffer credits per peer */
	struct lnet_lnd_tunables lnd;
};

/*
 * An NI or peer below full health, on a recovery queue (recovery.c):
 * pinged at growing intervals until it is back at LNET_MAX_HEALTH.
 * Guarded by the queue's lock (recovery.c's lock for NIs, net_lock for
 * peers).
 */
struct lnet_recovery {
	struct list_head	list;		/* on a queue; empty if not */
	unsigned int		ping_count;	/* since last heard from */
	unsigned long		next_ping;	/* jiffies */
	struct lnet_handle_md	mdh;		/* of the ping out, if @pending */
	bool			pending;	/* a ping waits for its REPLY */
};

struct lnet_ni {
	struct list_head	list;		/* lnet_core.nis (RCU) */
	struct rcu_head		rcu;
	lnet_nid_t		nid;
	unsigned int		index;		/* LNetGetId() order */
	struct lnet_lnd		*lnd;
	void			*data;		/* the LND's */
	char			iface[IFNAMSIZ];
	u32			ncpts;
	u32			*cpts;
	struct lnet_ni_stats __percpu *stats;

	/*
	 * Messages hold @ref; it reaches zero only after the NI is down and
	 * every message that used it is freed. Calls into the LND that could
	 * race with its shutdown() run under lnet_core.lnd_srcu (the data
	 * path) or count in @lnd_calls (slow paths: accept, ctl).
	 */
	struct percpu_ref	ref;
	struct completion	ref_done;
	atomic_t		lnd_calls;
	enum lnet_ni_state	state;		/* net_lock to change */

	/* from the NI's configuration (lnetctl); 0: the LND's default */
	int			cfg_credits;
	int			cfg_peer_credits;
	int			cfg_peer_rtr_credits;	/* 0: lnet's */
	struct lnet_lnd_tunables lnd_tunables;	/* startup() may change */
	/* net_lock; credits below zero count the queued messages */
	int			max_tx_credits;	/* 0: no credit limit */
	int			tx_credits;
	int			min_tx_credits;
	int			peer_tx_credits;	/* each peer's max */
	struct list_head	tx_queue;

	atomic_t		healthv;	/* 0..LNET_MAX_HEALTH */
	u64			sel_seq;	/* Multi-Rail round robin */
	/* the device's NUMA node, set by the LND's startup(); NUMA_NO_NODE:
	 * not known (select.c counts it as near)
	 */
	int			dev_node;
	unsigned long		health_flags;	/* LNET_NI_* bits below */
	unsigned long		last_pinged;	/* jiffies; router-status.c */
	struct lnet_recovery	recovery;
};

/*
 * lnet_ni.health_flags. HEALTH_DOWN: the NI's health fell to 0 and has not
 * been back to LNET_MAX_HEALTH since. LINK_DOWN: its interface is down or
 * has no carrier (link.c). QUIET_DOWN: this node forwards and no node has
 * pinged it on the NI for a while (router-status.c). The ping info says
 * DOWN while any is set.
 */
#define LNET_NI_HEALTH_DOWN	0
#define LNET_NI_LINK_DOWN	1
#define LNET_NI_QUIET_DOWN	2

struct lnet_peer {
	struct lnet_hnode	hnode;		/* lnet_core.peers, key: nid */
	struct list_head	list;		/* lnet_core.peer_list (RCU) */
	struct kref		kref;
	struct rcu_head		rcu;		/* freed after readers of @list */
	lnet_nid_t		nid;
	struct lnet_ni		*ni;

	/* net_lock */
	int			max_tx_credits;
	int			tx_credits;
	int			min_tx_credits;
	/* bytes (header and payload) of the messages holding or awaiting
	 * one of its credits: how loaded it is, when choosing a gateway
	 */
	u64			txqnob;
	struct list_head	tx_queue;
	struct list_head	waiting;	/* lnet_core.peers_waiting */
	u64			send_count;
	u64			sel_seq;	/* Multi-Rail round robin */
	unsigned long		last_used;	/* jiffies of the last get */
	bool			unhashed;
	/* added by an admin (peer add): not freed when idle */
	bool			configured;
	/* health of the peer's NI: 0..LNET_MAX_HEALTH, failures by status */
	int			healthv;
	u64			hstats[LNET_MSG_NSTATUS];
	/* jiffies: a message to it completed or one from it came; 0 never */
	unsigned long		last_alive;
	struct lnet_recovery	recovery;

	/*
	 * net_lock. Router credits: messages from this peer that this node
	 * forwards may hold router buffers, at most @max_rtr_credits at a
	 * time; below zero they count the messages in @rtr_queue, whose
	 * payload the LND holds back until a credit comes (router.c).
	 */
	int			max_rtr_credits;
	int			rtr_credits;
	int			min_rtr_credits;
	struct list_head	rtr_queue;
};

/*
 * A peer node (peer-node.c): the remote node behind one or more peer NIDs,
 * named by its primary NID. Discovery (discovery.c) learns its NIDs and
 * whether it is Multi-Rail; an admin can configure them (peer add). Each
 * NID's credits and health stay in its struct lnet_peer, made when a
 * message first uses that NID. Lists and fields under lnet_core.net_lock;
 * @primary and the NID table (lnet_core.node_nids) are read under RCU.
 */
#define LNET_NODE_MAX_NIDS		16	/* LNET_IOCTL_PEER_MAX_NIDS */

/* lnet_peer_node.flags */
#define LNET_NODE_MULTI_RAIL		0	/* choose among its NIDs */
#define LNET_NODE_CONFIGURED		1	/* peer add; kept until peer del */
#define LNET_NODE_LOCK_PRIM		2	/* discovery keeps @primary */
#define LNET_NODE_NO_DISCOVERY		3	/* it does none, or --non_mr */
#define LNET_NODE_DISCOVERED		4	/* discovery ran to its end */
#define LNET_NODE_UNHASHED		5	/* deleted; freed with last ref */

/* lnet_peer_node.disc_step: where its discovery is (discovery.c) */
enum lnet_disc_step {
	LNET_DISC_IDLE,		/* nothing to do or done */
	LNET_DISC_PING,		/* to send the ping */
	LNET_DISC_PINGING,	/* ping out, waiting for its MD to unlink */
	LNET_DISC_PUSH,		/* ping answered: process, push if due */
	LNET_DISC_PUSHING,	/* push out, waiting for its MD to unlink */
	LNET_DISC_PUSHED,	/* push ended: record, finish */
	LNET_DISC_NOTIFY,	/* our NIs changed: push, no ping */
};

struct lnet_node_nid {
	struct rhash_head	hnode;		/* lnet_core.node_nids */
	lnet_nid_t		nid;
	struct lnet_peer_node	*node;		/* net_lock; RCU readers */
	/*
	 * The node's last ping info or push said this NI is DOWN, and no
	 * message came from it since. net_lock; READ_ONCE() readers.
	 */
	bool			down;
	struct rcu_head		rcu;
};

struct lnet_peer_node {
	struct list_head	list;		/* lnet_core.nodes (RCU) */
	struct kref		kref;
	struct rcu_head		rcu;
	lnet_nid_t		primary;
	unsigned long		flags;		/* LNET_NODE_* bits */
	unsigned int		nnids;
	struct lnet_node_nid	*nids[LNET_NODE_MAX_NIDS]; /* primary first */
	u32			rr;		/* round robin among equals */

	/* discovery, net_lock unless said otherwise */
	enum lnet_disc_step	disc_step;
	bool			disc_force;	/* ping and push even if current */
	bool			disc_repush;	/* our info changed meanwhile */
	int			disc_error;	/* of the last discovery, or 0 */
	u32			disc_gen;	/* +1 at each end of discovery */
	struct list_head	parked;		/* messages waiting for it */
	struct work_struct	disc_work;	/* holds a ref while queued */
	u32			their_seq;	/* their ping-target sequence */
	u32			acked_seq;	/* ours they ACKed in a push */
	u32			push_seq;	/* ours in the push out */
	u32			features;	/* of their last ping info */
	lnet_nid_t		answered;	/* the NID that answered the ping */
	lnet_nid_t		answered_via;	/* our NID that got the answer */
	/* the ping or push out (disc_work's only): its MD and buffer */
	struct lnet_handle_md	disc_mdh;
	void			*disc_buf;
	unsigned int		disc_len;	/* bytes of @disc_buf */
	unsigned int		disc_got;	/* bytes the REPLY brought */
	int			disc_status;	/* of the ping or push */
	bool			disc_answered;	/* REPLY or ACK came */
};

/*
 * A message. The engine fills it; an LND reads @hdr, @target and the
 * payload (lnet_msg_iter()) on send, and receives into the iterator that
 * recv() is handed. An LND never frees a message: it calls lnet_finalize().
 */

struct lnet_msg {
	struct list_head	list;		/* a credit, lazy or fault queue */
	struct lnet_hdr		hdr;
	struct lnet_process_id	target;		/* tx: the LND-level peer */
	lnet_nid_t		from;		/* rx: the LND-level peer */
	struct lnet_ni		*ni;		/* reference held */
	struct lnet_peer	*txpeer;	/* reference held */
	void			*private;	/* LND rx context */
	unsigned long		deadline;	/* jiffies; waiting for a credit
						 * or on a lazy portal until then
						 */
	struct lnet_libmd	*md;
	/* forwarded: the router buffer holding the payload (router.c) */
	struct lnet_rtrbuf	*rtrbuf;
	struct lnet_rtrpool	*rtrpool;	/* the pool it comes from */
	struct lnet_peer	*rxpeer;	/* forwarded: sent it to us; ref */
	unsigned int		offset;		/* into @md */
	unsigned int		len;		/* payload sent or kept */
	unsigned int		wanted;		/* rx: payload on the wire */
	unsigned int		txqnob;		/* counted in txpeer->txqnob */
	int			status;
	unsigned long		fault_release;	/* jiffies; held by a delay rule */
	unsigned long		resend_deadline; /* jiffies; no resend after */
	u8			health_status;	/* enum lnet_msg_status */
	u8			retries;	/* times resent (resend.c) */
	/* tx: NUMA node of the MD's memory, for the choice of a local NI
	 * (select.c); NUMA_NO_NODE: no MD, or one NUMA node
	 */
	int			md_node;

	unsigned int		tx:1;		/* being (or to be) sent */
	unsigned int		tx_peer_credit:1;
	unsigned int		tx_ni_credit:1;
	unsigned int		tx_wait_peer:1;	/* queued for a peer credit */
	unsigned int		tx_wait_ni:1;	/* queued for an NI credit */
	unsigned int		ack_wanted:1;	/* rx PUT: ACK when done */
	unsigned int		rdma_get:1;	/* rx GET: LND does RDMA */
	unsigned int		delayed:1;	/* waited on a lazy portal */
	unsigned int		finalized:1;
	unsigned int		fault_passed:1;	/* tx: the rules were applied */
	unsigned int		no_resend:1;	/* tx: failed before an LND had
						 * it, or a recovery ping
						 */
	unsigned int		recovery:1;	/* tx: a recovery ping (recovery.c) */
	unsigned int		routing:1;	/* forwarded for another node */
	unsigned int		rtr_credit:1;	/* holds a router credit */
	unsigned int		rtr_wait_credit:1; /* on rxpeer->rtr_queue */
	unsigned int		rtr_wait_buf:1;	/* on rtrpool->waiting */
	/* tx: LNet picks the NI pair (no source NID given; not a response) */
	unsigned int		mr_select:1;
	unsigned int		parked:1;	/* waits for its peer's discovery */
	/* tx: the LND finalizes it once the peer has it (lnd.h, @send) */
	unsigned int		confirm:1;
	/* rx PUT/GET: the primary NID of the sender's peer (matching and
	 * the event's initiator)
	 */
	lnet_nid_t		initiator;

	struct lnet_ev_item	ev;
};

/* ---- the instance --------------------------------------------------------- */

/* per CPU; lnet_counter_add() counts, lnet_counters_sum() reads (stats.c) */
struct lnet_counters {
	u64	send_count;
	u64	send_length;
	u64	recv_count;
	u64	recv_length;
	u64	drop_count;
	u64	drop_length;
	u64	errors;
	u64	response_timeout_count;	/* ACKs and REPLYs that never came */
	u64	health[LNET_MSG_NSTATUS];	/* finalized messages by status */
	u64	resend_count;		/* messages sent again (resend.c) */
	u64	successful_resends;	/* ... that then went */
	u64	failed_resends;		/* failed with no retries left */
	u64	route_count;		/* messages forwarded (router.c) */
	u64	route_length;		/* their payload bytes */
	/* after the counters: stats.c sums them as an array of u64 */
	struct u64_stats_sync syncp;
};

enum lnet_state {
	LNET_STATE_DOWN,
	LNET_STATE_RUNNING,
	LNET_STATE_STOPPING,
};

struct lnet_ping_buffer;

struct lnet_ping_target {
	struct lnet_ping_buffer	*cur;		/* api_mutex */
	struct lnet_handle_eq	eqh;
	u32			seq;
	atomic_t		retiring;	/* old buffers not yet unlinked */
};

struct lnet_core {
	/* serializes bring-up/shutdown and NI list changes; may sleep */
	struct mutex		api_mutex;
	int			refcount;	/* LNetNIInit() users */
	enum lnet_state		state;
	lnet_pid_t		pid;
	u64			interface_cookie;	/* per bring-up */

	/*
	 * @net_lock: peers, credits, send queues and NI state changes. NI
	 * list readers use RCU; writers hold @api_mutex and @net_lock.
	 */
	spinlock_t		net_lock;
	struct list_head	nis;
	struct lnet_ni		*lo_ni;
	unsigned int		nni;
	/* two NIs share a network: the only case where NUMA picks one */
	bool			nets_shared;
	struct lnet_htable	peers;
	struct list_head	peer_list;	/* every peer in @peers; RCU readers */
	unsigned int		npeers;		/* on @peer_list */
	/* peers below LNET_MAX_HEALTH: receives look their sender up */
	atomic_t		peers_unhealthy;
	/* peers whose @tx_queue may be non-empty: the expiry scan's list */
	struct list_head	peers_waiting;
	/* peer nodes (peer-node.c): NID -> node, written under @net_lock */
	struct rhashtable	node_nids;
	struct list_head	nodes;		/* RCU readers */
	unsigned int		nnodes;
	u64			sel_seq;	/* net_lock: select.c's clock */

	/* module lifetime, so handle sequences survive bring-ups */
	struct lnet_portal	*portals;
	struct lnet_md_slot	*md_slots;
	unsigned int		md_slot_bits;
	spinlock_t		eq_lock;
	struct lnet_htable	eq_handles;
	struct list_head	eqs;		/* every EQ in @eq_handles */
	u64			eq_next_seq;

	struct srcu_struct	lnd_srcu;	/* see lnet_ni_stop() */
	struct percpu_counter	msg_count;	/* messages allocated */
	s64			msg_max;	/* approximate high water */
	struct lnet_counters __percpu *counters;
	struct lnet_ping_target	ping;
	struct dentry		*debugfs;
};

extern struct lnet_core lnet_core;

#endif /* _LINUX_LNET_LIB_TYPES_H */
