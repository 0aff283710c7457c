// SPDX-License-Identifier: GPL-2.0
/*
 * Network benchmark between two LNet nodes through the public API, for
 * make bench (tests/scenarios/bench-net.sh). Test-only: never shipped.
 *
 *   role=server   posts one page MD on the bench portal that serves PUTs
 *                 and GETs of up to "size" bytes from any peer, and stays
 *                 loaded; a 0-byte PUT with match bits NETBENCH_DONE sets
 *                 the "finished" parameter, so the server's guest knows
 *                 when it may unload.
 *   role=client   for "seconds", keeps "inflight" operations of "op" going
 *                 to "target" and prints one "lnet_netbench:" result line
 *                 from module init, then tells the server it is done if
 *                 "last" is set.
 *
 * op=put: PUT of "size" bytes with an ACK; an operation completes when its
 *         SEND and ACK events both arrived.
 * op=get: GET of "size" bytes; completes on SEND and REPLY.
 * Each in-flight slot has its own page MD (so zero-copy paths are the ones
 * measured) and its completions are handed to the submitting thread: event
 * callbacks must not sleep, LNetPut()/LNetGet() may.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bvec.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/lnet/api.h>
#include <linux/lnet/nidstr.h>

#define NETBENCH_PORTAL		41
#define NETBENCH_DATA		1ULL
#define NETBENCH_DONE		2ULL
#define NETBENCH_MAX_INFLIGHT	64
#define NETBENCH_MAX_SIZE	(1U << 20)

static char *role = "server";
module_param(role, charp, 0444);
MODULE_PARM_DESC(role, "server or client");

static char *target = "";
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "client: the server's NID, e.g. 192.0.2.2@tcp");

static char *op = "put";
module_param(op, charp, 0444);
MODULE_PARM_DESC(op, "client: put or get");

static unsigned int size = NETBENCH_MAX_SIZE;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "bytes per operation (0..1 MiB; the server's MD size)");

static unsigned int inflight = 8;
module_param(inflight, uint, 0444);
MODULE_PARM_DESC(inflight, "client: operations in flight (1..64)");

static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "client: measuring time");

static unsigned int wait_secs = 60;
module_param(wait_secs, uint, 0444);
MODULE_PARM_DESC(wait_secs, "client: how long to wait for the server to answer");

static bool last;
module_param(last, bool, 0444);
MODULE_PARM_DESC(last, "client: tell the server the benchmark is over");

static int finished;
module_param(finished, int, 0444);
MODULE_PARM_DESC(finished, "server: 1 once a client said the benchmark is over");

struct netbench_buf {
	struct bio_vec		*bvec;
	unsigned int		npages;
};

struct netbench_slot {
	struct lnet_handle_md	mdh;
	atomic_t		events;		/* of the operation in flight */
	int			status;		/* first error of that operation */
};

struct netbench_client {
	struct lnet_process_id	peer;
	bool			is_get;
	struct netbench_buf	*bufs;
	struct netbench_slot	*slots;
	unsigned long		*done;		/* slots whose operation completed */
	wait_queue_head_t	waitq;
	struct lnet_handle_eq	eqh;
};

static struct netbench_client *netbench_client;

/* Server state, kept until module exit. */
static struct netbench_buf netbench_server_buf;
static struct lnet_handle_me netbench_server_meh;
static struct lnet_handle_md netbench_server_mdh;
static struct lnet_handle_eq netbench_server_eqh;
static bool netbench_ni_up;

static void netbench_buf_free(struct netbench_buf *b)
{
	unsigned int i;

	if (!b->bvec)
		return;
	for (i = 0; i < b->npages; i++)
		if (b->bvec[i].bv_page)
			__free_page(b->bvec[i].bv_page);
	kfree(b->bvec);
	b->bvec = NULL;
}

/* A page vector of @len bytes (at least one page, so 0 B MDs work too). */
static int netbench_buf_alloc(struct netbench_buf *b, unsigned int len)
{
	unsigned int i, left = len;

	b->npages = max_t(unsigned int, 1, DIV_ROUND_UP(len, PAGE_SIZE));
	b->bvec = kcalloc(b->npages, sizeof(*b->bvec), GFP_KERNEL);
	if (!b->bvec)
		return -ENOMEM;
	for (i = 0; i < b->npages; i++) {
		b->bvec[i].bv_page = alloc_page(GFP_KERNEL);
		if (!b->bvec[i].bv_page) {
			netbench_buf_free(b);
			return -ENOMEM;
		}
		b->bvec[i].bv_offset = 0;
		b->bvec[i].bv_len = min_t(unsigned int, left, PAGE_SIZE);
		left -= b->bvec[i].bv_len;
	}
	return 0;
}

/* A page MD over @b, or an empty contiguous one for 0 B operations. */
static struct lnet_md netbench_md(struct netbench_buf *b, unsigned int len)
{
	struct lnet_md md = {
		.threshold = LNET_MD_THRESH_INF,
	};

	if (len) {
		md.start = b->bvec;
		md.length = b->npages;
		md.options = LNET_MD_KIOV;
	}
	return md;
}

static void netbench_server_event(struct lnet_event *ev)
{
	if (ev->type == LNET_EVENT_PUT && ev->match_bits == NETBENCH_DONE) {
		WRITE_ONCE(finished, 1);
		pr_info("server: a client said done\n");
	}
}

static int netbench_server_start(void)
{
	struct lnet_process_id anyone = {
		.nid = LNET_NID_ANY,
		.pid = LNET_PID_ANY,
	};
	struct lnet_md md;
	int rc;

	rc = netbench_buf_alloc(&netbench_server_buf, size);
	if (rc)
		return rc;
	rc = LNetEQAlloc(0, netbench_server_event, &netbench_server_eqh);
	if (rc)
		goto fail_buf;
	/* one MD for the data (match bits 1) and "done" (2) */
	rc = LNetMEAttach(NETBENCH_PORTAL, anyone, 0, NETBENCH_DATA | NETBENCH_DONE,
			  LNET_RETAIN, LNET_INS_AFTER, &netbench_server_meh);
	if (rc)
		goto fail_eq;
	md = netbench_md(&netbench_server_buf, size);
	md.options |= LNET_MD_OP_PUT | LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE |
		      LNET_MD_TRUNCATE;
	md.eq_handle = netbench_server_eqh;
	rc = LNetMDAttach(netbench_server_meh, md, LNET_RETAIN,
			  &netbench_server_mdh);
	if (rc)
		goto fail_me;
	pr_info("server: portal %d, MD of %u bytes\n",
		NETBENCH_PORTAL, size);
	return 0;

fail_me:
	LNetMEUnlink(netbench_server_meh);
fail_eq:
	LNetEQFree(netbench_server_eqh);
fail_buf:
	netbench_buf_free(&netbench_server_buf);
	return rc;
}

static void netbench_server_stop(void)
{
	LNetMDUnlink(netbench_server_mdh);
	LNetMEUnlink(netbench_server_meh);
	LNetEQFree(netbench_server_eqh);
	netbench_buf_free(&netbench_server_buf);
}

/*
 * Completion of the client's operations: two events each (SEND, then ACK
 * or REPLY, in either order). Runs in LND/softirq context.
 */
static void netbench_client_event(struct lnet_event *ev)
{
	struct netbench_client *cl = netbench_client;
	struct netbench_slot *slot = ev->md.user_ptr;
	unsigned int index;

	if (ev->type == LNET_EVENT_UNLINK || !slot)
		return;
	if (ev->status && !slot->status)
		slot->status = ev->status;
	if (atomic_inc_return(&slot->events) < 2)
		return;
	index = slot - cl->slots;
	set_bit(index, cl->done);
	wake_up(&cl->waitq);
}

static int netbench_submit(struct netbench_client *cl, unsigned int index,
			   u64 bits)
{
	struct netbench_slot *slot = &cl->slots[index];

	atomic_set(&slot->events, 0);
	slot->status = 0;
	if (cl->is_get && bits == NETBENCH_DATA)
		return LNetGet(LNET_NID_ANY, slot->mdh, cl->peer,
			       NETBENCH_PORTAL, bits, 0);
	return LNetPut(LNET_NID_ANY, slot->mdh, LNET_ACK_REQ, cl->peer,
		       NETBENCH_PORTAL, bits, 0, 0);
}

/* Wait until slot @index completed (or time out): its status or -ETIMEDOUT. */
static int netbench_wait_slot(struct netbench_client *cl, unsigned int index,
			      unsigned int secs)
{
	if (!wait_event_timeout(cl->waitq, test_bit(index, cl->done), secs * HZ))
		return -ETIMEDOUT;
	clear_bit(index, cl->done);
	return cl->slots[index].status;
}

/* One GET/PUT of the measured kind until the server answers. */
static int netbench_wait_server(struct netbench_client *cl)
{
	unsigned long give_up = jiffies + wait_secs * HZ;
	int rc;

	do {
		rc = netbench_submit(cl, 0, NETBENCH_DATA);
		if (!rc)
			rc = netbench_wait_slot(cl, 0, 10);
		if (!rc)
			return 0;
		msleep(500);
	} while (time_before(jiffies, give_up));
	pr_err("server %s does not answer: %d\n", target, rc);
	return rc;
}

static int netbench_run(struct netbench_client *cl)
{
	unsigned long ops = 0, errors = 0;
	unsigned int i, busy = 0;
	ktime_t start, end;
	int rc = 0, first_err = 0;
	s64 ns;

	start = ktime_get();
	end = ktime_add_ms(start, seconds * MSEC_PER_SEC);
	for (i = 0; i < inflight; i++) {
		rc = netbench_submit(cl, i, NETBENCH_DATA);
		if (rc)
			break;
		busy++;
	}
	while (busy) {
		if (!wait_event_timeout(cl->waitq,
					!bitmap_empty(cl->done, inflight),
					30 * HZ)) {
			pr_err("%u operations stuck for 30 s\n",
			       busy);
			return -ETIMEDOUT;
		}
		for_each_set_bit(i, cl->done, inflight) {
			clear_bit(i, cl->done);
			busy--;
			if (cl->slots[i].status) {
				errors++;
				if (!first_err)
					first_err = cl->slots[i].status;
			} else {
				ops++;
			}
			if (rc || ktime_after(ktime_get(), end))
				continue;
			rc = netbench_submit(cl, i, NETBENCH_DATA);
			if (!rc)
				busy++;
		}
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	pr_info("op=%s size=%u inflight=%u ns=%lld ops=%lu errors=%lu ops_per_sec=%llu mbytes_per_sec=%llu\n",
		op, size, inflight, ns, ops, errors,
		div64_u64((u64)ops * NSEC_PER_SEC, ns),
		div64_u64((u64)ops * size * (NSEC_PER_SEC / 1000), (u64)ns * 1000));
	if (rc)
		return rc;
	return errors ? first_err : 0;
}

static void netbench_client_free(struct netbench_client *cl)
{
	unsigned int i;

	for (i = 0; i < inflight; i++) {
		if (!LNetMDHandleIsInvalid(cl->slots[i].mdh))
			LNetMDUnlink(cl->slots[i].mdh);
		netbench_buf_free(&cl->bufs[i]);
	}
	if (!LNetEQHandleIsInvalid(cl->eqh))
		LNetEQFree(cl->eqh);
	bitmap_free(cl->done);
	kfree(cl->slots);
	kfree(cl->bufs);
	kfree(cl);
}

static int netbench_client_run(void)
{
	struct netbench_client *cl;
	struct lnet_md md;
	unsigned int i;
	int rc;

	cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl)
		return -ENOMEM;
	LNetInvalidateEQHandle(&cl->eqh);
	init_waitqueue_head(&cl->waitq);
	cl->is_get = !strcmp(op, "get");
	cl->peer.pid = LNET_PID_LUSTRE;
	cl->bufs = kcalloc(inflight, sizeof(*cl->bufs), GFP_KERNEL);
	cl->slots = kcalloc(inflight, sizeof(*cl->slots), GFP_KERNEL);
	cl->done = bitmap_zalloc(inflight, GFP_KERNEL);
	if (!cl->bufs || !cl->slots || !cl->done) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < inflight; i++)
		LNetInvalidateMDHandle(&cl->slots[i].mdh);
	if (lnet_str2nid(target, strlen(target), &cl->peer.nid)) {
		pr_err("bad target \"%s\"\n", target);
		rc = -EINVAL;
		goto out;
	}
	netbench_client = cl;
	rc = LNetEQAlloc(0, netbench_client_event, &cl->eqh);
	if (rc)
		goto out;
	for (i = 0; i < inflight; i++) {
		rc = netbench_buf_alloc(&cl->bufs[i], size);
		if (rc)
			goto out;
		md = netbench_md(&cl->bufs[i], size);
		md.user_ptr = &cl->slots[i];
		md.eq_handle = cl->eqh;
		rc = LNetMDBind(md, LNET_RETAIN, &cl->slots[i].mdh);
		if (rc)
			goto out;
	}
	rc = netbench_wait_server(cl);
	if (!rc)
		rc = netbench_run(cl);
	if (last) {
		/* slot 0's MD, once more, with the "done" bits */
		int done_rc = netbench_submit(cl, 0, NETBENCH_DONE);

		if (!done_rc)
			done_rc = netbench_wait_slot(cl, 0, 10);
		if (done_rc)
			pr_err("telling the server: %d\n", done_rc);
	}
out:
	netbench_client_free(cl);
	netbench_client = NULL;
	return rc;
}

static int __init netbench_init(void)
{
	bool server = !strcmp(role, "server");
	int rc;

	if (size > NETBENCH_MAX_SIZE || !inflight ||
	    inflight > NETBENCH_MAX_INFLIGHT || !seconds ||
	    (!server && strcmp(role, "client")) ||
	    (strcmp(op, "put") && strcmp(op, "get"))) {
		pr_err("bad parameters\n");
		return -EINVAL;
	}
	rc = LNetNIInit(LNET_PID_LUSTRE);
	if (rc) {
		pr_err("LNetNIInit: %d\n", rc);
		return rc;
	}
	if (server) {
		rc = netbench_server_start();
		if (!rc) {
			netbench_ni_up = true;
			return 0;
		}
	} else {
		rc = netbench_client_run();
		if (!rc)
			pr_info("client finished\n");
	}
	/* a client stays loaded, idle, until the scenario unloads it */
	LNetNIFini();
	return rc;
}

static void __exit netbench_exit(void)
{
	if (netbench_ni_up) {
		netbench_server_stop();
		LNetNIFini();
	}
}

module_init(netbench_init);
module_exit(netbench_exit);
MODULE_DESCRIPTION("LNet network benchmark (test only)");
MODULE_LICENSE("GPL");
