// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit: LND send(), choosing a connection, per-connection queues
 * written by the scheduler, zero-copy requests and their ACKs, NOOPs
 * (Documentation/wire/socklnd.md, "Choosing a connection", "Zero-copy
 * requests and ACKs").
 *
 * A message goes out as the 24-byte socklnd header and the 72-byte LNet
 * header (kernel_sendmsg), then its payload: pages of a page-vector MD of
 * at least zc_min_payload bytes by kernel_sendpage() with a zero-copy
 * cookie in the header, everything else copied by sock_sendmsg(). A
 * zero-copy message is finalized only when the peer's ZC-ACK arrives: the
 * socket still refers to its pages until then.
 *
 * A tx holds one reference for its transmission and, while a zero-copy
 * request, one for the peer's zc_reqs list; the last reference finalizes
 * the LNet message with the first error seen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"
#include "socklnd_trace.h"

static gfp_t ksock_gfp(void)
{
	return in_task() ? GFP_NOFS : GFP_ATOMIC;
}

static void ksock_tx_release(struct kref *kref)
{
	struct ksock_tx *tx = container_of(kref, struct ksock_tx, kref);

	if (tx->msg) {
		trace_ksocklnd_tx_done(tx->msg, tx->status);
		if (tx->status && tx->hstatus != LNET_MSG_STATUS_OK)
			lnet_msg_set_health(tx->msg, tx->hstatus);
		lnet_finalize(tx->msg, tx->status);
	}
	kfree(tx);
}

/* Drop a reference on @tx, recording @status if it is the first error. */
void ksock_tx_put(struct ksock_tx *tx, int status)
{
	if (status && !READ_ONCE(tx->status))
		WRITE_ONCE(tx->status, status);
	kref_put(&tx->kref, ksock_tx_release);
}

/* Fail every tx on @list (linked by tx->list). No lock held. */
void ksock_txlist_done(struct list_head *list, int status)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, list, list) {
		list_del_init(&tx->list);
		ksock_tx_put(tx, status);
	}
}

static struct ksock_tx *ksock_tx_alloc(gfp_t gfp)
{
	struct ksock_tx *tx = kzalloc(sizeof(*tx), gfp);

	if (!tx)
		return NULL;
	INIT_LIST_HEAD(&tx->list);
	INIT_LIST_HEAD(&tx->zc_list);
	kref_init(&tx->kref);
	return tx;
}

struct ksock_tx *ksock_tx_alloc_noop(u64 cookie0, u64 cookie1, gfp_t gfp)
{
	struct ksock_tx *tx = ksock_tx_alloc(gfp);

	if (!tx)
		return NULL;
	tx->kind = ksock_nonblk_zcack || cookie1 == KSOCK_KEEPALIVE_PING ?
		   KSOCK_TX_NOOP_NONBLK : KSOCK_TX_NOOP;
	tx->hdr.ksh.type = KSOCK_MSG_NOOP;
	tx->hdr.ksh.zc_cookies[0] = cookie0;
	tx->hdr.ksh.zc_cookies[1] = cookie1;
	tx->hdr_nob = KSOCK_HDR_NOB;
	tx->nob = KSOCK_HDR_NOB;
	iov_iter_kvec(&tx->payload, ITER_SOURCE, NULL, 0, 0);
	return tx;
}

/* Every payload page can go out by reference. */
static bool ksock_tx_pages_ok(const struct ksock_tx *tx)
{
	struct iov_iter it = tx->payload;

	if (!iov_iter_is_bvec(&it))
		return false;
	while (iov_iter_count(&it)) {
		const struct bio_vec *bv = it.bvec;
		unsigned int in = bv->bv_offset + it.iov_offset;
		size_t len = min_t(size_t, bv->bv_len - it.iov_offset,
				   iov_iter_count(&it));
		unsigned int p, np;

		np = DIV_ROUND_UP(offset_in_page(in) + len, PAGE_SIZE);
		for (p = 0; p < np; p++)
			if (!sendpage_ok(nth_page(bv->bv_page,
						  (in >> PAGE_SHIFT) + p)))
				return false;
		iov_iter_advance(&it, len);
	}
	return true;
}

/*
 * The connection for a message of @kind and @tx_nob bytes: preferred
 * connections first, then the least queued; equals rotate. NULL if none
 * may carry it. Context: net->lock held.
 */
static struct ksock_conn *ksock_pick_conn_locked(struct ksock_peer *peer,
						 enum ksock_tx_kind kind,
						 unsigned int tx_nob)
{
	enum ksock_match m, best_m = KSOCK_MATCH_NO;
	struct ksock_conn *conn, *best = NULL;
	unsigned long nob, best_nob = 0;

	lockdep_assert_held(&peer->net->lock);
	list_for_each_entry(conn, &peer->conns, peer_list) {
		m = ksock_match_conn(conn->proto, conn->type, kind, tx_nob);
		if (m == KSOCK_MATCH_NO)
			continue;
		nob = READ_ONCE(conn->tx_queued_nob);
		if (!best || m > best_m || (m == best_m && nob < best_nob)) {
			best = conn;
			best_m = m;
			best_nob = nob;
		}
	}
	if (best)
		list_move_tail(&best->peer_list, &peer->conns);
	return best;
}

/**
 * ksock_find_conn_locked() - the connection @tx should go on
 * @peer: the peer
 * @tx: the message
 *
 * Context: net->lock held.
 * Return: a connection, or NULL if none may carry @tx.
 */
struct ksock_conn *ksock_find_conn_locked(struct ksock_peer *peer,
					  struct ksock_tx *tx)
{
	return ksock_pick_conn_locked(peer, tx->kind, tx->nob);
}

/**
 * ksock_queue_tx_locked() - put @tx on @conn's queue
 * @conn: a connection on its peer's list (so not closed)
 * @tx: the message
 *
 * Makes a large page payload a zero-copy request first.
 * Context: net->lock held.
 */
void ksock_queue_tx_locked(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct ksock_peer *peer = conn->peer;
	struct ksock_sched *sched = conn->sched;
	unsigned int zc_min = max(READ_ONCE(ksock_zc_min_payload), 2048);
	u64 cookie;

	lockdep_assert_held(&conn->net->lock);
	tx->conn = conn;
	tx->hdr.ksh.csum = 0;
	if (tx->kind == KSOCK_TX_LNET) {
		tx->hdr.ksh.zc_cookies[0] = 0;
		tx->hdr.ksh.zc_cookies[1] = 0;
		tx->zc = conn->zc_capable &&
			 iov_iter_count(&tx->payload) >= zc_min &&
			 ksock_tx_pages_ok(tx);
		/*
		 * A ZC-ACK is the peer's word that it has the whole message:
		 * what LNet wants confirmed asks for one too (lnd.h, @send),
		 * and fails with the connection if it never comes.
		 */
		if (tx->zc || tx->msg->confirm) {
			cookie = ++peer->zc_cookie;
			if (cookie <= KSOCK_KEEPALIVE_PING)
				cookie = peer->zc_cookie = KSOCK_KEEPALIVE_PING + 1;
			tx->zc_req = true;
			tx->hdr.ksh.zc_cookies[0] = cookie;
			tx->deadline = jiffies + ksock_timeout(conn->net) * HZ;
			kref_get(&tx->kref);
			list_add_tail(&tx->zc_list, &peer->zc_reqs);
		}
	}

	spin_lock(&sched->lock);
	if (list_empty(&conn->tx_queue))
		conn->tx_deadline = jiffies + ksock_timeout(conn->net) * HZ;
	list_add_tail(&tx->list, &conn->tx_queue);
	conn->tx_queued_nob += tx->nob;
	if (tx->kind != KSOCK_TX_LNET)
		conn->noops_queued++;
	if (tx->zcack)
		conn->zcack_tx = tx;	/* the newest takes more cookies */
	ksock_conn_schedule_tx_locked(conn);
	spin_unlock(&sched->lock);
}

/*
 * Send @tx to @id: on a connection now, or queued on the peer until one
 * is up. Return 0 (the tx is ours) or -errno (the caller still owns it).
 */
static int ksock_launch_tx(struct ksock_net *net, struct ksock_tx *tx,
			   struct lnet_process_id id)
{
	struct ksock_peer *peer;
	struct ksock_conn *conn;
	int rc = 0;

	if (id.pid & LNET_PID_USERFLAG) {
		/* never connect to a userspace peer; use what it opened */
		spin_lock_bh(&net->lock);
		peer = ksock_peer_find_locked(net, id);
		if (peer)
			ksock_peer_get(peer);
		spin_unlock_bh(&net->lock);
		if (!peer)
			return -EHOSTUNREACH;
	} else {
		peer = ksock_peer_find_or_create(net, id, ksock_gfp());
		if (!peer)
			return READ_ONCE(net->shutdown) ? -ESHUTDOWN : -ENOMEM;
	}

	spin_lock_bh(&net->lock);
	if (net->shutdown || peer->unhashed) {
		rc = -ESHUTDOWN;
		goto out;
	}
	conn = ksock_find_conn_locked(peer, tx);
	if (conn) {
		ksock_queue_tx_locked(conn, tx);
	} else if (peer->userspace) {
		rc = -EHOSTUNREACH;
		goto out;
	} else {
		tx->deadline = jiffies + ksock_timeout(net) * HZ;
		list_add_tail(&tx->list, &peer->tx_queue);
	}
	ksock_peer_maybe_connect_locked(peer);
out:
	spin_unlock_bh(&net->lock);
	ksock_peer_put(peer);
	return rc;
}

/* LND send(): see <linux/lnet/lnd.h>. */
int ksock_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	struct ksock_net *net = lnet_ni_data(ni);
	unsigned int len = lnet_msg_len(msg);
	struct ksock_tx *tx;
	int rc;

	if (len > LNET_MTU)
		return -EINVAL;
	tx = ksock_tx_alloc(ksock_gfp());
	if (!tx)
		return -ENOMEM;
	tx->kind = KSOCK_TX_LNET;
	tx->msg = msg;
	tx->hdr.ksh.type = KSOCK_MSG_LNET;
	lnet_hdr_to_nid4(lnet_msg_hdr(msg), &tx->hdr.lnet);
	tx->hdr_nob = KSOCK_LNET_HDR_NOB;
	tx->nob = KSOCK_LNET_HDR_NOB + len;
	lnet_msg_iter(msg, ITER_SOURCE, &tx->payload);
	/* skip leading empty fragments, so the cursor is on real data */
	iov_iter_advance(&tx->payload, 0);

	rc = ksock_launch_tx(net, tx, msg->target);
	if (rc)
		kfree(tx);
	return rc;
}

/*
 * Add ZC-ACK of @c to the queued ZC-ACK NOOP @tx, in one of the two-cookie
 * forms of Documentation/wire/socklnd.md, "Zero-copy requests and ACKs"
 * (V3 only; V2 knows one cookie per NOOP). Ranges only ever grow by a
 * neighbour, so they cover cookies we received and nothing else.
 * Return: whether @tx now ACKs @c too.
 */
static bool ksock_zcack_merge(struct ksock_tx *tx, int proto, u64 c)
{
	u64 *ck = tx->hdr.ksh.zc_cookies;
	u64 lo, hi;

	if (ck[0] == c || ck[1] == c)
		return true;		/* a repeated request: one ACK */
	if (proto != KSOCK_PROTO_V3 || c <= KSOCK_KEEPALIVE_PING)
		return false;
	if (!ck[0]) {
		/* one cookie: a range of two neighbours, else a pair */
		lo = min(c, ck[1]);
		hi = max(c, ck[1]);
		ck[0] = hi - lo == 1 ? lo : hi;
		ck[1] = hi - lo == 1 ? hi : lo;
		return true;
	}
	if (ck[0] < ck[1]) {
		/* the range [ck[0], ck[1]] */
		if (c > ck[0] && c < ck[1])
			return true;
		if (c == ck[1] + 1)
			ck[1] = c;
		else if (c + 1 == ck[0])
			ck[0] = c;
		else
			return false;
		return true;
	}
	/* the pair ck[0] > ck[1]: its gap filled makes a range */
	if (ck[0] - ck[1] == 2 && c == ck[1] + 1) {
		swap(ck[0], ck[1]);
		return true;
	}
	return false;
}

/*
 * Does @conn need NOOP @tx? An unwritten NOOP already there does the job
 * of a keepalive or probe, and a ZC-ACK joins the queued ZC-ACK NOOP if it
 * can. Return 0 (queue @tx), 1 (not needed) or -ENOBUFS: @conn already
 * holds max_queued_noops NOOPs, its peer does not take them.
 */
static int ksock_noop_needed(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct ksock_sched *sched = conn->sched;
	int rc = 0;

	spin_lock(&sched->lock);
	if (!tx->zcack) {
		if (conn->noops_queued)
			rc = 1;
	} else if (conn->zcack_tx &&
		   ksock_zcack_merge(conn->zcack_tx, conn->proto,
				     tx->hdr.ksh.zc_cookies[1])) {
		rc = 1;
	} else if (conn->noops_queued >=
		   max(READ_ONCE(ksock_max_queued_noops), 1)) {
		rc = -ENOBUFS;
	}
	spin_unlock(&sched->lock);
	return rc;
}

/*
 * The connection a NOOP of *@kind goes on: the ACK connection if there is
 * one, else any that may carry a NOOP (*@kind becomes KSOCK_TX_NOOP).
 */
static struct ksock_conn *ksock_noop_conn_locked(struct ksock_peer *peer,
						 enum ksock_tx_kind *kind)
{
	struct ksock_conn *conn;

	conn = ksock_pick_conn_locked(peer, *kind, KSOCK_HDR_NOB);
	if (!conn && *kind == KSOCK_TX_NOOP_NONBLK) {
		*kind = KSOCK_TX_NOOP;
		conn = ksock_pick_conn_locked(peer, *kind, KSOCK_HDR_NOB);
	}
	return conn;
}

/* Add ZC-ACK of @cookie to a NOOP queued for @peer: whether it could. */
static bool ksock_zcack_join_locked(struct ksock_peer *peer, u64 cookie)
{
	enum ksock_tx_kind kind = READ_ONCE(ksock_nonblk_zcack) ?
				  KSOCK_TX_NOOP_NONBLK : KSOCK_TX_NOOP;
	struct ksock_conn *conn = ksock_noop_conn_locked(peer, &kind);
	bool joined;

	if (!conn)
		return false;
	spin_lock(&conn->sched->lock);
	joined = conn->zcack_tx &&
		 ksock_zcack_merge(conn->zcack_tx, conn->proto, cookie);
	spin_unlock(&conn->sched->lock);
	return joined;
}

/**
 * ksock_launch_noop_locked() - send a NOOP (ZC-ACK or keepalive) to @peer
 * @peer: the peer
 * @tx: from ksock_tx_alloc_noop()
 *
 * On the ACK connection if there is one, else any that may carry a NOOP;
 * merged into a NOOP queued there if it can be (ksock_noop_needed()). A
 * connection that would hold too many NOOPs is closed instead.
 * Context: net->lock held.
 * Return: 0 (@tx queued) or, with @tx not taken, 1 (not needed),
 * -ENOTCONN (the peer has no connection) or -ENOBUFS (closed).
 */
int ksock_launch_noop_locked(struct ksock_peer *peer, struct ksock_tx *tx)
{
	char str[LNET_NIDSTR_SIZE];
	struct ksock_conn *conn;
	int rc;

	lockdep_assert_held(&peer->net->lock);
	conn = ksock_noop_conn_locked(peer, &tx->kind);
	if (!conn)
		return -ENOTCONN;
	rc = ksock_noop_needed(conn, tx);
	if (rc < 0) {
		pr_warn_ratelimited("%s does not read its ZC-ACKs (%u NOOPs queued): closing the connection\n",
				    lnet_nid2str(peer->id.nid, str, sizeof(str)),
				    conn->noops_queued);
		ksock_conn_close_locked(conn, rc);
	}
	if (rc)
		return rc;
	ksock_queue_tx_locked(conn, tx);
	return 0;
}

/**
 * ksock_probe_conn_locked() - poke @conn, which may be half-open
 * @conn: the connection
 *
 * A peer opens a connection of a type it already has with us only if it
 * lost its end of it: ours is then half-open (its close was lost, e.g. the
 * link was down). A keepalive NOOP written on it draws an RST from the
 * peer, which closes it, so the peer's next attempt is not a duplicate.
 * On a live connection the NOOP is ignored. V3 only (V2 receivers would
 * take cookie 1 for a ZC-ACK).
 * Context: net->lock held.
 */
void ksock_probe_conn_locked(struct ksock_conn *conn)
{
	struct ksock_tx *tx;

	lockdep_assert_held(&conn->net->lock);
	if (conn->proto != KSOCK_PROTO_V3)
		return;
	conn->probed = true;
	conn->probe_end = jiffies + ksock_timeout(conn->net) * HZ;
	tx = ksock_tx_alloc_noop(0, KSOCK_KEEPALIVE_PING, GFP_ATOMIC);
	if (!tx)
		return;
	/* a peer that keeps opening must not pile NOOPs up */
	if (ksock_noop_needed(conn, tx))
		kfree(tx);
	else
		ksock_queue_tx_locked(conn, tx);
}

/* ksock_probe_conn_locked() on each of @peer's connections of @type. */
void ksock_probe_conns_locked(struct ksock_peer *peer, int type)
{
	struct ksock_conn *conn;

	lockdep_assert_held(&peer->net->lock);
	list_for_each_entry(conn, &peer->conns, peer_list)
		if (conn->type == type)
			ksock_probe_conn_locked(conn);
}

/*
 * ACK the zero-copy request @cookie that came in on @conn. With no
 * connection left to send it on, the ACK is dropped: the request's own
 * connection is closed then, and its sender failed the request with it.
 */
void ksock_send_zcack(struct ksock_conn *conn, u64 cookie)
{
	struct ksock_net *net = conn->net;
	struct ksock_peer *peer = conn->peer;
	struct ksock_tx *tx;
	bool joined = true;
	int rc = -ESHUTDOWN;

	/* most ACKs under load join a queued NOOP: no allocation then */
	spin_lock_bh(&net->lock);
	if (!net->shutdown && !peer->unhashed)
		joined = ksock_zcack_join_locked(peer, cookie);
	spin_unlock_bh(&net->lock);
	if (joined)
		return;

	tx = ksock_tx_alloc_noop(0, cookie, GFP_NOFS);
	if (!tx)
		return;		/* the peer will time the request out */
	tx->zcack = true;
	spin_lock_bh(&net->lock);
	if (!net->shutdown && !peer->unhashed)
		rc = ksock_launch_noop_locked(peer, tx);
	spin_unlock_bh(&net->lock);
	if (rc)
		kfree(tx);
}

/**
 * ksock_handle_zcack() - the peer ACKed zero-copy requests
 * @conn: the connection it came on
 * @c0: cookie 0 (0 on an LNET message or a one-cookie NOOP)
 * @c1: cookie 1
 *
 * Documentation/wire/socklnd.md, "Zero-copy requests and ACKs": c0 == 0:
 * ACK of c1; c0 > c1: ACK of c0 and c1; c0 < c1: ACK of [c0, c1].
 * Return: 0, or -EPROTO if a cookie matched nothing.
 */
int ksock_handle_zcack(struct ksock_conn *conn, u64 c0, u64 c1)
{
	struct ksock_net *net = conn->net;
	struct ksock_peer *peer = conn->peer;
	bool range = c0 && c1 && c0 < c1;
	struct ksock_tx *tx, *tmp;
	int want, found = 0;
	LIST_HEAD(acked);
	u64 c;

	if (!c0 && (!c1 || c1 == KSOCK_KEEPALIVE_PING))
		return 0;
	want = range || !c0 || !c1 || c0 == c1 ? 1 : 2;

	spin_lock_bh(&net->lock);
	list_for_each_entry_safe(tx, tmp, &peer->zc_reqs, zc_list) {
		c = tx->hdr.ksh.zc_cookies[0];
		if (range ? c < c0 || c > c1 : c != c0 && c != c1)
			continue;
		tx->zc_acked = true;
		list_move_tail(&tx->zc_list, &acked);
		found++;
	}
	spin_unlock_bh(&net->lock);

	list_for_each_entry_safe(tx, tmp, &acked, zc_list) {
		list_del_init(&tx->zc_list);
		ksock_tx_put(tx, 0);
	}
	return found < want ? -EPROTO : 0;
}

/*
 * What the messages a closing @conn still holds fail with. A connection
 * the peer closed has no error of its own: they fail as reset by the peer
 * (REMOTE_DROPPED, resendable to another of its NIDs), not as a fault of
 * our NI. A Lustre node closes our new connections when it wins a
 * connection race after accepting them.
 */
static int ksock_conn_tx_error(const struct ksock_conn *conn)
{
	return conn->error ?: -ECONNRESET;
}

/*
 * @conn is closing: its unacknowledged zero-copy requests fail, as its
 * queued messages do (with its error and health status): the peer may not
 * have them, and a resendable status sends them again.
 */
void ksock_conn_abort_zc(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->net;
	struct ksock_peer *peer = conn->peer;
	struct ksock_tx *tx, *tmp;
	LIST_HEAD(aborted);

	spin_lock_bh(&net->lock);
	list_for_each_entry_safe(tx, tmp, &peer->zc_reqs, zc_list)
		if (tx->conn == conn)
			list_move_tail(&tx->zc_list, &aborted);
	spin_unlock_bh(&net->lock);

	list_for_each_entry_safe(tx, tmp, &aborted, zc_list) {
		list_del_init(&tx->zc_list);
		if (!tx->hstatus)
			tx->hstatus = conn->tx_hstatus;
		ksock_tx_put(tx, ksock_conn_tx_error(conn));
	}
}

/* @conn is closing: fail what is still queued on it. Scheduler only. */
void ksock_conn_flush_tx(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	struct ksock_tx *tx;
	LIST_HEAD(zombies);

	spin_lock_bh(&sched->lock);
	list_splice_init(&conn->tx_queue, &zombies);
	conn->tx_queued_nob = 0;
	conn->noops_queued = 0;
	conn->zcack_tx = NULL;
	spin_unlock_bh(&sched->lock);
	list_for_each_entry(tx, &zombies, list)
		if (!tx->hstatus)
			tx->hstatus = conn->tx_hstatus;
	ksock_txlist_done(&zombies, ksock_conn_tx_error(conn));
}

/*
 * Write as much of @tx as the socket takes. Return 0 when all of it is
 * out, -EAGAIN when the socket is full, or the socket's error.
 *
 * @queued_behind: another tx follows on this connection. Its end then goes
 * with MSG_MORE too, so that messages queued together leave in as few
 * segments as TCP can make: under TCG, a second small segment sent right
 * behind the first was measured to reach the peer ~40 ms late (until a
 * loss probe), capping 0 B GETs with 2..8 in flight at ~25/s per slot.
 */
static int ksock_tx_write(struct ksock_conn *conn, struct ksock_tx *tx,
			  bool queued_behind)
{
	struct socket *sock = conn->sock;
	int rc;

	while (tx->sent < tx->nob) {
		bool more = tx->sent < tx->hdr_nob ?
			    tx->nob > tx->hdr_nob || queued_behind :
			    queued_behind;

		if (tx->sent < tx->hdr_nob) {
			struct kvec kv = {
				.iov_base = (u8 *)&tx->hdr + tx->sent,
				.iov_len  = tx->hdr_nob - tx->sent,
			};
			struct msghdr m = {
				.msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL |
					     (more ? MSG_MORE : 0),
			};

			rc = kernel_sendmsg(sock, &m, &kv, 1, kv.iov_len);
		} else if (tx->zc) {
			const struct bio_vec *bv = tx->payload.bvec;
			size_t left = iov_iter_count(&tx->payload);
			unsigned int in = bv->bv_offset + tx->payload.iov_offset;
			size_t len = min3(bv->bv_len - tx->payload.iov_offset,
					  left, PAGE_SIZE - offset_in_page(in));
			int flags = MSG_DONTWAIT | MSG_NOSIGNAL;

			if (len < left || more)
				flags |= MSG_MORE | MSG_SENDPAGE_NOTLAST;
			rc = kernel_sendpage(sock,
					     nth_page(bv->bv_page,
						      in >> PAGE_SHIFT),
					     offset_in_page(in), len, flags);
			if (rc > 0)
				iov_iter_advance(&tx->payload, rc);
		} else {
			struct msghdr m = {
				.msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL |
					     (more ? MSG_MORE : 0),
			};

			m.msg_iter = tx->payload;
			rc = sock_sendmsg(sock, &m);
			if (rc > 0)
				iov_iter_advance(&tx->payload, rc);
		}
		if (rc < 0)
			return rc;
		if (!rc)
			return -EAGAIN;
		tx->sent += rc;
		conn->tx_deadline = jiffies + ksock_timeout(conn->net) * HZ;
	}
	return 0;
}

/**
 * ksock_process_tx() - write @conn's queue
 * @conn: the connection, owned by the calling scheduler
 *
 * Return: KSOCK_IO_DONE (queue empty or connection closed), KSOCK_IO_WAIT
 * (socket full; tx_ready tells whether space came meanwhile) or
 * KSOCK_IO_MORE.
 */
int ksock_process_tx(struct ksock_conn *conn)
{
	struct ksock_sched *sched = conn->sched;
	struct ksock_tx *tx;
	bool queued_behind;
	int budget = 32;
	int rc;

	if (READ_ONCE(conn->closing)) {
		ksock_conn_terminate(conn);
		ksock_conn_flush_tx(conn);
		return KSOCK_IO_DONE;
	}

	while (budget--) {
		spin_lock_bh(&sched->lock);
		tx = list_first_entry_or_null(&conn->tx_queue, struct ksock_tx,
					      list);
		queued_behind = tx && !list_is_last(&tx->list, &conn->tx_queue);
		/* from now on its header is being written: no more cookies */
		if (tx && tx == conn->zcack_tx)
			conn->zcack_tx = NULL;
		/* write_space sets it again if space comes during the send */
		conn->tx_ready = false;
		spin_unlock_bh(&sched->lock);
		if (!tx) {
			spin_lock_bh(&sched->lock);
			conn->tx_ready = true;
			spin_unlock_bh(&sched->lock);
			return KSOCK_IO_DONE;
		}

		rc = ksock_tx_write(conn, tx, queued_behind && budget);
		if (rc == -EAGAIN)
			return KSOCK_IO_WAIT;
		if (rc) {
			/* the peer stopped taking what we write (spec 3.2) */
			if (rc == -ETIMEDOUT)
				tx->hstatus = LNET_MSG_STATUS_REMOTE_TIMEOUT;
			ksock_conn_fail(conn, rc);
			ksock_conn_terminate(conn);
			ksock_conn_flush_tx(conn);
			return KSOCK_IO_DONE;
		}

		trace_ksocklnd_tx(conn, tx->msg ? lnet_msg_hdr(tx->msg)->type :
					      KSOCK_MSG_NOOP,
				  tx->nob - tx->hdr_nob);
		spin_lock_bh(&sched->lock);
		list_del_init(&tx->list);
		conn->tx_queued_nob -= tx->nob;
		if (tx->kind != KSOCK_TX_LNET)
			conn->noops_queued--;
		conn->tx_ready = true;
		spin_unlock_bh(&sched->lock);
		if (tx->zc_req)
			WRITE_ONCE(tx->deadline,
				   jiffies + ksock_timeout(conn->net) * HZ);
		ksock_tx_put(tx, 0);	/* a ZC request: the ACK is still due */
	}
	return KSOCK_IO_MORE;
}
