/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LNet wire formats (Documentation/wire/lnet-header.md): the LNet message
 * header in its nid4 (72 bytes) and nid16 (96 bytes) encodings, wire
 * handles, and the ping info payload.
 *
 * The header travels little-endian. The core works on struct lnet_hdr, the
 * header in host order; LNDs convert at the edge with lnet_hdr_to_nid4() and
 * lnet_hdr_from_nid4(). The ping info is in the sender's native order, with
 * the magic telling the receiver whether to swap.
 */
#ifndef _LINUX_LNET_WIRE_H
#define _LINUX_LNET_WIRE_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <uapi/linux/lnet/lnet-nid.h>

enum lnet_msg_type {
	LNET_MSG_ACK	= 0,
	LNET_MSG_PUT	= 1,
	LNET_MSG_GET	= 2,
	LNET_MSG_REPLY	= 3,
	LNET_MSG_HELLO	= 4,	/* inside socklnd V1 handshakes only */
};

/*
 * A wire handle as its creator sees it. Only the creator interprets it;
 * everyone else echoes its 16 bytes back verbatim, which decoding and
 * re-encoding as two little-endian u64s does.
 */
struct lnet_handle_wire {
	u64	wh_interface_cookie;
	u64	wh_object_cookie;
};

#define LNET_WIRE_HANDLE_NONE \
	((struct lnet_handle_wire){ LNET_WIRE_HANDLE_COOKIE_NONE, \
				    LNET_WIRE_HANDLE_COOKIE_NONE })

static inline bool lnet_wire_handle_is_none(const struct lnet_handle_wire *wh)
{
	return wh->wh_interface_cookie == LNET_WIRE_HANDLE_COOKIE_NONE &&
	       wh->wh_object_cookie == LNET_WIRE_HANDLE_COOKIE_NONE;
}

/* The LNet header in host order; only nid4 NIDs are representable. */
struct lnet_hdr {
	lnet_nid_t	dest_nid;
	lnet_nid_t	src_nid;
	lnet_pid_t	dest_pid;
	lnet_pid_t	src_pid;
	u32		type;		/* enum lnet_msg_type */
	u32		payload_length;
	union {
		struct {
			struct lnet_handle_wire	ack_wmd;
			u64			match_bits;
			u64			hdr_data;
			u32			ptl_index;
			u32			offset;
		} put;
		struct {
			struct lnet_handle_wire	return_wmd;
			u64			match_bits;
			u32			ptl_index;
			u32			src_offset;
			u32			sink_length;
		} get;
		struct {
			struct lnet_handle_wire	dst_wmd;
			u64			match_bits;
			u32			mlength;
		} ack;
		struct {
			struct lnet_handle_wire	dst_wmd;
		} reply;
		struct {
			u64			incarnation;
			u32			type;
		} hello;
	} msg;
};

/* ---- on the wire --------------------------------------------------------- */

struct lnet_handle_wire_le {
	__le64	interface_cookie;
	__le64	object_cookie;
} __packed;

struct lnet_put_le {
	struct lnet_handle_wire_le	ack_wmd;
	__le64				match_bits;
	__le64				hdr_data;
	__le32				ptl_index;
	__le32				offset;
} __packed;

struct lnet_get_le {
	struct lnet_handle_wire_le	return_wmd;
	__le64				match_bits;
	__le32				ptl_index;
	__le32				src_offset;
	__le32				sink_length;
} __packed;

struct lnet_ack_le {
	struct lnet_handle_wire_le	dst_wmd;
	__le64				match_bits;
	__le32				mlength;
} __packed;

struct lnet_reply_le {
	struct lnet_handle_wire_le	dst_wmd;
} __packed;

struct lnet_hello_le {
	__le64				incarnation;
	__le32				type;
} __packed;

/* The type-specific 40 bytes; bytes a type does not use are zero. */
union lnet_msg_le {
	struct lnet_put_le	put;
	struct lnet_get_le	get;
	struct lnet_ack_le	ack;
	struct lnet_reply_le	reply;
	struct lnet_hello_le	hello;
	u8			raw[40];
} __packed;

/* The classic 72-byte header (socklnd V1-V3, o2iblnd). */
struct lnet_hdr_nid4 {
	__le64			dest_nid;
	__le64			src_nid;
	__le32			dest_pid;
	__le32			src_pid;
	__le32			type;
	__le32			payload_length;
	union lnet_msg_le	msg;
} __packed;

/* A large NID: network byte order throughout, never swapped. */
struct lnet_nid16 {
	u8	size;		/* address bytes - 4 */
	u8	type;		/* LND type; 0xff: ANY */
	__be16	num;		/* network number */
	__be32	addr[4];	/* left-aligned */
} __packed;

#define LNET_NID16_TYPE_ANY	0xff

/* The 96-byte header of socklnd V4. */
struct lnet_hdr_nid16 {
	struct lnet_nid16	dest_nid;
	struct lnet_nid16	src_nid;
	__le32			dest_pid;
	__le32			src_pid;
	__le32			type;
	__le32			payload_length;
	union lnet_msg_le	msg;
} __packed;

#define LNET_HDR_NID4_SIZE	72
#define LNET_HDR_NID16_SIZE	96

/* The layouts are the protocol: pin every offset of the tables in
 * Documentation/wire/lnet-header.md.
 */
static_assert(sizeof(struct lnet_handle_wire_le) == 16);
static_assert(sizeof(union lnet_msg_le) == 40);
static_assert(sizeof(struct lnet_hdr_nid4) == LNET_HDR_NID4_SIZE);
static_assert(offsetof(struct lnet_hdr_nid4, dest_nid) == 0);
static_assert(offsetof(struct lnet_hdr_nid4, src_nid) == 8);
static_assert(offsetof(struct lnet_hdr_nid4, dest_pid) == 16);
static_assert(offsetof(struct lnet_hdr_nid4, src_pid) == 20);
static_assert(offsetof(struct lnet_hdr_nid4, type) == 24);
static_assert(offsetof(struct lnet_hdr_nid4, payload_length) == 28);
static_assert(offsetof(struct lnet_hdr_nid4, msg) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.put.ack_wmd) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.put.match_bits) == 48);
static_assert(offsetof(struct lnet_hdr_nid4, msg.put.hdr_data) == 56);
static_assert(offsetof(struct lnet_hdr_nid4, msg.put.ptl_index) == 64);
static_assert(offsetof(struct lnet_hdr_nid4, msg.put.offset) == 68);
static_assert(offsetof(struct lnet_hdr_nid4, msg.get.return_wmd) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.get.match_bits) == 48);
static_assert(offsetof(struct lnet_hdr_nid4, msg.get.ptl_index) == 56);
static_assert(offsetof(struct lnet_hdr_nid4, msg.get.src_offset) == 60);
static_assert(offsetof(struct lnet_hdr_nid4, msg.get.sink_length) == 64);
static_assert(offsetof(struct lnet_hdr_nid4, msg.ack.dst_wmd) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.ack.match_bits) == 48);
static_assert(offsetof(struct lnet_hdr_nid4, msg.ack.mlength) == 56);
static_assert(offsetof(struct lnet_hdr_nid4, msg.reply.dst_wmd) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.hello.incarnation) == 32);
static_assert(offsetof(struct lnet_hdr_nid4, msg.hello.type) == 40);
static_assert(sizeof(struct lnet_nid16) == 20);
static_assert(sizeof(struct lnet_hdr_nid16) == LNET_HDR_NID16_SIZE);
static_assert(offsetof(struct lnet_hdr_nid16, src_nid) == 20);
static_assert(offsetof(struct lnet_hdr_nid16, dest_pid) == 40);
static_assert(offsetof(struct lnet_hdr_nid16, src_pid) == 44);
static_assert(offsetof(struct lnet_hdr_nid16, type) == 48);
static_assert(offsetof(struct lnet_hdr_nid16, payload_length) == 52);
static_assert(offsetof(struct lnet_hdr_nid16, msg) == 56);

void lnet_hdr_to_nid4(const struct lnet_hdr *hdr, struct lnet_hdr_nid4 *wire);
void lnet_hdr_from_nid4(struct lnet_hdr *hdr, const struct lnet_hdr_nid4 *wire);
int lnet_hdr_to_nid16(const struct lnet_hdr *hdr, struct lnet_hdr_nid16 *wire);
int lnet_hdr_from_nid16(struct lnet_hdr *hdr,
			const struct lnet_hdr_nid16 *wire);
void lnet_nid4_to_nid16(lnet_nid_t nid, struct lnet_nid16 *large);
int lnet_nid16_to_nid4(const struct lnet_nid16 *large, lnet_nid_t *nid);

/* ---- ping info (Documentation/wire/routing-health-multirail.md) --------- */

#define LNET_PROTO_PING_MAGIC		0x70696E67U	/* "ping" */

#define LNET_PING_FEAT_BASE		0x01U
#define LNET_PING_FEAT_NI_STATUS	0x02U
#define LNET_PING_FEAT_RTE_DISABLED	0x04U
#define LNET_PING_FEAT_MULTI_RAIL	0x08U
#define LNET_PING_FEAT_DISCOVERY	0x10U
#define LNET_PING_FEAT_LARGE_ADDR	0x20U
#define LNET_PING_FEAT_PRIMARY_LARGE	0x40U
#define LNET_PING_FEAT_METADATA		0x80U

#define LNET_NI_STATUS_UP		0x15AAC0DEU
#define LNET_NI_STATUS_DOWN		0xDEADFACEU
#define LNET_NI_STATUS_INVALID		0x00000000U

#define LNET_INTERFACES_MIN		16	/* smallest ping buffer: 272 B */
#define LNET_INTERFACES_MAX_DEFAULT	4096
#define LNET_PING_BUFFER_MAX		3960	/* user pings, fits IB IMMEDIATE */

struct lnet_ping_nid {
	u64	nid;
	u32	status;		/* entry 0: the ping-target sequence number */
	u32	msg_size;	/* entry 0 with LARGE_ADDR: total info size */
};

struct lnet_ping_info {
	u32			magic;
	u32			features;
	u32			pid;
	u32			nnis;	/* entries, 0@lo included */
	struct lnet_ping_nid	ni[];
};

static_assert(sizeof(struct lnet_ping_nid) == 16);
static_assert(sizeof(struct lnet_ping_info) == 16);
static_assert(offsetof(struct lnet_ping_info, features) == 4);
static_assert(offsetof(struct lnet_ping_info, pid) == 8);
static_assert(offsetof(struct lnet_ping_info, nnis) == 12);
static_assert(offsetof(struct lnet_ping_info, ni) == 16);

static inline size_t lnet_ping_info_size(unsigned int nnis)
{
	return sizeof(struct lnet_ping_info) +
	       (size_t)nnis * sizeof(struct lnet_ping_nid);
}

#define LNET_PING_INFO_MIN_SIZE	lnet_ping_info_size(LNET_INTERFACES_MIN)

#endif /* _LINUX_LNET_WIRE_H */
