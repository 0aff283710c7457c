// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: the per-connection state machine (Documentation/wire/socklnd.md,
 * "Receive loop"), run by the connection's scheduler with non-blocking reads:
 *
 *   HDR ------> LNET_HDR ------> PARSE ---recv()---> BODY ---> HDR
 *    ^  (NOOP)     |               |                  ^
 *    +-------------+               +-> PARKED -recv()-+
 *
 * A NOOP is consumed in HDR (its cookies may ACK our zero-copy sends).
 * After the LNet header, lnet_parse() matches the message and calls our
 * recv() with an iterator over the matched MD - from inside lnet_parse(),
 * or later when the message waited on a lazy portal. Until then the
 * connection is PARKED and reads nothing; recv() hands it back to the
 * scheduler. The payload is received straight into the MD, the rest is
 * discarded, then the message is finalized and, if the sender asked, a
 * zero-copy ACK goes back.
 *
 * The PARSE/PARKED/BODY hand-off with recv() is under sched->lock; the
 * other states belong to the scheduler thread alone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"
#include "socklnd_trace.h"

static void ksock_rx_progress(struct ksock_conn *conn)
{
	conn->rx_started = true;
	conn->rx_deadline = jiffies + ksock_timeout(conn->net) * HZ;
	WRITE_ONCE(conn->peer->last_alive, jiffies);
}

/* Bytes read, 0 at the end of the stream, -EAGAIN or -errno. */
static int ksock_recv_kvec(struct ksock_conn *conn, void *buf, size_t len)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct msghdr m = { .msg_flags = MSG_DONTWAIT };

	return kernel_recvmsg(conn->sock, &m, &kv, 1, len, MSG_DONTWAIT);
}

static int ksock_recv_iter(struct ksock_conn *conn, struct iov_iter *it)
{
	struct msghdr m = { .msg_flags = MSG_DONTWAIT };
	int rc;

	m.msg_iter = *it;
	rc = sock_recvmsg(conn->sock, &m, MSG_DONTWAIT);
	if (rc > 0)
		iov_iter_advance(it, rc);
	return rc;
}

/* The 24-byte header is in: 0, or -EPROTO. */
static int ksock_rx_ksock_hdr(struct ksock_conn *conn)
{
	struct ksock_msg_hdr_wire *h = &conn->rx_ksh;
	int rc;

	ksock_msg_hdr_from_wire((const void *)conn->rx_hdrbuf, conn->flip, h);
	switch (h->type) {
	case KSOCK_MSG_NOOP:
		trace_ksocklnd_rx(conn, KSOCK_MSG_NOOP, 0);
		rc = ksock_handle_zcack(conn, h->zc_cookies[0],
					h->zc_cookies[1]);
		if (rc)
			return rc;
		conn->rx_got = 0;
		conn->rx_started = false;
		return 0;
	case KSOCK_MSG_LNET:
		/* on a message only cookie 1 ACKs; cookie 0 asks for one */
		rc = ksock_handle_zcack(conn, 0, h->zc_cookies[1]);
		if (rc)
			return rc;
		conn->rx_zc_cookie = h->zc_cookies[0];
		WRITE_ONCE(conn->rx_state, KSOCK_RX_LNET_HDR);
		return 0;
	default:
		return -EPROTO;
	}
}

/*
 * The LNet header is in: hand it to LNet. Return 0 (recv() was called,
 * go on with the body), KSOCK_IO_PARSED (recv() is still due) or -errno
 * (LNet refused the header).
 */
static int ksock_rx_parse(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	struct ksock_peer *peer = conn->peer;
	char str[LNET_NIDSTR_SIZE];
	struct lnet_hdr hdr;
	bool parked;
	int rc;

	lnet_hdr_from_nid4(&hdr, (const struct lnet_hdr_nid4 *)
				 (conn->rx_hdrbuf + KSOCK_HDR_NOB));
	if (peer->userspace) {
		/*
		 * Such a peer is who the connection says
		 * (Documentation/wire/socklnd.md, "Peer identity").
		 */
		hdr.src_nid = peer->id.nid;
		hdr.src_pid = peer->id.pid;
	}
	trace_ksocklnd_rx(conn, hdr.type, hdr.payload_length);

	spin_lock_bh(&sched->lock);
	conn->rx_state = KSOCK_RX_PARSE;
	spin_unlock_bh(&sched->lock);
	ksock_conn_get(conn);		/* recv()'s */
	rc = lnet_parse(conn->net->ni, &hdr, peer->id.nid, conn, false);
	if (rc < 0) {
		spin_lock_bh(&sched->lock);
		conn->rx_state = KSOCK_RX_HDR;
		spin_unlock_bh(&sched->lock);
		ksock_conn_put(conn);
		if (rc != -ESHUTDOWN)
			pr_warn_ratelimited("bad LNet header from %s (type %u, %u bytes): closing the connection\n",
					    lnet_nid2str(peer->id.nid, str,
							 sizeof(str)),
					    hdr.type, hdr.payload_length);
		return rc;
	}

	spin_lock_bh(&sched->lock);
	parked = conn->rx_state == KSOCK_RX_PARSE;
	spin_unlock_bh(&sched->lock);
	return parked ? KSOCK_IO_PARSED : 0;
}

/* The message is all in: finalize it, ACK it if it was zero-copy. */
static void ksock_rx_done(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	u64 cookie = conn->rx_zc_cookie;
	struct lnet_msg *msg;

	spin_lock_bh(&sched->lock);
	msg = conn->rx_msg;
	conn->rx_msg = NULL;
	conn->rx_state = KSOCK_RX_HDR;
	spin_unlock_bh(&sched->lock);
	conn->rx_got = 0;
	conn->rx_zc_cookie = 0;
	conn->rx_started = false;
	if (msg)
		lnet_finalize(msg, 0);
	if (cookie)
		ksock_send_zcack(conn, cookie);
}

/* LND recv(): see <linux/lnet/lnd.h>. @private is the connection. */
int ksock_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	       bool delayed, struct iov_iter *to, unsigned int mlen,
	       unsigned int rlen)
{
	struct ksock_conn *conn = private;
	struct ksock_sched *sched = conn->sched;

	if (WARN_ON_ONCE(mlen > rlen))
		mlen = rlen;
	spin_lock_bh(&sched->lock);
	conn->rx_msg = msg;
	conn->rx_mlen = msg ? mlen : 0;
	if (conn->rx_mlen)
		conn->rx_iter = *to;
	conn->rx_skip = rlen - conn->rx_mlen;
	if (conn->rx_state == KSOCK_RX_PARKED) {
		conn->rx_state = KSOCK_RX_BODY;
		ksock_conn_schedule_rx_locked(conn);
	} else {
		WARN_ON_ONCE(conn->rx_state != KSOCK_RX_PARSE);
		conn->rx_state = KSOCK_RX_BODY;
	}
	spin_unlock_bh(&sched->lock);
	ksock_conn_put(conn);		/* taken before lnet_parse() */
	return 0;
}

/* @conn closed: fail the message being received. Scheduler only. */
void ksock_conn_abort_rx(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	struct lnet_msg *msg = NULL;

	spin_lock_bh(&sched->lock);
	/* PARKED: recv() is still due and brings us back here */
	if (conn->rx_state != KSOCK_RX_PARKED &&
	    conn->rx_state != KSOCK_RX_PARSE) {
		msg = conn->rx_msg;
		conn->rx_msg = NULL;
		conn->rx_state = KSOCK_RX_DEAD;
	}
	spin_unlock_bh(&sched->lock);
	if (msg)
		lnet_finalize(msg, -ECONNABORTED);
}

/**
 * ksock_process_rx() - read what @conn has
 * @conn: the connection, owned by the calling scheduler
 *
 * Return: KSOCK_IO_WAIT (nothing more to read), KSOCK_IO_MORE (budget
 * used up), KSOCK_IO_PARSED (waiting for recv()) or KSOCK_IO_DONE (the
 * connection is closed).
 */
int ksock_process_rx(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	char str[LNET_NIDSTR_SIZE];
	unsigned int want;
	int budget = 32;
	int rc;

	if (READ_ONCE(conn->closing))
		goto dead;

	while (budget--) {
		switch (conn->rx_state) {
		case KSOCK_RX_HDR:
		case KSOCK_RX_LNET_HDR:
			want = conn->rx_state == KSOCK_RX_HDR ?
			       KSOCK_HDR_NOB : KSOCK_LNET_HDR_NOB;
			rc = ksock_recv_kvec(conn, conn->rx_hdrbuf + conn->rx_got,
					     want - conn->rx_got);
			if (rc <= 0)
				goto error;
			ksock_rx_progress(conn);
			conn->rx_got += rc;
			if (conn->rx_got < want)
				break;
			if (conn->rx_state == KSOCK_RX_HDR) {
				rc = ksock_rx_ksock_hdr(conn);
				if (rc)
					goto proto;
				break;
			}
			rc = ksock_rx_parse(conn);
			if (rc < 0)
				goto close;
			if (rc)
				return rc;
			break;
		case KSOCK_RX_BODY:
			if (conn->rx_mlen) {
				rc = ksock_recv_iter(conn, &conn->rx_iter);
				if (rc <= 0)
					goto error;
				conn->rx_mlen -= rc;
				ksock_rx_progress(conn);
			} else if (conn->rx_skip) {
				rc = ksock_recv_kvec(conn, sched->scratch,
						     min_t(unsigned int,
							   conn->rx_skip,
							   PAGE_SIZE));
				if (rc <= 0)
					goto error;
				conn->rx_skip -= rc;
				ksock_rx_progress(conn);
			}
			if (!conn->rx_mlen && !conn->rx_skip)
				ksock_rx_done(conn);
			break;
		default:
			return KSOCK_IO_DONE;
		}
	}
	return KSOCK_IO_MORE;

error:
	if (rc == -EAGAIN)
		return KSOCK_IO_WAIT;
	/* end of stream: no error between two messages, else truncation */
	if (!rc && (conn->rx_state != KSOCK_RX_HDR || conn->rx_got))
		rc = -EPIPE;
	ksock_conn_fail(conn, rc);
	goto dead;
close:
	ksock_conn_close(conn, rc);
	goto dead;

proto:
	pr_warn_ratelimited("protocol error from %s (message type %#x): closing its connections\n",
			    lnet_nid2str(conn->peer->id.nid, str, sizeof(str)),
			    conn->rx_ksh.type);
	spin_lock_bh(&conn->net->lock);
	ksock_conn_close_locked(conn, -EPROTO);
	ksock_peer_close_locked(conn->peer, -EPROTO);
	spin_unlock_bh(&conn->net->lock);
dead:
	ksock_conn_terminate(conn);
	ksock_conn_abort_rx(conn);
	return KSOCK_IO_DONE;
}
