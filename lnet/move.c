// SPDX-License-Identifier: GPL-2.0
/*
 * Moving messages: LNetPut()/LNetGet() and the send path, and lnet_parse(),
 * where every header an LND receives enters the core.
 *
 * Send: pick the NI (the loopback NI for any local NID), the peer, wait
 * for credits, then the LND's send(). Receive: check the header against
 * Documentation/wire/lnet-header.md ("Receive checks"), match or look up
 * the MD, then the LND's recv(). A GET turns into its REPLY in place; a
 * PUT's ACK is sent when the PUT is finalized.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include "trace.h"

/* ---- sending -------------------------------------------------------------- */

/*
 * No source NID given: for a Multi-Rail peer the pair Multi-Rail selection
 * chooses (*@dst then the peer NID it chose), else our NI on @dst's
 * network that the peer keeps (select.c). NULL if no network of ours
 * reaches the peer directly; *@dst is then the NID to route to, for a
 * Multi-Rail peer whose networks are all behind routers one of its NIDs
 * in turn.
 */
static struct lnet_ni *lnet_msg_select_rcu(struct lnet_msg *msg,
					   lnet_nid_t *dst)
{
	struct lnet_peer_node *node = NULL;
	bool mr = false;
	struct lnet_ni *ni;
	lnet_nid_t nid;

	if (msg->mr_select) {
		node = lnet_node_find_rcu(*dst);
		mr = node && test_bit(LNET_NODE_MULTI_RAIL, &node->flags);
	}
	/* one NID: no network to choose, only our NI on its own */
	if (mr && READ_ONCE(node->nnids) > 1) {
		ni = lnet_select_mr_rcu(node, msg->md_node, &nid);
		if (nid != LNET_NID_ANY)
			*dst = nid;
		if (ni || nid != LNET_NID_ANY)
			return ni;
	}
	return lnet_select_ni_rcu(*dst, msg->md_node, !mr);
}

/*
 * Route a new message to @dst: choose its NI (from @self if that is not
 * LNET_NID_ANY) and peer, and fill in the header's source. Local NIDs go
 * through the loopback NI; a NID on no local network through a gateway
 * (routes.c), reached from @self's network if @self is given.
 */
int lnet_msg_route(struct lnet_msg *msg, lnet_nid_t self, lnet_nid_t dst,
		   gfp_t gfp)
{
	struct lnet_ni *ni = NULL, *src_ni = NULL, *dst_ni;
	lnet_nid_t hop = dst;
	bool local;

	rcu_read_lock();
	if (!lnet_is_running()) {
		rcu_read_unlock();
		return -ESHUTDOWN;
	}
	if (self != LNET_NID_ANY) {
		src_ni = lnet_ni_find_rcu(self);
		if (!src_ni) {
			rcu_read_unlock();
			return -EINVAL;
		}
	}
	dst_ni = lnet_ni_find_rcu(dst);
	/* a recovery ping of a local NI tests that NI: it goes out there */
	local = dst_ni && !(msg->recovery && dst_ni == src_ni);
	if (local) {
		ni = lnet_core.lo_ni;
	} else if (!src_ni) {
		ni = lnet_msg_select_rcu(msg, &dst);
		hop = dst;
	} else if (LNET_NIDNET(src_ni->nid) == LNET_NIDNET(dst))
		ni = src_ni;
	if (!ni && !local && !lnet_ni_find_net_rcu(LNET_NIDNET(dst))) {
		hop = lnet_route_select_rcu(LNET_NIDNET(dst),
					    src_ni ? LNET_NIDNET(src_ni->nid) :
						     LNET_NET_ANY);
		if (hop != LNET_NID_ANY)
			ni = src_ni ?: lnet_select_ni_rcu(hop, msg->md_node,
							  true);
	}
	if (!ni || !percpu_ref_tryget_live(&ni->ref)) {
		rcu_read_unlock();
		return -EHOSTUNREACH;
	}
	rcu_read_unlock();

	msg->ni = ni;
	msg->hdr.dest_nid = dst;
	msg->target.nid = hop;
	/* a gateway's LNet listens as the Lustre process */
	msg->target.pid = hop == dst ? msg->hdr.dest_pid : LNET_PID_LUSTRE;
	msg->hdr.src_nid = local ? (src_ni ? self : dst) : ni->nid;
	msg->hdr.src_pid = lnet_core.pid;
	if (ni != lnet_core.lo_ni) {
		msg->txpeer = lnet_peer_get(ni, hop, gfp);
		if (!msg->txpeer)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Could @msg be sent again to another NID of its peer? Then its LND must
 * not call it sent before the peer has it (lnd.h, @send): a rail cut with
 * it still in a socket buffer would lose it with nothing to resend.
 */
static bool lnet_msg_wants_confirm(const struct lnet_msg *msg)
{
	if (msg->no_resend || msg->rdma_get ||
	    msg->target.nid != msg->hdr.dest_nid ||
	    !lnet_tunable(&lnet_retry_count) ||
	    !lnet_tunable(&lnet_health_sensitivity))
		return false;
	return lnet_peer_has_other_nid(msg->hdr.dest_nid);
}

/* @msg, confirmed, is to go on @ni whose link is down; another's is up. */
static bool lnet_msg_on_cut_rail(const struct lnet_msg *msg,
				 const struct lnet_ni *ni)
{
	bool other;

	if (!msg->confirm || !test_bit(LNET_NI_LINK_DOWN, &ni->health_flags))
		return false;
	rcu_read_lock();
	other = lnet_ni_has_alternative_rcu(ni);
	rcu_read_unlock();
	return other;
}

/* Hand @msg to its NI's LND; any failure finalizes it. */
void lnet_ni_send(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->ni;
	unsigned int len = msg->len;
	void *private;
	int idx, rc;

	if (static_branch_unlikely(&lnet_fault_active) && lnet_fault_tx(msg))
		return;		/* failed or held by a fault rule */
	/* see lnet_ni_stop(): no send() once shutdown() may have begun */
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	if (READ_ONCE(ni->state) != LNET_NI_STATE_UP) {
		srcu_read_unlock(&lnet_core.lnd_srcu, idx);
		msg->no_resend = 1;
		lnet_finalize(msg, -ESHUTDOWN);
		return;
	}
	msg->confirm = lnet_msg_wants_confirm(msg);
	/*
	 * A link that is down would hold it until the LND's timeout (an
	 * answer goes from the NI its request came to): another rail takes
	 * it now (resend.c). With no other rail up it waits for this one.
	 */
	if (lnet_msg_on_cut_rail(msg, ni)) {
		srcu_read_unlock(&lnet_core.lnd_srcu, idx);
		lnet_msg_set_health(msg, LNET_MSG_STATUS_LOCAL_DROPPED);
		lnet_finalize(msg, -ENETDOWN);
		return;
	}
	trace_lnet_send(msg);
	lnet_ni_stat_add(ni, send_count, 1);
	lnet_ni_stat_add(ni, send_length, len);
	lnet_counter_add(send_count, 1);
	lnet_counter_add(send_length, len);
	/* an RDMA GET's context is the LND's again from here on */
	private = msg->private;
	msg->private = NULL;
	rc = ni->lnd->send(ni, private, msg);	/* @msg may be gone */
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	if (rc < 0) {
		msg->no_resend = 1;	/* the LND refused it outright */
		lnet_finalize(msg, rc);
	}
}

/*
 * Send a routed message (msg->ni and ->target set) once credits allow.
 * The message is the LND's or is finalized; the caller is done with it.
 */
void lnet_msg_launch(struct lnet_msg *msg)
{
	int rc;

	msg->tx = 1;
	if (lnet_discovery_gate(msg))
		return;		/* discovery.c sends or fails it */
	lnet_resend_arm(msg);
	if (!msg->txpeer && msg->ni != lnet_core.lo_ni) {
		msg->txpeer = lnet_peer_get(msg->ni, msg->target.nid,
					    GFP_ATOMIC);
		if (!msg->txpeer) {
			msg->no_resend = 1;
			lnet_finalize(msg, -ENOMEM);
			return;
		}
	}
	rc = lnet_credits_acquire(msg);
	if (rc < 0) {
		msg->no_resend = 1;
		lnet_finalize(msg, rc);
	} else if (!rc) {
		lnet_ni_send(msg);
	}
	/* else queued for a credit: credits.c sends it */
}

/**
 * lnet_msg_reselect() - choose @msg's NI pair again (Multi-Rail)
 * @msg: a message that lets LNet choose (mr_select), holding no credit
 *
 * After its peer's discovery, or before a resend: the peer may have NIDs
 * now, or the pair used last may be the one that failed. The MD's wait
 * for the answer follows the new destination. On failure @msg keeps the
 * pair it had.
 */
void lnet_msg_reselect(struct lnet_msg *msg)
{
	struct lnet_peer *peer = msg->txpeer;
	struct lnet_ni *ni = msg->ni;
	lnet_nid_t dst = msg->hdr.dest_nid, src = msg->hdr.src_nid;
	struct lnet_process_id target = msg->target;

	msg->txpeer = NULL;
	msg->ni = NULL;
	if (lnet_msg_route(msg, LNET_NID_ANY,
			   lnet_peer_primary_nid(dst), GFP_ATOMIC)) {
		if (msg->ni)
			lnet_ni_put(msg->ni);
		msg->txpeer = peer;
		msg->ni = ni;
		msg->hdr.dest_nid = dst;
		msg->hdr.src_nid = src;
		msg->target = target;
		return;
	}
	if (msg->hdr.dest_nid != dst && msg->md)
		lnet_md_expect_retarget(msg, dst);
	if (peer)
		lnet_peer_put(peer);
	lnet_ni_put(ni);
}

/**
 * lnet_msg_move_to() - @msg goes to @nid from @ni instead
 * @msg: a message holding no credit, its header's destination @nid's node
 * @ni: our NI for it; the caller's reference, which @msg takes over
 * @nid: the peer NID, written in the header as its destination
 *
 * Return: true; false (no memory for the peer, @ni's reference dropped)
 * leaves @msg as it was.
 */
bool lnet_msg_move_to(struct lnet_msg *msg, struct lnet_ni *ni,
		      lnet_nid_t nid)
{
	struct lnet_peer *peer, *old_peer = msg->txpeer;
	struct lnet_ni *old_ni = msg->ni;

	peer = lnet_peer_get(ni, nid, GFP_ATOMIC);
	if (!peer) {
		lnet_ni_put(ni);
		return false;
	}
	msg->ni = ni;
	msg->txpeer = peer;
	msg->hdr.dest_nid = nid;
	msg->target.nid = nid;
	if (old_peer)
		lnet_peer_put(old_peer);
	lnet_ni_put(old_ni);
	return true;
}

/**
 * lnet_msg_reselect_answer() - a REPLY or ACK that failed goes again from
 *	another rail, if the requester is a Multi-Rail peer
 * @msg: the answer, holding no credit
 *
 * An answer goes from the NI the request came to, to the NID it came
 * from; when that pair failed (a rail cut with the answer on it), the
 * requester takes it on any of its NIDs (md.c matches an answer from any
 * NID of the peer the request went to). A routed answer keeps its path.
 */
void lnet_msg_reselect_answer(struct lnet_msg *msg)
{
	struct lnet_peer_node *node;
	struct lnet_ni *ni;
	lnet_nid_t nid;

	if (msg->target.nid != msg->hdr.dest_nid || msg->rdma_get)
		return;
	rcu_read_lock();
	node = lnet_node_find_rcu(msg->hdr.dest_nid);
	ni = NULL;
	if (node && test_bit(LNET_NODE_MULTI_RAIL, &node->flags) &&
	    READ_ONCE(node->nnids) > 1) {
		ni = lnet_select_pair_rcu(node, msg->md ? msg->md->mem_node :
							      NUMA_NO_NODE,
					  &nid);
		if (ni && !percpu_ref_tryget_live(&ni->ref))
			ni = NULL;
	}
	rcu_read_unlock();
	if (ni && lnet_msg_move_to(msg, ni, nid))
		msg->hdr.src_nid = ni->nid;
}

static void lnet_msg_ev_send(struct lnet_msg *msg, unsigned int rlength)
{
	struct lnet_event *ev = &msg->ev.ev;
	const struct lnet_hdr *hdr = &msg->hdr;

	ev->type = LNET_EVENT_SEND;
	ev->target.nid = hdr->dest_nid;
	ev->target.pid = hdr->dest_pid;
	ev->initiator.nid = hdr->src_nid;
	ev->initiator.pid = hdr->src_pid;
	ev->sender = hdr->src_nid;
	ev->rlength = rlength;
	ev->mlength = msg->len;
	ev->offset = msg->offset;
	if (hdr->type == LNET_MSG_PUT) {
		ev->pt_index = hdr->msg.put.ptl_index;
		ev->match_bits = hdr->msg.put.match_bits;
		ev->hdr_data = hdr->msg.put.hdr_data;
	} else {
		ev->pt_index = hdr->msg.get.ptl_index;
		ev->match_bits = hdr->msg.get.match_bits;
	}
}

/* A new PUT or GET to @target, routed: the caller then takes its MD. */
static struct lnet_msg *lnet_msg_new(lnet_nid_t self,
				     struct lnet_process_id target,
				     enum lnet_msg_type type, unsigned int portal,
				     bool recovery, int md_node, int *rc)
{
	struct lnet_msg *msg = lnet_msg_alloc(GFP_NOFS);

	if (!msg) {
		*rc = -ENOMEM;
		return NULL;
	}
	/* a recovery ping tests one NI pair: another try elsewhere won't */
	msg->recovery = recovery;
	msg->no_resend = recovery;
	/* LNet's own traffic (ping, push) goes to exactly the NID named */
	msg->mr_select = self == LNET_NID_ANY && !recovery &&
			 portal != LNET_RESERVED_PORTAL;
	msg->md_node = md_node;
	msg->hdr.type = type;
	msg->hdr.dest_nid = target.nid;
	msg->hdr.dest_pid = target.pid;
	*rc = lnet_msg_route(msg, self, target.nid, GFP_NOFS);
	if (*rc) {
		lnet_msg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * What LNetPut() and LNetGet() share: the argument checks, a new message
 * of @type to @target, and one operation taken from the bound MD @mdh
 * (@len as for lnet_md_take()), which then waits for the answer (the
 * ACK of a PUT, the REPLY of a GET) from @target if @answer. NULL with
 * *@rc set on failure.
 */
static struct lnet_msg *lnet_msg_from_md(lnet_nid_t self,
					 struct lnet_handle_md mdh,
					 struct lnet_process_id target,
					 unsigned int portal,
					 enum lnet_msg_type type, bool answer,
					 bool recovery, unsigned int *len,
					 int *rc)
{
	struct lnet_msg *msg;

	if (!lnet_is_running()) {
		*rc = -ENETDOWN;
		return NULL;
	}
	if (portal >= LNET_MAX_PORTALS) {
		*rc = -EINVAL;
		return NULL;
	}
	if (lnet_cookie_type(mdh.cookie) != LNET_COOKIE_MD) {
		*rc = -ENOENT;
		return NULL;
	}
	msg = lnet_msg_new(self, target, type, portal, recovery,
			   self == LNET_NID_ANY ? lnet_md_mem_node(mdh) :
						  NUMA_NO_NODE, rc);
	if (!msg)
		return NULL;
	*rc = lnet_md_take(mdh, msg, len, answer);
	if (*rc) {
		lnet_msg_free(msg);
		return NULL;
	}
	return msg;
}

/**
 * LNetPut() - send the contents of a bound MD to a portal of a process
 * @self: local NID to send from, or LNET_NID_ANY
 * @mdh: the source MD (from LNetMDBind())
 * @ack: LNET_ACK_REQ to ask for an ACK event
 * @target: the destination process
 * @portal: the portal index there
 * @match_bits: match bits
 * @offset: offset in the target MD (if it lets the initiator choose)
 * @hdr_data: 64 bits delivered in the target's event
 *
 * Takes one operation of the MD (two with an ACK: one for the SEND event,
 * one for the ACK). Once this returns 0, the SEND event reports the
 * outcome.
 *
 * Return: 0, -ENOENT (stale or used-up MD), -EINVAL, -EMSGSIZE (MD larger
 * than LNET_MTU), -EHOSTUNREACH, -ENOMEM or -ENETDOWN.
 */
int LNetPut(lnet_nid_t self, struct lnet_handle_md mdh, enum lnet_ack_req ack,
	    struct lnet_process_id target, unsigned int portal,
	    u64 match_bits, unsigned int offset, u64 hdr_data)
{
	unsigned int len = LNET_MTU;
	struct lnet_msg *msg;
	int rc;

	msg = lnet_msg_from_md(self, mdh, target, portal, LNET_MSG_PUT,
			       ack == LNET_ACK_REQ, false, &len, &rc);
	if (!msg)
		return rc;
	msg->len = len;
	msg->hdr.payload_length = len;
	if (ack == LNET_ACK_REQ) {
		msg->hdr.msg.put.ack_wmd.wh_interface_cookie =
			lnet_core.interface_cookie;
		msg->hdr.msg.put.ack_wmd.wh_object_cookie = mdh.cookie;
	} else {
		msg->hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	}
	msg->hdr.msg.put.match_bits = match_bits;
	msg->hdr.msg.put.hdr_data = hdr_data;
	msg->hdr.msg.put.ptl_index = portal;
	msg->hdr.msg.put.offset = offset;
	lnet_msg_ev_send(msg, len);
	lnet_msg_launch(msg);
	return 0;
}
EXPORT_SYMBOL_GPL(LNetPut);

/*
 * LNetGet(), and for recovery.c a recovery ping: never resent, and sent
 * through @self's NI even when @target is @self.
 */
int lnet_get(lnet_nid_t self, struct lnet_handle_md mdh,
	     struct lnet_process_id target, unsigned int portal,
	     u64 match_bits, unsigned int offset, bool recovery)
{
	unsigned int sink = 0;
	struct lnet_msg *msg;
	int rc;

	msg = lnet_msg_from_md(self, mdh, target, portal, LNET_MSG_GET, true,
			       recovery, &sink, &rc);
	if (!msg)
		return rc;
	msg->len = 0;		/* a GET carries no payload */
	msg->hdr.msg.get.return_wmd.wh_interface_cookie =
		lnet_core.interface_cookie;
	msg->hdr.msg.get.return_wmd.wh_object_cookie = mdh.cookie;
	msg->hdr.msg.get.match_bits = match_bits;
	msg->hdr.msg.get.ptl_index = portal;
	msg->hdr.msg.get.src_offset = offset;
	msg->hdr.msg.get.sink_length = sink;
	lnet_msg_ev_send(msg, sink);
	lnet_msg_launch(msg);
	return 0;
}

/**
 * LNetGet() - fetch data from a portal of a process into a bound MD
 * @self: local NID to send from, or LNET_NID_ANY
 * @mdh: the sink MD (from LNetMDBind()); the REPLY lands at its start
 * @target: the process to read from
 * @portal: the portal index there
 * @match_bits: match bits
 * @offset: offset in the target MD (if it lets the initiator choose)
 *
 * Takes one operation of the MD for the SEND event and one for the REPLY.
 * The two events may come in either order: a send the LND finalizes only
 * once the peer confirms it (Multi-Rail) can end after the REPLY is in.
 * The same holds for a PUT's SEND and ACK.
 *
 * Return: as LNetPut().
 */
int LNetGet(lnet_nid_t self, struct lnet_handle_md mdh,
	    struct lnet_process_id target, unsigned int portal,
	    u64 match_bits, unsigned int offset)
{
	return lnet_get(self, mdh, target, portal, match_bits, offset, false);
}
EXPORT_SYMBOL_GPL(LNetGet);

/* ---- receiving ------------------------------------------------------------ */

void lnet_ni_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		  bool delayed, unsigned int mlen, unsigned int rlen)
{
	struct iov_iter to;
	int rc;

	if (msg && mlen)
		lnet_md_iter(lnet_msg_payload_md(msg), ITER_DEST, msg->offset,
			     mlen, &to);
	else
		iov_iter_kvec(&to, ITER_DEST, NULL, 0, 0);
	rc = ni->lnd->recv(ni, private, msg, delayed, &to, mlen, rlen);
	if (rc < 0 && msg)
		lnet_finalize(msg, rc);
}

/*
 * The REPLY to an RDMA GET failed before it reached the LND: give the
 * GET's context back as a dropped receive. A down NI's LND releases such
 * contexts in its shutdown().
 */
void lnet_rdma_get_abort(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->ni;
	int idx;

	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	if (READ_ONCE(ni->state) == LNET_NI_STATE_UP)
		lnet_ni_recv(ni, msg->private, NULL, false, 0, 0);
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	msg->private = NULL;
}

/* Let the LND discard a message's payload and release its context. */
void lnet_drop_rx(struct lnet_ni *ni, void *private, unsigned int rlen,
		  bool delayed, const char *why)
{
	trace_lnet_drop(ni, rlen, why);
	lnet_ni_stat_add(ni, drop_count, 1);
	lnet_ni_stat_add(ni, drop_length, rlen);
	lnet_counter_add(drop_count, 1);
	lnet_counter_add(drop_length, rlen);
	lnet_ni_recv(ni, private, NULL, delayed, 0, rlen);
}

/* Drop a parsed message that nothing took. */
void lnet_drop_msg(struct lnet_msg *msg, const char *why)
{
	lnet_drop_rx(msg->ni, msg->private, msg->hdr.payload_length,
		     msg->delayed, why);
	lnet_msg_free(msg);
}

static void lnet_msg_ev_rx(struct lnet_msg *msg, enum lnet_event_kind type)
{
	struct lnet_event *ev = &msg->ev.ev;
	const struct lnet_hdr *hdr = &msg->hdr;
	struct lnet_process_id remote = {
		.nid = hdr->src_nid, .pid = hdr->src_pid,
	};
	struct lnet_process_id local = {
		.nid = hdr->dest_nid, .pid = hdr->dest_pid,
	};

	ev->type = type;
	ev->sender = msg->from;
	ev->rlength = msg->wanted;
	ev->mlength = msg->len;
	ev->offset = msg->offset;
	switch (type) {
	case LNET_EVENT_PUT:
		ev->target = local;
		ev->initiator = remote;
		ev->initiator.nid = msg->initiator;
		ev->pt_index = hdr->msg.put.ptl_index;
		ev->match_bits = hdr->msg.put.match_bits;
		ev->hdr_data = hdr->msg.put.hdr_data;
		break;
	case LNET_EVENT_GET:
		ev->target = local;
		ev->initiator = remote;
		ev->initiator.nid = msg->initiator;
		ev->pt_index = hdr->msg.get.ptl_index;
		ev->match_bits = hdr->msg.get.match_bits;
		break;
	case LNET_EVENT_ACK:
		ev->match_bits = hdr->msg.ack.match_bits;
		ev->rlength = hdr->msg.ack.mlength;
		ev->mlength = hdr->msg.ack.mlength;
		fallthrough;
	default:
		/* REPLY and ACK answer our own PUT/GET */
		ev->target = remote;
		ev->initiator = local;
		break;
	}
}

/* A PUT was matched (now, or after waiting on a lazy portal): receive it. */
void lnet_put_matched(struct lnet_msg *msg)
{
	lnet_msg_ev_rx(msg, LNET_EVENT_PUT);
	msg->ack_wanted =
		!lnet_wire_handle_is_none(&msg->hdr.msg.put.ack_wmd) &&
		!(msg->md->umd.options & LNET_MD_ACK_DISABLE);
	lnet_ni_recv(msg->ni, msg->private, msg, msg->delayed, msg->len,
		     msg->wanted);
}

static void lnet_parse_put(struct lnet_msg *msg)
{
	struct lnet_match_info info = {
		.match_bits	= msg->hdr.msg.put.match_bits,
		.src.nid	= msg->initiator,
		.src.pid	= msg->hdr.src_pid,
		.rlength	= msg->hdr.payload_length,
		.roffset	= msg->hdr.msg.put.offset,
		.op		= LNET_MD_OP_PUT,
		.portal		= msg->hdr.msg.put.ptl_index,
	};

	if (info.portal >= LNET_MAX_PORTALS) {
		lnet_drop_msg(msg, "PUT to a bad portal");
		return;
	}
	switch (lnet_ptl_match(msg, &info)) {
	case LNET_MATCH_OK:
		lnet_put_matched(msg);
		break;
	case LNET_MATCH_DELAYED:
		break;		/* @msg belongs to the lazy portal now */
	default:
		lnet_drop_msg(msg, "PUT matched no MD");
		break;
	}
}

static void lnet_parse_get(struct lnet_msg *msg)
{
	struct lnet_hdr *hdr = &msg->hdr;
	struct lnet_match_info info = {
		.match_bits	= hdr->msg.get.match_bits,
		.src.nid	= msg->initiator,
		.src.pid	= hdr->src_pid,
		.rlength	= hdr->msg.get.sink_length,
		.roffset	= hdr->msg.get.src_offset,
		.op		= LNET_MD_OP_GET,
		.portal		= hdr->msg.get.ptl_index,
	};
	struct lnet_handle_wire wmd = hdr->msg.get.return_wmd;
	lnet_nid_t me_nid = hdr->dest_nid;

	if (info.portal >= LNET_MAX_PORTALS ||
	    lnet_ptl_match(msg, &info) != LNET_MATCH_OK) {
		lnet_drop_msg(msg, "GET matched no MD");
		return;
	}
	lnet_msg_ev_rx(msg, LNET_EVENT_GET);

	/*
	 * The GET becomes its REPLY, from the NID it was sent to, back
	 * through the node it came from (the last router, if routed).
	 */
	msg->target.nid = msg->from;
	msg->target.pid = msg->from == hdr->src_nid ? hdr->src_pid :
						      LNET_PID_LUSTRE;
	hdr->type = LNET_MSG_REPLY;
	hdr->dest_nid = hdr->src_nid;
	hdr->dest_pid = hdr->src_pid;
	hdr->src_nid = me_nid;
	hdr->src_pid = lnet_core.pid;
	hdr->payload_length = msg->len;
	memset(&hdr->msg, 0, sizeof(hdr->msg));
	hdr->msg.reply.dst_wmd = wmd;

	/* an RDMA GET's context goes with the REPLY; else the GET is done */
	if (!msg->rdma_get) {
		lnet_ni_recv(msg->ni, msg->private, NULL, false, 0, 0);
		msg->private = NULL;
	}
	lnet_msg_launch(msg);
}

/*
 * A REPLY or ACK answers a request we sent: only the MD that waits for it
 * from this peer takes it. -EPROTO: it claims more data than the request
 * offered (lnet_parse() then fails and @msg is the caller's).
 */
static int lnet_parse_reply(struct lnet_msg *msg)
{
	int rc;

	rc = lnet_md_commit_wire(&msg->hdr.msg.reply.dst_wmd, msg,
				 LNET_MSG_REPLY, msg->hdr.src_nid,
				 msg->hdr.payload_length);
	if (rc == -EPROTO)
		return rc;
	if (rc) {
		lnet_drop_msg(msg, "REPLY to no MD waiting for it");
		return 0;
	}
	lnet_msg_ev_rx(msg, LNET_EVENT_REPLY);
	lnet_ni_recv(msg->ni, msg->private, msg, false, msg->len,
		     msg->wanted);
	return 0;
}

static int lnet_parse_ack(struct lnet_msg *msg)
{
	int rc;

	rc = lnet_md_commit_wire(&msg->hdr.msg.ack.dst_wmd, msg, LNET_MSG_ACK,
				 msg->hdr.src_nid, msg->hdr.msg.ack.mlength);
	if (rc == -EPROTO)
		return rc;
	if (rc) {
		lnet_drop_msg(msg, "ACK to no MD waiting for it");
		return 0;
	}
	lnet_msg_ev_rx(msg, LNET_EVENT_ACK);
	lnet_ni_recv(msg->ni, msg->private, msg, false, 0, 0);
	return 0;
}

/*
 * Documentation/wire/lnet-header.md, "Receive checks" 1-7: -EPROTO for
 * what makes an LND close the connection, 1 for a message for another
 * node (to forward, or drop if we do not route), 0 to go on.
 */
static int lnet_parse_check(struct lnet_ni *ni, const struct lnet_hdr *hdr,
			    bool rdma_req)
{
	lnet_nid_t dest = hdr->dest_nid;

	switch (hdr->type) {
	case LNET_MSG_ACK:
	case LNET_MSG_GET:
		if (hdr->payload_length)
			return -EPROTO;
		break;
	case LNET_MSG_PUT:
	case LNET_MSG_REPLY:
		if (hdr->payload_length > LNET_MTU)
			return -EPROTO;
		break;
	default:
		return -EPROTO;
	}

	if (dest == ni->nid)
		return 0;
	/* the loopback NI carries messages to any local NID */
	if (ni == lnet_core.lo_ni)
		return lnet_nid_is_local(dest) ? 0 : -EPROTO;
	/* the sender should have addressed the NI directly */
	if (LNET_NIDNET(dest) == LNET_NIDNET(ni->nid) ||
	    lnet_nid_is_local(dest))
		return -EPROTO;
	if (rdma_req && hdr->type == LNET_MSG_GET)
		return -EPROTO;
	return 1;
}

static void lnet_parse_error(struct lnet_ni *ni, const struct lnet_hdr *hdr,
			     lnet_nid_t from)
{
	char me[LNET_NIDSTR_SIZE], src[LNET_NIDSTR_SIZE], dst[LNET_NIDSTR_SIZE];

	lnet_counter_add(errors, 1);
	pr_warn_ratelimited("%s: bad message from %s (type %u, %u bytes, for %s)\n",
			    lnet_nid2str(ni->nid, me, sizeof(me)),
			    lnet_nid2str(from, src, sizeof(src)), hdr->type,
			    hdr->payload_length,
			    lnet_nid2str(hdr->dest_nid, dst, sizeof(dst)));
}

/*
 * A sender on @ni's own net talks to us directly, so the NID its header
 * claims must be the one the LND authenticated (@from): answers, events'
 * initiators and new peers all follow the header's NID. A source on
 * another net came through a router and cannot be checked here. The
 * loopback NI carries any local NID.
 */
static bool lnet_parse_spoofed(struct lnet_ni *ni, const struct lnet_hdr *hdr,
			       lnet_nid_t from)
{
	char me[LNET_NIDSTR_SIZE], src[LNET_NIDSTR_SIZE], hsrc[LNET_NIDSTR_SIZE];

	if (ni == lnet_core.lo_ni || hdr->src_nid == from ||
	    LNET_NIDNET(hdr->src_nid) != LNET_NIDNET(ni->nid))
		return false;
	lnet_counter_add(errors, 1);
	pr_warn_ratelimited("%s: message from %s claims to be from %s: dropped\n",
			    lnet_nid2str(ni->nid, me, sizeof(me)),
			    lnet_nid2str(from, src, sizeof(src)),
			    lnet_nid2str(hdr->src_nid, hsrc, sizeof(hsrc)));
	return true;
}

/*
 * drop_asym_route: a message from another network is taken only from a
 * gateway our own route to that network goes through, so that a node
 * behind routers answers only paths it would use itself.
 */
static bool lnet_parse_asymmetric(struct lnet_ni *ni,
				  const struct lnet_hdr *hdr, lnet_nid_t from)
{
	char me[LNET_NIDSTR_SIZE], gw[LNET_NIDSTR_SIZE], src[LNET_NIDSTR_SIZE];

	if (!lnet_tunable(&lnet_drop_asym_route) ||
	    lnet_route_is_via(LNET_NIDNET(hdr->src_nid), from))
		return false;
	pr_debug_ratelimited("%s: message from %s through %s, which none of our routes goes through: dropped\n",
			     lnet_nid2str(ni->nid, me, sizeof(me)),
			     lnet_nid2str(hdr->src_nid, src, sizeof(src)),
			     lnet_nid2str(from, gw, sizeof(gw)));
	return true;
}

/* Match or look up what @msg is for; -EPROTO if nothing took it. */
static int lnet_parse_deliver(struct lnet_msg *msg)
{
	switch (msg->hdr.type) {
	case LNET_MSG_PUT:
		lnet_parse_put(msg);
		return 0;
	case LNET_MSG_GET:
		lnet_parse_get(msg);
		return 0;
	case LNET_MSG_REPLY:
		return lnet_parse_reply(msg);
	default:
		return lnet_parse_ack(msg);
	}
}

/**
 * lnet_parse_release() - deliver a message a fault rule held
 * @msg: as lnet_parse() left it
 *
 * The LND was told 0 long ago, so a message nothing takes now is dropped
 * (its recv() called with NULL) instead of closing the connection.
 *
 * Context: process context, inside lnd_srcu, @msg's NI up.
 */
void lnet_parse_release(struct lnet_msg *msg)
{
	if (lnet_parse_deliver(msg) < 0) {
		lnet_parse_error(msg->ni, &msg->hdr, msg->from);
		lnet_drop_msg(msg, "not taken after a fault delay");
	}
}

/**
 * lnet_parse() - hand a received header to LNet
 * @ni: the NI it arrived on
 * @hdr: the header, in host order
 * @from: the LND-level peer that sent it: the NID the LND authenticated
 *	for the connection. A message from @ni's net whose header names
 *	another source is dropped.
 * @private: the LND's context for this message
 * @rdma_req: the LND will RDMA a GET's REPLY itself (o2iblnd GET_REQ)
 *
 * On 0 the LND's recv() is called for @private exactly once - with a
 * message to receive into, or with NULL to discard the payload - now or
 * later; except that for a matched RDMA GET, @private is passed to send()
 * with the REPLY instead. @hdr is not used after lnet_parse() returns.
 *
 * Context: process context, no LNet lock held; not after @ni's shutdown()
 * returned.
 *
 * Return: 0, -EPROTO for a protocol violation (close the connection) or
 * -ESHUTDOWN; recv() is not called then.
 */
int lnet_parse(struct lnet_ni *ni, const struct lnet_hdr *hdr,
	       lnet_nid_t from, void *private, bool rdma_req)
{
	struct lnet_msg *msg;
	int rc;

	trace_lnet_parse(ni, hdr, from);
	rc = lnet_parse_check(ni, hdr, rdma_req);
	if (rc < 0) {
		lnet_parse_error(ni, hdr, from);
		return rc;
	}
	if (!lnet_is_running() || READ_ONCE(ni->state) != LNET_NI_STATE_UP)
		return -ESHUTDOWN;

	lnet_ni_stat_add(ni, recv_count, 1);
	lnet_ni_stat_add(ni, recv_length, hdr->payload_length);
	lnet_counter_add(recv_count, 1);
	lnet_counter_add(recv_length, hdr->payload_length);
	if (rc > 0) {
		lnet_forward_parse(ni, hdr, from, private);
		return 0;
	}
	if (lnet_parse_spoofed(ni, hdr, from)) {
		lnet_drop_rx(ni, private, hdr->payload_length, false,
			     "source NID is not the sender");
		return 0;
	}
	if (hdr->type == LNET_MSG_GET &&
	    hdr->msg.get.ptl_index == LNET_RESERVED_PORTAL)
		lnet_router_pinged(ni, hdr->src_nid);
	/* from another network: @from forwarded it to us */
	if (LNET_NIDNET(hdr->src_nid) != LNET_NIDNET(ni->nid) &&
	    ni != lnet_core.lo_ni) {
		if (lnet_parse_asymmetric(ni, hdr, from)) {
			lnet_drop_rx(ni, private, hdr->payload_length, false,
				     "asymmetrical route");
			return 0;
		}
		lnet_gateway_forwarded(from, LNET_NIDNET(hdr->src_nid));
	}
	if (static_branch_unlikely(&lnet_fault_active) &&
	    lnet_fault_drop_rx(ni, hdr)) {
		lnet_drop_rx(ni, private, hdr->payload_length, false,
			     "fault injection");
		return 0;
	}

	msg = lnet_msg_alloc(GFP_NOFS);
	if (!msg) {
		lnet_drop_rx(ni, private, hdr->payload_length, false,
			     "no memory");
		return 0;
	}
	msg->hdr = *hdr;	/* loopback: @hdr may be freed from here on */
	msg->from = from;
	/* a Multi-Rail peer is known by its primary NID, whatever rail */
	msg->initiator = lnet_peer_primary_nid(hdr->src_nid);
	msg->private = private;
	msg->ni = ni;
	percpu_ref_get(&ni->ref);
	msg->rdma_get = rdma_req && msg->hdr.type == LNET_MSG_GET;

	if (static_branch_unlikely(&lnet_fault_active) &&
	    lnet_fault_delay_rx(msg))
		return 0;	/* lnet_parse_release() delivers it later */
	rc = lnet_parse_deliver(msg);
	if (rc < 0) {
		/* nothing took @msg: the LND closes the connection */
		lnet_parse_error(ni, hdr, from);
		lnet_msg_free(msg);
		return rc;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_parse);
