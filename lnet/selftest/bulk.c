// SPDX-License-Identifier: GPL-2.0
/*
 * Bulk buffers (page vectors) and the brw data patterns
 * (Documentation/wire/selftest.md, "Data patterns"): the sender writes the
 * 64-bit magic in its own byte order, the receiver pre-fills with the
 * poison value and checks.
 *
 * Positions are taken in the byte stream, not in the fragments, so a
 * client whose buffer starts at an offset in its first page and a server
 * whose buffer does not agree on them. FULL: every aligned 8-byte word.
 * SIMPLE: the first and the last 8 bytes of every page-sized chunk of the
 * stream (with offset 0, the first and last 8 bytes of each page fragment).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/swab.h>
#include "selftest.h"

void lst_bulk_free(struct lst_bulk *bk)
{
	unsigned int i;

	if (!bk)
		return;
	for (i = 0; i < bk->nbv; i++)
		if (bk->bv[i].bv_page)
			__free_page(bk->bv[i].bv_page);
	kvfree(bk);
}

/**
 * lst_bulk_alloc() - a page vector for @len bytes
 * @len: bytes, > 0
 * @offset: where the data starts in the first page
 * @frag: most bytes per fragment (PAGE_SIZE, or less for lists packed
 *	by entry)
 *
 * Return: the buffer or NULL.
 */
struct lst_bulk *lst_bulk_alloc(unsigned int len, unsigned int offset,
				unsigned int frag)
{
	unsigned int n, i, left = len;
	struct lst_bulk *bk;

	if (!len || frag > PAGE_SIZE || offset >= frag)
		return NULL;
	n = DIV_ROUND_UP(offset + len, frag);
	if (n > LNET_MAX_IOV)
		return NULL;
	bk = kvzalloc(struct_size(bk, bv, n), GFP_KERNEL);
	if (!bk)
		return NULL;
	bk->len = len;
	for (i = 0; left; i++) {
		unsigned int room = frag - (i ? 0 : offset);

		bk->bv[i].bv_page = alloc_page(GFP_KERNEL);
		bk->nbv = i + 1;
		if (!bk->bv[i].bv_page) {
			lst_bulk_free(bk);
			return NULL;
		}
		bk->bv[i].bv_offset = i ? 0 : offset;
		bk->bv[i].bv_len = min(left, room);
		left -= bk->bv[i].bv_len;
	}
	return bk;
}

/*
 * Services reuse their page-aligned buffers: a brw server moves the same
 * length RPC after RPC, and allocating 256 pages per 1 MiB RPC costs more
 * than the copy. Buffers of any length are kept, at most LST_CACHE_MAX.
 */
#define LST_CACHE_MAX	64

static LIST_HEAD(lst_cache);
static DEFINE_SPINLOCK(lst_cache_lock);
static unsigned int lst_cache_count;

struct lst_cached {
	struct list_head	list;
	struct lst_bulk		*bk;
};

/* A page-aligned buffer of @len bytes, from the cache if one fits. */
struct lst_bulk *lst_bulk_get(unsigned int len)
{
	struct lst_cached *c, *found = NULL;
	struct lst_bulk *bk;

	spin_lock(&lst_cache_lock);
	list_for_each_entry(c, &lst_cache, list) {
		if (c->bk->len == len) {
			found = c;
			list_del(&c->list);
			lst_cache_count--;
			break;
		}
	}
	spin_unlock(&lst_cache_lock);
	if (!found)
		return lst_bulk_alloc(len, 0, PAGE_SIZE);
	bk = found->bk;
	kfree(found);
	return bk;
}

/* Give a buffer from lst_bulk_get() back. */
void lst_bulk_put(struct lst_bulk *bk)
{
	struct lst_cached *c = kmalloc(sizeof(*c), GFP_KERNEL);

	if (c) {
		c->bk = bk;
		spin_lock(&lst_cache_lock);
		if (lst_cache_count < LST_CACHE_MAX) {
			list_add(&c->list, &lst_cache);
			lst_cache_count++;
			bk = NULL;
			c = NULL;
		}
		spin_unlock(&lst_cache_lock);
	}
	kfree(c);
	lst_bulk_free(bk);
}

/* Module unload: every service is stopped. */
void lst_bulk_cache_drain(void)
{
	struct lst_cached *c, *tmp;

	list_for_each_entry_safe(c, tmp, &lst_cache, list) {
		list_del(&c->list);
		lst_bulk_free(c->bk);
		kfree(c);
	}
	lst_cache_count = 0;
}

/* Copy 8 bytes at stream position @pos to (@write) or from @word. */
static void lst_bulk_word(struct lst_bulk *bk, unsigned int pos, u64 *word,
			  bool write)
{
	u8 *bytes = (u8 *)word;
	unsigned int i, done = 0;

	for (i = 0; i < bk->nbv && done < 8; i++) {
		struct bio_vec *bv = &bk->bv[i];
		unsigned int n;
		u8 *p;

		if (pos >= bv->bv_len) {
			pos -= bv->bv_len;
			continue;
		}
		n = min(8 - done, bv->bv_len - pos);
		p = kmap_local_page(bv->bv_page);
		if (write)
			memcpy(p + bv->bv_offset + pos, bytes + done, n);
		else
			memcpy(bytes + done, p + bv->bv_offset + pos, n);
		kunmap_local(p);
		done += n;
		pos = 0;
	}
}

/* Apply @fn to every aligned word (FULL); stop at the first nonzero. */
static int lst_bulk_words(struct lst_bulk *bk, u64 value,
			  int (*fn)(u64 *w, u64 value))
{
	unsigned int i, stream = 0;
	int rc = 0;

	for (i = 0; i < bk->nbv && !rc; i++) {
		struct bio_vec *bv = &bk->bv[i];
		unsigned int start = ALIGN(stream, 8) - stream, j;
		u8 *p = kmap_local_page(bv->bv_page);

		for (j = start; j + 8 <= bv->bv_len && !rc; j += 8)
			rc = fn((u64 *)(p + bv->bv_offset + j), value);
		kunmap_local(p);
		stream += bv->bv_len;
	}
	return rc;
}

static int lst_word_set(u64 *w, u64 value)
{
	*w = value;
	return 0;
}

static int lst_word_check(u64 *w, u64 value)
{
	return *w == value ? 0 : -EBADMSG;
}

/* SIMPLE positions: first and last 8 bytes of each PAGE_SIZE chunk. */
static int lst_bulk_simple(struct lst_bulk *bk, u64 value, bool write)
{
	unsigned int chunk, end;
	u64 w;

	for (chunk = 0; chunk < bk->len; chunk += PAGE_SIZE) {
		end = min(chunk + (unsigned int)PAGE_SIZE, bk->len);
		if (end - chunk < 8)
			continue;
		if (write) {
			w = value;
			lst_bulk_word(bk, chunk, &w, true);
			lst_bulk_word(bk, end - 8, &w, true);
			continue;
		}
		lst_bulk_word(bk, chunk, &w, false);
		if (w != value)
			return -EBADMSG;
		lst_bulk_word(bk, end - 8, &w, false);
		if (w != value)
			return -EBADMSG;
	}
	return 0;
}

static int lst_bulk_pattern(struct lst_bulk *bk, u32 check, u64 value,
			    bool write)
{
	switch (check) {
	case LST_BRW_CHECK_FULL:
		return lst_bulk_words(bk, value,
				      write ? lst_word_set : lst_word_check);
	case LST_BRW_CHECK_SIMPLE:
		return lst_bulk_simple(bk, value, write);
	}
	return 0;
}

/* Sender: the magic at the positions @check looks at. */
void lst_bulk_fill(struct lst_bulk *bk, u32 check)
{
	lst_bulk_pattern(bk, check, LST_BRW_MAGIC, true);
}

/* Receiver, before the transfer: the poison at the same positions. */
void lst_bulk_poison(struct lst_bulk *bk, u32 check)
{
	lst_bulk_pattern(bk, check, LST_BRW_POISON, true);
}

/* Receiver: 0, or -EBADMSG if a position lacks the sender's magic. */
int lst_bulk_check(struct lst_bulk *bk, u32 check, bool swapped)
{
	return lst_bulk_pattern(bk, check,
				swapped ? swab64(LST_BRW_MAGIC) : LST_BRW_MAGIC,
				false);
}
