// SPDX-License-Identifier: GPL-2.0
/*
 * Messages: allocation and the end of their life, lnet_finalize().
 *
 * Finalizing returns the send credits a message held, sends the ACK a
 * PUT asked for, and hands the message's event to its MD's slot, whose
 * deliverer frees the message once the event is delivered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include "trace.h"

static struct kmem_cache *lnet_msg_cache;

int lnet_msg_cache_init(void)
{
	lnet_msg_cache = KMEM_CACHE(lnet_msg, 0);
	return lnet_msg_cache ? 0 : -ENOMEM;
}

void lnet_msg_cache_fini(void)
{
	kmem_cache_destroy(lnet_msg_cache);
}

struct lnet_msg *lnet_msg_alloc(gfp_t gfp)
{
	struct lnet_msg *msg = kmem_cache_zalloc(lnet_msg_cache, gfp);
	s64 n;

	if (!msg)
		return NULL;
	INIT_LIST_HEAD(&msg->list);
	INIT_LIST_HEAD(&msg->ev.link);
	msg->md_node = NUMA_NO_NODE;
	percpu_counter_inc(&lnet_core.msg_count);
	/* a high-water mark for debugfs, as approximate as the counter */
	n = percpu_counter_read(&lnet_core.msg_count);
	if (n > READ_ONCE(lnet_core.msg_max))
		WRITE_ONCE(lnet_core.msg_max, n);
	return msg;
}

void lnet_msg_free(struct lnet_msg *msg)
{
	struct lnet_peer *peer = msg->txpeer, *rxpeer = msg->rxpeer;
	struct lnet_ni *ni = msg->ni;

	kmem_cache_free(lnet_msg_cache, msg);
	percpu_counter_dec(&lnet_core.msg_count);
	if (peer)
		lnet_peer_put(peer);
	if (rxpeer)
		lnet_peer_put(rxpeer);
	/* last: an NI that goes away has no message left, counted or not */
	if (ni)
		percpu_ref_put(&ni->ref);
}

/* The ACK for @put, which was received into its MD in full or in part. */
static struct lnet_msg *lnet_ack_prepare(const struct lnet_msg *put)
{
	struct lnet_msg *ack = lnet_msg_alloc(GFP_ATOMIC);
	struct lnet_hdr *hdr;

	if (!ack) {
		lnet_counter_add(errors, 1);
		return NULL;
	}
	hdr = &ack->hdr;
	hdr->type = LNET_MSG_ACK;
	hdr->dest_nid = put->hdr.src_nid;
	hdr->dest_pid = put->hdr.src_pid;
	hdr->src_nid = put->hdr.dest_nid;
	hdr->src_pid = lnet_core.pid;
	hdr->msg.ack.dst_wmd = put->hdr.msg.put.ack_wmd;
	hdr->msg.ack.match_bits = put->hdr.msg.put.match_bits;
	hdr->msg.ack.mlength = put->len;
	/* back through the node the PUT came from (a router, if routed) */
	ack->target.nid = put->from;
	ack->target.pid = put->from == put->hdr.src_nid ? put->hdr.src_pid :
							  LNET_PID_LUSTRE;
	ack->ni = put->ni;
	percpu_ref_get(&ack->ni->ref);
	return ack;
}

/**
 * lnet_finalize() - the end of a message's send or receive
 * @msg: the message (NULL is ignored)
 * @status: 0 or -errno; reported in the message's event
 *
 * Called by LNDs exactly once per message they accepted, and by the core.
 * Context: process or softirq context, no LNet lock held.
 */
void lnet_finalize(struct lnet_msg *msg, int status)
{
	struct lnet_msg *ack = NULL;

	if (!msg)
		return;
	if (WARN_ON_ONCE(msg->finalized))
		return;
	if (msg->routing && !msg->tx) {
		lnet_forward_rx_done(msg, status);	/* sent on or dropped */
		return;
	}
	lnet_health_check(msg, status);
	if (status && msg->tx && lnet_resend(msg))
		return;		/* it goes again; resend.c has it */
	msg->finalized = 1;
	msg->status = status;
	trace_lnet_finalize(msg, status);
	if (status)
		lnet_counter_add(errors, 1);
	else if (msg->retries)
		lnet_counter_add(successful_resends, 1);

	if (msg->tx && msg->rdma_get && msg->private)
		lnet_rdma_get_abort(msg);
	if (msg->tx)
		lnet_credits_return(msg);
	else if (!status && msg->ack_wanted && lnet_is_running())
		ack = lnet_ack_prepare(msg);

	if (msg->routing)
		lnet_forward_release(msg);
	if (msg->md)
		lnet_msg_detach_md(msg, status);	/* @msg is gone */
	else
		lnet_msg_free(msg);

	if (ack)
		lnet_msg_launch(ack);
}
EXPORT_SYMBOL_GPL(lnet_finalize);

/**
 * lnet_create_reply_msg() - the REPLY of a GET that an LND completes itself
 * @ni: the NI the GET went out on
 * @get_msg: the GET being sent
 *
 * For LNDs that RDMA the REPLY's data straight into the sink (o2iblnd): no
 * REPLY header will be parsed, so the LND makes the REPLY message here,
 * sets its length with lnet_set_reply_msg_len() and finalizes it.
 *
 * Return: the message, or NULL if the sink MD is gone (then no REPLY is
 * delivered).
 */
struct lnet_msg *lnet_create_reply_msg(struct lnet_ni *ni,
				       struct lnet_msg *get_msg)
{
	const struct lnet_hdr *ghdr = &get_msg->hdr;
	struct lnet_msg *msg = lnet_msg_alloc(GFP_ATOMIC);
	struct lnet_event *ev;

	if (!msg)
		return NULL;
	if (lnet_md_commit_wire(&ghdr->msg.get.return_wmd, msg,
				LNET_MSG_REPLY, ghdr->dest_nid,
				ghdr->msg.get.sink_length)) {
		lnet_msg_free(msg);
		return NULL;
	}
	msg->ni = ni;
	percpu_ref_get(&ni->ref);
	msg->from = ghdr->dest_nid;
	msg->hdr.type = LNET_MSG_REPLY;
	msg->hdr.src_nid = ghdr->dest_nid;
	msg->hdr.src_pid = ghdr->dest_pid;
	msg->hdr.dest_nid = ghdr->src_nid;
	msg->hdr.dest_pid = ghdr->src_pid;
	/* ->wanted keeps the sink offered, which bounds the REPLY */
	msg->len = 0;		/* until lnet_set_reply_msg_len() */

	ev = &msg->ev.ev;
	ev->type = LNET_EVENT_REPLY;
	ev->target.nid = ghdr->dest_nid;
	ev->target.pid = ghdr->dest_pid;
	ev->initiator.nid = ghdr->src_nid;
	ev->initiator.pid = ghdr->src_pid;
	ev->sender = ghdr->dest_nid;
	return msg;
}
EXPORT_SYMBOL_GPL(lnet_create_reply_msg);

/**
 * lnet_set_reply_msg_len() - how much data the REPLY brought
 * @ni: the NI
 * @reply: from lnet_create_reply_msg()
 * @len: bytes written into the sink, as the peer reports them
 *
 * Call once. A peer claiming more than the sink the GET offered breaks the
 * protocol: the REPLY is cut to the sink and -EPROTO returned, and the LND
 * then finalizes @reply with that error (and drops the connection).
 *
 * Return: 0, -EPROTO (@len exceeds the sink) or -EINVAL (wrong NI).
 */
int lnet_set_reply_msg_len(struct lnet_ni *ni, struct lnet_msg *reply,
			   unsigned int len)
{
	int rc = 0;

	if (WARN_ON_ONCE(reply->ni != ni))
		return -EINVAL;
	if (len > reply->wanted) {
		len = reply->wanted;
		rc = -EPROTO;
	}
	reply->len = len;
	reply->wanted = len;
	reply->hdr.payload_length = len;
	reply->ev.ev.rlength = len;
	reply->ev.ev.mlength = len;
	/* never parsed, but received all the same: count it as lnet_parse() would */
	lnet_ni_stat_add(ni, recv_count, 1);
	lnet_ni_stat_add(ni, recv_length, len);
	lnet_counter_add(recv_count, 1);
	lnet_counter_add(recv_length, len);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_set_reply_msg_len);
