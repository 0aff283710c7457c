// SPDX-License-Identifier: GPL-2.0
/*
 * The ping test (Documentation/wire/selftest.md, "Test RPC bodies"): a
 * 160-byte request with a magic and a sequence number, echoed by the server.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include "selftest.h"

static int lst_ping_check_param(const struct lst_test_req *req, u32 feats)
{
	return 0;
}

static int lst_ping_unit_init(struct lst_unit *u, struct lst_test *t)
{
	u->seq = 0;
	return 0;
}

static void lst_ping_unit_fini(struct lst_unit *u)
{
}

static void lst_ping_prep_rpc(struct lst_unit *u, struct lst_rpc *rpc)
{
	struct lst_ping_req *req = &rpc->req.body.ping_req;
	struct timespec64 now;

	lst_rpc_init(rpc, u->dest, LST_SVC_PING, u->test->feats, 0);
	ktime_get_real_ts64(&now);
	req->magic = LST_PING_MAGIC;
	req->seq = u->seq++;
	req->time_sec = now.tv_sec;
	req->time_nsec = now.tv_nsec;
}

static int lst_ping_done_rpc(struct lst_unit *u, struct lst_rpc *rpc)
{
	struct lst_ping_rpy *rpy = &rpc->rpy.body.ping_rpy;

	if (rpc->status)
		return rpc->status;
	if (rpy->status)
		return -(int)rpy->status;
	if (rpy->magic != LST_PING_MAGIC ||
	    rpy->seq != rpc->req.body.ping_req.seq)
		return -EBADMSG;
	return 0;
}

const struct lst_test_ops lst_ping_ops = {
	.service	= LST_SVC_PING,
	.check_param	= lst_ping_check_param,
	.unit_init	= lst_ping_unit_init,
	.unit_fini	= lst_ping_unit_fini,
	.prep_rpc	= lst_ping_prep_rpc,
	.done_rpc	= lst_ping_done_rpc,
};

/* Server: a bad magic is dropped without a reply (the client times out). */
static int lst_ping_handle(struct lst_srpc *s)
{
	struct lst_ping_req *req = &s->req.body.ping_req;
	struct lst_ping_rpy *rpy = &s->rpy.body.ping_rpy;

	if (req->magic != LST_PING_MAGIC)
		return -EPROTO;
	rpy->magic = LST_PING_MAGIC;
	rpy->seq = req->seq;
	rpy->status = (s->feats & ~LST_FEATS_MASK) ? EPROTO : 0;
	return 0;
}

struct lst_service lst_ping_service = {
	.id		= LST_SVC_PING,
	.req_type	= LST_MSG_PING_REQST,
	.name		= "ping",
	.handle		= lst_ping_handle,
};
