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

#include <linux/types.h>
#include <uapi/linux/lnet/lnet-nid.h>

struct socket;

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

#endif /* _LINUX_LNET_ACCEPTOR_H */
