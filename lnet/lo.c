// SPDX-License-Identifier: GPL-2.0
/*
 * The loopback LND: the 0@lo NI, and the NI any message to a local NID
 * goes through.
 *
 * A send hands the message's own header to lnet_parse() on the same NI,
 * with the sending message as the receive context, so local traffic takes
 * the full path (parse, match, recv, finalize) of network traffic. The
 * receive copies the payload from the sender's MD into the receiver's and
 * finalizes the send before the receive, so an initiator sees SEND before
 * its ACK or REPLY.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/lnet/lib-lnet.h>

static int lnet_lo_startup(struct lnet_ni *ni)
{
	ni->nid = LNET_NID_LO_0;
	lnet_ni_set_credits(ni, 0, 0);	/* nothing to throttle */
	return 0;
}

static void lnet_lo_shutdown(struct lnet_ni *ni)
{
	/* sends complete synchronously; lazy portals were drained */
}

static int lnet_lo_send(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg)
{
	return lnet_parse(ni, &msg->hdr, ni->nid, msg, false);
}

static int lnet_lo_recv(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg, bool delayed,
			struct iov_iter *to, unsigned int mlen,
			unsigned int rlen)
{
	struct lnet_msg *tx = private;
	int rc = 0;

	if (msg && mlen && lnet_msg_copy_to_iter(tx, mlen, to) != mlen)
		rc = -EFAULT;
	lnet_finalize(tx, 0);
	lnet_finalize(msg, rc);
	return 0;
}

struct lnet_lnd lnet_lo_lnd = {
	.type		= LNET_LND_LO,
	.startup	= lnet_lo_startup,
	.shutdown	= lnet_lo_shutdown,
	.send		= lnet_lo_send,
	.recv		= lnet_lo_recv,
};
