/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints at the steps of a message's life: parse (a header came in),
 * match (portal lookup result), send (to the LND), drop, finalize, and
 * event (delivery to an EQ).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lnet

#if !defined(_LNET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LNET_TRACE_H

#include <linux/tracepoint.h>
#include <linux/lnet/lib-lnet.h>

TRACE_EVENT(lnet_parse,
	TP_PROTO(const struct lnet_ni *ni, const struct lnet_hdr *hdr,
		 lnet_nid_t from),
	TP_ARGS(ni, hdr, from),
	TP_STRUCT__entry(
		__field(u64, ni_nid)
		__field(u64, from)
		__field(u64, src_nid)
		__field(u64, dest_nid)
		__field(u32, type)
		__field(u32, len)
	),
	TP_fast_assign(
		__entry->ni_nid = ni->nid;
		__entry->from = from;
		__entry->src_nid = hdr->src_nid;
		__entry->dest_nid = hdr->dest_nid;
		__entry->type = hdr->type;
		__entry->len = hdr->payload_length;
	),
	TP_printk("ni=%#llx from=%#llx src=%#llx dest=%#llx type=%u len=%u",
		  __entry->ni_nid, __entry->from, __entry->src_nid,
		  __entry->dest_nid, __entry->type, __entry->len)
);

TRACE_EVENT(lnet_match,
	TP_PROTO(const struct lnet_match_info *info, int rc),
	TP_ARGS(info, rc),
	TP_STRUCT__entry(
		__field(u64, match_bits)
		__field(u64, src_nid)
		__field(u32, portal)
		__field(u32, op)
		__field(u32, rlength)
		__field(int, rc)
	),
	TP_fast_assign(
		__entry->match_bits = info->match_bits;
		__entry->src_nid = info->src.nid;
		__entry->portal = info->portal;
		__entry->op = info->op;
		__entry->rlength = info->rlength;
		__entry->rc = rc;
	),
	TP_printk("portal=%u bits=%#llx src=%#llx op=%u rlength=%u %s",
		  __entry->portal, __entry->match_bits, __entry->src_nid,
		  __entry->op, __entry->rlength,
		  __print_symbolic(__entry->rc,
				   { LNET_MATCH_NONE, "none" },
				   { LNET_MATCH_OK, "ok" },
				   { LNET_MATCH_DROP, "drop" },
				   { LNET_MATCH_DELAYED, "delayed" }))
);

TRACE_EVENT(lnet_send,
	TP_PROTO(const struct lnet_msg *msg),
	TP_ARGS(msg),
	TP_STRUCT__entry(
		__field(const void *, msg)
		__field(u64, ni_nid)
		__field(u64, target)
		__field(u64, dest_nid)
		__field(u32, type)
		__field(u32, len)
		__field(u8, retries)
		__field(u8, confirm)
	),
	TP_fast_assign(
		__entry->msg = msg;
		__entry->ni_nid = msg->ni->nid;
		__entry->target = msg->target.nid;
		__entry->dest_nid = msg->hdr.dest_nid;
		__entry->type = msg->hdr.type;
		__entry->len = msg->len;
		__entry->retries = msg->retries;
		__entry->confirm = msg->confirm;
	),
	TP_printk("msg=%p ni=%#llx to=%#llx dest=%#llx type=%u len=%u retries=%u confirm=%u",
		  __entry->msg, __entry->ni_nid, __entry->target,
		  __entry->dest_nid, __entry->type, __entry->len,
		  __entry->retries, __entry->confirm)
);

TRACE_EVENT(lnet_drop,
	TP_PROTO(const struct lnet_ni *ni, unsigned int len, const char *why),
	TP_ARGS(ni, len, why),
	TP_STRUCT__entry(
		__field(u64, ni_nid)
		__field(u32, len)
		__string(why, why)
	),
	TP_fast_assign(
		__entry->ni_nid = ni->nid;
		__entry->len = len;
		__assign_str(why, why);
	),
	TP_printk("ni=%#llx len=%u: %s", __entry->ni_nid, __entry->len,
		  __get_str(why))
);

TRACE_EVENT(lnet_finalize,
	TP_PROTO(const struct lnet_msg *msg, int status),
	TP_ARGS(msg, status),
	TP_STRUCT__entry(
		__field(const void *, msg)
		__field(u32, type)
		__field(u32, len)
		__field(bool, tx)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->msg = msg;
		__entry->type = msg->hdr.type;
		__entry->len = msg->len;
		__entry->tx = msg->tx;
		__entry->status = status;
	),
	TP_printk("msg=%p %s type=%u len=%u status=%d", __entry->msg,
		  __entry->tx ? "tx" : "rx", __entry->type, __entry->len,
		  __entry->status)
);

TRACE_EVENT(lnet_event,
	TP_PROTO(const struct lnet_event *ev),
	TP_ARGS(ev),
	TP_STRUCT__entry(
		__field(u64, md)
		__field(unsigned long, sequence)
		__field(int, type)
		__field(int, status)
		__field(u32, mlength)
		__field(int, unlinked)
	),
	TP_fast_assign(
		__entry->md = ev->md_handle.cookie;
		__entry->sequence = ev->sequence;
		__entry->type = ev->type;
		__entry->status = ev->status;
		__entry->mlength = ev->mlength;
		__entry->unlinked = ev->unlinked;
	),
	TP_printk("md=%#llx seq=%lu type=%d status=%d mlength=%u unlinked=%d",
		  __entry->md, __entry->sequence, __entry->type,
		  __entry->status, __entry->mlength, __entry->unlinked)
);

#endif /* _LNET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
