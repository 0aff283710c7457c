/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The /dev/lnet ioctl interface shared by lnet.ko and the user-space tools
 * (lnetctl). Plain C: the kernel includes it as <uapi/linux/lnet/...>, user
 * space as <linux/lnet/...>.
 *
 * Every ioctl argument is a buffer that starts with struct lnet_ioctl_hdr.
 * The kernel copies ioc_len bytes in, runs the command and copies ioc_len
 * bytes back, so "out" fields below are valid after a successful ioctl.
 * Commands that change state, send traffic or belong to a module other than
 * lnet.ko need CAP_NET_ADMIN (EACCES otherwise); the core's GET commands are
 * open to every user (Lustre asks CAP_SYS_ADMIN of all; see lnet/ioctl.c).
 * Layouts are those of 64-bit user space (x86-64); 32-bit user space is not
 * supported.
 *
 * Structures marked "project-defined" have no fixed layout in Lustre's
 * interface (Documentation/wire/userspace-config.md); lnetctl and lnet.ko of
 * this project agree on the layout given here.
 */
#ifndef _UAPI_LINUX_LNET_IOCTL_H
#define _UAPI_LINUX_LNET_IOCTL_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include "lnet-nid.h"

#ifdef __cplusplus
#define LNET_IOCTL_ASSERT(expr, msg)	static_assert(expr, msg)
#else
#define LNET_IOCTL_ASSERT(expr, msg)	_Static_assert(expr, msg)
#endif
#define LNET_IOCTL_OFFSET(type, field)	__builtin_offsetof(type, field)
#define LNET_IOCTL_CHECK_OFFSET(type, field, offset) \
	LNET_IOCTL_ASSERT(LNET_IOCTL_OFFSET(type, field) == (offset), \
			  #type "." #field " at offset " #offset)

/* ------------------------------------------------------------------------ */
/* Header and versions                                                      */
/* ------------------------------------------------------------------------ */

/* The argument is the generic data block, struct lnet_ioctl_data. */
#define LNET_IOCTL_VERSION	0x0001000AU
/* The argument is a command-specific structure (config, ping, NI, ...). */
#define LNET_IOCTL_VERSION2	0x0001000BU

/* Bounds of ioc_len: at least the header, at most 128 KiB. */
#define LNET_IOCTL_MIN_LEN	8U
#define LNET_IOCTL_MAX_LEN	131072U

struct lnet_ioctl_hdr {
	__u32	ioc_len;	/* bytes of the whole argument, header included */
	__u32	ioc_version;	/* LNET_IOCTL_VERSION or LNET_IOCTL_VERSION2 */
};

/* ------------------------------------------------------------------------ */
/* Generic data block (version LNET_IOCTL_VERSION), 128 bytes               */
/* ------------------------------------------------------------------------ */

/*
 * Used by the older, simpler commands (CONFIGURE, UNCONFIGURE, GET_NI, ...).
 * Inline buffers follow the block: buffer 1 padded to a multiple of 8, then
 * buffer 2, so ioc_len = 128 + round8(inline1 length) + round8(inline2
 * length). A pointer field must be zero exactly when its length is zero;
 * when inline buffer 1 is present the last inline byte must be NUL. The
 * kernel ignores the inline pointers the caller passes and points them into
 * its copy. Pointers are carried as __u64 so the layout is fixed.
 */
struct lnet_ioctl_data {
	struct lnet_ioctl_hdr ioc_hdr;	/*   0 */
	__u64	ioc_nid;		/*   8 a NID argument */
	__u64	ioc_u64[1];		/*  16 command-specific */
	__u32	ioc_flags;		/*  24 command-specific flags */
	__u32	ioc_count;		/*  28 command-specific count/index */
	__u32	ioc_net;		/*  32 a network id argument */
	__u32	ioc_u32[7];		/*  36 command-specific */
	__u32	ioc_inline1_len;	/*  64 */
	__u32	ioc_pad1;
	__u64	ioc_inline1;		/*  72 */
	__u32	ioc_inline2_len;	/*  80 */
	__u32	ioc_pad2;
	__u64	ioc_inline2;		/*  88 */
	__u32	ioc_user1_len;		/*  96 */
	__u32	ioc_pad3;
	__u64	ioc_user1;		/* 104 user-space buffer pointer */
	__u32	ioc_user2_len;		/* 112 */
	__u32	ioc_pad4;
	__u64	ioc_user2;		/* 120 user-space buffer pointer */
};					/* 128, inline data follows */

/*
 * CONFIGURE starts LNet (0 if it is already running); UNCONFIGURE stops it
 * (EBUSY while in use). Commands that need LNet running fail with ENETDOWN
 * when it is not.
 *
 * LNET_DIST (generic block, any user): how far ioc_nid is. On return
 * ioc_u32[0] is the distance (0 a NID of this node, 1 on a local net,
 * hops + 1 through gateways), ioc_u32[1] the order of the NI the NID is
 * reached from, ioc_nid that NI's NID (LNET_NID_ANY through a gateway).
 * EHOSTUNREACH when no network or route leads there.
 */

/* CONFIGURE (ioc_flags): also bring up the NIs named by the networks=
 * module parameter, like "lnetctl lnet configure --all".
 */
#define LNET_IOCTL_CONFIGURE_ALL	0x1U
/* CONFIGURE (ioc_flags), project-defined: large-NID mode, IP LNDs prefer
 * an interface's IPv6 address ("lnetctl lnet configure --large"). A kernel
 * without large-NID support returns EOPNOTSUPP.
 */
#define LNET_IOCTL_CONFIGURE_LARGE	0x2U

/* ------------------------------------------------------------------------ */
/* Configuration data (routes, nets, router buffers), 184 bytes              */
/* ------------------------------------------------------------------------ */

#define LNET_IOCTL_STR_LEN	128	/* interface names and similar strings */

/* Route flags (out, GET_ROUTE). */
#define LNET_IOCTL_ROUTE_ALIVE		0x1U	/* gateway is up */
#define LNET_IOCTL_ROUTE_MULTI_HOP	0x2U	/* route needs more than one hop */

/* Route hop count meaning "not specified" (shown as -1). */
#define LNET_IOCTL_ROUTE_HOP_ANY	(-1)

/*
 * ADD_ROUTE: cfg_net (remote net), cfg_nid (gateway), cfg_u.route.
 * DEL_ROUTE: cfg_net and cfg_nid select the route (ENOENT if none).
 * GET_ROUTE: cfg_count (in) selects the n-th route; everything else out;
 * ENOENT past the last one.
 * DEL_NET: cfg_net, every NI of that net is removed (ENOENT if none).
 * CONFIG_RTR: cfg_u.buffers.enable 1 turns forwarding on, 0 off.
 * ADD_BUF: cfg_u.buffers.tiny, small, large: new totals of router buffers
 * over all CPTs (0: that pool as it is; EINVAL if negative). Pools that
 * exist are resized now (ENOMEM if a pool cannot grow); the totals are
 * also those of pools made later.
 * GET_BUF: cfg_count (in) selects a CPU partition (ENOENT past the last);
 * out: cfg_ncpts, cfg_u.pools (enable, and that CPT's router buffer pools:
 * tiny, small, large; all zero on a node that never forwarded).
 */

/* Router buffer pools per CPT, in GET_BUF's cfg_u.pools.pool[]. */
#define LNET_IOCTL_RTR_POOLS	3	/* tiny (0 pages), small (1), large */
struct lnet_ioctl_config_data {
	struct lnet_ioctl_hdr cfg_hdr;	/*   0 */
	__u32	cfg_net;		/*   8 net id (remote net of a route) */
	__u32	cfg_count;		/*  12 GET_*: index of the entry wanted */
	__u64	cfg_nid;		/*  16 NID (gateway of a route) */
	__u32	cfg_ncpts;		/*  24 number of CPU partitions */
	union {				/*  28 */
		struct {
			/* 1..255 hops to the remote net; -1: unspecified */
			__s32	hop;
			/* lower value = preferred gateway; default 0 */
			__u32	priority;
			/* out: LNET_IOCTL_ROUTE_* */
			__u32	flags;
			/* health sensitivity of the gateway; 0: default (1) */
			__u32	sensitivity;
		} route;
		struct {
			char	intf[LNET_IOCTL_STR_LEN];
			__s32	peer_timeout;	/* s; -1: module default */
			__s32	peer_tx_credits;
			__s32	peer_rtr_credits;
			__s32	max_tx_credits;
			__u32	cksum_algo;
			__u32	interface_count;
		} net;
		struct {
			__s32	enable;		/* routing (forwarding) on/off */
			__s32	tiny;		/* number of 0-page buffers */
			__s32	small;		/* number of 1-page buffers */
			__s32	large;		/* number of 1 MiB buffers */
		} buffers;
		struct {
			__s32	enable;		/* this node forwards */
			__u32	pad;
			struct {
				__s32	npages;		/* per buffer */
				__s32	nbuffers;
				__s32	credits;	/* < 0: waiters */
				__s32	mincredits;
			} pool[LNET_IOCTL_RTR_POOLS];
		} pools;
	} cfg_u;
	__u32	cfg_pad;		/* 180 */
};					/* 184 */

/* ------------------------------------------------------------------------ */
/* Ping / discover, 56 bytes                                                 */
/* ------------------------------------------------------------------------ */

/* PING_PEER timeouts outside 1..180000 ms mean 180 s. */
#define LNET_IOCTL_PING_TIMEOUT_MAX_MS	180000

/*
 * PING_PEER: one ping GET; the entries are the target's ping info.
 * DISCOVER: discovery of the target's peer (ping, then push if it is
 * Multi-Rail), waiting for it to end; the entries are the NIDs of the peer
 * as LNet now knows them, its primary NID first, and entry 0 is not 0@lo.
 * -ETIMEDOUT, -EHOSTUNREACH or the error that failed the discovery.
 */
struct lnet_ioctl_ping_data {
	struct lnet_ioctl_hdr ping_hdr;	/*  0 */
	/* PING_PEER: timeout in ms. DISCOVER: nonzero = force (ping and
	 * push even if the peer is up to date).
	 */
	__s32	ping_param;		/*  8 */
	/* in: capacity of the ping_ids array (entries); out: entries written */
	__u32	ping_count;		/* 12 */
	/* in: 0; out: the feature bits of the target's (last) ping info */
	__u32	ping_flags;		/* 16 */
	/* out: nonzero if LNet treats the target's peer as Multi-Rail */
	__u32	ping_mr;		/* 20 */
	/* in: the target (pid LNET_PID_ANY: 12345); out: NID replaced by the
	 * primary NID of its peer (the NID itself for a peer LNet does not
	 * know)
	 */
	__u64	ping_target_nid;	/* 24 */
	__u32	ping_target_pid;	/* 32 */
	__u32	ping_pad;		/* 36 */
	/* user pointer to struct lnet_process_id[ping_count]: the entries of
	 * the target's ping info, in order (entry 0 is 0@lo); for DISCOVER
	 * see above
	 */
	__u64	ping_ids;		/* 40 */
	/* local NID to ping from; LNET_NID_ANY: LNet chooses */
	__u64	ping_src;		/* 48 */
};					/* 56 */

/* ------------------------------------------------------------------------ */
/* Local NI configuration (ADD/DEL/GET_LOCAL_NI), 808 bytes + tunables       */
/* ------------------------------------------------------------------------ */

#define LNET_IOCTL_MAX_CPTS	128

/* lic_status values (the NI status values of the ping info) */
#define LNET_IOCTL_NI_STATUS_UP		0x15AAC0DEU
#define LNET_IOCTL_NI_STATUS_DOWN	0xDEADFACEU

/*
 * ADD_LOCAL_NI: lic_nid is LNET_MKNID(net, 0xffffffff) to let the LND take
 * the address from the interface lic_ni_intf, or a complete NID to request
 * that address (lic_ni_intf empty: the interface that has it). With
 * lic_legacy_ip2nets set, lic_nid is LNET_NID_ANY and the rule chooses the
 * nets and interfaces. EEXIST if the NI exists.
 * DEL_LOCAL_NI: lic_nid is the NID of the NI to remove (ENOENT if none).
 * GET_LOCAL_NI: lic_idx (in) selects the n-th NI of the node, 0@lo first;
 * ENOENT past the last one.
 *
 * Optional tunables, struct lnet_ioctl_lnd_tunables, follow the structure
 * at offset LNET_IOCTL_NI_TUNABLES_OFFSET (808) when ioc_len covers them.
 * ADD_LOCAL_NI reads them; GET_LOCAL_NI fills them in.
 */
struct lnet_ioctl_config_ni {
	struct lnet_ioctl_hdr lic_hdr;		/*   0 */
	__u64	lic_nid;			/*   8 */
	char	lic_ni_intf[LNET_IOCTL_STR_LEN];	/*  16 interface, e.g. "eth0" */
	/* legacy ip2nets rule, e.g. "tcp(eth0) 192.168.0.*" (add only) */
	char	lic_legacy_ip2nets[LNET_IOCTL_STR_LEN];	/* 144 */
	/* CPU partitions the NI is bound to; lic_ncpts == 0: all of them */
	__u32	lic_cpts[LNET_IOCTL_MAX_CPTS];	/* 272 */
	__u32	lic_ncpts;			/* 784 */
	__u32	lic_status;			/* 788 out: LNET_IOCTL_NI_STATUS_* */
	__u32	lic_idx;			/* 792 GET: index of the NI wanted */
	/* out: CPT closest to the device (NUMA); -1: none */
	__s32	lic_dev_cpt;			/* 796 */
	__u32	lic_pad;			/* 800 */
	__u32	lic_pad2;			/* 804 alignment, made explicit */
};						/* 808 */

#define LNET_IOCTL_NI_TUNABLES_OFFSET	808

/* Version word of every tunables block. */
#define LNET_IOCTL_TUNABLES_VERSION	1U

/* Per-NI tunables common to every LND; -1 in any value = module default. */
struct lnet_ioctl_tunables_common {
	__u32	lct_version;		/*  0 LNET_IOCTL_TUNABLES_VERSION */
	__s32	lct_peer_timeout;	/*  4 s before a silent peer is dead */
	__s32	lct_peer_tx_credits;	/*  8 concurrent sends to one peer */
	__s32	lct_peer_rtr_credits;	/* 12 router buffer credits per peer */
	__s32	lct_max_tx_credits;	/* 16 concurrent sends on the NI */
};					/* 20 */

/* socklnd tunables; 0 = module default, except tos: -1 = default. */
struct lnet_ioctl_tunables_socklnd {
	__u32	lnd_version;		/*  0 LNET_IOCTL_TUNABLES_VERSION */
	__u16	lnd_conns_per_peer;	/*  4 bulk connections per peer */
	__u16	lnd_pad;		/*  6 */
	__u32	lnd_timeout;		/*  8 s, LND-level timeout */
	__s16	lnd_tos;		/* 12 IP type of service */
	__u16	lnd_pad2;		/* 14 */
};					/* 16 */

/* o2iblnd tunables; 0 = module default, except tos: -1 = default. */
struct lnet_ioctl_tunables_o2iblnd {
	__u32	lnd_version;		/*  0 LNET_IOCTL_TUNABLES_VERSION */
	__u32	lnd_peercredits_hiw;	/*  4 credits returned eagerly above */
	__u32	lnd_map_on_demand;	/*  8 obsolete, shown only */
	__u32	lnd_concurrent_sends;	/* 12 */
	__u32	lnd_fmr_pool_size;	/* 16 */
	__u32	lnd_fmr_flush_trigger;	/* 20 */
	__u32	lnd_fmr_cache;		/* 24 */
	__u16	lnd_conns_per_peer;	/* 28 */
	__u16	lnd_ntx;		/* 30 transmit descriptors */
	__u32	lnd_timeout;		/* 32 s */
	__s16	lnd_tos;		/* 36 */
	__u16	lnd_pad;		/* 38 */
};					/* 40 */

/* The tunables block after struct lnet_ioctl_config_ni. The LND union
 * member is chosen by the LND type of the NI's net (tcp: socklnd, o2ib:
 * o2iblnd); other LNDs ignore it.
 */
struct lnet_ioctl_lnd_tunables {
	struct lnet_ioctl_tunables_common lt_cmn;	/*  0 */
	union {
		struct lnet_ioctl_tunables_socklnd sock;
		struct lnet_ioctl_tunables_o2iblnd o2ib;
	} lt_lnd;					/* 20 */
};							/* 60 */

/* ------------------------------------------------------------------------ */
/* Statistics and peers (project-defined layouts)                            */
/* ------------------------------------------------------------------------ */

/* Index of a message type in the per-type counter arrays. */
enum lnet_ioctl_msg_type {
	LNET_IOCTL_MSG_PUT	= 0,
	LNET_IOCTL_MSG_GET	= 1,
	LNET_IOCTL_MSG_REPLY	= 2,
	LNET_IOCTL_MSG_ACK	= 3,
	LNET_IOCTL_MSG_HELLO	= 4,
	LNET_IOCTL_MSG_TYPES	= 5,
};

/* Message counters of one local or peer NI. */
struct lnet_ioctl_msg_stats {
	__u64	ms_send_count;				/*   0 */
	__u64	ms_recv_count;				/*   8 */
	__u64	ms_drop_count;				/*  16 */
	__u64	ms_sent[LNET_IOCTL_MSG_TYPES];		/*  24 */
	__u64	ms_received[LNET_IOCTL_MSG_TYPES];	/*  64 */
	__u64	ms_dropped[LNET_IOCTL_MSG_TYPES];	/* 104 */
};							/* 144 */

/* GET_LOCAL_NI_MSG_STATS, project-defined: counters of the local NI
 * whose NID is lns_nid (ENOENT if none).
 */
struct lnet_ioctl_ni_msg_stats {
	struct lnet_ioctl_hdr lns_hdr;		/*  0 */
	__u64	lns_nid;			/*  8 in */
	struct lnet_ioctl_msg_stats lns_stats;	/* 16 out */
};						/* 160 */

/* GET_LOCAL_HSTATS, project-defined: health of the local NI lnh_nid. */
struct lnet_ioctl_ni_health {
	struct lnet_ioctl_hdr lnh_hdr;	/*  0 */
	__u64	lnh_nid;		/*  8 in */
	__s32	lnh_health_value;	/* 16 0..1000, 1000 = fully healthy */
	__u32	lnh_fatal_error;	/* 20 nonzero: link down / fatal */
	__u64	lnh_interrupts;		/* 24 */
	__u64	lnh_dropped;		/* 32 */
	__u64	lnh_aborted;		/* 40 */
	__u64	lnh_no_route;		/* 48 */
	__u64	lnh_timeouts;		/* 56 */
	__u64	lnh_error;		/* 64 */
	__u64	lnh_ping_count;		/* 72 recovery pings sent */
	__s64	lnh_next_ping;		/* 80 s until the next recovery ping */
};					/* 88 */

/* SET_HEALTHV, project-defined: set the health of local NIs or peers. */
#define LNET_HEALTH_LOCAL_NI	0
#define LNET_HEALTH_PEER_NI	1

struct lnet_ioctl_set_health {
	struct lnet_ioctl_hdr sh_hdr;	/*  0 */
	__u64	sh_nid;			/*  8 ignored with sh_all */
	__u32	sh_type;		/* 16 LNET_HEALTH_* */
	__s32	sh_value;		/* 20 0..1000 */
	__u32	sh_all;			/* 24 every local NI / every peer */
	__u32	sh_pad;			/* 28 zero */
};					/* 32 */

/* GET_RECOVERY_QUEUE, project-defined: the local NIs (rl_type
 * LNET_HEALTH_LOCAL_NI) or peers (LNET_HEALTH_PEER_NI) that recovery pings
 * are trying to bring back to full health, oldest first.
 */
#define LNET_RECOVERY_LIST_MAX	64

struct lnet_ioctl_recovery_entry {
	__u64	re_nid;			/*  0 */
	__s32	re_health_value;	/*  8 0..1000 */
	__u32	re_ping_count;		/* 12 pings since last heard from */
	__s64	re_next_ping;		/* 16 s until the next ping is due;
					 *    -1: one is waiting for its REPLY
					 */
};					/* 24 */

struct lnet_ioctl_recovery_list {
	struct lnet_ioctl_hdr rl_hdr;	/*  0 */
	__u32	rl_type;		/*  8 in: LNET_HEALTH_* */
	__u32	rl_count;		/* 12 out: entries filled */
	__u32	rl_total;		/* 16 out: entries queued (may be more) */
	__u32	rl_pad;			/* 20 zero */
	struct lnet_ioctl_recovery_entry rl_entries[LNET_RECOVERY_LIST_MAX];
};					/* 24 + 64 * 24 = 1560 */

/* GET_LNET_STATS, project-defined: global counters ("lnetctl stats show"),
 * in the order lnetctl prints them.
 */
struct lnet_ioctl_lnet_stats {
	struct lnet_ioctl_hdr st_hdr;		/*   0 */
	__u64	st_msgs_alloc;			/*   8 messages in use now */
	__u64	st_msgs_max;			/*  16 high-water mark */
	__u64	st_rst_alloc;			/*  24 response trackers in use */
	__u64	st_errors;			/*  32 */
	__u64	st_send_count;			/*  40 */
	__u64	st_resend_count;		/*  48 */
	__u64	st_response_timeout_count;	/*  56 */
	__u64	st_local_interrupt_count;	/*  64 */
	__u64	st_local_dropped_count;		/*  72 */
	__u64	st_local_aborted_count;		/*  80 */
	__u64	st_local_no_route_count;	/*  88 */
	__u64	st_local_timeout_count;		/*  96 */
	__u64	st_local_error_count;		/* 104 */
	__u64	st_remote_dropped_count;	/* 112 */
	__u64	st_remote_error_count;		/* 120 */
	__u64	st_remote_timeout_count;	/* 128 */
	__u64	st_network_timeout_count;	/* 136 */
	__u64	st_failed_resends;		/* 144 */
	__u64	st_successful_resends;		/* 152 */
	__u64	st_recv_count;			/* 160 */
	__u64	st_route_count;			/* 168 messages forwarded */
	__u64	st_drop_count;			/* 176 */
	__u64	st_send_length;			/* 184 bytes */
	__u64	st_recv_length;			/* 192 bytes */
	__u64	st_route_length;		/* 200 bytes */
	__u64	st_drop_length;			/* 208 bytes */
};						/* 216 */

/* Peer NI "state" (pni_ni_state). */
#define LNET_IOCTL_PEER_NI_NA		0	/* not tracked (shown "NA") */
#define LNET_IOCTL_PEER_NI_UP		1
#define LNET_IOCTL_PEER_NI_DOWN		2

/* pni_flags */
#define LNET_IOCTL_PEER_MULTI_RAIL	0x1U	/* the peer is Multi-Rail */
#define LNET_IOCTL_PEER_CONFIGURED	0x2U	/* made or kept by ADD_PEER_NI */
#define LNET_IOCTL_PEER_LOCK_PRIM	0x4U	/* discovery keeps its primary */
#define LNET_IOCTL_PEER_DISCOVERED	0x8U	/* discovery ran to its end */
#define LNET_IOCTL_PEER_NO_DISCOVERY	0x10U	/* its ping info says it does
						 * no discovery, or configured
						 * --non_mr
						 */

/*
 * GET_PEER_NI, project-defined: one NI of a remote peer. pni_index (in)
 * counts over the NIs of all peers, peer after peer, each peer's NIs in
 * order (its primary NID first); ENOENT past the last one. A NID of a
 * peer that no message has used yet (learned by discovery or configured)
 * has full credits and health and a refcount of 0.
 */
struct lnet_ioctl_peer_ni {
	struct lnet_ioctl_hdr pni_hdr;		/*   0 */
	__u32	pni_index;			/*   8 in */
	__u32	pni_flags;			/*  12 LNET_IOCTL_PEER_* */
	__u64	pni_primary_nid;		/*  16 the peer this NI belongs to */
	__u64	pni_nid;			/*  24 */
	__u32	pni_peer_state;			/*  32 peer state bits (debug) */
	__u32	pni_ni_state;			/*  36 LNET_IOCTL_PEER_NI_* */
	__s32	pni_max_tx_credits;		/*  40 */
	__s32	pni_available_tx_credits;	/*  44 */
	__s32	pni_min_tx_credits;		/*  48 low-water mark */
	__u32	pni_tx_q_num_of_buf;		/*  52 */
	__s32	pni_available_rtr_credits;	/*  56 */
	__s32	pni_min_rtr_credits;		/*  60 */
	__u32	pni_refcount;			/*  64 */
	__s32	pni_health_value;		/*  68 0..1000 */
	struct lnet_ioctl_msg_stats pni_stats;	/*  72 */
	__u64	pni_hs_dropped;			/* 216 */
	__u64	pni_hs_timeout;			/* 224 */
	__u64	pni_hs_error;			/* 232 */
	__u64	pni_hs_network_timeout;		/* 240 */
	__u64	pni_hs_ping_count;		/* 248 */
	__s64	pni_hs_next_ping;		/* 256 */
};						/* 264 */

/* pc_flags */
#define LNET_IOCTL_PEER_CFG_NON_MR	0x1U	/* peer add --non_mr */
#define LNET_IOCTL_PEER_CFG_LOCK_PRIM	0x2U	/* peer add --lock_prim */
#define LNET_IOCTL_PEER_CFG_FORCE	0x4U	/* peer del --force */
#define LNET_IOCTL_PEER_CFG_FLAGS	0x7U

/*
 * ADD_PEER_NI / DEL_PEER_NI, project-defined: a peer an admin configures.
 *
 * ADD with pc_nid LNET_NID_ANY or pc_prim_nid: the peer whose primary NID
 * is pc_prim_nid, made (Multi-Rail unless NON_MR; primary locked if
 * LOCK_PRIM) or marked configured; -EEXIST if configured already, -EINVAL
 * for one of our own NIDs or a NID another peer has. ADD with another
 * pc_nid: that NID joins the configured peer pc_prim_nid (-ENOENT if there
 * is none, -EINVAL if it is --non_mr, -EEXIST if the peer has it, -ENOSPC
 * past LNET_IOCTL_PEER_MAX_NIDS). A configured peer is not forgotten when
 * idle, only by DEL or LNet's shutdown; discovery adds NIDs to it but
 * removes none.
 *
 * DEL with pc_nid LNET_NID_ANY or pc_prim_nid: forget the peer and all its
 * NIDs, configured or not (-EPERM for a locked primary without FORCE;
 * -EBUSY while messages wait for one of its NIDs' credits or for its
 * discovery). DEL with another pc_nid: that NID leaves the peer. Messages
 * in flight complete on what they were using.
 */
struct lnet_ioctl_peer_cfg {
	struct lnet_ioctl_hdr pc_hdr;		/*   0 */
	__u64	pc_prim_nid;			/*   8 */
	__u64	pc_nid;				/*  16 LNET_NID_ANY: the primary */
	__u32	pc_flags;			/*  24 LNET_IOCTL_PEER_CFG_* */
	__u32	pc_pad;				/*  28 */
};						/*  32 */

/* The most NIDs LNet keeps for one peer (configured or discovered). */
#define LNET_IOCTL_PEER_MAX_NIDS	16

/* The most connections per peer an NI may be given at run time. */
#define LNET_IOCTL_CONNS_PER_PEER_MAX	127

/*
 * SET_CONNS_PER_PEER, project-defined: the connections per peer of an NI
 * (cpp_all: of every NI whose LND has that setting), for connections made
 * from now on; 0 is the LND's default. -EOPNOTSUPP for an NI whose LND
 * has no such setting (ko2iblnd: one connection per peer).
 */
struct lnet_ioctl_conns_per_peer {
	struct lnet_ioctl_hdr cpp_hdr;		/*   0 */
	__u64	cpp_nid;			/*   8 ignored with cpp_all */
	__u32	cpp_all;			/*  16 0 or 1 */
	__u32	cpp_value;			/*  20 0..LNET_IOCTL_CONNS_PER_PEER_MAX */
};						/*  24 */

/* ------------------------------------------------------------------------ */
/* Fault injection (LNET_FAULT), project-defined                             */
/* ------------------------------------------------------------------------ */

/* lfi_opc */
#define LNET_FAULT_DROP_ADD		0
#define LNET_FAULT_DROP_DEL		1
#define LNET_FAULT_DROP_RESET		2
#define LNET_FAULT_DROP_LIST		3
#define LNET_FAULT_DELAY_ADD		4
#define LNET_FAULT_DELAY_DEL		5
#define LNET_FAULT_DELAY_RESET		6
#define LNET_FAULT_DELAY_LIST		7

/* fa_flags */
#define LNET_FAULT_F_RANDOM	0x1U	/* drop: each match with p = 1/2 (interval) */
#define LNET_FAULT_F_DROP_ALL	0x2U	/* drop: every match, on both paths */

/* fa_health_mask: one bit per message health status (1 << status) */
#define LNET_FAULT_HEALTH_RANDOM	0xFFFFFFFFU

/* bounds: fa_interval and fa_latency in s; rules of both kinds together */
#define LNET_FAULT_MAX_SECONDS		86400U
#define LNET_FAULT_MAX_RULES		256U

/*
 * A rule. A NID whose address is 0xFFFFFFFF stands for every NID of its
 * network, LNET_NID_ANY for every NID. Exactly one of fa_rate and
 * fa_interval is non-zero.
 */
struct lnet_fault_attr {
	__u64	fa_src;				/*   0 header source NID */
	__u64	fa_dst;				/*   8 header destination NID */
	__u64	fa_local_nid;			/*  16 drop on receive only: the NI */
	__u64	fa_ptl_mask;			/*  24 1 << portal; 0: any */
	__u32	fa_msg_mask;			/*  32 1 << LNET_MSG_*; 0: any */
	__u32	fa_rate;			/*  36 one match of every N */
	__u32	fa_interval;			/*  40 s: one match per window */
	__u32	fa_latency;			/*  44 delay rules: s (> 0) */
	__u32	fa_health_mask;			/*  48 drop rules: send-side failure */
	__u32	fa_flags;			/*  52 LNET_FAULT_F_* */
	__u64	fa_seed;			/*  56 0 on ADD: the kernel picks */
};						/*  64 */

struct lnet_fault_stat {
	__u64	fs_count;			/*   0 matches */
	__u64	fs_ack;				/*   8 dropped or delayed, by type */
	__u64	fs_put;				/*  16 */
	__u64	fs_get;				/*  24 */
	__u64	fs_reply;			/*  32 */
	__u64	fs_total;			/*  40 dropped or delayed */
	__u64	fs_held;			/*  48 delay rules: held now */
	__u64	fs_pad;				/*  56 */
};						/*  64 */

/*
 * LNET_FAULT, version 2. ADD: lfi_attr in; lfi_attr.fa_seed out (the seed
 * used). DEL: rules whose fa_src and fa_dst equal lfi_attr's (LNET_NID_ANY
 * on either side: any) are deleted, their held messages released at once;
 * lfi_count out: how many. RESET: every rule's statistics zeroed and its
 * random sequence restarted from its seed. LIST: lfi_index in (0: the
 * newest rule), lfi_attr and lfi_stat out; ENOENT past the last rule.
 */
struct lnet_ioctl_fault {
	struct lnet_ioctl_hdr lfi_hdr;		/*   0 */
	__u32	lfi_opc;			/*   8 LNET_FAULT_* */
	__u32	lfi_index;			/*  12 LIST: in */
	__u32	lfi_count;			/*  16 DEL: out */
	__u32	lfi_pad;			/*  20 */
	struct lnet_fault_attr lfi_attr;	/*  24 */
	struct lnet_fault_stat lfi_stat;	/*  88 LIST: out */
};						/* 152 */

/* ------------------------------------------------------------------------ */
/* An LND's peers and connections (GET_PEER, GET_CONN), project-defined      */
/* ------------------------------------------------------------------------ */

/*
 * GET_PEER and GET_CONN take the generic block and are answered by the LND
 * of the net's type (ksocklnd for tcp, ko2iblnd for o2ib; "lctl --net NET
 * peer_list|conn_list"). Like every command lnet.ko passes to another
 * module, they need CAP_NET_ADMIN (EACCES).
 *
 * In: ioc_net, the net; ioc_count, the index of the entry wanted, counted
 * over every NI of the LND on that net (peer after peer; GET_CONN: each
 * peer's connections in turn). The tables change between calls, so a walk
 * may skip or repeat an entry.
 * Errors: ENOENT past the last entry; ENETDOWN when the LND has no NI on
 * the net; EINVAL when no loaded LND takes the net's type (or a malformed
 * block).
 *
 * Out, both LNDs: ioc_nid the peer's NID; ioc_u64[0] the peer's pid; the
 * other fields as below, every address IPv4 in host byte order; the
 * ioc_u32[] entries not listed are zero, the rest of the block is left as
 * it came.
 *
 * ksocklnd GET_PEER: ioc_u32[0] this NI's address, [1] the peer's address,
 * [2] the remote port of the peer's first connection (0 without one),
 * [3] connections, [4] messages waiting for a connection; ioc_flags
 * LNET_IOCTL_SOCK_PEER_CONNECTING while a connection is being made.
 *
 * ksocklnd GET_CONN: ioc_u32[0] local address, [1] local port, [2] remote
 * address, [3] remote port, [4] type (LNET_IOCTL_SOCK_CONN_*), [5] socket
 * send buffer and [6] receive buffer (bytes); ioc_flags bit
 * LNET_IOCTL_SOCK_CONN_NAGLE when Nagle's algorithm is on, and the
 * connection's scheduler thread in the bits LNET_IOCTL_SOCK_CONN_SCHED()
 * takes.
 *
 * ko2iblnd GET_PEER: ioc_u32[0] established connections, [1] the state of
 * the best connection (LNET_IOCTL_O2IB_STATE_*), [2] its send credits,
 * [3] credits it owes the peer, [4] its queue depth (without a
 * connection: the depth the next connection asks for), [5] messages
 * waiting for a connection, [6] references held on the peer.
 *
 * ko2iblnd GET_CONN: established connections, then those being set up;
 * ioc_u32[0] path MTU (bytes; 0 unknown), [1] state, [2] send credits,
 * [3] credits owed, [4] queue depth, [5] protocol version, [6] messages
 * queued on it; ioc_flags LNET_IOCTL_O2IB_CONN_ACTIVE when this node made
 * it.
 */
#define LNET_IOCTL_SOCK_PEER_CONNECTING	0x1U

#define LNET_IOCTL_SOCK_CONN_ANY	0	/* untyped (protocol V2) */
#define LNET_IOCTL_SOCK_CONN_CONTROL	1
#define LNET_IOCTL_SOCK_CONN_BULK_IN	2
#define LNET_IOCTL_SOCK_CONN_BULK_OUT	3
#define LNET_IOCTL_SOCK_CONN_NAGLE	0x1U
#define LNET_IOCTL_SOCK_CONN_SCHED_SHIFT	16
#define LNET_IOCTL_SOCK_CONN_SCHED(flags) \
	((flags) >> LNET_IOCTL_SOCK_CONN_SCHED_SHIFT)

#define LNET_IOCTL_O2IB_STATE_NONE		0	/* no connection */
#define LNET_IOCTL_O2IB_STATE_CONNECTING	1
#define LNET_IOCTL_O2IB_STATE_ESTABLISHED	2
#define LNET_IOCTL_O2IB_STATE_CLOSING		3
#define LNET_IOCTL_O2IB_CONN_ACTIVE		0x1U

/* ------------------------------------------------------------------------ */
/* Command numbers                                                           */
/* ------------------------------------------------------------------------ */

#define LNET_IOC_TYPE		'e'
#define LNET_IOC_MIN_NR		30
#define LNET_IOC_MAX_NR		112

/*
 * The size bits are part of the command value but the kernel does not check
 * them. Group 1 is declared with the size of a long, group 2 with the size
 * of struct lnet_ioctl_config_data, whatever the actual argument.
 */
#define LNET_IOC_GRP1(nr)	_IOWR(LNET_IOC_TYPE, nr, long)
#define LNET_IOC_GRP2(nr)	_IOWR(LNET_IOC_TYPE, nr, struct lnet_ioctl_config_data)

/* group 1: generic data block unless noted */
#define LNET_IOC_CLEAR_DEBUG		LNET_IOC_GRP1(31)
#define LNET_IOC_MARK_DEBUG		LNET_IOC_GRP1(32)
#define LNET_IOC_GET_NI			LNET_IOC_GRP1(50)
#define LNET_IOC_FAIL_NID		LNET_IOC_GRP1(51)
#define LNET_IOC_NOTIFY_ROUTER		LNET_IOC_GRP1(55)
#define LNET_IOC_UNCONFIGURE		LNET_IOC_GRP1(56)
#define LNET_IOC_LNET_DIST		LNET_IOC_GRP1(58)	/* see below */
#define LNET_IOC_CONFIGURE		LNET_IOC_GRP1(59)
#define LNET_IOC_TESTPROTOCOMPAT	LNET_IOC_GRP1(60)
#define LNET_IOC_PING_PEER		LNET_IOC_GRP1(62)	/* ping data */
#define LNET_IOC_LNETST			LNET_IOC_GRP1(63)	/* selftest */
#define LNET_IOC_LNET_FAULT		LNET_IOC_GRP1(64)
#define LNET_IOC_REGISTER_MYNID		LNET_IOC_GRP1(70)
#define LNET_IOC_CLOSE_CONNECTION	LNET_IOC_GRP1(71)	/* LND */
#define LNET_IOC_PUSH_CONNECTION	LNET_IOC_GRP1(72)	/* LND */
#define LNET_IOC_GET_CONN		LNET_IOC_GRP1(73)	/* LND, see above */
#define LNET_IOC_DEL_PEER		LNET_IOC_GRP1(74)	/* LND */
#define LNET_IOC_ADD_PEER		LNET_IOC_GRP1(75)	/* LND */
#define LNET_IOC_GET_PEER		LNET_IOC_GRP1(76)	/* LND, see above */
#define LNET_IOC_DISCOVER		LNET_IOC_GRP1(77)	/* ping data */
#define LNET_IOC_ADD_INTERFACE		LNET_IOC_GRP1(78)
#define LNET_IOC_DEL_INTERFACE		LNET_IOC_GRP1(79)
#define LNET_IOC_GET_INTERFACE		LNET_IOC_GRP1(80)

/* group 2: configuration data unless noted */
#define LNET_IOC_ADD_ROUTE		LNET_IOC_GRP2(81)
#define LNET_IOC_DEL_ROUTE		LNET_IOC_GRP2(82)
#define LNET_IOC_GET_ROUTE		LNET_IOC_GRP2(83)
#define LNET_IOC_ADD_NET		LNET_IOC_GRP2(84)
#define LNET_IOC_DEL_NET		LNET_IOC_GRP2(85)
#define LNET_IOC_GET_NET		LNET_IOC_GRP2(86)
#define LNET_IOC_CONFIG_RTR		LNET_IOC_GRP2(87)
#define LNET_IOC_ADD_BUF		LNET_IOC_GRP2(88)
#define LNET_IOC_GET_BUF		LNET_IOC_GRP2(89)
#define LNET_IOC_GET_PEER_INFO		LNET_IOC_GRP2(90)
#define LNET_IOC_GET_LNET_STATS		LNET_IOC_GRP2(91)	/* lnet stats */
#define LNET_IOC_ADD_PEER_NI		LNET_IOC_GRP2(92)
#define LNET_IOC_DEL_PEER_NI		LNET_IOC_GRP2(93)
#define LNET_IOC_GET_PEER_NI		LNET_IOC_GRP2(94)	/* peer NI */
#define LNET_IOC_ADD_LOCAL_NI		LNET_IOC_GRP2(95)	/* NI config */
#define LNET_IOC_DEL_LOCAL_NI		LNET_IOC_GRP2(96)	/* NI config */
#define LNET_IOC_GET_LOCAL_NI		LNET_IOC_GRP2(97)	/* NI config */
#define LNET_IOC_SET_NUMA_RANGE		LNET_IOC_GRP2(98)
#define LNET_IOC_GET_NUMA_RANGE		LNET_IOC_GRP2(99)
#define LNET_IOC_GET_PEER_LIST		LNET_IOC_GRP2(100)
#define LNET_IOC_GET_LOCAL_NI_MSG_STATS	LNET_IOC_GRP2(101)	/* NI msg stats */
#define LNET_IOC_SET_HEALTHV		LNET_IOC_GRP2(102)
#define LNET_IOC_GET_LOCAL_HSTATS	LNET_IOC_GRP2(103)	/* NI health */
#define LNET_IOC_GET_RECOVERY_QUEUE	LNET_IOC_GRP2(104)
#define LNET_IOC_ADD_UDSP		LNET_IOC_GRP2(105)
#define LNET_IOC_DEL_UDSP		LNET_IOC_GRP2(106)
#define LNET_IOC_GET_UDSP_SIZE		LNET_IOC_GRP2(107)
#define LNET_IOC_GET_UDSP		LNET_IOC_GRP2(108)
#define LNET_IOC_GET_CONST_UDSP_INFO	LNET_IOC_GRP2(109)
#define LNET_IOC_RESET_LNET_STATS	LNET_IOC_GRP2(110)	/* header only */
#define LNET_IOC_SET_CONNS_PER_PEER	LNET_IOC_GRP2(111)
#define LNET_IOC_SET_PEER		LNET_IOC_GRP2(112)

/* ------------------------------------------------------------------------ */
/* Layout checks                                                             */
/* ------------------------------------------------------------------------ */

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_hdr) == 8, "ioctl header");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_hdr, ioc_version, 4);

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_data) == 128, "generic data");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_nid, 8);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_u64, 16);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_flags, 24);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_count, 28);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_net, 32);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_u32, 36);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_inline1_len, 64);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_inline1, 72);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_inline2_len, 80);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_inline2, 88);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_user1_len, 96);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_user1, 104);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_user2_len, 112);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_data, ioc_user2, 120);

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_config_data) == 184, "config data");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_net, 8);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_count, 12);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_nid, 16);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_ncpts, 24);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u, 28);
LNET_IOCTL_ASSERT(sizeof(((struct lnet_ioctl_config_data *)0)->cfg_u) == 152, "cfg union size");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.route.priority, 32);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.route.flags, 36);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.route.sensitivity, 40);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.net.peer_timeout, 156);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.net.interface_count, 176);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.buffers.large, 40);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.pools.pool, 36);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_u.pools.pool[2].mincredits, 80);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_data, cfg_pad, 180);

LNET_IOCTL_ASSERT(sizeof(struct lnet_process_id) == 16, "process id entry");
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_ping_data) == 56, "ping data");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_param, 8);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_count, 12);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_flags, 16);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_mr, 20);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_target_nid, 24);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_target_pid, 32);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_ids, 40);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ping_data, ping_src, 48);

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_config_ni) == 808, "NI config");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_nid, 8);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_ni_intf, 16);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_legacy_ip2nets, 144);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_cpts, 272);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_ncpts, 784);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_status, 788);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_idx, 792);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_config_ni, lic_dev_cpt, 796);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_config_ni) == LNET_IOCTL_NI_TUNABLES_OFFSET,
		  "tunables follow the NI config");

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_tunables_common) == 20, "common tunables");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_common, lct_max_tx_credits, 16);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_tunables_socklnd) == 16, "socklnd tunables");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_socklnd, lnd_conns_per_peer, 4);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_socklnd, lnd_timeout, 8);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_socklnd, lnd_tos, 12);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_tunables_o2iblnd) == 40, "o2iblnd tunables");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_o2iblnd, lnd_conns_per_peer, 28);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_o2iblnd, lnd_ntx, 30);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_o2iblnd, lnd_timeout, 32);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_tunables_o2iblnd, lnd_tos, 36);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_lnd_tunables) == 60, "tunables block");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_lnd_tunables, lt_lnd, 20);

LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_msg_stats) == 144, "msg stats");
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_ni_msg_stats) == 160, "NI msg stats");
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_ni_health) == 88, "NI health");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_ni_health, lnh_next_ping, 80);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_set_health) == 32, "set health");
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_peer_cfg) == 32, "peer config");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_peer_cfg, pc_flags, 24);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_conns_per_peer) == 24, "conns per peer");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_conns_per_peer, cpp_value, 20);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_set_health, sh_all, 24);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_recovery_entry) == 24, "recovery entry");
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_recovery_list) == 1560, "recovery list");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_recovery_list, rl_entries, 24);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_lnet_stats) == 216, "lnet stats");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_lnet_stats, st_drop_length, 208);
LNET_IOCTL_ASSERT(sizeof(struct lnet_ioctl_peer_ni) == 264, "peer NI");
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_peer_ni, pni_stats, 72);
LNET_IOCTL_CHECK_OFFSET(struct lnet_ioctl_peer_ni, pni_hs_next_ping, 256);

/* Command values from the reference table (long is 8 bytes on x86-64). */
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_CLEAR_DEBUG == 0xC008651FU, "CLEAR_DEBUG");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_GET_NI == 0xC0086532U, "GET_NI");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_UNCONFIGURE == 0xC0086538U, "UNCONFIGURE");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_CONFIGURE == 0xC008653BU, "CONFIGURE");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_PING_PEER == 0xC008653EU, "PING_PEER");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_DISCOVER == 0xC008654DU, "DISCOVER");
LNET_IOCTL_ASSERT(sizeof(long) != 8 || LNET_IOC_GET_INTERFACE == 0xC0086550U, "GET_INTERFACE");
LNET_IOCTL_ASSERT(LNET_IOC_ADD_ROUTE == 0xC0B86551U, "ADD_ROUTE");
LNET_IOCTL_ASSERT(LNET_IOC_DEL_ROUTE == 0xC0B86552U, "DEL_ROUTE");
LNET_IOCTL_ASSERT(LNET_IOC_GET_ROUTE == 0xC0B86553U, "GET_ROUTE");
LNET_IOCTL_ASSERT(LNET_IOC_DEL_NET == 0xC0B86555U, "DEL_NET");
LNET_IOCTL_ASSERT(LNET_IOC_GET_LNET_STATS == 0xC0B8655BU, "GET_LNET_STATS");
LNET_IOCTL_ASSERT(LNET_IOC_GET_PEER_NI == 0xC0B8655EU, "GET_PEER_NI");
LNET_IOCTL_ASSERT(LNET_IOC_ADD_LOCAL_NI == 0xC0B8655FU, "ADD_LOCAL_NI");
LNET_IOCTL_ASSERT(LNET_IOC_DEL_LOCAL_NI == 0xC0B86560U, "DEL_LOCAL_NI");
LNET_IOCTL_ASSERT(LNET_IOC_GET_LOCAL_NI == 0xC0B86561U, "GET_LOCAL_NI");
LNET_IOCTL_ASSERT(LNET_IOC_GET_LOCAL_NI_MSG_STATS == 0xC0B86565U, "GET_LOCAL_NI_MSG_STATS");
LNET_IOCTL_ASSERT(LNET_IOC_GET_LOCAL_HSTATS == 0xC0B86567U, "GET_LOCAL_HSTATS");
LNET_IOCTL_ASSERT(LNET_IOC_RESET_LNET_STATS == 0xC0B8656EU, "RESET_LNET_STATS");
LNET_IOCTL_ASSERT(LNET_IOC_SET_PEER == 0xC0B86570U, "SET_PEER");

#endif /* _UAPI_LINUX_LNET_IOCTL_H */
