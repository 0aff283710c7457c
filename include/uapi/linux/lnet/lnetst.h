/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The lnet_selftest console interface: `lst` <-> lnet_selftest.ko over
 * /dev/lnet (LNET_IOC_LNETST). Project-defined: the wire protocol leaves
 * this node-local interface open (Documentation/wire/selftest.md, "Interop
 * scope"), so only the opcode values follow Lustre's LSTIO_* numbering.
 *
 * Every argument starts with struct lstio_hdr (ioc_version
 * LNET_IOCTL_VERSION2, ioc_len = the whole buffer). Commands that talk to
 * nodes return one struct lstio_node_rpc (STAT_QUERY: struct
 * lstio_node_stat) per node right after the fixed part (for struct
 * lstio_group: after gn_nids[gn_nnids]; every fixed part is a multiple of
 * 8 bytes): the caller sets lh_nres_max to the room it left (ioc_len must cover it)
 * and the kernel sets lh_nres to the number of nodes; when lh_nres >
 * lh_nres_max only the first lh_nres_max are filled (call again with more
 * room). The ioctl itself fails (-1/errno) only when the command could not
 * be carried out at all (no session: ESRCH; unknown group/batch: ENOENT;
 * exists: EEXIST; bad argument: EINVAL; wrong session key: EPERM; busy: EBUSY).
 * Per-node failures are in the node records.
 *
 * Strings are NUL-terminated within their arrays. NIDs are nid4.
 */
#ifndef _UAPI_LINUX_LNET_LNETST_H
#define _UAPI_LINUX_LNET_LNETST_H

#include <linux/types.h>
#include "lnet-ioctl.h"

#define LST_NAME_SIZE		32	/* session, group and batch names */
#define LST_MAX_NODES		1024	/* per group / per command */
#define LST_MAX_CONCUR		1024
#define LST_DEFAULT_TIMEOUT	300	/* console session inactivity, s */
#define LST_RPC_TIMEOUT_MIN	3	/* node RPC timeout bounds, s */
#define LST_RPC_TIMEOUT_MAX	30

enum lstio_opc {
	LSTIO_SESSION_NEW	= 0xC01,
	LSTIO_SESSION_END	= 0xC02,
	LSTIO_SESSION_INFO	= 0xC03,
	LSTIO_DEBUG		= 0xC04,	/* ping nodes (DEBUG RPC) */
	LSTIO_GROUP_ADD		= 0xC10,	/* create group and/or add nodes */
	LSTIO_GROUP_LIST	= 0xC11,	/* the i-th group's name */
	LSTIO_GROUP_INFO	= 0xC12,	/* a group's nodes, no RPC */
	LSTIO_GROUP_DEL		= 0xC13,
	LSTIO_BATCH_ADD		= 0xC20,
	LSTIO_BATCH_START	= 0xC21,
	LSTIO_BATCH_STOP	= 0xC22,
	LSTIO_BATCH_LIST	= 0xC24,	/* the i-th batch's name, tests */
	LSTIO_TEST_ADD		= 0xC26,
	LSTIO_BATCH_QUERY	= 0xC27,
	LSTIO_STAT_QUERY	= 0xC30,
};

/* where a node stands, as the console last saw it */
enum lst_node_state {
	LST_NODE_UNKNOWN	= 0,	/* never answered */
	LST_NODE_ACTIVE		= 1,	/* in this console's session */
	LST_NODE_BUSY		= 2,	/* in another console's session */
	LST_NODE_DOWN		= 3,	/* did not answer the last RPC */
};

enum lst_test_type {
	LST_TEST_PING		= 1,
	LST_TEST_BRW		= 2,
};

/* brw: lt_brw_rw */
#define LST_BRW_RW_READ		1
#define LST_BRW_RW_WRITE	2
/* brw: lt_brw_check */
#define LST_CHECK_NONE		1
#define LST_CHECK_SIMPLE	2
#define LST_CHECK_FULL		3

struct lstio_hdr {
	struct lnet_ioctl_hdr	lh_ioc;		/*  0 */
	__u32	lh_opc;				/*  8 enum lstio_opc */
	__s32	lh_key;				/* 12 session key (LST_SESSION), 0: any */
	__u32	lh_timeout;			/* 16 per-node RPC timeout s, 0: default */
	__u32	lh_nres_max;			/* 20 in: room for node records */
	__u32	lh_nres;			/* 24 out: node records available */
	__u32	lh_pad;				/* 28 */
};						/* 32 */

/* the console's view of one node, and its answer to the command's RPC */
struct lstio_node_rpc {
	__u64	nr_nid;				/*  0 */
	__u32	nr_pid;				/*  8 */
	__u32	nr_state;			/* 12 enum lst_node_state */
	__s32	nr_rpc_errno;			/* 16 0, or -errno: no answer */
	__u32	nr_status;			/* 20 the node's status: 0 or errno */
	__u32	nr_u32[2];			/* 24 per command, see below */
	char	nr_name[LST_NAME_SIZE];		/* 32 the node's session name */
};						/* 64 */

/*
 * nr_u32[] meaning: DEBUG: [0] session timeout (s); BATCH_QUERY: [0] active
 * test units, [1] remaining time; others 0.
 */

struct lstio_session_new {
	struct lstio_hdr	sn_hdr;
	__u32	sn_timeout;			/* 32 console inactivity, s (0: default) */
	__u32	sn_force;			/* 36 end an existing session first */
	__u32	sn_features;			/* 40 0: LST_FEAT_BULK_LEN (1) */
	__u32	sn_pad;				/* 44 */
	char	sn_name[LST_NAME_SIZE];		/* 48 */
};						/* 80 */

/* SESSION_END: just the header */

struct lstio_session_info {
	struct lstio_hdr	si_hdr;
	__u64	si_sid_nid;			/* 32 out */
	__s64	si_sid_stamp;			/* 40 out, ms */
	__s32	si_key;				/* 48 out */
	__u32	si_timeout;			/* 52 out */
	__u32	si_features;			/* 56 out */
	__u32	si_ngroups;			/* 60 out */
	__u32	si_nbatches;			/* 64 out */
	__u32	si_nnodes;			/* 68 out: distinct nodes */
	char	si_name[LST_NAME_SIZE];		/* 72 out */
};						/* 104 */

/*
 * GROUP_ADD: create the group if needed and add the nodes of gn_nids[]
 * (pid 12345), sending each node MAKE_SESSION (records: every node of
 * the group); node records follow the nid array (offset 80 + 8 * gn_nnids). GROUP_INFO / GROUP_DEL /
 * DEBUG / STAT_QUERY name a group in gn_name, or (gn_name empty) list
 * nodes in gn_nids[]. GROUP_INFO returns node records without any RPC.
 */
struct lstio_group {
	struct lstio_hdr	gn_hdr;
	__u32	gn_nnids;			/* 32 */
	__u32	gn_pad;				/* 36 */
	char	gn_name[LST_NAME_SIZE];		/* 40 */
	__u64	gn_reserved[1];			/* 72 -> nids start at 80 */
	__u64	gn_nids[];			/* 80 */
};

/* GROUP_LIST: the gl_index'th group (ENOENT past the end) */
struct lstio_group_list {
	struct lstio_hdr	gl_hdr;
	__u32	gl_index;			/* 32 in */
	__u32	gl_nnodes;			/* 36 out */
	char	gl_name[LST_NAME_SIZE];		/* 40 out */
	__u32	gl_nactive;			/* 72 out: per state */
	__u32	gl_nbusy;			/* 76 */
	__u32	gl_ndown;			/* 80 */
	__u32	gl_nunknown;			/* 84 */
};						/* 88 */

/*
 * BATCH_ADD, BATCH_START (ba_arg: run timeout s, 0 none), BATCH_STOP
 * (ba_arg: force), BATCH_QUERY (ba_test: 0 whole batch, n: n-th test;
 * node records of the batch's client nodes), BATCH_LIST (ba_index in:
 * the ba_index'th batch, name and counts out).
 */
struct lstio_batch {
	struct lstio_hdr	ba_hdr;
	char	ba_name[LST_NAME_SIZE];		/* 32 */
	__u32	ba_arg;				/* 64 */
	__u32	ba_test;			/* 68 */
	__u32	ba_index;			/* 72 */
	__u32	ba_ntests;			/* 76 out (LIST) */
	__u32	ba_running;			/* 80 out (LIST): 1 if started */
	__u32	ba_pad;				/* 84 */
};						/* 88 */

/*
 * TEST_ADD: TEST (server role) to every node of lt_to, then TEST (client
 * role, with its destinations) to every node of lt_from. Distribution
 * lt_dist:lt_span: client i gets lt_span destinations starting at
 * ((i / lt_dist) * lt_span) % |to| (1:1 pairs clients and servers; 1:N
 * gives every client all N servers). Node records: servers, then clients.
 */
struct lstio_test {
	struct lstio_hdr	lt_hdr;
	char	lt_batch[LST_NAME_SIZE];	/*  32 */
	char	lt_from[LST_NAME_SIZE];		/*  64 */
	char	lt_to[LST_NAME_SIZE];		/*  96 */
	__u32	lt_type;			/* 128 enum lst_test_type */
	__u32	lt_loop;			/* 132 0xffffffff: until stopped */
	__u32	lt_concur;			/* 136 1..LST_MAX_CONCUR */
	__u32	lt_dist;			/* 140 */
	__u32	lt_span;			/* 144 */
	__u32	lt_stop_onerr;			/* 148 */
	__u32	lt_brw_rw;			/* 152 LST_BRW_RW_* */
	__u32	lt_brw_size;			/* 156 bytes, 1 .. 1 MiB */
	__u32	lt_brw_offset;			/* 160 within the first page, 8-aligned */
	__u32	lt_brw_check;			/* 164 LST_CHECK_* */
	__u32	lt_ping_size;			/* 168 */
	__u32	lt_index;			/* 172 out: the test's number in the batch */
};						/* 176 */

/* STAT_QUERY: one record per node after the nid array */
struct lstio_node_stat {
	struct lstio_node_rpc	ns_rpc;		/*   0 */
	/* framework counters */
	__u32	ns_running_ms;			/*  64 */
	__u32	ns_active_batches;		/*  68 */
	__u32	ns_zombie_sessions;		/*  72 */
	__u32	ns_brw_errors;			/*  76 */
	__u32	ns_ping_errors;			/*  80 */
	/* RPC counters */
	__u32	ns_rpc_errors;			/*  84 */
	__u32	ns_rpcs_sent;			/*  88 */
	__u32	ns_rpcs_rcvd;			/*  92 */
	__u32	ns_rpcs_dropped;		/*  96 */
	__u32	ns_rpcs_expired;		/* 100 */
	__u64	ns_bulk_get;			/* 104 bytes */
	__u64	ns_bulk_put;			/* 112 bytes */
	/* LNet counters */
	__u32	ns_msgs_alloc;			/* 120 */
	__u32	ns_msgs_max;			/* 124 */
	__u32	ns_lnet_errors;			/* 128 */
	__u32	ns_send_count;			/* 132 */
	__u32	ns_recv_count;			/* 136 */
	__u32	ns_route_count;			/* 140 */
	__u32	ns_drop_count;			/* 144 */
	__u32	ns_pad;				/* 148 */
	__u64	ns_send_length;			/* 152 */
	__u64	ns_recv_length;			/* 160 */
	__u64	ns_route_length;		/* 168 */
	__u64	ns_drop_length;			/* 176 */
};						/* 184 */

LNET_IOCTL_CHECK_OFFSET(struct lstio_hdr, lh_nres, 24);
LNET_IOCTL_ASSERT(sizeof(struct lstio_hdr) == 32, "lstio_hdr is 32 bytes");
LNET_IOCTL_ASSERT(sizeof(struct lstio_node_rpc) == 64, "lstio_node_rpc is 64 bytes");
LNET_IOCTL_CHECK_OFFSET(struct lstio_session_new, sn_name, 48);
LNET_IOCTL_ASSERT(sizeof(struct lstio_session_new) == 80, "lstio_session_new is 80 bytes");
LNET_IOCTL_ASSERT(sizeof(struct lstio_session_info) == 104, "lstio_session_info is 104 bytes");
LNET_IOCTL_CHECK_OFFSET(struct lstio_group, gn_nids, 80);
LNET_IOCTL_ASSERT(sizeof(struct lstio_group_list) == 88, "lstio_group_list is 88 bytes");
LNET_IOCTL_ASSERT(sizeof(struct lstio_batch) == 88, "lstio_batch is 88 bytes");
LNET_IOCTL_ASSERT(sizeof(struct lstio_test) == 176, "lstio_test is 176 bytes");
LNET_IOCTL_CHECK_OFFSET(struct lstio_node_stat, ns_send_length, 152);
LNET_IOCTL_ASSERT(sizeof(struct lstio_node_stat) == 184, "lstio_node_stat is 184 bytes");

#endif /* _UAPI_LINUX_LNET_LNETST_H */
