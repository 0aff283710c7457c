/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the LNet core and its network drivers (LNDs):
 * ksocklnd, ko2iblnd and the built-in loopback LND.
 *
 * An LND registers a struct lnet_lnd for its LND type. When a network of
 * that type is configured the core creates one struct lnet_ni per
 * interface and calls startup(); from then on the core hands it messages
 * to send(), and the LND hands up every header it receives to lnet_parse().
 * Each message ends with exactly one lnet_finalize() call.
 *
 * Context: LND ops are called without any LNet spinlock held. startup(),
 * shutdown() and accept() run in process context; send() and
 * recv() run in whatever context the core is in - including that of an
 * lnet_finalize() (a returned credit releases a queued send; a finalized
 * PUT sends its ACK) - so they must not sleep. lnet_parse() must be called
 * from process context; lnet_finalize() from process or softirq context.
 */
#ifndef _LINUX_LNET_LND_H
#define _LINUX_LNET_LND_H

#include <linux/module.h>
#include <linux/uio.h>
#include <linux/lnet/lib-types.h>

struct socket;

/**
 * struct lnet_lnd - an LND's operations
 * @owner: the LND module; the core holds a reference on it while any NI
 *	of this type exists (none for the built-in loopback LND).
 * @type: the LND type number (enum lnet_lnd_type).
 * @startup: bring up @ni. Set the address part of ni->nid (the net part is
 *	set), may adjust credits with lnet_ni_set_credits(), applies the
 *	NI's LND tunables (lnet_ni_lnd_tunables(); -EOPNOTSUPP for one it
 *	cannot apply) and writes back the values in effect. Return 0 or
 *	-errno; on error nothing of @ni is used again.
 * @shutdown: take @ni down. Called once the NI is marked down: no more
 *	send() calls will come. Before returning, the LND must have called
 *	lnet_finalize() for every message it accepted and must have stopped
 *	calling lnet_parse() for @ni.
 * @send: transmit @msg (header msg->hdr, LND-level destination
 *	msg->target, payload lnet_msg_iter()). @private is NULL, or for the
 *	REPLY to an RDMA GET (lnet_parse() with @rdma_req) the GET's private.
 *	Return 0 once the LND owns the message (it calls lnet_finalize(),
 *	possibly before send() returns); a negative return means the message
 *	was not taken and the core finalizes it with that error. Either way
 *	@private is the LND's again. If such a REPLY fails before send(), the
 *	core hands @private back through recv() with no message - unless the
 *	NI is going down, when shutdown() must release it.
 *	With msg->confirm set (LNet could send @msg again to another NID of
 *	a Multi-Rail peer), the LND finalizes @msg only once the peer has all
 *	of it, not when it leaves this node: if the connection is lost first,
 *	@msg fails with the connection's status (lnet_msg_set_health()), and
 *	the core resends it on another rail instead of losing it silently.
 * @recv: deliver the payload of a message handed up by lnet_parse(). With
 *	@msg, copy the first @mlen of the @rlen payload bytes into @to (an
 *	iterator over the matched buffer holding exactly @mlen bytes; the LND
 *	may keep a copy of it until it finalizes @msg), discard the rest and
 *	call lnet_finalize(@msg). With @msg == NULL, discard all @rlen bytes
 *	and release @private; no finalize. @delayed says the message waited
 *	on a lazy portal. Return 0, or -errno without finalizing (the core
 *	then finalizes @msg with that error).
 * @accept: the acceptor matched a connection request to @ni: take over
 *	@sock (only LNDs that use the acceptor). @deadline (jiffies) is the
 *	handshake's, set when the connection was accepted: the LND's part
 *	must be done by then too, so that a peer slow in every stage is
 *	dropped after accept_timeout, not after that much per stage.
 * @timeout: optional: the seconds this LND gives one try of a message
 *	before failing it - its own timeout tunable, or lnet_lnd_timeout()
 *	while that is 0. Each message the core sends through it may be
 *	tried retry_count + 1 times within that many timeouts (plus one
 *	second); without this op, within transaction_timeout.
 * @set_conns_per_peer: optional: the connections per peer of @ni's
 *	connections made from now on (lnetctl net set --conns-per-peer),
 *	0 for the LND's default, at most LNET_IOCTL_CONNS_PER_PEER_MAX (the
 *	core checks). Process context, under the core's api_mutex. It also
 *	writes the value in effect to ni->lnd_tunables for net show.
 *	Without this op the NI has one connection per peer, fixed.
 * @link_down: optional: @ni's interface lost its link (down, or no
 *	carrier). The LND fails what it holds for @ni's peers - queued,
 *	and sent but not confirmed - as LNET_MSG_STATUS_LOCAL_DROPPED, so
 *	that the core resends it on another rail now rather than after the
 *	LND's timeout. Called under RTNL and rcu_read_lock(): it must not
 *	sleep (queue work); never once shutdown() may have begun.
 *
 * Registration and @list belong to the core. No op tells an LND that a
 * peer is dead: the core has no such verdict before routing judges
 * gateways' aliveness, so the LNDs close connections on their own evidence.
 */
struct lnet_lnd {
	struct module	*owner;
	u32		type;
	int		(*startup)(struct lnet_ni *ni);
	void		(*shutdown)(struct lnet_ni *ni);
	int		(*send)(struct lnet_ni *ni, void *private,
				struct lnet_msg *msg);
	int		(*recv)(struct lnet_ni *ni, void *private,
				struct lnet_msg *msg, bool delayed,
				struct iov_iter *to, unsigned int mlen,
				unsigned int rlen);
	int		(*accept)(struct lnet_ni *ni, struct socket *sock,
				  unsigned long deadline);
	unsigned int	(*timeout)(struct lnet_ni *ni);
	void		(*set_conns_per_peer)(struct lnet_ni *ni,
					      unsigned int conns);
	void		(*link_down)(struct lnet_ni *ni);

	struct list_head list;
};

int lnet_register_lnd(struct lnet_lnd *lnd);
void lnet_unregister_lnd(struct lnet_lnd *lnd);

/*
 * /dev/lnet commands the core does not know go to the modules that
 * register for them (the LNDs' GET_PEER/GET_CONN, lnet_selftest):
 * @handle gets the validated kernel copy of the argument (ioc_len bytes),
 * which lnet.ko copies back to user space after it returns 0, and returns
 * -ENOIOCTLCMD for a command that is not its own. It runs in process
 * context, without LNet locks, after the CAP_NET_ADMIN check; LNet may be
 * stopped. A handler must not be registered twice.
 */
struct lnet_ioctl_hdr;

struct lnet_ioctl_handler {
	struct list_head	list;
	int			(*handle)(unsigned int cmd,
					  struct lnet_ioctl_hdr *hdr);
};

int lnet_ioctl_register(struct lnet_ioctl_handler *h);
void lnet_ioctl_unregister(struct lnet_ioctl_handler *h);

int lnet_parse(struct lnet_ni *ni, const struct lnet_hdr *hdr,
	       lnet_nid_t from, void *private, bool rdma_req);
void lnet_finalize(struct lnet_msg *msg, int status);

struct lnet_msg *lnet_create_reply_msg(struct lnet_ni *ni,
				       struct lnet_msg *get_msg);
int lnet_set_reply_msg_len(struct lnet_ni *ni, struct lnet_msg *reply,
			   unsigned int len);

void lnet_msg_iter(const struct lnet_msg *msg, unsigned int dir,
		   struct iov_iter *iter);
size_t lnet_msg_copy_to_iter(const struct lnet_msg *msg, unsigned int len,
			     struct iov_iter *to);
size_t lnet_msg_copy_from_iter(struct lnet_msg *msg, unsigned int len,
			       struct iov_iter *from);

void lnet_msg_sink_iter(const struct lnet_msg *reply, unsigned int len,
			struct iov_iter *iter);

void lnet_ni_set_credits(struct lnet_ni *ni, int credits, int peer_credits);

/*
 * An LND's timeout while its own tunable is 0: transaction_timeout shared
 * by the retry_count + 1 tries of a message, at least 1 s.
 */
unsigned int lnet_lnd_timeout(void);

/* The CPU partition of @ni's traffic with @nid (honours the NI's CPT list). */
int lnet_ni_cpt_of_nid(const struct lnet_ni *ni, lnet_nid_t nid);

int lnet_ipif_pick(const char *lnd, const char *name, char *ifname,
		   __be32 *ip);

/* ---- accessors for LNDs --------------------------------------------------- */

static inline lnet_nid_t lnet_ni_nid(const struct lnet_ni *ni)
{
	return ni->nid;
}

static inline u32 lnet_ni_net(const struct lnet_ni *ni)
{
	return LNET_NIDNET(ni->nid);
}

/* Set the address half of the NID; only from startup(). */
static inline void lnet_ni_set_addr(struct lnet_ni *ni, u32 addr)
{
	ni->nid = LNET_MKNID(LNET_NIDNET(ni->nid), addr);
}

/*
 * The NUMA node of the NI's device (dev_to_node()), for the choice among
 * NIs by distance from a message's memory; only from startup().
 */
static inline void lnet_ni_set_dev_node(struct lnet_ni *ni, int node)
{
	ni->dev_node = node;
}

/* The interface this NI was configured on, "" if none was named. */
static inline const char *lnet_ni_iface(const struct lnet_ni *ni)
{
	return ni->iface;
}

/*
 * The NI's LND tunables, for startup() to apply, then to overwrite with the
 * values in effect.
 */
static inline struct lnet_lnd_tunables *lnet_ni_lnd_tunables(struct lnet_ni *ni)
{
	return &ni->lnd_tunables;
}

static inline void *lnet_ni_data(const struct lnet_ni *ni)
{
	return ni->data;
}

static inline void lnet_ni_set_data(struct lnet_ni *ni, void *data)
{
	ni->data = data;
}

static inline int lnet_ni_peer_credits(const struct lnet_ni *ni)
{
	return ni->peer_tx_credits;
}

static inline int lnet_ni_credits(const struct lnet_ni *ni)
{
	return ni->max_tx_credits;
}

static inline const struct lnet_hdr *lnet_msg_hdr(const struct lnet_msg *msg)
{
	return &msg->hdr;
}

/*
 * Why @msg failed (enum lnet_msg_status), for health and resend: set it
 * before finalizing @msg with an error. Left unset, the core judges by
 * the errno (lnet_health_status_of()).
 */
static inline void lnet_msg_set_health(struct lnet_msg *msg,
				       enum lnet_msg_status hs)
{
	msg->health_status = hs;
}

/*
 * @msg goes through a router (its next hop is a gateway) or is being
 * forwarded by this node: the next hop is not the node its header names,
 * so no RDMA shortcut between the two ends may be used.
 */
static inline bool lnet_msg_is_routed(const struct lnet_msg *msg)
{
	return msg->routing || msg->target.nid != msg->hdr.dest_nid;
}

/* The payload bytes send() must transmit. */
static inline unsigned int lnet_msg_len(const struct lnet_msg *msg)
{
	return msg->len;
}

#endif /* _LINUX_LNET_LND_H */
