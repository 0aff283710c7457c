// SPDX-License-Identifier: GPL-2.0
/*
 * LNet header encoding: struct lnet_hdr (host order) to and from the
 * little-endian wire forms of Documentation/wire/lnet-header.md. Encoding
 * zeroes every byte a message type does not use; decoding reads only the
 * fields of the header's type.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>
#include <linux/lnet/lnd.h>

static void lnet_wmd_to_le(const struct lnet_handle_wire *wh,
			   struct lnet_handle_wire_le *le)
{
	le->interface_cookie = cpu_to_le64(wh->wh_interface_cookie);
	le->object_cookie = cpu_to_le64(wh->wh_object_cookie);
}

static void lnet_wmd_from_le(struct lnet_handle_wire *wh,
			     const struct lnet_handle_wire_le *le)
{
	wh->wh_interface_cookie = le64_to_cpu(le->interface_cookie);
	wh->wh_object_cookie = le64_to_cpu(le->object_cookie);
}

static void lnet_msg_to_le(const struct lnet_hdr *hdr, union lnet_msg_le *m)
{
	memset(m, 0, sizeof(*m));
	switch (hdr->type) {
	case LNET_MSG_PUT:
		lnet_wmd_to_le(&hdr->msg.put.ack_wmd, &m->put.ack_wmd);
		m->put.match_bits = cpu_to_le64(hdr->msg.put.match_bits);
		m->put.hdr_data = cpu_to_le64(hdr->msg.put.hdr_data);
		m->put.ptl_index = cpu_to_le32(hdr->msg.put.ptl_index);
		m->put.offset = cpu_to_le32(hdr->msg.put.offset);
		break;
	case LNET_MSG_GET:
		lnet_wmd_to_le(&hdr->msg.get.return_wmd, &m->get.return_wmd);
		m->get.match_bits = cpu_to_le64(hdr->msg.get.match_bits);
		m->get.ptl_index = cpu_to_le32(hdr->msg.get.ptl_index);
		m->get.src_offset = cpu_to_le32(hdr->msg.get.src_offset);
		m->get.sink_length = cpu_to_le32(hdr->msg.get.sink_length);
		break;
	case LNET_MSG_ACK:
		lnet_wmd_to_le(&hdr->msg.ack.dst_wmd, &m->ack.dst_wmd);
		m->ack.match_bits = cpu_to_le64(hdr->msg.ack.match_bits);
		m->ack.mlength = cpu_to_le32(hdr->msg.ack.mlength);
		break;
	case LNET_MSG_REPLY:
		lnet_wmd_to_le(&hdr->msg.reply.dst_wmd, &m->reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		m->hello.incarnation = cpu_to_le64(hdr->msg.hello.incarnation);
		m->hello.type = cpu_to_le32(hdr->msg.hello.type);
		break;
	}
}

static void lnet_msg_from_le(struct lnet_hdr *hdr, const union lnet_msg_le *m)
{
	memset(&hdr->msg, 0, sizeof(hdr->msg));
	switch (hdr->type) {
	case LNET_MSG_PUT:
		lnet_wmd_from_le(&hdr->msg.put.ack_wmd, &m->put.ack_wmd);
		hdr->msg.put.match_bits = le64_to_cpu(m->put.match_bits);
		hdr->msg.put.hdr_data = le64_to_cpu(m->put.hdr_data);
		hdr->msg.put.ptl_index = le32_to_cpu(m->put.ptl_index);
		hdr->msg.put.offset = le32_to_cpu(m->put.offset);
		break;
	case LNET_MSG_GET:
		lnet_wmd_from_le(&hdr->msg.get.return_wmd, &m->get.return_wmd);
		hdr->msg.get.match_bits = le64_to_cpu(m->get.match_bits);
		hdr->msg.get.ptl_index = le32_to_cpu(m->get.ptl_index);
		hdr->msg.get.src_offset = le32_to_cpu(m->get.src_offset);
		hdr->msg.get.sink_length = le32_to_cpu(m->get.sink_length);
		break;
	case LNET_MSG_ACK:
		lnet_wmd_from_le(&hdr->msg.ack.dst_wmd, &m->ack.dst_wmd);
		hdr->msg.ack.match_bits = le64_to_cpu(m->ack.match_bits);
		hdr->msg.ack.mlength = le32_to_cpu(m->ack.mlength);
		break;
	case LNET_MSG_REPLY:
		lnet_wmd_from_le(&hdr->msg.reply.dst_wmd, &m->reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		hdr->msg.hello.incarnation = le64_to_cpu(m->hello.incarnation);
		hdr->msg.hello.type = le32_to_cpu(m->hello.type);
		break;
	}
}

/**
 * lnet_hdr_to_nid4() - encode a header in the 72-byte wire form
 * @hdr: the header
 * @wire: where to put it
 */
void lnet_hdr_to_nid4(const struct lnet_hdr *hdr, struct lnet_hdr_nid4 *wire)
{
	wire->dest_nid = cpu_to_le64(hdr->dest_nid);
	wire->src_nid = cpu_to_le64(hdr->src_nid);
	wire->dest_pid = cpu_to_le32(hdr->dest_pid);
	wire->src_pid = cpu_to_le32(hdr->src_pid);
	wire->type = cpu_to_le32(hdr->type);
	wire->payload_length = cpu_to_le32(hdr->payload_length);
	lnet_msg_to_le(hdr, &wire->msg);
}
EXPORT_SYMBOL_GPL(lnet_hdr_to_nid4);

/**
 * lnet_hdr_from_nid4() - decode a 72-byte wire header
 * @hdr: the decoded header; an unknown type leaves the type part zero
 * @wire: the header as received
 *
 * Validation is lnet_parse()'s job.
 */
void lnet_hdr_from_nid4(struct lnet_hdr *hdr, const struct lnet_hdr_nid4 *wire)
{
	hdr->dest_nid = le64_to_cpu(wire->dest_nid);
	hdr->src_nid = le64_to_cpu(wire->src_nid);
	hdr->dest_pid = le32_to_cpu(wire->dest_pid);
	hdr->src_pid = le32_to_cpu(wire->src_pid);
	hdr->type = le32_to_cpu(wire->type);
	hdr->payload_length = le32_to_cpu(wire->payload_length);
	lnet_msg_from_le(hdr, &wire->msg);
}
EXPORT_SYMBOL_GPL(lnet_hdr_from_nid4);

/**
 * lnet_nid4_to_nid16() - the large form of a nid4
 * @nid: the nid4 (LNET_NID_ANY gives the all-0xff ANY form)
 * @large: the large NID
 */
void lnet_nid4_to_nid16(lnet_nid_t nid, struct lnet_nid16 *large)
{
	u32 net = LNET_NIDNET(nid);

	if (nid == LNET_NID_ANY) {
		memset(large, 0xff, sizeof(*large));
		return;
	}
	memset(large, 0, sizeof(*large));
	large->type = LNET_NETTYP(net);
	large->num = cpu_to_be16(LNET_NETNUM(net));
	large->addr[0] = cpu_to_be32(LNET_NIDADDR(nid));
}
EXPORT_SYMBOL_GPL(lnet_nid4_to_nid16);

/**
 * lnet_nid16_to_nid4() - the nid4 form of a large NID, if it has one
 * @large: the large NID
 * @nid: the nid4
 *
 * Return: 0, or -EAFNOSUPPORT for an address longer than 4 bytes.
 */
int lnet_nid16_to_nid4(const struct lnet_nid16 *large, lnet_nid_t *nid)
{
	if (large->type == LNET_NID16_TYPE_ANY) {
		*nid = LNET_NID_ANY;
		return 0;
	}
	if (large->size)
		return -EAFNOSUPPORT;
	*nid = LNET_MKNID(LNET_MKNET(large->type, be16_to_cpu(large->num)),
			  be32_to_cpu(large->addr[0]));
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_nid16_to_nid4);

/**
 * lnet_hdr_to_nid16() - encode a header in the 96-byte wire form
 * @hdr: the header
 * @wire: where to put it
 *
 * Return: 0.
 */
int lnet_hdr_to_nid16(const struct lnet_hdr *hdr, struct lnet_hdr_nid16 *wire)
{
	lnet_nid4_to_nid16(hdr->dest_nid, &wire->dest_nid);
	lnet_nid4_to_nid16(hdr->src_nid, &wire->src_nid);
	wire->dest_pid = cpu_to_le32(hdr->dest_pid);
	wire->src_pid = cpu_to_le32(hdr->src_pid);
	wire->type = cpu_to_le32(hdr->type);
	wire->payload_length = cpu_to_le32(hdr->payload_length);
	lnet_msg_to_le(hdr, &wire->msg);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_hdr_to_nid16);

/**
 * lnet_hdr_from_nid16() - decode a 96-byte wire header
 * @hdr: the decoded header
 * @wire: the header as received
 *
 * Return: 0, or -EAFNOSUPPORT if a NID has no nid4 form (the core cannot
 * represent it yet).
 */
int lnet_hdr_from_nid16(struct lnet_hdr *hdr, const struct lnet_hdr_nid16 *wire)
{
	if (lnet_nid16_to_nid4(&wire->dest_nid, &hdr->dest_nid) ||
	    lnet_nid16_to_nid4(&wire->src_nid, &hdr->src_nid))
		return -EAFNOSUPPORT;
	hdr->dest_pid = le32_to_cpu(wire->dest_pid);
	hdr->src_pid = le32_to_cpu(wire->src_pid);
	hdr->type = le32_to_cpu(wire->type);
	hdr->payload_length = le32_to_cpu(wire->payload_length);
	lnet_msg_from_le(hdr, &wire->msg);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_hdr_from_nid16);
