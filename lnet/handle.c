// SPDX-License-Identifier: GPL-2.0
/*
 * Handle tables: cookie -> EQ, ME or MD, and NID -> peer.
 *
 * Each table is an rhashtable that belongs to an object with a spinlock:
 * the owner's lock still orders adds, removals and lookups, so a lookup
 * under it finds an object that stays in the table until the lock is
 * dropped, and an object may be freed as soon as it is removed (no lookup
 * runs outside the owner's lock). The rhashtable resizes itself in a work
 * item, moving one bucket at a time under that bucket's lock, so no table
 * is ever rehashed in one go with BH disabled however many handles are
 * posted. Inserting runs in atomic context and can fail when a table is
 * over full and cannot grow right now: the callers get -ENOMEM (the
 * rhashtable may also say -EBUSY, which to them means something else).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/lockdep.h>
#include <linux/rhashtable.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

static const struct rhashtable_params lnet_htable_params = {
	.head_offset		= offsetof(struct lnet_hnode, node),
	.key_offset		= offsetof(struct lnet_hnode, key),
	.key_len		= sizeof(u64),
	.automatic_shrinking	= true,
};

int lnet_htable_init(struct lnet_htable *t, spinlock_t *lock)
{
	t->lock = lock;
	return rhashtable_init(&t->ht, &lnet_htable_params);
}
LNET_EXPORT_FOR_TEST(lnet_htable_init);

/* The owner emptied @t; may sleep (waits for a resize in progress). */
void lnet_htable_fini(struct lnet_htable *t)
{
	WARN_ON(atomic_read(&t->ht.nelems));
	rhashtable_destroy(&t->ht);
}
LNET_EXPORT_FOR_TEST(lnet_htable_fini);

struct lnet_hnode *lnet_htable_find(struct lnet_htable *t, u64 key)
{
	lockdep_assert_held(t->lock);
	return rhashtable_lookup_fast(&t->ht, &key, lnet_htable_params);
}
LNET_EXPORT_FOR_TEST(lnet_htable_find);

int lnet_htable_add(struct lnet_htable *t, struct lnet_hnode *n, u64 key)
{
	lockdep_assert_held(t->lock);
	n->key = key;
	if (rhashtable_insert_fast(&t->ht, &n->node, lnet_htable_params))
		return -ENOMEM;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_htable_add);

void lnet_htable_del(struct lnet_htable *t, struct lnet_hnode *n)
{
	lockdep_assert_held(t->lock);
	WARN_ON(rhashtable_remove_fast(&t->ht, &n->node, lnet_htable_params));
}
LNET_EXPORT_FOR_TEST(lnet_htable_del);

unsigned int lnet_htable_count(struct lnet_htable *t)
{
	return atomic_read(&t->ht.nelems);
}
LNET_EXPORT_FOR_TEST(lnet_htable_count);
