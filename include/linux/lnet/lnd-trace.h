/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the LNDs' trace headers share (Documentation/tracing.md).
 *
 * A NID is kept in an event as the u64 it is, so that a filter can name it
 * (peer_nid == 0x...), and printed from that u64 alone by arithmetic:
 * trace-cmd and perf evaluate the print format themselves and know no
 * function of ours. Each LND prints only NIDs of its own type, whose
 * address is IPv4, so the type name is a literal; the net number is always
 * printed ("10.0.0.2@tcp0"), which nidstr parsers take as "@tcp".
 */
#ifndef _LINUX_LNET_LND_TRACE_H
#define _LINUX_LNET_LND_TRACE_H

#include <linux/tracepoint.h>

#define LNET_TP_NID_FMT(type)	"%u.%u.%u.%u@" type "%u"
/* the arguments of LNET_TP_NID_FMT(), a list: PARAMS() carries it */
#define LNET_TP_NID(nid)				\
	PARAMS((unsigned int)(((nid) >> 24) & 0xff),	\
	       (unsigned int)(((nid) >> 16) & 0xff),	\
	       (unsigned int)(((nid) >> 8) & 0xff),	\
	       (unsigned int)((nid) & 0xff),		\
	       (unsigned int)(((nid) >> 32) & 0xffff))

#endif /* _LINUX_LNET_LND_TRACE_H */
