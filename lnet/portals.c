// SPDX-License-Identifier: GPL-2.0
/*
 * Portals: match entries and matching.
 *
 * Matching must find, among the MEs of a portal whose criteria accept a
 * message, the first one in portal order whose MD takes the message. Most
 * MEs posted in bulk (ptlrpc replies and bulk buffers) accept exactly one
 * (match bits, initiator NID) pair: those "exact" MEs are kept in a hash
 * keyed on that pair, so matching them stays O(1) however many are posted.
 * Every other ME ("wild": some ignore bits, or any NID) is kept on an
 * ordered list that is scanned. A portal may mix both kinds freely; each
 * ME carries an order key, so the hash candidate and the first wild
 * candidate are compared by portal position and the first ME still wins,
 * exactly as if the whole portal were one list. No caller declaration is
 * needed.
 *
 * Order keys are spaced 2^32 apart and an insertion between two MEs takes
 * the midpoint; when two neighbours run out of room the portal is
 * renumbered (rare, O(MEs)).
 *
 * A PUT that nothing matches on a lazy portal waits there, and pins what
 * the LND received it into (a socklnd connection stops reading until the
 * PUT is delivered or dropped). So what waits is bounded: at most
 * lazy_portal_max PUTs per portal and lazy_peer_max from one peer (by the
 * NID it came from) per portal, counted in a small per-portal hash; a PUT
 * over either cap is dropped at once. And a PUT that no service matched
 * within transaction_timeout seconds is dropped by lnet_ptl_expiry, which
 * runs once a second while PUTs wait anywhere.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/moduleparam.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>
#include "trace.h"

#define LNET_ME_ORDER_START	(1ULL << 63)
#define LNET_ME_ORDER_GAP	(1ULL << 32)

static struct lock_class_key lnet_portal_key;

int lnet_lazy_portal_max = 1024;
module_param_named(lazy_portal_max, lnet_lazy_portal_max, int, 0644);
MODULE_PARM_DESC(lazy_portal_max,
		 "unmatched PUTs that may wait on one lazy portal; more are dropped (<= 0: no limit)");
LNET_EXPORT_FOR_TEST(lnet_lazy_portal_max);

int lnet_lazy_peer_max = 64;
module_param_named(lazy_peer_max, lnet_lazy_peer_max, int, 0644);
MODULE_PARM_DESC(lazy_peer_max,
		 "unmatched PUTs from one peer that may wait on one lazy portal; more are dropped (<= 0: no limit)");
LNET_EXPORT_FOR_TEST(lnet_lazy_peer_max);

/* How many PUTs from @nid wait on a portal (ptl->delayed_from). */
struct lnet_ptl_from {
	struct hlist_node	node;
	lnet_nid_t		nid;
	unsigned int		n;
};

static void lnet_ptl_expire(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_ptl_expiry, lnet_ptl_expire);

/*
 * The match hash is keyed on a mix of match bits and NID: MEs with equal
 * keys share one list (rhltable), and a rare key collision between two
 * different (bits, NID) pairs is sorted out by lnet_me_matches().
 */
static const struct rhashtable_params lnet_match_params = {
	.head_offset		= offsetof(struct lnet_me, mnode),
	.key_offset		= offsetof(struct lnet_me, mkey),
	.key_len		= sizeof(u64),
	.automatic_shrinking	= true,
};

int lnet_portals_init(void)
{
	struct lnet_portal *ptl;
	unsigned int i;
	int rc;

	lnet_core.portals = kcalloc(LNET_MAX_PORTALS, sizeof(*ptl),
				    GFP_KERNEL);
	if (!lnet_core.portals)
		return -ENOMEM;
	for (i = 0; i < LNET_MAX_PORTALS; i++) {
		ptl = &lnet_core.portals[i];
		spin_lock_init(&ptl->lock);
		lockdep_set_class_and_name(&ptl->lock, &lnet_portal_key,
					   "lnet_portal");
		ptl->index = i;
		ptl->next_seq = 1;
		INIT_LIST_HEAD(&ptl->me_all);
		INIT_LIST_HEAD(&ptl->me_wild);
		INIT_LIST_HEAD(&ptl->delayed);
		__hash_init(ptl->delayed_from, LNET_PTL_FROM_BUCKETS);
		rc = lnet_htable_init(&ptl->me_handles, &ptl->lock);
		if (rc)
			goto fail;
		rc = rhltable_init(&ptl->match_hash, &lnet_match_params);
		if (rc) {
			lnet_htable_fini(&ptl->me_handles);
			goto fail;
		}
	}
	return 0;

fail:
	while (i--) {
		ptl = &lnet_core.portals[i];
		rhltable_destroy(&ptl->match_hash);
		lnet_htable_fini(&ptl->me_handles);
	}
	kfree(lnet_core.portals);
	return rc;
}

void lnet_portals_fini(void)
{
	unsigned int i;

	cancel_delayed_work_sync(&lnet_ptl_expiry);
	for (i = 0; i < LNET_MAX_PORTALS; i++) {
		WARN_ON(lnet_core.portals[i].nexact);
		rhltable_destroy(&lnet_core.portals[i].match_hash);
		lnet_htable_fini(&lnet_core.portals[i].me_handles);
	}
	kfree(lnet_core.portals);
}

struct lnet_portal *lnet_portal_of_cookie(u64 cookie)
{
	return &lnet_core.portals[lnet_cookie_index(cookie, LNET_PORTAL_BITS)];
}

struct lnet_me *lnet_me_lookup(struct lnet_portal *ptl, u64 cookie)
{
	struct lnet_hnode *n;

	if (lnet_cookie_type(cookie) != LNET_COOKIE_ME)
		return NULL;
	n = lnet_htable_find(&ptl->me_handles, cookie);
	return n ? container_of(n, struct lnet_me, handle) : NULL;
}

static u64 lnet_match_key(u64 match_bits, lnet_nid_t nid)
{
	return match_bits ^ (nid * GOLDEN_RATIO_64);
}

static void lnet_ptl_renumber(struct lnet_portal *ptl)
{
	u64 order = LNET_ME_ORDER_START -
		    (u64)(ptl->nme / 2) * LNET_ME_ORDER_GAP;
	struct lnet_me *me;

	list_for_each_entry(me, &ptl->me_all, all_link) {
		me->order = order;
		order += LNET_ME_ORDER_GAP;
	}
}

/* Give @me (already at its place on me_all) an order key. */
static void lnet_ptl_order_me(struct lnet_portal *ptl, struct lnet_me *me)
{
	struct lnet_me *prev = NULL, *next = NULL;

	if (!list_is_first(&me->all_link, &ptl->me_all))
		prev = list_prev_entry(me, all_link);
	if (!list_is_last(&me->all_link, &ptl->me_all))
		next = list_next_entry(me, all_link);

	if (!prev && !next) {
		me->order = LNET_ME_ORDER_START;
		return;
	}
	if (!prev && next->order > LNET_ME_ORDER_GAP) {
		me->order = next->order - LNET_ME_ORDER_GAP;
		return;
	}
	if (!next && prev->order < U64_MAX - LNET_ME_ORDER_GAP) {
		me->order = prev->order + LNET_ME_ORDER_GAP;
		return;
	}
	if (prev && next && next->order - prev->order >= 2) {
		me->order = prev->order + (next->order - prev->order) / 2;
		return;
	}
	lnet_ptl_renumber(ptl);
}

/* Put wild @me on me_wild, which is kept in order. */
static void lnet_ptl_link_wild(struct lnet_portal *ptl, struct lnet_me *me,
			       enum lnet_ins_pos pos, struct lnet_me *cur)
{
	struct lnet_me *w;

	if (!cur) {
		if (pos == LNET_INS_BEFORE)
			list_add(&me->wild_link, &ptl->me_wild);
		else
			list_add_tail(&me->wild_link, &ptl->me_wild);
		return;
	}
	if (!cur->exact) {
		/* nothing lies between @cur and @me in portal order */
		if (pos == LNET_INS_BEFORE)
			list_add_tail(&me->wild_link, &cur->wild_link);
		else
			list_add(&me->wild_link, &cur->wild_link);
		return;
	}
	list_for_each_entry(w, &ptl->me_wild, wild_link) {
		if (w->order > me->order) {
			list_add_tail(&me->wild_link, &w->wild_link);
			return;
		}
	}
	list_add_tail(&me->wild_link, &ptl->me_wild);
}

/*
 * Add @me to @ptl: at the head or tail (@cur NULL), or next to @cur
 * (LNetMEInsert). Gives @me its handle.
 *
 * Return: 0, or -ENOMEM if a table is full and cannot grow right now.
 */
int lnet_ptl_link_me(struct lnet_portal *ptl, struct lnet_me *me,
		     enum lnet_ins_pos pos, struct lnet_me *cur)
{
	u64 cookie;
	int rc;

	lockdep_assert_held(&ptl->lock);
	cookie = lnet_cookie_make(ptl->next_seq++, ptl->index,
				  LNET_PORTAL_BITS, LNET_COOKIE_ME);
	rc = lnet_htable_add(&ptl->me_handles, &me->handle, cookie);
	if (rc)
		return rc;
	if (me->exact) {
		me->mkey = lnet_match_key(me->match_bits, me->match_id.nid);
		if (rhltable_insert(&ptl->match_hash, &me->mnode,
				    lnet_match_params)) {
			lnet_htable_del(&ptl->me_handles, &me->handle);
			return -ENOMEM;
		}
		ptl->nexact++;
	}
	me->ptl = ptl;

	if (!cur) {
		if (pos == LNET_INS_BEFORE)
			list_add(&me->all_link, &ptl->me_all);
		else
			list_add_tail(&me->all_link, &ptl->me_all);
	} else {
		if (pos == LNET_INS_BEFORE)
			list_add_tail(&me->all_link, &cur->all_link);
		else
			list_add(&me->all_link, &cur->all_link);
	}
	ptl->nme++;
	lnet_ptl_order_me(ptl, me);
	if (!me->exact)
		lnet_ptl_link_wild(ptl, me, pos, cur);
	return 0;
}

/* Take @me (which has no MD) off @ptl. */
void lnet_ptl_unlink_me(struct lnet_portal *ptl, struct lnet_me *me)
{
	lockdep_assert_held(&ptl->lock);
	lnet_htable_del(&ptl->me_handles, &me->handle);
	list_del(&me->all_link);
	if (me->exact) {
		WARN_ON(rhltable_remove(&ptl->match_hash, &me->mnode,
					lnet_match_params));
		ptl->nexact--;
	} else {
		list_del(&me->wild_link);
	}
	ptl->nme--;
}

/* Cut @me and @md apart; an LNET_UNLINK ME goes with its MD. */
void lnet_ptl_detach_md(struct lnet_me *me, struct lnet_libmd *md)
{
	lockdep_assert_held(&me->ptl->lock);
	lockdep_assert_held(&md->slot->lock);
	me->md = NULL;
	md->me = NULL;
	if (me->unlink == LNET_UNLINK) {
		lnet_ptl_unlink_me(me->ptl, me);
		lnet_me_free(me);
	}
}

static bool lnet_me_matches(const struct lnet_me *me,
			    const struct lnet_match_info *info)
{
	if (me->match_id.nid != LNET_NID_ANY &&
	    me->match_id.nid != info->src.nid)
		return false;
	if (me->match_id.pid != LNET_PID_ANY &&
	    me->match_id.pid != info->src.pid)
		return false;
	return !((me->match_bits ^ info->match_bits) & ~me->ignore_bits);
}

/* The first exact ME after position @after that accepts @info. */
static struct lnet_me *lnet_ptl_next_exact(struct lnet_portal *ptl,
					   const struct lnet_match_info *info,
					   u64 after)
{
	u64 key = lnet_match_key(info->match_bits, info->src.nid);
	struct lnet_me *me, *best = NULL;
	struct rhlist_head *pos, *list;

	lockdep_assert_held(&ptl->lock);
	rcu_read_lock();
	list = rhltable_lookup(&ptl->match_hash, &key, lnet_match_params);
	rhl_for_each_entry_rcu(me, pos, list, mnode) {
		if (me->order <= after || (best && me->order > best->order))
			continue;
		if (lnet_me_matches(me, info))
			best = me;
	}
	rcu_read_unlock();
	return best;
}

static struct lnet_me *lnet_ptl_next_wild(struct lnet_portal *ptl,
					  struct lnet_me *me)
{
	if (list_is_last(&me->wild_link, &ptl->me_wild))
		return NULL;
	return list_next_entry(me, wild_link);
}

static enum lnet_match_rc lnet_me_try(struct lnet_me *me,
				      const struct lnet_match_info *info,
				      struct lnet_msg *msg)
{
	struct lnet_libmd *md = me->md;
	enum lnet_match_rc rc;

	if (!md)
		return LNET_MATCH_NONE;
	spin_lock_bh(&md->slot->lock);
	rc = lnet_md_try_match(md, info, msg);
	spin_unlock_bh(&md->slot->lock);
	return rc;
}

static enum lnet_match_rc lnet_ptl_match_locked(struct lnet_portal *ptl,
				const struct lnet_match_info *info,
				struct lnet_msg *msg)
{
	struct lnet_me *wild, *exact, *me;
	enum lnet_match_rc rc;
	u64 after = 0;

	lockdep_assert_held(&ptl->lock);
	wild = list_first_entry_or_null(&ptl->me_wild, struct lnet_me,
					wild_link);
	for (;;) {
		while (wild && !lnet_me_matches(wild, info))
			wild = lnet_ptl_next_wild(ptl, wild);
		exact = ptl->nexact ?
			lnet_ptl_next_exact(ptl, info, after) : NULL;
		if (!wild && !exact)
			return LNET_MATCH_NONE;
		me = (!wild || (exact && exact->order < wild->order)) ?
		     exact : wild;
		rc = lnet_me_try(me, info, msg);	/* frees @me if used up */
		if (rc != LNET_MATCH_NONE)
			return rc;
		after = me->order;
		if (me == wild)
			wild = lnet_ptl_next_wild(ptl, wild);
	}
}

static struct hlist_head *lnet_ptl_from_head(struct lnet_portal *ptl,
					     lnet_nid_t nid)
{
	return &ptl->delayed_from[hash_64(nid, ilog2(LNET_PTL_FROM_BUCKETS))];
}

static struct lnet_ptl_from *lnet_ptl_from_find(struct lnet_portal *ptl,
						lnet_nid_t nid)
{
	struct lnet_ptl_from *f;

	hlist_for_each_entry(f, lnet_ptl_from_head(ptl, nid), node)
		if (f->nid == nid)
			return f;
	return NULL;
}

/*
 * Park unmatched @msg on lazy @ptl, within the caps (see the top of the
 * file). Return 0, -ENOBUFS (over a cap) or -ENOMEM.
 */
static int lnet_ptl_delay(struct lnet_portal *ptl, struct lnet_msg *msg)
{
	int ptl_max = READ_ONCE(lnet_lazy_portal_max);
	int peer_max = READ_ONCE(lnet_lazy_peer_max);
	struct lnet_ptl_from *f;
	unsigned long timeout;

	lockdep_assert_held(&ptl->lock);
	if (ptl_max > 0 && ptl->ndelayed >= ptl_max)
		return -ENOBUFS;
	f = lnet_ptl_from_find(ptl, msg->from);
	if (!f) {
		f = kmalloc(sizeof(*f), GFP_ATOMIC);
		if (!f)
			return -ENOMEM;
		f->nid = msg->from;
		f->n = 0;
		hlist_add_head(&f->node, lnet_ptl_from_head(ptl, msg->from));
	} else if (peer_max > 0 && f->n >= peer_max) {
		return -ENOBUFS;
	}
	f->n++;
	timeout = lnet_tunable(&lnet_transaction_timeout) * HZ;
	msg->deadline = jiffies + timeout;
	msg->delayed = 1;
	list_add_tail(&msg->list, &ptl->delayed);
	ptl->ndelayed++;
	/* a no-op while it is pending; one second, as in lnet/credits.c */
	queue_delayed_work(system_wq, &lnet_ptl_expiry, HZ);
	return 0;
}

/* @msg, just taken off @ptl->delayed, no longer counts. */
static void lnet_ptl_undelay(struct lnet_portal *ptl, struct lnet_msg *msg)
{
	struct lnet_ptl_from *f = lnet_ptl_from_find(ptl, msg->from);

	lockdep_assert_held(&ptl->lock);
	ptl->ndelayed--;
	if (!WARN_ON_ONCE(!f) && !--f->n) {
		hlist_del(&f->node);
		kfree(f);
	}
}

/*
 * Match an incoming PUT or GET. An unmatched PUT on a lazy portal waits
 * there (LNET_MATCH_DELAYED), within the portal's caps; from then on an
 * LNetMDAttach() may deliver it at any time.
 */
enum lnet_match_rc lnet_ptl_match(struct lnet_msg *msg,
				  const struct lnet_match_info *info)
{
	struct lnet_portal *ptl = &lnet_core.portals[info->portal];
	enum lnet_match_rc rc;

	spin_lock_bh(&ptl->lock);
	rc = lnet_ptl_match_locked(ptl, info, msg);
	if (rc == LNET_MATCH_NONE && info->op == LNET_MD_OP_PUT && ptl->lazy) {
		if (READ_ONCE(msg->ni->state) != LNET_NI_STATE_UP) {
			rc = LNET_MATCH_DROP;
		} else if (lnet_ptl_delay(ptl, msg)) {
			ptl->ndropped++;
			rc = LNET_MATCH_DROP;
		} else {
			rc = LNET_MATCH_DELAYED;
		}
	}
	/* a delayed @msg may be delivered by LNetMDAttach() once unlocked */
	trace_lnet_match(info, rc);
	spin_unlock_bh(&ptl->lock);
	return rc;
}

static void lnet_match_info_of_put(const struct lnet_msg *msg,
				   struct lnet_match_info *info)
{
	info->match_bits = msg->hdr.msg.put.match_bits;
	info->src.nid = msg->hdr.src_nid;
	info->src.pid = msg->hdr.src_pid;
	info->rlength = msg->hdr.payload_length;
	info->roffset = msg->hdr.msg.put.offset;
	info->op = LNET_MD_OP_PUT;
	info->portal = msg->hdr.msg.put.ptl_index;
}

/*
 * @md was just attached to @me: match the PUTs waiting on the portal
 * against it, in arrival order. Those it takes go on @matched, those it
 * would take but cannot hold on @dropped. The caller is inside lnd_srcu
 * (see lnet_ni_stop()) until it has passed them all to their LNDs.
 */
void lnet_ptl_attach_md(struct lnet_portal *ptl, struct lnet_me *me,
			struct lnet_libmd *md, struct list_head *matched,
			struct list_head *dropped)
{
	struct lnet_match_info info;
	struct lnet_msg *msg, *tmp;
	enum lnet_match_rc rc;

	lockdep_assert_held(&ptl->lock);
	lockdep_assert_held(&md->slot->lock);
	me->md = md;
	md->me = me;

	list_for_each_entry_safe(msg, tmp, &ptl->delayed, list) {
		lnet_match_info_of_put(msg, &info);
		if (!lnet_me_matches(me, &info))
			continue;
		rc = lnet_md_try_match(md, &info, msg);
		if (rc == LNET_MATCH_NONE)
			break;		/* the MD takes no PUT now */
		list_del(&msg->list);
		lnet_ptl_undelay(ptl, msg);
		list_add_tail(&msg->list,
			      rc == LNET_MATCH_OK ? matched : dropped);
		if (md->me != me)
			break;		/* used up; @me may be gone */
	}
}

/*
 * Drop PUTs waiting on @ptl: those that came through @ni (or all), or
 * with @expired those whose deadline passed. Return whether PUTs still
 * wait there.
 */
static bool lnet_ptl_drop(struct lnet_portal *ptl, struct lnet_ni *ni,
			  bool expired, bool count)
{
	unsigned long now = jiffies;
	struct lnet_msg *msg, *tmp;
	LIST_HEAD(drop);
	bool waiting;
	int idx;

	/* see lnet_ni_stop(): we call into the LNDs of what we take */
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	spin_lock_bh(&ptl->lock);
	list_for_each_entry_safe(msg, tmp, &ptl->delayed, list) {
		if (ni && msg->ni != ni)
			continue;
		/* in arrival order, so in deadline order */
		if (expired && time_before(now, msg->deadline))
			break;
		list_move_tail(&msg->list, &drop);
		lnet_ptl_undelay(ptl, msg);
		if (count)
			ptl->ndropped++;
	}
	waiting = ptl->ndelayed;
	spin_unlock_bh(&ptl->lock);

	list_for_each_entry_safe(msg, tmp, &drop, list) {
		list_del_init(&msg->list);
		lnet_drop_msg(msg, expired ? "no MD on the lazy portal in time" :
				   "lazy portal cleared");
	}
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	return waiting;
}

/* Drop the PUTs waiting on @ptl (those that came through @ni, or all). */
void lnet_ptl_drop_delayed(struct lnet_portal *ptl, struct lnet_ni *ni,
			   bool count)
{
	lnet_ptl_drop(ptl, ni, false, count);
}

/* Once a second while PUTs wait: drop those past their deadline. */
static void lnet_ptl_expire(struct work_struct *work)
{
	bool waiting = false;
	unsigned int i;

	for (i = 0; i < LNET_MAX_PORTALS; i++)
		waiting |= lnet_ptl_drop(&lnet_core.portals[i], NULL, true,
					 true);
	if (waiting)
		queue_delayed_work(system_wq, &lnet_ptl_expiry, HZ);
}

void lnet_ptl_drop_all_delayed(struct lnet_ni *ni)
{
	unsigned int i;

	for (i = 0; i < LNET_MAX_PORTALS; i++)
		lnet_ptl_drop_delayed(&lnet_core.portals[i], ni, false);
}

/**
 * LNetSetLazyPortal() - keep unmatched PUTs on a portal
 * @portal: the portal index
 *
 * PUTs that match no ME wait, in arrival order, until an MD that takes
 * them is attached, or until LNetClearLazyPortal().
 *
 * Return: 0, -EINVAL or -ENETDOWN.
 */
int LNetSetLazyPortal(int portal)
{
	struct lnet_portal *ptl;

	if (portal < 0 || portal >= LNET_MAX_PORTALS)
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	ptl = &lnet_core.portals[portal];
	spin_lock_bh(&ptl->lock);
	ptl->lazy = true;
	spin_unlock_bh(&ptl->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(LNetSetLazyPortal);

/**
 * LNetClearLazyPortal() - stop keeping unmatched PUTs on a portal
 * @portal: the portal index
 *
 * PUTs waiting there are dropped (and counted as drops).
 *
 * Return: 0, -EINVAL or -ENETDOWN.
 */
int LNetClearLazyPortal(int portal)
{
	struct lnet_portal *ptl;

	if (portal < 0 || portal >= LNET_MAX_PORTALS)
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	ptl = &lnet_core.portals[portal];
	spin_lock_bh(&ptl->lock);
	ptl->lazy = false;
	spin_unlock_bh(&ptl->lock);
	lnet_ptl_drop_delayed(ptl, NULL, true);
	return 0;
}
EXPORT_SYMBOL_GPL(LNetClearLazyPortal);

/* Shutdown: free the MEs left behind; their MDs are freed after. */
unsigned int lnet_ptl_cleanup(void)
{
	struct lnet_portal *ptl;
	struct lnet_me *me, *tmp;
	unsigned int i, n = 0;

	for (i = 0; i < LNET_MAX_PORTALS; i++) {
		ptl = &lnet_core.portals[i];
		spin_lock_bh(&ptl->lock);
		ptl->lazy = false;
		WARN_ON(!list_empty(&ptl->delayed));
		WARN_ON(!__hash_empty(ptl->delayed_from,
				      LNET_PTL_FROM_BUCKETS));
		list_for_each_entry_safe(me, tmp, &ptl->me_all, all_link) {
			struct lnet_libmd *md = me->md;

			if (md) {
				spin_lock_bh(&md->slot->lock);
				md->me = NULL;
				me->md = NULL;
				spin_unlock_bh(&md->slot->lock);
			}
			lnet_ptl_unlink_me(ptl, me);
			lnet_me_free(me);
			n++;
		}
		spin_unlock_bh(&ptl->lock);
	}
	return n;
}

int lnet_ptl_get_stats(unsigned int portal, struct lnet_ptl_stats *st)
{
	struct lnet_portal *ptl;
	struct bucket_table *tbl;
	struct rhashtable *ht;
	struct rhash_head *pos;
	unsigned int b, chain;

	if (portal >= LNET_MAX_PORTALS)
		return -EINVAL;
	ptl = &lnet_core.portals[portal];
	ht = &ptl->match_hash.ht;
	memset(st, 0, sizeof(*st));
	spin_lock_bh(&ptl->lock);
	st->nme = ptl->nme;
	st->nexact = ptl->nexact;
	st->nwild = ptl->nme - ptl->nexact;
	st->ndelayed = ptl->ndelayed;
	st->ndropped = ptl->ndropped;
	/* distinct keys per bucket; a resize in progress has two tables */
	rcu_read_lock();
	for (tbl = rht_dereference_rcu(ht->tbl, ht); tbl;
	     tbl = rht_dereference_rcu(tbl->future_tbl, ht)) {
		st->hash_bits = ilog2(tbl->size);
		for (b = 0; b < tbl->size; b++) {
			chain = 0;
			rht_for_each_rcu(pos, tbl, b)
				chain++;
			st->max_chain = max(st->max_chain, chain);
		}
	}
	rcu_read_unlock();
	spin_unlock_bh(&ptl->lock);
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_ptl_get_stats);
