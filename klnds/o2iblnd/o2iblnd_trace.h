/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of ko2iblnd (Documentation/tracing.md): a connection's life
 * (connect, accept, established, rejected, failed, close, destroyed), each
 * message posted or received with the credits it carries, and the credits
 * themselves (returned by the peer, or short for a queued message). Every
 * field is copied as it is; the text is made only when the trace is read.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ko2iblnd

#if !defined(_KO2IBLND_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KO2IBLND_TRACE_H

#include <linux/hash.h>
#include <linux/tracepoint.h>
#include <linux/lnet/lnd-trace.h>
#include "o2iblnd.h"

TRACE_DEFINE_ENUM(KIB_CONN_INIT);
TRACE_DEFINE_ENUM(KIB_CONN_CONNECTING);
TRACE_DEFINE_ENUM(KIB_CONN_ESTABLISHED);
TRACE_DEFINE_ENUM(KIB_CONN_CLOSING);
TRACE_DEFINE_ENUM(KIB_CONN_CLOSED);
TRACE_DEFINE_ENUM(KIB_RECONNECT_NO);
TRACE_DEFINE_ENUM(KIB_RECONNECT_NOW);
TRACE_DEFINE_ENUM(KIB_RECONNECT_LATER);
TRACE_DEFINE_ENUM(RDMA_CM_EVENT_ADDR_ERROR);
TRACE_DEFINE_ENUM(RDMA_CM_EVENT_ROUTE_ERROR);
TRACE_DEFINE_ENUM(RDMA_CM_EVENT_CONNECT_ERROR);
TRACE_DEFINE_ENUM(RDMA_CM_EVENT_UNREACHABLE);

#define KIB_TP_NID		LNET_TP_NID_FMT("o2ib")

#define KIB_TP_MSG_TYPE(t)					\
	__print_symbolic(t,					\
			 { KIB_MSG_CONNREQ,	"CONNREQ" },	\
			 { KIB_MSG_CONNACK,	"CONNACK" },	\
			 { KIB_MSG_NOOP,	"NOOP" },	\
			 { KIB_MSG_IMMEDIATE,	"IMMEDIATE" },	\
			 { KIB_MSG_PUT_REQ,	"PUT_REQ" },	\
			 { KIB_MSG_PUT_NAK,	"PUT_NAK" },	\
			 { KIB_MSG_PUT_ACK,	"PUT_ACK" },	\
			 { KIB_MSG_PUT_DONE,	"PUT_DONE" },	\
			 { KIB_MSG_GET_REQ,	"GET_REQ" },	\
			 { KIB_MSG_GET_DONE,	"GET_DONE" })

#define KIB_TP_CONN_STATE(s)					\
	__print_symbolic(s,					\
			 { KIB_CONN_INIT,	"INIT" },	\
			 { KIB_CONN_CONNECTING,	"CONNECTING" },	\
			 { KIB_CONN_ESTABLISHED, "ESTABLISHED" }, \
			 { KIB_CONN_CLOSING,	"CLOSING" },	\
			 { KIB_CONN_CLOSED,	"CLOSED" })

#define KIB_TP_REJECT(why)						\
	__print_symbolic(why,						\
			 { 0,				"none" },	\
			 { KIB_REJECT_CONN_RACE,	"CONN_RACE" },	\
			 { KIB_REJECT_NO_RESOURCES,	"NO_RESOURCES" }, \
			 { KIB_REJECT_FATAL,		"FATAL" },	\
			 { KIB_REJECT_CONN_UNCOMPAT,	"CONN_UNCOMPAT" }, \
			 { KIB_REJECT_CONN_STALE,	"CONN_STALE" },	\
			 { KIB_REJECT_RDMA_FRAGS,	"RDMA_FRAGS" },	\
			 { KIB_REJECT_MSG_QUEUE_SIZE,	"MSG_QUEUE_SIZE" }, \
			 { KIB_REJECT_INVALID_SRV_ID,	"INVALID_SRV_ID" }, \
			 { KIB_REJECT_EARLY,		"EARLY" })

/*
 * conn: the connection's address hashed, the same in each of its events
 * (%p would print "(____ptrval____)" until the kernel has entropy).
 */
DECLARE_EVENT_CLASS(ko2iblnd_conn,
	TP_PROTO(const struct kib_conn *conn),
	TP_ARGS(conn),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u32, conn)
		__field(int, state)
		__field(int, error)
		__field(int, credits)
		__field(u16, version)
		__field(u16, queue_depth)
		__field(bool, active)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->nid;
		__entry->conn = hash_ptr(conn, 32);
		__entry->state = conn->state;
		__entry->error = conn->error;
		__entry->credits = conn->credits;
		__entry->version = conn->version;
		__entry->queue_depth = conn->queue_depth;
		__entry->active = conn->active;
	),
	TP_printk("peer=" KIB_TP_NID " conn=%08x %s state=%s version=%#x queue_depth=%u credits=%d error=%d",
		  LNET_TP_NID(__entry->peer_nid), __entry->conn,
		  __entry->active ? "active" : "passive",
		  KIB_TP_CONN_STATE(__entry->state), __entry->version,
		  __entry->queue_depth, __entry->credits, __entry->error)
);

#define KIB_TP_CONN_EVENT(name)				\
	DEFINE_EVENT(ko2iblnd_conn, name,			\
		     TP_PROTO(const struct kib_conn *conn),	\
		     TP_ARGS(conn))

/* an active connection is started (address resolution is next) */
KIB_TP_CONN_EVENT(ko2iblnd_connect);
/* a connection request is accepted (rdma_accept() is next) */
KIB_TP_CONN_EVENT(ko2iblnd_accept);
/* on its peer's list: messages flow */
KIB_TP_CONN_EVENT(ko2iblnd_established);
/* closing starts; state is the one it leaves */
KIB_TP_CONN_EVENT(ko2iblnd_close);
/* its QP is gone and its messages are finalized */
KIB_TP_CONN_EVENT(ko2iblnd_destroy);

/* a connection that never came up: @code and @status say why */
DECLARE_EVENT_CLASS(ko2iblnd_conn_fail,
	TP_PROTO(const struct kib_conn *conn, int code, int status),
	TP_ARGS(conn, code, status),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u32, conn)
		__field(int, code)
		__field(int, status)
		__field(int, reconnect)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->nid;
		__entry->conn = hash_ptr(conn, 32);
		__entry->code = code;
		__entry->status = status;
		__entry->reconnect = conn->reconnect;
	),
	TP_printk("peer=" KIB_TP_NID " conn=%08x %s status=%d",
		  LNET_TP_NID(__entry->peer_nid), __entry->conn,
		  __print_symbolic(__entry->code,
			{ RDMA_CM_EVENT_ADDR_ERROR,	"ADDR_ERROR" },
			{ RDMA_CM_EVENT_ROUTE_ERROR,	"ROUTE_ERROR" },
			{ RDMA_CM_EVENT_CONNECT_ERROR,	"CONNECT_ERROR" },
			{ RDMA_CM_EVENT_UNREACHABLE,	"UNREACHABLE" }),
		  __entry->status)
);

/* rdma_cm could not resolve or reach the peer: @code is its event */
DEFINE_EVENT(ko2iblnd_conn_fail, ko2iblnd_conn_failed,
	TP_PROTO(const struct kib_conn *conn, int code, int status),
	TP_ARGS(conn, code, status)
);

/*
 * The peer rejected our connection request: @code is the reason its LND
 * gave (0: none), @status the IB CM's; reconnect is what we do next.
 */
DEFINE_EVENT_PRINT(ko2iblnd_conn_fail, ko2iblnd_rejected,
	TP_PROTO(const struct kib_conn *conn, int code, int status),
	TP_ARGS(conn, code, status),
	TP_printk("peer=" KIB_TP_NID " conn=%08x status=%d reason=%s reconnect=%s",
		  LNET_TP_NID(__entry->peer_nid), __entry->conn,
		  __entry->status, KIB_TP_REJECT(__entry->code),
		  __print_symbolic(__entry->reconnect,
				   { KIB_RECONNECT_NO,		"no" },
				   { KIB_RECONNECT_NOW,		"now" },
				   { KIB_RECONNECT_LATER,	"later" }))
);

/* We reject a connection request (its NID may be unknown yet). */
TRACE_EVENT(ko2iblnd_reject,
	TP_PROTO(const struct rdma_cm_id *cmid, int why),
	TP_ARGS(cmid, why),
	TP_STRUCT__entry(
		__array(u8, addr, 4)
		__field(u16, port)
		__field(int, why)
	),
	TP_fast_assign(
		const struct sockaddr_in *sin =
			(const struct sockaddr_in *)&cmid->route.addr.dst_addr;

		if (sin->sin_family == AF_INET) {
			memcpy(__entry->addr, &sin->sin_addr, 4);
			__entry->port = ntohs(sin->sin_port);
		} else {
			memset(__entry->addr, 0, 4);
			__entry->port = 0;
		}
		__entry->why = why;
	),
	TP_printk("from=%pI4:%u reason=%s", __entry->addr, __entry->port,
		  KIB_TP_REJECT(__entry->why))
);

/*
 * A message leaves (its work requests posted): the credits it carries
 * back to the peer, and the connection's after it.
 */
TRACE_EVENT(ko2iblnd_tx_post,
	TP_PROTO(const struct kib_conn *conn, const struct kib_tx *tx,
		 int carried, bool credit),
	TP_ARGS(conn, tx, carried, credit),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u32, nob)
		__field(u8, type)
		__field(bool, credit)
		__field(int, carried)
		__field(int, credits)
		__field(int, outstanding)
		__field(int, posted)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->nid;
		__entry->nob = tx->msg->hdr.nob;
		__entry->type = tx->type;
		__entry->credit = credit;
		__entry->carried = carried;
		__entry->credits = conn->credits;
		__entry->outstanding = conn->outstanding_credits;
		__entry->posted = conn->nsends_posted;
	),
	TP_printk("peer=" KIB_TP_NID " msg=%s nob=%u carries=%d took_credit=%d credits=%d outstanding=%d posted=%d",
		  LNET_TP_NID(__entry->peer_nid),
		  KIB_TP_MSG_TYPE(__entry->type), __entry->nob,
		  __entry->carried, __entry->credit, __entry->credits,
		  __entry->outstanding, __entry->posted)
);

/* a message received and checked, before its credits are taken */
TRACE_EVENT(ko2iblnd_rx,
	TP_PROTO(const struct kib_conn *conn, const struct kib_msg *msg),
	TP_ARGS(conn, msg),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u32, nob)
		__field(u8, type)
		__field(u8, credits)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->nid;
		__entry->nob = msg->hdr.nob;
		__entry->type = msg->hdr.type;
		__entry->credits = msg->hdr.credits;
	),
	TP_printk("peer=" KIB_TP_NID " msg=%s nob=%u returns=%u",
		  LNET_TP_NID(__entry->peer_nid),
		  KIB_TP_MSG_TYPE(__entry->type), __entry->nob,
		  __entry->credits)
);

/*
 * A connection's credits: returned by the peer on a message of type @type
 * (@n of them), or short for the message of type @type at the head of
 * the queue (@n 0).
 */
DECLARE_EVENT_CLASS(ko2iblnd_credits,
	TP_PROTO(const struct kib_conn *conn, u8 type, int n),
	TP_ARGS(conn, type, n),
	TP_STRUCT__entry(
		__field(u64, peer_nid)
		__field(u8, type)
		__field(int, returned)
		__field(int, credits)
		__field(int, outstanding)
		__field(int, reserved)
	),
	TP_fast_assign(
		__entry->peer_nid = conn->peer->nid;
		__entry->type = type;
		__entry->returned = n;
		__entry->credits = conn->credits;
		__entry->outstanding = conn->outstanding_credits;
		__entry->reserved = conn->reserved_credits;
	),
	TP_printk("peer=" KIB_TP_NID " by=%s returned=%d credits=%d outstanding=%d reserved=%d",
		  LNET_TP_NID(__entry->peer_nid),
		  KIB_TP_MSG_TYPE(__entry->type), __entry->returned,
		  __entry->credits, __entry->outstanding, __entry->reserved)
);

DEFINE_EVENT(ko2iblnd_credits, ko2iblnd_credits_returned,
	TP_PROTO(const struct kib_conn *conn, u8 type, int n),
	TP_ARGS(conn, type, n)
);

DEFINE_EVENT_PRINT(ko2iblnd_credits, ko2iblnd_credits_wait,
	TP_PROTO(const struct kib_conn *conn, u8 type, int n),
	TP_ARGS(conn, type, n),
	TP_printk("peer=" KIB_TP_NID " msg=%s waits: credits=%d outstanding=%d reserved=%d",
		  LNET_TP_NID(__entry->peer_nid),
		  KIB_TP_MSG_TYPE(__entry->type), __entry->credits,
		  __entry->outstanding, __entry->reserved)
);

#endif /* _KO2IBLND_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE o2iblnd_trace
#include <trace/define_trace.h>
