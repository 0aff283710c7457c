/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lnet_selftest RPC message (Documentation/wire/selftest.md):
 * always 160 bytes, packed, every integer in the sender's native order.
 * A receiver that sees the magic byte-swapped swaps the fields it reads
 * (lst_msg_unpack()).
 */
#ifndef _LNET_SELFTEST_WIRE_H
#define _LNET_SELFTEST_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>

#define LST_MSG_SIZE		160
#define LST_MSG_MAGIC		0xEEB0F00DU
#define LST_MSG_VERSION		1

#define LST_FRAMEWORK_PORTAL	51
#define LST_REQUEST_PORTAL	50
#define LST_RDMA_PORTAL		52

/* session features: BRW lengths in bytes (v1 test parameters) */
#define LST_FEAT_BULK_LEN	0x1U
#define LST_FEATS_MASK		LST_FEAT_BULK_LEN

enum lst_service_id {
	LST_SVC_DEBUG		= 0,
	LST_SVC_MAKE_SESSION	= 1,
	LST_SVC_REMOVE_SESSION	= 2,
	LST_SVC_BATCH		= 3,
	LST_SVC_TEST		= 4,
	LST_SVC_QUERY_STAT	= 5,
	LST_SVC_JOIN		= 6,
	LST_SVC_FRAMEWORK_MAX	= 9,	/* ids below 10 are framework services */
	LST_SVC_BRW		= 11,
	LST_SVC_PING		= 12,
};

enum lst_msg_type {
	LST_MSG_MKSN_REQST	= 0,
	LST_MSG_MKSN_REPLY	= 1,
	LST_MSG_RMSN_REQST	= 2,
	LST_MSG_RMSN_REPLY	= 3,
	LST_MSG_BATCH_REQST	= 4,
	LST_MSG_BATCH_REPLY	= 5,
	LST_MSG_STAT_REQST	= 6,
	LST_MSG_STAT_REPLY	= 7,
	LST_MSG_TEST_REQST	= 8,
	LST_MSG_TEST_REPLY	= 9,
	LST_MSG_DEBUG_REQST	= 10,
	LST_MSG_DEBUG_REPLY	= 11,
	LST_MSG_BRW_REQST	= 12,
	LST_MSG_BRW_REPLY	= 13,
	LST_MSG_PING_REQST	= 14,
	LST_MSG_PING_REPLY	= 15,
	LST_MSG_JOIN_REQST	= 16,
	LST_MSG_JOIN_REPLY	= 17,
};

#define LST_NAME_LEN		32

struct lst_sid {
	u64	ses_nid;	/* the console's nid4; LNET_NID_ANY: none */
	s64	ses_stamp;	/* milliseconds */
} __packed;

#define LST_SID_NONE	((struct lst_sid){ ~0ULL, -1 })

/* batch opcodes (BATCH request) */
#define LST_BATCH_RUN		1
#define LST_BATCH_STOP		2
#define LST_BATCH_QUERY		3

/* BRW opcodes and data-check flags (Documentation/wire/selftest.md) */
#define LST_BRW_READ		1
#define LST_BRW_WRITE		2
#define LST_BRW_CHECK_NONE	1
#define LST_BRW_CHECK_SIMPLE	2
#define LST_BRW_CHECK_FULL	3
#define LST_BRW_CHECK_DISCARD	4
#define LST_BRW_MAX_LEN		(1U << 20)

#define LST_PING_MAGIC		0xBABEFACEU
#define LST_BRW_MAGIC		0xEEB0EEB1EEB2EEB3ULL
#define LST_BRW_POISON		0xBEEFBEEFBEEFBEEFULL

/* a destination in a TEST request's list: 12 bytes, 341 per 4 KiB page */
struct lst_dest {
	u64	nid;
	u32	pid;
} __packed;

#define LST_DESTS_PER_PAGE	(PAGE_SIZE / sizeof(struct lst_dest))

struct lst_framework_counters {
	u32	running_ms;
	u32	active_batches;
	u32	zombie_sessions;
	u32	brw_errors;
	u32	ping_errors;
} __packed;

struct lst_rpc_counters {
	u32	errors;
	u32	rpcs_sent;
	u32	rpcs_rcvd;
	u32	rpcs_dropped;
	u32	rpcs_expired;
	u64	bulk_get;
	u64	bulk_put;
} __packed;

struct lst_lnet_counters {
	u32	msgs_alloc;
	u32	msgs_max;
	u32	errors;
	u32	send_count;
	u32	recv_count;
	u32	route_count;
	u32	drop_count;
	u64	send_length;
	u64	recv_length;
	u64	route_length;
	u64	drop_length;
} __packed;

/* TEST request parameters (12 bytes) */
struct lst_ping_param {
	u32	size;
	u32	flags;
} __packed;

struct lst_brw_param_v1 {
	u16	opc;
	u16	flags;
	u32	len;
	u32	offset;
} __packed;

struct lst_brw_param_v0 {
	u32	opc;
	u32	npages;
	u32	flags;
} __packed;

union lst_test_param {
	struct lst_ping_param	ping;
	struct lst_brw_param_v0	brw0;
	struct lst_brw_param_v1	brw1;
	u8			raw[12];
} __packed;

/* ---- bodies ---------------------------------------------------------------- */

struct lst_mksn_req {
	u64		rpyid;
	struct lst_sid	sid;
	u32		force;
	char		name[LST_NAME_LEN];
} __packed;

struct lst_mksn_rpy {
	u32		status;
	struct lst_sid	sid;
	u32		timeout;
	char		name[LST_NAME_LEN];
} __packed;

struct lst_rmsn_req {
	u64		rpyid;
	struct lst_sid	sid;
} __packed;

struct lst_rmsn_rpy {
	u32		status;
	struct lst_sid	sid;
} __packed;

struct lst_debug_req {
	u64		rpyid;
	struct lst_sid	sid;
	u32		flags;
} __packed;

struct lst_debug_rpy {
	u32		status;
	struct lst_sid	sid;
	u32		timeout;
	u32		nbatch;
	char		name[LST_NAME_LEN];
} __packed;

struct lst_batch_req {
	u64		rpyid;
	struct lst_sid	sid;
	u64		bid;
	u32		opc;
	u32		testidx;
	u32		arg;
} __packed;

struct lst_batch_rpy {
	u32		status;
	struct lst_sid	sid;
	u32		active;
	u32		remaining;
} __packed;

struct lst_stat_req {
	u64		rpyid;
	struct lst_sid	sid;
	u32		type;
} __packed;

struct lst_stat_rpy {
	u32				status;
	struct lst_sid			sid;
	struct lst_framework_counters	fw;
	struct lst_rpc_counters		rpc;
	struct lst_lnet_counters	lnet;
} __packed;

struct lst_test_req {
	u64			rpyid;
	u64			bulkid;
	struct lst_sid		sid;
	u64			bid;
	u32			service;
	u32			loop;
	u32			concur;
	u8			is_client;
	u8			stop_onerr;
	u32			ndest;
	union lst_test_param	param;
} __packed;

struct lst_test_rpy {
	u32		status;
	struct lst_sid	sid;
} __packed;

struct lst_ping_req {
	u64	rpyid;
	u32	magic;
	u32	seq;
	u64	time_sec;
	u64	time_nsec;
} __packed;

struct lst_ping_rpy {
	u32	status;
	u32	magic;
	u32	seq;
} __packed;

struct lst_brw_req {
	u64	rpyid;
	u64	bulkid;
	u32	rw;
	u32	len;
	u32	flags;
} __packed;

struct lst_brw_rpy {
	u32	status;
} __packed;

struct lst_msg {
	u32	magic;
	u32	version;
	u32	type;
	u32	reserved0;
	u32	reserved1;
	u32	ses_feats;
	union {
		u64			rpyid;	/* every request starts with it */
		u32			status;	/* every reply starts with it */
		struct lst_mksn_req	mksn_req;
		struct lst_mksn_rpy	mksn_rpy;
		struct lst_rmsn_req	rmsn_req;
		struct lst_rmsn_rpy	rmsn_rpy;
		struct lst_debug_req	debug_req;
		struct lst_debug_rpy	debug_rpy;
		struct lst_batch_req	batch_req;
		struct lst_batch_rpy	batch_rpy;
		struct lst_stat_req	stat_req;
		struct lst_stat_rpy	stat_rpy;
		struct lst_test_req	test_req;
		struct lst_test_rpy	test_rpy;
		struct lst_ping_req	ping_req;
		struct lst_ping_rpy	ping_rpy;
		struct lst_brw_req	brw_req;
		struct lst_brw_rpy	brw_rpy;
		u8			raw[LST_MSG_SIZE - 24];
	} body;
} __packed;

static_assert(sizeof(struct lst_msg) == LST_MSG_SIZE);
static_assert(sizeof(struct lst_mksn_req) == 60);
static_assert(sizeof(struct lst_test_req) == 70);
static_assert(sizeof(struct lst_stat_rpy) == 136);
static_assert(sizeof(struct lst_dest) == 12);

/* reply type of a request type */
static inline u32 lst_reply_type(u32 req_type)
{
	return req_type + 1;
}

/*
 * Check a received message and bring it to host order in place.
 * Returns 1 if it came byte-swapped, 0 if not, or -EPROTO (bad magic or
 * length). The version is left for the caller to answer (a server replies
 * EPROTO to an unknown version).
 */
int lst_msg_byte_order(const struct lst_msg *msg, unsigned int len);
int lst_msg_unpack(struct lst_msg *msg, unsigned int len);
void lst_msg_init(struct lst_msg *msg, u32 type, u32 feats);

#endif /* _LNET_SELFTEST_WIRE_H */
