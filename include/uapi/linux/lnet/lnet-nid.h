/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * LNet addressing shared by the kernel modules and user space: network ids,
 * the classic 64-bit NID ("nid4"), process ids and LND type numbers.
 * Layouts and values follow the LNet wire protocol (see
 * Documentation/wire/nid.md); this header is plain C so both sides include it.
 */
#ifndef _UAPI_LINUX_LNET_NID_H
#define _UAPI_LINUX_LNET_NID_H

#include <linux/types.h>

typedef __u64 lnet_nid_t;
typedef __u32 lnet_pid_t;

/* A network id: LND type in bits 23..16, network number in bits 15..0. */
#define LNET_NET_ANY		0xffffffffU
#define LNET_MKNET(type, num)	((((__u32)(type)) << 16) | ((__u32)(num) & 0xffff))
#define LNET_NETTYP(net)	(((net) >> 16) & 0xff)
#define LNET_NETNUM(net)	((net) & 0xffff)

/* A nid4: network id in bits 63..32, address within the network below. */
#define LNET_NID_ANY		((lnet_nid_t)-1)
#define LNET_MKNID(net, addr)	((((__u64)(net)) << 32) | (__u32)(addr))
#define LNET_NIDNET(nid)	((__u32)((nid) >> 32))
#define LNET_NIDADDR(nid)	((__u32)((nid) & 0xffffffff))
#define LNET_NID_LO_0		LNET_MKNID(LNET_MKNET(LNET_LND_LO, 0), 0)

#define LNET_PID_ANY		((lnet_pid_t)-1)
#define LNET_PID_LUSTRE		12345
#define LNET_PID_RESERVED	0xf0000000U
#define LNET_PID_USERFLAG	0x80000000U

/*
 * LND type numbers are permanent; only SOCK, O2IB and LO are implemented
 * here. The others are listed so that peers' NIDs of those types print and
 * parse under their protocol names ("17@gni") instead of as unknown types.
 */
enum lnet_lnd_type {
	LNET_LND_SOCK	= 2,	/* "tcp" */
	LNET_LND_O2IB	= 5,	/* "o2ib" */
	LNET_LND_LO	= 9,	/* "lo", never on the wire */
	LNET_LND_GNI	= 13,	/* "gni", numeric address */
	LNET_LND_GNIIP	= 14,	/* "gip", IPv4 address */
	LNET_LND_PTL4	= 15,	/* "ptlf", numeric address */
	LNET_LND_KFI	= 16,	/* "kfi", numeric address */
	LNET_LND_EFA	= 18,	/* "efa", IPv4 address */
	LNET_LND_BXI3	= 19,	/* "bxi3f", numeric address */
};

struct lnet_process_id {
	lnet_nid_t nid;
	lnet_pid_t pid;
};

#define LNET_MTU		(1U << 20)	/* max PUT/REPLY payload */
#define LNET_MAX_IOV		256		/* max fragments per message */
#define LNET_NIDSTR_SIZE	32		/* fits any nid4 string + NUL */
#define LNET_IDSTR_SIZE		48		/* fits any "pid-nid" string + NUL */

#endif /* _UAPI_LINUX_LNET_NID_H */
