// SPDX-License-Identifier: GPL-2.0
/*
 * Hash tables for handle lookup (EQs, MEs, MDs), the match hash of exact
 * MEs and the peer table.
 *
 * Each table belongs to an object with a spinlock that protects it. A
 * table doubles once it holds more than two entries per bucket, so lookups
 * stay O(1) however many handles or MEs are posted. The new bucket array
 * is allocated before the owner's lock is taken; only the rehash runs
 * under it.
 */
#include <linux/hash.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

#define LNET_HTABLE_MAX_BITS	24

static struct hlist_head *lnet_htable_alloc(unsigned int bits, gfp_t gfp)
{
	struct hlist_head *b;
	size_t i, n = 1UL << bits;

	b = kvmalloc_array(n, sizeof(*b), gfp | __GFP_NOWARN);
	if (!b)
		return NULL;
	for (i = 0; i < n; i++)
		INIT_HLIST_HEAD(&b[i]);
	return b;
}

int lnet_htable_init(struct lnet_htable *t, unsigned int bits,
		     spinlock_t *lock)
{
	t->buckets = lnet_htable_alloc(bits, GFP_KERNEL);
	if (!t->buckets)
		return -ENOMEM;
	t->bits = bits;
	t->count = 0;
	t->lock = lock;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_htable_init);

void lnet_htable_fini(struct lnet_htable *t)
{
	WARN_ON(t->count);
	kvfree(t->buckets);
	t->buckets = NULL;
}
LNET_EXPORT_FOR_TEST(lnet_htable_fini);

struct hlist_head *lnet_htable_bucket(const struct lnet_htable *t, u64 key)
{
	return &t->buckets[hash_64(key, t->bits)];
}
LNET_EXPORT_FOR_TEST(lnet_htable_bucket);

void lnet_htable_add(struct lnet_htable *t, struct lnet_hnode *n, u64 key)
{
	lockdep_assert_held(t->lock);
	n->key = key;
	hlist_add_head(&n->node, lnet_htable_bucket(t, key));
	t->count++;
}
LNET_EXPORT_FOR_TEST(lnet_htable_add);

void lnet_htable_del(struct lnet_htable *t, struct lnet_hnode *n)
{
	lockdep_assert_held(t->lock);
	hlist_del_init(&n->node);
	t->count--;
}
LNET_EXPORT_FOR_TEST(lnet_htable_del);

static bool lnet_htable_crowded(const struct lnet_htable *t, unsigned int bits)
{
	return t->bits == bits && bits < LNET_HTABLE_MAX_BITS &&
	       t->count >= (2U << bits);
}

/*
 * Double @t if it is crowded. Called without the owner's lock (which is
 * taken here with BH disabled, as everywhere); @gfp says whether the
 * caller may sleep. Failure to allocate only costs longer chains.
 */
void lnet_htable_grow(struct lnet_htable *t, gfp_t gfp)
{
	struct hlist_head *nb, *old;
	struct lnet_hnode *n;
	struct hlist_node *tmp;
	unsigned int bits = READ_ONCE(t->bits);
	size_t i;

	/* an unlocked hint, checked again under the lock */
	if (!data_race(lnet_htable_crowded(t, bits)))
		return;
	nb = lnet_htable_alloc(bits + 1, gfp);
	if (!nb)
		return;

	spin_lock_bh(t->lock);
	if (lnet_htable_crowded(t, bits)) {
		old = t->buckets;
		for (i = 0; i < (1UL << bits); i++) {
			hlist_for_each_entry_safe(n, tmp, &old[i], node) {
				hlist_del(&n->node);
				hlist_add_head(&n->node,
					       &nb[hash_64(n->key, bits + 1)]);
			}
		}
		t->buckets = nb;
		t->bits = bits + 1;
		nb = old;
	}
	spin_unlock_bh(t->lock);
	kvfree(nb);
}
LNET_EXPORT_FOR_TEST(lnet_htable_grow);
