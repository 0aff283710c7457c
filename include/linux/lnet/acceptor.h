/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNet acceptor (Documentation/wire/socklnd.md, "The acceptor"): the
 * TCP listener on accept_port shared by the LNDs that use it (ksocklnd),
 * and the helpers those LNDs use on the active side and for their
 * handshakes.
 *
 * The listener binds INADDR_ANY:accept_port once, whatever the number of
 * NIs; a connection request is matched to a local NI by its target NID
 * alone (exact match), so it does not matter which local address the peer
 * connected to. The acceptor runs while at least one LND holds it
 * (lnet_acceptor_start()/lnet_acceptor_stop() are reference counted).
 */
#ifndef _LINUX_LNET_ACCEPTOR_H
#define _LINUX_LNET_ACCEPTOR_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/lnet/lnet-nid.h>

struct socket;
struct sock;

/* Magics of the acceptor and socklnd (Documentation/wire/lnet-header.md) */
#define LNET_PROTO_ACCEPTOR_MAGIC	0xACCE7100U
#define LNET_PROTO_ACCEPTOR_VERSION	1	/* nid4 target */
#define LNET_PROTO_ACCEPTOR_VERSION_16	2	/* large-NID target */
#define LNET_PROTO_MAGIC		0x45726963U	/* socklnd V2+ hello */
#define LNET_PROTO_TCP_MAGIC		0xEEBC0DEDU	/* socklnd V1 hello */

/* Reserved source ports the active side binds to, tried downwards. */
#define LNET_ACCEPTOR_MAX_RESERVED_PORT	1023
#define LNET_ACCEPTOR_MIN_RESERVED_PORT	512

/*
 * The version-1 connection request, 16 bytes in the sender's byte order
 * (receivers recognise a byte-swapped magic and swap the rest).
 */
struct lnet_acceptor_connreq {
	u32	magic;
	u32	version;
	u64	nid;
} __packed;

static_assert(sizeof(struct lnet_acceptor_connreq) == 16);

/* Start (first caller) or reference the listener: 0 or -errno. */
int lnet_acceptor_start(void);
/* Drop a reference; the last one closes the listener and stops its thread. */
void lnet_acceptor_stop(void);

/* The accept_port and accept_timeout (seconds) module parameters. */
int lnet_acceptor_port(void);
int lnet_acceptor_timeout(void);

int lnet_connect(struct socket **sockp, lnet_nid_t peer_nid, __be32 local_ip,
		 __be32 peer_ip, int port, int timeout);

int lnet_sock_read(struct socket *sock, void *buf, size_t len, int timeout);
int lnet_sock_write(struct socket *sock, const void *buf, size_t len,
		    int timeout);
int lnet_sock_getaddr(struct socket *sock, bool remote, __be32 *ip,
		      int *port);

/*
 * Passive handshakes read without a thread blocked on them
 * (Documentation/hardening.md, "Handshakes"). A handshake gathers the
 * bytes its peer sends as they arrive (sk_data_ready queues its work), all
 * of them under one deadline that no byte extends, in a pool that holds a
 * bounded number: when it is full the oldest handshake is dropped for the
 * new one, so a flood of slow peers can neither exhaust memory nor keep a
 * quick peer out for longer than its own exchange takes.
 */
#define LNET_HS_BUF_SIZE	128

struct lnet_hs;

struct lnet_hs_ops {
	/*
	 * The bytes the handshake needs in all, from what @hs->buf holds:
	 * more than @hs->have to read on, else (0 will do) it is complete or
	 * undecidable and ->done() judges it.
	 */
	unsigned int (*need)(const struct lnet_hs *hs);
	/*
	 * Complete (@rc 0) or failed (timeout, abort, reset, -EPROTO): @hs is
	 * out of its pool, the socket has its own callbacks back; ->done()
	 * owns and frees both. Runs on the pool's workqueue.
	 */
	void (*done)(struct lnet_hs *hs, int rc);
};

struct lnet_hs_pool {
	spinlock_t		lock;
	struct list_head	list;		/* oldest first; @lock */
	unsigned int		nlive;		/* on @list, not aborted */
	unsigned int		nall;		/* admitted, not yet done */
	wait_queue_head_t	waitq;		/* nall reaching 0 */
	struct workqueue_struct	*wq;
	const char		*name;		/* for messages */
};

struct lnet_hs {
	struct list_head	list;		/* pool->list */
	struct lnet_hs_pool	*pool;
	const struct lnet_hs_ops *ops;
	void			*owner;		/* for lnet_hs_pool_abort() */
	struct socket		*sock;
	__be32			peer_ip;
	int			peer_port;
	struct delayed_work	work;
	unsigned long		deadline;	/* jiffies */
	bool			aborted;	/* pool->lock */
	void			(*saved_data_ready)(struct sock *sk);
	void			(*saved_state_change)(struct sock *sk);
	unsigned int		have;
	u8			buf[LNET_HS_BUF_SIZE];
};

int lnet_hs_pool_init(struct lnet_hs_pool *pool, const char *name);
void lnet_hs_pool_fini(struct lnet_hs_pool *pool);
int lnet_hs_start(struct lnet_hs_pool *pool, struct lnet_hs *hs,
		  struct socket *sock, unsigned int limit,
		  unsigned long deadline);
void lnet_hs_pool_abort(struct lnet_hs_pool *pool, void *owner);

#endif /* _LINUX_LNET_ACCEPTOR_H */
