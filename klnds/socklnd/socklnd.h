/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksocklnd: the LNet TCP network driver (LND type 2, "tcp"), speaking the
 * socklnd wire protocol V3 (V2 accepted) of Documentation/wire/socklnd.md.
 *
 * Objects
 *   ksock_net	one per NI: its address, incarnation, peer table
 *   ksock_peer	a remote (NID, pid): its connections, the messages waiting
 *		for one, its pending zero-copy requests, reconnect state
 *   ksock_conn	one TCP connection of a peer, typed CONTROL / BULK_IN /
 *		BULK_OUT (our view); served by one scheduler thread
 *   ksock_tx	one outgoing message (LNet message or NOOP)
 *   ksock_sched	one scheduler thread: receives and transmits for its
 *		connections, bound to a CPU partition
 *
 * Threads: the schedulers (nscheds per CPT). Work items: the active
 * handshakes (connect, hello, reply: they block) on connd_wq, at most
 * nconnds at once; the passive hellos, gathered without blocking as
 * their bytes come (lnet_hs_start(), at most max_pending_hellos, each
 * by the deadline the acceptor set for the whole handshake) on the workqueue of ksock_data.passive, so that
 * neither kind waits behind the other; the reaper (timeouts, keepalives,
 * reconnects, freeing closed connections) on the ordered reaper_wq.
 *
 * Lock order (outer first); every lock is taken with BH disabled, since
 * the socket callbacks run in softirq context:
 *
 *   ksock_data.nets_lock	the list of nets (reaper scans)
 *     net->lock		the net's peer table; every peer's fields and
 *				lists; connection registration and close
 *       sk->sk_callback_lock	a connection's socket callbacks (write side:
 *				installing and restoring them)
 *         sched->lock		the scheduler's queues; each of its
 *				connections' tx queue and rx/tx flags, and the
 *				rx hand-off with lnet_parse()/recv()
 *   ksock_data.reaper_lock	closed connections awaiting free (a leaf,
 *				taken with IRQs saved: any context)
 *   net->sock_mutex		handshakes in progress (a mutex; no spinlock
 *				held, never nested with the above)
 *
 * No lock of ours is held while calling into LNet (lnet_parse(),
 * lnet_finalize()) or while doing socket I/O.
 */
#ifndef _KSOCKLND_H
#define _KSOCKLND_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/lnet/acceptor.h>
#include <linux/lnet/lnd.h>

/* ---- wire (Documentation/wire/socklnd.md) -------------------------------- */

#define KSOCK_PROTO_V1		1
#define KSOCK_PROTO_V2		2
#define KSOCK_PROTO_V3		3
#define KSOCK_PROTO_V4		4

/* Connection types; NONE only in a hello reply. */
#define KSOCK_CONN_NONE		(-1)
#define KSOCK_CONN_ANY		0
#define KSOCK_CONN_CONTROL	1
#define KSOCK_CONN_BULK_IN	2
#define KSOCK_CONN_BULK_OUT	3
#define KSOCK_CONN_NTYPES	4

/* socklnd message types ("Message header") */
#define KSOCK_MSG_NOOP		0xC0
#define KSOCK_MSG_LNET		0xC1

/* cookie 1 of a keepalive NOOP ("Keepalive and timeouts") */
#define KSOCK_KEEPALIVE_PING	1

#define KSOCK_HELLO_MAX_IPS	16	/* LNET_INTERFACES_NUM */

/* The V2/V3 hello, 56 bytes, every field in the sender's byte order. */
struct ksock_hello_wire {
	u32	magic;
	u32	version;
	u64	src_nid;
	u64	dst_nid;
	u32	src_pid;
	u32	dst_pid;
	u64	src_incarnation;
	u64	dst_incarnation;
	u32	type;		/* a KSOCK_CONN_* as u32 */
	u32	nips;
} __packed;

static_assert(sizeof(struct ksock_hello_wire) == 56);
static_assert(offsetof(struct ksock_hello_wire, version) == 4);
static_assert(offsetof(struct ksock_hello_wire, src_nid) == 8);
static_assert(offsetof(struct ksock_hello_wire, dst_nid) == 16);
static_assert(offsetof(struct ksock_hello_wire, src_pid) == 24);
static_assert(offsetof(struct ksock_hello_wire, dst_pid) == 28);
static_assert(offsetof(struct ksock_hello_wire, src_incarnation) == 32);
static_assert(offsetof(struct ksock_hello_wire, dst_incarnation) == 40);
static_assert(offsetof(struct ksock_hello_wire, type) == 48);
static_assert(offsetof(struct ksock_hello_wire, nips) == 52);

/* A hello in host order. */
struct ksock_hello {
	u32		version;
	lnet_nid_t	src_nid;
	lnet_nid_t	dst_nid;
	lnet_pid_t	src_pid;
	lnet_pid_t	dst_pid;
	u64		src_incarnation;
	u64		dst_incarnation;
	int		type;
	u32		nips;
};

/* The socklnd message header, 24 bytes, in the sender's byte order. */
struct ksock_msg_hdr_wire {
	u32	type;
	u32	csum;
	u64	zc_cookies[2];
} __packed;

static_assert(sizeof(struct ksock_msg_hdr_wire) == 24);
static_assert(offsetof(struct ksock_msg_hdr_wire, csum) == 4);
static_assert(offsetof(struct ksock_msg_hdr_wire, zc_cookies) == 8);

#define KSOCK_HDR_NOB		sizeof(struct ksock_msg_hdr_wire)
#define KSOCK_LNET_HDR_NOB	(KSOCK_HDR_NOB + LNET_HDR_NID4_SIZE)

/* ---- module parameters (socklnd_modparams.c) -------------------------------- */

extern int ksock_sock_timeout;
extern int ksock_credits;
extern int ksock_peer_credits;
extern int ksock_nscheds;
extern int ksock_nconnds;
extern unsigned int ksock_max_pending_hellos;
extern int ksock_typed_conns;
extern int ksock_conns_per_peer;
extern int ksock_min_bulk;
extern int ksock_keepalive;
extern int ksock_keepalive_idle;
extern int ksock_keepalive_count;
extern int ksock_keepalive_intvl;
extern int ksock_nonblk_zcack;
extern int ksock_zc_min_payload;
extern int ksock_tx_buffer_size;
extern int ksock_rx_buffer_size;
extern int ksock_nagle;
extern int ksock_min_reconnectms;
extern int ksock_max_reconnectms;
extern int ksock_tos;
extern int ksock_max_queued_noops;
extern bool ksock_dump_hello;

struct ksock_net;

/* bulk connections of each direction per peer, at most */
#define KSOCK_CONNS_PER_PEER_MAX	127

int ksock_modparams_check(void);
/* seconds, never 0: @net's own, else sock_timeout, else lnet_lnd_timeout() */
int ksock_timeout(const struct ksock_net *net);

/* ---- objects ------------------------------------------------------------------ */

struct ksock_sched {
	spinlock_t		lock;
	struct list_head	rx_conns;	/* conns with rx work */
	struct list_head	tx_conns;	/* conns with tx work */
	wait_queue_head_t	waitq;
	int			nconns;		/* load, for placement */
	int			cpt;
	int			index;
	void			*scratch;	/* discarded payload lands here */
	struct task_struct	*task;
};

#define KSOCK_PEER_HASH_BITS	7

struct ksock_net {
	struct list_head	list;		/* ksock_data.nets */
	struct lnet_ni		*ni;
	u64			incarnation;
	__be32			ip;
	char			ifname[IFNAMSIZ];
	/* the NI's LND tunables, else the module's (ksock_net_tunables()) */
	int			conns_per_peer;
	int			timeout;	/* s; 0: sock_timeout's */
	int			tos;		/* -1: none */

	spinlock_t		lock;
	DECLARE_HASHTABLE(peers, KSOCK_PEER_HASH_BITS);
	bool			shutdown;

	/* sockets in a handshake, so shutdown can abort them */
	struct mutex		sock_mutex;
	struct list_head	socks;

	atomic_t		npeers;
	atomic_t		nconns;
	atomic_t		nbusy;		/* connd jobs and connreqs */

	struct work_struct	link_work;	/* ksock_link_down_work() */
};

struct ksock_peer {
	struct hlist_node	hnode;		/* net->peers */
	struct kref		kref;
	struct ksock_net	*net;
	struct lnet_process_id	id;
	__be32			ip;
	bool			userspace;	/* accepted from port > 1023 */
	bool			unhashed;

	/* net->lock */
	struct list_head	conns;
	int			nconns[KSOCK_CONN_NTYPES];
	struct list_head	tx_queue;	/* waiting for a connection */
	struct list_head	zc_reqs;	/* sent zero-copy, awaiting ACK */
	u64			zc_cookie;	/* last cookie handed out */
	u64			incarnation;	/* while it has conns */
	int			proto;		/* learned version, 0: V3 */
	bool			connecting;	/* a connd works on it */
	bool			connect_queued;
	unsigned long		retry_time;	/* jiffies; no connect before */
	unsigned int		retry_ms;	/* current back-off */
	int			none_retries;
	unsigned long		last_alive;	/* jiffies of last rx */
	unsigned long		last_keepalive;

	struct work_struct	connd_work;	/* while @connecting */
};

enum ksock_rx_state {
	KSOCK_RX_HDR,		/* reading the 24-byte socklnd header */
	KSOCK_RX_LNET_HDR,	/* reading the 72-byte LNet header */
	KSOCK_RX_PARSE,		/* in lnet_parse(), recv() not yet called */
	KSOCK_RX_PARKED,	/* lnet_parse() returned, recv() still due */
	KSOCK_RX_BODY,		/* receiving (and discarding) the payload */
	KSOCK_RX_DEAD,		/* the connection closed */
};

struct ksock_conn {
	struct kref		kref;
	struct ksock_net	*net;
	struct ksock_peer	*peer;		/* reference held */
	struct socket		*sock;
	struct ksock_sched	*sched;
	int			type;		/* our view */
	int			proto;
	bool			flip;		/* peer's byte order differs */
	bool			zc_capable;
	u64			incarnation;	/* the peer's */
	__be32			local_ip;
	__be32			peer_ip;
	int			local_port;
	int			peer_port;
	bool			passive;	/* the peer connected */

	/* net->lock */
	struct list_head	peer_list;	/* peer->conns */
	bool			closed;		/* off the peer; dying */
	/* poked because the peer opened a duplicate; until @probe_end */
	bool			probed;
	unsigned long		probe_end;
	int			error;
	/* what its queued txs fail with, if not by @error's errno */
	u8			tx_hstatus;	/* enum lnet_msg_status */

	/* socket callbacks we replaced (sk_callback_lock) */
	bool			cb_installed;
	void			(*saved_data_ready)(struct sock *sk);
	void			(*saved_write_space)(struct sock *sk);
	void			(*saved_state_change)(struct sock *sk);

	/* sched->lock */
	struct list_head	rx_list;	/* sched->rx_conns */
	struct list_head	tx_list;	/* sched->tx_conns */
	bool			rx_ready;
	bool			rx_scheduled;
	bool			tx_ready;
	bool			tx_scheduled;
	bool			closing;
	struct list_head	tx_queue;
	unsigned long		tx_queued_nob;
	unsigned int		noops_queued;	/* NOOPs on tx_queue */
	struct ksock_tx		*zcack_tx;	/* queued ZC-ACK taking more */
	enum ksock_rx_state	rx_state;	/* PARSE/PARKED/BODY hand-off */

	/* the scheduler thread only */
	bool			terminated;
	u8			rx_hdrbuf[KSOCK_LNET_HDR_NOB];
	unsigned int		rx_got;		/* header bytes so far */
	struct ksock_msg_hdr_wire rx_ksh;	/* host order */
	u64			rx_zc_cookie;	/* to ACK once received */
	struct lnet_msg		*rx_msg;
	struct iov_iter		rx_iter;
	unsigned int		rx_mlen;	/* payload left for rx_iter */
	unsigned int		rx_skip;	/* payload left to discard */

	/* deadlines (jiffies), approximate reads by the reaper */
	unsigned long		rx_deadline;
	bool			rx_started;
	unsigned long		tx_deadline;
	int			tx_bufnob;	/* reaper: sk_wmem_queued seen */
	unsigned long		buf_deadline;	/* reaper: ... since then */

	struct list_head	zombie_list;	/* ksock_data.zombies */
};

enum ksock_tx_kind {
	KSOCK_TX_LNET,
	KSOCK_TX_NOOP,		/* NOOP that may use any connection */
	KSOCK_TX_NOOP_NONBLK,	/* ZC-ACK or keepalive */
};

struct ksock_tx {
	struct list_head	list;		/* conn or peer tx_queue */
	struct list_head	zc_list;	/* peer->zc_reqs */
	struct kref		kref;		/* 2 while a ZC request */
	enum ksock_tx_kind	kind;
	struct lnet_msg		*msg;		/* NULL for a NOOP */
	struct ksock_conn	*conn;		/* queued on (no reference) */
	int			status;
	u8			hstatus;	/* enum lnet_msg_status; OK:
						 * the core judges by @status
						 */
	bool			zc;		/* payload sent by sendpage */
	/* cookie set, on peer->zc_reqs: done when the peer ACKs it (a
	 * zero-copy payload, or a message LNet wants confirmed)
	 */
	bool			zc_req;
	bool			zc_acked;
	bool			zcack;		/* a NOOP carrying ZC-ACKs */
	unsigned int		nob;		/* bytes on the wire */
	unsigned int		hdr_nob;	/* header bytes */
	unsigned int		sent;		/* bytes written so far */
	unsigned long		deadline;	/* on a peer's tx_queue */
	struct iov_iter		payload;
	struct {
		struct ksock_msg_hdr_wire	ksh;
		struct lnet_hdr_nid4		lnet;
	} __packed hdr;
};

/* ---- global state (socklnd.c) -------------------------------------------------- */

struct ksock_data {
	struct mutex		mutex;		/* NI startup/shutdown */
	int			nnets;		/* mutex */
	spinlock_t		nets_lock;
	struct list_head	nets;

	struct ksock_sched	*scheds;
	int			nscheds;

	/* handshakes (peer->connd_work, connreq->work); max_active nconnds */
	struct workqueue_struct	*connd_wq;

	/* ordered: zombie_work and the reaper never run at once */
	struct workqueue_struct	*reaper_wq;
	spinlock_t		reaper_lock;
	struct list_head	zombies;	/* conns at refcount 0 */
	struct work_struct	zombie_work;
	struct delayed_work	reaper;		/* once a second */

	/* NI shutdown waits here for its peers, conns and connd jobs */
	wait_queue_head_t	shutdown_waitq;
	/* passive hellos being gathered, of every net (hs.owner) */
	struct lnet_hs_pool	passive;
};

extern struct ksock_data ksock_data;

/* a socket accepted for one of our NIs, its hello being gathered */
struct ksock_passive {
	struct lnet_hs		hs;		/* in ksock_data.passive */
	struct ksock_net	*net;
};

/* a hello and its IPs */
#define KSOCK_HELLO_BUF_SIZE	(sizeof(struct ksock_hello_wire) + \
				 KSOCK_HELLO_MAX_IPS * sizeof(u32))
static_assert(KSOCK_HELLO_BUF_SIZE <= LNET_HS_BUF_SIZE);

/* a handshake in progress (net->socks) */
struct ksock_handshake {
	struct list_head	list;
	struct socket		*sock;
};

/* socklnd.c */
struct ksock_peer *ksock_peer_find_locked(struct ksock_net *net,
					  struct lnet_process_id id);
struct ksock_peer *ksock_peer_find_or_create(struct ksock_net *net,
					     struct lnet_process_id id,
					     gfp_t gfp);
void ksock_peer_release(struct kref *kref);

static inline void ksock_peer_get(struct ksock_peer *peer)
{
	kref_get(&peer->kref);
}

static inline void ksock_peer_put(struct ksock_peer *peer)
{
	kref_put(&peer->kref, ksock_peer_release);
}

/* socklnd_proto.c */
int ksock_conn_type_inverse(int type);
bool ksock_conn_type_valid(int type);
void ksock_hello_to_wire(const struct ksock_hello *h,
			 struct ksock_hello_wire *w);
int ksock_hello_parse_head(const u32 head[2], u32 *version, bool *flip);
void ksock_hello_from_wire(const struct ksock_hello_wire *w, bool flip,
			   struct ksock_hello *h);
void ksock_msg_hdr_from_wire(const struct ksock_msg_hdr_wire *w, bool flip,
			     struct ksock_msg_hdr_wire *h);
enum ksock_match {
	KSOCK_MATCH_NO,
	KSOCK_MATCH_MAY,
	KSOCK_MATCH_YES,
};
enum ksock_match ksock_match_conn(int proto, int conn_type,
				  enum ksock_tx_kind kind, unsigned int nob);
void ksock_dump_hello_bytes(const char *what, const void *buf, size_t len);

/* socklnd_conn.c */
int ksock_accept(struct lnet_ni *ni, struct socket *sock,
		 unsigned long deadline);
void ksock_connd_peer_work(struct work_struct *work);
void ksock_peer_maybe_connect_locked(struct ksock_peer *peer);
int ksock_next_conn_type_locked(struct ksock_peer *peer);
void ksock_conn_close_locked(struct ksock_conn *conn, int error);
void ksock_peer_close_locked(struct ksock_peer *peer, int error);
void ksock_conn_close_siblings_locked(struct ksock_conn *conn, int error);
void ksock_conn_close(struct ksock_conn *conn, int error);
void ksock_conn_fail(struct ksock_conn *conn, int error);
void ksock_conn_release(struct kref *kref);

static inline void ksock_conn_get(struct ksock_conn *conn)
{
	kref_get(&conn->kref);
}

static inline void ksock_conn_put(struct ksock_conn *conn)
{
	kref_put(&conn->kref, ksock_conn_release);
}
void ksock_conn_destroy(struct ksock_conn *conn);
void ksock_conn_terminate(struct ksock_conn *conn);
void ksock_net_abort_handshakes(struct ksock_net *net);

/* socklnd_tx.c */
int ksock_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg);
struct ksock_tx *ksock_tx_alloc_noop(u64 cookie0, u64 cookie1, gfp_t gfp);
int ksock_launch_noop_locked(struct ksock_peer *peer, struct ksock_tx *tx);
void ksock_probe_conn_locked(struct ksock_conn *conn);
void ksock_probe_conns_locked(struct ksock_peer *peer, int type);
void ksock_queue_tx_locked(struct ksock_conn *conn, struct ksock_tx *tx);
struct ksock_conn *ksock_find_conn_locked(struct ksock_peer *peer,
					  struct ksock_tx *tx);
void ksock_tx_put(struct ksock_tx *tx, int status);
void ksock_txlist_done(struct list_head *list, int status);
int ksock_process_tx(struct ksock_conn *conn);
void ksock_conn_flush_tx(struct ksock_conn *conn);
void ksock_conn_abort_zc(struct ksock_conn *conn);
int ksock_handle_zcack(struct ksock_conn *conn, u64 c0, u64 c1);
void ksock_send_zcack(struct ksock_conn *conn, u64 cookie);

/* socklnd_rx.c */
int ksock_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	       bool delayed, struct iov_iter *to, unsigned int mlen,
	       unsigned int rlen);
int ksock_process_rx(struct ksock_conn *conn);
void ksock_conn_abort_rx(struct ksock_conn *conn);

/* results of ksock_process_rx/tx */
#define KSOCK_IO_DONE	0	/* nothing more to do now */
#define KSOCK_IO_MORE	1	/* more work: requeue */
#define KSOCK_IO_WAIT	2	/* socket would block: wait for a callback */
#define KSOCK_IO_PARSED	3	/* rx: lnet_parse() done, recv() not yet */

/* socklnd_sched.c */
int ksock_scheds_start(void);
void ksock_scheds_stop(void);
struct ksock_sched *ksock_sched_pick(struct lnet_ni *ni, lnet_nid_t nid);
void ksock_sched_release(struct ksock_sched *sched);
void ksock_conn_schedule_rx_locked(struct ksock_conn *conn);
void ksock_conn_schedule_tx_locked(struct ksock_conn *conn);
void ksock_reaper(struct work_struct *work);
void ksock_reap_zombies(struct work_struct *work);

/* socklnd_lib.c */
int ksock_socket_setup(struct socket *sock, const struct ksock_net *net);
void ksock_conn_install_callbacks(struct ksock_conn *conn);
void ksock_conn_restore_callbacks(struct ksock_conn *conn);
bool ksock_sock_zc_capable(struct socket *sock);
int ksock_net_pick_iface(struct ksock_net *net, const char *name);
int ksock_net_dev_node(struct ksock_net *net);
int ksock_net_tunables(struct ksock_net *net, struct lnet_lnd_tunables *t);
void ksock_set_conns_per_peer(struct lnet_ni *ni, unsigned int conns);

/* socklnd_ioctl.c: GET_PEER, GET_CONN */
void ksock_ioctl_init(void);
void ksock_ioctl_fini(void);

#endif /* _KSOCKLND_H */
