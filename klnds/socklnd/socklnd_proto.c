// SPDX-License-Identifier: GPL-2.0
/*
 * The socklnd protocol's encodings (Documentation/wire/socklnd.md): the
 * V2/V3 hello, the 24-byte message header, connection types, and which
 * connection may carry which message.
 *
 * Both travel in the sender's byte order: we send ours as they are and
 * swap what a peer of the other byte order sent ("flip", learned from the
 * hello's magic).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/printk.h>
#include <linux/swab.h>
#include <linux/lnet/acceptor.h>
#include "socklnd.h"

bool ksock_conn_type_valid(int type)
{
	return type >= KSOCK_CONN_ANY && type <= KSOCK_CONN_BULK_OUT;
}

/*
 * The type the other end sees for a connection of @type
 * (Documentation/wire/socklnd.md, "Inverse types").
 */
int ksock_conn_type_inverse(int type)
{
	switch (type) {
	case KSOCK_CONN_ANY:
	case KSOCK_CONN_CONTROL:
		return type;
	case KSOCK_CONN_BULK_IN:
		return KSOCK_CONN_BULK_OUT;
	case KSOCK_CONN_BULK_OUT:
		return KSOCK_CONN_BULK_IN;
	default:
		return KSOCK_CONN_NONE;
	}
}

void ksock_hello_to_wire(const struct ksock_hello *h,
			 struct ksock_hello_wire *w)
{
	w->magic = LNET_PROTO_MAGIC;
	w->version = h->version;
	w->src_nid = h->src_nid;
	w->dst_nid = h->dst_nid;
	w->src_pid = h->src_pid;
	w->dst_pid = h->dst_pid;
	w->src_incarnation = h->src_incarnation;
	w->dst_incarnation = h->dst_incarnation;
	w->type = (u32)h->type;
	w->nips = 0;
}

/**
 * ksock_hello_parse_head() - the version a hello's first 8 bytes announce
 * @head: magic and version as received
 * @version: the protocol version (KSOCK_PROTO_V1 for the V1 magic)
 * @flip: the sender's byte order is not ours
 *
 * Return: 0, or -EPROTO when the magic is none of the hello magics (or a
 * V1 hello has a version other than 1.0).
 */
int ksock_hello_parse_head(const u32 head[2], u32 *version, bool *flip)
{
	const u8 *b = (const u8 *)&head[1];

	if (head[0] == LNET_PROTO_MAGIC) {
		*flip = false;
		*version = head[1];
		return 0;
	}
	if (head[0] == swab32(LNET_PROTO_MAGIC)) {
		*flip = true;
		*version = swab32(head[1]);
		return 0;
	}
	/* V1: a little-endian magic, then LE u16 major 1 and minor 0 */
	if (le32_to_cpu((__force __le32)head[0]) == LNET_PROTO_TCP_MAGIC) {
		if (b[0] != 1 || b[1] || b[2] || b[3])
			return -EPROTO;
		*flip = false;
		*version = KSOCK_PROTO_V1;
		return 0;
	}
	return -EPROTO;
}

void ksock_hello_from_wire(const struct ksock_hello_wire *w, bool flip,
			   struct ksock_hello *h)
{
	if (!flip) {
		h->version = w->version;
		h->src_nid = w->src_nid;
		h->dst_nid = w->dst_nid;
		h->src_pid = w->src_pid;
		h->dst_pid = w->dst_pid;
		h->src_incarnation = w->src_incarnation;
		h->dst_incarnation = w->dst_incarnation;
		h->type = (int)w->type;
		h->nips = w->nips;
		return;
	}
	h->version = swab32(w->version);
	h->src_nid = swab64(w->src_nid);
	h->dst_nid = swab64(w->dst_nid);
	h->src_pid = swab32(w->src_pid);
	h->dst_pid = swab32(w->dst_pid);
	h->src_incarnation = swab64(w->src_incarnation);
	h->dst_incarnation = swab64(w->dst_incarnation);
	h->type = (int)swab32(w->type);
	h->nips = swab32(w->nips);
}

void ksock_msg_hdr_from_wire(const struct ksock_msg_hdr_wire *w, bool flip,
			     struct ksock_msg_hdr_wire *h)
{
	if (!flip) {
		*h = *w;
		return;
	}
	h->type = swab32(w->type);
	h->csum = swab32(w->csum);
	h->zc_cookies[0] = swab64(w->zc_cookies[0]);
	h->zc_cookies[1] = swab64(w->zc_cookies[1]);
}

/**
 * ksock_match_conn() - may a connection carry a message
 * @proto: the connection's protocol version
 * @conn_type: its type, our view
 * @kind: the message
 * @nob: the message's size on the wire
 *
 * The table of Documentation/wire/socklnd.md, "Choosing a connection".
 *
 * Return: YES for a preferred connection, MAY for a fallback, NO.
 */
enum ksock_match ksock_match_conn(int proto, int conn_type,
				  enum ksock_tx_kind kind, unsigned int nob)
{
	bool bulk = nob >= (unsigned int)max(READ_ONCE(ksock_min_bulk), 0);

	if (proto == KSOCK_PROTO_V2) {
		switch (conn_type) {
		case KSOCK_CONN_ANY:
			return KSOCK_MATCH_YES;
		case KSOCK_CONN_CONTROL:
			return bulk ? KSOCK_MATCH_MAY : KSOCK_MATCH_YES;
		case KSOCK_CONN_BULK_OUT:
			return bulk ? KSOCK_MATCH_YES : KSOCK_MATCH_MAY;
		case KSOCK_CONN_BULK_IN:
			return KSOCK_MATCH_MAY;
		default:
			return KSOCK_MATCH_NO;
		}
	}

	/* V3 */
	switch (conn_type) {
	case KSOCK_CONN_CONTROL:
		if (kind == KSOCK_TX_NOOP_NONBLK)
			return KSOCK_MATCH_NO;
		return bulk ? KSOCK_MATCH_MAY : KSOCK_MATCH_YES;
	case KSOCK_CONN_BULK_OUT:
		if (kind == KSOCK_TX_NOOP_NONBLK)
			return KSOCK_MATCH_NO;
		return bulk ? KSOCK_MATCH_YES : KSOCK_MATCH_MAY;
	case KSOCK_CONN_BULK_IN:
		if (kind == KSOCK_TX_NOOP_NONBLK)
			return KSOCK_MATCH_YES;
		return kind == KSOCK_TX_NOOP ? KSOCK_MATCH_MAY : KSOCK_MATCH_NO;
	default:
		return KSOCK_MATCH_NO;	/* ANY carries nothing in V3 */
	}
}

void ksock_dump_hello_bytes(const char *what, const void *buf, size_t len)
{
	if (!READ_ONCE(ksock_dump_hello))
		return;
	pr_info("%s (%zu bytes)\n", what, len);
	/* the bytes themselves only with dynamic debug enabled for this site */
	print_hex_dump_debug(KBUILD_MODNAME " hello: ", DUMP_PREFIX_OFFSET, 16,
			     1, buf, len, false);
}
