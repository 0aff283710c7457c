// SPDX-License-Identifier: GPL-2.0
/*
 * The console's RPCs to the test nodes (Documentation/wire/selftest.md,
 * "What the console does"): one command's RPCs go out to all its nodes together (lstcon_fanout()), each with the
 * request body a prep function fills; the keep-alive pings quiet nodes of
 * the session and ends it after its inactivity timeout. Also this node's
 * LNet facts that both the console and the framework report.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/lib-lnet.h>
#include "console.h"

/* ---- this node ------------------------------------------------------------ */

lnet_nid_t lst_self_nid(void)
{
	struct lnet_process_id id;
	unsigned int i;

	for (i = 0; LNetGetId(i, &id) == 0; i++)
		if (LNET_NETTYP(LNET_NIDNET(id.nid)) != LNET_LND_LO)
			return id.nid;
	return LNET_NID_LO_0;
}

void lst_get_lnet_counters(struct lst_lnet_counters *c)
{
	struct lnet_ioctl_lnet_stats st = {
		.st_hdr = { .ioc_len = sizeof(st),
			    .ioc_version = LNET_IOCTL_VERSION2 },
	};

	memset(c, 0, sizeof(*c));
	if (LNetCtl(LNET_IOC_GET_LNET_STATS, &st))
		return;
	c->msgs_alloc = st.st_msgs_alloc;
	c->msgs_max = st.st_msgs_max;
	c->errors = st.st_errors;
	c->send_count = st.st_send_count;
	c->recv_count = st.st_recv_count;
	c->route_count = st.st_route_count;
	c->drop_count = st.st_drop_count;
	c->send_length = st.st_send_length;
	c->recv_length = st.st_recv_length;
	c->route_length = st.st_route_length;
	c->drop_length = st.st_drop_length;
}

/* ---- fan-out -------------------------------------------------------------- */

struct lstcon_fan {
	atomic_t		pending;
	struct completion	done;
};

static void lstcon_call_done(struct lst_rpc *rpc)
{
	struct lstcon_fan *fan = container_of(rpc, struct lstcon_call, rpc)->fan;

	if (atomic_dec_and_test(&fan->pending))
		complete(&fan->done);
}

/* What an answer (or its absence) says about the node. */
static void lstcon_node_update(struct lstcon_node *nd, struct lstcon_call *c)
{
	/* every framework reply starts with status and the node's sid */
	const struct lst_rmsn_rpy *r = &c->rpc.rpy.body.rmsn_rpy;

	if (c->rpc.status) {
		nd->state = LST_NODE_DOWN;
		return;
	}
	nd->last_seen = jiffies;
	if (r->sid.ses_nid == LNET_NID_ANY)
		nd->state = LST_NODE_UNKNOWN;
	else if (r->sid.ses_nid == lst_con.sid.ses_nid &&
		 r->sid.ses_stamp == lst_con.sid.ses_stamp)
		nd->state = LST_NODE_ACTIVE;
	else
		nd->state = LST_NODE_BUSY;

	switch (c->rpc.rpy.type) {
	case LST_MSG_MKSN_REPLY:
		nd->timeout = c->rpc.rpy.body.mksn_rpy.timeout;
		memcpy(nd->name, c->rpc.rpy.body.mksn_rpy.name, sizeof(nd->name));
		break;
	case LST_MSG_DEBUG_REPLY:
		nd->timeout = c->rpc.rpy.body.debug_rpy.timeout;
		memcpy(nd->name, c->rpc.rpy.body.debug_rpy.name, sizeof(nd->name));
		break;
	}
	nd->name[sizeof(nd->name) - 1] = '\0';
}

/*
 * One RPC of @service to each of @nodes, all in flight together; returns
 * the calls (kvfree() them with lstcon_calls_free()) or NULL (-ENOMEM).
 */
struct lstcon_call *lstcon_fanout(struct lstcon_node **nodes, unsigned int n,
				  u32 service, u32 timeout, lstcon_prep_t prep,
				  void *arg)
{
	struct lstcon_fan fan;
	struct lstcon_call *calls;
	unsigned int i;
	int rc;

	lockdep_assert_held(&lst_con.mutex);
	calls = kvcalloc(max(n, 1U), sizeof(*calls), GFP_KERNEL);
	if (!calls)
		return NULL;
	atomic_set(&fan.pending, n + 1);
	init_completion(&fan.done);
	for (i = 0; i < n; i++) {
		struct lstcon_call *c = &calls[i];

		c->node = nodes[i];
		c->fan = &fan;
		lst_rpc_init(&c->rpc, nodes[i]->id, service, lst_con.feats,
			     timeout);
		c->rpc.done = lstcon_call_done;
		rc = prep ? prep(c, i, arg) : 0;
		if (!rc)
			rc = lst_rpc_post(&c->rpc);
		if (rc) {
			c->rpc.status = rc;
			atomic_dec(&fan.pending);
		}
	}
	if (!atomic_dec_and_test(&fan.pending))
		wait_for_completion(&fan.done);
	for (i = 0; i < n; i++)
		lstcon_node_update(calls[i].node, &calls[i]);
	return calls;
}

void lstcon_calls_free(struct lstcon_call *calls, unsigned int n)
{
	unsigned int i;

	if (!calls)
		return;
	for (i = 0; i < n; i++)
		lst_bulk_free(calls[i].bulk);
	kvfree(calls);
}

/* ---- request bodies ------------------------------------------------------- */

int lstcon_prep_mksn(struct lstcon_call *c, unsigned int i, void *arg)
{
	struct lst_mksn_req *req = &c->rpc.req.body.mksn_req;

	req->sid = lst_con.sid;
	req->force = 0;
	memcpy(req->name, lst_con.name, sizeof(req->name));
	return 0;
}

int lstcon_prep_rmsn(struct lstcon_call *c, unsigned int i, void *arg)
{
	c->rpc.req.body.rmsn_req.sid = lst_con.sid;
	return 0;
}

int lstcon_prep_debug(struct lstcon_call *c, unsigned int i, void *arg)
{
	c->rpc.req.body.debug_req.sid = lst_con.sid;
	return 0;
}

int lstcon_prep_stat(struct lstcon_call *c, unsigned int i, void *arg)
{
	c->rpc.req.body.stat_req.sid = lst_con.sid;
	return 0;
}

int lstcon_prep_batch(struct lstcon_call *c, unsigned int i, void *arg)
{
	const struct lstcon_batch_op *op = arg;
	struct lst_batch_req *req = &c->rpc.req.body.batch_req;

	req->sid = lst_con.sid;
	req->bid = op->bid;
	req->opc = op->opc;
	req->testidx = op->testidx;
	req->arg = op->arg;
	return 0;
}

int lstcon_prep_test(struct lstcon_call *c, unsigned int i, void *arg)
{
	const struct lstcon_test_op *op = arg;
	const struct lstio_test *a = &op->test->args;
	struct lst_test_req *req = &c->rpc.req.body.test_req;
	struct lstcon_group *to = op->test->to;
	unsigned int span, first, k, per = LST_DESTS_PER_PAGE;

	req->sid = lst_con.sid;
	req->bid = op->batch->bid;
	req->service = a->lt_type == LST_TEST_BRW ? LST_SVC_BRW : LST_SVC_PING;
	req->loop = a->lt_loop;
	req->concur = a->lt_concur;
	req->stop_onerr = !!a->lt_stop_onerr;
	if (a->lt_type == LST_TEST_BRW) {
		req->param.brw1.opc = a->lt_brw_rw == LST_BRW_RW_READ ?
				      LST_BRW_READ : LST_BRW_WRITE;
		req->param.brw1.flags = a->lt_brw_check;
		req->param.brw1.len = a->lt_brw_size;
		req->param.brw1.offset = a->lt_brw_offset;
	} else {
		req->param.ping.size = a->lt_ping_size;
	}
	if (!op->client)
		return 0;

	/* client i: span servers from ((i / dist) * span) % |to| on */
	req->is_client = 1;
	span = min(a->lt_span, to->nnodes);
	first = (i / a->lt_dist) * a->lt_span % to->nnodes;
	c->bulk = lst_bulk_alloc(span * sizeof(struct lst_dest), 0,
				 per * sizeof(struct lst_dest));
	if (!c->bulk)
		return -ENOMEM;
	for (k = 0; k < span; k++) {
		struct bio_vec *bv = &c->bulk->bv[k / per];
		struct lst_dest *d = page_address(bv->bv_page);
		struct lstcon_node *nd = to->nodes[(first + k) % to->nnodes];

		d[k % per].nid = nd->id.nid;
		d[k % per].pid = nd->id.pid;
	}
	req->ndest = span;
	req->bulkid = lst_rpc_set_bulk(&c->rpc, c->bulk, false);
	return 0;
}

/* ---- keep-alive and inactivity --------------------------------------------- */

void lstcon_ping_work(struct work_struct *work)
{
	unsigned long quiet = LST_PING_INTERVAL * HZ;
	struct lstcon_node **nodes;
	struct lstcon_node *nd;
	unsigned int n = 0;

	mutex_lock(&lst_con.mutex);
	if (!lst_con.active || lst_con.shutdown)
		goto out;
	if (time_after(jiffies, lst_con.last_active + lst_con.timeout * HZ)) {
		pr_info("console session %s: idle for %u s\n",
			lst_con.name, lst_con.timeout);
		lstcon_session_end(LST_RPC_TIMEOUT_MIN);
		goto out;
	}
	list_for_each_entry(nd, &lst_con.nodes, list)
		n++;
	nodes = kvcalloc(max(n, 1U), sizeof(*nodes), GFP_KERNEL);
	if (!nodes)
		goto out;
	n = 0;
	list_for_each_entry(nd, &lst_con.nodes, list)
		if (nd->state == LST_NODE_ACTIVE &&
		    time_after(jiffies, nd->last_seen + quiet))
			nodes[n++] = nd;
	/*
	 * A node that answers late is busy, not down: its answer may queue
	 * behind the batch's own bulk for credits (seconds on a routed path),
	 * and an expired ping would mark it down and count as its error.
	 */
	lstcon_calls_free(lstcon_fanout(nodes, n, LST_SVC_DEBUG,
					LST_RPC_TIMEOUT_MAX, lstcon_prep_debug,
					NULL), n);
	kvfree(nodes);
out:
	if (!lst_con.shutdown)
		schedule_delayed_work(&lst_con.ping_work, quiet);
	mutex_unlock(&lst_con.mutex);
}

