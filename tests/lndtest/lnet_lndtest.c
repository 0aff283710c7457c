// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_lndtest.ko: an LND test client and server for the guest scenarios,
 * using LNet's public API only (<linux/lnet/api.h>; NID strings through
 * <linux/lnet/nidstr.h>).
 *
 * mode=server: bring LNet up (networks= of lnet.ko) and post, on portal
 * @portal, pattern-filled MDs that serve GETs and sink MDs that take PUTs
 * (and serve them back), one of each as a page vector and one contiguous;
 * stay until rmmod. A PUT with the "done" match bits counts in peer_done.
 *
 * mode=client target=NID: bring LNet up and run the checks against the
 * target's server while the module loads: ping (GET on portal 0), PUT and
 * GET of 0 B .. 1 MiB from contiguous and page MDs with every byte
 * checked (a PUT is read back with a GET), then @count operations with
 * @inflight in flight; finally send "done". Each check prints one line,
 * "lnet_lndtest: ok NAME" or "lnet_lndtest: not ok NAME # reason"; the
 * load succeeds whatever the results (failures counts them).
 *
 * mode=both: the server, then the client.
 *
 * In client modes, writing 1 to /sys/module/lnet_lndtest/parameters/
 * start_client runs the client again in the background (count, inflight
 * and timeout_secs may be changed before); client_running is 1 meanwhile.
 * Each run ends with its "done" PUT carrying the run's number, and the
 * server's peer_done is the highest number received.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/swab.h>
#include <linux/workqueue.h>
#include <linux/lnet/api.h>
#include <linux/lnet/nidstr.h>

static char *mode = "server";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "server, client or both");

static char *target = "";
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "client: the server's NID, e.g. 192.0.2.2@tcp");

static int portal = 42;
module_param(portal, int, 0444);
MODULE_PARM_DESC(portal, "portal of the server's MDs (1..63)");

static int count = 256;
module_param(count, int, 0644);
MODULE_PARM_DESC(count, "client: operations in the stream check");

static int inflight = 8;
module_param(inflight, int, 0644);
MODULE_PARM_DESC(inflight, "client: operations in flight in the stream check (1..32)");

static int wait_secs = 120;
module_param(wait_secs, int, 0644);
MODULE_PARM_DESC(wait_secs, "client: how long a run waits for the target to answer a ping and serve");

static int timeout_secs = 60;
module_param(timeout_secs, int, 0644);
MODULE_PARM_DESC(timeout_secs, "client: seconds an operation may take");

static int peer_done;
module_param(peer_done, int, 0444);
MODULE_PARM_DESC(peer_done, "server: highest client run number announced \"done\"");

static int failures;
module_param(failures, int, 0444);
MODULE_PARM_DESC(failures, "client: failed checks of the last run");

static int client_running;
module_param(client_running, int, 0444);
MODULE_PARM_DESC(client_running, "client: 1 while a run started by start_client goes on");

static int lt_start_set(const char *val, const struct kernel_param *kp);
static const struct kernel_param_ops lt_start_ops = {
	.set	= lt_start_set,
};
module_param_cb(start_client, &lt_start_ops, NULL, 0200);
MODULE_PARM_DESC(start_client, "client: write 1 to run the client again (in the background)");

#define LT_PID			12345
#define LT_MAX_LEN		(1U << 20)
#define LT_PAT_SEED		0x5eedU

#define LT_MB_PAT_KIOV		0x100ULL
#define LT_MB_PAT_KVEC		0x101ULL
#define LT_MB_SINK_KIOV		0x200ULL
#define LT_MB_SINK_KVEC		0x201ULL
#define LT_MB_DONE		0x300ULL
#define LT_SRV_MDS		5

/*
 * ping info (Documentation/wire/routing-health-multirail.md), re-declared:
 * this is a black-box check
 */
#define LT_PING_MAGIC		0x70696E67U
#define LT_PING_FEAT_NI_STATUS	0x02U
#define LT_NI_STATUS_UP		0x15AAC0DEU
#define LT_PING_BUF		3960

struct lt_ping_nid {
	u64	nid;
	u32	status;
	u32	msg_size;
};

struct lt_ping_info {
	u32			magic;
	u32			features;
	u32			pid;
	u32			nnis;
	struct lt_ping_nid	ni[];
};

/* ---- buffers ---------------------------------------------------------------- */

struct lt_buf {
	bool			kiov;
	unsigned int		len;
	void			*vaddr;		/* contiguous */
	struct bio_vec		*bvec;		/* page vector */
	unsigned int		npages;
};

static u8 lt_pat(u32 seed, u32 off)
{
	u32 x = (off + 1) * 2654435761U ^ seed * 40503U;

	return (x >> 24) ^ (u8)(off >> 8);
}

static void lt_buf_free(struct lt_buf *b)
{
	unsigned int i;

	if (b->bvec) {
		for (i = 0; i < b->npages; i++)
			if (b->bvec[i].bv_page)
				__free_page(b->bvec[i].bv_page);
		kfree(b->bvec);
	}
	kvfree(b->vaddr);
	memset(b, 0, sizeof(*b));
}

static int lt_buf_alloc(struct lt_buf *b, bool kiov, unsigned int len)
{
	unsigned int i, left = len;

	memset(b, 0, sizeof(*b));
	b->kiov = kiov;
	b->len = len;
	if (!kiov) {
		if (!len)
			return 0;
		b->vaddr = kvmalloc(len, GFP_KERNEL);
		return b->vaddr ? 0 : -ENOMEM;
	}
	/* a zero-length page vector still has one (empty) fragment */
	b->npages = max(DIV_ROUND_UP(len, PAGE_SIZE), 1UL);
	b->bvec = kcalloc(b->npages, sizeof(*b->bvec), GFP_KERNEL);
	if (!b->bvec)
		return -ENOMEM;
	for (i = 0; i < b->npages; i++) {
		b->bvec[i].bv_page = alloc_page(GFP_KERNEL);
		if (!b->bvec[i].bv_page) {
			lt_buf_free(b);
			return -ENOMEM;
		}
		b->bvec[i].bv_len = min_t(unsigned int, left, PAGE_SIZE);
		b->bvec[i].bv_offset = 0;
		left -= b->bvec[i].bv_len;
	}
	return 0;
}

/* Call @fn on each byte range of @b: (ptr, offset in @b, length). */
static bool lt_buf_walk(struct lt_buf *b,
			bool (*fn)(u8 *p, u32 off, u32 n, void *arg),
			void *arg)
{
	unsigned int i, off = 0;
	bool ok = true;
	u8 *p;

	if (!b->kiov)
		return b->len ? fn(b->vaddr, 0, b->len, arg) : true;
	for (i = 0; i < b->npages && ok; i++) {
		if (!b->bvec[i].bv_len)
			continue;
		p = kmap_local_page(b->bvec[i].bv_page);
		ok = fn(p + b->bvec[i].bv_offset, off, b->bvec[i].bv_len, arg);
		kunmap_local(p);
		off += b->bvec[i].bv_len;
	}
	return ok;
}

struct lt_pat_arg {
	u32	seed;
	u32	base;		/* pattern offset of byte 0 of the buffer */
	u32	bad;		/* first mismatch, buffer offset */
	u8	got, want;
};

static bool lt_fill_fn(u8 *p, u32 off, u32 n, void *arg)
{
	struct lt_pat_arg *a = arg;
	u32 i;

	for (i = 0; i < n; i++)
		p[i] = lt_pat(a->seed, a->base + off + i);
	return true;
}

static bool lt_check_fn(u8 *p, u32 off, u32 n, void *arg)
{
	struct lt_pat_arg *a = arg;
	u32 i;

	for (i = 0; i < n; i++) {
		if (p[i] != lt_pat(a->seed, a->base + off + i)) {
			a->bad = off + i;
			a->got = p[i];
			a->want = lt_pat(a->seed, a->base + off + i);
			return false;
		}
	}
	return true;
}

static bool lt_poison_fn(u8 *p, u32 off, u32 n, void *arg)
{
	memset(p, 0xa5, n);
	return true;
}

static void lt_buf_fill(struct lt_buf *b, u32 seed, u32 base)
{
	struct lt_pat_arg a = { .seed = seed, .base = base };

	lt_buf_walk(b, lt_fill_fn, &a);
}

static void lt_buf_poison(struct lt_buf *b)
{
	lt_buf_walk(b, lt_poison_fn, NULL);
}

/* 0, or -EIO with the first mismatch described in @why. */
static int lt_buf_check(struct lt_buf *b, u32 seed, u32 base, char *why,
			size_t whylen)
{
	struct lt_pat_arg a = { .seed = seed, .base = base };

	if (lt_buf_walk(b, lt_check_fn, &a))
		return 0;
	snprintf(why, whylen, "byte %u of %u is %#x, not %#x", a.bad, b->len,
		 a.got, a.want);
	return -EIO;
}

static void lt_buf_md(struct lt_buf *b, struct lnet_md *md)
{
	if (b->kiov) {
		md->start = b->bvec;
		md->length = b->npages;
		md->options |= LNET_MD_KIOV;
	} else {
		md->start = b->vaddr;
		md->length = b->len;
	}
}

/* ---- the server --------------------------------------------------------------- */

static struct {
	bool			up;
	struct lnet_handle_eq	eqh;
	struct lnet_handle_me	meh[LT_SRV_MDS];
	struct lt_buf		pat_kiov, pat_kvec, sink_kiov, sink_kvec;
	u64			done_buf;
	atomic_t		unlinked;
	struct completion	all_unlinked;
} srv;

static void lt_srv_event(struct lnet_event *ev)
{
	if (ev->type == LNET_EVENT_PUT && !ev->status &&
	    ev->match_bits == LT_MB_DONE && ev->hdr_data > READ_ONCE(peer_done))
		WRITE_ONCE(peer_done, min_t(u64, ev->hdr_data, INT_MAX));
	if (ev->unlinked && atomic_inc_return(&srv.unlinked) == LT_SRV_MDS)
		complete(&srv.all_unlinked);
}

static int lt_srv_post(int i, u64 match_bits, struct lt_buf *b, void *start,
		       unsigned int len, unsigned int options)
{
	struct lnet_process_id anyone = {
		.nid = LNET_NID_ANY, .pid = LNET_PID_ANY,
	};
	struct lnet_md md = {
		.threshold	= LNET_MD_THRESH_INF,
		.options	= options | LNET_MD_TRUNCATE,
		.eq_handle	= srv.eqh,
	};
	struct lnet_handle_md mdh;
	int rc;

	if (b) {
		lt_buf_md(b, &md);
	} else {
		md.start = start;
		md.length = len;
	}
	rc = LNetMEAttach(portal, anyone, match_bits, 0, LNET_RETAIN,
			  LNET_INS_AFTER, &srv.meh[i]);
	if (rc)
		return rc;
	rc = LNetMDAttach(srv.meh[i], md, LNET_RETAIN, &mdh);
	if (rc) {
		LNetMEUnlink(srv.meh[i]);
		srv.meh[i].cookie = LNET_INVALID_HANDLE_COOKIE;
	}
	return rc;
}

static void lt_srv_stop(void)
{
	int i, n = 0;

	for (i = 0; i < LT_SRV_MDS; i++) {
		if (srv.meh[i].cookie == LNET_INVALID_HANDLE_COOKIE)
			continue;
		LNetMEUnlink(srv.meh[i]);
		n++;
	}
	/* the buffers go only once no REPLY can still read them */
	atomic_add(LT_SRV_MDS - n, &srv.unlinked);
	if (atomic_read(&srv.unlinked) < LT_SRV_MDS)
		wait_for_completion(&srv.all_unlinked);
	while (LNetEQFree(srv.eqh) == -EBUSY)
		msleep(20);
	lt_buf_free(&srv.pat_kiov);
	lt_buf_free(&srv.pat_kvec);
	lt_buf_free(&srv.sink_kiov);
	lt_buf_free(&srv.sink_kvec);
	srv.up = false;
}

static int lt_srv_start(void)
{
	int i, rc;

	for (i = 0; i < LT_SRV_MDS; i++)
		srv.meh[i].cookie = LNET_INVALID_HANDLE_COOKIE;
	atomic_set(&srv.unlinked, 0);
	init_completion(&srv.all_unlinked);
	rc = LNetEQAlloc(0, lt_srv_event, &srv.eqh);
	if (rc)
		return rc;
	rc = lt_buf_alloc(&srv.pat_kiov, true, LT_MAX_LEN);
	if (!rc)
		rc = lt_buf_alloc(&srv.pat_kvec, false, LT_MAX_LEN);
	if (!rc)
		rc = lt_buf_alloc(&srv.sink_kiov, true, LT_MAX_LEN);
	if (!rc)
		rc = lt_buf_alloc(&srv.sink_kvec, false, LT_MAX_LEN);
	if (rc)
		goto fail;
	lt_buf_fill(&srv.pat_kiov, LT_PAT_SEED, 0);
	lt_buf_fill(&srv.pat_kvec, LT_PAT_SEED, 0);
	lt_buf_poison(&srv.sink_kiov);
	lt_buf_poison(&srv.sink_kvec);

	rc = lt_srv_post(0, LT_MB_PAT_KIOV, &srv.pat_kiov, NULL, 0,
			 LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	if (!rc)
		rc = lt_srv_post(1, LT_MB_PAT_KVEC, &srv.pat_kvec, NULL, 0,
				 LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	if (!rc)
		rc = lt_srv_post(2, LT_MB_SINK_KIOV, &srv.sink_kiov, NULL, 0,
				 LNET_MD_OP_PUT | LNET_MD_OP_GET |
				 LNET_MD_MANAGE_REMOTE);
	if (!rc)
		rc = lt_srv_post(3, LT_MB_SINK_KVEC, &srv.sink_kvec, NULL, 0,
				 LNET_MD_OP_PUT | LNET_MD_OP_GET |
				 LNET_MD_MANAGE_REMOTE);
	if (!rc)
		rc = lt_srv_post(4, LT_MB_DONE, NULL, &srv.done_buf,
				 sizeof(srv.done_buf), LNET_MD_OP_PUT);
	if (rc)
		goto fail;
	srv.up = true;
	pr_info("server up on portal %d\n", portal);
	return 0;

fail:
	lt_srv_stop();
	return rc;
}

/* ---- the client ---------------------------------------------------------------- */

struct lt_op {
	struct lt_buf		buf;
	struct lnet_handle_md	mdh;
	bool			is_get;
	bool			check;		/* GET: verify the pattern */
	u32			seed, base;
	bool			active;		/* stream slot in use */
	bool			got_send, got_done, unlinked, unlink_sent;
	int			status;
	unsigned int		mlength;
	unsigned long		deadline;
};

static struct {
	struct lnet_handle_eq	eqh;
	struct lnet_process_id	target;
	int			nchecks;
	int			run;		/* runs so far */
} cl;

static void lt_result(const char *name, int rc, const char *why)
{
	cl.nchecks++;
	if (!rc) {
		pr_info("ok %s\n", name);
		return;
	}
	failures++;
	pr_info("not ok %s # %s (%d)\n", name, why, rc);
}

static void lt_op_unlink(struct lt_op *op)
{
	if (!op->unlink_sent && !op->unlinked) {
		op->unlink_sent = true;
		LNetMDUnlink(op->mdh);
	}
}

static void lt_dispatch(struct lnet_event *ev)
{
	struct lt_op *op = ev->md.user_ptr;

	if (!op)
		return;
	if (ev->status && !op->status)
		op->status = ev->status;
	switch (ev->type) {
	case LNET_EVENT_SEND:
		op->got_send = true;
		/* no ACK or REPLY will follow a failed send */
		if (ev->status && !ev->unlinked)
			lt_op_unlink(op);
		break;
	case LNET_EVENT_ACK:
	case LNET_EVENT_REPLY:
		op->got_done = true;
		op->mlength = ev->mlength;
		break;
	default:
		break;
	}
	if (ev->unlinked)
		op->unlinked = true;
}

/* Take one event (waiting up to @ms): 1, 0 on timeout, or -errno. */
static int lt_poll(int ms)
{
	struct lnet_event ev;
	int rc, which;

	rc = LNetEQPoll(&cl.eqh, 1, ms, &ev, &which);
	if (rc == -EOVERFLOW) {
		pr_warn("events were lost\n");
		rc = 1;
	}
	if (rc == 1)
		lt_dispatch(&ev);
	return rc;
}

static int lt_op_start(struct lt_op *op, u64 match_bits, unsigned int off,
		       unsigned int ptl, bool get, bool ack)
{
	u64 hdr_data = match_bits == LT_MB_DONE ? cl.run : 0;
	struct lnet_md md = {
		.threshold	= get || ack ? 2 : 1,
		.user_ptr	= op,
		.eq_handle	= cl.eqh,
	};
	int rc;

	op->is_get = get;
	op->got_send = op->got_done = op->unlinked = op->unlink_sent = false;
	op->status = 0;
	op->mlength = 0;
	op->deadline = jiffies + timeout_secs * HZ;
	lt_buf_md(&op->buf, &md);
	rc = LNetMDBind(md, LNET_UNLINK, &op->mdh);
	if (rc)
		return rc;
	if (get)
		rc = LNetGet(LNET_NID_ANY, op->mdh, cl.target, ptl, match_bits,
			     off);
	else
		rc = LNetPut(LNET_NID_ANY, op->mdh,
			     ack ? LNET_ACK_REQ : LNET_NOACK_REQ, cl.target,
			     ptl, match_bits, off, hdr_data);
	if (rc) {
		/* never went out: unlink and wait for the UNLINK event */
		op->status = rc;
		lt_op_unlink(op);
		while (!op->unlinked && lt_poll(1000) >= 0)
			;
	}
	return rc;
}

/*
 * Wait until @op's MD is gone. Past its deadline it is unlinked (the
 * message may still be in the LND; the UNLINK event comes once it is
 * not). Return the op's status, -ETIMEDOUT if it timed out.
 */
static int lt_op_wait(struct lt_op *op)
{
	int rc;

	while (!op->unlinked) {
		rc = lt_poll(500);
		if (rc < 0)
			return rc;
		if (!op->unlinked && time_after(jiffies, op->deadline)) {
			if (!op->status)
				op->status = -ETIMEDOUT;
			lt_op_unlink(op);
			op->deadline = jiffies + timeout_secs * HZ;
		}
	}
	if (!op->status && (!op->got_send || !op->got_done))
		op->status = -ENODATA;
	return op->status;
}

static bool lt_ping_check(struct lt_buf *b, unsigned int len, char *why,
			  size_t whylen)
{
	struct lt_ping_info *pi = b->vaddr;
	bool swab = false, found = false;
	u32 magic, features, pid, nnis, i;
	u64 nid;

	if (len < sizeof(*pi) + sizeof(pi->ni[0])) {
		snprintf(why, whylen, "reply of %u bytes", len);
		return false;
	}
	magic = pi->magic;
	if (magic == swab32(LT_PING_MAGIC))
		swab = true;
	else if (magic != LT_PING_MAGIC) {
		snprintf(why, whylen, "magic %#x", magic);
		return false;
	}
	features = swab ? swab32(pi->features) : pi->features;
	pid = swab ? swab32(pi->pid) : pi->pid;
	nnis = swab ? swab32(pi->nnis) : pi->nnis;
	if (!(features & LT_PING_FEAT_NI_STATUS) || pid != LT_PID ||
	    nnis < 2 || sizeof(*pi) + nnis * sizeof(pi->ni[0]) > len) {
		snprintf(why, whylen, "features %#x pid %u nnis %u in %u bytes",
			 features, pid, nnis, len);
		return false;
	}
	nid = swab ? swab64(pi->ni[0].nid) : pi->ni[0].nid;
	if (nid != LNET_MKNID(LNET_MKNET(LNET_LND_LO, 0), 0)) {
		snprintf(why, whylen, "entry 0 is %#llx, not 0@lo", nid);
		return false;
	}
	for (i = 1; i < nnis; i++) {
		nid = swab ? swab64(pi->ni[i].nid) : pi->ni[i].nid;
		if (nid == cl.target.nid &&
		    (swab ? swab32(pi->ni[i].status) : pi->ni[i].status) ==
		    LT_NI_STATUS_UP)
			found = true;
	}
	if (!found) {
		snprintf(why, whylen, "the target's NID is not listed up");
		return false;
	}
	return true;
}

static int lt_ping(char *why, size_t whylen)
{
	struct lt_op op = { };
	int rc;

	rc = lt_buf_alloc(&op.buf, false, LT_PING_BUF);
	if (rc) {
		snprintf(why, whylen, "no memory");
		return rc;
	}
	memset(op.buf.vaddr, 0, LT_PING_BUF);
	rc = lt_op_start(&op, LNET_PROTO_PING_MATCHBITS, 0,
			 LNET_RESERVED_PORTAL, true, false);
	if (!rc)
		rc = lt_op_wait(&op);
	if (rc)
		snprintf(why, whylen, "ping failed");
	else if (!lt_ping_check(&op.buf, op.mlength, why, whylen))
		rc = -EPROTO;
	lt_buf_free(&op.buf);
	return rc;
}

/*
 * The target answers pings as soon as its LNet is up, which may be before
 * its server posted the MDs: GET a byte from a pattern until that works
 * (a GET nothing matches is dropped silently, hence the short timeout).
 */
static int lt_wait_server(unsigned long give_up, char *why, size_t whylen)
{
	struct lt_op op = { };
	int rc;

	rc = lt_buf_alloc(&op.buf, false, 1);
	if (rc) {
		snprintf(why, whylen, "no memory");
		return rc;
	}
	for (;;) {
		rc = lt_op_start(&op, LT_MB_PAT_KVEC, 0, portal, true, false);
		if (!rc) {
			op.deadline = jiffies + 3 * HZ;
			rc = lt_op_wait(&op);
		}
		if (!rc || time_after(jiffies, give_up))
			break;
		msleep(500);
	}
	if (rc)
		snprintf(why, whylen, "no server on portal %d", portal);
	lt_buf_free(&op.buf);
	return rc;
}

/* PUT @len bytes (a fresh pattern) to a sink, then GET them back. */
static void lt_put_getback(bool kiov, unsigned int len, unsigned int off)
{
	u64 sink = kiov ? LT_MB_SINK_KVEC : LT_MB_SINK_KIOV;
	const char *kind = kiov ? "kiov" : "kvec";
	u32 seed = len * 31 + kiov + 7;
	struct lt_op put = { }, get = { };
	char name[64], why[96] = "";
	int rc;

	snprintf(name, sizeof(name), "put-%s-%u", kind, len);
	rc = lt_buf_alloc(&put.buf, kiov, len);
	if (rc) {
		lt_result(name, rc, "no memory");
		return;
	}
	lt_buf_fill(&put.buf, seed, 0);
	rc = lt_op_start(&put, sink, off, portal, false, true);
	if (!rc)
		rc = lt_op_wait(&put);
	if (rc)
		snprintf(why, sizeof(why), "PUT failed");
	else if (put.mlength != len) {
		snprintf(why, sizeof(why), "ACK says %u bytes, not %u",
			 put.mlength, len);
		rc = -EIO;
	}
	lt_buf_free(&put.buf);
	lt_result(name, rc, why);
	if (rc)
		return;

	snprintf(name, sizeof(name), "getback-%s-%u", kind, len);
	rc = lt_buf_alloc(&get.buf, kiov, len);
	if (rc) {
		lt_result(name, rc, "no memory");
		return;
	}
	lt_buf_poison(&get.buf);
	rc = lt_op_start(&get, sink, off, portal, true, false);
	if (!rc)
		rc = lt_op_wait(&get);
	if (rc)
		snprintf(why, sizeof(why), "GET failed");
	else if (get.mlength != len) {
		snprintf(why, sizeof(why), "REPLY of %u bytes, not %u",
			 get.mlength, len);
		rc = -EIO;
	} else {
		rc = lt_buf_check(&get.buf, seed, 0, why, sizeof(why));
	}
	lt_buf_free(&get.buf);
	lt_result(name, rc, why);
}

/* GET @len bytes of a server pattern at @off; check every byte. */
static void lt_get_pattern(bool kiov, unsigned int len, unsigned int off)
{
	u64 pat = kiov ? LT_MB_PAT_KVEC : LT_MB_PAT_KIOV;
	const char *kind = kiov ? "kiov" : "kvec";
	struct lt_op get = { };
	char name[64], why[96] = "";
	int rc;

	snprintf(name, sizeof(name), "get-%s-%u", kind, len);
	rc = lt_buf_alloc(&get.buf, kiov, len);
	if (rc) {
		lt_result(name, rc, "no memory");
		return;
	}
	lt_buf_poison(&get.buf);
	rc = lt_op_start(&get, pat, off, portal, true, false);
	if (!rc)
		rc = lt_op_wait(&get);
	if (rc)
		snprintf(why, sizeof(why), "GET failed");
	else if (get.mlength != len) {
		snprintf(why, sizeof(why), "REPLY of %u bytes, not %u",
			 get.mlength, len);
		rc = -EIO;
	} else {
		rc = lt_buf_check(&get.buf, LT_PAT_SEED, off, why, sizeof(why));
	}
	lt_buf_free(&get.buf);
	lt_result(name, rc, why);
}

static const unsigned int lt_stream_sizes[] = {
	0, 1, 1000, 4096, 16384, 65536, 300000, 24,
};

/* Issue stream operation @i on @op (whose buffer is free). */
static int lt_stream_issue(struct lt_op *op, int i)
{
	unsigned int len = lt_stream_sizes[i % ARRAY_SIZE(lt_stream_sizes)];
	bool kiov = (i / 2) & 1;
	bool get = i & 1;
	unsigned int off = (i % 3) * 4099;
	int rc;

	rc = lt_buf_alloc(&op->buf, kiov, len);
	if (rc)
		return rc;
	op->seed = i;
	if (get) {
		lt_buf_poison(&op->buf);
		op->check = true;
		op->base = off;
		rc = lt_op_start(op, kiov ? LT_MB_PAT_KIOV : LT_MB_PAT_KVEC,
				 off, portal, true, false);
	} else {
		lt_buf_fill(&op->buf, i, 0);
		op->check = false;
		rc = lt_op_start(op, kiov ? LT_MB_SINK_KIOV : LT_MB_SINK_KVEC,
				 off, portal, false, true);
	}
	if (rc)
		lt_buf_free(&op->buf);
	return rc;
}

/* Check a finished stream operation; 0 or -errno with @why. */
static int lt_stream_reap(struct lt_op *op, char *why, size_t whylen)
{
	int rc = op->status;

	if (!rc && (!op->got_send || !op->got_done))
		rc = -ENODATA;
	if (rc)
		snprintf(why, whylen, "operation %u (%s of %u bytes) failed",
			 op->seed, op->is_get ? "GET" : "PUT", op->buf.len);
	else if (op->mlength != op->buf.len) {
		snprintf(why, whylen, "operation %u: %u bytes, not %u",
			 op->seed, op->mlength, op->buf.len);
		rc = -EIO;
	} else if (op->check) {
		rc = lt_buf_check(&op->buf, LT_PAT_SEED, op->base, why,
				  whylen);
	}
	lt_buf_free(&op->buf);
	return rc;
}

static void lt_stream(void)
{
	int n = clamp(inflight, 1, 32), issued = 0, done = 0, busy = 0, i;
	char name[64], why[128] = "", why2[128];
	struct lt_op *ops;
	int rc = 0, rc2;

	snprintf(name, sizeof(name), "stream-%dx%d", count, n);
	ops = kcalloc(n, sizeof(*ops), GFP_KERNEL);
	if (!ops) {
		lt_result(name, -ENOMEM, "no memory");
		return;
	}
	for (i = 0; i < n && issued < count; i++) {
		rc = lt_stream_issue(&ops[i], issued++);
		if (rc) {
			snprintf(why, sizeof(why), "issue failed");
			break;
		}
		ops[i].active = true;
		busy++;
	}
	while (busy) {
		rc2 = lt_poll(500);
		if (rc2 < 0) {
			/* cannot happen with a valid EQ; do not spin */
			pr_err("stream: event queue: %d\n", rc2);
			break;
		}
		for (i = 0; i < n; i++) {
			struct lt_op *op = &ops[i];

			if (!op->active)
				continue;
			if (!op->unlinked) {
				if (time_after(jiffies, op->deadline)) {
					if (!op->status)
						op->status = -ETIMEDOUT;
					lt_op_unlink(op);
					op->deadline = jiffies +
						       timeout_secs * HZ;
				}
				continue;
			}
			rc2 = lt_stream_reap(op, why2, sizeof(why2));
			if (rc2 && !rc) {
				rc = rc2;
				strscpy(why, why2, sizeof(why));
			}
			memset(op, 0, sizeof(*op));
			busy--;
			done++;
			if (rc || issued >= count)
				continue;
			rc2 = lt_stream_issue(op, issued++);
			if (rc2) {
				rc = rc2;
				snprintf(why, sizeof(why), "issue failed");
				continue;
			}
			op->active = true;
			busy++;
		}
	}
	if (!rc && done != count) {
		rc = -EIO;
		snprintf(why, sizeof(why), "%d of %d done", done, count);
	}
	/* a slot still busy after an EQ error keeps its buffer: leak it */
	if (!busy)
		kfree(ops);
	lt_result(name, rc, why);
}

static void lt_send_done(void)
{
	struct lt_op op = { };
	char why[64] = "";
	int rc;

	rc = lt_buf_alloc(&op.buf, false, 0);
	if (!rc)
		rc = lt_op_start(&op, LT_MB_DONE, 0, portal, false, true);
	if (!rc)
		rc = lt_op_wait(&op);
	if (rc)
		snprintf(why, sizeof(why), "PUT failed");
	lt_result("done", rc, why);
}

static void lt_client_run(void)
{
	static const unsigned int sizes[] = { 0, 1, 4096, 65536, LT_MAX_LEN };
	unsigned long give_up = jiffies + wait_secs * HZ;
	char nid[LNET_NIDSTR_SIZE], name[64], why[128] = "";
	unsigned int i, off;
	int kiov, rc;

	cl.run++;
	cl.nchecks = 0;
	failures = 0;
	lnet_nid2str(cl.target.nid, nid, sizeof(nid));
	rc = LNetEQAlloc(256, NULL, &cl.eqh);
	if (rc) {
		lt_result("client setup", rc, "LNetEQAlloc");
		return;
	}

	/* the target may still be coming up: retry the ping for a while */
	snprintf(name, sizeof(name), "ping %s", nid);
	for (;;) {
		rc = lt_ping(why, sizeof(why));
		if (!rc || time_after(jiffies, give_up))
			break;
		msleep(1000);
	}
	lt_result(name, rc, why);
	if (rc)
		goto out;
	rc = lt_wait_server(give_up, why, sizeof(why));
	lt_result("server ready", rc, why);
	if (rc)
		goto out;

	for (kiov = 0; kiov < 2; kiov++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			off = sizes[i] == LT_MAX_LEN ? 0 : 4093;
			lt_put_getback(kiov, sizes[i], off);
			lt_get_pattern(kiov, sizes[i], off);
		}
	}
	lt_stream();
	lt_send_done();
out:
	pr_info("client run %d finished: %d checks, %d failed\n",
		cl.run, cl.nchecks, failures);
	while (LNetEQFree(cl.eqh) == -EBUSY)
		msleep(20);
}

/* ---- module --------------------------------------------------------------------- */

static bool lt_server, lt_client;

static void lt_client_work(struct work_struct *work)
{
	lt_client_run();
	WRITE_ONCE(client_running, 0);
}
static DECLARE_WORK(lt_client_wk, lt_client_work);

static int lt_start_set(const char *val, const struct kernel_param *kp)
{
	bool go;

	if (kstrtobool(val, &go))
		return -EINVAL;
	if (!go)
		return 0;
	/* only once init ran a client (LNet up, target parsed) */
	if (!lt_client || !cl.run)
		return -EINVAL;
	if (READ_ONCE(client_running))
		return -EBUSY;
	WRITE_ONCE(client_running, 1);
	queue_work(system_long_wq, &lt_client_wk);
	return 0;
}

static int __init lt_init(void)
{
	int rc;

	if (!strcmp(mode, "server")) {
		lt_server = true;
	} else if (!strcmp(mode, "client")) {
		lt_client = true;
	} else if (!strcmp(mode, "both")) {
		lt_server = lt_client = true;
	} else {
		pr_err("mode=%s: server, client or both\n", mode);
		return -EINVAL;
	}
	if (portal < 1 || portal >= LNET_MAX_PORTALS) {
		pr_err("portal=%d: 1..%d\n", portal,
		       LNET_MAX_PORTALS - 1);
		return -EINVAL;
	}
	if (lt_client) {
		if (lnet_str2nid(target, strlen(target), &cl.target.nid)) {
			pr_err("target=\"%s\" is not a NID\n", target);
			return -EINVAL;
		}
		cl.target.pid = LT_PID;
		count = max(count, 1);
		timeout_secs = max(timeout_secs, 1);
	}

	rc = LNetNIInit(LT_PID);
	if (rc) {
		pr_err("LNetNIInit: %d\n", rc);
		return rc;
	}
	if (lt_server) {
		rc = lt_srv_start();
		if (rc) {
			pr_err("server: %d\n", rc);
			LNetNIFini();
			return rc;
		}
	}
	if (lt_client) {
		client_running = 1;
		lt_client_run();
		client_running = 0;
	}
	return 0;
}

static void __exit lt_exit(void)
{
	flush_work(&lt_client_wk);
	if (srv.up)
		lt_srv_stop();
	LNetNIFini();
}

module_init(lt_init);
module_exit(lt_exit);
MODULE_DESCRIPTION("LNet LND test client and server (guest scenarios)");
MODULE_LICENSE("GPL");
