// SPDX-License-Identifier: GPL-2.0
/*
 * Iterators over MD fragments, for LNDs to send from and receive into, and
 * copies between a message's payload and an iov_iter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/lnet/lib-lnet.h>

/* An iterator over bytes [@offset, @offset + @len) of @md. */
void lnet_md_iter(const struct lnet_libmd *md, unsigned int dir,
		  unsigned int offset, unsigned int len, struct iov_iter *iter)
{
	if (md->niov)
		iov_iter_bvec(iter, dir, md->bvec, md->niov, md->length);
	else
		iov_iter_kvec(iter, dir, &md->kvec, 1, md->length);
	iov_iter_advance(iter, offset);
	iov_iter_truncate(iter, len);
}

/**
 * lnet_msg_iter() - an iterator over a message's payload
 * @msg: the message
 * @dir: ITER_SOURCE to send from it, ITER_DEST to receive into it
 * @iter: the iterator, valid until @msg is finalized
 */
void lnet_msg_iter(const struct lnet_msg *msg, unsigned int dir,
		   struct iov_iter *iter)
{
	const struct lnet_libmd *md = lnet_msg_payload_md(msg);

	if (md && msg->len)
		lnet_md_iter(md, dir, msg->offset, msg->len, iter);
	else
		iov_iter_kvec(iter, dir, NULL, 0, 0);
}
EXPORT_SYMBOL_GPL(lnet_msg_iter);

/**
 * lnet_msg_sink_iter() - where an RDMA'd REPLY will land
 * @reply: from lnet_create_reply_msg()
 * @len: the GET's sink length
 * @iter: the iterator (ITER_DEST) over the first @len bytes of the sink MD
 *	(fewer if the MD is shorter), valid until @reply is finalized
 *
 * An LND that has the GET's target RDMA the data (o2iblnd GET_REQ)
 * registers this buffer before the REPLY's length is known.
 */
void lnet_msg_sink_iter(const struct lnet_msg *reply, unsigned int len,
			struct iov_iter *iter)
{
	len = reply->md ? min(len, reply->md->length) : 0;
	if (len)
		lnet_md_iter(reply->md, ITER_DEST, 0, len, iter);
	else
		iov_iter_kvec(iter, ITER_DEST, NULL, 0, 0);
}
EXPORT_SYMBOL_GPL(lnet_msg_sink_iter);

/* Copy between page-vector payload and @i, a page at a time. */
static size_t lnet_msg_copy_pages(const struct lnet_msg *msg, unsigned int len,
				  struct iov_iter *i, bool to_iter)
{
	const struct lnet_libmd *md = lnet_msg_payload_md(msg);
	unsigned int skip = msg->offset, v;
	size_t done = 0;

	for (v = 0; v < md->niov && done < len; v++) {
		const struct bio_vec *bv = &md->bvec[v];
		unsigned int seg, off;

		if (skip >= bv->bv_len) {
			skip -= bv->bv_len;
			continue;
		}
		seg = min(bv->bv_len - skip, len - (unsigned int)done);
		off = bv->bv_offset + skip;
		skip = 0;
		while (seg) {
			struct page *page = nth_page(bv->bv_page,
						     off >> PAGE_SHIFT);
			size_t n = min_t(size_t, seg,
					 PAGE_SIZE - offset_in_page(off));
			size_t got;

			if (to_iter)
				got = copy_page_to_iter(page, offset_in_page(off),
							n, i);
			else
				got = copy_page_from_iter(page,
							  offset_in_page(off),
							  n, i);
			done += got;
			if (got != n)
				return done;
			off += n;
			seg -= n;
		}
	}
	return done;
}

/**
 * lnet_msg_copy_to_iter() - copy a message's payload out
 * @msg: the message
 * @len: bytes wanted, from the start of the payload
 * @to: where to
 *
 * Return: bytes copied (short if @msg or @to has less room).
 */
size_t lnet_msg_copy_to_iter(const struct lnet_msg *msg, unsigned int len,
			     struct iov_iter *to)
{
	const struct lnet_libmd *md = lnet_msg_payload_md(msg);

	if (!md)
		return 0;
	len = min(len, msg->len);
	if (!md->niov)
		return copy_to_iter(md->kvec.iov_base + msg->offset, len, to);
	return lnet_msg_copy_pages(msg, len, to, true);
}
EXPORT_SYMBOL_GPL(lnet_msg_copy_to_iter);

/**
 * lnet_msg_copy_from_iter() - copy data into a message's payload
 * @msg: the message
 * @len: bytes to copy, to the start of the payload
 * @from: where from
 *
 * Return: bytes copied.
 */
size_t lnet_msg_copy_from_iter(struct lnet_msg *msg, unsigned int len,
			       struct iov_iter *from)
{
	const struct lnet_libmd *md = lnet_msg_payload_md(msg);

	if (!md)
		return 0;
	len = min(len, msg->len);
	if (!md->niov)
		return copy_from_iter(md->kvec.iov_base + msg->offset, len,
				      from);
	return lnet_msg_copy_pages(msg, len, from, false);
}
EXPORT_SYMBOL_GPL(lnet_msg_copy_from_iter);
