// SPDX-License-Identifier: GPL-2.0
/*
 * Sending: the tx pool, the send() operation (IMMEDIATE, PUT_REQ, GET_REQ:
 * Documentation/wire/o2iblnd.md, "Message types", "Sequences"), credits
 * and the posting of work requests ("Credits"), fast registration of sink
 * buffers and the RDMA writes of source buffers.
 *
 * Every message leaves through kib_check_sends(): credit-free messages
 * (NOOP, PUT_ACK, PUT_NAK, PUT_DONE, GET_DONE) first, then those that
 * take a credit (IMMEDIATE, and PUT_REQ/GET_REQ once they also hold a
 * reserved credit), never more than concurrent_sends posted at once. A
 * posted message carries the credits we owe the peer. Sink buffers are
 * registered with a REG_MR work request chained before the message that
 * advertises them and invalidated (LOCAL_INV) before the LNet message
 * completes; sources are written with RDMA WRITEs chained before the
 * PUT_DONE/GET_DONE that tells the peer they landed (RC ordering).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>
#include "o2iblnd.h"
#include "o2iblnd_trace.h"

#define KIB_MAX_RDMA_WRS	16	/* per transfer */
#define KIB_MAX_NOOPS		2	/* in flight: the peer's spare buffers */

/* ---- the pool ------------------------------------------------------------------ */

static void kib_tx_send_done(struct ib_cq *cq, struct ib_wc *wc);
static void kib_tx_inv_done(struct ib_cq *cq, struct ib_wc *wc);
static void kib_tx_unsig_done(struct ib_cq *cq, struct ib_wc *wc);

static void kib_tx_release(struct kib_tx *tx);

/*
 * A registration that was posted but never seen invalidated (its
 * connection died first, or its LOCAL_INV was skipped or failed) may
 * still let a peer write: the PD is shared by every QP of the NI and
 * rkeys are easy to guess. Such a tx is deregistered here, which kills the
 * registration whatever the device did with the flushed work requests;
 * only then is its buffer unmapped and its LNet message finalized.
 */
static void kib_pool_renew_mrs(struct work_struct *work)
{
	struct kib_net *net = container_of(work, struct kib_net, stale_work);
	struct kib_tx *tx, *tmp;
	LIST_HEAD(stale);
	int rc;

	spin_lock_bh(&net->pool_lock);
	list_splice_init(&net->stale_txs, &stale);
	spin_unlock_bh(&net->pool_lock);

	list_for_each_entry_safe(tx, tmp, &stale, list) {
		list_del_init(&tx->list);
		rc = ib_dereg_mr(tx->mr);
		/* the device failed to drop it: nothing safer can be done */
		WARN_ONCE(rc, "cannot deregister a sink MR: %d\n", rc);
		atomic64_inc(&net->stats.sinks_deregistered);
		tx->mr_valid = false;
		tx->mr = ib_alloc_mr(net->pd, IB_MR_TYPE_MEM_REG,
				     KIB_MAX_RDMA_FRAGS);
		if (IS_ERR(tx->mr)) {
			pr_warn_ratelimited("cannot renew an MR: %ld\n",
					    PTR_ERR(tx->mr));
			tx->mr = NULL;	/* this tx sends, never registers */
		}
		if (tx->lntmsg[0] || tx->lntmsg[1])
			atomic64_inc(&net->stats.finalized_after_dereg);
		kib_tx_release(tx);
	}
}

int kib_pool_init(struct kib_net *net)
{
	struct ib_device *dev = net->ibdev;
	int i;

	spin_lock_init(&net->pool_lock);
	INIT_LIST_HEAD(&net->free_txs);
	INIT_LIST_HEAD(&net->stale_txs);
	INIT_WORK(&net->stale_work, kib_pool_renew_mrs);
	net->txs = kvcalloc(net->pool_size, sizeof(*net->txs), GFP_KERNEL);
	if (!net->txs)
		return -ENOMEM;
	for (i = 0; i < net->pool_size; i++) {
		struct kib_tx *tx = &net->txs[i];

		tx->net = net;
		tx->send_cqe.done = kib_tx_send_done;
		tx->inv_cqe.done = kib_tx_inv_done;
		tx->unsig_cqe.done = kib_tx_unsig_done;
		tx->msg = kmalloc(KIB_MSG_SIZE, GFP_KERNEL);
		tx->sg = kcalloc(KIB_MAX_RDMA_FRAGS, sizeof(*tx->sg),
				 GFP_KERNEL);
		if (!tx->msg || !tx->sg)
			goto fail;
		tx->msg_dma = ib_dma_map_single(dev, tx->msg, KIB_MSG_SIZE,
						DMA_TO_DEVICE);
		if (ib_dma_mapping_error(dev, tx->msg_dma)) {
			tx->msg_dma = 0;
			goto fail;
		}
		tx->mr = ib_alloc_mr(net->pd, IB_MR_TYPE_MEM_REG,
				     KIB_MAX_RDMA_FRAGS);
		if (IS_ERR(tx->mr)) {
			tx->mr = NULL;
			goto fail;
		}
		net->ntx++;
		list_add_tail(&tx->list, &net->free_txs);
	}
	return 0;

fail:
	kib_pool_fini(net);
	return -ENOMEM;
}

void kib_pool_fini(struct kib_net *net)
{
	int i;

	if (!net->txs)
		return;
	/* every tx is back (kib_pool_close()), so none is stale any more */
	flush_work(&net->stale_work);
	WARN_ON_ONCE(!list_empty(&net->stale_txs));
	for (i = 0; i < net->pool_size; i++) {
		struct kib_tx *tx = &net->txs[i];

		if (tx->mr)
			ib_dereg_mr(tx->mr);
		if (tx->msg_dma)
			ib_dma_unmap_single(net->ibdev, tx->msg_dma,
					    KIB_MSG_SIZE, DMA_TO_DEVICE);
		kfree(tx->sg);
		kfree(tx->msg);
	}
	kvfree(net->txs);
	net->txs = NULL;
	net->ntx = 0;
	INIT_LIST_HEAD(&net->free_txs);
}

/* kib_tx_get() fails from now on. */
void kib_pool_stop(struct kib_net *net)
{
	spin_lock_bh(&net->pool_lock);
	WRITE_ONCE(net->pool_closed, true);
	spin_unlock_bh(&net->pool_lock);
}

/**
 * kib_pool_close() - take no more txs from @net's pool, wait for all of them
 * @net: the net; its connections and peers are gone or going
 *
 * kib_tx_get() fails from now on, so a sender that comes late gets an
 * error instead of a descriptor of a pool about to be freed; a sender
 * already holding one finishes with it (its launch fails) and gives it
 * back; a stale sink is deregistered first. After this no tx is in use and
 * none can be taken: the pool, the device's MRs and the PD may go.
 *
 * Context: process; sleeps.
 */
void kib_pool_close(struct kib_net *net)
{
	kib_pool_stop(net);
	while (!wait_event_timeout(kib_data.waitq,
				   !READ_ONCE(net->ntx_out), 10 * HZ))
		pr_info("%s: waiting for %d tx descriptors\n", net->ifname,
			READ_ONCE(net->ntx_out));
	flush_work(&net->stale_work);
}

struct kib_tx *kib_tx_get(struct kib_net *net)
{
	struct kib_tx *tx = NULL;

	spin_lock_bh(&net->pool_lock);
	if (!net->pool_closed)
		tx = list_first_entry_or_null(&net->free_txs, struct kib_tx,
					      list);
	if (tx) {
		list_del_init(&tx->list);
		tx->cookie = ++net->next_cookie;
		net->ntx_out++;
	}
	spin_unlock_bh(&net->pool_lock);
	if (!tx)
		return NULL;

	tx->conn = NULL;
	tx->queued = false;
	tx->sending = 0;
	tx->waiting = false;
	tx->rsrvd = false;
	tx->noop = false;
	tx->status = 0;
	tx->hstatus = LNET_MSG_STATUS_OK;
	tx->peer_cookie = 0;
	tx->lntmsg[0] = NULL;
	tx->lntmsg[1] = NULL;
	tx->nsg = 0;
	tx->reg_pending = false;
	tx->sink_nob = 0;
	tx->rdma_nob = 0;
	tx->rdma_status = 0;
	tx->nrdma_wrs = 0;
	tx->deadline = jiffies + kib_timeout_secs(net) * HZ;
	return tx;
}

/*
 * Back to the pool with its buffer unmapped, then its LNet messages
 * finalized with tx->status: by now no peer can write into a sink of it.
 */
static void kib_tx_release(struct kib_tx *tx)
{
	struct kib_net *net = tx->net;
	struct lnet_msg *msgs[2] = { tx->lntmsg[0], tx->lntmsg[1] };
	enum lnet_msg_status hstatus = tx->hstatus;
	int status = tx->status;
	int i;

	if (tx->nsg) {
		ib_dma_unmap_sg(net->ibdev, tx->sg, tx->nsg, tx->dma_dir);
		tx->nsg = 0;
	}
	kfree(tx->rdma_wrs);
	kfree(tx->rdma_sges);
	tx->rdma_wrs = NULL;
	tx->rdma_sges = NULL;
	tx->lntmsg[0] = NULL;
	tx->lntmsg[1] = NULL;
	if (tx->mr_valid && (msgs[0] || msgs[1]))
		atomic64_inc(&net->stats.finalized_mr_live);

	spin_lock_bh(&net->pool_lock);
	list_add(&tx->list, &net->free_txs);
	net->ntx_out--;
	spin_unlock_bh(&net->pool_lock);
	/* kib_pool_close() may free the pool once the last tx is back */
	wake_up_all(&kib_data.waitq);

	for (i = 0; i < 2; i++) {
		if (!msgs[i])
			continue;
		if (status && hstatus != LNET_MSG_STATUS_OK)
			lnet_msg_set_health(msgs[i], hstatus);
		lnet_finalize(msgs[i], status);
	}
}

/**
 * kib_tx_done() - a tx has nothing left to do: release it
 * @tx: off every list, no work request outstanding
 *
 * Finalizes its LNet messages with tx->status, at once if it holds no
 * registration, else once kib_pool_renew_mrs() has deregistered it: a
 * sink that could not be invalidated (the connection died, LOCAL_INV was
 * skipped or failed) must not outlive the message that owns the buffer.
 *
 * Context: any; no lock of ours held.
 */
void kib_tx_done(struct kib_tx *tx)
{
	struct kib_net *net = tx->net;

	WARN_ON_ONCE(tx->sending);
	tx->reg_pending = false;
	if (tx->conn) {
		kib_conn_put(tx->conn);
		tx->conn = NULL;
	}
	if (!tx->mr_valid) {
		kib_tx_release(tx);
		return;
	}
	/* queued before the tx can be seen back: kib_pool_close() flushes it */
	spin_lock_bh(&net->pool_lock);
	list_add_tail(&tx->list, &net->stale_txs);
	queue_work(kib_data.wq, &net->stale_work);
	spin_unlock_bh(&net->pool_lock);
}

/*
 * Fail every tx on @txs that has no status yet with @status and, unless
 * @hs is OK (let the core judge by the errno), health status @hs.
 */
void kib_txlist_done(struct list_head *txs, int status,
		     enum lnet_msg_status hs)
{
	struct kib_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, txs, list) {
		list_del_init(&tx->list);
		tx->sending = 0;
		tx->waiting = false;
		if (!tx->status) {
			tx->status = status;
			tx->hstatus = hs;
		}
		kib_tx_done(tx);
	}
}

void kib_tx_prep(struct kib_tx *tx, u8 type, unsigned int nob)
{
	tx->type = type;
	tx->msg->hdr.type = type;
	tx->msg->hdr.nob = nob;
}

/* ---- buffers: iterators to scatterlists, registration, RDMA --------------------------- */

static struct page *kib_kaddr_page(const void *addr)
{
	return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) :
				       virt_to_page(addr);
}

/*
 * One scatterlist entry per page piece of the first @nob bytes of @iter
 * (a kvec or bvec iterator over an MD). Return the entry count or
 * -EMSGSIZE.
 */
static int kib_iter_to_sg(const struct iov_iter *iter, unsigned int nob,
			  struct scatterlist *sg, int max)
{
	size_t skip = iter->iov_offset;
	unsigned long seg;
	int n = 0;

	sg_init_table(sg, max);
	for (seg = 0; seg < iter->nr_segs && nob; seg++) {
		const u8 *base = NULL;
		struct page *page = NULL;
		size_t len, off;

		if (iov_iter_is_kvec(iter)) {
			base = iter->kvec[seg].iov_base;
			len = iter->kvec[seg].iov_len;
			off = 0;
		} else if (iov_iter_is_bvec(iter)) {
			page = iter->bvec[seg].bv_page;
			len = iter->bvec[seg].bv_len;
			off = iter->bvec[seg].bv_offset;
		} else {
			return -EINVAL;
		}
		if (skip >= len) {
			skip -= len;
			continue;
		}
		off += skip;
		len = min_t(size_t, len - skip, nob);
		skip = 0;
		while (len) {
			size_t in_page, chunk;
			struct page *p;

			if (base) {
				p = kib_kaddr_page(base + off);
				in_page = offset_in_page(base + off);
			} else {
				p = nth_page(page, off >> PAGE_SHIFT);
				in_page = offset_in_page(off);
			}
			chunk = min_t(size_t, len, PAGE_SIZE - in_page);
			if (n == max)
				return -EMSGSIZE;
			sg_set_page(&sg[n++], p, chunk, in_page);
			off += chunk;
			len -= chunk;
			nob -= chunk;
		}
	}
	if (nob || !n)
		return -EMSGSIZE;
	sg_mark_end(&sg[n - 1]);
	return n;
}

static int kib_tx_map(struct kib_tx *tx, struct iov_iter *iter,
		      unsigned int nob, enum dma_data_direction dir)
{
	int n;

	n = kib_iter_to_sg(iter, nob, tx->sg, KIB_MAX_RDMA_FRAGS);
	if (n < 0)
		return n;
	tx->dma_dir = dir;
	tx->nsg_dma = ib_dma_map_sg(tx->net->ibdev, tx->sg, n, dir);
	if (!tx->nsg_dma)
		return -ENOMEM;
	/* unmap takes the count given to map, not the mapped count */
	tx->nsg = n;
	return 0;
}

/**
 * kib_tx_map_sink() - fast-register a buffer the peer will RDMA into
 * @tx: the tx whose message advertises it (PUT_ACK or GET_REQ)
 * @iter: the buffer
 * @rd: the descriptor to fill: one fragment, as FRWR users send it
 *
 * The REG_MR work request is posted with the message; the registration
 * ends with the LOCAL_INV of kib_tx_complete_reply(), or with the MR when
 * the connection dies first (kib_pool_renew_mrs()); the LNet message
 * completes only after either.
 *
 * Return: 0, -EMSGSIZE (too many pieces) or -EINVAL (a buffer whose middle
 * pieces are not whole pages: FRWR cannot map gaps).
 */
int kib_tx_map_sink(struct kib_tx *tx, struct iov_iter *iter,
		    struct kib_rdma_desc *rd)
{
	unsigned int nob = iov_iter_count(iter);
	struct ib_mr *mr = tx->mr;
	int rc, mapped;

	if (!mr || WARN_ON_ONCE(tx->mr_valid))
		return -ENOMEM;
	rc = kib_tx_map(tx, iter, nob, DMA_FROM_DEVICE);
	if (rc)
		return rc;
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	mapped = ib_map_mr_sg(mr, tx->sg, tx->nsg_dma, NULL, PAGE_SIZE);
	if (mapped != tx->nsg_dma)
		return mapped < 0 ? mapped : -EINVAL;

	memset(&tx->reg_wr, 0, sizeof(tx->reg_wr));
	tx->reg_wr.wr.opcode = IB_WR_REG_MR;
	tx->reg_wr.wr.wr_cqe = &tx->unsig_cqe;
	tx->reg_wr.mr = mr;
	tx->reg_wr.key = mr->rkey;
	tx->reg_wr.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	tx->reg_pending = true;

	tx->sink_nob = mr->length;
	rd->key = mr->rkey;
	rd->nfrags = 1;
	rd->frags[0].addr = mr->iova;
	rd->frags[0].nob = mr->length;
	return 0;
}

/**
 * kib_tx_rdma_prep() - the RDMA WRITEs of @nob bytes of @src into @rd
 * @tx: the tx that will send PUT_DONE or GET_DONE after them
 * @src: the source buffer
 * @rd: the peer's sink, validated by kib_msg_unpack() (host order)
 * @nob: bytes to write
 *
 * Each write covers one piece of one sink fragment with up to the
 * device's SGEs of the (DMA-mapped, unregistered) source.
 *
 * Return: 0 or -errno; then nothing is written and the completion
 * message carries the error.
 */
int kib_tx_rdma_prep(struct kib_tx *tx, struct iov_iter *src,
		     const struct kib_rdma_desc *rd, unsigned int nob)
{
	struct kib_net *net = tx->net;
	u32 lkey = net->pd->local_dma_lkey;
	struct scatterlist *sg;
	unsigned int sg_off = 0, frag = 0, frag_off = 0, done = 0;
	int nwr = 0, nsge = 0, i, rc, max_sges;
	u64 total = 0;			/* the peer's lengths may wrap a u32 */

	if (!nob)
		return 0;
	for (i = 0; i < rd->nfrags; i++)
		total += rd->frags[i].nob;
	if (total < nob)
		return -EMSGSIZE;

	rc = kib_tx_map(tx, src, nob, DMA_TO_DEVICE);
	if (rc)
		return rc;
	max_sges = tx->nsg_dma + rd->nfrags;
	tx->rdma_wrs = kcalloc(KIB_MAX_RDMA_WRS, sizeof(*tx->rdma_wrs),
			       GFP_ATOMIC);
	tx->rdma_sges = kcalloc(max_sges, sizeof(*tx->rdma_sges), GFP_ATOMIC);
	if (!tx->rdma_wrs || !tx->rdma_sges)
		return -ENOMEM;

	sg = tx->sg;
	while (done < nob) {
		struct ib_rdma_wr *wr;
		unsigned int room;

		while (frag < rd->nfrags && frag_off == rd->frags[frag].nob) {
			frag++;
			frag_off = 0;
		}
		if (frag == rd->nfrags || nwr == KIB_MAX_RDMA_WRS)
			return -EMSGSIZE;
		wr = &tx->rdma_wrs[nwr++];
		wr->wr.opcode = IB_WR_RDMA_WRITE;
		wr->wr.wr_cqe = &tx->unsig_cqe;
		wr->wr.sg_list = &tx->rdma_sges[nsge];
		wr->remote_addr = rd->frags[frag].addr + frag_off;
		wr->rkey = rd->key;
		room = rd->frags[frag].nob - frag_off;

		while (room && done < nob && wr->wr.num_sge < net->max_sge) {
			struct ib_sge *sge = &tx->rdma_sges[nsge];
			unsigned int len = min3(sg_dma_len(sg) - sg_off, room,
						nob - done);

			if (nsge == max_sges)
				return -EMSGSIZE;
			sge->addr = sg_dma_address(sg) + sg_off;
			sge->length = len;
			sge->lkey = lkey;
			nsge++;
			wr->wr.num_sge++;
			sg_off += len;
			frag_off += len;
			room -= len;
			done += len;
			if (sg_off == sg_dma_len(sg) && done < nob) {
				sg = sg_next(sg);
				sg_off = 0;
			}
		}
		if (nwr > 1)
			tx->rdma_wrs[nwr - 2].wr.next = &wr->wr;
	}
	tx->nrdma_wrs = nwr;
	tx->rdma_nob = nob;
	return 0;
}

/* ---- queueing and posting ---------------------------------------------------------- */

static bool kib_type_takes_credit(u8 type)
{
	return type == KIB_MSG_IMMEDIATE || type == KIB_MSG_PUT_REQ ||
	       type == KIB_MSG_GET_REQ;
}

/*
 * Queue @tx on @conn; false if @conn is closing: close_work may have
 * collected its queues already, so the caller fails the tx instead.
 */
bool kib_queue_tx_locked(struct kib_conn *conn, struct kib_tx *tx)
{
	lockdep_assert_held(&conn->lock);
	if (conn->state >= KIB_CONN_CLOSING)
		return false;
	if (!tx->conn) {
		kib_conn_get(conn);
		tx->conn = conn;
	}
	tx->queued = true;
	tx->deadline = jiffies + kib_timeout_secs(conn->net) * HZ;
	if (!kib_type_takes_credit(tx->type))
		list_add_tail(&tx->list, &conn->tx_noops);
	else if (tx->type == KIB_MSG_IMMEDIATE)
		list_add_tail(&tx->list, &conn->tx_queue);
	else
		list_add_tail(&tx->list, &conn->tx_queue_rsrvd);
	return true;
}

void kib_queue_tx(struct kib_conn *conn, struct kib_tx *tx)
{
	bool queued;

	spin_lock_bh(&conn->lock);
	queued = kib_queue_tx_locked(conn, tx);
	spin_unlock_bh(&conn->lock);
	if (!queued) {
		tx->waiting = false;
		tx->status = tx->status ?: -ECONNABORTED;
		kib_tx_done(tx);
	}
}

static bool kib_keepalive_due(struct kib_conn *conn)
{
	return kib_keepalive &&
	       time_after(jiffies, conn->last_send + kib_keepalive * HZ);
}

/* "Credits": a NOOP only when nothing else can carry the credits back. */
static bool kib_need_noop_locked(struct kib_conn *conn)
{
	lockdep_assert_held(&conn->lock);
	if (conn->nnoops_posted >= KIB_MAX_NOOPS ||
	    !list_empty(&conn->tx_noops))
		return false;
	if (!list_empty(&conn->tx_queue) && conn->credits > 0)
		return false;
	return conn->outstanding_credits >= conn->credits_hiw ||
	       kib_keepalive_due(conn);
}

static int kib_post_tx_locked(struct kib_conn *conn, struct kib_tx *tx,
			      bool credit)
{
	struct kib_net *net = conn->net;
	struct ib_send_wr *first, **link = &first;
	unsigned int nob = tx->msg->hdr.nob;
	int carried = conn->outstanding_credits;
	int rc;

	lockdep_assert_held(&conn->lock);
	if (credit)
		conn->credits--;
	kib_msg_pack(tx->msg, tx->type, nob, conn->version,
		     carried, lnet_ni_nid(net->ni),
		     net->incarnation, conn->peer->nid, conn->peer_stamp);
	ib_dma_sync_single_for_device(net->ibdev, tx->msg_dma, nob,
				      DMA_TO_DEVICE);

	if (tx->reg_pending) {
		tx->reg_wr.wr.next = NULL;
		*link = &tx->reg_wr.wr;
		link = &tx->reg_wr.wr.next;
	}
	if (tx->nrdma_wrs) {
		tx->rdma_wrs[tx->nrdma_wrs - 1].wr.next = NULL;
		*link = &tx->rdma_wrs[0].wr;
		link = &tx->rdma_wrs[tx->nrdma_wrs - 1].wr.next;
	}
	tx->send_sge.addr = tx->msg_dma;
	tx->send_sge.length = nob;
	tx->send_sge.lkey = net->pd->local_dma_lkey;
	memset(&tx->send_wr, 0, sizeof(tx->send_wr));
	tx->send_wr.wr_cqe = &tx->send_cqe;
	tx->send_wr.sg_list = &tx->send_sge;
	tx->send_wr.num_sge = 1;
	tx->send_wr.opcode = IB_WR_SEND;
	tx->send_wr.send_flags = IB_SEND_SIGNALED;
	*link = &tx->send_wr;

	tx->queued = false;
	tx->sending++;
	tx->deadline = jiffies + kib_timeout_secs(net) * HZ;
	conn->nsends_posted++;
	if (tx->noop)
		conn->nnoops_posted++;
	list_move_tail(&tx->list, &conn->active_txs);

	if (tx->reg_pending) {
		/*
		 * Valid from here whether or not the post works: a partly
		 * posted chain may have registered it.
		 */
		tx->reg_pending = false;
		tx->mr_valid = true;
		tx->valid_rkey = tx->reg_wr.key;
		atomic64_inc(&net->stats.sinks_registered);
	}
	rc = ib_post_send(conn->qp, first, NULL);
	if (rc) {
		/* the QP is broken: close_work fails everything on it */
		tx->sending--;
		conn->nsends_posted--;
		if (tx->noop)
			conn->nnoops_posted--;
		tx->status = rc;
		return rc;
	}
	conn->outstanding_credits = 0;
	conn->last_send = jiffies;
	trace_ko2iblnd_tx_post(conn, tx, carried, credit);
	if (tx->nrdma_wrs) {
		/* posted: the work requests are the QP's now */
		tx->nrdma_wrs = 0;
	}
	return 0;
}

/**
 * kib_check_sends() - post what the credits and limits allow
 * @conn: the connection
 *
 * Context: any; takes conn->lock.
 */
void kib_check_sends(struct kib_conn *conn)
{
	struct kib_tx *tx, *noop = NULL;
	bool need_noop;
	int rc = 0;

	spin_lock_bh(&conn->lock);
	if (conn->state != KIB_CONN_ESTABLISHED) {
		spin_unlock_bh(&conn->lock);
		return;
	}
	while (conn->reserved_credits > 0 &&
	       !list_empty(&conn->tx_queue_rsrvd)) {
		tx = list_first_entry(&conn->tx_queue_rsrvd, struct kib_tx,
				      list);
		list_move_tail(&tx->list, &conn->tx_queue);
		conn->reserved_credits--;
		tx->rsrvd = true;
	}
	need_noop = kib_need_noop_locked(conn);
	spin_unlock_bh(&conn->lock);

	if (need_noop) {
		noop = kib_tx_get(conn->net);
		if (noop) {
			kib_tx_prep(noop, KIB_MSG_NOOP, KIB_MSG_HDR_NOB);
			noop->noop = true;
		}
	}

	spin_lock_bh(&conn->lock);
	if (noop && conn->state == KIB_CONN_ESTABLISHED &&
	    kib_need_noop_locked(conn) && kib_queue_tx_locked(conn, noop))
		noop = NULL;
	while (conn->state == KIB_CONN_ESTABLISHED &&
	       conn->nsends_posted < conn->max_sends) {
		bool credit;

		if (!list_empty(&conn->tx_noops)) {
			tx = list_first_entry(&conn->tx_noops, struct kib_tx,
					      list);
			credit = false;
		} else if (!list_empty(&conn->tx_queue) && conn->credits > 0) {
			tx = list_first_entry(&conn->tx_queue, struct kib_tx,
					      list);
			credit = true;
		} else {
			if (!list_empty(&conn->tx_queue))
				trace_ko2iblnd_credits_wait(conn,
					list_first_entry(&conn->tx_queue,
							 struct kib_tx,
							 list)->type, 0);
			break;
		}
		rc = kib_post_tx_locked(conn, tx, credit);
		if (rc)
			break;
	}
	spin_unlock_bh(&conn->lock);

	if (noop)
		kib_tx_done(noop);
	if (rc) {
		pr_warn_ratelimited("post failed: %d\n", rc);
		kib_conn_close(conn, rc);
	}
}

/* ---- completions -------------------------------------------------------------------- */

static bool kib_tx_idle_locked(struct kib_tx *tx)
{
	lockdep_assert_held(&tx->conn->lock);
	if (tx->sending || tx->waiting)
		return false;
	list_del_init(&tx->list);
	return true;
}

static void kib_tx_wc_error(struct kib_conn *conn, const struct ib_wc *wc,
			    const char *what)
{
	char buf[LNET_NIDSTR_SIZE];

	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_warn_ratelimited("%s: %s failed: %s\n",
				    lnet_nid2str(conn->peer->nid, buf,
						 sizeof(buf)),
				    what, ib_wc_status_msg(wc->status));
	kib_conn_close(conn, -EIO);
}

/*
 * A send of @tx completed in error: the peer dropped it (spec 3.2), unless
 * our own close for a link down flushed it, which is this side's drop.
 */
static void kib_tx_send_failed(struct kib_conn *conn, const struct ib_wc *wc,
			       struct kib_tx *tx)
{
	lockdep_assert_held(&conn->lock);
	if (wc->status == IB_WC_WR_FLUSH_ERR &&
	    READ_ONCE(conn->error) == -ENETDOWN) {
		tx->status = -ENETDOWN;
		tx->hstatus = LNET_MSG_STATUS_LOCAL_DROPPED;
	} else {
		tx->status = -EIO;
		tx->hstatus = LNET_MSG_STATUS_REMOTE_DROPPED;
	}
}

static void kib_tx_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_tx *tx = container_of(wc->wr_cqe, struct kib_tx, send_cqe);
	struct kib_conn *conn = tx->conn;
	bool idle;

	kib_conn_get(conn);
	spin_lock_bh(&conn->lock);
	tx->sending--;
	conn->nsends_posted--;
	if (tx->noop)
		conn->nnoops_posted--;
	if (wc->status != IB_WC_SUCCESS) {
		if (!tx->status)
			kib_tx_send_failed(conn, wc, tx);
		tx->waiting = false;	/* no reply will come */
	}
	idle = kib_tx_idle_locked(tx);
	spin_unlock_bh(&conn->lock);

	if (wc->status != IB_WC_SUCCESS)
		kib_tx_wc_error(conn, wc, "send");
	if (idle)
		kib_tx_done(tx);
	kib_check_sends(conn);
	kib_conn_put(conn);
}

static void kib_tx_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_tx *tx = container_of(wc->wr_cqe, struct kib_tx, inv_cqe);
	struct kib_conn *conn = tx->conn;
	bool idle;

	kib_conn_get(conn);
	spin_lock_bh(&conn->lock);
	tx->sending--;
	if (wc->status == IB_WC_SUCCESS) {
		tx->mr_valid = false;
		atomic64_inc(&tx->net->stats.sinks_invalidated);
	}
	idle = kib_tx_idle_locked(tx);
	spin_unlock_bh(&conn->lock);

	if (wc->status != IB_WC_SUCCESS)
		kib_tx_wc_error(conn, wc, "invalidate");
	if (idle)
		kib_tx_done(tx);
	kib_conn_put(conn);
}

/* Unsignaled work requests complete here only when they fail. */
static void kib_tx_unsig_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_tx *tx = container_of(wc->wr_cqe, struct kib_tx, unsig_cqe);

	if (wc->status != IB_WC_SUCCESS)
		kib_tx_wc_error(tx->conn, wc, "RDMA/registration");
}

/**
 * kib_tx_complete_reply() - the reply @tx waited for came (or won't)
 * @conn: its connection
 * @tx: on conn->active_txs, waiting
 * @status: for its LNet messages
 *
 * A sink registration is invalidated first: the LNet message completes
 * only once the peer can no longer write into the buffer (if the
 * LOCAL_INV cannot be posted or fails, kib_tx_done() deregisters the MR
 * before it completes the message).
 */
void kib_tx_complete_reply(struct kib_conn *conn, struct kib_tx *tx,
			   int status)
{
	bool idle;
	int rc;

	spin_lock_bh(&conn->lock);
	tx->waiting = false;
	if (status && !tx->status)
		tx->status = status;
	if (tx->mr_valid && conn->state == KIB_CONN_ESTABLISHED) {
		memset(&tx->inv_wr, 0, sizeof(tx->inv_wr));
		tx->inv_wr.opcode = IB_WR_LOCAL_INV;
		tx->inv_wr.wr_cqe = &tx->inv_cqe;
		tx->inv_wr.send_flags = IB_SEND_SIGNALED;
		tx->inv_wr.ex.invalidate_rkey = tx->valid_rkey;
		tx->sending++;
		rc = ib_post_send(conn->qp, &tx->inv_wr, NULL);
		if (rc)
			tx->sending--;
	}
	idle = kib_tx_idle_locked(tx);
	spin_unlock_bh(&conn->lock);
	if (idle)
		kib_tx_done(tx);
}

/* The active tx of @type that sent @cookie; NULL if none. */
struct kib_tx *kib_find_waiting_tx_locked(struct kib_conn *conn, u8 type,
					  u64 cookie)
{
	struct kib_tx *tx;

	lockdep_assert_held(&conn->lock);
	list_for_each_entry(tx, &conn->active_txs, list)
		if (tx->waiting && tx->type == type && tx->cookie == cookie)
			return tx;
	return NULL;
}

static void kib_tx_timed_out(struct kib_tx *tx, enum lnet_msg_status hs)
{
	if (tx->status || hs == LNET_MSG_STATUS_OK)
		return;
	tx->status = -ETIMEDOUT;
	tx->hstatus = hs;
}

/**
 * kib_conn_txs_timed_out() - @conn is closed for a timeout: blame each tx
 * @conn: the connection, not yet drained
 *
 * Where each tx was says whose fault its timeout is (spec 3.2): still
 * queued here, ours (LOCAL_TIMEOUT); posted and not completed, the
 * network's (NETWORK_TIMEOUT); sent and waiting for the peer's answer,
 * the peer's (REMOTE_TIMEOUT). Called before the drain, which would
 * otherwise call every posted tx a failed send (REMOTE_DROPPED).
 *
 * Context: net->lock held.
 */
void kib_conn_txs_timed_out(struct kib_conn *conn)
{
	struct list_head *queued[] = {
		&conn->tx_noops, &conn->tx_queue, &conn->tx_queue_rsrvd,
	};
	struct kib_tx *tx;
	int i;

	lockdep_assert_held(&conn->net->lock);
	spin_lock(&conn->lock);
	for (i = 0; i < ARRAY_SIZE(queued); i++)
		list_for_each_entry(tx, queued[i], list)
			kib_tx_timed_out(tx, LNET_MSG_STATUS_LOCAL_TIMEOUT);
	list_for_each_entry(tx, &conn->active_txs, list)
		kib_tx_timed_out(tx, tx->sending ?
				 LNET_MSG_STATUS_NETWORK_TIMEOUT :
				 tx->waiting ? LNET_MSG_STATUS_REMOTE_TIMEOUT :
				 LNET_MSG_STATUS_OK);
	spin_unlock(&conn->lock);
}
LNET_EXPORT_FOR_TEST(kib_conn_txs_timed_out);

/* Anything queued or awaiting its completion beyond its deadline? */
bool kib_conn_timed_out(struct kib_conn *conn)
{
	struct list_head *queues[] = {
		&conn->tx_noops, &conn->tx_queue, &conn->tx_queue_rsrvd,
		&conn->active_txs,
	};
	struct kib_tx *tx;
	bool late = false;
	int i;

	spin_lock(&conn->lock);
	for (i = 0; i < ARRAY_SIZE(queues) && !late; i++)
		list_for_each_entry(tx, queues[i], list)
			if (time_after_eq(jiffies, tx->deadline)) {
				late = true;
				break;
			}
	spin_unlock(&conn->lock);
	return late;
}

/* ---- send() ------------------------------------------------------------------------ */

/**
 * kib_launch_tx() - send @tx to @nid: now if connected, else once connected
 * @net: the net
 * @tx: prepared
 * @nid: the peer
 *
 * Context: any.
 */
void kib_launch_tx(struct kib_net *net, struct kib_tx *tx, lnet_nid_t nid)
{
	struct kib_conn *conn = NULL;
	struct kib_peer *peer;
	int error = 0;

	peer = kib_peer_find_or_create(net, nid, GFP_ATOMIC);
	if (!peer) {
		tx->status = -ENOMEM;
		kib_tx_done(tx);
		return;
	}
	spin_lock_bh(&net->lock);
	if (net->shutdown || net->dev_removed) {
		error = -ENETDOWN;
	} else if (peer->unhashed) {
		error = -EAGAIN;
	} else if (!list_empty(&peer->conns)) {
		conn = list_first_entry(&peer->conns, struct kib_conn, list);
		kib_conn_get(conn);
	} else {
		tx->deadline = jiffies + kib_timeout_secs(net) * HZ;
		list_add_tail(&tx->list, &peer->tx_queue);
		if (!peer->connecting && !peer->reconnect_at)
			kib_peer_connect_locked(peer);
	}
	spin_unlock_bh(&net->lock);
	kib_peer_put(peer);

	if (error == -EAGAIN) {
		/* the peer was being forgotten as we looked it up: again */
		kib_launch_tx(net, tx, nid);
		return;
	}
	if (error) {
		tx->status = error;
		kib_tx_done(tx);
		return;
	}
	if (conn) {
		kib_queue_tx(conn, tx);
		kib_check_sends(conn);
		kib_conn_put(conn);
	}
}

static int kib_send_immediate(struct kib_tx *tx, struct lnet_msg *msg)
{
	struct kib_immediate_msg *imm = &tx->msg->u.immediate;
	unsigned int nob = lnet_msg_len(msg);
	struct iov_iter from;

	lnet_hdr_to_nid4(lnet_msg_hdr(msg), &imm->hdr);
	if (nob) {
		lnet_msg_iter(msg, ITER_SOURCE, &from);
		if (copy_from_iter(imm->payload, nob, &from) != nob)
			return -EFAULT;
	}
	kib_tx_prep(tx, KIB_MSG_IMMEDIATE, KIB_IMMEDIATE_HDR_NOB + nob);
	tx->lntmsg[0] = msg;
	return 0;
}

static int kib_send_get_req(struct kib_tx *tx, struct lnet_ni *ni,
			    struct lnet_msg *msg)
{
	struct kib_getreq_msg *req = &tx->msg->u.getreq;
	const struct lnet_hdr *hdr = lnet_msg_hdr(msg);
	struct lnet_msg *reply;
	struct iov_iter sink;
	int rc;

	reply = lnet_create_reply_msg(ni, msg);
	if (!reply)
		return -EIO;
	lnet_msg_sink_iter(reply, hdr->msg.get.sink_length, &sink);
	if (!iov_iter_count(&sink)) {
		lnet_finalize(reply, -EIO);
		return -EIO;
	}
	rc = kib_tx_map_sink(tx, &sink, &req->rd);
	if (rc) {
		lnet_finalize(reply, rc);
		return rc;
	}
	lnet_hdr_to_nid4(hdr, &req->hdr);
	req->cookie = tx->cookie;
	kib_tx_prep(tx, KIB_MSG_GET_REQ, kib_msg_nob(KIB_MSG_GET_REQ, 1));
	tx->lntmsg[0] = msg;
	tx->lntmsg[1] = reply;
	tx->waiting = true;	/* for GET_DONE */
	return 0;
}

static int kib_send_put_req(struct kib_tx *tx, struct lnet_msg *msg)
{
	struct kib_putreq_msg *req = &tx->msg->u.putreq;

	lnet_hdr_to_nid4(lnet_msg_hdr(msg), &req->hdr);
	req->cookie = tx->cookie;
	kib_tx_prep(tx, KIB_MSG_PUT_REQ, kib_msg_nob(KIB_MSG_PUT_REQ, 0));
	tx->lntmsg[0] = msg;
	tx->waiting = true;	/* for PUT_ACK or PUT_NAK */
	return 0;
}

/* The REPLY of a GET that came as GET_REQ: RDMA it, then GET_DONE. */
static int kib_send_get_done(struct kib_net *net, struct kib_rx *rx,
			     struct lnet_msg *msg)
{
	struct kib_conn *conn = rx->conn;
	struct kib_getreq_msg *req = &rx->msg->u.getreq;
	unsigned int nob = lnet_msg_len(msg);
	struct kib_tx *tx;
	struct iov_iter src;
	int rc;

	tx = kib_tx_get(net);
	if (!tx) {
		kib_conn_close(conn, -ENOMEM);
		kib_rx_return(rx, false);
		return -ENOMEM;
	}
	lnet_msg_iter(msg, ITER_SOURCE, &src);
	rc = kib_tx_rdma_prep(tx, &src, &req->rd, nob);
	kib_tx_prep(tx, KIB_MSG_GET_DONE, KIB_COMPLETION_NOB);
	tx->msg->u.completion.cookie = req->cookie;
	tx->msg->u.completion.status = rc ?: nob + kib_test_done_extra;
	tx->status = rc;
	tx->lntmsg[0] = msg;
	if (rc) {
		/* nothing is written; GET_DONE carries the error */
		kfree(tx->rdma_wrs);
		tx->rdma_wrs = NULL;
		tx->nrdma_wrs = 0;
	}
	kib_queue_tx(conn, tx);
	kib_rx_return(rx, true);
	return 0;
}

int kib_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	struct kib_net *net = lnet_ni_data(ni);
	const struct lnet_hdr *hdr = lnet_msg_hdr(msg);
	unsigned int nob = lnet_msg_len(msg);
	struct kib_tx *tx;
	int rc;

	if (private)
		return kib_send_get_done(net, private, msg);

	tx = kib_tx_get(net);
	if (!tx) {
		if (READ_ONCE(net->pool_closed)) {
			/* the device went: the NI stays, sending fails */
			atomic64_inc(&net->stats.sends_refused);
			return -ENETDOWN;
		}
		pr_warn_ratelimited("out of tx descriptors (ntx=%d)\n",
				    net->pool_size);
		return -ENOMEM;
	}
	switch (hdr->type) {
	case LNET_MSG_GET:
		/* a router in between could not RDMA to our sink */
		if (lnet_msg_is_routed(msg) ||
		    KIB_IMMEDIATE_HDR_NOB + hdr->msg.get.sink_length <=
		    KIB_MSG_SIZE)
			rc = kib_send_immediate(tx, msg);
		else
			rc = kib_send_get_req(tx, ni, msg);
		break;
	case LNET_MSG_PUT:
	case LNET_MSG_REPLY:
		if (nob <= KIB_IMMEDIATE_MAX)
			rc = kib_send_immediate(tx, msg);
		else
			rc = kib_send_put_req(tx, msg);
		break;
	default:
		rc = kib_send_immediate(tx, msg);
		break;
	}
	if (rc) {
		tx->lntmsg[0] = NULL;
		tx->lntmsg[1] = NULL;
		tx->waiting = false;
		kib_tx_done(tx);
		return rc;
	}
	/* test builds: hold the tx for a while, as a preempted sender would */
	if (kib_test_send_delay_ms && preemptible())
		msleep(kib_test_send_delay_ms);
	kib_launch_tx(net, tx, msg->target.nid);
	return 0;
}
