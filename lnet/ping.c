// SPDX-License-Identifier: GPL-2.0
/*
 * Ping: the responder on the reserved portal and an in-kernel ping client
 * (Documentation/wire/routing-health-multirail.md, "Portal 0" to "Pinging a
 * Lustre node").
 *
 * The ping target is an MD on portal 0 that serves GETs with the ping
 * match bits from anyone, the initiator choosing the offset and the reply
 * truncated to the sink. Its content lists 0@lo (carrying the ping-target
 * sequence number) and then every NI with status UP. We advertise
 * NI_STATUS and MULTI_RAIL (discovery.c takes pushes), DISCOVERY while
 * discovery is on, and RTE_DISABLED unless this node forwards.
 *
 * When the NI list changes the info is rebuilt: the new MD is posted
 * behind the old one, then the old one is unlinked, so pings keep being
 * answered. A buffer is freed only after its MD's UNLINK event, i.e. once
 * no REPLY is still reading it: an old buffer by that event itself, since
 * a REPLY stuck behind a slow peer must not hold api_mutex (and every
 * configuration change) until it completes; the last one by shutdown,
 * which waits for all of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/swab.h>
#include <linux/wait_bit.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

static DEFINE_SPINLOCK(lnet_ping_copy_lock);	/* a leaf */
static void *lnet_ping_copy;	/* the posted info, for pushes */
static size_t lnet_ping_copy_size;

static u32 lnet_ping_features(void)
{
	u32 f = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL;

	if (lnet_discovery_enabled())
		f |= LNET_PING_FEAT_DISCOVERY;
	if (!lnet_router_advertised_now())
		f |= LNET_PING_FEAT_RTE_DISABLED;
	return f;
}

struct lnet_ping_buffer {
	struct completion	unlinked;
	bool			retired;	/* freed by its UNLINK event */
	struct lnet_handle_me	meh;
	size_t			size;
	struct lnet_ping_info	*info;
};

/* What @ni says of itself in the ping info. */
static u32 lnet_ni_ping_status(const struct lnet_ni *ni)
{
	return lnet_ni_says_down(ni) ? LNET_NI_STATUS_DOWN : LNET_NI_STATUS_UP;
}

/**
 * lnet_ping_info_fill() - write this node's ping info
 * @buf: where to
 * @size: bytes at @buf
 * @seq: the ping-target sequence number, for entry 0
 *
 * Called with api_mutex held, so the NI list is stable.
 *
 * Return: the info's full size (more than @size: only @size written).
 */
size_t lnet_ping_info_fill(void *buf, size_t size, u32 seq)
{
	struct lnet_ping_info *info = buf;
	struct lnet_ping_nid ent;
	size_t need = lnet_ping_info_size(lnet_core.nni);
	struct lnet_ping_info hdr = {
		.magic		= LNET_PROTO_PING_MAGIC,
		.features	= lnet_ping_features(),
		.pid		= lnet_core.pid,
		.nnis		= lnet_core.nni,
	};
	struct lnet_ni *ni;
	unsigned int i = 0;

	lockdep_assert_held(&lnet_core.api_mutex);
	memset(buf, 0, size);
	memcpy(buf, &hdr, min(size, sizeof(hdr)));
	/* the loopback NI is first on the list, as entry 0 must be */
	list_for_each_entry(ni, &lnet_core.nis, list) {
		ent.nid = ni->nid;
		ent.status = i ? lnet_ni_ping_status(ni) : seq;
		ent.msg_size = 0;
		if (lnet_ping_info_size(i + 1) <= size)
			info->ni[i] = ent;
		i++;
	}
	return need;
}
LNET_EXPORT_FOR_TEST(lnet_ping_info_fill);

static void lnet_ping_buffer_free(struct lnet_ping_buffer *pbuf)
{
	kfree(pbuf->info);
	kfree(pbuf);
}

/*
 * Keep a copy of the posted info (@info, @size; NULL to drop it) for
 * pushes: discovery cannot take api_mutex, which shutdown holds while it
 * waits for discovery to end.
 */
static void lnet_ping_copy_set(const struct lnet_ping_info *info, size_t size)
{
	void *copy = info ? kmemdup(info, size, GFP_KERNEL) : NULL;

	lockdep_assert_held(&lnet_core.api_mutex);
	spin_lock_bh(&lnet_ping_copy_lock);
	swap(copy, lnet_ping_copy);
	lnet_ping_copy_size = lnet_ping_copy ? size : 0;
	spin_unlock_bh(&lnet_ping_copy_lock);
	kfree(copy);
}

/**
 * lnet_ping_info_copy() - our ping info as a push sends it
 * @size: set to its size
 * @seq: set to its ping-target sequence number
 *
 * Return: a kmalloc'ed copy, or NULL (no memory, or LNet is going down).
 */
void *lnet_ping_info_copy(size_t *size, u32 *seq)
{
	struct lnet_ping_info *info = NULL;

	spin_lock_bh(&lnet_ping_copy_lock);
	if (lnet_ping_copy) {
		info = kmemdup(lnet_ping_copy, lnet_ping_copy_size,
			       GFP_ATOMIC);
		*size = lnet_ping_copy_size;
	}
	spin_unlock_bh(&lnet_ping_copy_lock);
	if (info)
		*seq = info->ni[0].status;
	return info;
}

static void lnet_ping_target_event(struct lnet_event *ev)
{
	struct lnet_ping_buffer *pbuf = ev->md.user_ptr;

	if (!ev->unlinked)
		return;
	if (!READ_ONCE(pbuf->retired)) {
		complete(&pbuf->unlinked);
		return;
	}
	lnet_ping_buffer_free(pbuf);
	if (atomic_dec_and_test(&lnet_core.ping.retiring))
		wake_up_var(&lnet_core.ping.retiring);
}

static struct lnet_ping_buffer *lnet_ping_buffer_post(u32 seq)
{
	struct lnet_process_id anyone = {
		.nid = LNET_NID_ANY, .pid = LNET_PID_ANY,
	};
	struct lnet_ping_buffer *pbuf;
	struct lnet_handle_md mdh;
	struct lnet_md md;
	int rc = -ENOMEM;

	pbuf = kzalloc(sizeof(*pbuf), GFP_KERNEL);
	if (!pbuf)
		return ERR_PTR(-ENOMEM);
	init_completion(&pbuf->unlinked);
	pbuf->size = lnet_ping_info_size(lnet_core.nni);
	pbuf->info = kzalloc(pbuf->size, GFP_KERNEL);
	if (!pbuf->info)
		goto fail_free;
	lnet_ping_info_fill(pbuf->info, pbuf->size, seq);

	rc = LNetMEAttach(LNET_RESERVED_PORTAL, anyone,
			  LNET_PROTO_PING_MATCHBITS, 0, LNET_UNLINK,
			  LNET_INS_AFTER, &pbuf->meh);
	if (rc)
		goto fail_free;
	md = (struct lnet_md) {
		.start		= pbuf->info,
		.length		= pbuf->size,
		.threshold	= LNET_MD_THRESH_INF,
		.options	= LNET_MD_OP_GET | LNET_MD_TRUNCATE |
				  LNET_MD_MANAGE_REMOTE,
		.user_ptr	= pbuf,
		.eq_handle	= lnet_core.ping.eqh,
	};
	rc = LNetMDAttach(pbuf->meh, md, LNET_RETAIN, &mdh);
	if (rc)
		goto fail_me;
	return pbuf;

fail_me:
	LNetMEUnlink(pbuf->meh);
fail_free:
	lnet_ping_buffer_free(pbuf);
	return ERR_PTR(rc);
}

static void lnet_ping_buffer_unpost(struct lnet_ping_buffer *pbuf)
{
	LNetMEUnlink(pbuf->meh);
	wait_for_completion(&pbuf->unlinked);
	lnet_ping_buffer_free(pbuf);
}

int lnet_ping_target_init(void)
{
	struct lnet_ping_buffer *pbuf;
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	rc = LNetEQAlloc(0, lnet_ping_target_event, &lnet_core.ping.eqh);
	if (rc)
		return rc;
	lnet_core.ping.seq = 1;
	atomic_set(&lnet_core.ping.retiring, 0);
	pbuf = lnet_ping_buffer_post(lnet_core.ping.seq);
	if (IS_ERR(pbuf)) {
		LNetEQFree(lnet_core.ping.eqh);
		return PTR_ERR(pbuf);
	}
	lnet_core.ping.cur = pbuf;
	lnet_ping_copy_set(pbuf->info, pbuf->size);
	return 0;
}

void lnet_ping_target_fini(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	if (!lnet_core.ping.cur)
		return;
	lnet_ping_copy_set(NULL, 0);
	lnet_ping_buffer_unpost(lnet_core.ping.cur);
	lnet_core.ping.cur = NULL;
	wait_var_event(&lnet_core.ping.retiring,
		       !atomic_read(&lnet_core.ping.retiring));
	LNetEQFree(lnet_core.ping.eqh);
}

/*
 * An NI's health crossed 0 or came back to full, a router's network went
 * quiet or was pinged again, or discovery was turned on or off: rewrite
 * the statuses and the features in the posted info.
 * Under api_mutex the NI list is the one the info was built from; a REPLY
 * reading the info meanwhile sends the old or the new status word, either
 * of them whole. Lustre pushes the info without DISCOVERY before the flag
 * flips; here the flag flips first, which only means that no discovery
 * starts in between.
 */
static void lnet_ping_status_refresh(struct work_struct *work)
{
	bool discovery_off = false, moved = false;
	struct lnet_ping_info *info;
	struct lnet_ni *ni;
	unsigned int i = 0;
	u32 was, status;

	mutex_lock(&lnet_core.api_mutex);
	if (lnet_core.ping.cur) {
		info = lnet_core.ping.cur->info;
		was = info->features;
		WRITE_ONCE(info->features, lnet_ping_features());
		discovery_off = (was & LNET_PING_FEAT_DISCOVERY) &&
				!(info->features & LNET_PING_FEAT_DISCOVERY);
		list_for_each_entry(ni, &lnet_core.nis, list) {
			status = lnet_ni_ping_status(ni);
			if (i && i < info->nnis && info->ni[i].status != status) {
				info->ni[i].status = status;
				moved = true;
			}
			i++;
		}
		lnet_ping_copy_set(info, lnet_core.ping.cur->size);
	}
	/*
	 * A router tells its Multi-Rail peers at once when one of its NIs
	 * goes down or up (spec "Push": forced pushes), so that they stop
	 * or start routing through that network.
	 */
	if (discovery_off)
		lnet_discovery_push_all(true);
	else if (moved && lnet_forwarding_enabled())
		lnet_discovery_push_all(false);
	mutex_unlock(&lnet_core.api_mutex);
}

static DECLARE_WORK(lnet_ping_status_work, lnet_ping_status_refresh);

/*
 * Health moved an NI's status, or discovery was turned on or off; context:
 * any, no lock needed.
 */
void lnet_ping_status_changed(void)
{
	queue_work(system_wq, &lnet_ping_status_work);
}
LNET_EXPORT_FOR_TEST(lnet_ping_status_changed);

/* Wait for a refresh under way (module unload; tests). */
void lnet_ping_status_flush(void)
{
	flush_work(&lnet_ping_status_work);
}
LNET_EXPORT_FOR_TEST(lnet_ping_status_flush);

/* The NI list changed: answer with the new list from now on. */
int lnet_ping_target_update(void)
{
	struct lnet_ping_buffer *pbuf, *old;

	lockdep_assert_held(&lnet_core.api_mutex);
	if (!lnet_core.ping.cur)
		return 0;
	pbuf = lnet_ping_buffer_post(lnet_core.ping.seq + 1);
	if (IS_ERR(pbuf))
		return PTR_ERR(pbuf);	/* keep answering with the old one */
	WRITE_ONCE(lnet_core.ping.seq, lnet_core.ping.seq + 1);
	old = lnet_core.ping.cur;
	lnet_core.ping.cur = pbuf;
	lnet_ping_copy_set(pbuf->info, pbuf->size);
	atomic_inc(&lnet_core.ping.retiring);
	WRITE_ONCE(old->retired, true);
	LNetMEUnlink(old->meh);		/* its UNLINK event frees it */
	lnet_discovery_push_all(false);
	return 0;
}

/**
 * lnet_ping_info_check() - validate a received ping info
 * @buf: the info, swapped in place to host order if the sender's differs
 * @len: bytes received
 *
 * Steps 1-5 of Documentation/wire/routing-health-multirail.md, "Validating
 * a ping info".
 *
 * Return: the number of complete entries to use (at most the info's own
 * count), -EPROTO for a malformed info, -ERANGE for an absurd count.
 */
int lnet_ping_info_check(void *buf, unsigned int len)
{
	struct lnet_ping_info *info = buf;
	unsigned int i, n;

	if (len < lnet_ping_info_size(1))
		return -EPROTO;
	n = (len - sizeof(*info)) / sizeof(info->ni[0]);
	if (info->magic == swab32(LNET_PROTO_PING_MAGIC)) {
		info->magic = LNET_PROTO_PING_MAGIC;
		swab32s(&info->features);
		swab32s(&info->pid);
		swab32s(&info->nnis);
		for (i = 0; i < n; i++) {
			swab64s(&info->ni[i].nid);
			swab32s(&info->ni[i].status);
			swab32s(&info->ni[i].msg_size);
		}
	}
	if (info->magic != LNET_PROTO_PING_MAGIC ||
	    !(info->features & LNET_PING_FEAT_NI_STATUS))
		return -EPROTO;
	if (!info->nnis || info->nnis > lnet_tunable(&lnet_interfaces_max))
		return -ERANGE;
	if (info->ni[0].nid != LNET_NID_LO_0)
		return -EPROTO;
	return min(n, info->nnis);
}
LNET_EXPORT_FOR_TEST(lnet_ping_info_check);

struct lnet_ping_wait {
	struct completion	done;
	int			status;
	unsigned int		mlength;
	bool			replied;
};

static void lnet_ping_event(struct lnet_event *ev)
{
	struct lnet_ping_wait *pw = ev->md.user_ptr;

	if (ev->type == LNET_EVENT_REPLY) {
		pw->replied = !ev->status;
		pw->mlength = ev->mlength;
	}
	if (ev->status && !pw->status)
		pw->status = ev->status;
	/* a GET that failed to go brings no REPLY: stop waiting for one */
	if (ev->type == LNET_EVENT_SEND && ev->status && !ev->unlinked)
		LNetMDUnlink(ev->md_handle);
	if (ev->unlinked)
		complete(&pw->done);	/* the last touch of @pw */
}

/**
 * lnet_ping_full() - ping a process and list its NIDs
 * @id: whom (LNET_PID_ANY means 12345)
 * @src: local NID to ping from, or LNET_NID_ANY
 * @timeout_ms: how long to wait for the reply (> 0)
 * @ids: filled with the process ids the peer reports, 0@lo first
 * @nids: room in @ids
 *
 * Context: process context; sleeps.
 *
 * @features: if not NULL, set to the feature bits of the peer's info
 *
 * Return: how many entries of @ids were filled, or -ETIMEDOUT, -EPROTO,
 * -ERANGE or another -errno.
 */
int lnet_ping_full(struct lnet_process_id id, lnet_nid_t src, int timeout_ms,
		   struct lnet_process_id *ids, unsigned int nids,
		   u32 *features)
{
	size_t size = lnet_ping_info_size(min_t(unsigned int, nids,
						 lnet_tunable(&lnet_interfaces_max)));
	struct lnet_ping_info *info;
	struct lnet_ping_wait pw;
	struct lnet_handle_eq eqh;
	struct lnet_handle_md mdh;
	struct lnet_md md;
	long left;
	int i, rc;

	if (timeout_ms <= 0 || (nids && !ids))
		return -EINVAL;
	if (id.pid == LNET_PID_ANY)
		id.pid = LNET_PID_LUSTRE;
	size = clamp_t(size_t, size, LNET_PING_INFO_MIN_SIZE,
		       LNET_PING_BUFFER_MAX);
	info = kzalloc(size, GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	init_completion(&pw.done);
	pw.status = 0;
	pw.mlength = 0;
	pw.replied = false;

	rc = LNetEQAlloc(0, lnet_ping_event, &eqh);
	if (rc)
		goto out_free;
	md = (struct lnet_md) {
		.start		= info,
		.length		= size,
		.threshold	= 2,		/* the SEND and the REPLY */
		/* timed out by LNet too, whatever response_tracking says */
		.options	= LNET_MD_TRUNCATE | LNET_MD_TRACK_RESPONSE,
		.user_ptr	= &pw,
		.eq_handle	= eqh,
	};
	rc = LNetMDBind(md, LNET_UNLINK, &mdh);
	if (rc)
		goto out_eq;
	rc = LNetGet(src, mdh, id, LNET_RESERVED_PORTAL,
		     LNET_PROTO_PING_MATCHBITS, 0);
	if (rc) {
		LNetMDUnlink(mdh);
		wait_for_completion(&pw.done);
		goto out_eq;
	}
	/*
	 * Killable: the caller (lnetctl ping --timeout 180) may give up, and
	 * a long wait for a dead peer is no hung task.
	 */
	left = wait_for_completion_killable_timeout(&pw.done,
						    msecs_to_jiffies(timeout_ms));
	if (left <= 0) {
		/* gives up the REPLY; the SEND is the LND's to finish */
		LNetMDUnlink(mdh);
		wait_for_completion(&pw.done);
	}

	if (!pw.replied) {
		rc = left < 0 ? -EINTR : pw.status ?: -ETIMEDOUT;
		goto out_eq;
	}
	rc = lnet_ping_info_check(info, pw.mlength);
	if (rc < 0)
		goto out_eq;
	if (features)
		*features = info->features;
	rc = min_t(unsigned int, rc, nids);
	for (i = 0; i < rc; i++) {
		ids[i].nid = info->ni[i].nid;
		ids[i].pid = info->pid;
	}
out_eq:
	LNetEQFree(eqh);
out_free:
	kfree(info);
	return rc;
}

int lnet_ping(struct lnet_process_id id, lnet_nid_t src, int timeout_ms,
	      struct lnet_process_id *ids, unsigned int nids)
{
	return lnet_ping_full(id, src, timeout_ms, ids, nids, NULL);
}
LNET_EXPORT_FOR_TEST(lnet_ping);
