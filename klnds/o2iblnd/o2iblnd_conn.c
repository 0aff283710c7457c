// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: rdma_cm events for both sides (Documentation/wire/o2iblnd.md,
 * "Active side", "Passive side", "Reject reasons"), queue pairs and receive
 * buffers, establishment, close and teardown, and the reaper that times
 * messages out and sends keepalives.
 *
 * A connection's life: INIT (the active side resolves address and route
 * on kib_wq; the passive side is created for a CONNECT_REQUEST) ->
 * CONNECTING (QP up, receives posted, connect sent or accepted) ->
 * ESTABLISHED (rdma_cm said so; on the peer's list, messages flow) ->
 * CLOSING (close_work: disconnect, drain, fail its messages, destroy) ->
 * CLOSED. Receives that complete before ESTABLISHED is seen are deferred
 * and handed up in order once it is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>
#include "o2iblnd.h"
#include "o2iblnd_trace.h"

#define KIB_RESOLVE_TIMEOUT_MS	5000
#define KIB_MAX_RECONNECTS	8
#define KIB_MAX_RDMA_WRS	16	/* per tx; more is refused (EMSGSIZE) */
#define KIB_TX_MAX_WRS		(KIB_MAX_RDMA_WRS + 3)	/* + inv, reg, send */
#define KIB_MAX_NOOPS		2

/* Active side, step 5: a connect request gets max(5 s, timeout / 4). */
static unsigned long kib_connect_timeout(const struct kib_net *net)
{
	return msecs_to_jiffies(max(5000U, kib_timeout_secs(net) * 1000 / 4));
}

static const char *kib_nid(lnet_nid_t nid, char *buf)
{
	return lnet_nid2str(nid, buf, LNET_NIDSTR_SIZE);
}

/* ---- allocation and release ---------------------------------------------------- */

static struct kib_conn *kib_conn_alloc(struct kib_net *net,
				       struct kib_peer *peer, bool active,
				       gfp_t gfp)
{
	struct kib_conn *conn = kzalloc(sizeof(*conn), gfp);

	if (!conn)
		return NULL;
	kref_init(&conn->kref);
	conn->net = net;
	kib_peer_get(peer);
	conn->peer = peer;
	conn->active = active;
	conn->state = KIB_CONN_INIT;
	spin_lock_init(&conn->lock);
	INIT_LIST_HEAD(&conn->list);
	INIT_LIST_HEAD(&conn->tx_noops);
	INIT_LIST_HEAD(&conn->tx_queue);
	INIT_LIST_HEAD(&conn->tx_queue_rsrvd);
	INIT_LIST_HEAD(&conn->active_txs);
	INIT_LIST_HEAD(&conn->deferred_rxs);
	conn->rx_deferring = true;
	mutex_init(&conn->teardown_mutex);
	/* resolving address and route may take their 5 s each first */
	conn->deadline = jiffies + 2 * msecs_to_jiffies(KIB_RESOLVE_TIMEOUT_MS) +
			 kib_connect_timeout(net);
	conn->last_send = jiffies;
	/* a statistic: a lost race between two updates does not matter */
	if (atomic_inc_return(&net->nconns) > READ_ONCE(net->nconns_max))
		WRITE_ONCE(net->nconns_max, atomic_read(&net->nconns));
	return conn;
}

void kib_conn_release(struct kref *kref)
{
	struct kib_conn *conn = container_of(kref, struct kib_conn, kref);
	struct kib_net *net = conn->net;
	int i;

	WARN_ON_ONCE(conn->qp);
	WARN_ON_ONCE(!list_empty(&conn->active_txs));
	if (conn->rxs) {
		for (i = 0; i < conn->nrx; i++)
			kfree(conn->rxs[i].msg);
		kfree(conn->rxs);
	}
	kib_peer_put(conn->peer);
	kfree(conn);
	/* after the decrement @net may be freed by kib_shutdown() */
	atomic_dec(&net->nconns);
	wake_up_all(&kib_data.waitq);
}

static int kib_conn_alloc_rxs(struct kib_conn *conn)
{
	int i;

	conn->nrx = 2 * conn->queue_depth + 2;
	conn->rxs = kcalloc(conn->nrx, sizeof(*conn->rxs), GFP_KERNEL);
	if (!conn->rxs)
		return -ENOMEM;
	for (i = 0; i < conn->nrx; i++) {
		struct kib_rx *rx = &conn->rxs[i];

		rx->conn = conn;
		rx->cqe.done = kib_rx_done;
		INIT_LIST_HEAD(&rx->list);
		rx->msg = kmalloc(KIB_MSG_SIZE, GFP_KERNEL);
		if (!rx->msg)
			return -ENOMEM;
	}
	return 0;
}

static void kib_conn_unmap_rxs(struct kib_conn *conn)
{
	struct ib_device *dev = conn->net->ibdev;
	int i;

	for (i = 0; conn->rxs && i < conn->nrx; i++) {
		if (!conn->rxs[i].dma)
			continue;
		ib_dma_unmap_single(dev, conn->rxs[i].dma, KIB_MSG_SIZE,
				    DMA_FROM_DEVICE);
		conn->rxs[i].dma = 0;
	}
}

/*
 * conn->lock makes the caller's look at conn->state and the posting one
 * step, so nothing is posted once a close has begun draining the QP.
 */
static int kib_post_rx_locked(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->conn;
	struct ib_sge sge = {
		.addr	= rx->dma,
		.length	= KIB_MSG_SIZE,
		.lkey	= conn->net->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe		= &rx->cqe,
		.sg_list	= &sge,
		.num_sge	= 1,
	};

	lockdep_assert_held(&conn->lock);
	ib_dma_sync_single_for_device(conn->net->ibdev, rx->dma, KIB_MSG_SIZE,
				      DMA_FROM_DEVICE);
	return ib_post_recv(conn->qp, &wr, NULL);
}

/*
 * Give @rx back to the QP. Only while the connection is established (or
 * being set up, for the first posting): a closing QP is being drained and
 * must not get new work requests.
 */
int kib_conn_post_rx(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->conn;
	int rc = -ECONNABORTED;

	spin_lock_bh(&conn->lock);
	if (conn->state == KIB_CONN_ESTABLISHED)
		rc = kib_post_rx_locked(rx);
	spin_unlock_bh(&conn->lock);
	return rc;
}

static void kib_qp_event(struct ib_event *ev, void *ctx)
{
	struct kib_conn *conn = ctx;
	char buf[LNET_NIDSTR_SIZE];

	switch (ev->event) {
	case IB_EVENT_COMM_EST:
		/* a message beat rdma_cm's ESTABLISHED: receives are deferred */
		break;
	default:
		pr_warn_ratelimited("%s: QP event %s\n",
				    kib_nid(conn->peer->nid, buf),
				    ib_event_msg(ev->event));
		break;
	}
}

/*
 * A completion vector for @conn whose interrupts land in the partition of
 * its peer, so that completions (and lnet_parse()) run on the CPUs the
 * partition, or the NI's CPT list, gives that peer. Devices that report no
 * vector affinity (soft-RoCE) get the vectors shared out evenly by
 * partition instead. Peers of one partition are spread over its vectors.
 * The CQ pool folds vectors beyond the online CPU count onto lower ones, so
 * only those it keeps are considered.
 */
static int kib_comp_vector(struct kib_conn *conn)
{
	struct ib_device *dev = conn->net->ibdev;
	int nvec = min_t(int, dev->num_comp_vectors, num_online_cpus());
	int cpt = lnet_ni_cpt_of_nid(conn->net->ni, conn->peer->nid);
	const struct cpumask *cpus = lnet_cpt_cpumask(cpt);
	u32 spread = hash_64(conn->peer->nid, 32);
	int ncpt = lnet_cpt_number();
	int v, first, n, nmatch = 0;

	if (nvec <= 1)
		return 0;
	for (v = 0; v < nvec; v++) {
		const struct cpumask *irq = ib_get_vector_affinity(dev, v);

		if (irq && cpumask_intersects(irq, cpus))
			nmatch++;
	}
	if (nmatch) {
		n = spread % nmatch;
		for (v = 0; v < nvec; v++) {
			const struct cpumask *irq = ib_get_vector_affinity(dev, v);

			if (irq && cpumask_intersects(irq, cpus) && !n--)
				return v;
		}
	}
	if (nvec < ncpt)
		return cpt % nvec;
	first = cpt * nvec / ncpt;
	n = (cpt + 1) * nvec / ncpt - first;
	return first + spread % n;
}

/*
 * CQ, RC QP and receive buffers for @conn, with every receive posted:
 * done before the connect request (active) or the accept (passive), so
 * the peer never sends to a QP without buffers. Sleeps.
 */
static int kib_conn_setup_qp(struct kib_conn *conn)
{
	struct kib_net *net = conn->net;
	struct ib_device *dev = net->ibdev;
	struct ib_qp_init_attr attr = { };
	int send_wrs, i, rc;

	conn->max_sends = kib_concurrent_sends_for(net, conn->queue_depth);
	conn->credits_hiw = kib_credits_hiw(net, conn->queue_depth);
	conn->credits = conn->queue_depth;
	conn->reserved_credits = conn->queue_depth;

	rc = kib_conn_alloc_rxs(conn);
	if (rc)
		return rc;

	send_wrs = (conn->max_sends + KIB_MAX_NOOPS) * KIB_TX_MAX_WRS +
		   2 * conn->queue_depth + 1;
	send_wrs = min(send_wrs, dev->attrs.max_qp_wr - 1);

	/*
	 * Connections share the device's CQ pool: one CQ per vector polls
	 * many QPs in one pass instead of one work item per connection.
	 */
	conn->ncqe = send_wrs + conn->nrx + 2;
	conn->cq = ib_cq_pool_get(dev, conn->ncqe, kib_comp_vector(conn),
				  IB_POLL_WORKQUEUE);
	if (IS_ERR(conn->cq)) {
		rc = PTR_ERR(conn->cq);
		conn->cq = NULL;
		return rc;
	}

	attr.event_handler = kib_qp_event;
	attr.qp_context = conn;
	attr.send_cq = conn->cq;
	attr.recv_cq = conn->cq;
	attr.cap.max_send_wr = send_wrs;
	attr.cap.max_recv_wr = conn->nrx + 1;
	attr.cap.max_send_sge = net->max_sge;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	rc = rdma_create_qp(conn->cmid, net->pd, &attr);
	if (rc)
		return rc;
	conn->qp = conn->cmid->qp;

	for (i = 0; i < conn->nrx; i++) {
		struct kib_rx *rx = &conn->rxs[i];

		rx->dma = ib_dma_map_single(dev, rx->msg, KIB_MSG_SIZE,
					    DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, rx->dma)) {
			rx->dma = 0;
			return -ENOMEM;
		}
		spin_lock_bh(&conn->lock);
		rc = kib_post_rx_locked(rx);
		spin_unlock_bh(&conn->lock);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Stop the QP and give back everything it holds on the device: after this
 * no completion of @conn will run. Idempotent; teardown_mutex serializes
 * it with device removal.
 */
static void kib_conn_release_qp(struct kib_conn *conn)
{
	lockdep_assert_held(&conn->teardown_mutex);
	if (conn->qp_released)
		return;
	conn->qp_released = true;
	if (conn->qp) {
		ib_drain_qp(conn->qp);
		rdma_destroy_qp(conn->cmid);
		conn->qp = NULL;
	}
	if (conn->cq) {
		ib_cq_pool_put(conn->cq, conn->ncqe);
		conn->cq = NULL;
	}
	kib_conn_unmap_rxs(conn);
}

/* The connect/accept private data: our parameters for @conn. */
static void kib_conn_pack_params(struct kib_conn *conn, struct kib_msg *msg,
				 u8 type)
{
	struct kib_net *net = conn->net;

	memset(msg, 0, KIB_CONNPARAMS_NOB);
	msg->u.connparams.queue_depth = conn->queue_depth;
	msg->u.connparams.max_frags = conn->max_frags;
	msg->u.connparams.max_msg_size = KIB_MSG_SIZE;
	kib_msg_pack(msg, type, KIB_CONNPARAMS_NOB, conn->version, 0,
		     conn->flood_nid ?: lnet_ni_nid(net->ni), net->incarnation,
		     conn->peer->nid, conn->peer_stamp);
}

static void kib_conn_param(struct rdma_conn_param *param, struct kib_msg *msg)
{
	memset(param, 0, sizeof(*param));
	param->private_data = msg;
	param->private_data_len = KIB_CONNPARAMS_NOB;
	param->responder_resources = 0;
	param->initiator_depth = 0;
	param->flow_control = 1;
	param->retry_count = kib_retry_count;
	param->rnr_retry_count = kib_rnr_retry_count;
}

/* ---- close ------------------------------------------------------------------------ */

static void kib_set_state(struct kib_conn *conn, enum kib_conn_state state)
{
	lockdep_assert_held(&conn->net->lock);
	spin_lock(&conn->lock);
	conn->state = state;
	spin_unlock(&conn->lock);
}

static void kib_conn_off_passive_locked(struct kib_conn *conn)
{
	lockdep_assert_held(&conn->net->lock);
	if (conn->on_passive) {
		conn->on_passive = false;
		conn->net->npassive--;
	}
}

/**
 * kib_conn_close_locked() - start closing @conn
 * @conn: the connection
 * @error: why (0: a normal close)
 *
 * Takes it off its peer and hands it to close_work, which disconnects,
 * drains the QP and fails every message still on it. Idempotent.
 *
 * Context: net->lock held.
 */
void kib_conn_close_locked(struct kib_conn *conn, int error)
{
	struct kib_peer *peer = conn->peer;
	char buf[LNET_NIDSTR_SIZE];

	lockdep_assert_held(&conn->net->lock);
	if (conn->state >= KIB_CONN_CLOSING)
		return;
	WRITE_ONCE(conn->error, error);
	trace_ko2iblnd_close(conn);
	if (error && error != -ESHUTDOWN && conn->state == KIB_CONN_ESTABLISHED)
		pr_info("closing connection to %s: error %d\n",
			kib_nid(peer->nid, buf), error);
	if (!list_empty(&conn->list))
		list_del_init(&conn->list);
	kib_conn_off_passive_locked(conn);
	if (peer->connecting == conn)
		peer->connecting = NULL;
	if (error == -ETIMEDOUT)
		kib_conn_txs_timed_out(conn);
	kib_set_state(conn, KIB_CONN_CLOSING);
	kib_conn_get(conn);
	queue_work(kib_data.wq, &conn->close_work);
}

void kib_conn_close(struct kib_conn *conn, int error)
{
	spin_lock_bh(&conn->net->lock);
	kib_conn_close_locked(conn, error);
	spin_unlock_bh(&conn->net->lock);
}

/*
 * After a connection went: reconnect if it asked for it and messages are
 * waiting, else fail them once nothing else can carry them; forget a peer
 * that is idle.
 */
static void kib_peer_after_close(struct kib_peer *peer, struct kib_conn *conn,
				 struct list_head *failed)
{
	struct kib_net *net = peer->net;

	lockdep_assert_held(&net->lock);
	if (!list_empty(&peer->conns) || !list_empty(&peer->passive) ||
	    peer->connecting || peer->unhashed)
		return;
	if (!list_empty(&peer->tx_queue) && !net->shutdown &&
	    !net->dev_removed) {
		if (conn->reconnect == KIB_RECONNECT_NOW &&
		    peer->retries++ < KIB_MAX_RECONNECTS) {
			kib_peer_connect_locked(peer);
			return;
		}
		if (conn->reconnect == KIB_RECONNECT_LATER &&
		    peer->retries++ < KIB_MAX_CONN_RACES + KIB_MAX_RECONNECTS) {
			peer->reconnect_at = (jiffies + HZ / 4) ?: 1;
			return;
		}
	}
	list_splice_tail_init(&peer->tx_queue, failed);
	peer->retries = 0;
	peer->reconnect_at = 0;
	kib_peer_unhash_locked(peer);
}

/*
 * What the messages of a peer we could not (re)connect to learn (spec
 * 3.2): unreachable or timed out, the network's fault; refused, the
 * peer dropped them; anything else failed here (and may be resent).
 * A shutdown's are judged by their errno.
 */
enum lnet_msg_status kib_connect_failure_status(int error)
{
	switch (error) {
	case -ESHUTDOWN:
		return LNET_MSG_STATUS_OK;
	case -ETIMEDOUT:
	case -EHOSTUNREACH:
		return LNET_MSG_STATUS_NETWORK_TIMEOUT;
	case -ECONNREFUSED:
		return LNET_MSG_STATUS_REMOTE_DROPPED;
	default:
		return LNET_MSG_STATUS_LOCAL_DROPPED;
	}
}
LNET_EXPORT_FOR_TEST(kib_connect_failure_status);

/*
 * What the messages still on a connection closed for @error learn: a
 * link that went down (kib_link_down_work()) is this side's, and they go
 * again on another rail; otherwise the core judges by the errno.
 */
static enum lnet_msg_status kib_close_hstatus(int error)
{
	return error == -ENETDOWN ? LNET_MSG_STATUS_LOCAL_DROPPED :
				    LNET_MSG_STATUS_OK;
}

static void kib_conn_close_work(struct work_struct *work)
{
	struct kib_conn *conn = container_of(work, struct kib_conn, close_work);
	struct kib_net *net = conn->net;
	struct rdma_cm_id *cmid = NULL;
	LIST_HEAD(txs);
	LIST_HEAD(failed);
	struct kib_rx *rx, *tmp;
	int error = conn->error ?: -ECONNABORTED;
	int deferred = 0;
	int cause;

	mutex_lock(&conn->teardown_mutex);
	if (conn->cmid && !conn->qp_released &&
	    conn->state >= KIB_CONN_CLOSING && conn->qp)
		rdma_disconnect(conn->cmid);
	kib_conn_release_qp(conn);
	if (conn->cmid && !conn->cmid_owned_by_cm) {
		conn->cmid_destroying = true;
		cmid = conn->cmid;
	}
	mutex_unlock(&conn->teardown_mutex);

	/*
	 * Every completion has run: nothing is being sent any more. But
	 * receives deferred until the connection was established are
	 * handled in deferred_rx_work, outside the CQ the drain waited for:
	 * one of them may have claimed a tx still on active_txs (a GET_DONE,
	 * say), and would complete it a second time after we fail it here.
	 * Let it finish first; it cannot be queued again (CLOSING).
	 */
	if (cancel_work_sync(&conn->deferred_rx_work))
		kib_conn_put(conn);	/* the one the queued work held */

	spin_lock_bh(&conn->lock);
	list_splice_tail_init(&conn->tx_noops, &txs);
	list_splice_tail_init(&conn->tx_queue_rsrvd, &txs);
	list_splice_tail_init(&conn->tx_queue, &txs);
	list_splice_tail_init(&conn->active_txs, &txs);
	list_for_each_entry_safe(rx, tmp, &conn->deferred_rxs, list) {
		list_del_init(&rx->list);
		deferred++;
	}
	spin_unlock_bh(&conn->lock);
	kib_txlist_done(&txs, error, kib_close_hstatus(error));
	while (deferred--)
		kib_conn_put(conn);	/* taken when each completed */

	if (cmid)
		rdma_destroy_id(cmid);	/* waits for a running handler */

	spin_lock_bh(&net->lock);
	kib_set_state(conn, KIB_CONN_CLOSED);
	trace_ko2iblnd_destroy(conn);
	if (!conn->flood_nid)	/* a test flood's: not the peer's business */
		kib_peer_after_close(conn->peer, conn, &failed);
	spin_unlock_bh(&net->lock);
	/* the waiting messages' errno stays coarse; their status says why */
	cause = conn->reconnect ? -ECONNREFUSED : error;
	kib_txlist_done(&failed, cause == -ESHUTDOWN || cause == -ECONNREFUSED ?
			cause : -EHOSTUNREACH, kib_connect_failure_status(cause));

	kib_conn_put(conn);	/* the id's */
	kib_conn_put(conn);	/* close_work's */
}

/* ---- established ---------------------------------------------------------------- */

static void kib_conn_established(struct kib_conn *conn)
{
	struct kib_peer *peer = conn->peer;
	struct kib_net *net = conn->net;
	struct kib_tx *tx, *tmp;
	LIST_HEAD(txs);

	spin_lock_bh(&net->lock);
	if (conn->state != KIB_CONN_CONNECTING) {
		spin_unlock_bh(&net->lock);
		return;
	}
	if (net->shutdown || net->dev_removed || peer->unhashed) {
		kib_conn_close_locked(conn, -ESHUTDOWN);
		spin_unlock_bh(&net->lock);
		return;
	}
	kib_set_state(conn, KIB_CONN_ESTABLISHED);
	trace_ko2iblnd_established(conn);
	kib_conn_off_passive_locked(conn);
	if (conn->flood_nid) {
		/* a test flood's: it stays on net->flood_conns, unused */
		spin_unlock_bh(&net->lock);
		kib_conn_get(conn);
		if (!queue_work(kib_data.wq, &conn->deferred_rx_work))
			kib_conn_put(conn);
		return;
	}
	list_move_tail(&conn->list, &peer->conns);
	if (peer->connecting == conn)
		peer->connecting = NULL;
	peer->races = 0;
	peer->retries = 0;
	peer->reconnect_at = 0;
	peer->incarnation = conn->peer_stamp;
	peer->last_alive = jiffies;
	list_splice_tail_init(&peer->tx_queue, &txs);
	spin_unlock_bh(&net->lock);

	/* receives that completed before this event go up first */
	kib_conn_get(conn);
	if (!queue_work(kib_data.wq, &conn->deferred_rx_work))
		kib_conn_put(conn);

	list_for_each_entry_safe(tx, tmp, &txs, list) {
		list_del_init(&tx->list);
		kib_queue_tx(conn, tx);
	}
	kib_check_sends(conn);
}

/* ---- active side ---------------------------------------------------------------- */

static int kib_bind_local(struct rdma_cm_id *cmid, __be32 ip)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = ip };
	int port, rc;

	if (!kib_use_privileged_port)
		return rdma_bind_addr(cmid, (struct sockaddr *)&sin);
	for (port = 1023; port >= 512; port--) {
		sin.sin_port = htons(port);
		rc = rdma_bind_addr(cmid, (struct sockaddr *)&sin);
		if (rc != -EADDRINUSE)
			return rc;
	}
	return -EADDRINUSE;
}

static void kib_connect_work(struct work_struct *work)
{
	struct kib_conn *conn = container_of(work, struct kib_conn,
					     connect_work);
	struct kib_net *net = conn->net;
	struct sockaddr_in dst = {
		.sin_family	 = AF_INET,
		.sin_port	 = htons(kib_service),
		.sin_addr.s_addr = htonl(LNET_NIDADDR(conn->peer->nid)),
	};
	struct rdma_cm_id *cmid;
	int rc;

	mutex_lock(&conn->teardown_mutex);
	if (READ_ONCE(conn->state) != KIB_CONN_INIT) {
		mutex_unlock(&conn->teardown_mutex);
		kib_conn_put(conn);
		return;
	}
	cmid = rdma_create_id(&init_net, kib_cm_handler, &conn->cm,
			      RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(cmid)) {
		mutex_unlock(&conn->teardown_mutex);
		kib_conn_close(conn, PTR_ERR(cmid));
		kib_conn_put(conn);
		return;
	}
	conn->cmid = cmid;	/* destroyed by close_work */
	if (net->tos >= 0)
		rdma_set_service_type(cmid, net->tos);
	rc = kib_bind_local(cmid, net->ip);
	if (!rc)
		rc = rdma_resolve_addr(cmid, NULL, (struct sockaddr *)&dst,
				       KIB_RESOLVE_TIMEOUT_MS);
	mutex_unlock(&conn->teardown_mutex);
	if (rc)
		kib_conn_close(conn, rc);
	kib_conn_put(conn);
}

/**
 * kib_peer_connect_locked() - start an active connection to @peer
 * @peer: the peer; it has none and is not connecting
 *
 * Context: net->lock held; any context.
 */
void kib_peer_connect_locked(struct kib_peer *peer)
{
	struct kib_net *net = peer->net;
	struct kib_conn *conn;

	lockdep_assert_held(&net->lock);
	peer->reconnect_at = 0;
	conn = kib_conn_alloc(net, peer, true, GFP_ATOMIC);
	if (!conn)
		return;		/* the reaper retries while txs wait */
	conn->version = peer->version;
	conn->queue_depth = peer->queue_depth;
	conn->max_frags = peer->max_frags;
	conn->peer_stamp = peer->incarnation;
	INIT_WORK(&conn->connect_work, kib_connect_work);
	INIT_WORK(&conn->close_work, kib_conn_close_work);
	INIT_WORK(&conn->deferred_rx_work, kib_deferred_rx_work);
	conn->cm.listener = false;
	peer->connecting = conn;
	trace_ko2iblnd_connect(conn);
	/* the initial reference is dropped by close_work; this one by connect_work */
	kib_conn_get(conn);
	queue_work(kib_data.wq, &conn->connect_work);
}

static int kib_active_route_resolved(struct kib_conn *conn)
{
	struct rdma_conn_param param;
	struct kib_msg msg;
	int rc;

	rc = kib_conn_setup_qp(conn);
	if (rc)
		return rc;
	kib_conn_pack_params(conn, &msg, KIB_MSG_CONNREQ);
	kib_conn_param(&param, &msg);
	spin_lock_bh(&conn->net->lock);
	if (conn->state == KIB_CONN_INIT)
		kib_set_state(conn, KIB_CONN_CONNECTING);
	conn->deadline = jiffies + kib_connect_timeout(conn->net);
	spin_unlock_bh(&conn->net->lock);
	return rdma_connect_locked(conn->cmid, &param);
}

static int kib_active_established(struct kib_conn *conn,
				  const struct rdma_cm_event *ev)
{
	struct kib_net *net = conn->net;
	struct kib_msg msg = { };
	unsigned int len = min_t(unsigned int, ev->param.conn.private_data_len,
				 sizeof(msg));
	char buf[LNET_NIDSTR_SIZE], buf2[LNET_NIDSTR_SIZE];
	int rc;

	if (ev->param.conn.private_data)
		memcpy(&msg, ev->param.conn.private_data, len);
	rc = kib_connack_check(&msg, len, conn->version, conn->queue_depth,
			       conn->max_frags,
			       conn->flood_nid ?: lnet_ni_nid(net->ni),
			       net->incarnation);
	if (rc) {
		pr_warn("%s: bad CONNACK (%d)\n",
			kib_nid(conn->peer->nid, buf), rc);
		return rc;
	}
	if (msg.hdr.srcnid != conn->peer->nid) {
		pr_warn("%s answered as %s\n",
			kib_nid(conn->peer->nid, buf),
			kib_nid(msg.hdr.srcnid, buf2));
		return -EPROTO;
	}
	conn->queue_depth = msg.u.connparams.queue_depth;
	conn->max_frags = msg.u.connparams.max_frags;
	conn->peer_stamp = msg.hdr.srcstamp;
	/* a smaller accepted depth: credits and limits follow it */
	conn->credits = conn->queue_depth;
	conn->reserved_credits = conn->queue_depth;
	conn->max_sends = kib_concurrent_sends_for(net, conn->queue_depth);
	conn->credits_hiw = kib_credits_hiw(net, conn->queue_depth);
	kib_conn_established(conn);
	return 0;
}

/* "Reject reasons": what a reject teaches us, and whether to try again. */
static void kib_active_rejected(struct kib_conn *conn, struct rdma_cm_event *ev)
{
	struct kib_peer *peer = conn->peer;
	struct kib_net *net = conn->net;
	char buf[LNET_NIDSTR_SIZE];
	struct kib_rej_info rej;
	const void *data = NULL;
	u8 len = 0;
	int reconnect = KIB_RECONNECT_NO;
	int error = -ECONNREFUSED;
	int why = 0;

	if (ev->status == KIB_IB_CM_REJ_CONSUMER)
		data = rdma_consumer_reject_data(conn->cmid, ev, &len);

	spin_lock_bh(&net->lock);
	if (ev->status == KIB_IB_CM_REJ_STALE_CONN) {
		reconnect = KIB_RECONNECT_NOW;
	} else if (ev->status == KIB_IB_CM_REJ_INVALID_SID) {
		error = -EHOSTUNREACH;
	} else if (!data || kib_rej_unpack(data, len, &rej)) {
		pr_warn("%s rejected the connection: %s\n",
			kib_nid(peer->nid, buf),
			rdma_reject_msg(conn->cmid, ev->status));
	} else {
		why = rej.why;
		switch (rej.why) {
		case KIB_REJECT_CONN_RACE:
			reconnect = KIB_RECONNECT_LATER;
			break;
		case KIB_REJECT_CONN_STALE:
			if (rej.has_params)
				peer->incarnation = rej.incarnation;
			else
				peer->incarnation = 0;
			reconnect = KIB_RECONNECT_NOW;
			break;
		case KIB_REJECT_CONN_UNCOMPAT:
			if (rej.version == KIB_MSG_VERSION_2 &&
			    conn->version != KIB_MSG_VERSION_2) {
				peer->version = KIB_MSG_VERSION_2;
				reconnect = KIB_RECONNECT_NOW;
			}
			break;
		case KIB_REJECT_RDMA_FRAGS:
			if (rej.has_params && rej.max_frags &&
			    rej.max_frags < conn->max_frags) {
				peer->max_frags = rej.max_frags;
				reconnect = KIB_RECONNECT_NOW;
			}
			break;
		case KIB_REJECT_MSG_QUEUE_SIZE:
			if (rej.has_params && rej.queue_depth &&
			    rej.queue_depth < conn->queue_depth) {
				peer->queue_depth = rej.queue_depth;
				reconnect = KIB_RECONNECT_NOW;
			}
			break;
		default:
			break;
		}
		if (reconnect == KIB_RECONNECT_NO)
			pr_warn("%s rejected the connection (reason %u, version %#x)\n",
				kib_nid(peer->nid, buf), rej.why, rej.version);
		else
			pr_debug("%s: reject %u, reconnecting\n",
				 kib_nid(peer->nid, buf), rej.why);
	}
	conn->reconnect = reconnect;
	trace_ko2iblnd_rejected(conn, why, ev->status);
	kib_conn_close_locked(conn, error);
	spin_unlock_bh(&net->lock);
}

/* ---- passive side ------------------------------------------------------------------ */

static int kib_reject(struct rdma_cm_id *cmid, struct kib_net *net,
		      u16 version, int why)
{
	struct kib_rej rej;
	bool matched = net && why != KIB_REJECT_EARLY && why != KIB_REJECT_FATAL;

	trace_ko2iblnd_reject(cmid, why);
	kib_rej_pack(&rej, version, why, matched ? net->incarnation : 0,
		     matched ? net->queue_depth : 0,
		     matched ? KIB_MAX_RDMA_FRAGS : 0);
	rdma_reject(cmid, &rej, sizeof(rej), KIB_IB_CM_REJ_CONSUMER);
	return 1;	/* rdma_cm destroys the new id */
}

/* Has @peer a connection that @addr asked for? */
static bool kib_peer_from_addr_locked(struct kib_peer *peer, __be32 addr)
{
	struct kib_conn *conn;

	lockdep_assert_held(&peer->net->lock);
	list_for_each_entry(conn, &peer->conns, list)
		if (!conn->active && conn->src_addr == addr)
			return true;
	list_for_each_entry(conn, &peer->passive, list)
		if (conn->src_addr == addr)
			return true;
	return false;
}

/*
 * The limits on what connection requests make us create
 * (Documentation/hardening.md, "o2iblnd"): each is a QP and 2Q+2 pages.
 * A request from @nid at @addr is refused when @nid has
 * max_conns_per_peer connections already (of any side), when
 * max_nids_per_addr other NIDs have connections @addr asked for (one
 * host cannot pose as many peers), or when max_passive requests are
 * between accept and establishment (requests that are never completed
 * hold their QP until the reaper's deadline). Established connections of
 * other peers are never touched: a flood is refused, not served first.
 */
static bool kib_passive_over_limits_locked(struct kib_net *net,
					   lnet_nid_t nid, u64 stamp,
					   __be32 addr)
{
	struct kib_peer *peer, *p;
	struct kib_conn *conn;
	int nconns = 0, nnids = 0, b;

	lockdep_assert_held(&net->lock);
	if (net->npassive >= kib_max_passive)
		return true;
	peer = kib_peer_find_locked(net, nid);
	/* a restarted peer's old connections are about to go (CONN_STALE) */
	if (peer && (!peer->incarnation || peer->incarnation == stamp)) {
		list_for_each_entry(conn, &peer->conns, list)
			nconns++;
		list_for_each_entry(conn, &peer->passive, list)
			nconns++;
		if (nconns >= kib_max_conns_per_peer)
			return true;
	}
	hash_for_each(net->peers, b, p, hnode)
		if (p != peer && kib_peer_from_addr_locked(p, addr) &&
		    ++nnids >= kib_max_nids_per_addr)
			return true;
	return false;
}

/* A peer found or made for a refused request goes if it has nothing. */
static void kib_peer_forget_idle_locked(struct kib_peer *peer)
{
	lockdep_assert_held(&peer->net->lock);
	if (list_empty(&peer->conns) && list_empty(&peer->passive) &&
	    !peer->connecting && list_empty(&peer->tx_queue) &&
	    !peer->reconnect_at)
		kib_peer_unhash_locked(peer);
}

static int kib_refuse_over_limits(struct rdma_cm_id *cmid,
				  struct kib_net *net, u16 version,
				  lnet_nid_t nid)
{
	char buf[LNET_NIDSTR_SIZE];

	atomic64_inc(&net->stats.connreqs_refused);
	pr_warn_ratelimited("connection request from %s refused: over a limit (max_conns_per_peer %d, max_nids_per_addr %d, max_passive %d)\n",
			    kib_nid(nid, buf), kib_max_conns_per_peer,
			    kib_max_nids_per_addr, kib_max_passive);
	return kib_reject(cmid, net, version, KIB_REJECT_NO_RESOURCES);
}

/*
 * A request refused after its QP was made: the connection was never on a
 * list, so it goes here and not through close_work. CLOSED first: the
 * drain flushes every posted receive, and a flushed receive must not
 * start a close (and take a reference close_work would drop) for a
 * connection whose only reference the caller is about to put.
 */
static void kib_passive_abandon(struct kib_conn *conn)
{
	lockdep_assert_held(&conn->teardown_mutex);
	spin_lock_bh(&conn->net->lock);
	kib_set_state(conn, KIB_CONN_CLOSED);
	spin_unlock_bh(&conn->net->lock);
	kib_conn_release_qp(conn);
	conn->cmid = NULL;	/* rdma_cm destroys it: we reject */
}

/* Test builds: refuse the next test_refuse_after_qp requests late. */
static bool kib_test_refuse_locked(struct kib_net *net)
{
	lockdep_assert_held(&net->lock);
#ifdef LNET_KUNIT
	if (kib_test_refuse_after_qp > 0) {
		kib_test_refuse_after_qp--;
		return true;
	}
#endif
	return false;
}

static int kib_passive_connect(struct kib_net *net, struct rdma_cm_id *cmid,
			       const struct rdma_cm_event *ev)
{
	const struct sockaddr_in *src =
		(const struct sockaddr_in *)&cmid->route.addr.dst_addr;
	struct kib_accept_limits lim = {
		.own_nid	= LNET_NID_ANY,
		.own_stamp	= net->incarnation,
		.max_queue_depth = net->queue_depth,
	};
	unsigned int len = min_t(unsigned int, ev->param.conn.private_data_len,
				 sizeof(struct kib_msg));
	struct rdma_conn_param param;
	struct kib_peer *peer;
	struct kib_conn *conn;
	char buf[LNET_NIDSTR_SIZE];
	struct kib_msg msg = { };
	__be32 src_addr = src->sin_family == AF_INET ? src->sin_addr.s_addr : 0;
	bool over;
	u16 version;
	int why, rc;

	if (kib_require_privileged_port && src->sin_family == AF_INET &&
	    ntohs(src->sin_port) >= 1024) {
		pr_warn_ratelimited("connection from %pI4:%u refused: port not privileged\n",
				    &src->sin_addr, ntohs(src->sin_port));
		return kib_reject(cmid, NULL, KIB_MSG_VERSION, KIB_REJECT_FATAL);
	}
	if (ev->param.conn.private_data)
		memcpy(&msg, ev->param.conn.private_data, len);
	if (READ_ONCE(net->ni->state) == LNET_NI_STATE_UP && !net->dev_removed)
		lim.own_nid = lnet_ni_nid(net->ni);
	why = kib_connreq_check(&msg, len, &lim, &version);
	if (why) {
		pr_debug("connection request from %pI4 rejected: reason %d\n",
			 &src->sin_addr, why);
		return kib_reject(cmid, net, version, why);
	}

	/* first without making a peer: a flood of NIDs makes nothing */
	spin_lock_bh(&net->lock);
	over = kib_passive_over_limits_locked(net, msg.hdr.srcnid,
					      msg.hdr.srcstamp, src_addr);
	spin_unlock_bh(&net->lock);
	if (over)
		return kib_refuse_over_limits(cmid, net, version,
					      msg.hdr.srcnid);

	peer = kib_peer_find_or_create(net, msg.hdr.srcnid, GFP_KERNEL);
	if (!peer)
		return kib_reject(cmid, net, version, KIB_REJECT_NO_RESOURCES);

	spin_lock_bh(&net->lock);
	if (peer->incarnation && peer->incarnation != msg.hdr.srcstamp &&
	    !list_empty(&peer->conns)) {
		struct kib_conn *old, *tmp;

		/* the peer restarted: its old connections are dead */
		pr_info("%s restarted (new incarnation): closing its connections\n",
			kib_nid(peer->nid, buf));
		list_for_each_entry_safe(old, tmp, &peer->conns, list)
			kib_conn_close_locked(old, -ESTALE);
		peer->incarnation = 0;
		spin_unlock_bh(&net->lock);
		kib_peer_put(peer);
		return kib_reject(cmid, net, version, KIB_REJECT_CONN_STALE);
	}
	if (peer->connecting &&
	    kib_race_reject_incoming(peer->nid, lnet_ni_nid(net->ni)) &&
	    peer->races < KIB_MAX_CONN_RACES) {
		peer->races++;
		spin_unlock_bh(&net->lock);
		kib_peer_put(peer);
		pr_debug("%s: connection race, keeping ours\n",
			 kib_nid(msg.hdr.srcnid, buf));
		return kib_reject(cmid, net, version, KIB_REJECT_CONN_RACE);
	}
	peer->races = 0;
	spin_unlock_bh(&net->lock);

	conn = kib_conn_alloc(net, peer, false, GFP_KERNEL);
	kib_peer_put(peer);	/* the conn has its own */
	if (!conn)
		return kib_reject(cmid, net, version, KIB_REJECT_NO_RESOURCES);
	INIT_WORK(&conn->close_work, kib_conn_close_work);
	INIT_WORK(&conn->deferred_rx_work, kib_deferred_rx_work);
	conn->cmid = cmid;
	conn->src_addr = src_addr;
	conn->version = version;
	conn->queue_depth = msg.u.connparams.queue_depth;
	conn->max_frags = msg.u.connparams.max_frags;
	conn->peer_stamp = msg.hdr.srcstamp;

	mutex_lock(&conn->teardown_mutex);
	rc = kib_conn_setup_qp(conn);
	if (rc) {
		kib_passive_abandon(conn);
		mutex_unlock(&conn->teardown_mutex);
		kib_conn_put(conn);
		return kib_reject(cmid, net, version, KIB_REJECT_NO_RESOURCES);
	}
	spin_lock_bh(&net->lock);
	/* again, counting the requests accepted meanwhile: this one decides */
	over = kib_passive_over_limits_locked(net, peer->nid,
					      msg.hdr.srcstamp, src_addr) ||
	       kib_test_refuse_locked(net);
	if (net->shutdown || net->dev_removed || peer->unhashed || over) {
		if (over)
			kib_peer_forget_idle_locked(peer);
		spin_unlock_bh(&net->lock);
		kib_passive_abandon(conn);
		mutex_unlock(&conn->teardown_mutex);
		kib_conn_put(conn);
		if (over)
			return kib_refuse_over_limits(cmid, net, version,
						      msg.hdr.srcnid);
		return kib_reject(cmid, net, version, KIB_REJECT_NO_RESOURCES);
	}
	/* the passive list lets shutdown and the reaper find it */
	list_add_tail(&conn->list, &peer->passive);
	conn->on_passive = true;
	net->npassive++;
	net->npassive_max = max(net->npassive, net->npassive_max);
	kib_set_state(conn, KIB_CONN_CONNECTING);
	spin_unlock_bh(&net->lock);
	cmid->context = &conn->cm;

	trace_ko2iblnd_accept(conn);
	kib_conn_pack_params(conn, &msg, KIB_MSG_CONNACK);
	kib_conn_param(&param, &msg);
	rc = rdma_accept(cmid, &param);
	if (rc) {
		pr_warn("%s: accept failed: %d\n",
			kib_nid(peer->nid, buf), rc);
		/* rdma_cm destroys the id when we return non-zero */
		kib_conn_release_qp(conn);
		conn->cmid_owned_by_cm = true;
		mutex_unlock(&conn->teardown_mutex);
		kib_conn_close(conn, rc);
		return 1;
	}
	mutex_unlock(&conn->teardown_mutex);
	return 0;
}

/* ---- rdma_cm events ----------------------------------------------------------------- */

static void kib_listener_removed(struct kib_net *net);

static int kib_conn_device_removal(struct kib_conn *conn)
{
	int destroy;

	mutex_lock(&conn->teardown_mutex);
	kib_conn_release_qp(conn);
	destroy = !conn->cmid_destroying;
	if (destroy)
		conn->cmid_owned_by_cm = true;
	mutex_unlock(&conn->teardown_mutex);
	kib_conn_close(conn, -ENODEV);
	return destroy;
}

static int kib_conn_cm_event(struct kib_conn *conn, struct rdma_cm_event *ev)
{
	char buf[LNET_NIDSTR_SIZE];
	int rc = 0;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (READ_ONCE(conn->state) == KIB_CONN_INIT)
			rc = rdma_resolve_route(conn->cmid,
						KIB_RESOLVE_TIMEOUT_MS);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		mutex_lock(&conn->teardown_mutex);
		if (READ_ONCE(conn->state) == KIB_CONN_INIT)
			rc = kib_active_route_resolved(conn);
		mutex_unlock(&conn->teardown_mutex);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		trace_ko2iblnd_conn_failed(conn, ev->event, ev->status);
		pr_info_ratelimited("%s: %s (%d)\n",
				    kib_nid(conn->peer->nid, buf),
				    rdma_event_msg(ev->event), ev->status);
		rc = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_REJECTED:
		kib_active_rejected(conn, ev);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (conn->active)
			rc = kib_active_established(conn, ev);
		else
			kib_conn_established(conn);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		kib_conn_close(conn, -ECONNRESET);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return kib_conn_device_removal(conn);
	default:
		break;	/* TIMEWAIT_EXIT, ADDR_CHANGE: nothing to do */
	}
	if (rc)
		kib_conn_close(conn, rc);
	return 0;	/* the id is destroyed by close_work */
}

int kib_cm_handler(struct rdma_cm_id *cmid, struct rdma_cm_event *ev)
{
	struct kib_cm_ctx *ctx = cmid->context;
	struct kib_net *net;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		/* a new id, with the listener's context */
		net = container_of(ctx, struct kib_net, cm);
		return kib_passive_connect(net, cmid, ev);
	}
	if (ctx->listener) {
		net = container_of(ctx, struct kib_net, cm);
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			kib_listener_removed(net);
		return 0;
	}
	return kib_conn_cm_event(container_of(ctx, struct kib_conn, cm), ev);
}

/* ---- the listener and the device ---------------------------------------------------- */

/* Close every peer of @net, failing what waits; @error for the messages. */
void kib_net_close_peers(struct kib_net *net, int error)
{
	struct kib_conn *conn, *ctmp;
	struct kib_peer *peer;
	struct hlist_node *tmp;
	LIST_HEAD(failed);
	int b;

	spin_lock_bh(&net->lock);
	hash_for_each_safe(net->peers, b, tmp, peer, hnode) {
		list_for_each_entry_safe(conn, ctmp, &peer->conns, list)
			kib_conn_close_locked(conn, error);
		list_for_each_entry_safe(conn, ctmp, &peer->passive, list)
			kib_conn_close_locked(conn, error);
		if (peer->connecting)
			kib_conn_close_locked(peer->connecting, error);
		list_splice_tail_init(&peer->tx_queue, &failed);
		kib_peer_unhash_locked(peer);
	}
#ifdef LNET_KUNIT
	list_for_each_entry_safe(conn, ctmp, &net->flood_conns, list)
		kib_conn_close_locked(conn, error);
#endif
	spin_unlock_bh(&net->lock);
	kib_txlist_done(&failed, error, kib_close_hstatus(error));
}

/*
 * The RDMA device went (rdma link delete): release everything of it. The
 * NI stays up, so send() goes on being called: senders are stopped first
 * (kib_send() fails with -ENETDOWN from then on), and the pool and the PD
 * go only once every tx, a sender's in flight included, is back. The
 * listener id is destroyed last, so rdma_cm's removal waits for us.
 */
static void kib_dev_work(struct work_struct *work)
{
	struct kib_net *net = container_of(work, struct kib_net, dev_work);

	kib_pool_stop(net);
	kib_net_close_peers(net, -ENODEV);
	wait_event(kib_data.waitq, !atomic_read(&net->nconns) &&
		   !atomic_read(&net->npeers));
	kib_pool_close(net);
	kib_pool_fini(net);
	ib_dealloc_pd(net->pd);
	net->pd = NULL;
	rdma_destroy_id(net->listener);
	net->listener = NULL;
	pr_info("%s: RDMA device gone, NI is down\n", net->ifname);
}

static void kib_listener_removed(struct kib_net *net)
{
	bool shutdown;

	spin_lock_bh(&net->lock);
	shutdown = net->shutdown;
	if (!shutdown)
		net->dev_removed = true;
	spin_unlock_bh(&net->lock);
	/*
	 * When shutting down, kib_shutdown() releases the device itself.
	 * Not on kib_wq: the release waits for work queued there.
	 */
	if (!shutdown)
		queue_work(system_long_wq, &net->dev_work);
}

/**
 * kib_listen() - the NI's listener, device and protection domain
 * @net: the net; its ip is set
 *
 * Binding the listener to the NI's address finds the RDMA device behind
 * the interface. The listener listens once the caller has the tx pool.
 *
 * Return: 0 or -errno (-ENODEV: no RDMA device on the interface).
 */
int kib_listen(struct kib_net *net)
{
	struct sockaddr_in sin = {
		.sin_family	 = AF_INET,
		.sin_port	 = htons(kib_service),
		.sin_addr.s_addr = net->ip,
	};
	struct rdma_cm_id *cmid;
	struct ib_device *dev;
	int rc;

	INIT_WORK(&net->dev_work, kib_dev_work);
	net->cm.listener = true;
	cmid = rdma_create_id(&init_net, kib_cm_handler, &net->cm, RDMA_PS_TCP,
			      IB_QPT_RC);
	if (IS_ERR(cmid))
		return PTR_ERR(cmid);
	rc = rdma_bind_addr(cmid, (struct sockaddr *)&sin);
	if (rc) {
		pr_err("cannot bind %pI4:%d: %d\n", &net->ip,
		       kib_service, rc);
		goto fail;
	}
	dev = cmid->device;
	if (!dev) {
		pr_err("no RDMA device on %s (rdma link add ... netdev %s?)\n",
		       net->ifname, net->ifname);
		rc = -ENODEV;
		goto fail;
	}
	if (!(dev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS) ||
	    dev->attrs.max_fast_reg_page_list_len < KIB_MAX_RDMA_FRAGS) {
		pr_err("%s: no fast registration of %d pages\n",
		       dev_name(&dev->dev), KIB_MAX_RDMA_FRAGS);
		rc = -EOPNOTSUPP;
		goto fail;
	}
	net->ibdev = dev;
	net->max_sge = clamp(dev->attrs.max_send_sge, 1, 32);
	net->max_sge = max(net->max_sge, min(kib_wrq_sge,
					     dev->attrs.max_send_sge));
	net->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(net->pd)) {
		rc = PTR_ERR(net->pd);
		net->pd = NULL;
		goto fail;
	}
	net->listener = cmid;
	return 0;

fail:
	rdma_destroy_id(cmid);
	return rc;
}

int kib_listen_start(struct kib_net *net)
{
	return rdma_listen(net->listener, 256);
}

/* Shutdown: stop listening, close everything, give the device back. */
void kib_net_release(struct kib_net *net)
{
	bool removed;

	spin_lock_bh(&net->lock);
	net->shutdown = true;
	removed = net->dev_removed;
	spin_unlock_bh(&net->lock);

	if (removed) {
		flush_work(&net->dev_work);
		return;
	}
	/* no new passive connection after this; a running handler is done */
	rdma_destroy_id(net->listener);
	net->listener = NULL;
	/* a removal that raced with us found the listener gone: nothing queued */
	kib_net_close_peers(net, -ESHUTDOWN);
}

#ifdef LNET_KUNIT
/**
 * kib_test_flood() - test builds: a flood of connection requests
 * @n: how many
 * @same: all claiming our own NID (else NIDs of our net that are not
 *	  ours: our address + 1 .. + @n)
 *
 * To the first peer of the first NI that has a connection up, from our
 * own address, as a hostile node would send them - never to our own NID,
 * which an NI in recovery pings through itself. The connections are kept
 * on net->flood_conns, never used, until they close.
 *
 * Return: 0, or -ENOENT without such a peer.
 */
int kib_test_flood(int n, bool same)
{
	struct kib_peer *peer, *target = NULL;
	struct kib_conn *conn;
	struct kib_net *net;
	int b, i;

	mutex_lock(&kib_data.mutex);
	net = list_first_entry_or_null(&kib_data.nets, struct kib_net, list);
	if (!net) {
		mutex_unlock(&kib_data.mutex);
		return -ENOENT;
	}
	spin_lock_bh(&net->lock);
	hash_for_each(net->peers, b, peer, hnode)
		if (!list_empty(&peer->conns) &&
		    peer->nid != lnet_ni_nid(net->ni)) {
			target = peer;
			break;
		}
	for (i = 1; target && i <= n && !net->shutdown; i++) {
		conn = kib_conn_alloc(net, target, true, GFP_ATOMIC);
		if (!conn)
			break;
		conn->flood_nid = same ? lnet_ni_nid(net->ni) :
					 lnet_ni_nid(net->ni) + i;
		conn->version = target->version;
		conn->queue_depth = target->queue_depth;
		conn->max_frags = target->max_frags;
		conn->peer_stamp = target->incarnation;
		INIT_WORK(&conn->connect_work, kib_connect_work);
		INIT_WORK(&conn->close_work, kib_conn_close_work);
		INIT_WORK(&conn->deferred_rx_work, kib_deferred_rx_work);
		list_add_tail(&conn->list, &net->flood_conns);
		kib_conn_get(conn);
		queue_work(kib_data.wq, &conn->connect_work);
	}
	spin_unlock_bh(&net->lock);
	mutex_unlock(&kib_data.mutex);
	return target ? 0 : -ENOENT;
}
#endif

/* ---- the reaper ----------------------------------------------------------------------- */

#define KIB_REAP_BATCH	32

struct kib_reap {
	struct kib_conn	*keepalive[KIB_REAP_BATCH];
	int		n;
};

static bool kib_conn_expired(struct kib_conn *conn)
{
	return time_after(jiffies, conn->deadline);
}

static void kib_reap_peer_locked(struct kib_peer *peer, struct kib_reap *r)
{
	struct kib_conn *conn, *tmp;
	char buf[LNET_NIDSTR_SIZE];

	lockdep_assert_held(&peer->net->lock);
	list_for_each_entry_safe(conn, tmp, &peer->conns, list) {
		if (kib_conn_timed_out(conn)) {
			pr_warn("%s: messages timed out (%u s), closing\n",
				kib_nid(peer->nid, buf),
				kib_timeout_secs(peer->net));
			kib_conn_close_locked(conn, -ETIMEDOUT);
			continue;
		}
		if (kib_keepalive && r->n < KIB_REAP_BATCH &&
		    time_after(jiffies, READ_ONCE(conn->last_send) +
			       kib_keepalive * HZ)) {
			kib_conn_get(conn);
			r->keepalive[r->n++] = conn;
		}
	}
	list_for_each_entry_safe(conn, tmp, &peer->passive, list)
		if (kib_conn_expired(conn))
			kib_conn_close_locked(conn, -ETIMEDOUT);
	conn = peer->connecting;
	if (conn && kib_conn_expired(conn)) {
		pr_info("%s: connect timed out\n",
			kib_nid(peer->nid, buf));
		kib_conn_close_locked(conn, -ETIMEDOUT);
	}
	if (peer->reconnect_at && time_after_eq(jiffies, peer->reconnect_at) &&
	    !peer->connecting && list_empty(&peer->conns) &&
	    !list_empty(&peer->tx_queue))
		kib_peer_connect_locked(peer);
}

/* Once a second: time out connections and messages, send keepalives. */
void kib_reaper(struct work_struct *work)
{
	struct kib_reap r = { };
	struct kib_peer *peer;
	struct hlist_node *tmp;
	struct kib_net *net;
	int b, i;

	spin_lock_bh(&kib_data.nets_lock);
	list_for_each_entry(net, &kib_data.nets, list) {
		spin_lock(&net->lock);
		hash_for_each_safe(net->peers, b, tmp, peer, hnode)
			kib_reap_peer_locked(peer, &r);
		spin_unlock(&net->lock);
	}
	spin_unlock_bh(&kib_data.nets_lock);

	for (i = 0; i < r.n; i++) {
		kib_check_sends(r.keepalive[i]);
		kib_conn_put(r.keepalive[i]);
	}
	queue_delayed_work(kib_data.wq, &kib_data.reaper, HZ);
}
