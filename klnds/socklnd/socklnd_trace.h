/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of ksocklnd (Documentation/tracing.md): a connection
 * established or closed, a message written out to its socket, finalized,
 * or its header received. Every field is copied as it is; the text is
 * made only when the trace is read.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ksocklnd

#if !defined(_KSOCKLND_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KSOCKLND_TRACE_H

#include <linux/tracepoint.h>
#include <linux/lnet/lnd-trace.h>
#include "socklnd.h"

TRACE_DEFINE_ENUM(LNET_MSG_ACK);
TRACE_DEFINE_ENUM(LNET_MSG_PUT);
TRACE_DEFINE_ENUM(LNET_MSG_GET);
TRACE_DEFINE_ENUM(LNET_MSG_REPLY);
TRACE_DEFINE_ENUM(LNET_MSG_HELLO);

#define KSOCK_TP_NID		LNET_TP_NID_FMT("tcp")

#define KSOCK_TP_CONN_TYPE(t)					\
	__print_symbolic(t,					\
			 { KSOCK_CONN_ANY,	"ANY" },	\
			 { KSOCK_CONN_CONTROL,	"CONTROL" },	\
			 { KSOCK_CONN_BULK_IN,	"BULK_IN" },	\
			 { KSOCK_CONN_BULK_OUT,	"BULK_OUT" })

/* an LNet message by its type, a NOOP as such */
#define KSOCK_TP_MSG_TYPE(t)					\
	__print_symbolic(t,					\
			 { LNET_MSG_ACK,	"ACK" },	\
			 { LNET_MSG_PUT,	"PUT" },	\
			 { LNET_MSG_GET,	"GET" },	\
			 { LNET_MSG_REPLY,	"REPLY" },	\
			 { LNET_MSG_HELLO,	"HELLO" },	\
			 { KSOCK_MSG_NOOP,	"NOOP" })

DECLARE_EVENT_CLASS(ksocklnd_conn,
	TP_PROTO(const struct ksock_conn *conn),
	TP_ARGS(conn),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__array(u8, local_ip, 4)
		__array(u8, peer_ip, 4)
		__field(u16, local_port)
		__field(u16, peer_port)
		__field(int, type)
		__field(bool, passive)
		__field(int, error)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->id.nid;
		memcpy(__entry->local_ip, &conn->local_ip, 4);
		memcpy(__entry->peer_ip, &conn->peer_ip, 4);
		__entry->local_port = conn->local_port;
		__entry->peer_port = conn->peer_port;
		__entry->type = conn->type;
		__entry->passive = conn->passive;
		__entry->error = conn->error;
	),
	TP_printk("peer=" KSOCK_TP_NID " type=%s %pI4:%u->%pI4:%u %s error=%d",
		  LNET_TP_NID(__entry->peer_nid),
		  KSOCK_TP_CONN_TYPE(__entry->type),
		  __entry->local_ip, __entry->local_port,
		  __entry->peer_ip, __entry->peer_port,
		  __entry->passive ? "passive" : "active", __entry->error)
);

/* registered with its peer, handed to its scheduler */
DEFINE_EVENT_PRINT(ksocklnd_conn, ksocklnd_conn_established,
	TP_PROTO(const struct ksock_conn *conn),
	TP_ARGS(conn),
	TP_printk("peer=" KSOCK_TP_NID " type=%s %pI4:%u->%pI4:%u %s",
		  LNET_TP_NID(__entry->peer_nid),
		  KSOCK_TP_CONN_TYPE(__entry->type),
		  __entry->local_ip, __entry->local_port,
		  __entry->peer_ip, __entry->peer_port,
		  __entry->passive ? "passive" : "active")
);

/* taken off its peer (error 0: a clean close) */
DEFINE_EVENT(ksocklnd_conn, ksocklnd_conn_closed,
	TP_PROTO(const struct ksock_conn *conn),
	TP_ARGS(conn)
);

DECLARE_EVENT_CLASS(ksocklnd_msg,
	TP_PROTO(const struct ksock_conn *conn, u32 type, u32 nob),
	TP_ARGS(conn, type, nob),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(int, conn_type)
		__field(u32, type)
		__field(u32, nob)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->id.nid;
		__entry->conn_type = conn->type;
		__entry->type = type;
		__entry->nob = nob;
	),
	TP_printk("peer=" KSOCK_TP_NID " conn=%s msg=%s payload=%u",
		  LNET_TP_NID(__entry->peer_nid),
		  KSOCK_TP_CONN_TYPE(__entry->conn_type),
		  KSOCK_TP_MSG_TYPE(__entry->type), __entry->nob)
);

/* all of a message written to the socket */
DEFINE_EVENT(ksocklnd_msg, ksocklnd_tx,
	TP_PROTO(const struct ksock_conn *conn, u32 type, u32 nob),
	TP_ARGS(conn, type, nob)
);

/* a message's headers received, before LNet sees them */
DEFINE_EVENT(ksocklnd_msg, ksocklnd_rx,
	TP_PROTO(const struct ksock_conn *conn, u32 type, u32 nob),
	TP_ARGS(conn, type, nob)
);

/*
 * An LNet message we sent is given back to LNet: after its last byte
 * went out, or after the peer's ZC-ACK for a zero-copy one, or failed.
 */
TRACE_EVENT(ksocklnd_tx_done,
	TP_PROTO(const struct lnet_msg *msg, int status),
	TP_ARGS(msg, status),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u32, type)
		__field(u32, nob)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->peer_nid = msg->target.nid;
		__entry->type = lnet_msg_hdr(msg)->type;
		__entry->nob = lnet_msg_len(msg);
		__entry->status = status;
	),
	TP_printk("peer=" KSOCK_TP_NID " msg=%s payload=%u status=%d",
		  LNET_TP_NID(__entry->peer_nid),
		  KSOCK_TP_MSG_TYPE(__entry->type), __entry->nob,
		  __entry->status)
);

#endif /* _KSOCKLND_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE socklnd_trace
#include <trace/define_trace.h>
