// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery (Documentation/wire/routing-health-multirail.md, "Recovery
 * pings"): a local NI or a peer below full health goes on a queue, and a
 * monitor pings it at growing intervals until it is back at
 * LNET_MAX_HEALTH. Health comes back through what the pings bring: a local
 * NI gains health_sensitivity per REPLY to the ping of its own NID, sent
 * out through that NI; a peer gains it per message received from it (the
 * REPLY included), and hearing from it starts the back-off over.
 *
 * A local NI is queued by a failure blamed on it or by `lnetctl net set
 * --health`; a peer by `lnetctl peer set --health` or a failure blamed on
 * it while its health is below full, and only if it was ever alive (a
 * message to it completed or one from it arrived). With recovery_limit L
 * > 0 a peer not alive for L seconds leaves the queue and is not queued
 * again until it is.
 *
 * Back-off: the first ping goes at once; after the n-th the next is due
 * 2^n s later, or max_recovery_ping_interval s once 2^n would pass
 * it: 2, 4, ..., 512, 900, 900, ... with the defaults. A local NI whose
 * link is down (link.c) is not pinged until the link returns; then at
 * once, the back-off started over.
 *
 * The console says which NIDs are in recovery: per queue, up to
 * LNET_RECOVERY_SHOWN of them when it first holds anything, then again
 * 60, 120, ..., 300, 300, ... s later while it still does.
 *
 * Locking: lnet_recovery_lock (BH) guards both queues, every struct
 * lnet_recovery and the list of pings out; it nests inside net_lock
 * (peers are queued from under it) and nothing nests inside it. Pings are
 * sent, and their MDs unlinked, with no lock held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

/* the monitor's period while anything is queued */
#define LNET_RECOVERY_TICK	HZ
/* pings the monitor sends per pass; the rest wait for the next one */
#define LNET_RECOVERY_BATCH	16
/* NIDs a console report names */
#define LNET_RECOVERY_SHOWN	20

static void lnet_recovery_monitor(struct work_struct *work);

static DEFINE_SPINLOCK(lnet_recovery_lock);
static LIST_HEAD(lnet_recovery_nis);		/* struct lnet_ni */
static LIST_HEAD(lnet_recovery_peers);		/* struct lnet_peer, kref held */
static LIST_HEAD(lnet_recovery_pings);		/* struct lnet_recovery_ping */
static bool lnet_recovery_running;
static struct lnet_handle_eq lnet_recovery_eqh = {
	LNET_INVALID_HANDLE_COOKIE
};
static DECLARE_DELAYED_WORK(lnet_recovery_work, lnet_recovery_monitor);
/* the console reports of the NI and the peer queue; the monitor's only */
static struct lnet_recovery_console lnet_recovery_console_nis;
static struct lnet_recovery_console lnet_recovery_console_peers;

/*
 * The KUnit suites that play the network through a fake LND hold every
 * send: a recovery ping would land among the messages they expect. They
 * set this; entries are still queued, no ping goes.
 */
bool lnet_recovery_paused;
LNET_EXPORT_FOR_TEST(lnet_recovery_paused);

/* A ping out: its MD's user_ptr, freed by the MD's UNLINK event. */
struct lnet_recovery_ping {
	struct list_head	list;		/* lnet_recovery_pings */
	struct lnet_handle_md	mdh;
	lnet_nid_t		nid;		/* whom */
	struct lnet_peer	*peer;		/* reference held; NULL: local NI */
	bool			replied;
	bool			unlinking;	/* lnet_recovery_stop() */
	/* what a 16-entry ping info needs (LNET_PING_INFO_MIN_SIZE) */
	struct lnet_ping_info	info;
	struct lnet_ping_nid	nids[LNET_INTERFACES_MIN];
};

/* What is on the queues after a scan, for the console: counts, first NIDs. */
struct lnet_recovery_report {
	lnet_nid_t		nis[LNET_RECOVERY_SHOWN];
	lnet_nid_t		peers[LNET_RECOVERY_SHOWN];
	unsigned int		nni;
	unsigned int		npeer;
};

static void lnet_recovery_report_add(lnet_nid_t *nids, unsigned int *n,
				     lnet_nid_t nid)
{
	if (*n < LNET_RECOVERY_SHOWN)
		nids[*n] = nid;
	(*n)++;
}

/* What the monitor decided to ping, kept until it sends with no lock. */
struct lnet_recovery_target {
	lnet_nid_t		src;
	lnet_nid_t		dst;
	struct lnet_peer	*peer;		/* reference held; NULL: local NI */
};

/**
 * lnet_recovery_backoff() - seconds from a recovery ping to the next
 * @ping_count: pings sent so far, this one included (>= 1)
 * @max_interval: max_recovery_ping_interval (>= 1)
 */
unsigned int lnet_recovery_backoff(unsigned int ping_count,
				    unsigned int max_interval)
{
	if (ping_count > ilog2(max_interval))
		return max_interval;
	return 1U << ping_count;
}
LNET_EXPORT_FOR_TEST(lnet_recovery_backoff);

/*
 * An entry was queued: its first ping is due now, and the monitor's next
 * pass should not wait. A ping still out from an earlier stay on the
 * queue no longer counts (its UNLINK will not match).
 */
static void lnet_recovery_kick_locked(struct lnet_recovery *r)
{
	lockdep_assert_held(&lnet_recovery_lock);
	r->ping_count = 0;
	r->next_ping = jiffies;
	r->pending = false;
	r->mdh.cookie = LNET_INVALID_HANDLE_COOKIE;
	queue_delayed_work(system_wq, &lnet_recovery_work, 0);
}

/* A local NI lost health: ping it back. Context: any. */
void lnet_recovery_queue_ni(struct lnet_ni *ni)
{
	if (ni == lnet_core.lo_ni || !list_empty_careful(&ni->recovery.list))
		return;
	spin_lock_bh(&lnet_recovery_lock);
	/* lnet_ni_stop() takes a DOWN NI off the queue: keep it off */
	if (lnet_recovery_running && list_empty(&ni->recovery.list) &&
	    READ_ONCE(ni->state) == LNET_NI_STATE_UP &&
	    atomic_read(&ni->healthv) < LNET_MAX_HEALTH) {
		list_add_tail(&ni->recovery.list, &lnet_recovery_nis);
		lnet_recovery_kick_locked(&ni->recovery);
	}
	spin_unlock_bh(&lnet_recovery_lock);
}

/*
 * @ni's link is back: if it is queued, its ping (held back while the link
 * was down, see lnet_recovery_scan()) is due now, back-off started over.
 */
void lnet_recovery_ni_link_up(struct lnet_ni *ni)
{
	spin_lock_bh(&lnet_recovery_lock);
	if (lnet_recovery_running && !list_empty(&ni->recovery.list))
		lnet_recovery_kick_locked(&ni->recovery);
	spin_unlock_bh(&lnet_recovery_lock);
}
LNET_EXPORT_FOR_TEST(lnet_recovery_ni_link_up);

/* recovery_limit: whether @peer has been silent too long to recover. */
static bool lnet_recovery_peer_expired(const struct lnet_peer *peer,
				       unsigned long now)
{
	unsigned long limit = lnet_tunable(&lnet_recovery_limit);
	unsigned long alive = READ_ONCE(peer->last_alive);

	return !alive || (limit && time_after(now, alive + limit * HZ));
}

/**
 * lnet_recovery_queue_peer_locked() - ping a peer below full health
 * @peer: the peer
 *
 * Only a peer that was alive (within recovery_limit) is queued: pinging
 * one never heard from would only keep its connection attempts going.
 */
void lnet_recovery_queue_peer_locked(struct lnet_peer *peer)
{
	lockdep_assert_held(&lnet_core.net_lock);
	if (peer->unhashed || peer->healthv == LNET_MAX_HEALTH ||
	    lnet_recovery_peer_expired(peer, jiffies))
		return;
	spin_lock(&lnet_recovery_lock);
	if (lnet_recovery_running && list_empty(&peer->recovery.list)) {
		kref_get(&peer->kref);
		list_add_tail(&peer->recovery.list, &lnet_recovery_peers);
		lnet_recovery_kick_locked(&peer->recovery);
	}
	spin_unlock(&lnet_recovery_lock);
}

/* A message from @peer arrived: it is alive, back-off starts over. */
void lnet_recovery_peer_heard_locked(struct lnet_peer *peer)
{
	lockdep_assert_held(&lnet_core.net_lock);
	WRITE_ONCE(peer->last_alive, jiffies | 1);	/* 0: never */
	/* a peer joins its queue only under net_lock: not queued stays so */
	if (list_empty(&peer->recovery.list))
		return;
	spin_lock(&lnet_recovery_lock);
	if (!list_empty(&peer->recovery.list)) {
		peer->recovery.ping_count = 0;
		peer->recovery.next_ping = jiffies;
	}
	spin_unlock(&lnet_recovery_lock);
}

/* A ping of @r is due now: account for it. */
static void lnet_recovery_due_locked(struct lnet_recovery *r,
				     unsigned long now)
{
	unsigned int max = lnet_tunable(&lnet_max_recovery_ping_interval);

	lockdep_assert_held(&lnet_recovery_lock);
	r->pending = true;
	r->mdh.cookie = LNET_INVALID_HANDLE_COOKIE;
	r->ping_count++;
	r->next_ping = now + (unsigned long)HZ *
			     lnet_recovery_backoff(r->ping_count, max);
}

/*
 * Drop what is back to health or gone, note what stays in @rep, and pick
 * at most @max entries whose ping is due. net_lock keeps each peer's NI
 * (and hashed state) from changing under us.
 */
static unsigned int lnet_recovery_scan(struct lnet_recovery_target *due,
				       unsigned int max,
				       struct lnet_recovery_report *rep)
{
	unsigned long now = jiffies;
	struct lnet_recovery *r;
	struct lnet_peer *peer, *ptmp;
	struct lnet_ni *ni, *ntmp;
	unsigned int n = 0;

	spin_lock_bh(&lnet_core.net_lock);
	spin_lock(&lnet_recovery_lock);
	list_for_each_entry_safe(ni, ntmp, &lnet_recovery_nis, recovery.list) {
		r = &ni->recovery;
		if (!r->pending &&
		    atomic_read(&ni->healthv) == LNET_MAX_HEALTH) {
			list_del_init(&r->list);
			continue;
		}
		lnet_recovery_report_add(rep->nis, &rep->nni, ni->nid);
		/*
		 * Its own ping would come back through the host's loopback
		 * route and make it whole while its link is cut.
		 */
		if (test_bit(LNET_NI_LINK_DOWN, &ni->health_flags))
			continue;
		if (r->pending || n == max || time_before(now, r->next_ping))
			continue;
		lnet_recovery_due_locked(r, now);
		due[n++] = (struct lnet_recovery_target) {
			.src = ni->nid, .dst = ni->nid,
		};
	}
	list_for_each_entry_safe(peer, ptmp, &lnet_recovery_peers,
				 recovery.list) {
		r = &peer->recovery;
		if (peer->unhashed || peer->healthv == LNET_MAX_HEALTH ||
		    lnet_recovery_peer_expired(peer, now)) {
			list_del_init(&r->list);
			lnet_peer_put(peer);	/* not the last: kfree_rcu */
			continue;
		}
		lnet_recovery_report_add(rep->peers, &rep->npeer, peer->nid);
		if (r->pending || n == max || time_before(now, r->next_ping))
			continue;
		lnet_recovery_due_locked(r, now);
		kref_get(&peer->kref);
		due[n++] = (struct lnet_recovery_target) {
			.src = peer->ni->nid, .dst = peer->nid, .peer = peer,
		};
	}
	spin_unlock(&lnet_recovery_lock);
	spin_unlock_bh(&lnet_core.net_lock);
	return n;
}

/*
 * The entry a ping is for, if it is still queued and still waits for
 * that ping (@mdh; LNET_INVALID_HANDLE_COOKIE before the MD exists).
 * Called under lnet_recovery_lock and, for a local NI, rcu_read_lock().
 */
static struct lnet_recovery *lnet_recovery_entry(lnet_nid_t nid,
						 struct lnet_peer *peer,
						 u64 cookie)
{
	struct lnet_recovery *r;
	struct lnet_ni *ni = NULL;

	lockdep_assert_held(&lnet_recovery_lock);
	if (peer) {
		r = &peer->recovery;
	} else {
		ni = lnet_ni_find_rcu(nid);
		if (!ni)
			return NULL;
		r = &ni->recovery;
	}
	if (list_empty(&r->list) || !r->pending || r->mdh.cookie != cookie)
		return NULL;
	return r;
}

/* A ping of @t could not go: it is due again at its next time. */
static void lnet_recovery_ping_failed(const struct lnet_recovery_target *t)
{
	struct lnet_recovery *r;

	rcu_read_lock();
	spin_lock_bh(&lnet_recovery_lock);
	r = lnet_recovery_entry(t->dst, t->peer, LNET_INVALID_HANDLE_COOKIE);
	if (r)
		r->pending = false;
	spin_unlock_bh(&lnet_recovery_lock);
	rcu_read_unlock();
}

/*
 * GET the ping info of @t's NID from @t's source NI, tracked so that a
 * REPLY that never comes unlinks the MD after transaction_timeout.
 * Consumes @t's peer reference.
 */
static void lnet_recovery_ping_send(struct lnet_recovery_target *t)
{
	struct lnet_process_id id = { .nid = t->dst, .pid = LNET_PID_LUSTRE };
	struct lnet_recovery_ping *ping;
	struct lnet_recovery *r;
	struct lnet_md md;
	bool go = false;
	int rc;

	ping = kzalloc(sizeof(*ping), GFP_NOFS);
	if (!ping)
		goto fail;
	ping->nid = t->dst;
	ping->peer = t->peer;
	md = (struct lnet_md) {
		.start		= &ping->info,
		.length		= LNET_PING_INFO_MIN_SIZE,
		.threshold	= 2,		/* the SEND and the REPLY */
		.options	= LNET_MD_TRUNCATE | LNET_MD_TRACK_RESPONSE,
		.user_ptr	= ping,
		.eq_handle	= lnet_recovery_eqh,
	};
	rc = LNetMDBind(md, LNET_UNLINK, &ping->mdh);
	if (rc) {
		kfree(ping);
		goto fail;
	}
	/* from here on the UNLINK event frees @ping and puts the peer */
	rcu_read_lock();
	spin_lock_bh(&lnet_recovery_lock);
	list_add_tail(&ping->list, &lnet_recovery_pings);
	r = lnet_recovery_entry(t->dst, t->peer, LNET_INVALID_HANDLE_COOKIE);
	if (r && lnet_recovery_running) {
		r->mdh = ping->mdh;
		go = true;
	}
	spin_unlock_bh(&lnet_recovery_lock);
	rcu_read_unlock();

	rc = go ? lnet_get(t->src, ping->mdh, id, LNET_RESERVED_PORTAL,
			   LNET_PROTO_PING_MATCHBITS, 0, true) : -ECANCELED;
	if (rc)
		LNetMDUnlink(ping->mdh);
	return;

fail:
	lnet_recovery_ping_failed(t);
	if (t->peer)
		lnet_peer_put(t->peer);
}

static void lnet_recovery_event(struct lnet_event *ev)
{
	struct lnet_recovery_ping *ping = ev->md.user_ptr;
	struct lnet_recovery *r;
	struct lnet_ni *ni;
	bool ours, last;

	if (ev->type == LNET_EVENT_REPLY && !ev->status)
		ping->replied = true;
	/* a GET that failed, or a REPLY that did, brings nothing more */
	if (ev->status && !ev->unlinked)
		LNetMDUnlink(ev->md_handle);
	if (!ev->unlinked)
		return;

	rcu_read_lock();
	spin_lock_bh(&lnet_recovery_lock);
	r = lnet_recovery_entry(ping->nid, ping->peer, ping->mdh.cookie);
	ours = r;
	if (r)
		r->pending = false;
	list_del(&ping->list);
	last = list_empty(&lnet_recovery_pings);
	spin_unlock_bh(&lnet_recovery_lock);
	/* a peer gains by the REPLY's receipt; a local NI here */
	ni = ping->peer ? NULL : lnet_ni_find_rcu(ping->nid);
	if (ni && ours && ping->replied)
		lnet_ni_health_recovered(ni);
	rcu_read_unlock();

	if (ping->peer)
		lnet_peer_put(ping->peer);
	kfree(ping);
	if (last)
		wake_up_var(&lnet_recovery_pings);
}

/**
 * lnet_recovery_console_due() - should the console hear of a queue now?
 * @c: the queue's report state
 * @queued: entries on the queue
 * @now: jiffies
 *
 * A queue that empties starts over: its next entry is reported at once.
 */
bool lnet_recovery_console_due(struct lnet_recovery_console *c,
			       unsigned int queued, unsigned long now)
{
	if (!queued) {
		c->reports = 0;
		return false;
	}
	if (c->reports && time_before(now, c->next))
		return false;
	if (c->reports < 5)
		c->reports++;
	c->next = now + 60 * HZ * c->reports;
	return true;
}
LNET_EXPORT_FOR_TEST(lnet_recovery_console_due);

/* Name the first LNET_RECOVERY_SHOWN of @n NIDs on the console. */
static void lnet_recovery_console_print(const char *what,
					const lnet_nid_t *nids,
					unsigned int n)
{
	unsigned int i, shown = min_t(unsigned int, n, LNET_RECOVERY_SHOWN);
	size_t size = shown * (LNET_NIDSTR_SIZE + 2), len = 0;
	char nidstr[LNET_NIDSTR_SIZE];
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return;		/* a report skipped; the queue is as it was */
	buf[0] = '\0';
	for (i = 0; i < shown; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 lnet_nid2str(nids[i], nidstr, sizeof(nidstr)));
	pr_info("%u %s in recovery (showing %u): %s\n", n, what, shown, buf);
	kfree(buf);
}

/* Once a pass: report the queues whose turn it is. */
static void lnet_recovery_console(const struct lnet_recovery_report *rep)
{
	unsigned long now = jiffies;

	if (lnet_recovery_console_due(&lnet_recovery_console_nis, rep->nni,
				      now))
		lnet_recovery_console_print("local NIs", rep->nis, rep->nni);
	if (lnet_recovery_console_due(&lnet_recovery_console_peers,
				      rep->npeer, now))
		lnet_recovery_console_print("peer NIs", rep->peers,
					    rep->npeer);
}

static void lnet_recovery_monitor(struct work_struct *work)
{
	struct lnet_recovery_target due[LNET_RECOVERY_BATCH];
	struct lnet_recovery_report rep = {};
	unsigned int i, n;

	if (!READ_ONCE(lnet_recovery_paused)) {
		n = lnet_recovery_scan(due, ARRAY_SIZE(due), &rep);
		for (i = 0; i < n; i++)
			lnet_recovery_ping_send(&due[i]);
		lnet_recovery_console(&rep);
	}

	spin_lock_bh(&lnet_recovery_lock);
	if (lnet_recovery_running && (!list_empty(&lnet_recovery_nis) ||
				      !list_empty(&lnet_recovery_peers)))
		queue_delayed_work(system_wq, &lnet_recovery_work,
				   LNET_RECOVERY_TICK);
	spin_unlock_bh(&lnet_recovery_lock);
}

/*
 * @ni is going down (its state is DOWN already, so it is not queued
 * again): take it off the queue and give up its ping.
 */
void lnet_recovery_ni_stop(struct lnet_ni *ni)
{
	struct lnet_handle_md mdh = { LNET_INVALID_HANDLE_COOKIE };

	lockdep_assert_held(&lnet_core.api_mutex);
	spin_lock_bh(&lnet_recovery_lock);
	if (!list_empty(&ni->recovery.list)) {
		list_del_init(&ni->recovery.list);
		if (ni->recovery.pending)
			mdh = ni->recovery.mdh;
	}
	spin_unlock_bh(&lnet_recovery_lock);
	if (mdh.cookie != LNET_INVALID_HANDLE_COOKIE)
		LNetMDUnlink(mdh);
}

/* Bring-up: the EQ the pings report to. */
int lnet_recovery_start(void)
{
	int rc;

	lockdep_assert_held(&lnet_core.api_mutex);
	rc = LNetEQAlloc(0, lnet_recovery_event, &lnet_recovery_eqh);
	if (rc)
		return rc;
	spin_lock_bh(&lnet_recovery_lock);
	lnet_recovery_running = true;
	spin_unlock_bh(&lnet_recovery_lock);
	return 0;
}

/*
 * Shutdown, before the NIs stop: empty the queues and unlink every ping
 * out. A ping's UNLINK event comes once the LND gives its GET back.
 */
void lnet_recovery_stop(void)
{
	struct lnet_recovery_ping *ping;
	struct lnet_handle_md mdh;
	struct lnet_peer *peer;
	struct lnet_ni *ni;

	lockdep_assert_held(&lnet_core.api_mutex);
	spin_lock_bh(&lnet_recovery_lock);
	lnet_recovery_running = false;
	spin_unlock_bh(&lnet_recovery_lock);
	cancel_delayed_work_sync(&lnet_recovery_work);
	/* the monitor is off: a restart reports its first entries at once */
	lnet_recovery_console_nis.reports = 0;
	lnet_recovery_console_peers.reports = 0;

	spin_lock_bh(&lnet_recovery_lock);
	while ((ni = list_first_entry_or_null(&lnet_recovery_nis,
					      struct lnet_ni, recovery.list)))
		list_del_init(&ni->recovery.list);
	while ((peer = list_first_entry_or_null(&lnet_recovery_peers,
						struct lnet_peer,
						recovery.list))) {
		list_del_init(&peer->recovery.list);
		lnet_peer_put(peer);	/* kfree_rcu at worst */
	}
	for (;;) {
		mdh.cookie = LNET_INVALID_HANDLE_COOKIE;
		list_for_each_entry(ping, &lnet_recovery_pings, list) {
			if (!ping->unlinking) {
				ping->unlinking = true;
				mdh = ping->mdh;
				break;
			}
		}
		if (mdh.cookie == LNET_INVALID_HANDLE_COOKIE)
			break;
		spin_unlock_bh(&lnet_recovery_lock);
		LNetMDUnlink(mdh);	/* stale by now is fine: -ENOENT */
		spin_lock_bh(&lnet_recovery_lock);
	}
	spin_unlock_bh(&lnet_recovery_lock);
}

static bool lnet_recovery_pings_done(void)
{
	bool done;

	spin_lock_bh(&lnet_recovery_lock);
	done = list_empty(&lnet_recovery_pings);
	spin_unlock_bh(&lnet_recovery_lock);
	return done;
}

/* Shutdown, once every NI is down: wait for the last ping's UNLINK. */
void lnet_recovery_fini(void)
{
	lockdep_assert_held(&lnet_core.api_mutex);
	if (lnet_recovery_eqh.cookie == LNET_INVALID_HANDLE_COOKIE)
		return;
	wait_var_event(&lnet_recovery_pings, lnet_recovery_pings_done());
	LNetEQFree(lnet_recovery_eqh);
	lnet_recovery_eqh.cookie = LNET_INVALID_HANDLE_COOKIE;
}

/* Where @r stands: pings since last heard from, seconds to the next. */
static void lnet_recovery_state_locked(const struct lnet_recovery *r,
				       unsigned long now, u32 *ping_count,
				       s64 *next_ping)
{
	lockdep_assert_held(&lnet_recovery_lock);
	*ping_count = r->ping_count;
	if (r->pending)
		*next_ping = -1;
	else if (time_after(r->next_ping, now))
		*next_ping = DIV_ROUND_UP(r->next_ping - now, HZ);
	else
		*next_ping = 0;
}

/* For net show -v and peer show -v: zeros when @r is not queued. */
void lnet_recovery_state(struct lnet_recovery *r, u32 *ping_count,
			 s64 *next_ping)
{
	*ping_count = 0;
	*next_ping = 0;
	spin_lock_bh(&lnet_recovery_lock);
	if (!list_empty(&r->list))
		lnet_recovery_state_locked(r, jiffies, ping_count, next_ping);
	spin_unlock_bh(&lnet_recovery_lock);
}

/* Append one queued entry to @rl, or only count it once @rl is full. */
static void lnet_recovery_list_add(struct lnet_ioctl_recovery_list *rl,
				   lnet_nid_t nid, int health,
				   const struct lnet_recovery *r,
				   unsigned long now)
{
	struct lnet_ioctl_recovery_entry *e;

	if (rl->rl_total++ >= LNET_RECOVERY_LIST_MAX)
		return;
	e = &rl->rl_entries[rl->rl_count++];
	e->re_nid = nid;
	e->re_health_value = health;
	lnet_recovery_state_locked(r, now, &e->re_ping_count,
				   &e->re_next_ping);
}

/**
 * lnet_recovery_list() - what GET_RECOVERY_QUEUE reports
 * @type: LNET_HEALTH_LOCAL_NI or LNET_HEALTH_PEER_NI
 * @rl: filled: the first LNET_RECOVERY_LIST_MAX entries and the total
 *
 * Return: 0 or -EINVAL (@type).
 */
int lnet_recovery_list(u32 type, struct lnet_ioctl_recovery_list *rl)
{
	unsigned long now = jiffies;
	struct lnet_peer *peer;
	struct lnet_ni *ni;

	if (type != LNET_HEALTH_LOCAL_NI && type != LNET_HEALTH_PEER_NI)
		return -EINVAL;
	rl->rl_count = 0;
	rl->rl_total = 0;
	spin_lock_bh(&lnet_recovery_lock);
	if (type == LNET_HEALTH_LOCAL_NI)
		list_for_each_entry(ni, &lnet_recovery_nis, recovery.list)
			lnet_recovery_list_add(rl, ni->nid,
					       atomic_read(&ni->healthv),
					       &ni->recovery, now);
	else
		list_for_each_entry(peer, &lnet_recovery_peers, recovery.list)
			lnet_recovery_list_add(rl, peer->nid,
					       READ_ONCE(peer->healthv),
					       &peer->recovery, now);
	spin_unlock_bh(&lnet_recovery_lock);
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_recovery_list);
