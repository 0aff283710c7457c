// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: the handshakes (Documentation/wire/socklnd.md, "Handshake"),
 * registration with their peer (races, duplicates, incarnations: "Races and
 * rejections" there), start, close and destruction; the connd work items
 * that run the active handshakes, and the passive ones' completion.
 *
 * Life of a connection
 *  1. A handshake on a bare socket: actively, a connd work item (connect
 *     through lnet_connect(), our hello, the peer's reply); or passively,
 *     a socket from the acceptor whose hello is gathered without a thread
 *     waiting on it (lnet_hs_start()), then our reply.
 *  2. ksock_conn_register() adds it to its peer under net->lock, after
 *     the handshake and race checks; messages waiting on the peer move to it.
 *  3. ksock_conn_start() takes over the socket callbacks and lets the
 *     scheduler go. A registered connection holds a peer reference; the
 *     peer's list holds one on the connection.
 *  4. ksock_conn_close_locked() (any thread, net->lock) takes it off its
 *     peer and hands it to its scheduler, which terminates it: restores
 *     the callbacks, shuts the socket down, fails queued and unacked
 *     zero-copy messages and the message being received.
 *  5. The last reference puts it on the reaper's list, which releases the
 *     socket and frees it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <net/sock.h>
#include <linux/lnet/acceptor.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"
#include "socklnd_trace.h"

/* ---- handshake bookkeeping ------------------------------------------------------- */

static bool ksock_handshake_add(struct ksock_net *net,
				struct ksock_handshake *hs, struct socket *sock)
{
	bool ok;

	hs->sock = sock;
	mutex_lock(&net->sock_mutex);
	ok = !READ_ONCE(net->shutdown);
	if (ok)
		list_add_tail(&hs->list, &net->socks);
	mutex_unlock(&net->sock_mutex);
	return ok;
}

static void ksock_handshake_del(struct ksock_net *net,
				struct ksock_handshake *hs)
{
	mutex_lock(&net->sock_mutex);
	list_del(&hs->list);
	mutex_unlock(&net->sock_mutex);
}

/* Shutdown: make every blocked handshake read or write fail now. */
void ksock_net_abort_handshakes(struct ksock_net *net)
{
	struct ksock_handshake *hs;

	lnet_hs_pool_abort(&ksock_data.passive, net);
	mutex_lock(&net->sock_mutex);
	list_for_each_entry(hs, &net->socks, list)
		kernel_sock_shutdown(hs->sock, SHUT_RDWR);
	mutex_unlock(&net->sock_mutex);
}

static void ksock_net_unbusy(struct ksock_net *net)
{
	/* after the decrement @net may be freed by ksock_shutdown() */
	atomic_dec(&net->nbusy);
	wake_up_all(&ksock_data.shutdown_waitq);
}

/* ---- hellos ----------------------------------------------------------------------- */

static int ksock_send_hello(struct socket *sock, const struct ksock_hello *h,
			    int timeout)
{
	struct ksock_hello_wire w;

	ksock_hello_to_wire(h, &w);
	ksock_dump_hello_bytes("hello sent", &w, sizeof(w));
	return lnet_sock_write(sock, &w, sizeof(w), timeout);
}

/*
 * The bytes a hello needs in all, from the @have bytes of it in @buf: 8
 * for the magic and version, 56 for a V2/V3 hello, then its IPs. 0 (or
 * anything not above @have) when it is complete, or when the head already
 * says ksock_hello_decode() will refuse it.
 */
static unsigned int ksock_hello_need(const u8 *buf, unsigned int have)
{
	const struct ksock_hello_wire *w = (const void *)buf;
	u32 head[2], version, nips;
	bool flip;

	if (have < sizeof(head))
		return sizeof(head);
	memcpy(head, buf, sizeof(head));
	if (ksock_hello_parse_head(head, &version, &flip) ||
	    (version != KSOCK_PROTO_V2 && version != KSOCK_PROTO_V3))
		return 0;
	if (have < sizeof(*w))
		return sizeof(*w);
	nips = flip ? swab32(w->nips) : w->nips;
	if (nips > KSOCK_HELLO_MAX_IPS)
		return 0;
	return sizeof(*w) + nips * sizeof(u32);
}

/*
 * Decode a hello gathered as ksock_hello_need() asked. Return 0;
 * -EPROTONOSUPPORT with h->version set for a version we do not speak (V1,
 * V4, unknown); or -EPROTO for garbage.
 */
static int ksock_hello_decode(const u8 *buf, unsigned int have,
			      struct ksock_hello *h, bool *flip)
{
	struct ksock_hello_wire w;
	u32 head[2], ip, version;
	unsigned int i;
	int rc;

	if (have < sizeof(head))
		return -EPROTO;
	memcpy(head, buf, sizeof(head));
	rc = ksock_hello_parse_head(head, &version, flip);
	if (rc) {
		ksock_dump_hello_bytes("bad hello received", head, sizeof(head));
		return rc;
	}
	h->version = version;
	if (version != KSOCK_PROTO_V2 && version != KSOCK_PROTO_V3)
		return -EPROTONOSUPPORT;
	if (have < sizeof(w))
		return -EPROTO;
	memcpy(&w, buf, sizeof(w));
	ksock_dump_hello_bytes("hello received", &w, sizeof(w));
	ksock_hello_from_wire(&w, *flip, h);
	if (h->nips > KSOCK_HELLO_MAX_IPS ||
	    have < sizeof(w) + h->nips * sizeof(ip))
		return -EPROTO;
	for (i = 0; i < h->nips; i++) {
		memcpy(&ip, buf + sizeof(w) + i * sizeof(ip), sizeof(ip));
		if (!ip)
			return -EPROTO;
	}
	return 0;
}

/*
 * Read the answer to our hello, all of it by @deadline (jiffies). Return
 * as ksock_hello_decode(), or the socket's error.
 */
static int ksock_recv_hello(struct socket *sock, struct ksock_hello *h,
			    bool *flip, unsigned long deadline)
{
	u8 buf[KSOCK_HELLO_BUF_SIZE];
	unsigned int have = 0, need;
	long left;
	int rc;

	while ((need = ksock_hello_need(buf, have)) > have) {
		left = (long)(deadline - jiffies);
		if (left <= 0)
			return -ETIMEDOUT;
		rc = lnet_sock_read(sock, buf + have, need - have,
				    DIV_ROUND_UP(left, HZ));
		if (rc)
			return rc;
		have = need;
	}
	return ksock_hello_decode(buf, have, h, flip);
}

static void ksock_hello_init(struct ksock_net *net, struct ksock_hello *h,
			     u32 version, lnet_nid_t dst_nid, int type)
{
	memset(h, 0, sizeof(*h));
	h->version = version;
	h->src_nid = lnet_ni_nid(net->ni);
	h->dst_nid = dst_nid;
	h->src_pid = LNET_PID_LUSTRE;
	h->src_incarnation = net->incarnation;
	h->type = type;
}

/* ---- connections ------------------------------------------------------------------ */

static struct ksock_conn *ksock_conn_alloc(struct ksock_net *net,
					   struct socket *sock, int type,
					   const struct ksock_hello *h,
					   bool flip, lnet_nid_t peer_nid)
{
	struct ksock_conn *conn = kzalloc(sizeof(*conn), GFP_NOFS);

	if (!conn)
		return NULL;
	kref_init(&conn->kref);			/* the creator's */
	conn->net = net;
	conn->sock = sock;
	conn->type = type;
	conn->proto = h->version;
	conn->flip = flip;
	conn->incarnation = h->src_incarnation;
	conn->zc_capable = ksock_sock_zc_capable(sock);
	INIT_LIST_HEAD(&conn->peer_list);
	INIT_LIST_HEAD(&conn->rx_list);
	INIT_LIST_HEAD(&conn->tx_list);
	INIT_LIST_HEAD(&conn->tx_queue);
	INIT_LIST_HEAD(&conn->zombie_list);
	conn->rx_state = KSOCK_RX_HDR;
	conn->tx_deadline = jiffies;
	conn->buf_deadline = jiffies + ksock_timeout(net) * HZ;
	lnet_sock_getaddr(sock, false, &conn->local_ip, &conn->local_port);
	lnet_sock_getaddr(sock, true, &conn->peer_ip, &conn->peer_port);
	conn->sched = ksock_sched_pick(net->ni, peer_nid);
	return conn;
}

/* A connection that never made it onto a peer; the caller keeps @sock. */
static void ksock_conn_free_unregistered(struct ksock_conn *conn)
{
	ksock_sched_release(conn->sched);
	kfree(conn);
}

static int ksock_conn_limit(struct ksock_net *net, int type)
{
	return type == KSOCK_CONN_BULK_IN || type == KSOCK_CONN_BULK_OUT ?
	       net->conns_per_peer : 1;
}

/*
 * Add @conn to the peer @id. Return 0 (the connection is the peer's now),
 * -EALREADY (passive: race lost or duplicate; answer NONE), -ESTALE (the
 * peer's incarnation or version changed: its old connections were closed;
 * answer NONE / retry), -ESHUTDOWN or -ENOMEM.
 */
static int ksock_conn_register(struct ksock_conn *conn,
			       struct lnet_process_id id, bool passive)
{
	struct ksock_net *net = conn->net;
	lnet_nid_t me = lnet_ni_nid(net->ni);
	struct ksock_peer *peer;
	struct ksock_tx *tx, *tmp;
	char str[LNET_NIDSTR_SIZE];
	struct ksock_conn *c;
	int rc = 0;

	peer = ksock_peer_find_or_create(net, id, GFP_NOFS);
	if (!peer)
		return READ_ONCE(net->shutdown) ? -ESHUTDOWN : -ENOMEM;

	spin_lock_bh(&net->lock);
	if (net->shutdown || peer->unhashed) {
		rc = -ESHUTDOWN;
		goto out;
	}
	/*
	 * The higher NID's own connections win a simultaneous connect
	 * (Documentation/wire/socklnd.md, "Simultaneous connect").
	 */
	if (passive && peer->connecting && id.nid < me) {
		rc = -EALREADY;
		goto out;
	}
	if (!list_empty(&peer->conns) &&
	    (peer->incarnation != conn->incarnation ||
	     peer->proto != conn->proto)) {
		pr_info_ratelimited("%s restarted (new incarnation or protocol): closing its connections\n",
				    lnet_nid2str(id.nid, str, sizeof(str)));
		ksock_peer_close_locked(peer, -ESTALE);
		rc = -ESTALE;
		goto out;
	}
	if (passive &&
	    peer->nconns[conn->type] >= ksock_conn_limit(net, conn->type)) {
		/* a duplicate; ours may be half-open: find out */
		ksock_probe_conns_locked(peer, conn->type);
		rc = -EALREADY;
		goto out;
	}

	conn->peer = peer;		/* our find reference is the conn's now */
	peer = NULL;
	conn->passive = passive;
	ksock_conn_get(conn);		/* the peer list's */
	atomic_inc(&net->nconns);
	list_add_tail(&conn->peer_list, &conn->peer->conns);
	conn->peer->nconns[conn->type]++;
	conn->peer->incarnation = conn->incarnation;
	conn->peer->proto = conn->proto;
	conn->peer->last_alive = jiffies;
	conn->peer->retry_ms = 0;
	conn->peer->retry_time = 0;

	/* messages that waited for a connection */
	list_for_each_entry_safe(tx, tmp, &conn->peer->tx_queue, list) {
		c = ksock_find_conn_locked(conn->peer, tx);
		if (!c)
			continue;
		list_del_init(&tx->list);
		ksock_queue_tx_locked(c, tx);
	}
out:
	spin_unlock_bh(&net->lock);
	if (peer)
		ksock_peer_put(peer);
	return rc;
}

/* Let the scheduler at a registered connection, unless it closed already. */
static void ksock_conn_start(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->net;
	struct ksock_sched *sched = conn->sched;

	spin_lock_bh(&net->lock);
	if (!conn->closed) {
		trace_ksocklnd_conn_established(conn);
		ksock_conn_install_callbacks(conn);
		spin_lock(&sched->lock);
		conn->rx_ready = true;
		conn->tx_ready = true;
		ksock_conn_schedule_rx_locked(conn);
		ksock_conn_schedule_tx_locked(conn);
		spin_unlock(&sched->lock);
	}
	spin_unlock_bh(&net->lock);
}

/**
 * ksock_conn_close_locked() - take a connection off its peer
 * @conn: the connection
 * @error: why (0: a clean close)
 *
 * Its scheduler then terminates it. Idempotent.
 * Context: net->lock held.
 */
void ksock_conn_close_locked(struct ksock_conn *conn, int error)
{
	struct ksock_peer *peer = conn->peer;
	struct ksock_sched *sched = conn->sched;

	lockdep_assert_held(&conn->net->lock);
	if (conn->closed)
		return;
	conn->closed = true;
	conn->error = error;
	trace_ksocklnd_conn_closed(conn);
	list_del_init(&conn->peer_list);
	peer->nconns[conn->type]--;
	if (list_empty(&peer->conns))
		peer->incarnation = 0;

	spin_lock(&sched->lock);
	conn->closing = true;
	conn->rx_ready = true;
	conn->tx_ready = true;
	ksock_conn_schedule_rx_locked(conn);
	ksock_conn_schedule_tx_locked(conn);
	spin_unlock(&sched->lock);

	/* messages still waiting may use a new connection */
	if (!list_empty(&peer->tx_queue))
		ksock_peer_maybe_connect_locked(peer);
	ksock_conn_put(conn);		/* the peer list's */
}

void ksock_peer_close_locked(struct ksock_peer *peer, int error)
{
	struct ksock_conn *conn, *tmp;

	lockdep_assert_held(&peer->net->lock);
	list_for_each_entry_safe(conn, tmp, &peer->conns, peer_list)
		ksock_conn_close_locked(conn, error);
}

/* Whether @conn was probed lately (its answer may still be coming). */
static bool ksock_conn_probing(const struct ksock_conn *conn)
{
	return conn->probed && time_before(jiffies, conn->probe_end);
}

/*
 * A connection that failed takes its siblings (the peer's other
 * connections to the same address) with it: they share its path, and a
 * peer that timed one out or closed it usually dropped them all. A sibling
 * left open may be half-open, and the first message put on it after the
 * peer comes back would be reset and lost.
 *
 * Unless we probed it because the peer opened a duplicate: that peer is
 * alive and connecting, so its other connections are only suspect. They
 * are probed in turn; the live ones stay.
 */
void ksock_conn_close_siblings_locked(struct ksock_conn *conn, int error)
{
	struct ksock_peer *peer = conn->peer;
	struct ksock_conn *c, *tmp;
	bool probed;

	lockdep_assert_held(&conn->net->lock);
	if (conn->closed)	/* closed on purpose before it failed */
		return;
	probed = ksock_conn_probing(conn);
	ksock_conn_close_locked(conn, error);
	list_for_each_entry_safe(c, tmp, &peer->conns, peer_list) {
		if (c->peer_ip != conn->peer_ip)
			continue;
		if (!probed)
			ksock_conn_close_locked(c, error);
		else if (!ksock_conn_probing(c))
			ksock_probe_conn_locked(c);
	}
}

void ksock_conn_close(struct ksock_conn *conn, int error)
{
	spin_lock_bh(&conn->net->lock);
	ksock_conn_close_locked(conn, error);
	spin_unlock_bh(&conn->net->lock);
}

/* @conn failed (I/O error, end of stream): close it and its siblings. */
void ksock_conn_fail(struct ksock_conn *conn, int error)
{
	spin_lock_bh(&conn->net->lock);
	ksock_conn_close_siblings_locked(conn, error);
	spin_unlock_bh(&conn->net->lock);
}

/**
 * ksock_conn_terminate() - the scheduler's part of closing a connection
 * @conn: a closed connection, owned by the calling scheduler
 *
 * Gives the socket its callbacks back, shuts it down (the peer sees the
 * close) and fails the zero-copy requests still waiting for an ACK on
 * it. Idempotent; queued messages and the message being received are the
 * callers' (ksock_conn_flush_tx(), ksock_conn_abort_rx()).
 */
void ksock_conn_terminate(struct ksock_conn *conn)
{
	char str[LNET_NIDSTR_SIZE];

	if (conn->terminated)
		return;
	conn->terminated = true;
	ksock_conn_restore_callbacks(conn);
	/*
	 * Closed for an error (timeout, dead or misbehaving peer): reset
	 * instead of a FIN at release. Since "tcp: properly terminate timers
	 * for kernel sockets" (6.1.y) a closed kernel socket has no timers,
	 * so an orphan whose FIN is lost, or whose peer never closes its
	 * side, would stay in FIN-WAIT forever. Our own shutdown
	 * (-ESHUTDOWN) keeps the graceful close.
	 */
	if (conn->error && conn->error != -ESHUTDOWN)
		sock_no_linger(conn->sock->sk);
	kernel_sock_shutdown(conn->sock, SHUT_RDWR);
	ksock_conn_abort_zc(conn);
	if (conn->error && conn->error != -ESHUTDOWN)
		pr_info_ratelimited("closed connection to %s at %pI4 (type %d): %d\n",
				    lnet_nid2str(conn->peer->id.nid, str,
						 sizeof(str)),
				    &conn->peer_ip, conn->type, conn->error);
}

/* The last reference: the reaper frees @conn (ksock_conn_destroy()). */
void ksock_conn_release(struct kref *kref)
{
	struct ksock_conn *conn = container_of(kref, struct ksock_conn, kref);
	unsigned long flags;

	spin_lock_irqsave(&ksock_data.reaper_lock, flags);
	list_add_tail(&conn->zombie_list, &ksock_data.zombies);
	spin_unlock_irqrestore(&ksock_data.reaper_lock, flags);
	queue_work(ksock_data.reaper_wq, &ksock_data.zombie_work);
}

/* The reaper frees a connection nobody refers to any more. */
void ksock_conn_destroy(struct ksock_conn *conn)
{
	struct ksock_net *net = conn->net;

	WARN_ON_ONCE(conn->cb_installed);
	WARN_ON_ONCE(!list_empty(&conn->tx_queue));
	WARN_ON_ONCE(conn->rx_msg);
	sock_release(conn->sock);
	ksock_sched_release(conn->sched);
	ksock_peer_put(conn->peer);
	kfree(conn);
	/* after the decrement @net may be freed by ksock_shutdown() */
	atomic_dec(&net->nconns);
	wake_up_all(&ksock_data.shutdown_waitq);
}

/* ---- the passive side ------------------------------------------------------------- */

static unsigned int ksock_passive_need(const struct lnet_hs *hs)
{
	return ksock_hello_need(hs->buf, hs->have);
}

/*
 * The peer's hello is in (lnet_hs_start() gathered it without a thread
 * waiting), or it failed or ran out of time: register the connection
 * and answer. Runs on ksock_data.passive's workqueue, never on connd_wq,
 * so that passive peers cannot hold up our own connects.
 */
static void ksock_passive_done(struct lnet_hs *lhs, int rc)
{
	struct ksock_passive *p = container_of(lhs, struct ksock_passive, hs);
	struct ksock_net *net = p->net;
	struct socket *sock = lhs->sock;
	__be32 peer_ip = lhs->peer_ip;
	int peer_port = lhs->peer_port;
	int timeout = lnet_acceptor_timeout();
	char str[LNET_NIDSTR_SIZE];
	struct ksock_handshake hs;
	struct ksock_hello h, reply;
	struct ksock_conn *conn = NULL;
	struct lnet_process_id id;
	bool flip = false;
	int type;

	if (!rc)
		rc = ksock_hello_decode(lhs->buf, lhs->have, &h, &flip);
	kfree(p);
	if (rc == -ETIMEDOUT || rc == -ECONNABORTED || rc == -ECONNRESET) {
		/* slow, dropped or gone: a reset, see lnet_acceptor_done() */
		if (rc == -ETIMEDOUT)
			pr_warn_ratelimited("%pI4: no complete hello in %d s\n",
					    &peer_ip, timeout);
		sock_no_linger(sock->sk);
		sock_release(sock);
		goto out_unbusy;
	}
	if (!ksock_handshake_add(net, &hs, sock)) {
		sock_release(sock);
		goto out_unbusy;
	}
	if (rc == -EPROTONOSUPPORT) {
		/* our own version, type NONE: "speak V3 to me" */
		ksock_hello_init(net, &reply, KSOCK_PROTO_V3, LNET_NID_ANY,
				 KSOCK_CONN_NONE);
		ksock_send_hello(sock, &reply, timeout);
		pr_warn_ratelimited("%pI4: hello of protocol version %u refused\n",
				    &peer_ip, h.version);
		goto out;
	}
	if (rc) {
		pr_warn_ratelimited("%pI4: bad or missing hello (%d)\n",
				    &peer_ip, rc);
		goto out;
	}
	if (h.src_nid == LNET_NID_ANY ||
	    h.dst_nid != lnet_ni_nid(net->ni)) {
		pr_warn_ratelimited("%pI4: hello from %s for %s refused\n",
				    &peer_ip,
				    lnet_nid2str(h.src_nid, str, sizeof(str)),
				    h.dst_nid == lnet_ni_nid(net->ni) ?
				    "us" : "another NID");
		goto out;
	}
	type = ksock_conn_type_inverse(h.type);
	if (type == KSOCK_CONN_NONE) {
		pr_warn_ratelimited("%pI4: hello with connection type %d refused\n",
				    &peer_ip, h.type);
		goto out;
	}
	if (peer_port > LNET_ACCEPTOR_MAX_RESERVED_PORT) {
		/* a userspace peer (accept=all): known by its address */
		id.nid = LNET_MKNID(lnet_ni_net(net->ni), ntohl(peer_ip));
		id.pid = peer_port | LNET_PID_USERFLAG;
	} else {
		id.nid = h.src_nid;
		id.pid = h.src_pid;
	}

	rc = ksock_socket_setup(sock, net);
	if (rc)
		goto out;
	conn = ksock_conn_alloc(net, sock, type, &h, flip, id.nid);
	if (!conn)
		goto out;
	rc = ksock_conn_register(conn, id, true);
	if (rc && rc != -EALREADY && rc != -ESTALE) {
		ksock_conn_free_unregistered(conn);
		goto out;
	}

	ksock_hello_init(net, &reply, h.version, id.nid,
			 rc ? KSOCK_CONN_NONE : type);
	reply.dst_pid = h.dst_pid;
	reply.dst_incarnation = h.dst_incarnation;
	if (rc) {
		/* declined: tell the peer, close */
		ksock_conn_free_unregistered(conn);
		ksock_send_hello(sock, &reply, timeout);
		goto out;
	}

	rc = ksock_send_hello(sock, &reply, timeout);
	ksock_handshake_del(net, &hs);
	if (rc)
		ksock_conn_close(conn, rc);
	else
		ksock_conn_start(conn);
	ksock_conn_put(conn);		/* the creator's; @sock is the conn's */
	goto out_unbusy;

out:
	ksock_handshake_del(net, &hs);
	sock_release(sock);
out_unbusy:
	ksock_net_unbusy(net);
}

static const struct lnet_hs_ops ksock_passive_ops = {
	.need	= ksock_passive_need,
	.done	= ksock_passive_done,
};

/**
 * ksock_accept() - the acceptor hands us a socket for @ni
 * @ni: the NI the connection request named
 * @sock: the socket, with the request read
 * @deadline: the handshake's, from the acceptor (jiffies)
 *
 * The peer's hello is gathered in the background (lnet_hs_start()), at
 * most max_pending_hellos at once, by @deadline: the request and the
 * hello together get accept_timeout.
 * Return: 0 (the socket is ours), -ENOMEM, -ESHUTDOWN or -EBUSY.
 */
int ksock_accept(struct lnet_ni *ni, struct socket *sock,
		 unsigned long deadline)
{
	struct ksock_net *net = lnet_ni_data(ni);
	struct ksock_passive *p = kzalloc(sizeof(*p), GFP_NOFS);
	int rc;

	if (!p)
		return -ENOMEM;
	spin_lock_bh(&net->lock);
	if (net->shutdown) {
		spin_unlock_bh(&net->lock);
		kfree(p);
		return -ESHUTDOWN;
	}
	atomic_inc(&net->nbusy);
	spin_unlock_bh(&net->lock);

	p->net = net;
	p->hs.ops = &ksock_passive_ops;
	p->hs.owner = net;
	rc = lnet_hs_start(&ksock_data.passive, &p->hs, sock,
			   READ_ONCE(ksock_max_pending_hellos), deadline);
	if (rc) {
		kfree(p);
		ksock_net_unbusy(net);
	}
	return rc;
}

/* ---- the active side -------------------------------------------------------------- */

/*
 * Open one connection of @type to @peer. Return 0 (registered and
 * started), -EALREADY (declined with NONE: race lost or duplicate),
 * -EAGAIN (the peer speaks another version: learned, try again now),
 * -ESTALE (the peer restarted: old connections closed, try again), or
 * another -errno.
 */
static int ksock_active_connect(struct ksock_peer *peer, int type)
{
	struct ksock_net *net = peer->net;
	lnet_nid_t me = lnet_ni_nid(net->ni);
	int timeout = ksock_timeout(peer->net);
	unsigned long deadline;
	char str[LNET_NIDSTR_SIZE], str2[LNET_NIDSTR_SIZE];
	struct ksock_handshake hs;
	struct ksock_hello h, reply;
	struct ksock_conn *conn;
	struct socket *sock;
	bool flip = false;
	u32 version;
	int rc;

	version = READ_ONCE(peer->proto);
	if (!version)
		version = ksock_typed_conns ? KSOCK_PROTO_V3 : KSOCK_PROTO_V2;

	/* the TCP connect and the peer's answer share sock_timeout */
	deadline = jiffies + (long)timeout * HZ;
	rc = lnet_connect(&sock, peer->id.nid, net->ip, peer->ip,
			  lnet_acceptor_port(), timeout);
	if (rc)
		return rc;
	if (!ksock_handshake_add(net, &hs, sock)) {
		sock_release(sock);
		return -ESHUTDOWN;
	}

	ksock_hello_init(net, &h, version, peer->id.nid, type);
	rc = ksock_send_hello(sock, &h, timeout);
	if (rc)
		goto fail;
	rc = ksock_recv_hello(sock, &reply, &flip, deadline);
	if (rc == -EPROTONOSUPPORT) {
		pr_warn_ratelimited("%s answers with protocol version %u, which we do not speak\n",
				    lnet_nid2str(peer->id.nid, str, sizeof(str)),
				    reply.version);
		rc = -EPROTO;
		goto fail;
	}
	if (rc)
		goto fail;
	if (reply.version != version) {
		spin_lock_bh(&net->lock);
		peer->proto = reply.version;
		spin_unlock_bh(&net->lock);
		rc = -EAGAIN;
		goto fail;
	}
	if (reply.src_nid == LNET_NID_ANY ||
	    reply.src_nid != peer->id.nid || reply.src_pid != peer->id.pid) {
		pr_err_ratelimited("connected to %s but the peer claims to be %u-%s\n",
				   lnet_nid2str(peer->id.nid, str, sizeof(str)),
				   reply.src_pid,
				   lnet_nid2str(reply.src_nid, str2, sizeof(str2)));
		rc = -EPROTO;
		goto fail;
	}
	if (reply.type == KSOCK_CONN_NONE) {
		rc = -EALREADY;
		goto fail;
	}
	if (reply.dst_nid != me ||
	    reply.type != ksock_conn_type_inverse(type)) {
		pr_err_ratelimited("%s: bad hello reply (type %d for %d)\n",
				   lnet_nid2str(peer->id.nid, str, sizeof(str)),
				   reply.type, type);
		rc = -EPROTO;
		goto fail;
	}

	rc = ksock_socket_setup(sock, net);
	if (rc)
		goto fail;
	conn = ksock_conn_alloc(net, sock, type, &reply, flip, peer->id.nid);
	if (!conn) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = ksock_conn_register(conn, peer->id, false);
	if (rc) {
		ksock_conn_free_unregistered(conn);
		goto fail;
	}
	ksock_handshake_del(net, &hs);
	ksock_conn_start(conn);
	ksock_conn_put(conn);		/* the creator's */
	return 0;

fail:
	ksock_handshake_del(net, &hs);
	sock_release(sock);
	return rc;
}

/**
 * ksock_next_conn_type_locked() - the connection @peer should get next
 * @peer: the peer
 *
 * CONTROL first, then BULK_IN and BULK_OUT alternately
 * (Documentation/wire/socklnd.md, "A peer's set of connections"); or one
 * ANY with typed_conns=0.
 * Return: a type, or KSOCK_CONN_NONE when the set is complete.
 */
int ksock_next_conn_type_locked(struct ksock_peer *peer)
{
	int cpp = peer->net->conns_per_peer;
	int *n = peer->nconns;

	lockdep_assert_held(&peer->net->lock);
	if (!ksock_typed_conns)
		return n[KSOCK_CONN_ANY] ? KSOCK_CONN_NONE : KSOCK_CONN_ANY;
	if (!n[KSOCK_CONN_CONTROL])
		return KSOCK_CONN_CONTROL;
	if (n[KSOCK_CONN_BULK_IN] < cpp &&
	    n[KSOCK_CONN_BULK_IN] <= n[KSOCK_CONN_BULK_OUT])
		return KSOCK_CONN_BULK_IN;
	if (n[KSOCK_CONN_BULK_OUT] < cpp)
		return KSOCK_CONN_BULK_OUT;
	if (n[KSOCK_CONN_BULK_IN] < cpp)
		return KSOCK_CONN_BULK_IN;
	return KSOCK_CONN_NONE;
}

static bool ksock_peer_has_each_type_locked(struct ksock_peer *peer)
{
	lockdep_assert_held(&peer->net->lock);
	if (!ksock_typed_conns)
		return peer->nconns[KSOCK_CONN_ANY];
	return peer->nconns[KSOCK_CONN_CONTROL] &&
	       peer->nconns[KSOCK_CONN_BULK_IN] &&
	       peer->nconns[KSOCK_CONN_BULK_OUT];
}

/* Queue @peer's connect work. Context: net->lock held. */
static void ksock_connd_queue_peer_locked(struct ksock_peer *peer)
{
	lockdep_assert_held(&peer->net->lock);
	if (peer->connecting)
		return;
	peer->connecting = true;
	ksock_peer_get(peer);
	atomic_inc(&peer->net->nbusy);
	queue_work(ksock_data.connd_wq, &peer->connd_work);
}

/* Connect if @peer misses connections and is not backing off. */
void ksock_peer_maybe_connect_locked(struct ksock_peer *peer)
{
	lockdep_assert_held(&peer->net->lock);
	if (peer->net->shutdown || peer->unhashed || peer->userspace ||
	    peer->connecting)
		return;
	if (peer->none_retries >= 3 && ksock_peer_has_each_type_locked(peer))
		return;
	if (ksock_next_conn_type_locked(peer) == KSOCK_CONN_NONE)
		return;
	if (peer->retry_time && time_before(jiffies, peer->retry_time))
		return;
	ksock_connd_queue_peer_locked(peer);
}

/*
 * Open the connections @peer misses. The work holds a peer reference,
 * dropped at the end: the peer (and this work item) may be freed then.
 */
void ksock_connd_peer_work(struct work_struct *work)
{
	struct ksock_peer *peer = container_of(work, struct ksock_peer,
					       connd_work);
	struct ksock_net *net = peer->net;
	char str[LNET_NIDSTR_SIZE];
	int type, rc = 0, again = 0;
	LIST_HEAD(failed);

	for (;;) {
		spin_lock_bh(&net->lock);
		type = KSOCK_CONN_NONE;
		if (!net->shutdown && !peer->unhashed &&
		    !(peer->none_retries >= 3 &&
		      ksock_peer_has_each_type_locked(peer)))
			type = ksock_next_conn_type_locked(peer);
		spin_unlock_bh(&net->lock);
		if (type == KSOCK_CONN_NONE) {
			rc = 0;
			break;
		}
		rc = ksock_active_connect(peer, type);
		if (!rc) {
			spin_lock_bh(&net->lock);
			peer->none_retries = 0;
			spin_unlock_bh(&net->lock);
			continue;
		}
		if ((rc == -EAGAIN || rc == -ESTALE) && ++again < 4)
			continue;
		break;
	}

	spin_lock_bh(&net->lock);
	peer->connecting = false;
	if (rc && !net->shutdown && !peer->unhashed) {
		if (rc == -EALREADY) {
			peer->retry_time = jiffies +
				msecs_to_jiffies(ksock_min_reconnectms);
			if (++peer->none_retries >= 3 &&
			    !ksock_peer_has_each_type_locked(peer)) {
				peer->none_retries = 0;
				list_splice_tail_init(&peer->tx_queue, &failed);
			}
		} else {
			peer->retry_ms = peer->retry_ms ?
				min(peer->retry_ms * 2,
				    (unsigned int)ksock_max_reconnectms) :
				(unsigned int)ksock_min_reconnectms;
			peer->retry_time = jiffies +
				msecs_to_jiffies(peer->retry_ms);
			if (list_empty(&peer->conns))
				list_splice_tail_init(&peer->tx_queue, &failed);
		}
	}
	spin_unlock_bh(&net->lock);

	if (rc && rc != -EALREADY && rc != -ESHUTDOWN)
		pr_info_ratelimited("cannot connect to %s: %d\n",
				    lnet_nid2str(peer->id.nid, str, sizeof(str)),
				    rc);
	ksock_txlist_done(&failed, -EHOSTUNREACH);
	ksock_peer_put(peer);
	ksock_net_unbusy(net);
}
