// SPDX-License-Identifier: GPL-2.0
/*
 * Match entries: the public calls. The portal lock (named by the portal
 * bits of an ME cookie) covers everything about an ME; portals.c keeps the
 * lists, hash and order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>

static struct kmem_cache *lnet_me_cache;

int lnet_me_cache_init(void)
{
	lnet_me_cache = KMEM_CACHE(lnet_me, 0);
	return lnet_me_cache ? 0 : -ENOMEM;
}

void lnet_me_cache_fini(void)
{
	kmem_cache_destroy(lnet_me_cache);
}

void lnet_me_free(struct lnet_me *me)
{
	kmem_cache_free(lnet_me_cache, me);
}

static struct lnet_me *lnet_me_alloc(struct lnet_process_id match_id,
				     u64 match_bits, u64 ignore_bits,
				     enum lnet_unlink unlink)
{
	struct lnet_me *me = kmem_cache_zalloc(lnet_me_cache, GFP_KERNEL);

	if (!me)
		return NULL;
	me->match_id = match_id;
	me->match_bits = match_bits;
	me->ignore_bits = ignore_bits;
	me->unlink = unlink;
	/* one (bits, NID) pair only: findable through the match hash */
	me->exact = !ignore_bits && match_id.nid != LNET_NID_ANY;
	INIT_LIST_HEAD(&me->wild_link);
	return me;
}

static bool lnet_me_args_ok(enum lnet_unlink unlink, enum lnet_ins_pos pos,
			    struct lnet_handle_me *handle)
{
	return handle && (unlink == LNET_UNLINK || unlink == LNET_RETAIN) &&
	       (pos == LNET_INS_BEFORE || pos == LNET_INS_AFTER);
}

/**
 * LNetMEAttach() - add a match entry at either end of a portal
 * @portal: the portal index
 * @match_id: initiators accepted; LNET_NID_ANY / LNET_PID_ANY match all
 * @match_bits: match bits accepted ...
 * @ignore_bits: ... except in these bits
 * @unlink: LNET_UNLINK: the ME goes when its MD is unlinked
 * @pos: LNET_INS_BEFORE: at the head; LNET_INS_AFTER: at the tail
 * @handle: the new ME's handle
 *
 * Return: 0, -EINVAL, -ENOMEM or -ENETDOWN.
 */
int LNetMEAttach(unsigned int portal, struct lnet_process_id match_id,
		 u64 match_bits, u64 ignore_bits, enum lnet_unlink unlink,
		 enum lnet_ins_pos pos, struct lnet_handle_me *handle)
{
	struct lnet_portal *ptl;
	struct lnet_me *me;
	int rc;

	if (portal >= LNET_MAX_PORTALS || !lnet_me_args_ok(unlink, pos, handle))
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	me = lnet_me_alloc(match_id, match_bits, ignore_bits, unlink);
	if (!me)
		return -ENOMEM;
	ptl = &lnet_core.portals[portal];

	spin_lock_bh(&ptl->lock);
	rc = lnet_ptl_link_me(ptl, me, pos, NULL);
	if (!rc)
		handle->cookie = me->handle.key;
	spin_unlock_bh(&ptl->lock);
	if (rc)
		lnet_me_free(me);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetMEAttach);

/**
 * LNetMEInsert() - add a match entry next to another one
 * @current_meh: the ME to insert next to
 * @match_id: as for LNetMEAttach()
 * @match_bits: as for LNetMEAttach()
 * @ignore_bits: as for LNetMEAttach()
 * @unlink: as for LNetMEAttach()
 * @pos: LNET_INS_BEFORE or LNET_INS_AFTER @current_meh
 * @handle: the new ME's handle
 *
 * Return: 0, -ENOENT (stale @current_meh), -EINVAL, -ENOMEM or -ENETDOWN.
 */
int LNetMEInsert(struct lnet_handle_me current_meh,
		 struct lnet_process_id match_id, u64 match_bits,
		 u64 ignore_bits, enum lnet_unlink unlink,
		 enum lnet_ins_pos pos, struct lnet_handle_me *handle)
{
	struct lnet_portal *ptl;
	struct lnet_me *me, *cur;
	int rc = -ENOENT;

	if (!lnet_me_args_ok(unlink, pos, handle))
		return -EINVAL;
	if (!lnet_is_running())
		return -ENETDOWN;
	if (lnet_cookie_type(current_meh.cookie) != LNET_COOKIE_ME)
		return -ENOENT;
	me = lnet_me_alloc(match_id, match_bits, ignore_bits, unlink);
	if (!me)
		return -ENOMEM;
	ptl = lnet_portal_of_cookie(current_meh.cookie);

	spin_lock_bh(&ptl->lock);
	cur = lnet_me_lookup(ptl, current_meh.cookie);
	if (cur)
		rc = lnet_ptl_link_me(ptl, me, pos, cur);
	if (!rc)
		handle->cookie = me->handle.key;
	spin_unlock_bh(&ptl->lock);
	if (rc)
		lnet_me_free(me);
	return rc;
}
EXPORT_SYMBOL_GPL(LNetMEInsert);

/**
 * LNetMEUnlink() - remove a match entry and unlink its MD
 * @meh: the ME
 *
 * The MD, if any, is unlinked as by LNetMDUnlink().
 *
 * Return: 0 or -ENOENT.
 */
int LNetMEUnlink(struct lnet_handle_me meh)
{
	struct lnet_md_slot *slot = NULL;
	struct lnet_portal *ptl;
	struct lnet_libmd *md;
	struct lnet_me *me;
	bool deliver = false;

	if (lnet_cookie_type(meh.cookie) != LNET_COOKIE_ME)
		return -ENOENT;
	ptl = lnet_portal_of_cookie(meh.cookie);

	spin_lock_bh(&ptl->lock);
	me = lnet_me_lookup(ptl, meh.cookie);
	if (!me) {
		spin_unlock_bh(&ptl->lock);
		return -ENOENT;
	}
	md = me->md;
	if (md) {
		slot = md->slot;
		me->unlink = LNET_UNLINK;	/* detaching the MD frees @me */
		spin_lock_bh(&slot->lock);
		deliver = lnet_md_unlink(md);
		spin_unlock_bh(&slot->lock);
	} else {
		lnet_ptl_unlink_me(ptl, me);
		lnet_me_free(me);
	}
	spin_unlock_bh(&ptl->lock);

	if (deliver)
		lnet_md_slot_deliver(slot);
	return 0;
}
EXPORT_SYMBOL_GPL(LNetMEUnlink);
