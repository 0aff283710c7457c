// SPDX-License-Identifier: GPL-2.0
/*
 * The console's commands: LNET_IOC_LNETST on /dev/lnet, which `lst`
 * sends (include/uapi/linux/lnet/lnetst.h). The session this node opens,
 * its groups of test nodes, batches and tests, and the records each
 * command returns per node; console_rpc.c carries them to the nodes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/lib-lnet.h>
#include "console.h"

struct lstcon lst_con;

#ifdef LNET_KUNIT
/*
 * Debug builds: fail the next fail_group_alloc allocations of a group's
 * new node list (tests/scenarios/selftest.sh; the debug kernel has no
 * failslab). Read and written under lst_con.mutex.
 */
static unsigned int lstcon_fail_group_alloc;
module_param_named(fail_group_alloc, lstcon_fail_group_alloc, uint, 0644);
MODULE_PARM_DESC(fail_group_alloc,
		 "debug builds: fail this many add_group node list allocations");

static bool lstcon_fault(void)
{
	if (!lstcon_fail_group_alloc)
		return false;
	lstcon_fail_group_alloc--;
	return true;
}
#else
static bool lstcon_fault(void)
{
	return false;
}
#endif

/* ---- nodes and groups ----------------------------------------------------- */

static struct lstcon_node *lstcon_node_get(lnet_nid_t nid)
{
	struct lstcon_node *nd;

	list_for_each_entry(nd, &lst_con.nodes, list)
		if (nd->id.nid == nid)
			return nd;
	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return NULL;
	nd->id.nid = nid;
	nd->id.pid = LST_PID;
	list_add_tail(&nd->list, &lst_con.nodes);
	return nd;
}

/* Drop a group's reference; a node in no group is forgotten. */
static void lstcon_node_put(struct lstcon_node *nd)
{
	if (--nd->nref == 0) {
		list_del(&nd->list);
		kfree(nd);
	}
}

static struct lstcon_group *lstcon_group_find(const char *name)
{
	struct lstcon_group *g;

	list_for_each_entry(g, &lst_con.groups, list)
		if (!strncmp(g->name, name, LST_NAME_SIZE))
			return g;
	return NULL;
}

static bool lstcon_group_has(struct lstcon_group *g, struct lstcon_node *nd)
{
	unsigned int i;

	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i] == nd)
			return true;
	return false;
}

static void lstcon_group_free(struct lstcon_group *g)
{
	unsigned int i;

	for (i = 0; i < g->nnodes; i++)
		lstcon_node_put(g->nodes[i]);
	list_del(&g->list);
	kfree(g->nodes);
	kfree(g);
}

static struct lstcon_batch *lstcon_batch_find(const char *name)
{
	struct lstcon_batch *b;

	list_for_each_entry(b, &lst_con.batches, list)
		if (!strncmp(b->name, name, LST_NAME_SIZE))
			return b;
	return NULL;
}

static bool lstcon_name_ok(char *name)
{
	name[LST_NAME_SIZE - 1] = '\0';
	return name[0] != '\0';
}

/* ---- session ---------------------------------------------------------------- */

static void lstcon_session_free(void)
{
	struct lstcon_batch *b, *bt;
	struct lstcon_test *t, *tt;
	struct lstcon_group *g, *gt;

	list_for_each_entry_safe(b, bt, &lst_con.batches, list) {
		list_for_each_entry_safe(t, tt, &b->tests, list) {
			list_del(&t->list);
			kfree(t);
		}
		list_del(&b->list);
		kfree(b);
	}
	list_for_each_entry_safe(g, gt, &lst_con.groups, list)
		lstcon_group_free(g);
	lst_con.active = false;
}

/* REMOVE_SESSION to every node, then forget everything. */
void lstcon_session_end(u32 timeout)
{
	struct lstcon_node **nodes;
	struct lstcon_node *nd;
	unsigned int n = 0;

	lockdep_assert_held(&lst_con.mutex);
	list_for_each_entry(nd, &lst_con.nodes, list)
		n++;
	nodes = kvcalloc(max(n, 1U), sizeof(*nodes), GFP_KERNEL);
	if (nodes) {
		n = 0;
		list_for_each_entry(nd, &lst_con.nodes, list)
			if (nd->state == LST_NODE_ACTIVE)
				nodes[n++] = nd;
		lstcon_calls_free(lstcon_fanout(nodes, n, LST_SVC_REMOVE_SESSION,
						timeout, lstcon_prep_rmsn, NULL),
				  n);
		kvfree(nodes);
	}
	pr_info("console session %s ended\n", lst_con.name);
	lstcon_session_free();
}

static int lstcon_session_new(struct lstio_session_new *a)
{
	if (!lstcon_name_ok(a->sn_name))
		return -EINVAL;
	if (a->sn_features & ~LST_FEATS_MASK)
		return -EINVAL;
	if (lst_con.active) {
		if (!a->sn_force)
			return -EEXIST;
		lstcon_session_end(LST_RPC_TIMEOUT_MIN);
	}
	lst_con.sid.ses_nid = lst_self_nid();
	lst_con.sid.ses_stamp = ktime_to_ms(ktime_get_real());
	memcpy(lst_con.name, a->sn_name, sizeof(lst_con.name));
	lst_con.key = a->sn_hdr.lh_key;
	lst_con.timeout = a->sn_timeout ?: LST_DEFAULT_TIMEOUT;
	lst_con.feats = a->sn_features ?: LST_FEATS_MASK;
	lst_con.active = true;
	pr_info("console session %s opened\n", lst_con.name);
	return 0;
}

static int lstcon_session_info(struct lstio_session_info *a)
{
	struct lstcon_group *g;
	struct lstcon_batch *b;
	struct lstcon_node *nd;

	a->si_sid_nid = lst_con.sid.ses_nid;
	a->si_sid_stamp = lst_con.sid.ses_stamp;
	a->si_key = lst_con.key;
	a->si_timeout = lst_con.timeout;
	a->si_features = lst_con.feats;
	a->si_ngroups = 0;
	a->si_nbatches = 0;
	a->si_nnodes = 0;
	list_for_each_entry(g, &lst_con.groups, list)
		a->si_ngroups++;
	list_for_each_entry(b, &lst_con.batches, list)
		a->si_nbatches++;
	list_for_each_entry(nd, &lst_con.nodes, list)
		a->si_nnodes++;
	memcpy(a->si_name, lst_con.name, sizeof(a->si_name));
	return 0;
}

/* ---- per-node records ------------------------------------------------------- */

static u32 lstcon_timeout(const struct lstio_hdr *h)
{
	if (!h->lh_timeout)
		return LST_RPC_TIMEOUT_MAX;
	return clamp_t(u32, h->lh_timeout, LST_RPC_TIMEOUT_MIN,
		       LST_RPC_TIMEOUT_MAX);
}

static void lstcon_rec_fill(struct lstio_node_rpc *r, struct lstcon_node *nd,
			    struct lstcon_call *c)
{
	memset(r, 0, sizeof(*r));
	r->nr_nid = nd->id.nid;
	r->nr_pid = nd->id.pid;
	r->nr_state = nd->state;
	memcpy(r->nr_name, nd->name, sizeof(r->nr_name));
	if (!c)
		return;
	r->nr_rpc_errno = c->rpc.status;
	if (!c->rpc.status)
		r->nr_status = c->rpc.rpy.body.status;
}

/* Where the node records of a command start, and how many fit. */
struct lstcon_out {
	struct lstio_hdr	*hdr;
	void			*recs;
	size_t			recsize;
};

static int lstcon_out_init(struct lstcon_out *o, struct lstio_hdr *h,
			   size_t fixed, size_t recsize)
{
	if (fixed > h->lh_ioc.ioc_len ||
	    (h->lh_ioc.ioc_len - fixed) / recsize < h->lh_nres_max)
		return -EINVAL;
	o->hdr = h;
	o->recs = (char *)h + fixed;
	o->recsize = recsize;
	h->lh_nres = 0;
	return 0;
}

/* The next record, or NULL once the caller's room is full (still counted). */
static void *lstcon_out_next(struct lstcon_out *o)
{
	u32 i = o->hdr->lh_nres++;

	if (i >= o->hdr->lh_nres_max)
		return NULL;
	return (char *)o->recs + i * o->recsize;
}

static void lstcon_out_calls(struct lstcon_out *o, struct lstcon_node **nodes,
			     struct lstcon_call *calls, unsigned int n)
{
	struct lstio_node_rpc *r;
	unsigned int i;

	for (i = 0; i < n; i++) {
		r = lstcon_out_next(o);
		if (!r)
			continue;
		lstcon_rec_fill(r, nodes[i], calls ? &calls[i] : NULL);
		if (!calls || calls[i].rpc.status)
			continue;
		if (calls[i].rpc.rpy.type == LST_MSG_DEBUG_REPLY)
			r->nr_u32[0] = calls[i].rpc.rpy.body.debug_rpy.timeout;
		if (calls[i].rpc.rpy.type == LST_MSG_BATCH_REPLY) {
			r->nr_u32[0] = calls[i].rpc.rpy.body.batch_rpy.active;
			r->nr_u32[1] = calls[i].rpc.rpy.body.batch_rpy.remaining;
		}
	}
}

/*
 * The nodes a group command names: the group's, or (empty name) those of
 * the NID array, which must already be known to this session.
 */
static struct lstcon_node **lstcon_nodes_of(struct lstio_group *a,
					    unsigned int *n, int *err)
{
	struct lstcon_group *g;
	struct lstcon_node **nodes;
	unsigned int i;

	if (a->gn_name[0]) {
		a->gn_name[LST_NAME_SIZE - 1] = '\0';
		g = lstcon_group_find(a->gn_name);
		if (!g) {
			*err = -ENOENT;
			return NULL;
		}
		*n = g->nnodes;
		nodes = kvcalloc(max(*n, 1U), sizeof(*nodes), GFP_KERNEL);
		if (nodes && g->nnodes)
			memcpy(nodes, g->nodes, g->nnodes * sizeof(*nodes));
	} else {
		*n = a->gn_nnids;
		nodes = kvcalloc(max(*n, 1U), sizeof(*nodes), GFP_KERNEL);
		for (i = 0; nodes && i < *n; i++) {
			struct lstcon_node *nd;

			nodes[i] = NULL;
			list_for_each_entry(nd, &lst_con.nodes, list)
				if (nd->id.nid == a->gn_nids[i])
					nodes[i] = nd;
			if (!nodes[i]) {
				kvfree(nodes);
				*err = -ENOENT;
				return NULL;
			}
		}
	}
	if (!nodes)
		*err = -ENOMEM;
	return nodes;
}

static int lstcon_group_add(struct lstio_group *a)
{
	struct lstcon_node **nodes, **grown, **join;
	struct lstcon_call *calls;
	struct lstcon_group *g;
	struct lstcon_out out;
	unsigned int i, n = a->gn_nnids, njoin = 0, mark;
	int rc;

	rc = lstcon_out_init(&out, &a->gn_hdr,
			     sizeof(*a) + (size_t)n * sizeof(u64),
			     sizeof(struct lstio_node_rpc));
	if (rc || !lstcon_name_ok(a->gn_name) || n > LST_MAX_NODES)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (a->gn_nids[i] == LNET_NID_ANY)
			return -EINVAL;
	g = lstcon_group_find(a->gn_name);
	if (!g) {
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		if (!g)
			return -ENOMEM;
		memcpy(g->name, a->gn_name, sizeof(g->name));
		list_add_tail(&g->list, &lst_con.groups);
	}
	if (g->nnodes + n > LST_MAX_NODES)
		return -E2BIG;
	if (!n)
		return 0;
	/* everything that can fail first: a node in the group must be asked */
	nodes = lstcon_fault() ? NULL :
		kvcalloc(n, sizeof(*nodes), GFP_KERNEL);
	join = kvcalloc(n, sizeof(*join), GFP_KERNEL);
	if (!nodes || !join)
		goto nomem;
	/* a moved array frees the old one: g->nodes must follow at once */
	grown = krealloc_array(g->nodes, g->nnodes + n, sizeof(*grown),
			       GFP_KERNEL);
	if (!grown)
		goto nomem;
	g->nodes = grown;
	for (i = 0; i < n; i++) {
		nodes[i] = lstcon_node_get(a->gn_nids[i]);
		if (!nodes[i]) {
			rc = -ENOMEM;
			break;
		}
		if (!lstcon_group_has(g, nodes[i])) {
			g->nodes[g->nnodes++] = nodes[i];
			nodes[i]->nref++;
		}
	}
	if (rc) {
		/* the nodes added are asked when the command is repeated */
		kvfree(join);
		kvfree(nodes);
		return rc;
	}
	/*
	 * A node counts every MAKE_SESSION of our session as one more
	 * reference and REMOVE_SESSION drops one: a node already active
	 * (in another group) is not asked again, or ending the session
	 * would leave it behind.
	 */
	mark = ++lst_con.mark;
	for (i = 0; i < n; i++) {
		if (nodes[i]->state == LST_NODE_ACTIVE || nodes[i]->mark == mark)
			continue;
		nodes[i]->mark = mark;
		join[njoin++] = nodes[i];
	}
	calls = lstcon_fanout(join, njoin, LST_SVC_MAKE_SESSION,
			      lstcon_timeout(&a->gn_hdr), lstcon_prep_mksn,
			      NULL);
	for (i = 0; calls && i < n; i++) {
		struct lstio_node_rpc *r = lstcon_out_next(&out);
		unsigned int k;

		if (!r)
			continue;
		for (k = 0; k < njoin && join[k] != nodes[i]; k++)
			;
		lstcon_rec_fill(r, nodes[i], k < njoin ? &calls[k] : NULL);
	}
	lstcon_calls_free(calls, njoin);
	kvfree(join);
	kvfree(nodes);
	return calls ? 0 : -ENOMEM;

nomem:
	kvfree(join);
	kvfree(nodes);
	return -ENOMEM;
}

static int lstcon_group_del(struct lstio_group *a)
{
	struct lstcon_node **gone;
	struct lstcon_group *g;
	unsigned int i, n = 0;

	a->gn_name[LST_NAME_SIZE - 1] = '\0';
	g = lstcon_group_find(a->gn_name);
	if (!g)
		return -ENOENT;
	if (g->nref)
		return -EBUSY;
	/* nodes in no other group leave the session */
	gone = kvcalloc(max(g->nnodes, 1U), sizeof(*gone), GFP_KERNEL);
	if (!gone)
		return -ENOMEM;
	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i]->nref == 1 &&
		    g->nodes[i]->state == LST_NODE_ACTIVE)
			gone[n++] = g->nodes[i];
	lstcon_calls_free(lstcon_fanout(gone, n, LST_SVC_REMOVE_SESSION,
					lstcon_timeout(&a->gn_hdr),
					lstcon_prep_rmsn, NULL), n);
	kvfree(gone);
	lstcon_group_free(g);
	return 0;
}

static int lstcon_group_list(struct lstio_group_list *a)
{
	struct lstcon_group *g;
	unsigned int i = 0, k;

	list_for_each_entry(g, &lst_con.groups, list) {
		if (i++ != a->gl_index)
			continue;
		memcpy(a->gl_name, g->name, sizeof(a->gl_name));
		a->gl_nnodes = g->nnodes;
		a->gl_nactive = 0;
		a->gl_nbusy = 0;
		a->gl_ndown = 0;
		a->gl_nunknown = 0;
		for (k = 0; k < g->nnodes; k++) {
			switch (g->nodes[k]->state) {
			case LST_NODE_ACTIVE:
				a->gl_nactive++;
				break;
			case LST_NODE_BUSY:
				a->gl_nbusy++;
				break;
			case LST_NODE_DOWN:
				a->gl_ndown++;
				break;
			default:
				a->gl_nunknown++;
			}
		}
		return 0;
	}
	return -ENOENT;
}

/* GROUP_INFO (no RPC), DEBUG, STAT_QUERY: on a group or a NID list. */
static int lstcon_group_rpc(struct lstio_group *a, u32 service)
{
	struct lstcon_node **nodes;
	struct lstcon_call *calls = NULL;
	struct lstcon_out out;
	unsigned int n, i;
	int rc = 0;

	if (a->gn_nnids > LST_MAX_NODES)
		return -EINVAL;
	rc = lstcon_out_init(&out, &a->gn_hdr,
			     sizeof(*a) + (size_t)a->gn_nnids * sizeof(u64),
			     service == LST_SVC_QUERY_STAT ?
			     sizeof(struct lstio_node_stat) :
			     sizeof(struct lstio_node_rpc));
	if (rc)
		return rc;
	nodes = lstcon_nodes_of(a, &n, &rc);
	if (!nodes)
		return rc;
	if (service != ~0U) {
		calls = lstcon_fanout(nodes, n, service,
				      lstcon_timeout(&a->gn_hdr),
				      service == LST_SVC_DEBUG ?
				      lstcon_prep_debug : lstcon_prep_stat,
				      NULL);
		if (!calls) {
			kvfree(nodes);
			return -ENOMEM;
		}
	}
	if (service != LST_SVC_QUERY_STAT) {
		lstcon_out_calls(&out, nodes, calls, n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct lstio_node_stat *r = lstcon_out_next(&out);
		const struct lst_stat_rpy *s = &calls[i].rpc.rpy.body.stat_rpy;

		if (!r)
			continue;
		memset(r, 0, sizeof(*r));
		lstcon_rec_fill(&r->ns_rpc, nodes[i], &calls[i]);
		if (calls[i].rpc.status || s->status)
			continue;
		r->ns_running_ms = s->fw.running_ms;
		r->ns_active_batches = s->fw.active_batches;
		r->ns_zombie_sessions = s->fw.zombie_sessions;
		r->ns_brw_errors = s->fw.brw_errors;
		r->ns_ping_errors = s->fw.ping_errors;
		r->ns_rpc_errors = s->rpc.errors;
		r->ns_rpcs_sent = s->rpc.rpcs_sent;
		r->ns_rpcs_rcvd = s->rpc.rpcs_rcvd;
		r->ns_rpcs_dropped = s->rpc.rpcs_dropped;
		r->ns_rpcs_expired = s->rpc.rpcs_expired;
		r->ns_bulk_get = s->rpc.bulk_get;
		r->ns_bulk_put = s->rpc.bulk_put;
		r->ns_msgs_alloc = s->lnet.msgs_alloc;
		r->ns_msgs_max = s->lnet.msgs_max;
		r->ns_lnet_errors = s->lnet.errors;
		r->ns_send_count = s->lnet.send_count;
		r->ns_recv_count = s->lnet.recv_count;
		r->ns_route_count = s->lnet.route_count;
		r->ns_drop_count = s->lnet.drop_count;
		r->ns_send_length = s->lnet.send_length;
		r->ns_recv_length = s->lnet.recv_length;
		r->ns_route_length = s->lnet.route_length;
		r->ns_drop_length = s->lnet.drop_length;
	}
out:
	lstcon_calls_free(calls, n);
	kvfree(nodes);
	return 0;
}

/* ---- batches and tests ------------------------------------------------------ */

static int lstcon_batch_add(struct lstio_batch *a)
{
	struct lstcon_batch *b;

	if (!lstcon_name_ok(a->ba_name))
		return -EINVAL;
	if (lstcon_batch_find(a->ba_name))
		return -EEXIST;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	memcpy(b->name, a->ba_name, sizeof(b->name));
	b->bid = ++lst_con.next_bid;
	INIT_LIST_HEAD(&b->tests);
	list_add_tail(&b->list, &lst_con.batches);
	return 0;
}

static int lstcon_batch_list(struct lstio_batch *a)
{
	struct lstcon_batch *b;
	unsigned int i = 0;

	list_for_each_entry(b, &lst_con.batches, list) {
		if (i++ != a->ba_index)
			continue;
		memcpy(a->ba_name, b->name, sizeof(a->ba_name));
		a->ba_ntests = b->ntests;
		a->ba_running = b->running;
		return 0;
	}
	return -ENOENT;
}

/* The distinct client nodes of a batch's tests (all, or test @idx). */
static struct lstcon_node **lstcon_batch_clients(struct lstcon_batch *b,
						 u32 idx, unsigned int *n)
{
	struct lstcon_node **nodes;
	struct lstcon_test *t;
	unsigned int max = 0, i, mark = ++lst_con.mark;

	list_for_each_entry(t, &b->tests, list)
		max += t->from->nnodes;
	nodes = kvcalloc(max(max, 1U), sizeof(*nodes), GFP_KERNEL);
	if (!nodes)
		return NULL;
	*n = 0;
	list_for_each_entry(t, &b->tests, list) {
		if (idx && t->index != idx)
			continue;
		for (i = 0; i < t->from->nnodes; i++) {
			struct lstcon_node *nd = t->from->nodes[i];

			if (nd->mark == mark)
				continue;
			nd->mark = mark;
			nodes[(*n)++] = nd;
		}
	}
	return nodes;
}

/* Whether any node answering a BATCH query still runs units. */
static bool lstcon_calls_active(struct lstcon_call *calls, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (calls[i].rpc.status ||
		    calls[i].rpc.rpy.body.batch_rpy.active)
			return true;
	return false;
}

/* A batch started earlier may have run its loops out: ask its clients. */
static void lstcon_batch_refresh(struct lstcon_batch *b, u32 timeout)
{
	struct lstcon_batch_op op = { .bid = b->bid, .opc = LST_BATCH_QUERY };
	struct lstcon_node **nodes;
	struct lstcon_call *calls;
	unsigned int n;

	nodes = lstcon_batch_clients(b, 0, &n);
	if (!nodes)
		return;
	calls = lstcon_fanout(nodes, n, LST_SVC_BATCH, timeout,
			      lstcon_prep_batch, &op);
	if (calls)
		b->running = lstcon_calls_active(calls, n);
	lstcon_calls_free(calls, n);
	kvfree(nodes);
}

static int lstcon_batch_op(struct lstio_batch *a, u32 opc)
{
	struct lstcon_batch_op op = { .opc = opc };
	struct lstcon_node **nodes;
	struct lstcon_call *calls;
	struct lstcon_batch *b;
	struct lstcon_out out;
	unsigned int n;
	int rc;

	rc = lstcon_out_init(&out, &a->ba_hdr, sizeof(*a),
			     sizeof(struct lstio_node_rpc));
	if (rc)
		return rc;
	a->ba_name[LST_NAME_SIZE - 1] = '\0';
	b = lstcon_batch_find(a->ba_name);
	if (!b)
		return -ENOENT;
	if (opc == LST_BATCH_QUERY && a->ba_test > b->ntests)
		return -ENOENT;
	op.bid = b->bid;
	op.testidx = opc == LST_BATCH_QUERY ? a->ba_test : 0;
	op.arg = a->ba_arg;
	nodes = lstcon_batch_clients(b, op.testidx, &n);
	if (!nodes)
		return -ENOMEM;
	calls = lstcon_fanout(nodes, n, LST_SVC_BATCH, lstcon_timeout(&a->ba_hdr),
			      lstcon_prep_batch, &op);
	if (calls) {
		lstcon_out_calls(&out, nodes, calls, n);
		if (opc == LST_BATCH_RUN)
			b->running = true;
		else if (opc == LST_BATCH_STOP)
			b->running = false;
		else if (!op.testidx)
			b->running = lstcon_calls_active(calls, n);
	}
	lstcon_calls_free(calls, n);
	kvfree(nodes);
	return calls ? 0 : -ENOMEM;
}

static int lstcon_test_check(const struct lstio_test *a)
{
	if (a->lt_type != LST_TEST_PING && a->lt_type != LST_TEST_BRW)
		return -EINVAL;
	if (!a->lt_loop || !a->lt_concur || a->lt_concur > LST_MAX_CONCUR)
		return -EINVAL;
	if (!a->lt_dist || !a->lt_span)
		return -EINVAL;
	if (a->lt_type == LST_TEST_PING)
		return 0;
	if (a->lt_brw_rw != LST_BRW_RW_READ && a->lt_brw_rw != LST_BRW_RW_WRITE)
		return -EINVAL;
	if (!a->lt_brw_size || a->lt_brw_size > LST_BRW_MAX_LEN)
		return -EINVAL;
	if (a->lt_brw_offset % 8 || a->lt_brw_offset >= PAGE_SIZE)
		return -EINVAL;
	if (a->lt_brw_check < LST_CHECK_NONE || a->lt_brw_check > LST_CHECK_FULL)
		return -EINVAL;
	return 0;
}

static int lstcon_test_add(struct lstio_test *a)
{
	struct lstcon_test_op op = {};
	struct lstcon_group *from, *to;
	struct lstcon_call *calls;
	struct lstcon_batch *b;
	struct lstcon_test *t;
	struct lstcon_out out;
	int rc;

	rc = lstcon_out_init(&out, &a->lt_hdr, sizeof(*a),
			     sizeof(struct lstio_node_rpc));
	if (rc)
		return rc;
	rc = lstcon_test_check(a);
	if (rc)
		return rc;
	a->lt_batch[LST_NAME_SIZE - 1] = '\0';
	a->lt_from[LST_NAME_SIZE - 1] = '\0';
	a->lt_to[LST_NAME_SIZE - 1] = '\0';
	b = lstcon_batch_find(a->lt_batch);
	from = lstcon_group_find(a->lt_from);
	to = lstcon_group_find(a->lt_to);
	if (!b || !from || !to)
		return -ENOENT;
	if (b->running)
		lstcon_batch_refresh(b, lstcon_timeout(&a->lt_hdr));
	if (b->running)
		return -EBUSY;
	if (!from->nnodes || !to->nnodes)
		return -EINVAL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->args = *a;
	t->from = from;
	t->to = to;
	t->index = ++b->ntests;
	from->nref++;
	to->nref++;
	list_add_tail(&t->list, &b->tests);
	a->lt_index = t->index;

	op.batch = b;
	op.test = t;
	calls = lstcon_fanout(to->nodes, to->nnodes, LST_SVC_TEST,
			      lstcon_timeout(&a->lt_hdr), lstcon_prep_test, &op);
	lstcon_out_calls(&out, to->nodes, calls, to->nnodes);
	lstcon_calls_free(calls, to->nnodes);
	if (!calls)
		return -ENOMEM;
	op.client = true;
	calls = lstcon_fanout(from->nodes, from->nnodes, LST_SVC_TEST,
			      lstcon_timeout(&a->lt_hdr), lstcon_prep_test, &op);
	lstcon_out_calls(&out, from->nodes, calls, from->nnodes);
	lstcon_calls_free(calls, from->nnodes);
	return calls ? 0 : -ENOMEM;
}

/* ---- the ioctl ---------------------------------------------------------------- */

static const struct {
	u32	opc;
	u32	size;		/* fixed part */
	bool	session;	/* needs an open session */
} lstcon_cmds[] = {
	{ LSTIO_SESSION_NEW,	sizeof(struct lstio_session_new),	false },
	{ LSTIO_SESSION_END,	sizeof(struct lstio_hdr),		true },
	{ LSTIO_SESSION_INFO,	sizeof(struct lstio_session_info),	true },
	{ LSTIO_DEBUG,		sizeof(struct lstio_group),		true },
	{ LSTIO_GROUP_ADD,	sizeof(struct lstio_group),		true },
	{ LSTIO_GROUP_LIST,	sizeof(struct lstio_group_list),	true },
	{ LSTIO_GROUP_INFO,	sizeof(struct lstio_group),		true },
	{ LSTIO_GROUP_DEL,	sizeof(struct lstio_group),		true },
	{ LSTIO_BATCH_ADD,	sizeof(struct lstio_batch),		true },
	{ LSTIO_BATCH_START,	sizeof(struct lstio_batch),		true },
	{ LSTIO_BATCH_STOP,	sizeof(struct lstio_batch),		true },
	{ LSTIO_BATCH_LIST,	sizeof(struct lstio_batch),		true },
	{ LSTIO_TEST_ADD,	sizeof(struct lstio_test),		true },
	{ LSTIO_BATCH_QUERY,	sizeof(struct lstio_batch),		true },
	{ LSTIO_STAT_QUERY,	sizeof(struct lstio_group),		true },
};

static int lstcon_dispatch(struct lstio_hdr *h)
{
	struct lstio_group *grp = (struct lstio_group *)h;
	struct lstio_batch *bat = (struct lstio_batch *)h;

	switch (h->lh_opc) {
	case LSTIO_SESSION_NEW:
		return lstcon_session_new((struct lstio_session_new *)h);
	case LSTIO_SESSION_END:
		lstcon_session_end(lstcon_timeout(h));
		return 0;
	case LSTIO_SESSION_INFO:
		return lstcon_session_info((struct lstio_session_info *)h);
	case LSTIO_DEBUG:
		return lstcon_group_rpc(grp, LST_SVC_DEBUG);
	case LSTIO_GROUP_ADD:
		return lstcon_group_add(grp);
	case LSTIO_GROUP_LIST:
		return lstcon_group_list((struct lstio_group_list *)h);
	case LSTIO_GROUP_INFO:
		return lstcon_group_rpc(grp, ~0U);
	case LSTIO_GROUP_DEL:
		return lstcon_group_del(grp);
	case LSTIO_BATCH_ADD:
		return lstcon_batch_add(bat);
	case LSTIO_BATCH_START:
		return lstcon_batch_op(bat, LST_BATCH_RUN);
	case LSTIO_BATCH_STOP:
		return lstcon_batch_op(bat, LST_BATCH_STOP);
	case LSTIO_BATCH_LIST:
		return lstcon_batch_list(bat);
	case LSTIO_TEST_ADD:
		return lstcon_test_add((struct lstio_test *)h);
	case LSTIO_BATCH_QUERY:
		return lstcon_batch_op(bat, LST_BATCH_QUERY);
	case LSTIO_STAT_QUERY:
		return lstcon_group_rpc(grp, LST_SVC_QUERY_STAT);
	}
	return -EINVAL;
}

static int lstcon_ioctl(unsigned int cmd, struct lnet_ioctl_hdr *ioc)
{
	struct lstio_hdr *h = (struct lstio_hdr *)ioc;
	unsigned int i;
	int rc;

	if (cmd != LNET_IOC_LNETST)
		return -ENOIOCTLCMD;
	if (ioc->ioc_version != LNET_IOCTL_VERSION2 ||
	    ioc->ioc_len < sizeof(*h))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lstcon_cmds); i++)
		if (lstcon_cmds[i].opc == h->lh_opc)
			break;
	if (i == ARRAY_SIZE(lstcon_cmds) || ioc->ioc_len < lstcon_cmds[i].size)
		return -EINVAL;

	mutex_lock(&lst_con.mutex);
	if (lst_con.shutdown) {
		rc = -ESHUTDOWN;
	} else if (lstcon_cmds[i].session && !lst_con.active) {
		rc = -ESRCH;
	} else if (lstcon_cmds[i].session && lst_con.key &&
		   h->lh_key != lst_con.key) {
		rc = -EPERM;
	} else {
		lst_con.last_active = jiffies;
		rc = lstcon_dispatch(h);
	}
	mutex_unlock(&lst_con.mutex);
	return rc;
}

static struct lnet_ioctl_handler lstcon_ioctl_handler = {
	.handle	= lstcon_ioctl,
};

int lst_console_startup(void)
{
	mutex_init(&lst_con.mutex);
	INIT_LIST_HEAD(&lst_con.nodes);
	INIT_LIST_HEAD(&lst_con.groups);
	INIT_LIST_HEAD(&lst_con.batches);
	INIT_DELAYED_WORK(&lst_con.ping_work, lstcon_ping_work);
	lst_con.shutdown = false;
	lnet_ioctl_register(&lstcon_ioctl_handler);
	schedule_delayed_work(&lst_con.ping_work, LST_PING_INTERVAL * HZ);
	return 0;
}

void lst_console_shutdown(void)
{
	/* returns once no command runs; later ones are not ours */
	lnet_ioctl_unregister(&lstcon_ioctl_handler);
	mutex_lock(&lst_con.mutex);
	lst_con.shutdown = true;
	mutex_unlock(&lst_con.mutex);
	cancel_delayed_work_sync(&lst_con.ping_work);
	mutex_lock(&lst_con.mutex);
	if (lst_con.active)
		lstcon_session_end(LST_RPC_TIMEOUT_MIN);
	mutex_unlock(&lst_con.mutex);
}
