// SPDX-License-Identifier: GPL-2.0
/*
 * The o2iblnd wire format (Documentation/wire/o2iblnd.md): message sizes,
 * packing, receive-side validation, connection parameters and rejects.
 * Pure functions of their arguments, so the KUnit suite can feed them any
 * byte string.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/swab.h>
#include <linux/lnet/test-export.h>
#include "o2iblnd.h"

unsigned int kib_msg_nob(u8 type, unsigned int nfrags)
{
	unsigned int frags = nfrags * sizeof(struct kib_rdma_frag);

	switch (type) {
	case KIB_MSG_CONNREQ:
	case KIB_MSG_CONNACK:
		return KIB_CONNPARAMS_NOB;
	case KIB_MSG_NOOP:
		return KIB_MSG_HDR_NOB;
	case KIB_MSG_IMMEDIATE:
		return KIB_IMMEDIATE_HDR_NOB;
	case KIB_MSG_PUT_REQ:
		return offsetof(struct kib_msg, u.putreq) +
		       sizeof(struct kib_putreq_msg);
	case KIB_MSG_PUT_ACK:
		return offsetof(struct kib_msg, u.putack.rd.frags) + frags;
	case KIB_MSG_GET_REQ:
		return offsetof(struct kib_msg, u.getreq.rd.frags) + frags;
	case KIB_MSG_PUT_NAK:
	case KIB_MSG_PUT_DONE:
	case KIB_MSG_GET_DONE:
		return KIB_COMPLETION_NOB;
	default:
		return 0;
	}
}
LNET_EXPORT_FOR_TEST(kib_msg_nob);

/*
 * "Checksum": rotate left one bit, add the byte. Bytes count as unsigned
 * (kernels built with -funsigned-char; older peers may differ).
 */
u32 kib_msg_cksum(const void *buf, unsigned int nob)
{
	const u8 *p = buf;
	u32 sum = 0;

	while (nob--)
		sum = rol32(sum, 1) + *p++;
	return sum ?: 1;
}
LNET_EXPORT_FOR_TEST(kib_msg_cksum);

void kib_msg_pack(struct kib_msg *msg, u8 type, unsigned int nob, u8 version,
		  u8 credits, lnet_nid_t srcnid, u64 srcstamp,
		  lnet_nid_t dstnid, u64 dststamp)
{
	struct kib_msg_hdr *h = &msg->hdr;

	h->magic = KIB_MSG_MAGIC;
	h->version = version;
	h->type = type;
	h->credits = credits;
	h->nob = nob;
	h->cksum = 0;
	h->srcnid = srcnid;
	h->srcstamp = srcstamp;
	h->dstnid = dstnid;
	h->dststamp = dststamp;
	if (kib_cksum)
		h->cksum = kib_msg_cksum(msg, nob);
}
LNET_EXPORT_FOR_TEST(kib_msg_pack);

static void kib_rd_swab(struct kib_rdma_desc *rd)
{
	u32 i;

	rd->key = swab32(rd->key);
	for (i = 0; i < rd->nfrags; i++) {
		rd->frags[i].nob = swab32(rd->frags[i].nob);
		rd->frags[i].addr = swab64(rd->frags[i].addr);
	}
}

/* Check a received descriptor against the message size; swap it if needed. */
static int kib_rd_unpack(struct kib_rdma_desc *rd, u8 type, unsigned int nob,
			 bool flip)
{
	u32 nfrags = flip ? swab32(rd->nfrags) : rd->nfrags;

	if (nfrags < 1 || nfrags > KIB_MAX_RDMA_FRAGS ||
	    nob < kib_msg_nob(type, nfrags))
		return -EPROTO;
	rd->nfrags = nfrags;
	if (flip)
		kib_rd_swab(rd);
	return 0;
}

/**
 * kib_msg_unpack() - validate a received message, in place
 * @msg: the buffer; on success its header and numeric body fields are in
 *	host order (cookies stay as they were: they are opaque)
 * @nob: bytes received
 *
 * Documentation/wire/o2iblnd.md, "Receive checks" 1-8.
 *
 * Return: 0 or -EPROTO.
 */
int kib_msg_unpack(struct kib_msg *msg, unsigned int nob)
{
	struct kib_msg_hdr *h = &msg->hdr;
	unsigned int msg_nob, min;
	bool flip;
	u16 version;
	u32 cksum;

	if (nob < offsetof(struct kib_msg_hdr, type))
		return -EPROTO;
	if (h->magic == KIB_MSG_MAGIC)
		flip = false;
	else if (h->magic == swab32(KIB_MSG_MAGIC))
		flip = true;
	else
		return -EPROTO;

	version = flip ? swab16(h->version) : h->version;
	if (version != KIB_MSG_VERSION_1 && version != KIB_MSG_VERSION_2)
		return -EPROTO;
	if (nob < KIB_MSG_HDR_NOB)
		return -EPROTO;
	msg_nob = flip ? swab32(h->nob) : h->nob;
	if (msg_nob > nob || msg_nob < KIB_MSG_HDR_NOB)
		return -EPROTO;

	cksum = flip ? swab32(h->cksum) : h->cksum;
	if (cksum) {
		h->cksum = 0;
		if (kib_msg_cksum(msg, msg_nob) != cksum)
			return -EPROTO;
		h->cksum = cksum;
	}

	if (flip) {
		h->magic = KIB_MSG_MAGIC;
		h->version = version;
		h->nob = msg_nob;
		h->cksum = cksum;
		h->srcnid = swab64(h->srcnid);
		h->srcstamp = swab64(h->srcstamp);
		h->dstnid = swab64(h->dstnid);
		h->dststamp = swab64(h->dststamp);
	}
	if (h->srcnid == LNET_NID_ANY)
		return -EPROTO;

	min = kib_msg_nob(h->type, 1);
	if (!min || msg_nob < min)
		return -EPROTO;

	switch (h->type) {
	case KIB_MSG_CONNREQ:
	case KIB_MSG_CONNACK:
		if (flip) {
			struct kib_connparams *cp = &msg->u.connparams;

			cp->queue_depth = swab16(cp->queue_depth);
			cp->max_frags = swab16(cp->max_frags);
			cp->max_msg_size = swab32(cp->max_msg_size);
		}
		break;
	case KIB_MSG_PUT_ACK:
		return kib_rd_unpack(&msg->u.putack.rd, h->type, msg_nob, flip);
	case KIB_MSG_GET_REQ:
		return kib_rd_unpack(&msg->u.getreq.rd, h->type, msg_nob, flip);
	case KIB_MSG_PUT_NAK:
	case KIB_MSG_PUT_DONE:
	case KIB_MSG_GET_DONE:
		if (flip)
			msg->u.completion.status =
				(s32)swab32((u32)msg->u.completion.status);
		break;
	default:
		break;
	}
	return 0;
}
LNET_EXPORT_FOR_TEST(kib_msg_unpack);

/*
 * Receive check 9, on an established connection: anything addressed from
 * another incarnation (ours or the peer's) is stale.
 */
int kib_msg_check_stamps(const struct kib_msg *msg, lnet_nid_t peer_nid,
			 u64 peer_stamp, lnet_nid_t own_nid, u64 own_stamp)
{
	const struct kib_msg_hdr *h = &msg->hdr;

	if (h->srcnid != peer_nid || h->dstnid != own_nid ||
	    h->srcstamp != peer_stamp || h->dststamp != own_stamp)
		return -ESTALE;
	return 0;
}
LNET_EXPORT_FOR_TEST(kib_msg_check_stamps);

/**
 * kib_connreq_check() - the passive side's judgement of a CONNREQ
 * @msg: the connect private data (validated and swapped in place)
 * @nob: its length
 * @lim: the listening NI's identity and limits
 * @version: the version to speak (in the CONNACK or the reject)
 *
 * Documentation/wire/o2iblnd.md, "Passive side" 2-9, in order. The
 * requester's V1 is refused as CONN_UNCOMPAT: this LND speaks V2 only.
 *
 * Return: 0 to accept, else the KIB_REJECT_* reason.
 */
int kib_connreq_check(struct kib_msg *msg, unsigned int nob,
		      const struct kib_accept_limits *lim, u16 *version)
{
	struct kib_connparams *cp = &msg->u.connparams;
	u32 magic;
	u16 v;

	*version = KIB_MSG_VERSION;
	if (nob < offsetof(struct kib_msg_hdr, type))
		return KIB_REJECT_FATAL;
	magic = msg->hdr.magic;
	if (magic == KIB_PROTO_MAGIC_UNIFIED ||
	    magic == swab32(KIB_PROTO_MAGIC_UNIFIED))
		return KIB_REJECT_FATAL;
	if (magic == KIB_MSG_MAGIC)
		v = msg->hdr.version;
	else if (magic == swab32(KIB_MSG_MAGIC))
		v = swab16(msg->hdr.version);
	else
		return KIB_REJECT_FATAL;
	if (v != KIB_MSG_VERSION_1 && v != KIB_MSG_VERSION_2)
		return KIB_REJECT_FATAL;

	if (kib_msg_unpack(msg, nob))
		return KIB_REJECT_FATAL;
	/* a V1 requester is never acceptable: we tell it our own version */
	if (v == KIB_MSG_VERSION_2)
		*version = v;

	if (lim->own_nid == LNET_NID_ANY)
		return KIB_REJECT_EARLY;
	if (msg->hdr.dstnid != lim->own_nid)
		return KIB_REJECT_FATAL;
	if (msg->hdr.dststamp && msg->hdr.dststamp != lim->own_stamp)
		return KIB_REJECT_CONN_STALE;
	if (msg->hdr.type != KIB_MSG_CONNREQ)
		return KIB_REJECT_FATAL;
	if (v == KIB_MSG_VERSION_1)
		return KIB_REJECT_CONN_UNCOMPAT;
	if (cp->queue_depth > lim->max_queue_depth)
		return KIB_REJECT_MSG_QUEUE_SIZE;
	if (!cp->queue_depth)
		return KIB_REJECT_FATAL;
	if (cp->max_frags > KIB_MAX_RDMA_FRAGS || !cp->max_frags)
		return KIB_REJECT_RDMA_FRAGS;
	if (cp->max_msg_size > KIB_MSG_SIZE)
		return KIB_REJECT_FATAL;
	return 0;
}
LNET_EXPORT_FOR_TEST(kib_connreq_check);

/**
 * kib_connack_check() - the active side's check of the CONNACK (step 3)
 * @msg: the accept private data (validated and swapped in place)
 * @nob: its length
 * @version: the version we asked for
 * @queue_depth: the queue depth we asked for
 * @max_frags: the max fragments we asked for
 * @own_nid: our NID
 * @own_stamp: our incarnation
 *
 * Return: 0, -ESTALE (addressed to another incarnation of us) or -EPROTO.
 */
int kib_connack_check(struct kib_msg *msg, unsigned int nob, u16 version,
		      u16 queue_depth, u16 max_frags, lnet_nid_t own_nid,
		      u64 own_stamp)
{
	const struct kib_connparams *cp = &msg->u.connparams;

	if (kib_msg_unpack(msg, nob))
		return -EPROTO;
	if (msg->hdr.type != KIB_MSG_CONNACK ||
	    msg->hdr.version != version ||
	    !cp->queue_depth || cp->queue_depth > queue_depth ||
	    !cp->max_frags || cp->max_frags > max_frags ||
	    cp->max_msg_size > KIB_MSG_SIZE)
		return -EPROTO;
	if (msg->hdr.dstnid != own_nid || msg->hdr.dststamp != own_stamp)
		return -ESTALE;
	return 0;
}
LNET_EXPORT_FOR_TEST(kib_connack_check);

void kib_rej_pack(struct kib_rej *rej, u16 version, u8 why, u64 incarnation,
		  u16 queue_depth, u16 max_frags)
{
	memset(rej, 0, sizeof(*rej));
	rej->magic = KIB_MSG_MAGIC;
	rej->version = version;
	rej->why = why;
	rej->incarnation = incarnation;
	rej->cp.queue_depth = queue_depth;
	rej->cp.max_frags = max_frags;
	rej->cp.max_msg_size = KIB_MSG_SIZE;
}
LNET_EXPORT_FOR_TEST(kib_rej_pack);

/**
 * kib_rej_unpack() - read the private data of a consumer reject
 * @data: the bytes
 * @len: how many
 * @info: the result
 *
 * Return: 0, or -EPROTO if it is not an o2iblnd reject.
 */
int kib_rej_unpack(const void *data, unsigned int len,
		   struct kib_rej_info *info)
{
	struct kib_rej rej = { };
	bool flip;

	memset(info, 0, sizeof(*info));
	if (!data || len < offsetof(struct kib_rej, padding))
		return -EPROTO;
	memcpy(&rej, data, min_t(unsigned int, len, sizeof(rej)));

	if (rej.magic == KIB_MSG_MAGIC || rej.magic == KIB_PROTO_MAGIC_UNIFIED)
		flip = false;
	else if (rej.magic == swab32(KIB_MSG_MAGIC) ||
		 rej.magic == swab32(KIB_PROTO_MAGIC_UNIFIED))
		flip = true;
	else
		return -EPROTO;

	info->version = flip ? swab16(rej.version) : rej.version;
	info->why = rej.why;
	if (len >= sizeof(rej) && info->version > KIB_MSG_VERSION_1) {
		info->has_params = true;
		info->incarnation = flip ? swab64(rej.incarnation) :
					   rej.incarnation;
		info->queue_depth = flip ? swab16(rej.cp.queue_depth) :
					   rej.cp.queue_depth;
		info->max_frags = flip ? swab16(rej.cp.max_frags) :
					 rej.cp.max_frags;
	}
	return 0;
}
LNET_EXPORT_FOR_TEST(kib_rej_unpack);

/*
 * "Connection races" (master rule): the net number XOR the address as the
 * host reads its network-order bytes; the node with the higher value keeps
 * its own outgoing connection, so we refuse the peer's when ours is higher.
 */
static unsigned long kib_nid_race_hash(lnet_nid_t nid)
{
	u32 addr = (__force u32)htonl(LNET_NIDADDR(nid));

	return LNET_NIDNET(nid) ^ addr;
}

bool kib_race_reject_incoming(lnet_nid_t peer_nid, lnet_nid_t own_nid)
{
	return kib_nid_race_hash(peer_nid) < kib_nid_race_hash(own_nid);
}
LNET_EXPORT_FOR_TEST(kib_race_reject_incoming);
