// SPDX-License-Identifier: GPL-2.0
/*
 * The router role: forwarding messages addressed to other nodes
 * (Documentation/routing.md, "Forwarding").
 *
 * A message for another node is received whole into a router buffer
 * (store and forward), then sent on like any message: to its destination
 * if that is on one of our networks, else to the next gateway. Its header
 * goes on unchanged.
 *
 * Buffers come from pools per CPU partition: tiny (no payload), small (one
 * page) and large (LNET_MTU). A message also takes a router credit of the
 * peer that sent it, so that one busy neighbour cannot hold every buffer.
 * Short of either, it waits in FIFO order and its LND holds the payload
 * back (recv() is called later, "delayed"): the previous hop is slowed
 * down, nothing is dropped. Buffer and credit go back when the forwarded
 * send is finalized, straight to the next waiter.
 *
 * Pools, their waiters and the peers' router credits are under
 * lnet_core.net_lock. Calls into an LND for a waiter happen inside
 * lnet_core.lnd_srcu, entered before the waiter is taken off its queue,
 * so that lnet_ni_stop() (which drops an NI's waiters, then waits for the
 * grace period before its LND's shutdown()) never races with them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

static const int lnet_rtrpool_default[LNET_NRTRPOOLS] = { 2048, 16384, 1024 };
static const char * const lnet_rtrpool_name[LNET_NRTRPOOLS] = {
	"tiny", "small", "large"
};

int lnet_router_buffers[LNET_NRTRPOOLS];
LNET_EXPORT_FOR_TEST(lnet_router_buffers);
module_param_named(tiny_router_buffers, lnet_router_buffers[LNET_RTRPOOL_TINY],
		   int, 0444);
MODULE_PARM_DESC(tiny_router_buffers,
		 "router buffers for messages without payload, over all CPTs (0: 2048)");
module_param_named(small_router_buffers, lnet_router_buffers[LNET_RTRPOOL_SMALL],
		   int, 0444);
MODULE_PARM_DESC(small_router_buffers,
		 "one-page router buffers, over all CPTs (0: 16384)");
module_param_named(large_router_buffers, lnet_router_buffers[LNET_RTRPOOL_LARGE],
		   int, 0444);
MODULE_PARM_DESC(large_router_buffers,
		 "1 MiB router buffers, over all CPTs (0: 1024)");

static int lnet_peer_buffer_credits;
module_param_named(peer_buffer_credits, lnet_peer_buffer_credits, int, 0444);
MODULE_PARM_DESC(peer_buffer_credits,
		 "router buffers one peer's messages may hold at a time (0: the NI's peer_credits)");

struct lnet_rtrbuf {
	struct list_head	list;		/* pool->free */
	struct lnet_rtrpool	*pool;
	struct page		**pages;
	struct lnet_libmd	md;		/* last: md.bvec[] */
};

/*
 * A pool's counters, under net_lock: @credits is @nbuffers minus the
 * buffers in use minus the messages waiting. After a shrink, buffers in use
 * beyond @nbuffers are freed as they come back (@allocated counts them
 * until then), so the free list never holds more than @credits buffers.
 */
struct lnet_rtrpool {
	struct list_head	free;		/* struct lnet_rtrbuf */
	struct list_head	waiting;	/* struct lnet_msg, FIFO */
	unsigned int		npages;		/* per buffer */
	int			nbuffers;	/* what the pool is to have */
	int			allocated;	/* free or in use */
	int			credits;	/* below zero: waiters */
	int			min_credits;
};

/* [cpt][kind]; published under net_lock (and api_mutex) */
static struct lnet_rtrpool *lnet_rtrpools;
static struct lnet_rtrpool *lnet_rtrpools_building;	/* api_mutex */
static int lnet_rtrpool_ncpts;
static bool lnet_router_named_here;		/* api_mutex */

/*
 * Forwarding, and what the ping info says of it. Bring-up turns both on at
 * once. At run time (lnetctl set routing) a change reaches the nodes that
 * route through us gently, as a Lustre router's does: on, we forward at
 * once but go on saying RTE_DISABLED for lnet_router_status_delay(), the
 * time the nodes on each of our networks take to ping us there; off, we
 * say RTE_DISABLED at once, so that they stop sending through us, forward
 * what still comes for that long, and then stop once no router buffer is
 * in use, or after three times as long in any case.
 *
 * Written under api_mutex, read anywhere (READ_ONCE).
 */
static bool lnet_router_on;		/* forwarding */
static bool lnet_router_advertised;	/* the ping info says so */
static bool lnet_router_stopping;	/* off asked for; still forwarding */
static unsigned long lnet_router_since;	/* jiffies of the last set */

/* routes= named one of our NIDs as a gateway: we are a router. */
void lnet_router_named(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	lnet_router_named_here = true;
}

/* This node forwards messages for others. */
bool lnet_forwarding_enabled(void)
{
	return READ_ONCE(lnet_router_on);
}
LNET_EXPORT_FOR_TEST(lnet_forwarding_enabled);

/* Forwarding is what was asked for (routing show), stopping or not. */
bool lnet_routing_wanted(void)
{
	return READ_ONCE(lnet_router_on) && !READ_ONCE(lnet_router_stopping);
}
LNET_EXPORT_FOR_TEST(lnet_routing_wanted);

/* The ping info says this node routes (no RTE_DISABLED). */
bool lnet_router_advertised_now(void)
{
	return READ_ONCE(lnet_router_advertised);
}
LNET_EXPORT_FOR_TEST(lnet_router_advertised_now);

struct lnet_libmd *lnet_rtrbuf_md(struct lnet_rtrbuf *rb)
{
	return &rb->md;
}

/* Router credits of a new peer on @ni: the NI's, lnet's, its send credits */
int lnet_peer_rtr_credits(const struct lnet_ni *ni)
{
	if (ni->cfg_peer_rtr_credits > 0)
		return ni->cfg_peer_rtr_credits;
	return lnet_peer_buffer_credits > 0 ? lnet_peer_buffer_credits :
	       ni->peer_tx_credits;
}

static struct lnet_rtrpool *lnet_rtrpool_in(struct lnet_rtrpool *pools,
					    int cpt, int kind)
{
	return &pools[cpt * LNET_NRTRPOOLS + kind];
}

static struct lnet_rtrpool *lnet_rtrpool(int cpt, int kind)
{
	return lnet_rtrpool_in(READ_ONCE(lnet_rtrpools), cpt, kind);
}

static struct lnet_rtrpool *lnet_rtrpool_of(int cpt, unsigned int len)
{
	int kind = !len ? LNET_RTRPOOL_TINY :
		   len <= PAGE_SIZE ? LNET_RTRPOOL_SMALL : LNET_RTRPOOL_LARGE;

	if (cpt < 0 || cpt >= lnet_rtrpool_ncpts)
		cpt = 0;
	return lnet_rtrpool(cpt, kind);
}

/* ---- buffers -------------------------------------------------------------- */

static unsigned int lnet_rtrpool_npages(int kind)
{
	return kind == LNET_RTRPOOL_TINY ? 0 :
	       kind == LNET_RTRPOOL_SMALL ? 1 :
	       DIV_ROUND_UP(LNET_MTU, PAGE_SIZE);
}

/* @total buffers of @kind would take at most half the memory. */
static bool lnet_rtrpool_fits(int kind, int total)
{
	u64 each = sizeof(struct lnet_rtrbuf) +
		   lnet_rtrpool_npages(kind) * (sizeof(struct bio_vec) +
						sizeof(struct page *) +
						PAGE_SIZE);

	return (u64)total * each <= ((u64)totalram_pages() << PAGE_SHIFT) / 2;
}

static void lnet_rtrbuf_free(struct lnet_rtrbuf *rb)
{
	unsigned int i;

	for (i = 0; i < rb->md.niov; i++)
		__free_page(rb->pages[i]);
	kfree(rb->pages);
	kfree(rb);
}

/*
 * The default pools take about 1.1 GiB: on a node without that much, the
 * allocation fails (and forwarding is refused) rather than waking the OOM
 * killer.
 */
static struct lnet_rtrbuf *lnet_rtrbuf_alloc(struct lnet_rtrpool *pool,
					     int node)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	unsigned int i, npages = pool->npages;
	struct lnet_rtrbuf *rb;
	struct page *page;

	rb = kzalloc_node(struct_size(rb, md.bvec, npages), gfp, node);
	if (!rb)
		return NULL;
	rb->pool = pool;
	INIT_LIST_HEAD(&rb->list);
	if (!npages)
		return rb;
	rb->pages = kcalloc_node(npages, sizeof(*rb->pages), gfp, node);
	if (!rb->pages)
		goto fail;
	for (i = 0; i < npages; i++) {
		page = alloc_pages_node(node, gfp, 0);
		if (!page)
			goto fail;
		rb->pages[i] = page;
		bvec_set_page(&rb->md.bvec[i], page, PAGE_SIZE, 0);
		rb->md.niov = i + 1;
	}
	rb->md.length = npages * PAGE_SIZE;
	return rb;
fail:
	lnet_rtrbuf_free(rb);
	return NULL;
}

static void lnet_rtrpools_free(void)
{
	struct lnet_rtrpool *pool, *pools;
	struct lnet_rtrbuf *rb, *tmp;
	bool published;
	int i;

	spin_lock_bh(&lnet_core.net_lock);
	pools = lnet_rtrpools;
	lnet_rtrpools = NULL;
	spin_unlock_bh(&lnet_core.net_lock);
	published = pools;
	if (!pools)
		pools = lnet_rtrpools_building;	/* a failed allocation's */
	lnet_rtrpools_building = NULL;
	if (!pools)
		return;
	for (i = 0; i < lnet_rtrpool_ncpts * LNET_NRTRPOOLS; i++) {
		pool = &pools[i];
		/* every forwarded message is gone: all buffers are back */
		WARN_ON(published && !list_empty(&pool->waiting));
		WARN_ON(published && pool->credits != pool->nbuffers);
		list_for_each_entry_safe(rb, tmp, &pool->free, list)
			lnet_rtrbuf_free(rb);
	}
	kfree(pools);
}

/* Per CPT: total / CPTs buffers (at least 1); below minimum only warns. */
static int lnet_rtrpools_alloc(void)
{
	static const int minimum[LNET_NRTRPOOLS] = { 512, 4096, 256 };
	const char * const *name = lnet_rtrpool_name;
	int ncpts = lnet_cpt_number(), cpt, kind, i, total, each;
	struct lnet_rtrpool *pool;
	struct lnet_rtrbuf *rb;

	lnet_rtrpools_building = kcalloc(ncpts * LNET_NRTRPOOLS,
					 sizeof(*lnet_rtrpools), GFP_KERNEL);
	if (!lnet_rtrpools_building)
		return -ENOMEM;
	lnet_rtrpool_ncpts = ncpts;
	for (i = 0; i < ncpts * LNET_NRTRPOOLS; i++) {
		INIT_LIST_HEAD(&lnet_rtrpools_building[i].free);
		INIT_LIST_HEAD(&lnet_rtrpools_building[i].waiting);
	}
	for (kind = 0; kind < LNET_NRTRPOOLS; kind++) {
		total = lnet_router_buffers[kind] ?: lnet_rtrpool_default[kind];
		if (total < 0) {
			pr_err("%s_router_buffers=%d: a count of buffers is not negative\n",
			       name[kind], total);
			lnet_rtrpools_free();
			return -EINVAL;
		}
		if (total < minimum[kind])
			pr_warn("%s_router_buffers=%d is below the recommended %d\n",
				name[kind], total, minimum[kind]);
		each = max(total / ncpts, 1);
		for (cpt = 0; cpt < ncpts; cpt++) {
			pool = lnet_rtrpool_in(lnet_rtrpools_building, cpt,
					       kind);
			pool->npages = lnet_rtrpool_npages(kind);
			for (i = 0; i < each; i++) {
				rb = lnet_rtrbuf_alloc(pool,
						       lnet_cpt_node(cpt));
				if (!rb)
					goto fail;
				list_add_tail(&rb->list, &pool->free);
				pool->nbuffers++;
			}
			pool->allocated = pool->nbuffers;
			pool->credits = pool->nbuffers;
			pool->min_credits = pool->nbuffers;
		}
	}
	spin_lock_bh(&lnet_core.net_lock);
	lnet_rtrpools = lnet_rtrpools_building;
	spin_unlock_bh(&lnet_core.net_lock);
	lnet_rtrpools_building = NULL;
	return 0;
fail:
	pr_err("cannot allocate the %s router buffers (%s_router_buffers)\n",
	       name[kind], name[kind]);
	lnet_rtrpools_free();
	return -ENOMEM;
}

/**
 * lnet_router_start() - bring-up: become a router if configured to
 *
 * forwarding=enabled, or forwarding unset and routes= naming one of this
 * node's NIDs as a gateway. Called before the networks of the module
 * parameters come up and again after their routes; the caller then
 * rebuilds the ping info (no RTE_DISABLED from now on).
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_router_start(void)
{
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	if (lnet_router_on)
		return 0;
	if (strcmp(lnet_forwarding, "enabled") &&
	    (lnet_forwarding[0] || !lnet_router_named_here))
		return 0;
	rc = lnet_rtrpools_alloc();
	if (rc)
		return rc;
	WRITE_ONCE(lnet_router_on, true);
	WRITE_ONCE(lnet_router_advertised, true);
	lnet_router_status_start();
	pr_info("forwarding enabled\n");
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_router_start);

/* Shutdown, once every NI is down and every message gone. */
void lnet_router_stop(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	WRITE_ONCE(lnet_router_on, false);
	WRITE_ONCE(lnet_router_advertised, false);
	WRITE_ONCE(lnet_router_stopping, false);
	lnet_router_status_stop();
	lnet_router_named_here = false;
	lnet_rtrpools_free();
}

/* ---- credits and buffers of a forwarded message -------------------------- */

/*
 * Take @msg's router credit (once) and a buffer: true if it has both,
 * false if it now waits for one of them.
 */
static bool lnet_forward_take_locked(struct lnet_msg *msg)
{
	struct lnet_peer *peer = msg->rxpeer;
	struct lnet_rtrpool *pool = msg->rtrpool;

	lockdep_assert_held(&lnet_core.net_lock);
	if (!msg->rtr_credit) {
		msg->rtr_credit = 1;
		peer->rtr_credits--;
		peer->min_rtr_credits = min(peer->min_rtr_credits,
					    peer->rtr_credits);
		if (peer->rtr_credits < 0) {
			msg->rtr_wait_credit = 1;
			list_add_tail(&msg->list, &peer->rtr_queue);
			return false;
		}
	}
	pool->credits--;
	pool->min_credits = min(pool->min_credits, pool->credits);
	if (pool->credits < 0) {
		msg->rtr_wait_buf = 1;
		list_add_tail(&msg->list, &pool->waiting);
		return false;
	}
	msg->rtrbuf = list_first_entry(&pool->free, struct lnet_rtrbuf, list);
	list_del_init(&msg->rtrbuf->list);
	return true;
}

/* @msg has its buffer: let the LND receive the payload into it. */
static void lnet_forward_recv(struct lnet_msg *msg, bool delayed)
{
	lnet_ni_recv(msg->ni, msg->private, msg, delayed, msg->len, msg->len);
}

/**
 * lnet_forward_release() - give back a forwarded message's buffer and credit
 * @msg: a forwarded message, holding them or waiting for them
 *
 * What is handed on goes to the first waiter, whose payload is then
 * received. Idempotent.
 */
void lnet_forward_release(struct lnet_msg *msg)
{
	struct lnet_rtrpool *pool = msg->rtrpool;
	struct lnet_peer *peer = msg->rxpeer;
	struct lnet_rtrbuf *excess = NULL;
	struct lnet_msg *next, *tmp;
	LIST_HEAD(ready);
	int idx;

	if (!msg->rtr_credit)
		return;
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	spin_lock_bh(&lnet_core.net_lock);
	/* a waiter only cancels its debt; it has nothing to hand on */
	if (msg->rtr_wait_credit || msg->rtr_wait_buf)
		list_del_init(&msg->list);
	if (msg->rtrbuf || msg->rtr_wait_buf) {
		pool->credits++;
		next = list_first_entry_or_null(&pool->waiting,
						struct lnet_msg, list);
		if (msg->rtrbuf && pool->allocated > pool->nbuffers) {
			/* the pool shrank while this buffer was out */
			excess = msg->rtrbuf;
			pool->allocated--;
		} else if (msg->rtrbuf && next) {
			list_del_init(&next->list);
			next->rtr_wait_buf = 0;
			next->rtrbuf = msg->rtrbuf;
			list_add_tail(&next->list, &ready);
		} else if (msg->rtrbuf) {
			list_add(&msg->rtrbuf->list, &pool->free);
		}
	}
	peer->rtr_credits++;
	next = list_first_entry_or_null(&peer->rtr_queue, struct lnet_msg,
					list);
	if (!msg->rtr_wait_credit && next) {
		list_del_init(&next->list);
		next->rtr_wait_credit = 0;
		if (lnet_forward_take_locked(next))
			list_add_tail(&next->list, &ready);
	}
	msg->rtrbuf = NULL;
	msg->rtr_credit = 0;
	msg->rtr_wait_credit = 0;
	msg->rtr_wait_buf = 0;
	spin_unlock_bh(&lnet_core.net_lock);

	list_for_each_entry_safe(next, tmp, &ready, list) {
		list_del_init(&next->list);
		lnet_forward_recv(next, true);
	}
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	if (excess)
		lnet_rtrbuf_free(excess);
}

/*
 * Drop the forwarded messages waiting for a buffer or a router credit:
 * those that came in on @ni (all if NULL), and @credit_waiters (taken off
 * their peers' queues by the caller, or NULL: every peer's, here).
 */
static void lnet_forward_drop_waiters(struct lnet_ni *ni,
				      struct list_head *credit_waiters,
				      const char *why)
{
	struct lnet_rtrpool *pools;
	struct lnet_msg *msg, *tmp;
	struct lnet_peer *peer;
	LIST_HEAD(drop);
	int i, idx;

	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	spin_lock_bh(&lnet_core.net_lock);
	if (credit_waiters)
		list_splice_init(credit_waiters, &drop);
	else
		list_for_each_entry(peer, &lnet_core.peer_list, list)
			list_splice_tail_init(&peer->rtr_queue, &drop);
	pools = lnet_rtrpools;
	for (i = 0; pools && i < lnet_rtrpool_ncpts * LNET_NRTRPOOLS; i++)
		list_for_each_entry_safe(msg, tmp, &pools[i].waiting, list)
			if (!ni || msg->ni == ni)
				list_move_tail(&msg->list, &drop);
	spin_unlock_bh(&lnet_core.net_lock);

	list_for_each_entry_safe(msg, tmp, &drop, list) {
		list_del_init(&msg->list);
		lnet_forward_release(msg);
		lnet_drop_msg(msg, why);
	}
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
}

/**
 * lnet_router_ni_stop() - @ni is going down: drop its forwarded waiters
 * @ni: the NI, already marked down
 * @credit_waiters: messages that waited for a router credit of @ni's
 *	peers (lnet_peers_del_ni() took them off the peers)
 *
 * Called before @ni's LND is shut down, so their receives can still be
 * cancelled.
 */
void lnet_router_ni_stop(struct lnet_ni *ni, struct list_head *credit_waiters)
{
	lnet_forward_drop_waiters(ni, credit_waiters, "its NI is going down");
}

/* Every buffer is back in its pool and nothing waits for one. */
static bool lnet_rtrpools_idle(void)
{
	bool idle = true;
	int i;

	spin_lock_bh(&lnet_core.net_lock);
	for (i = 0; lnet_rtrpools && i < lnet_rtrpool_ncpts * LNET_NRTRPOOLS;
	     i++)
		if (lnet_rtrpools[i].credits != lnet_rtrpools[i].nbuffers)
			idle = false;
	spin_unlock_bh(&lnet_core.net_lock);
	return idle;
}

static void lnet_router_forwarding_off(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	WRITE_ONCE(lnet_router_on, false);
	WRITE_ONCE(lnet_router_stopping, false);
	lnet_router_status_clear();
	lnet_forward_drop_waiters(NULL, NULL, "forwarding turned off");
	pr_info("forwarding stopped\n");
}

/**
 * lnet_router_set() - turn forwarding on or off while LNet runs
 * @on: the new state
 *
 * On: the pools are allocated (module parameters' sizes) unless they
 * exist from before, and messages for other nodes are forwarded at once;
 * the ping info says so after lnet_router_status_delay() (see the top of
 * the file). Turning it on again while it stops cancels the stop.
 *
 * Off: the ping info says RTE_DISABLED at once; forwarding stops later
 * (lnet_router_settle()), and then messages for other nodes are dropped and
 * those waiting for a buffer or a credit at once; those being forwarded
 * finish. The pools stay until LNet goes down (a message being forwarded
 * still holds a buffer), and serve again if forwarding comes back.
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_router_set(bool on)
{
	unsigned long delay = lnet_router_status_delay();
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	if (on == lnet_routing_wanted())
		return 0;
	WRITE_ONCE(lnet_router_since, jiffies);
	if (on) {
		if (!lnet_rtrpools) {
			rc = lnet_rtrpools_alloc();
			if (rc)
				return rc;
		}
		if (!lnet_router_on) {
			WRITE_ONCE(lnet_router_on, true);
			lnet_router_status_start();
		}
		WRITE_ONCE(lnet_router_stopping, false);
		pr_info("forwarding enabled; the ping info says so in %lu s\n",
			delay / HZ);
		return 0;
	}
	WRITE_ONCE(lnet_router_stopping, true);
	WRITE_ONCE(lnet_router_advertised, false);
	pr_info("forwarding disabled: the ping info says so now, forwarding stops in %lu to %lu s\n",
		delay / HZ, 3 * delay / HZ);
	lnet_ping_target_update();
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_router_set);

/**
 * lnet_router_settle() - finish a change of lnet_router_set() when due
 *
 * Called once a second while forwarding (router-status.c).
 */
void lnet_router_settle(void)
{
	unsigned long delay = lnet_router_status_delay();
	unsigned long since = READ_ONCE(lnet_router_since);

	lockdep_assert_held(&lnet_core.api_mutex);
	if (!lnet_router_on || time_before(jiffies, since + delay))
		return;
	if (!lnet_router_stopping) {
		if (lnet_router_advertised)
			return;
		WRITE_ONCE(lnet_router_advertised, true);
		pr_info("the ping info says this node routes\n");
		lnet_ping_target_update();
		return;
	}
	if (lnet_rtrpools_idle() || time_after_eq(jiffies, since + 3 * delay))
		lnet_router_forwarding_off();
}

/* A change of lnet_router_set() is waiting for lnet_router_settle(). */
bool lnet_router_unsettled(void)
{
	return READ_ONCE(lnet_router_on) &&
	       (READ_ONCE(lnet_router_stopping) ||
		!READ_ONCE(lnet_router_advertised));
}

/* ---- resizing the pools at run time --------------------------------------- */

/*
 * @pool is to have @each buffers, and @spare holds enough new ones to make
 * up what it lacks: the counters change, waiters get what is free (onto
 * @ready, to receive once the lock is dropped) and free buffers beyond the
 * new size go to @spare. Buffers in use beyond it are freed as they come
 * back (lnet_forward_release()).
 */
static void lnet_rtrpool_commit_locked(struct lnet_rtrpool *pool, int each,
				       struct list_head *spare,
				       struct list_head *ready)
{
	struct lnet_rtrbuf *rb;
	struct lnet_msg *next;

	lockdep_assert_held(&lnet_core.net_lock);
	while (pool->allocated < each) {
		rb = list_first_entry(spare, struct lnet_rtrbuf, list);
		list_move(&rb->list, &pool->free);
		pool->allocated++;
	}
	pool->credits += each - pool->nbuffers;
	pool->nbuffers = each;
	while (pool->allocated > pool->nbuffers && !list_empty(&pool->free)) {
		list_move(pool->free.next, spare);
		pool->allocated--;
	}
	while (!list_empty(&pool->waiting) && !list_empty(&pool->free)) {
		next = list_first_entry(&pool->waiting, struct lnet_msg, list);
		list_del_init(&next->list);
		next->rtr_wait_buf = 0;
		next->rtrbuf = list_first_entry(&pool->free,
						struct lnet_rtrbuf, list);
		list_del_init(&next->rtrbuf->list);
		list_add_tail(&next->list, ready);
	}
}

/* One pool to @each buffers; -ENOMEM leaves it as it was. */
static int lnet_rtrpool_resize(struct lnet_rtrpool *pool, int each, int node)
{
	struct lnet_rtrbuf *rb, *tmp;
	struct lnet_msg *msg, *mtmp;
	int have = 0, need, idx;
	LIST_HEAD(spare);
	LIST_HEAD(ready);

	for (;;) {
		/* before a waiter leaves its queue (see the top of the file) */
		idx = srcu_read_lock(&lnet_core.lnd_srcu);
		spin_lock_bh(&lnet_core.net_lock);
		need = each - pool->allocated;
		if (need <= have) {
			lnet_rtrpool_commit_locked(pool, each, &spare, &ready);
			spin_unlock_bh(&lnet_core.net_lock);
			break;
		}
		spin_unlock_bh(&lnet_core.net_lock);
		srcu_read_unlock(&lnet_core.lnd_srcu, idx);
		/* buffers in use beyond the old size may come back meanwhile */
		for (; have < need; have++) {
			rb = lnet_rtrbuf_alloc(pool, node);
			if (!rb)
				goto fail;
			list_add(&rb->list, &spare);
		}
	}
	list_for_each_entry_safe(msg, mtmp, &ready, list) {
		list_del_init(&msg->list);
		lnet_forward_recv(msg, true);
	}
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
fail:
	list_for_each_entry_safe(rb, tmp, &spare, list)
		lnet_rtrbuf_free(rb);
	return have < need ? -ENOMEM : 0;
}

/**
 * lnet_router_resize() - new sizes for the router buffer pools
 * @totals: tiny, small and large buffers over all CPTs (each CPT's pool
 *	gets its share, at least 1); 0 leaves that kind as it is
 *
 * Like the module parameters, which take the new totals (the sizes of
 * pools made later, as when forwarding is turned on). A pool that grows
 * hands its new buffers to the messages waiting first; one that shrinks
 * frees its free buffers now and those in use when they come back.
 *
 * Return: 0, -EINVAL for a negative total, or -ENOMEM: a total whose
 * buffers would take more than half the memory is refused whole; a pool
 * that cannot grow keeps its old size (the CPTs before it have the new
 * one) and the parameter its old total.
 */
int lnet_router_resize(const int totals[LNET_NRTRPOOLS])
{
	int kind, cpt, each, rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	for (kind = 0; kind < LNET_NRTRPOOLS; kind++) {
		if (totals[kind] < 0)
			return -EINVAL;
		if (!lnet_rtrpool_fits(kind, totals[kind])) {
			pr_warn("%d %s router buffers would take more than half the memory: refused\n",
				totals[kind], lnet_rtrpool_name[kind]);
			return -ENOMEM;
		}
	}
	for (kind = 0; kind < LNET_NRTRPOOLS; kind++) {
		if (!totals[kind])
			continue;
		for (cpt = 0; lnet_rtrpools && cpt < lnet_rtrpool_ncpts;
		     cpt++) {
			each = max(totals[kind] / lnet_rtrpool_ncpts, 1);
			rc = lnet_rtrpool_resize(lnet_rtrpool(cpt, kind), each,
						 lnet_cpt_node(cpt));
			if (rc)
				return rc;
		}
		lnet_router_buffers[kind] = totals[kind];
	}
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_router_resize);

/* ---- the forwarding path --------------------------------------------------- */

/**
 * lnet_forward_parse() - a message for another node arrived on @ni
 * @ni: the NI it came in on
 * @hdr: its header (lnet_parse() checked it)
 * @from: the LND-level peer that sent it
 * @private: the LND's receive context
 *
 * Not a router: dropped. Else it waits for its router credit and buffer
 * if need be, and is received; lnet_forward_rx_done() sends it on.
 */
void lnet_forward_parse(struct lnet_ni *ni, const struct lnet_hdr *hdr,
			lnet_nid_t from, void *private)
{
	unsigned int len = hdr->payload_length;
	struct lnet_msg *msg;
	bool ready;

	if (!lnet_forwarding_enabled()) {
		lnet_drop_rx(ni, private, len, false,
			     "not for this node, which does not route");
		return;
	}
	msg = lnet_msg_alloc(GFP_NOFS);
	if (!msg) {
		lnet_drop_rx(ni, private, len, false, "no memory");
		return;
	}
	msg->hdr = *hdr;
	msg->from = from;
	msg->private = private;
	msg->ni = ni;
	percpu_ref_get(&ni->ref);
	msg->routing = 1;
	msg->len = len;
	msg->wanted = len;
	msg->rxpeer = lnet_peer_get(ni, from, GFP_NOFS);
	if (!msg->rxpeer) {
		lnet_drop_msg(msg, "no memory");
		return;
	}
	lnet_node_nid_heard(from);
	msg->rtrpool = lnet_rtrpool_of(lnet_ni_cpt_of_nid(ni, from), len);

	spin_lock_bh(&lnet_core.net_lock);
	if (ni->state != LNET_NI_STATE_UP) {
		spin_unlock_bh(&lnet_core.net_lock);
		lnet_drop_msg(msg, "its NI is going down");
		return;
	}
	ready = lnet_forward_take_locked(msg);
	spin_unlock_bh(&lnet_core.net_lock);
	if (ready)
		lnet_forward_recv(msg, false);
}

/*
 * The next hop of a received message: its destination on one of our
 * networks, or a gateway. Moves @msg to that NI.
 */
static int lnet_forward_route(struct lnet_msg *msg)
{
	lnet_nid_t dst = msg->hdr.dest_nid, hop = dst;
	struct lnet_ni *ni, *rx_ni = msg->ni;

	rcu_read_lock();
	ni = lnet_ni_find_net_rcu(LNET_NIDNET(dst));
	if (!ni) {
		hop = lnet_route_select_rcu(LNET_NIDNET(dst), LNET_NET_ANY);
		if (hop != LNET_NID_ANY)
			ni = lnet_ni_find_net_rcu(LNET_NIDNET(hop));
	}
	if (!ni || !percpu_ref_tryget_live(&ni->ref)) {
		rcu_read_unlock();
		return -EHOSTUNREACH;
	}
	rcu_read_unlock();

	msg->ni = ni;
	percpu_ref_put(&rx_ni->ref);
	msg->target.nid = hop;
	msg->target.pid = hop == dst ? msg->hdr.dest_pid : LNET_PID_LUSTRE;
	msg->txpeer = lnet_peer_get(ni, hop, GFP_ATOMIC);
	return msg->txpeer ? 0 : -ENOMEM;
}

/**
 * lnet_forward_final_hop() - the last hop of @msg, to a Multi-Rail node
 *	whose ping info says the NI it is addressed to is DOWN, goes to
 *	another of its NIDs, rewritten as the header's destination
 * @msg: a forwarded message with its next hop, holding no credit
 *
 * The originator chose the NID, and a router keeps it but for this (spec
 * "Header fields on forwarding", dest_nid). Lustre's test is meant to be
 * of the originator's Multi-Rail flag and reads the destination's; this
 * reads the destination's too (a node without Multi-Rail keeps one NID
 * anyway). Called once the next hop is known, and again once the node's
 * discovery, which the message may have waited for, has told the
 * statuses. The NID is kept if the node has no other said UP that one of
 * our NIs reaches.
 */
void lnet_forward_final_hop(struct lnet_msg *msg)
{
	lnet_nid_t dst = msg->hdr.dest_nid, nid = dst;
	char a[LNET_NIDSTR_SIZE], b[LNET_NIDSTR_SIZE];
	struct lnet_peer_node *node;
	struct lnet_ni *ni = NULL;

	if (msg->target.nid != dst || !lnet_node_nid_down(dst))
		return;
	rcu_read_lock();
	node = lnet_node_find_rcu(dst);
	if (node && test_bit(LNET_NODE_MULTI_RAIL, &node->flags))
		ni = lnet_select_up_pair_rcu(node, &nid);
	if (ni && (nid == dst || !percpu_ref_tryget_live(&ni->ref)))
		ni = NULL;
	rcu_read_unlock();
	if (!ni || !lnet_msg_move_to(msg, ni, nid))
		return;
	pr_debug("%s is down: forwarded to %s\n",
		 lnet_nid2str(dst, a, sizeof(a)), lnet_nid2str(nid, b, sizeof(b)));
}

/**
 * lnet_forward_rx_done() - a forwarded message's payload is in
 * @msg: the message
 * @status: how the receive went
 *
 * Sent on to its next hop; dropped (nothing goes back to its source) if
 * the receive failed or no route leads on.
 *
 * Context: that of lnet_finalize().
 */
void lnet_forward_rx_done(struct lnet_msg *msg, int status)
{
	char dst[LNET_NIDSTR_SIZE];
	int rc = status;

	msg->private = NULL;	/* the LND is done with its receive */
	if (!rc)
		rc = lnet_forward_route(msg);
	if (!rc)
		lnet_forward_final_hop(msg);
	if (rc) {
		if (rc == -EHOSTUNREACH)
			pr_warn_ratelimited("no route to %s: forwarded message dropped\n",
					    lnet_nid2str(msg->hdr.dest_nid, dst,
							 sizeof(dst)));
		lnet_counter_add(drop_count, 1);
		lnet_counter_add(drop_length, msg->len);
		lnet_forward_release(msg);
		lnet_msg_free(msg);
		return;
	}
	lnet_counter_add(route_count, 1);
	lnet_counter_add(route_length, msg->len);
	lnet_msg_launch(msg);
}

/**
 * lnet_rtrpool_state() - one router buffer pool, for debugfs and tests
 * @cpt: the CPU partition
 * @pool: 0 tiny, 1 small, 2 large
 * @npages: pages per buffer
 * @nbuffers: buffers in the pool
 * @credits: free buffers, or minus the messages waiting
 * @min_credits: the lowest @credits seen
 *
 * Return: 0, or -ENOENT (not a router, or no such pool).
 */
int lnet_rtrpool_state(int cpt, int pool, int *npages, int *nbuffers,
		       int *credits, int *min_credits)
{
	struct lnet_rtrpool *p;
	int rc = -ENOENT;

	spin_lock_bh(&lnet_core.net_lock);
	if (lnet_rtrpools && cpt >= 0 && cpt < lnet_rtrpool_ncpts &&
	    pool >= 0 && pool < LNET_NRTRPOOLS) {
		p = lnet_rtrpool(cpt, pool);
		*npages = p->npages;
		*nbuffers = p->nbuffers;
		*credits = p->credits;
		*min_credits = p->min_credits;
		rc = 0;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_rtrpool_state);
