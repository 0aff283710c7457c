// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving: receive completions, validation (Documentation/wire/o2iblnd.md,
 * "Receive checks"), credit accounting, handing LNet messages up, the
 * recv() operation, and the replies a receiver owes (PUT_ACK, PUT_NAK,
 * GET_DONE; "Large PUT", "Large GET").
 *
 * A receive buffer goes back to the QP once what it holds is consumed;
 * whether that makes a credit returnable follows "Credits": yes for an
 * IMMEDIATE, a GET_REQ and a PUT_REQ that wants no data; a PUT_REQ whose
 * data comes by RDMA returns its credit only with the PUT_DONE; responses
 * and NOOPs return none.
 *
 * While LNet holds a receive (between lnet_parse() and recv(), or the
 * REPLY's send() for a GET_REQ) it holds a connection reference.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/lnet/nidstr.h>
#include "o2iblnd.h"
#include "o2iblnd_trace.h"

static void kib_rx_drop_conn(struct kib_rx *rx, int error, const char *why)
{
	struct kib_conn *conn = rx->conn;
	char buf[LNET_NIDSTR_SIZE];

	pr_warn_ratelimited("%s: %s (%d), closing the connection\n",
			    lnet_nid2str(conn->peer->nid, buf, sizeof(buf)),
			    why, error);
	kib_conn_close(conn, error);
}

/**
 * kib_rx_return() - the receive is consumed: repost it
 * @rx: the receive
 * @credit: the message it held took a credit that is returnable now
 *
 * Drops the connection reference taken when the receive completed.
 */
void kib_rx_return(struct kib_rx *rx, bool credit)
{
	struct kib_conn *conn = rx->conn;
	int rc;

	rc = kib_conn_post_rx(rx);
	if (rc && rc != -ECONNABORTED)
		kib_conn_close(conn, rc);
	if (!rc && credit) {
		spin_lock_bh(&conn->lock);
		conn->outstanding_credits++;
		spin_unlock_bh(&conn->lock);
		kib_check_sends(conn);
	}
	kib_conn_put(conn);
}

/* A credit-free reply (PUT_NAK, GET_DONE) with @status. */
static void kib_send_completion(struct kib_conn *conn, u8 type, u64 cookie,
				int status)
{
	struct kib_tx *tx = kib_tx_get(conn->net);

	if (!tx) {
		kib_conn_close(conn, -ENOMEM);
		return;
	}
	kib_tx_prep(tx, type, KIB_COMPLETION_NOB);
	tx->msg->u.completion.cookie = cookie;
	tx->msg->u.completion.status = status;
	kib_queue_tx(conn, tx);
	kib_check_sends(conn);
}

/* Take back the reserved credit of @tx; it answered a PUT_REQ/GET_REQ. */
static struct kib_tx *kib_claim_reply(struct kib_conn *conn, u8 type,
				      u64 cookie)
{
	struct kib_tx *tx;

	spin_lock_bh(&conn->lock);
	tx = kib_find_waiting_tx_locked(conn, type, cookie);
	if (tx && tx->rsrvd) {
		tx->rsrvd = false;
		conn->reserved_credits++;
	}
	spin_unlock_bh(&conn->lock);
	return tx;
}

static void kib_handle_put_ack(struct kib_conn *conn, struct kib_msg *msg)
{
	struct kib_putack_msg *ack = &msg->u.putack;
	struct kib_tx *tx;
	struct iov_iter src;
	struct lnet_msg *lntmsg;
	unsigned int nob;
	bool queued;
	int rc;

	tx = kib_claim_reply(conn, KIB_MSG_PUT_REQ, ack->src_cookie);
	if (!tx) {
		kib_conn_close(conn, -EPROTO);
		return;
	}
	lntmsg = tx->lntmsg[0];
	nob = lnet_msg_len(lntmsg);
	lnet_msg_iter(lntmsg, ITER_SOURCE, &src);
	rc = kib_tx_rdma_prep(tx, &src, &ack->rd, nob);
	if (rc) {
		kfree(tx->rdma_wrs);
		tx->rdma_wrs = NULL;
		tx->nrdma_wrs = 0;
	}

	/* the same tx goes on as the PUT_DONE, credit-free */
	spin_lock_bh(&conn->lock);
	tx->waiting = false;
	tx->status = rc;
	kib_tx_prep(tx, KIB_MSG_PUT_DONE, KIB_COMPLETION_NOB);
	tx->msg->u.completion.cookie = ack->dst_cookie;
	tx->msg->u.completion.status = rc ?: nob + kib_test_done_extra;
	list_del_init(&tx->list);
	queued = kib_queue_tx_locked(conn, tx);
	spin_unlock_bh(&conn->lock);
	if (!queued) {
		tx->status = -ECONNABORTED;
		kib_tx_done(tx);
		return;
	}
	kib_check_sends(conn);
}

/*
 * The byte count of a GET_DONE or PUT_DONE is what the peer says it wrote
 * into our sink: more than the sink we registered is a lie (the MR would
 * not have let it write there), and must not become the LNet message's
 * length.
 */
static bool kib_done_nob_ok(struct kib_conn *conn, struct kib_tx *tx,
			    const struct kib_completion_msg *c)
{
	char buf[LNET_NIDSTR_SIZE];

	if (c->status < 0 || (u32)c->status <= tx->sink_nob)
		return true;
	atomic64_inc(&conn->net->stats.done_nob_rejected);
	pr_warn_ratelimited("%s: completion of %d bytes for a sink of %u\n",
			    lnet_nid2str(conn->peer->nid, buf, sizeof(buf)),
			    c->status, tx->sink_nob);
	return false;
}

/* PUT_NAK, PUT_DONE, GET_DONE: the reply a waiting tx expects. */
static void kib_handle_completion(struct kib_conn *conn, struct kib_msg *msg)
{
	const struct kib_completion_msg *c = &msg->u.completion;
	int status = c->status < 0 ? c->status : 0;
	bool lie = false;
	struct kib_tx *tx;

	switch (msg->hdr.type) {
	case KIB_MSG_PUT_NAK:
		tx = kib_claim_reply(conn, KIB_MSG_PUT_REQ, c->cookie);
		break;
	case KIB_MSG_GET_DONE:
		tx = kib_claim_reply(conn, KIB_MSG_GET_REQ, c->cookie);
		lie = tx && !kib_done_nob_ok(conn, tx, c);
		if (lie)
			status = -EPROTO;
		else if (tx && c->status >= 0 && tx->lntmsg[1] &&
			 lnet_set_reply_msg_len(conn->net->ni, tx->lntmsg[1],
						c->status)) {
			/* longer than the REPLY's MD: the core refused it */
			lie = true;
			status = -EPROTO;
		}
		break;
	default:	/* PUT_DONE: the PUT_REQ's held credit is returnable */
		tx = kib_claim_reply(conn, KIB_MSG_PUT_ACK, c->cookie);
		if (tx) {
			spin_lock_bh(&conn->lock);
			conn->outstanding_credits++;
			spin_unlock_bh(&conn->lock);
			lie = !kib_done_nob_ok(conn, tx, c);
			if (lie)
				status = -EPROTO;
		}
		break;
	}
	if (!tx) {
		kib_conn_close(conn, -EPROTO);
		return;
	}
	if (status)	/* refused or lied about by the peer */
		tx->hstatus = LNET_MSG_STATUS_REMOTE_ERROR;
	/* the sink is invalidated first, whatever the status */
	kib_tx_complete_reply(conn, tx, status);
	if (lie)
		kib_conn_close(conn, -EPROTO);
	else
		kib_check_sends(conn);
}

static void kib_handle_rx(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->conn;
	struct kib_net *net = conn->net;
	struct kib_msg *msg = rx->msg;
	struct lnet_hdr hdr;
	int credits, rc;

	if (READ_ONCE(conn->state) != KIB_CONN_ESTABLISHED) {
		kib_conn_put(conn);
		return;
	}
	rc = kib_msg_unpack(msg, rx->nob);
	if (rc) {
		kib_rx_drop_conn(rx, rc, "malformed message");
		goto drop;
	}
	rc = kib_msg_check_stamps(msg, conn->peer->nid, conn->peer_stamp,
				  lnet_ni_nid(net->ni), net->incarnation);
	if (rc) {
		kib_rx_drop_conn(rx, rc, "stale message");
		goto drop;
	}
	if (msg->hdr.type == KIB_MSG_CONNREQ ||
	    msg->hdr.type == KIB_MSG_CONNACK) {
		kib_rx_drop_conn(rx, -EPROTO, "connection message on a connection");
		goto drop;
	}

	trace_ko2iblnd_rx(conn, msg);
	credits = msg->hdr.credits;
	if (credits) {
		spin_lock_bh(&conn->lock);
		if (conn->credits + credits > conn->queue_depth) {
			rc = -EPROTO;
		} else {
			conn->credits += credits;
			trace_ko2iblnd_credits_returned(conn, msg->hdr.type,
							credits);
		}
		spin_unlock_bh(&conn->lock);
		if (rc) {
			kib_rx_drop_conn(rx, rc, "too many credits returned");
			goto drop;
		}
		kib_check_sends(conn);
	}
	WRITE_ONCE(conn->peer->last_alive, jiffies);

	switch (msg->hdr.type) {
	case KIB_MSG_NOOP:
		kib_rx_return(rx, false);
		return;
	case KIB_MSG_IMMEDIATE:
		lnet_hdr_from_nid4(&hdr, &msg->u.immediate.hdr);
		if (hdr.payload_length > msg->hdr.nob - KIB_IMMEDIATE_HDR_NOB) {
			kib_rx_drop_conn(rx, -EPROTO, "IMMEDIATE payload truncated");
			goto drop;
		}
		break;
	case KIB_MSG_PUT_REQ:
		lnet_hdr_from_nid4(&hdr, &msg->u.putreq.hdr);
		break;
	case KIB_MSG_GET_REQ:
		lnet_hdr_from_nid4(&hdr, &msg->u.getreq.hdr);
		if (hdr.type != LNET_MSG_GET) {
			kib_rx_drop_conn(rx, -EPROTO, "GET_REQ without a GET");
			goto drop;
		}
		break;
	case KIB_MSG_PUT_ACK:
		kib_handle_put_ack(conn, msg);
		kib_rx_return(rx, false);
		return;
	default:
		kib_handle_completion(conn, msg);
		kib_rx_return(rx, false);
		return;
	}

	/* LNet now holds @rx (and our reference) until recv() or send() */
	rc = lnet_parse(net->ni, &hdr, conn->peer->nid, rx,
			msg->hdr.type == KIB_MSG_GET_REQ);
	if (rc < 0) {
		if (rc != -ESHUTDOWN)
			kib_rx_drop_conn(rx, rc, "LNet refused the message");
		else
			kib_conn_close(conn, rc);
		goto drop;
	}
	return;

drop:
	kib_conn_put(conn);
}

void kib_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_rx *rx = container_of(wc->wr_cqe, struct kib_rx, cqe);
	struct kib_conn *conn = rx->conn;
	char buf[LNET_NIDSTR_SIZE];

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_warn_ratelimited("%s: receive failed: %s\n",
					    lnet_nid2str(conn->peer->nid, buf,
							 sizeof(buf)),
					    ib_wc_status_msg(wc->status));
		kib_conn_close(conn, -EIO);
		return;
	}
	rx->nob = wc->byte_len;
	ib_dma_sync_single_for_cpu(conn->net->ibdev, rx->dma, KIB_MSG_SIZE,
				   DMA_FROM_DEVICE);
	kib_conn_get(conn);
	spin_lock_bh(&conn->lock);
	if (conn->rx_deferring) {
		/* before ESTABLISHED (or its backlog) was handled: keep order */
		list_add_tail(&rx->list, &conn->deferred_rxs);
		spin_unlock_bh(&conn->lock);
		return;
	}
	spin_unlock_bh(&conn->lock);
	kib_handle_rx(rx);
}

void kib_deferred_rx_work(struct work_struct *work)
{
	struct kib_conn *conn = container_of(work, struct kib_conn,
					     deferred_rx_work);
	struct kib_rx *rx;

	for (;;) {
		spin_lock_bh(&conn->lock);
		rx = list_first_entry_or_null(&conn->deferred_rxs,
					      struct kib_rx, list);
		if (!rx) {
			conn->rx_deferring = false;
			spin_unlock_bh(&conn->lock);
			break;
		}
		list_del_init(&rx->list);
		spin_unlock_bh(&conn->lock);
		kib_handle_rx(rx);
	}
	kib_conn_put(conn);
}

/* A PUT_REQ matched @msg with @mlen bytes wanted: advertise the sink. */
static int kib_recv_put_req(struct kib_rx *rx, struct lnet_msg *msg,
			    struct iov_iter *to)
{
	struct kib_conn *conn = rx->conn;
	struct kib_tx *tx;
	int rc;

	tx = kib_tx_get(conn->net);
	if (!tx)
		return -ENOMEM;
	rc = kib_tx_map_sink(tx, to, &tx->msg->u.putack.rd);
	if (rc) {
		kib_tx_done(tx);
		return rc;
	}
	tx->msg->u.putack.src_cookie = rx->msg->u.putreq.cookie;
	tx->msg->u.putack.dst_cookie = tx->cookie;
	kib_tx_prep(tx, KIB_MSG_PUT_ACK, kib_msg_nob(KIB_MSG_PUT_ACK, 1));
	tx->lntmsg[0] = msg;
	tx->waiting = true;	/* for PUT_DONE */
	kib_queue_tx(conn, tx);
	kib_check_sends(conn);
	return 0;
}

int kib_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	     bool delayed, struct iov_iter *to, unsigned int mlen,
	     unsigned int rlen)
{
	struct kib_rx *rx = private;
	struct kib_conn *conn = rx->conn;
	struct kib_msg *rxmsg = rx->msg;
	int rc = 0;

	switch (rxmsg->hdr.type) {
	case KIB_MSG_IMMEDIATE:
		if (msg && mlen &&
		    copy_to_iter(rxmsg->u.immediate.payload, mlen, to) != mlen)
			rc = -EFAULT;
		if (msg && !rc)
			lnet_finalize(msg, 0);
		kib_rx_return(rx, true);
		return rc;

	case KIB_MSG_PUT_REQ:
		if (!msg || !mlen) {
			kib_send_completion(conn, KIB_MSG_PUT_NAK,
					    rxmsg->u.putreq.cookie, 0);
			if (msg)
				lnet_finalize(msg, 0);
			kib_rx_return(rx, true);
			return 0;
		}
		rc = kib_recv_put_req(rx, msg, to);
		if (rc) {
			kib_send_completion(conn, KIB_MSG_PUT_NAK,
					    rxmsg->u.putreq.cookie, rc);
			kib_rx_return(rx, true);
			return rc;
		}
		/* the credit comes back with the PUT_DONE */
		kib_rx_return(rx, false);
		return 0;

	case KIB_MSG_GET_REQ:
		/* no match, or the REPLY failed before send(): nothing comes */
		kib_send_completion(conn, KIB_MSG_GET_DONE,
				    rxmsg->u.getreq.cookie, -ENODATA);
		if (msg)
			lnet_finalize(msg, -EPROTO);
		kib_rx_return(rx, true);
		return 0;

	default:
		kib_rx_return(rx, false);
		return -EPROTO;
	}
}
