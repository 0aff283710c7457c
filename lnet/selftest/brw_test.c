// SPDX-License-Identifier: GPL-2.0
/*
 * The bulk read/write test (Documentation/wire/selftest.md). The client posts
 * its buffer on portal 52; the server moves the data actively: READ, it
 * PUTs into the client's buffer; WRITE, it GETs from it. Both sides check
 * the pattern they receive as the check flags ask.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "selftest.h"

struct lst_brw_args {
	u32	rw;
	u32	len;
	u32	offset;
	u32	check;
};

static struct lst_brw_args lst_brw_args(const union lst_test_param *p,
					u32 feats)
{
	if (feats & LST_FEAT_BULK_LEN)
		return (struct lst_brw_args){ p->brw1.opc, p->brw1.len,
					      p->brw1.offset, p->brw1.flags };
	return (struct lst_brw_args){ p->brw0.opc, p->brw0.npages * PAGE_SIZE,
				      0, p->brw0.flags };
}

static bool lst_brw_check_valid(u32 check)
{
	return check >= LST_BRW_CHECK_NONE && check <= LST_BRW_CHECK_DISCARD;
}

static int lst_brw_check_param(const struct lst_test_req *req, u32 feats)
{
	struct lst_brw_args a = lst_brw_args(&req->param, feats);

	if (a.rw != LST_BRW_READ && a.rw != LST_BRW_WRITE)
		return -EINVAL;
	if (!lst_brw_check_valid(a.check))
		return -EINVAL;
	if (!a.len || a.len > LST_BRW_MAX_LEN)
		return -EINVAL;
	if (a.offset % 8 || a.offset >= PAGE_SIZE)
		return -EINVAL;
	return 0;
}

/* what lst_brw_unit_init() allocates: the pages under offset + len */
static u64 lst_brw_unit_bytes(const union lst_test_param *p, u32 feats)
{
	struct lst_brw_args a = lst_brw_args(p, feats);

	return (u64)DIV_ROUND_UP(a.offset + a.len, PAGE_SIZE) << PAGE_SHIFT;
}

static int lst_brw_unit_init(struct lst_unit *u, struct lst_test *t)
{
	struct lst_brw_args a = lst_brw_args(&t->param, t->feats);

	u->bulk = lst_bulk_alloc(a.len, a.offset, PAGE_SIZE);
	if (!u->bulk)
		return -ENOMEM;
	/* a write's data never changes: one fill is enough */
	if (a.rw == LST_BRW_WRITE)
		lst_bulk_fill(u->bulk, a.check);
	return 0;
}

static void lst_brw_unit_fini(struct lst_unit *u)
{
	lst_bulk_free(u->bulk);
	u->bulk = NULL;
}

static void lst_brw_prep_rpc(struct lst_unit *u, struct lst_rpc *rpc)
{
	struct lst_test *t = u->test;
	struct lst_brw_args a = lst_brw_args(&t->param, t->feats);
	struct lst_brw_req *req = &rpc->req.body.brw_req;

	lst_rpc_init(rpc, u->dest, LST_SVC_BRW, t->feats, 0);
	if (a.rw == LST_BRW_READ)
		lst_bulk_poison(u->bulk, a.check);
	req->bulkid = lst_rpc_set_bulk(rpc, u->bulk, a.rw == LST_BRW_READ);
	req->rw = a.rw;
	req->len = a.len;
	req->flags = a.check;
}

static int lst_brw_done_rpc(struct lst_unit *u, struct lst_rpc *rpc)
{
	struct lst_brw_req *req = &rpc->req.body.brw_req;

	if (rpc->status)
		return rpc->status;
	if (rpc->rpy.body.brw_rpy.status)
		return -(int)rpc->rpy.body.brw_rpy.status;
	if (req->rw == LST_BRW_READ)
		return lst_bulk_check(u->bulk, req->flags, rpc->rpy_swapped);
	return 0;
}

const struct lst_test_ops lst_brw_ops = {
	.service	= LST_SVC_BRW,
	.check_param	= lst_brw_check_param,
	.unit_bytes	= lst_brw_unit_bytes,
	.unit_init	= lst_brw_unit_init,
	.unit_fini	= lst_brw_unit_fini,
	.prep_rpc	= lst_brw_prep_rpc,
	.done_rpc	= lst_brw_done_rpc,
};

static int lst_brw_handle(struct lst_srpc *s)
{
	struct lst_brw_req *req = &s->req.body.brw_req;
	u32 *status = &s->rpy.body.brw_rpy.status;
	struct lst_bulk *bk;
	int rc;

	if ((req->rw != LST_BRW_READ && req->rw != LST_BRW_WRITE) ||
	    !lst_brw_check_valid(req->flags)) {
		*status = EINVAL;
		return 0;
	}
	if (s->feats & ~LST_FEATS_MASK) {
		*status = EPROTO;
		return 0;
	}
	if (!req->len || req->len > LST_BRW_MAX_LEN ||
	    (!(s->feats & LST_FEAT_BULK_LEN) && req->len % PAGE_SIZE)) {
		*status = EINVAL;
		return 0;
	}
	bk = lst_bulk_get(req->len);
	if (!bk)
		return -ENOMEM;
	if (req->rw == LST_BRW_READ) {
		lst_bulk_fill(bk, req->flags);
		rc = lst_bulk_xfer(s, req->bulkid, bk, false,
				   lst_rpc_timeout_s);
	} else {
		lst_bulk_poison(bk, req->flags);
		rc = lst_bulk_xfer(s, req->bulkid, bk, true,
				   lst_rpc_timeout_s);
		if (!rc)
			rc = lst_bulk_check(bk, req->flags, s->swapped);
	}
	lst_bulk_put(bk);
	if (rc)
		pr_info_ratelimited("brw %s of %u bytes with %llx failed: %d\n",
				    req->rw == LST_BRW_READ ? "read" : "write",
				    req->len, s->peer.nid, rc);
	if (rc == -EBADMSG)
		*status = EBADMSG;
	else if (rc)
		*status = EIO;
	return 0;
}

struct lst_service lst_brw_service = {
	.id		= LST_SVC_BRW,
	.req_type	= LST_MSG_BRW_REQST,
	.name		= "brw",
	.handle		= lst_brw_handle,
};
