// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest messages: checks and byte order (Documentation/wire/selftest.md).
 * Messages travel in the sender's order; the receiver swaps what it reads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/swab.h>
#include "wire.h"

#define SWAB32(f)	((f) = swab32(f))
#define SWAB64(f)	((f) = swab64(f))

static void lst_sid_swab(struct lst_sid *sid)
{
	SWAB64(sid->ses_nid);
	sid->ses_stamp = (s64)swab64((u64)sid->ses_stamp);
}

static void lst_req_body_swab(struct lst_msg *msg)
{
	SWAB64(msg->body.rpyid);

	switch (msg->type) {
	case LST_MSG_MKSN_REQST:
		lst_sid_swab(&msg->body.mksn_req.sid);
		SWAB32(msg->body.mksn_req.force);
		break;
	case LST_MSG_RMSN_REQST:
		lst_sid_swab(&msg->body.rmsn_req.sid);
		break;
	case LST_MSG_DEBUG_REQST:
		lst_sid_swab(&msg->body.debug_req.sid);
		SWAB32(msg->body.debug_req.flags);
		break;
	case LST_MSG_BATCH_REQST: {
		struct lst_batch_req *b = &msg->body.batch_req;

		lst_sid_swab(&b->sid);
		SWAB64(b->bid);
		SWAB32(b->opc);
		SWAB32(b->testidx);
		SWAB32(b->arg);
		break;
	}
	case LST_MSG_STAT_REQST:
		lst_sid_swab(&msg->body.stat_req.sid);
		SWAB32(msg->body.stat_req.type);
		break;
	case LST_MSG_TEST_REQST: {
		struct lst_test_req *t = &msg->body.test_req;

		SWAB64(t->bulkid);
		lst_sid_swab(&t->sid);
		SWAB64(t->bid);
		SWAB32(t->service);
		SWAB32(t->loop);
		SWAB32(t->concur);
		SWAB32(t->ndest);
		/* the parameters are swapped by their test, which knows the variant */
		break;
	}
	case LST_MSG_PING_REQST: {
		struct lst_ping_req *p = &msg->body.ping_req;

		SWAB32(p->magic);
		SWAB32(p->seq);
		SWAB64(p->time_sec);
		SWAB64(p->time_nsec);
		break;
	}
	case LST_MSG_BRW_REQST: {
		struct lst_brw_req *b = &msg->body.brw_req;

		SWAB64(b->bulkid);
		SWAB32(b->rw);
		SWAB32(b->len);
		SWAB32(b->flags);
		break;
	}
	}
}

static void lst_rpy_body_swab(struct lst_msg *msg)
{
	SWAB32(msg->body.status);

	switch (msg->type) {
	case LST_MSG_MKSN_REPLY:
		lst_sid_swab(&msg->body.mksn_rpy.sid);
		SWAB32(msg->body.mksn_rpy.timeout);
		break;
	case LST_MSG_RMSN_REPLY:
		lst_sid_swab(&msg->body.rmsn_rpy.sid);
		break;
	case LST_MSG_DEBUG_REPLY:
		lst_sid_swab(&msg->body.debug_rpy.sid);
		SWAB32(msg->body.debug_rpy.timeout);
		SWAB32(msg->body.debug_rpy.nbatch);
		break;
	case LST_MSG_BATCH_REPLY:
		lst_sid_swab(&msg->body.batch_rpy.sid);
		SWAB32(msg->body.batch_rpy.active);
		SWAB32(msg->body.batch_rpy.remaining);
		break;
	case LST_MSG_STAT_REPLY: {
		struct lst_stat_rpy *s = &msg->body.stat_rpy;
		u32 *w;
		unsigned int i;

		lst_sid_swab(&s->sid);
		/* framework counters and the u32 part of the RPC counters */
		w = (u32 *)&s->fw;
		for (i = 0; i < sizeof(s->fw) / 4; i++)
			SWAB32(w[i]);
		SWAB32(s->rpc.errors);
		SWAB32(s->rpc.rpcs_sent);
		SWAB32(s->rpc.rpcs_rcvd);
		SWAB32(s->rpc.rpcs_dropped);
		SWAB32(s->rpc.rpcs_expired);
		SWAB64(s->rpc.bulk_get);
		SWAB64(s->rpc.bulk_put);
		SWAB32(s->lnet.msgs_alloc);
		SWAB32(s->lnet.msgs_max);
		SWAB32(s->lnet.errors);
		SWAB32(s->lnet.send_count);
		SWAB32(s->lnet.recv_count);
		SWAB32(s->lnet.route_count);
		SWAB32(s->lnet.drop_count);
		SWAB64(s->lnet.send_length);
		SWAB64(s->lnet.recv_length);
		SWAB64(s->lnet.route_length);
		SWAB64(s->lnet.drop_length);
		break;
	}
	case LST_MSG_TEST_REPLY:
		lst_sid_swab(&msg->body.test_rpy.sid);
		break;
	case LST_MSG_PING_REPLY:
		SWAB32(msg->body.ping_rpy.magic);
		SWAB32(msg->body.ping_rpy.seq);
		break;
	}
}

/* 0: @msg of @len bytes is in our byte order, 1: swapped, -EPROTO. */
int lst_msg_byte_order(const struct lst_msg *msg, unsigned int len)
{
	if (len != LST_MSG_SIZE)
		return -EPROTO;
	if (msg->magic == LST_MSG_MAGIC)
		return 0;
	return msg->magic == swab32(LST_MSG_MAGIC) ? 1 : -EPROTO;
}

/**
 * lst_msg_unpack() - check a received message, bring it to host order
 * @msg: the message as received
 * @len: bytes received
 *
 * Return: 1 if it came byte-swapped, 0 if not, -EPROTO if it is not a
 * selftest message (length or magic). Unknown types keep a swapped body.
 */
int lst_msg_unpack(struct lst_msg *msg, unsigned int len)
{
	int order = lst_msg_byte_order(msg, len);

	if (order <= 0)
		return order;

	SWAB32(msg->magic);
	SWAB32(msg->version);
	SWAB32(msg->type);
	SWAB32(msg->reserved0);
	SWAB32(msg->reserved1);
	SWAB32(msg->ses_feats);
	if (msg->type & 1)
		lst_rpy_body_swab(msg);
	else
		lst_req_body_swab(msg);
	return 1;
}

void lst_msg_init(struct lst_msg *msg, u32 type, u32 feats)
{
	memset(msg, 0, sizeof(*msg));
	msg->magic = LST_MSG_MAGIC;
	msg->version = LST_MSG_VERSION;
	msg->type = type;
	msg->ses_feats = feats;
}
