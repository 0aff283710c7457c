// SPDX-License-Identifier: GPL-2.0
/*
 * Memory descriptors and the MD lock slots.
 *
 * An MD lives in one lock slot, named by its handle cookie. The slot lock
 * covers the MD's state (threshold, offset, in-flight messages, unlink
 * state, ME link) and the slot's event queue. Events are queued under the
 * slot lock in the order the MD's state changed, and delivered by whoever
 * found the queue idle, with no lock held: per-MD order is kept, slots
 * deliver in parallel, and a callback may call LNetMDUnlink().
 *
 * An MD's life ends with exactly one event carrying unlinked = 1: the
 * event of its last operation when it was used up (auto-unlink), or an
 * UNLINK event after LNetMDUnlink(), once its operations in flight are
 * done. The handle stops resolving when that outcome is decided.
 *
 * Response tracking: the ACK or REPLY a bound MD waits for (an expectation)
 * may be given transaction_timeout seconds to come, as response_tracking
 * and the MD's TRACK options say. Each slot keeps its tracked
 * expectations in deadline order; lnet_rsp_expiry looks at the head of
 * every slot's list once a second while any slot has one. An expired
 * expectation unlinks its MD: an idle MD gets its UNLINK event at once,
 * a busy one ends with the event of its last message, made -ETIMEDOUT if
 * it would have been 0, with unlinked = 1; the peer that owed the answer
 * loses a step of health (lnet_peer_response_timeout()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

#define LNET_MD_TRACK_OPTIONS	(LNET_MD_TRACK_RESPONSE | \
				 LNET_MD_NO_TRACK_RESPONSE)
#define LNET_MD_OPTIONS	(LNET_MD_OP_PUT | LNET_MD_OP_GET | \
			 LNET_MD_MANAGE_REMOTE | LNET_MD_TRUNCATE | \
			 LNET_MD_ACK_DISABLE | LNET_MD_MAX_SIZE | LNET_MD_KIOV | \
			 LNET_MD_TRACK_OPTIONS)

/* response_tracking: which requests' answers are timed out by default */
#define LNET_RSP_TRACK_GET	0x1
#define LNET_RSP_TRACK_PUT	0x2

static void lnet_rsp_expire(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_rsp_expiry, lnet_rsp_expire);

static DEFINE_PER_CPU(unsigned int, lnet_md_rr);
/* named classes: lock statistics (make bench) report lnet_* locks */
static struct lock_class_key lnet_md_slot_key;

int lnet_md_slots_init(void)
{
	unsigned int i, n = lnet_md_lock_slots ?: num_possible_cpus();
	int rc;

	n = min(roundup_pow_of_two(max(n, 1U)), 1U << LNET_MD_SLOT_BITS_MAX);
	lnet_core.md_slots = kcalloc(n, sizeof(*lnet_core.md_slots),
				     GFP_KERNEL);
	if (!lnet_core.md_slots)
		return -ENOMEM;
	lnet_core.md_slot_bits = ilog2(n);
	for (i = 0; i < n; i++) {
		struct lnet_md_slot *slot = &lnet_core.md_slots[i];

		spin_lock_init(&slot->lock);
		lockdep_set_class_and_name(&slot->lock, &lnet_md_slot_key,
					   "lnet_md_slot");
		INIT_LIST_HEAD(&slot->events);
		INIT_LIST_HEAD(&slot->mds);
		INIT_LIST_HEAD(&slot->tracked);
		slot->next_seq = get_random_u32();
		slot->index = i;
		rc = lnet_htable_init(&slot->handles, &slot->lock);
		if (rc) {
			while (i--)
				lnet_htable_fini(&lnet_core.md_slots[i].handles);
			kfree(lnet_core.md_slots);
			return rc;
		}
	}
	return 0;
}

void lnet_md_slots_fini(void)
{
	unsigned int i;

	/* an LNetPut() that raced the last shutdown may have armed it */
	lnet_md_rsp_stop();

	for (i = 0; i < (1U << lnet_core.md_slot_bits); i++)
		lnet_htable_fini(&lnet_core.md_slots[i].handles);
	kfree(lnet_core.md_slots);
}

/* Spread new MDs over the slots without a shared counter. */
struct lnet_md_slot *lnet_md_pick_slot(void)
{
	unsigned int n = raw_smp_processor_id() +
			 this_cpu_inc_return(lnet_md_rr);

	return &lnet_core.md_slots[n & ((1U << lnet_core.md_slot_bits) - 1)];
}

struct lnet_md_slot *lnet_md_slot_of(u64 cookie)
{
	return &lnet_core.md_slots[lnet_cookie_index(cookie,
						     lnet_core.md_slot_bits)];
}
LNET_EXPORT_FOR_TEST(lnet_md_slot_of);

struct lnet_libmd *lnet_md_lookup(struct lnet_md_slot *slot, u64 cookie)
{
	struct lnet_hnode *n;

	if (lnet_cookie_type(cookie) != LNET_COOKIE_MD)
		return NULL;
	n = lnet_htable_find(&slot->handles, cookie);
	return n ? container_of(n, struct lnet_libmd, handle) : NULL;
}

/*
 * NUMA node of the MD's first page: where a local NI is closest to it
 * (select.c). Memory outside the direct map and vmalloc (module data) has
 * none.
 */
static int lnet_md_first_node(const struct lnet_libmd *md)
{
	const void *addr = md->kvec.iov_base;
	struct page *page = NULL;

	if (md->niov)
		page = md->bvec[0].bv_page;
	else if (addr && is_vmalloc_addr(addr))
		page = vmalloc_to_page(addr);
	else if (addr && virt_addr_valid(addr))
		page = virt_to_page(addr);
	return page ? page_to_nid(page) : NUMA_NO_NODE;
}

/* Validate @umd and make an MD of it, holding its EQ; not yet hashed. */
struct lnet_libmd *lnet_md_build(const struct lnet_md *umd,
				 enum lnet_unlink unlink, int ptl_index)
{
	const struct bio_vec *bv = umd->start;
	struct lnet_libmd *md;
	unsigned int i, niov = 0;
	u64 length = 0;
	struct lnet_eq *eq;

	if ((umd->options & ~LNET_MD_OPTIONS) ||
	    (umd->options & LNET_MD_TRACK_OPTIONS) == LNET_MD_TRACK_OPTIONS ||
	    umd->threshold < LNET_MD_THRESH_INF ||
	    ((umd->options & LNET_MD_MAX_SIZE) && umd->max_size < 0) ||
	    (unlink != LNET_RETAIN && unlink != LNET_UNLINK))
		return ERR_PTR(-EINVAL);
	if (umd->options & LNET_MD_KIOV) {
		niov = umd->length;
		if (!niov || niov > LNET_MAX_IOV || !bv)
			return ERR_PTR(-EINVAL);
		for (i = 0; i < niov; i++) {
			if (!bv[i].bv_page && bv[i].bv_len)
				return ERR_PTR(-EINVAL);
			length += bv[i].bv_len;
		}
		if (length > UINT_MAX)
			return ERR_PTR(-EINVAL);
	} else {
		length = umd->length;
		if (!umd->start && length)
			return ERR_PTR(-EINVAL);
	}

	md = kzalloc(struct_size(md, bvec, niov), GFP_KERNEL);
	if (!md)
		return ERR_PTR(-ENOMEM);
	eq = lnet_eq_get_for_md(umd->eq_handle);
	if (IS_ERR(eq)) {
		kfree(md);
		return ERR_CAST(eq);
	}
	md->eq = eq;
	md->umd = *umd;
	md->length = length;
	md->niov = niov;
	if (niov)
		memcpy(md->bvec, bv, niov * sizeof(*bv));
	md->kvec.iov_base = umd->start;
	md->kvec.iov_len = length;
	md->mem_node = lnet_md_first_node(md);
	md->ptl_index = ptl_index;
	if (unlink == LNET_UNLINK)
		md->flags = LNET_MD_FL_AUTO_UNLINK;
	INIT_LIST_HEAD(&md->unlink_ev.link);
	INIT_LIST_HEAD(&md->expects);
	INIT_LIST_HEAD(&md->expect_inline.link);
	INIT_LIST_HEAD(&md->expect_inline.track_link);
	return md;
}

/* @md stops waiting for @exp (and stops timing it). */
static void lnet_md_expect_drop(struct lnet_libmd *md,
				struct lnet_md_expect *exp)
{
	lockdep_assert_held(&md->slot->lock);
	if (!list_empty(&exp->track_link)) {
		list_del_init(&exp->track_link);
		md->slot->ntracked--;
	}
	list_del_init(&exp->link);
	if (exp != &md->expect_inline)
		kfree(exp);
}

/*
 * No answer can reach @md any more (its handle is gone): forget what it
 * waited for. Under the slot lock, as the expiry scan finds tracked
 * expectations through the slot and not through the MD.
 */
static void lnet_md_expects_drop(struct lnet_libmd *md)
{
	struct lnet_md_expect *exp, *tmp;

	lockdep_assert_held(&md->slot->lock);
	list_for_each_entry_safe(exp, tmp, &md->expects, link)
		lnet_md_expect_drop(md, exp);
}

/* Free an MD that never got an event in flight (or whose last one is done). */
void lnet_md_free(struct lnet_libmd *md)
{
	/* unhashing dropped them; an MD never hashed has none */
	WARN_ON_ONCE(!list_empty(&md->expects));
	kfree(md);
}

/* Is the answer to @msg, a PUT asking for an ACK or a GET, to be timed? */
static bool lnet_rsp_tracked(const struct lnet_libmd *md, u32 answer)
{
	int mode = lnet_tunable(&lnet_response_tracking);

	if (md->umd.options & LNET_MD_NO_TRACK_RESPONSE)
		return false;
	if (md->umd.options & LNET_MD_TRACK_RESPONSE)
		return true;
	if (answer == LNET_MSG_REPLY)
		return mode & LNET_RSP_TRACK_GET;
	return mode & LNET_RSP_TRACK_PUT;
}

/* Time @exp: it joins its slot's list in deadline order. */
static void lnet_rsp_track(struct lnet_md_slot *slot,
			   struct lnet_md_expect *exp)
{
	struct lnet_md_expect *pos;
	unsigned long timeout = lnet_tunable(&lnet_transaction_timeout) * HZ;

	lockdep_assert_held(&slot->lock);
	exp->deadline = jiffies + timeout;
	/* the newest usually goes last: walk from the tail */
	list_for_each_entry_reverse(pos, &slot->tracked, track_link)
		if (!time_after(pos->deadline, exp->deadline))
			break;
	list_add(&exp->track_link, &pos->track_link);
	/* the scan stops once every list is empty: the first one restarts it */
	if (!slot->ntracked++)
		queue_delayed_work(system_wq, &lnet_rsp_expiry, HZ);
}

/* Room for one more expectation of @md: its inline one if free. */
static struct lnet_md_expect *lnet_md_expect_alloc(struct lnet_libmd *md)
{
	struct lnet_md_expect *exp = &md->expect_inline;

	lockdep_assert_held(&md->slot->lock);
	if (!list_empty(&exp->link))
		exp = kmalloc(sizeof(*exp), GFP_ATOMIC);
	return exp;
}

/* @md waits for the answer @type, of at most @length bytes, from @peer. */
static void lnet_md_expect_add(struct lnet_libmd *md,
			       struct lnet_md_expect *exp, u32 type,
			       lnet_nid_t peer, unsigned int length)
{
	lockdep_assert_held(&md->slot->lock);
	exp->type = type;
	exp->peer = peer;
	exp->length = length;
	exp->md = md;
	list_add_tail(&exp->link, &md->expects);
	INIT_LIST_HEAD(&exp->track_link);
	if (lnet_rsp_tracked(md, type))
		lnet_rsp_track(md->slot, exp);
}

/* Whether a request in @hdr waits for an answer, and which (*@type). */
static bool lnet_msg_answer_type(const struct lnet_hdr *hdr, u32 *type)
{
	if (hdr->type == LNET_MSG_GET)
		*type = LNET_MSG_REPLY;
	else if (hdr->type == LNET_MSG_PUT &&
		 !lnet_wire_handle_is_none(&hdr->msg.put.ack_wmd))
		*type = LNET_MSG_ACK;
	else
		return false;
	return true;
}

/* The first ACK or REPLY (@type) @md waits for from @peer, or NULL. */
static struct lnet_md_expect *lnet_md_expect_find(struct lnet_libmd *md,
						  u32 type, lnet_nid_t peer)
{
	struct lnet_md_expect *exp;

	lockdep_assert_held(&md->slot->lock);
	list_for_each_entry(exp, &md->expects, link)
		if (exp->type == type && exp->peer == peer)
			return exp;
	return NULL;
}

/*
 * The wait an answer from @src satisfies: one for @src itself, else one
 * for another NID of its Multi-Rail peer (an answer resent on another
 * rail after the first one failed).
 */
static struct lnet_md_expect *lnet_md_expect_find_from(struct lnet_libmd *md,
						       u32 type, lnet_nid_t src)
{
	struct lnet_md_expect *exp = lnet_md_expect_find(md, type, src);

	if (exp)
		return exp;
	list_for_each_entry(exp, &md->expects, link)
		if (exp->type == type && lnet_peer_nids_same_node(exp->peer, src))
			return exp;
	return NULL;
}

/* Undo lnet_md_build() for an MD that was never hashed. */
static void lnet_md_discard(struct lnet_libmd *md)
{
	if (md->eq)
		lnet_eq_put_for_md(md->eq);
	lnet_md_free(md);
}

/* Give @md its handle in @slot; 0 or -ENOMEM (see handle.c). */
int lnet_md_slot_insert(struct lnet_md_slot *slot, struct lnet_libmd *md)
{
	u64 cookie;
	int rc;

	lockdep_assert_held(&slot->lock);
	/*
	 * Random steps: a peer that saw one of our wire handles cannot name
	 * the next MD. (What protects an MD is its expectation list; this
	 * only makes guessing harder.)
	 */
	slot->next_seq += 1 + (get_random_u32() & 0xff);
	cookie = lnet_cookie_make(slot->next_seq, slot->index,
				  lnet_core.md_slot_bits, LNET_COOKIE_MD);
	rc = lnet_htable_add(&slot->handles, &md->handle, cookie);
	if (rc)
		return rc;
	list_add_tail(&md->slot_link, &slot->mds);
	md->slot = slot;
	md->flags |= LNET_MD_FL_HASHED;
	return 0;
}

static void lnet_md_unhash(struct lnet_libmd *md)
{
	if (md->flags & LNET_MD_FL_HASHED) {
		lockdep_assert_held(&md->slot->lock);
		lnet_htable_del(&md->slot->handles, &md->handle);
		list_del(&md->slot_link);
		md->flags &= ~LNET_MD_FL_HASHED;
		lnet_md_expects_drop(md);
	}
}

bool lnet_md_exhausted(const struct lnet_libmd *md)
{
	if (!md->umd.threshold)
		return true;
	return (md->umd.options & LNET_MD_MAX_SIZE) &&
	       (s64)md->length - md->offset < md->umd.max_size;
}

/* Can the MD take another operation? */
bool lnet_md_active(const struct lnet_libmd *md)
{
	return !(md->flags & (LNET_MD_FL_EXHAUSTED | LNET_MD_FL_UNLINK_REQ)) &&
	       !lnet_md_exhausted(md);
}

/*
 * Account one operation of @msg against @md (offset already advanced).
 * A used-up auto-unlink MD stops matching now and goes once idle; its ME
 * link, if any, is cut here (the caller holds the portal lock then).
 */
void lnet_md_commit(struct lnet_libmd *md, struct lnet_msg *msg)
{
	lockdep_assert_held(&md->slot->lock);
	md->msg_refs++;
	if (md->umd.threshold != LNET_MD_THRESH_INF)
		md->umd.threshold--;
	msg->md = md;
	if ((md->flags & LNET_MD_FL_AUTO_UNLINK) && lnet_md_exhausted(md)) {
		md->flags |= LNET_MD_FL_EXHAUSTED;
		if (md->me)
			lnet_ptl_detach_md(md->me, md);
	}
}

/*
 * Does @md take the PUT/GET described by @info? On LNET_MATCH_OK the
 * operation is committed: msg->md, ->offset, ->len and ->wanted are set.
 */
enum lnet_match_rc lnet_md_try_match(struct lnet_libmd *md,
				     const struct lnet_match_info *info,
				     struct lnet_msg *msg)
{
	unsigned int offset, avail, mlength;
	unsigned int opts = md->umd.options;

	lockdep_assert_held(&md->slot->lock);
	if (!lnet_md_active(md) || !(opts & info->op))
		return LNET_MATCH_NONE;

	offset = (opts & LNET_MD_MANAGE_REMOTE) ? info->roffset : md->offset;
	avail = offset < md->length ? md->length - offset : 0;
	if (info->rlength <= avail)
		mlength = info->rlength;
	else if (opts & LNET_MD_TRUNCATE)
		mlength = avail;
	else
		return LNET_MATCH_DROP;	/* it matched, but does not fit */

	if (!(opts & LNET_MD_MANAGE_REMOTE))
		md->offset = offset + mlength;
	msg->offset = offset;
	msg->len = mlength;
	msg->wanted = info->rlength;
	lnet_md_commit(md, msg);
	return LNET_MATCH_OK;
}

/* Queue @item on @slot; true if the caller must now deliver the queue. */
bool lnet_md_slot_queue(struct lnet_md_slot *slot, struct lnet_ev_item *item)
{
	lockdep_assert_held(&slot->lock);
	list_add_tail(&item->link, &slot->events);
	if (slot->delivering)
		return false;
	slot->delivering = true;
	return true;
}

/* Deliver @slot's queue, including what callbacks add to it meanwhile. */
void lnet_md_slot_deliver(struct lnet_md_slot *slot)
{
	struct lnet_ev_item *item;

	spin_lock_bh(&slot->lock);
	while ((item = list_first_entry_or_null(&slot->events,
						struct lnet_ev_item, link))) {
		list_del_init(&item->link);
		spin_unlock_bh(&slot->lock);
		lnet_eq_deliver(item);
		spin_lock_bh(&slot->lock);
	}
	slot->delivering = false;
	spin_unlock_bh(&slot->lock);
}

static void lnet_md_snapshot(const struct lnet_libmd *md, struct lnet_event *ev)
{
	ev->md_handle.cookie = md->handle.key;
	ev->md = md->umd;
}

/* The MD is idle after LNetMDUnlink(): send its UNLINK event, or free it. */
static bool lnet_md_finish_unlink(struct lnet_libmd *md)
{
	struct lnet_ev_item *item = &md->unlink_ev;
	struct lnet_event *ev = &item->ev;

	lockdep_assert_held(&md->slot->lock);
	if (!md->eq) {
		lnet_md_free(md);
		return false;
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = LNET_EVENT_UNLINK;
	ev->target.nid = LNET_NID_ANY;
	ev->target.pid = LNET_PID_ANY;
	ev->initiator = ev->target;
	ev->sender = LNET_NID_ANY;
	ev->unlinked = 1;
	lnet_md_snapshot(md, ev);
	item->eq = md->eq;
	item->msg = NULL;
	item->md_done = md;
	return lnet_md_slot_queue(md->slot, item);
}

/*
 * Unlink @md (LNetMDUnlink/LNetMEUnlink): the handle goes now, the MD once
 * idle. The caller holds the slot lock, and the portal lock if md->me.
 * @md may be freed on return. True: deliver the slot's events.
 */
bool lnet_md_unlink(struct lnet_libmd *md)
{
	lockdep_assert_held(&md->slot->lock);
	if (md->me)
		lnet_ptl_detach_md(md->me, md);
	lnet_md_unhash(md);
	md->flags |= LNET_MD_FL_UNLINK_REQ;
	if (md->msg_refs)
		return false;
	return lnet_md_finish_unlink(md);
}

/* @md is being unlinked or its answer timed out: nothing more for it. */
bool lnet_md_unlinking(struct lnet_libmd *md)
{
	bool unlinking;

	spin_lock_bh(&md->slot->lock);
	unlinking = md->flags & (LNET_MD_FL_UNLINK_REQ | LNET_MD_FL_RSP_EXPIRED);
	spin_unlock_bh(&md->slot->lock);
	return unlinking;
}

/*
 * @msg, a PUT asking for an ACK or a GET, failed: no answer is coming, so
 * @md stops waiting for one (one of those waited for from that peer).
 */
static void lnet_md_expect_cancel(struct lnet_libmd *md,
				  const struct lnet_msg *msg)
{
	const struct lnet_hdr *hdr = &msg->hdr;
	struct lnet_md_expect *exp;
	u32 type;

	if (!lnet_msg_answer_type(hdr, &type))
		return;
	exp = lnet_md_expect_find(md, type, hdr->dest_nid);
	if (exp)
		lnet_md_expect_drop(md, exp);
}

/**
 * lnet_md_expect_retarget() - @msg now goes to another NID of its peer
 * @msg: a PUT or GET whose header names its new destination
 * @old: the destination its MD waits for an answer from
 *
 * The answer comes from the NID the request went to (Multi-Rail).
 */
void lnet_md_expect_retarget(struct lnet_msg *msg, lnet_nid_t old)
{
	struct lnet_libmd *md = msg->md;
	struct lnet_md_expect *exp;
	u32 type;

	if (!lnet_msg_answer_type(&msg->hdr, &type))
		return;
	spin_lock_bh(&md->slot->lock);
	exp = lnet_md_expect_find(md, type, old);
	if (exp)
		exp->peer = msg->hdr.dest_nid;
	spin_unlock_bh(&md->slot->lock);
}

/*
 * A REPLY that finds no wait for it may be the copy its Multi-Rail peer
 * resent on another rail while the first (md->reply_rx) is still arriving
 * here: the peer saw the first one's rail die before this side did. It is
 * taken too, into the same bytes of the MD (the same payload), rather
 * than dropped: otherwise, when the first one's connection is found dead
 * and the MD waits again (lnet_md_reply_rearm()), the copy is gone and the
 * GET waits in vain. lnet_md_reply_pair_end() makes one event of the two.
 */
static bool lnet_md_reply_twin(struct lnet_libmd *md, struct lnet_msg *msg,
			       u32 type, lnet_nid_t src, unsigned int rlength)
{
	const struct lnet_msg *first = md->reply_rx;

	lockdep_assert_held(&md->slot->lock);
	if (type != LNET_MSG_REPLY || !first || md->reply_paired ||
	    (md->flags & (LNET_MD_FL_UNLINK_REQ | LNET_MD_FL_RSP_EXPIRED)) ||
	    first->wanted != rlength || first->hdr.src_nid == src ||
	    !lnet_peer_nids_same_node(first->hdr.src_nid, src))
		return false;
	md->reply_paired = true;
	md->reply_twin = msg;
	md->msg_refs++;
	msg->md = md;
	msg->offset = first->offset;
	msg->wanted = rlength;
	msg->len = first->len;
	return true;
}

/*
 * @msg, one of a REPLY and its resent copy, ended with @status. While the
 * other is still arriving, the first to end well keeps its event back and
 * a failure says nothing; when both have ended, the one kept back (or, if
 * both failed, the last) goes on as the MD's one REPLY. Return the
 * message to go on with, or NULL if there is none yet; *@silenced is set
 * to a message the caller frees once the slot lock is dropped.
 */
static struct lnet_msg *lnet_md_reply_pair_end(struct lnet_libmd *md,
					       struct lnet_msg *msg,
					       int *status,
					       struct lnet_msg **silenced)
{
	struct lnet_msg *held;

	lockdep_assert_held(&md->slot->lock);
	if (md->reply_rx == msg)
		md->reply_rx = NULL;
	if (md->reply_twin == msg)
		md->reply_twin = NULL;
	if (md->reply_rx || md->reply_twin) {
		if (!*status && !md->reply_held) {
			md->reply_held = msg;
			md->msg_refs++;		/* its event's, still to come */
		} else {
			*silenced = msg;
		}
		return NULL;
	}
	md->reply_paired = false;
	held = md->reply_held;
	if (!held)
		return msg;
	md->reply_held = NULL;
	md->msg_refs--;
	*silenced = msg;
	*status = 0;
	return held;
}

/*
 * A REPLY from a Multi-Rail peer was lost with its connection before all
 * of it came (@status: the connection closed under it). That peer's LND
 * had not confirmed the send (lnd.h, @send), so the peer fails it and
 * resends it on another rail: @md takes back the operation and waits for
 * the REPLY again, instead of ending the GET with an error. Should the
 * peer not resend, response tracking or the MD's owner ends the wait.
 */
static bool lnet_md_reply_rearm(struct lnet_libmd *md,
				const struct lnet_msg *msg, int status)
{
	struct lnet_md_expect *exp;

	lockdep_assert_held(&md->slot->lock);
	if (msg->tx || msg->hdr.type != LNET_MSG_REPLY ||
	    (status != -ECONNABORTED && status != -ECONNRESET &&
	     status != -ENETDOWN) ||
	    (md->flags & (LNET_MD_FL_UNLINK_REQ | LNET_MD_FL_RSP_EXPIRED)) ||
	    !lnet_peer_has_other_nid(msg->hdr.src_nid))
		return false;
	exp = lnet_md_expect_alloc(md);
	if (!exp)
		return false;
	if (md->umd.threshold != LNET_MD_THRESH_INF)
		md->umd.threshold++;
	md->flags &= ~LNET_MD_FL_EXHAUSTED;
	lnet_md_expect_add(md, exp, LNET_MSG_REPLY, msg->hdr.src_nid,
			   md->length);
	return true;
}

/*
 * @msg's operation on its MD is over: queue its event (the MD's EQ owns
 * the message from then on) and end the MD if this was its last use.
 */
void lnet_msg_detach_md(struct lnet_msg *msg, int status)
{
	struct lnet_libmd *md = msg->md;
	struct lnet_md_slot *slot = md->slot;
	struct lnet_msg *silenced = NULL;
	struct lnet_libmd *free_md = NULL;
	bool deliver = false, last, explicit, expired;

	msg->md = NULL;
	spin_lock_bh(&slot->lock);
	md->msg_refs--;
	if (md->reply_paired && !msg->tx) {
		msg = lnet_md_reply_pair_end(md, msg, &status, &silenced);
		if (!msg) {
			spin_unlock_bh(&slot->lock);
			if (silenced)
				lnet_msg_free(silenced);
			return;
		}
	} else if (md->reply_rx == msg) {
		md->reply_rx = NULL;
	}
	if (msg->tx && status)
		lnet_md_expect_cancel(md, msg);
	if (!msg->tx && status && lnet_md_reply_rearm(md, msg, status)) {
		spin_unlock_bh(&slot->lock);
		lnet_msg_free(msg);
		return;
	}
	expired = md->flags & LNET_MD_FL_RSP_EXPIRED;
	/* an expired MD ends with its last message's event, not an UNLINK */
	explicit = (md->flags & LNET_MD_FL_UNLINK_REQ) && !expired;
	last = !md->msg_refs &&
	       (md->flags & (LNET_MD_FL_EXHAUSTED | LNET_MD_FL_UNLINK_REQ));
	if (last)
		lnet_md_unhash(md);

	if (md->eq) {
		struct lnet_event *ev = &msg->ev.ev;

		ev->status = expired && !status ? -ETIMEDOUT : status;
		ev->unlinked = last && !explicit;
		lnet_md_snapshot(md, ev);
		msg->ev.eq = md->eq;
		msg->ev.msg = msg;
		msg->ev.md_done = ev->unlinked ? md : NULL;
		deliver = lnet_md_slot_queue(slot, &msg->ev);
		msg = NULL;
	}
	if (last) {
		if (explicit)
			deliver |= lnet_md_finish_unlink(md);
		else if (!md->eq)
			free_md = md;
	}
	spin_unlock_bh(&slot->lock);

	if (free_md)
		lnet_md_free(free_md);
	if (msg)
		lnet_msg_free(msg);
	if (silenced)
		lnet_msg_free(silenced);
	if (deliver)
		lnet_md_slot_deliver(slot);
}

/*
 * Resolve the wire handle of a REPLY or ACK (@type) from @src and commit
 * @msg to the MD it names. Only a bound MD that can still take an
 * operation and waits for such an answer from @src qualifies: -ENOENT
 * otherwise, and the MD is untouched. -EPROTO: @rlength (the REPLY's
 * payload, the length an ACK reports) exceeds what we sent or offered.
 */
int lnet_md_commit_wire(const struct lnet_handle_wire *wh,
			struct lnet_msg *msg, u32 type, lnet_nid_t src,
			unsigned int rlength)
{
	struct lnet_md_expect *exp = NULL;
	u64 cookie = wh->wh_object_cookie;
	struct lnet_md_slot *slot;
	struct lnet_libmd *md;
	int rc = 0;

	if (wh->wh_interface_cookie != lnet_core.interface_cookie ||
	    lnet_cookie_type(cookie) != LNET_COOKIE_MD)
		return -ENOENT;

	slot = lnet_md_slot_of(cookie);
	spin_lock_bh(&slot->lock);
	md = lnet_md_lookup(slot, cookie);
	if (!md || md->me) {
		rc = -ENOENT;
	} else {
		if (lnet_md_active(md))
			exp = lnet_md_expect_find_from(md, type, src);
		if (!exp && lnet_md_reply_twin(md, msg, type, src, rlength)) {
			spin_unlock_bh(&slot->lock);
			return 0;
		}
	}
	if (!rc && !exp) {
		rc = -ENOENT;
	} else if (exp && rlength > exp->length) {
		rc = -EPROTO;
		exp = NULL;
	} else if (exp) {
		lnet_md_expect_drop(md, exp);
		msg->offset = 0;
		/* a REPLY fits: the sink offered is never more than the MD */
		msg->wanted = type == LNET_MSG_REPLY ? rlength : 0;
		msg->len = msg->wanted;
		lnet_md_commit(md, msg);
		if (type == LNET_MSG_REPLY && !md->reply_rx)
			md->reply_rx = msg;
	}
	spin_unlock_bh(&slot->lock);
	return rc;
}

/*
 * LNetPut/LNetGet, before the message is routed: the NUMA node of the
 * bound MD @mdh's memory, or NUMA_NO_NODE (one node, no network with two
 * of our NIs for it to choose between, or no such MD).
 */
int lnet_md_mem_node(struct lnet_handle_md mdh)
{
	struct lnet_md_slot *slot;
	struct lnet_libmd *md;
	int node = NUMA_NO_NODE;

	if (num_online_nodes() < 2 || !READ_ONCE(lnet_core.nets_shared) ||
	    lnet_cookie_type(mdh.cookie) != LNET_COOKIE_MD)
		return NUMA_NO_NODE;
	slot = lnet_md_slot_of(mdh.cookie);
	spin_lock_bh(&slot->lock);
	md = lnet_md_lookup(slot, mdh.cookie);
	if (md)
		node = md->mem_node;
	spin_unlock_bh(&slot->lock);
	return node;
}

/*
 * LNetPut/LNetGet: take one operation of the bound MD @mdh for @msg and
 * return its length in *@length. If @answer, the MD is to wait for the
 * ACK of @msg (a PUT) or its REPLY (a GET) from its destination. Only an
 * MD with several such requests outstanding allocates (atomically, under
 * the slot lock: a rare case) for the second and later ones.
 */
int lnet_md_take(struct lnet_handle_md mdh, struct lnet_msg *msg,
		 unsigned int *length, bool answer)
{
	struct lnet_md_expect *exp = NULL;
	struct lnet_md_slot *slot;
	struct lnet_libmd *md;
	int rc = 0;

	if (lnet_cookie_type(mdh.cookie) != LNET_COOKIE_MD)
		return -ENOENT;
	slot = lnet_md_slot_of(mdh.cookie);
	spin_lock_bh(&slot->lock);
	md = lnet_md_lookup(slot, mdh.cookie);
	if (!md || !lnet_md_active(md)) {
		rc = -ENOENT;
	} else if (md->ptl_index >= 0) {
		rc = -EINVAL;		/* attached to an ME */
	} else if (*length && md->length > *length) {
		rc = -EMSGSIZE;
	} else if (answer) {
		exp = lnet_md_expect_alloc(md);
		if (!exp)
			rc = -ENOMEM;
	}
	if (!rc) {
		*length = md->length;
		msg->offset = 0;
		lnet_md_commit(md, msg);
		if (exp)
			lnet_md_expect_add(md, exp,
					   msg->hdr.type == LNET_MSG_GET ?
					   LNET_MSG_REPLY : LNET_MSG_ACK,
					   msg->hdr.dest_nid, md->length);
	}
	spin_unlock_bh(&slot->lock);
	return rc;
}

/**
 * LNetMDAttach() - attach a memory descriptor to a match entry
 * @meh: the ME
 * @umd: the MD
 * @unlink: LNET_UNLINK: unlink the MD when it is used up
 * @handle: the new MD's handle
 *
 * On a lazy portal, PUTs waiting there are matched against the new MD in
 * arrival order.
 *
 * Return: 0, -ENOENT (stale ME handle), -EBUSY (the ME has an MD),
 * -EINVAL (bad MD), -ENOMEM or -ENETDOWN.
 */
int LNetMDAttach(struct lnet_handle_me meh, struct lnet_md umd,
		 enum lnet_unlink unlink, struct lnet_handle_md *handle)
{
	struct lnet_msg *msg, *tmp;
	struct lnet_md_slot *slot;
	struct lnet_portal *ptl;
	struct lnet_libmd *md;
	struct lnet_me *me;
	LIST_HEAD(matched);
	LIST_HEAD(dropped);
	int idx, rc = 0;

	if (!handle)
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	if (lnet_cookie_type(meh.cookie) != LNET_COOKIE_ME)
		return -ENOENT;
	ptl = lnet_portal_of_cookie(meh.cookie);
	md = lnet_md_build(&umd, unlink, ptl->index);
	if (IS_ERR(md))
		return PTR_ERR(md);
	slot = lnet_md_pick_slot();

	/* PUTs taken off a lazy portal go to their LNDs: see lnet_ni_stop() */
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	spin_lock_bh(&ptl->lock);
	me = lnet_me_lookup(ptl, meh.cookie);
	if (!me) {
		rc = -ENOENT;
	} else if (me->md) {
		rc = -EBUSY;
	} else {
		spin_lock_bh(&slot->lock);
		rc = lnet_md_slot_insert(slot, md);
		if (!rc) {
			handle->cookie = md->handle.key;
			lnet_ptl_attach_md(ptl, me, md, &matched, &dropped);
		}
		spin_unlock_bh(&slot->lock);
	}
	spin_unlock_bh(&ptl->lock);

	list_for_each_entry_safe(msg, tmp, &matched, list) {
		list_del_init(&msg->list);
		lnet_put_matched(msg);
	}
	list_for_each_entry_safe(msg, tmp, &dropped, list) {
		list_del_init(&msg->list);
		lnet_drop_msg(msg, "too long for the MD");
	}
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	if (rc)
		lnet_md_discard(md);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetMDAttach);

/**
 * LNetMDBind() - make a memory descriptor that is not on any portal
 * @umd: the MD
 * @unlink: LNET_UNLINK: unlink the MD when it is used up
 * @handle: the new MD's handle
 *
 * Such MDs are the sources of LNetPut() and the sinks of LNetGet().
 *
 * Return: 0, -EINVAL, -ENOENT (stale EQ handle), -ENOMEM or -ENETDOWN.
 */
int LNetMDBind(struct lnet_md umd, enum lnet_unlink unlink,
	       struct lnet_handle_md *handle)
{
	struct lnet_md_slot *slot;
	struct lnet_libmd *md;
	int rc;

	if (!handle)
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	md = lnet_md_build(&umd, unlink, -1);
	if (IS_ERR(md))
		return PTR_ERR(md);
	slot = lnet_md_pick_slot();

	spin_lock_bh(&slot->lock);
	rc = lnet_md_slot_insert(slot, md);
	if (!rc)
		handle->cookie = md->handle.key;
	spin_unlock_bh(&slot->lock);
	if (rc)
		lnet_md_discard(md);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetMDBind);

/**
 * LNetMDUnlink() - unlink a memory descriptor
 * @mdh: the MD
 *
 * An idle MD goes at once; a busy one once its operations in flight are
 * done. Either way its last event is an UNLINK event (unlinked = 1) if it
 * has an EQ, and the handle is stale from now on. Callback-safe.
 *
 * Return: 0 or -ENOENT.
 */
int LNetMDUnlink(struct lnet_handle_md mdh)
{
	struct lnet_md_slot *slot;
	struct lnet_portal *ptl;
	struct lnet_libmd *md;
	bool deliver = false;
	int ptl_index;

	if (lnet_cookie_type(mdh.cookie) != LNET_COOKIE_MD)
		return -ENOENT;
	slot = lnet_md_slot_of(mdh.cookie);

	spin_lock_bh(&slot->lock);
	md = lnet_md_lookup(slot, mdh.cookie);
	ptl_index = md ? md->ptl_index : -1;
	if (md && ptl_index < 0)
		deliver = lnet_md_unlink(md);
	spin_unlock_bh(&slot->lock);
	if (!md)
		return -ENOENT;

	if (ptl_index >= 0) {
		/* attached: the portal lock comes first, so look again */
		ptl = &lnet_core.portals[ptl_index];
		spin_lock_bh(&ptl->lock);
		spin_lock_bh(&slot->lock);
		md = lnet_md_lookup(slot, mdh.cookie);
		if (md)
			deliver = lnet_md_unlink(md);
		spin_unlock_bh(&slot->lock);
		spin_unlock_bh(&ptl->lock);
		if (!md)
			return -ENOENT;
	}
	if (deliver)
		lnet_md_slot_deliver(slot);
	return 0;
}
EXPORT_SYMBOL_GPL(LNetMDUnlink);

/*
 * @exp's answer did not come in time: unlink its MD as LNetMDUnlink()
 * would (bound MDs only are tracked: no portal lock is needed), marked so
 * that a busy MD's last event says so. @blamed: who owed the answer. True:
 * deliver the slot's events.
 */
static bool lnet_rsp_expire_one(struct lnet_md_slot *slot,
				struct lnet_md_expect *exp, lnet_nid_t *blamed)
{
	struct lnet_libmd *md = exp->md;

	lockdep_assert_held(&slot->lock);
	lnet_counter_add(response_timeout_count, 1);
	*blamed = exp->peer;
	WARN_ON_ONCE(md->me);
	if (md->msg_refs)
		md->flags |= LNET_MD_FL_RSP_EXPIRED;
	/* unhashing drops @exp and the MD's other expectations */
	return lnet_md_unlink(md);
}

/* expirations per slot lock hold: BHs stay off meanwhile */
#define LNET_RSP_EXPIRE_BATCH	64

static void lnet_rsp_expire(struct work_struct *work)
{
	unsigned int i, n, nslots = 1U << lnet_core.md_slot_bits;
	lnet_nid_t blamed[LNET_RSP_EXPIRE_BATCH];	/* only this work's */
	bool more = false;

	for (i = 0; i < nslots; i++) {
		struct lnet_md_slot *slot = &lnet_core.md_slots[i];
		struct lnet_md_expect *exp;
		unsigned int j;
		bool deliver;

		do {
			deliver = false;
			n = 0;
			spin_lock_bh(&slot->lock);
			/* each expiry may drop others: look at the head again */
			while (n < LNET_RSP_EXPIRE_BATCH &&
			       (exp = list_first_entry_or_null(&slot->tracked,
							       struct lnet_md_expect,
							       track_link)) &&
			       time_after_eq(jiffies, exp->deadline)) {
				deliver |= lnet_rsp_expire_one(slot, exp,
							       &blamed[n]);
				n++;
			}
			spin_unlock_bh(&slot->lock);
			/*
			 * Health first: whoever the events wake (a ping's
			 * caller) must find the peer already charged.
			 */
			for (j = 0; j < n; j++)
				lnet_peer_response_timeout(blamed[j]);
			if (deliver)
				lnet_md_slot_deliver(slot);
			cond_resched();
		} while (n == LNET_RSP_EXPIRE_BATCH);
		more |= READ_ONCE(slot->ntracked) > 0;
	}
	if (more && lnet_is_running())
		queue_delayed_work(system_wq, &lnet_rsp_expiry, HZ);
}

/* Shutdown: no response expires from now on (MDs go with lnet_md_cleanup). */
void lnet_md_rsp_stop(void)
{
	cancel_delayed_work_sync(&lnet_rsp_expiry);
}

/* Responses being timed now (lnetctl stats show: rst_alloc). */
u64 lnet_md_rsp_tracked(void)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < (1U << lnet_core.md_slot_bits); i++)
		n += READ_ONCE(lnet_core.md_slots[i].ntracked);
	return n;
}
LNET_EXPORT_FOR_TEST(lnet_md_rsp_tracked);

/* Shutdown: wait until no slot is delivering events. */
void lnet_md_slots_quiesce(void)
{
	unsigned int i;
	bool busy;

	for (i = 0; i < (1U << lnet_core.md_slot_bits); i++) {
		struct lnet_md_slot *slot = &lnet_core.md_slots[i];

		for (;;) {
			spin_lock_bh(&slot->lock);
			busy = slot->delivering || !list_empty(&slot->events);
			spin_unlock_bh(&slot->lock);
			if (!busy)
				break;
			usleep_range(200, 1000);
		}
	}
}

/*
 * Shutdown: free the MDs LNet users left behind, silently. Messages are
 * all gone and MEs are already detached.
 */
unsigned int lnet_md_cleanup(void)
{
	struct lnet_libmd *md, *tmp;
	unsigned int i, n = 0;

	for (i = 0; i < (1U << lnet_core.md_slot_bits); i++) {
		struct lnet_md_slot *slot = &lnet_core.md_slots[i];
		LIST_HEAD(dead);

		spin_lock_bh(&slot->lock);
		list_for_each_entry_safe(md, tmp, &slot->mds, slot_link) {
			WARN_ON(md->msg_refs || md->me);
			lnet_md_unhash(md);
			list_add_tail(&md->slot_link, &dead);
			n++;
		}
		spin_unlock_bh(&slot->lock);

		list_for_each_entry_safe(md, tmp, &dead, slot_link) {
			list_del(&md->slot_link);
			lnet_md_discard(md);
		}
	}
	return n;
}
