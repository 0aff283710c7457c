/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko2iblnd: the LNet InfiniBand/RoCE network driver (LND type 5, "o2ib"),
 * speaking the o2iblnd wire protocol V2 of Documentation/wire/o2iblnd.md over
 * the kernel verbs API and rdma_cm.
 *
 * Objects
 *   kib_net	one per NI: its netdev and address, the rdma_cm listener,
 *		the protection domain, the tx pool, the peer table
 *   kib_peer	a remote NID: its connection, the messages waiting for one,
 *		what earlier connection attempts learnt (version, queue depth,
 *		incarnation, races)
 *   kib_conn	one RC queue pair to a peer with its own CQ and receive
 *		buffers (2Q + 2 of 4 KiB), its credits and tx queues
 *   kib_tx	one outgoing o2iblnd message with what it carries: up to two
 *		LNet messages, a fast-registered sink buffer (FRWR) or the
 *		RDMA writes of a source buffer
 *   kib_rx	one posted receive buffer of a connection
 *
 * Contexts: completions are polled by ib_cq on a workqueue (process
 * context, one CQ per connection, its vector chosen from the peer's CPT),
 * so lnet_parse() runs there. rdma_cm events run in rdma_cm's own threads.
 * send()/recv() may come from softirq: everything they do is non-blocking.
 * Connection setup that sleeps (rdma_create_id, QP creation) and every
 * teardown runs on kib_wq.
 *
 * Lock order (outer first); every spinlock is taken with BH disabled:
 *
 *   kib_data.nets_lock		the list of nets (the reaper scans it)
 *     net->lock		the net's peer table; each peer's fields, tx
 *				queue and connection pointer; conn->state
 *       conn->lock		credits, the conn's tx queues and active
 *				list, rx deferral
 *         net->pool_lock	free tx descriptors (a leaf)
 *   conn->teardown_mutex	QP/CQ release vs. device removal (a mutex,
 *				no spinlock held)
 *
 * No spinlock of ours is held while calling into LNet (lnet_parse(),
 * lnet_finalize()) or into rdma_cm.
 */
#ifndef _KO2IBLND_H
#define _KO2IBLND_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <linux/lnet/lnd.h>
#include <linux/lnet/wire.h>

/* ---- wire (Documentation/wire/o2iblnd.md) -------------------------------- */

#define KIB_MSG_MAGIC		0x0BE91B91U
#define KIB_PROTO_MAGIC_UNIFIED	0x45726963U	/* LNET_PROTO_MAGIC */
#define KIB_MSG_VERSION_1	0x11
#define KIB_MSG_VERSION_2	0x12
#define KIB_MSG_VERSION		KIB_MSG_VERSION_2

#define KIB_MSG_CONNREQ		0xC0
#define KIB_MSG_CONNACK		0xC1
#define KIB_MSG_NOOP		0xD0
#define KIB_MSG_IMMEDIATE	0xD1
#define KIB_MSG_PUT_REQ		0xD2
#define KIB_MSG_PUT_NAK		0xD3
#define KIB_MSG_PUT_ACK		0xD4
#define KIB_MSG_PUT_DONE	0xD5
#define KIB_MSG_GET_REQ		0xD6
#define KIB_MSG_GET_DONE	0xD7

#define KIB_MSG_SIZE		4096	/* every receive buffer */
#define KIB_MAX_RDMA_FRAGS	(LNET_MAX_IOV + 1)	/* 257 */
#define KIB_SERVICE_DEFAULT	987
#define KIB_CREDITS_MAX		255	/* ibm_credits is 8 bits */
#define KIB_MAX_CONN_RACES	20	/* then the lower side wins */

/* reject reasons ("Reject reasons") */
#define KIB_REJECT_CONN_RACE		1
#define KIB_REJECT_NO_RESOURCES		2
#define KIB_REJECT_FATAL		3
#define KIB_REJECT_CONN_UNCOMPAT	4
#define KIB_REJECT_CONN_STALE		5
#define KIB_REJECT_RDMA_FRAGS		6
#define KIB_REJECT_MSG_QUEUE_SIZE	7
#define KIB_REJECT_INVALID_SRV_ID	8
#define KIB_REJECT_EARLY		9

/* IB CM reject reasons rdma_cm reports in event->status */
#define KIB_IB_CM_REJ_INVALID_SID	8
#define KIB_IB_CM_REJ_STALE_CONN	10
#define KIB_IB_CM_REJ_CONSUMER		28

/* Every field in the sender's byte order; the LNet header is always LE. */
struct kib_msg_hdr {
	u32	magic;
	u16	version;
	u8	type;
	u8	credits;
	u32	nob;
	u32	cksum;
	u64	srcnid;
	u64	srcstamp;
	u64	dstnid;
	u64	dststamp;
} __packed;

struct kib_connparams {
	u16	queue_depth;
	u16	max_frags;
	u32	max_msg_size;
} __packed;

struct kib_rdma_frag {
	u32	nob;
	u64	addr;		/* not 8-byte aligned on the wire */
} __packed;

struct kib_rdma_desc {
	u32			key;
	u32			nfrags;
	struct kib_rdma_frag	frags[];
} __packed;

struct kib_immediate_msg {
	struct lnet_hdr_nid4	hdr;
	u8			payload[];
} __packed;

struct kib_putreq_msg {
	struct lnet_hdr_nid4	hdr;
	u64			cookie;
} __packed;

struct kib_putack_msg {
	u64			src_cookie;
	u64			dst_cookie;
	struct kib_rdma_desc	rd;
} __packed;

struct kib_getreq_msg {
	struct lnet_hdr_nid4	hdr;
	u64			cookie;
	struct kib_rdma_desc	rd;
} __packed;

struct kib_completion_msg {
	u64	cookie;
	s32	status;
} __packed;

struct kib_msg {
	struct kib_msg_hdr	hdr;
	union {
		struct kib_connparams		connparams;
		struct kib_immediate_msg	immediate;
		struct kib_putreq_msg		putreq;
		struct kib_putack_msg		putack;
		struct kib_getreq_msg		getreq;
		struct kib_completion_msg	completion;
	} __packed u;
} __packed;

struct kib_rej {
	u32			magic;
	u16			version;
	u8			why;
	u8			padding;
	u64			incarnation;
	struct kib_connparams	cp;
} __packed;

static_assert(sizeof(struct kib_msg_hdr) == 48);
static_assert(offsetof(struct kib_msg_hdr, type) == 6);
static_assert(offsetof(struct kib_msg_hdr, credits) == 7);
static_assert(offsetof(struct kib_msg_hdr, nob) == 8);
static_assert(offsetof(struct kib_msg_hdr, cksum) == 12);
static_assert(offsetof(struct kib_msg_hdr, srcnid) == 16);
static_assert(offsetof(struct kib_msg_hdr, srcstamp) == 24);
static_assert(offsetof(struct kib_msg_hdr, dstnid) == 32);
static_assert(offsetof(struct kib_msg_hdr, dststamp) == 40);
static_assert(sizeof(struct kib_connparams) == 8);
static_assert(sizeof(struct kib_rdma_frag) == 12);
static_assert(sizeof(struct kib_rdma_desc) == 8);
static_assert(offsetof(struct kib_msg, u.immediate.payload) == 120);
static_assert(offsetof(struct kib_msg, u.putreq.cookie) == 120);
static_assert(offsetof(struct kib_msg, u.putack.dst_cookie) == 56);
static_assert(offsetof(struct kib_msg, u.putack.rd) == 64);
static_assert(offsetof(struct kib_msg, u.getreq.cookie) == 120);
static_assert(offsetof(struct kib_msg, u.getreq.rd) == 128);
static_assert(offsetof(struct kib_msg, u.completion.status) == 56);
static_assert(sizeof(struct kib_rej) == 24);
static_assert(offsetof(struct kib_rej, incarnation) == 8);
static_assert(offsetof(struct kib_rej, cp) == 16);

#define KIB_MSG_HDR_NOB		sizeof(struct kib_msg_hdr)
#define KIB_IMMEDIATE_HDR_NOB	offsetof(struct kib_msg, u.immediate.payload)
#define KIB_IMMEDIATE_MAX	(KIB_MSG_SIZE - KIB_IMMEDIATE_HDR_NOB)
#define KIB_CONNPARAMS_NOB	(KIB_MSG_HDR_NOB + sizeof(struct kib_connparams))
#define KIB_COMPLETION_NOB	(KIB_MSG_HDR_NOB + sizeof(struct kib_completion_msg))

/* ---- protocol helpers (o2iblnd_proto.c; pure, KUnit-tested) ----------------- */

/* Wire size of a message of @type whose descriptor has @nfrags fragments. */
unsigned int kib_msg_nob(u8 type, unsigned int nfrags);
void kib_msg_pack(struct kib_msg *msg, u8 type, unsigned int nob, u8 version,
		  u8 credits, lnet_nid_t srcnid, u64 srcstamp,
		  lnet_nid_t dstnid, u64 dststamp);
int kib_msg_unpack(struct kib_msg *msg, unsigned int nob);
int kib_msg_check_stamps(const struct kib_msg *msg, lnet_nid_t peer_nid,
			 u64 peer_stamp, lnet_nid_t own_nid, u64 own_stamp);
u32 kib_msg_cksum(const void *buf, unsigned int nob);

/* What the passive side needs from its NI to judge a CONNREQ. */
struct kib_accept_limits {
	lnet_nid_t	own_nid;	/* LNET_NID_ANY: no NI ready (EARLY) */
	u64		own_stamp;
	u16		max_queue_depth;
};

int kib_connreq_check(struct kib_msg *msg, unsigned int nob,
		      const struct kib_accept_limits *lim, u16 *version);
int kib_connack_check(struct kib_msg *msg, unsigned int nob, u16 version,
		      u16 queue_depth, u16 max_frags, lnet_nid_t own_nid,
		      u64 own_stamp);
void kib_rej_pack(struct kib_rej *rej, u16 version, u8 why, u64 incarnation,
		  u16 queue_depth, u16 max_frags);

/* A reject as the active side reads it; fields unknown are 0. */
struct kib_rej_info {
	u16	version;
	u8	why;
	u64	incarnation;
	u16	queue_depth;
	u16	max_frags;
	bool	has_params;	/* >= 24 bytes from a V2 peer */
};

int kib_rej_unpack(const void *data, unsigned int len,
		   struct kib_rej_info *info);
bool kib_race_reject_incoming(lnet_nid_t peer_nid, lnet_nid_t own_nid);

/* ---- module parameters (o2iblnd_modparams.c) -------------------------------- */

struct kib_net;

extern int kib_service;
extern int kib_peer_credits;
extern int kib_credits;
extern int kib_peer_credits_hiw;
extern int kib_concurrent_sends;
extern int kib_ntx;
unsigned int kib_timeout_secs(const struct kib_net *net);
extern int kib_keepalive;
extern int kib_cksum;
extern int kib_retry_count;
extern int kib_rnr_retry_count;
extern int kib_use_privileged_port;
extern int kib_require_privileged_port;
extern int kib_tos;
extern int kib_wrq_sge;
extern char *kib_ipif_name;
extern int kib_max_conns_per_peer;
extern int kib_max_nids_per_addr;
extern int kib_max_passive;

/* test builds only (LNET_KUNIT): faults the guest scenarios inject */
#ifdef LNET_KUNIT
extern int kib_test_send_delay_ms;
extern int kib_test_done_extra;
extern int kib_test_refuse_after_qp;
int kib_test_flood(int n, bool same);
#else
#define kib_test_send_delay_ms	0
#define kib_test_done_extra	0
#endif

int kib_modparams_check(void);
/* the credit-return high-water mark for a connection of depth @q */
int kib_credits_hiw(const struct kib_net *net, int q);
int kib_ni_tunables(struct kib_net *net, const char *nid,
		    struct lnet_lnd_tunables *t);
int kib_concurrent_sends_for(const struct kib_net *net, int q);

/* ---- objects ------------------------------------------------------------------ */

#define KIB_PEER_HASH_BITS	7

struct kib_tx;

/* rdma_cm id context: the listener's is its net, every other a conn */
struct kib_cm_ctx {
	bool	listener;
};

/*
 * Counters of one NI for /sys/kernel/debug/ko2iblnd/stats. The sink ones
 * check the rule that an LNet message whose buffer was registered for the
 * peer completes only once the peer can no longer write into it:
 * finalized_mr_live must stay 0.
 */
struct kib_stats {
	atomic64_t		sinks_registered;	/* REG_MR posted */
	atomic64_t		sinks_invalidated;	/* LOCAL_INV completed */
	atomic64_t		sinks_deregistered;	/* MR replaced instead */
	atomic64_t		finalized_after_dereg;	/* msgs that waited for it */
	atomic64_t		finalized_mr_live;	/* msgs finalized too early */
	atomic64_t		done_nob_rejected;	/* DONE beyond the sink */
	atomic64_t		sends_refused;		/* pool closed: -ENETDOWN */
	atomic64_t		connreqs_refused;	/* over a CONNREQ limit */
};

struct kib_net {
	struct list_head	list;		/* kib_data.nets */
	struct lnet_ni		*ni;
	u64			incarnation;
	__be32			ip;
	char			ifname[IFNAMSIZ];

	struct kib_cm_ctx	cm;
	u16			queue_depth;	/* proposed and accepted */
	int			timeout;	/* s; 0: the module's */
	int			tos;		/* -1: none */
	/* the NI's own peercredits_hiw and concurrent_sends; 0: the module's */
	int			credits_hiw;
	int			concurrent_sends;
	struct rdma_cm_id	*listener;
	struct ib_device	*ibdev;
	struct ib_pd		*pd;
	int			max_sge;	/* per RDMA work request */
	bool			dev_removed;	/* net->lock */
	struct work_struct	dev_work;	/* release after removal */
	struct work_struct	link_work;	/* kib_link_down_work() */

	spinlock_t		lock;
	DECLARE_HASHTABLE(peers, KIB_PEER_HASH_BITS);
	bool			shutdown;

	spinlock_t		pool_lock;
	struct list_head	free_txs;
	struct list_head	stale_txs;	/* waiting for a new MR */
	struct work_struct	stale_work;
	struct kib_tx		*txs;
	int			pool_size;	/* the NI's ntx, or the module's */
	int			ntx;
	u64			next_cookie;	/* pool_lock */
	int			ntx_out;	/* pool_lock: taken, not back */
	bool			pool_closed;	/* pool_lock: no kib_tx_get() */

	struct kib_stats	stats;

	atomic_t		npeers;
	atomic_t		nconns;
	int			npassive;	/* net->lock: accepted, not up */
	int			npassive_max;	/* net->lock: the most seen */
	int			nconns_max;	/* the most seen (statistics) */
#ifdef LNET_KUNIT
	struct list_head	flood_conns;	/* net->lock: test_flood_* */
#endif
};

struct kib_peer {
	struct hlist_node	hnode;		/* net->peers */
	struct kref		kref;
	struct kib_net		*net;
	lnet_nid_t		nid;

	/* net->lock */
	struct list_head	conns;		/* established, usable */
	struct list_head	passive;	/* accepted, not established */
	struct kib_conn		*connecting;	/* our active attempt */
	unsigned long		reconnect_at;	/* 0: none pending */
	struct list_head	tx_queue;	/* waiting for a connection */
	bool			unhashed;
	int			races;		/* CONN_RACE in a row */
	int			retries;	/* reconnects for a reject */
	u64			incarnation;	/* learnt; 0 unknown */
	u16			version;	/* to ask for */
	u16			queue_depth;	/* to ask for */
	u16			max_frags;	/* to ask for */
	unsigned long		last_alive;
};

enum kib_reconnect {
	KIB_RECONNECT_NO,
	KIB_RECONNECT_NOW,
	KIB_RECONNECT_LATER,	/* lost a race: let the peer's attempt win */
};

enum kib_conn_state {
	KIB_CONN_INIT,		/* resolving, or created for a CONNREQ */
	KIB_CONN_CONNECTING,	/* connect sent / accepted, not established */
	KIB_CONN_ESTABLISHED,
	KIB_CONN_CLOSING,
	KIB_CONN_CLOSED,
};

struct kib_rx {
	struct list_head	list;		/* conn->deferred_rxs */
	struct kib_conn		*conn;
	struct kib_msg		*msg;
	u64			dma;
	struct ib_cqe		cqe;
	unsigned int		nob;		/* received */
};

struct kib_conn {
	struct list_head	list;		/* peer->conns or peer->passive */
	struct kref		kref;
	struct kib_cm_ctx	cm;
	struct kib_net		*net;
	struct kib_peer		*peer;		/* reference held */
	struct rdma_cm_id	*cmid;
	struct ib_cq		*cq;
	unsigned int		ncqe;		/* our share of the pool CQ */
	struct ib_qp		*qp;
	bool			active;
	bool			on_passive;	/* net->lock: on peer->passive */
	__be32			src_addr;	/* passive: the CONNREQ's source */
	lnet_nid_t		flood_nid;	/* test builds: the NID we claim */
	enum kib_conn_state	state;		/* net->lock to change */
	int			error;

	u16			version;
	u16			queue_depth;
	u16			max_frags;
	u64			peer_stamp;
	int			max_sends;	/* concurrent_sends */
	int			credits_hiw;
	unsigned long		deadline;	/* connecting: give up at */

	spinlock_t		lock;
	int			credits;
	int			outstanding_credits;
	int			reserved_credits;
	int			nsends_posted;
	int			nnoops_posted;
	struct list_head	tx_noops;	/* credit-free, first */
	struct list_head	tx_queue;	/* take a credit */
	struct list_head	tx_queue_rsrvd;	/* REQs waiting for a reserve */
	struct list_head	active_txs;	/* posted or awaiting a reply */
	unsigned long		last_send;
	bool			rx_deferring;
	struct list_head	deferred_rxs;

	struct kib_rx		*rxs;
	int			nrx;

	struct mutex		teardown_mutex;
	bool			qp_released;
	bool			cmid_owned_by_cm;	/* rdma_cm destroys it */
	bool			cmid_destroying;	/* close work destroys it */
	int			reconnect;	/* KIB_RECONNECT_* after close */
	struct work_struct	connect_work;
	struct work_struct	close_work;
	struct work_struct	deferred_rx_work;
	bool			close_queued;	/* conn->lock */
};

/* A tx's job: the message it sends, and what it then waits for. */
struct kib_tx {
	struct list_head	list;		/* free list or a conn queue */
	struct kib_net		*net;
	struct kib_conn		*conn;		/* reference held when set */
	struct kib_msg		*msg;
	u64			msg_dma;
	u8			type;
	bool			queued;
	int			sending;	/* signaled WRs outstanding */
	bool			waiting;	/* for the peer's reply */
	bool			rsrvd;		/* holds a reserved credit */
	bool			noop;
	int			status;
	u8			hstatus;	/* enum lnet_msg_status; OK: by errno */
	u64			cookie;		/* ours, echoed by the peer */
	u64			peer_cookie;	/* the peer's, for DONE */
	unsigned long		deadline;
	struct lnet_msg		*lntmsg[2];	/* finalized when done */

	/* the buffer of an RDMA (our sink or our source) */
	struct scatterlist	*sg;
	int			nsg;		/* entries given to dma_map; 0: none */
	int			nsg_dma;	/* entries it returned */
	enum dma_data_direction	dma_dir;
	struct ib_mr		*mr;
	bool			mr_valid;	/* registered, not invalidated */
	u32			valid_rkey;	/* the key of that registration */
	unsigned int		sink_nob;	/* bytes of the registered sink */
	bool			reg_pending;	/* post reg_wr with the msg */
	unsigned int		rdma_nob;
	int			rdma_status;	/* PUT_DONE/GET_DONE status */

	struct ib_cqe		send_cqe;
	struct ib_cqe		inv_cqe;
	struct ib_cqe		unsig_cqe;
	struct ib_send_wr	send_wr;
	struct ib_sge		send_sge;
	struct ib_reg_wr	reg_wr;
	struct ib_send_wr	inv_wr;
	struct ib_rdma_wr	*rdma_wrs;	/* GFP_ATOMIC when needed */
	struct ib_sge		*rdma_sges;
	int			nrdma_wrs;
};

struct kib_data {
	struct mutex		mutex;		/* NI startup/shutdown */
	spinlock_t		nets_lock;
	struct list_head	nets;
	int			nnets;
	struct workqueue_struct	*wq;
	struct delayed_work	reaper;
	wait_queue_head_t	waitq;		/* peers/conns/txs going away */
	struct dentry		*debugfs;	/* ko2iblnd/stats */
};

extern struct kib_data kib_data;

/* o2iblnd.c */
struct kib_peer *kib_peer_find_locked(struct kib_net *net, lnet_nid_t nid);
struct kib_peer *kib_peer_find_or_create(struct kib_net *net, lnet_nid_t nid,
					 gfp_t gfp);
void kib_peer_release(struct kref *kref);
void kib_peer_unhash_locked(struct kib_peer *peer);

static inline void kib_peer_get(struct kib_peer *peer)
{
	kref_get(&peer->kref);
}

static inline void kib_peer_put(struct kib_peer *peer)
{
	kref_put(&peer->kref, kib_peer_release);
}

/* o2iblnd_conn.c */
int kib_cm_handler(struct rdma_cm_id *cmid, struct rdma_cm_event *ev);
int kib_listen(struct kib_net *net);
int kib_listen_start(struct kib_net *net);
void kib_net_release(struct kib_net *net);
void kib_net_close_peers(struct kib_net *net, int error);
void kib_peer_connect_locked(struct kib_peer *peer);
void kib_conn_close(struct kib_conn *conn, int error);
void kib_conn_close_locked(struct kib_conn *conn, int error);
void kib_conn_release(struct kref *kref);
int kib_conn_post_rx(struct kib_rx *rx);
void kib_reaper(struct work_struct *work);

static inline void kib_conn_get(struct kib_conn *conn)
{
	kref_get(&conn->kref);
}

static inline void kib_conn_put(struct kib_conn *conn)
{
	kref_put(&conn->kref, kib_conn_release);
}

/* o2iblnd_tx.c */
int kib_pool_init(struct kib_net *net);
void kib_pool_fini(struct kib_net *net);
void kib_pool_stop(struct kib_net *net);
void kib_pool_close(struct kib_net *net);
struct kib_tx *kib_tx_get(struct kib_net *net);
void kib_tx_done(struct kib_tx *tx);
void kib_txlist_done(struct list_head *txs, int status,
		     enum lnet_msg_status hs);
void kib_conn_txs_timed_out(struct kib_conn *conn);
enum lnet_msg_status kib_connect_failure_status(int error);
void kib_tx_prep(struct kib_tx *tx, u8 type, unsigned int body_nob);
bool kib_queue_tx_locked(struct kib_conn *conn, struct kib_tx *tx);
void kib_queue_tx(struct kib_conn *conn, struct kib_tx *tx);
void kib_check_sends(struct kib_conn *conn);
void kib_launch_tx(struct kib_net *net, struct kib_tx *tx, lnet_nid_t nid);
int kib_tx_map_sink(struct kib_tx *tx, struct iov_iter *iter,
		    struct kib_rdma_desc *rd);
int kib_tx_rdma_prep(struct kib_tx *tx, struct iov_iter *src,
		     const struct kib_rdma_desc *rd, unsigned int nob);
void kib_tx_complete_reply(struct kib_conn *conn, struct kib_tx *tx,
			   int status);
struct kib_tx *kib_find_waiting_tx_locked(struct kib_conn *conn, u8 type,
					  u64 cookie);
bool kib_conn_timed_out(struct kib_conn *conn);
int kib_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg);

/* o2iblnd_rx.c */
void kib_rx_done(struct ib_cq *cq, struct ib_wc *wc);
void kib_deferred_rx_work(struct work_struct *work);
void kib_rx_return(struct kib_rx *rx, bool credit);
int kib_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	     bool delayed, struct iov_iter *to, unsigned int mlen,
	     unsigned int rlen);

/* o2iblnd_ioctl.c: GET_PEER, GET_CONN */
void kib_ioctl_init(void);
void kib_ioctl_fini(void);

#endif /* _KO2IBLND_H */
