// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection: rules that drop or delay matching messages, so that
 * timeouts, health and resend can be tested the way sites test them
 * (Documentation/fault-injection.md).
 *
 * Drop rules act on receive, in lnet_parse() before a message is made:
 * the payload is consumed and dropped, the sender sees nothing. A drop
 * rule with a health mask acts on send instead: the message fails before
 * its LND sees it, with a health status picked from the mask. drop_all
 * rules do both. Delay rules hold received messages before they are
 * delivered and outgoing ones once they have their credits, for the
 * rule's latency. The loopback NI is never subject to rules.
 *
 * Unlike Lustre's, each rule draws its choices from its own PRNG seeded
 * with fa_seed, so that a failing scenario replays exactly.
 *
 * Locking: lnet_fault.mutex serializes rule changes; the rule lists are
 * read under RCU. A rule's counters, PRNG and held messages are under its
 * ->lock (BH off: messages are sent and received in softirq context too).
 * Held receives are delivered inside lnd_srcu, so that lnet_ni_stop()
 * either finds a message still held (and drops it) or waits for its
 * delivery to end before the LND shuts down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

#define LNET_FAULT_MSG_ALL		(BIT(LNET_MSG_ACK) | BIT(LNET_MSG_PUT) | \
					 BIT(LNET_MSG_GET) | BIT(LNET_MSG_REPLY))
#define LNET_FAULT_HEALTH_ALL		GENMASK(LNET_MSG_STATUS_NETWORK_TIMEOUT, \
						LNET_MSG_STATUS_LOCAL_INTERRUPT)
#define LNET_NIDADDR_ANY		0xFFFFFFFFU

DEFINE_STATIC_KEY_FALSE(lnet_fault_active);

static struct {
	struct mutex		mutex;		/* rule changes */
	struct list_head	drop;		/* newest first; RCU */
	struct list_head	delay;		/* newest first; RCU */
	unsigned int		nrules;		/* @mutex */
	spinlock_t		arm_lock;
	bool			armed;		/* @work queued for @next */
	unsigned long		next;		/* jiffies; @arm_lock */
	struct delayed_work	work;		/* releases held messages */
} lnet_fault = {
	.mutex		= __MUTEX_INITIALIZER(lnet_fault.mutex),
	.drop		= LIST_HEAD_INIT(lnet_fault.drop),
	.delay		= LIST_HEAD_INIT(lnet_fault.delay),
	.arm_lock	= __SPIN_LOCK_UNLOCKED(lnet_fault.arm_lock),
};

/* ---- rules: checking, matching, deciding ---------------------------------------- */

/* A rule's NID matches @nid: ANY, the same NID, or any NID of its net. */
static bool lnet_fault_nid_match(lnet_nid_t rule, lnet_nid_t nid)
{
	if (rule == LNET_NID_ANY || rule == nid)
		return true;
	return LNET_NIDADDR(rule) == LNET_NIDADDR_ANY &&
	       LNET_NIDNET(rule) == LNET_NIDNET(nid);
}

/**
 * lnet_fault_attr_check() - check and normalize a new rule
 * @a: the rule, from user space
 * @delay: a delay rule (else a drop rule)
 *
 * A portal mask restricts the message mask to PUT and GET, the only
 * messages with a portal.
 *
 * Return: 0 or -EINVAL.
 */
int lnet_fault_attr_check(struct lnet_fault_attr *a, bool delay)
{
	if (!a->fa_rate == !a->fa_interval)
		return -EINVAL;		/* exactly one of them */
	if (a->fa_interval > LNET_FAULT_MAX_SECONDS ||
	    a->fa_latency > LNET_FAULT_MAX_SECONDS)
		return -EINVAL;
	if (a->fa_msg_mask & ~LNET_FAULT_MSG_ALL)
		return -EINVAL;
	if (a->fa_ptl_mask) {
		a->fa_msg_mask = (a->fa_msg_mask ?: LNET_FAULT_MSG_ALL) &
				 (BIT(LNET_MSG_PUT) | BIT(LNET_MSG_GET));
		if (!a->fa_msg_mask)
			return -EINVAL;
	}
	if (delay)
		/* a receive-side NI choice is for drop rules only */
		return !a->fa_latency || a->fa_flags || a->fa_health_mask ||
		       a->fa_local_nid != LNET_NID_ANY ? -EINVAL : 0;
	if (a->fa_latency ||
	    a->fa_flags & ~(LNET_FAULT_F_RANDOM | LNET_FAULT_F_DROP_ALL))
		return -EINVAL;
	if ((a->fa_flags & LNET_FAULT_F_RANDOM) && !a->fa_interval)
		return -EINVAL;
	if (a->fa_health_mask != LNET_FAULT_HEALTH_RANDOM &&
	    a->fa_health_mask & ~LNET_FAULT_HEALTH_ALL)
		return -EINVAL;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_fault_attr_check);

/**
 * lnet_fault_match() - does @hdr fall under rule @a?
 * @a: a checked rule
 * @hdr: the message's header
 * @local: the receiving NI's NID; LNET_NID_ANY on the send side, where
 *	a rule naming a local NID never matches
 */
bool lnet_fault_match(const struct lnet_fault_attr *a,
		      const struct lnet_hdr *hdr, lnet_nid_t local)
{
	u32 portal;

	if (!lnet_fault_nid_match(a->fa_src, hdr->src_nid) ||
	    !lnet_fault_nid_match(a->fa_dst, hdr->dest_nid))
		return false;
	if (a->fa_local_nid != LNET_NID_ANY && a->fa_local_nid != local)
		return false;
	if (hdr->type > LNET_MSG_REPLY ||
	    (a->fa_msg_mask && !(a->fa_msg_mask & BIT(hdr->type))))
		return false;
	if (!a->fa_ptl_mask)
		return true;
	if (hdr->type == LNET_MSG_PUT)
		portal = hdr->msg.put.ptl_index;
	else if (hdr->type == LNET_MSG_GET)
		portal = hdr->msg.get.ptl_index;
	else
		return false;
	return portal < 64 && (a->fa_ptl_mask & BIT_ULL(portal));
}
LNET_EXPORT_FOR_TEST(lnet_fault_match);

/* uniform in [0, @n), from the rule's own sequence */
static u32 lnet_fault_rand(struct lnet_fault_rule *r, u32 n)
{
	return n ? (u32)(((u64)prandom_u32_state(&r->rnd) * n) >> 32) : 0;
}

static unsigned long lnet_fault_interval(const struct lnet_fault_rule *r)
{
	return (unsigned long)r->attr.fa_interval * HZ;
}

/**
 * lnet_fault_rule_reset() - statistics to zero, the choices from the seed
 * @r: the rule
 * @now: jiffies, the start of its first interval window
 *
 * Rate N: the first hit is match number uniform[0, N), and each window of
 * N matches has one hit at a uniform position. Interval T: the first hit
 * is the first match at or after now + uniform[0, T).
 */
void lnet_fault_rule_reset(struct lnet_fault_rule *r, unsigned long now)
{
	memset(&r->stat, 0, sizeof(r->stat));
	prandom_seed_state(&r->rnd, r->attr.fa_seed);
	r->nmatch = 0;
	r->next_hit = lnet_fault_rand(r, r->attr.fa_rate);
	r->next_at = now + lnet_fault_rand(r, lnet_fault_interval(r));
	r->window = now + lnet_fault_interval(r);
}
LNET_EXPORT_FOR_TEST(lnet_fault_rule_reset);

/**
 * lnet_fault_decide() - the rule matched a message at @now: act on it?
 * @r: the rule, its ->lock held
 * @now: jiffies
 */
bool lnet_fault_decide(struct lnet_fault_rule *r, unsigned long now)
{
	const struct lnet_fault_attr *a = &r->attr;
	unsigned long t = lnet_fault_interval(r);
	u64 index;
	bool hit;

	lockdep_assert_held(&r->lock);
	if (a->fa_flags & LNET_FAULT_F_DROP_ALL) {
		r->stat.fs_count++;
		return true;
	}
	if (a->fa_flags & LNET_FAULT_F_RANDOM)
		/* not counted as a match, as Lustre does */
		return lnet_fault_rand(r, t) >= t / 2;
	r->stat.fs_count++;
	if (a->fa_rate) {
		index = r->nmatch++;
		hit = index == r->next_hit;
		if (!(r->nmatch % a->fa_rate))
			r->next_hit = r->nmatch + lnet_fault_rand(r, a->fa_rate);
		return hit;
	}
	if (time_before(now, r->next_at))
		return false;
	if (time_before(r->window, now))
		r->window = now;
	r->next_at = r->window + lnet_fault_rand(r, t);
	r->window += t;
	return true;
}
LNET_EXPORT_FOR_TEST(lnet_fault_decide);

/**
 * lnet_fault_pick_status() - the health status of a simulated send failure
 * @r: the rule, its ->lock held
 *
 * A uniform draw from 1..10 (0 counts as 1), kept if the mask has it (or
 * is "random", or empty: drop_all); otherwise the status of the mask
 * nearest to it, the higher one on a tie.
 */
enum lnet_msg_status lnet_fault_pick_status(struct lnet_fault_rule *r)
{
	u32 mask = r->attr.fa_health_mask;
	int pick = lnet_fault_rand(r, LNET_MSG_STATUS_NETWORK_TIMEOUT + 1);
	int d;

	lockdep_assert_held(&r->lock);
	pick = max_t(int, pick, LNET_MSG_STATUS_LOCAL_INTERRUPT);
	if (mask == LNET_FAULT_HEALTH_RANDOM || !mask || (mask & BIT(pick)))
		return pick;
	for (d = 1; d <= LNET_MSG_STATUS_NETWORK_TIMEOUT; d++) {
		if (pick + d <= LNET_MSG_STATUS_NETWORK_TIMEOUT &&
		    (mask & BIT(pick + d)))
			return pick + d;
		if (pick - d >= LNET_MSG_STATUS_LOCAL_INTERRUPT &&
		    (mask & BIT(pick - d)))
			return pick - d;
	}
	return LNET_MSG_STATUS_LOCAL_ERROR;	/* not reached: mask checked */
}
LNET_EXPORT_FOR_TEST(lnet_fault_pick_status);

/* count an action on a message of @type; @r->lock held */
static void lnet_fault_count(struct lnet_fault_rule *r, u32 type)
{
	lockdep_assert_held(&r->lock);
	r->stat.fs_total++;
	switch (type) {
	case LNET_MSG_ACK:
		r->stat.fs_ack++;
		break;
	case LNET_MSG_PUT:
		r->stat.fs_put++;
		break;
	case LNET_MSG_GET:
		r->stat.fs_get++;
		break;
	default:
		r->stat.fs_reply++;
		break;
	}
}

/* ---- the hooks ------------------------------------------------------------------- */

/**
 * lnet_fault_drop_rx() - should a received message be dropped?
 * @ni: the receiving NI
 * @hdr: its header, checked
 *
 * Rules are tried newest first; the first that decides to drop wins
 * (those before it have counted the match).
 */
bool lnet_fault_drop_rx(struct lnet_ni *ni, const struct lnet_hdr *hdr)
{
	struct lnet_fault_rule *r;
	bool drop = false;

	if (ni == lnet_core.lo_ni)
		return false;
	rcu_read_lock();
	list_for_each_entry_rcu(r, &lnet_fault.drop, list) {
		/* health rules fail sends; drop_all ones do both */
		if (r->attr.fa_health_mask &&
		    !(r->attr.fa_flags & LNET_FAULT_F_DROP_ALL))
			continue;
		if (!lnet_fault_match(&r->attr, hdr, ni->nid))
			continue;
		spin_lock_bh(&r->lock);
		drop = lnet_fault_decide(r, jiffies);
		if (drop)
			lnet_fault_count(r, hdr->type);
		spin_unlock_bh(&r->lock);
		if (drop)
			break;
	}
	rcu_read_unlock();
	return drop;
}

/* queue the release work for @when, unless it runs earlier already */
static void lnet_fault_arm(unsigned long when)
{
	unsigned long now = jiffies;

	spin_lock_bh(&lnet_fault.arm_lock);
	if (!lnet_fault.armed || time_before(when, lnet_fault.next)) {
		lnet_fault.armed = true;
		lnet_fault.next = when;
		mod_delayed_work(system_unbound_wq, &lnet_fault.work,
				 time_after(when, now) ? when - now : 0);
	}
	spin_unlock_bh(&lnet_fault.arm_lock);
}

/* Hold @msg if a delay rule says so (rx: not yet delivered; tx: credited). */
static bool lnet_fault_delay(struct lnet_msg *msg)
{
	struct lnet_fault_rule *r;
	unsigned long now = jiffies;
	bool held = false;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &lnet_fault.delay, list) {
		if (!lnet_fault_match(&r->attr, &msg->hdr, LNET_NID_ANY))
			continue;
		spin_lock_bh(&r->lock);
		/*
		 * Nothing more on a deleted rule (its list was released), nor
		 * for a stopping NI: lnet_fault_ni_stop() takes this lock after
		 * the NI went down, so it either finds @msg or we see the state.
		 */
		if (!r->dead &&
		    READ_ONCE(msg->ni->state) == LNET_NI_STATE_UP &&
		    lnet_fault_decide(r, now)) {
			lnet_fault_count(r, msg->hdr.type);
			r->stat.fs_held++;
			msg->fault_release = now + r->attr.fa_latency * HZ;
			list_add_tail(&msg->list, &r->held);
			held = true;
		}
		spin_unlock_bh(&r->lock);
		if (held)
			break;
	}
	rcu_read_unlock();
	if (held)
		lnet_fault_arm(msg->fault_release);
	return held;
}

/**
 * lnet_fault_delay_rx() - hold a received message for a delay rule?
 * @msg: the parsed message, not yet delivered
 *
 * Return: true if held: lnet_parse_release() delivers it later.
 */
bool lnet_fault_delay_rx(struct lnet_msg *msg)
{
	if (msg->ni == lnet_core.lo_ni)
		return false;
	return lnet_fault_delay(msg);
}

/**
 * lnet_fault_tx() - apply the rules to a message about to go to its LND
 * @msg: the message, with its credits
 *
 * A send-side drop rule fails it (-EINVAL, with the health status in
 * @msg->health_status); a delay rule holds it, and lnet_ni_send() gets it
 * again once its latency has passed.
 *
 * Return: true if the rules took @msg (finalized or held).
 */
bool lnet_fault_tx(struct lnet_msg *msg)
{
	struct lnet_fault_rule *r;
	bool fail = false;

	if (msg->ni == lnet_core.lo_ni || msg->fault_passed)
		return false;
	msg->fault_passed = 1;
	rcu_read_lock();
	list_for_each_entry_rcu(r, &lnet_fault.drop, list) {
		if (!r->attr.fa_health_mask &&
		    !(r->attr.fa_flags & LNET_FAULT_F_DROP_ALL))
			continue;
		if (!lnet_fault_match(&r->attr, &msg->hdr, LNET_NID_ANY))
			continue;
		spin_lock_bh(&r->lock);
		fail = lnet_fault_decide(r, jiffies);
		if (fail) {
			lnet_fault_count(r, msg->hdr.type);
			msg->health_status = lnet_fault_pick_status(r);
		}
		spin_unlock_bh(&r->lock);
		if (fail)
			break;
	}
	rcu_read_unlock();
	if (fail) {
		lnet_finalize(msg, -EINVAL);
		return true;
	}
	return lnet_fault_delay(msg);
}

/* Hand released messages on: deliver (rx) or send (tx), or drop them. */
static void lnet_fault_release_list(struct list_head *list, bool stopping)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, list, list) {
		list_del_init(&msg->list);
		if (msg->tx) {
			if (stopping)
				lnet_finalize(msg, -ESHUTDOWN);
			else
				lnet_ni_send(msg);
		} else if (stopping ||
			   READ_ONCE(msg->ni->state) != LNET_NI_STATE_UP) {
			lnet_drop_msg(msg, "held by a fault rule while the NI stopped");
		} else {
			lnet_parse_release(msg);
		}
	}
}

/* Take @r's messages due at @now (all if @now is 0) or of @ni only. */
static void lnet_fault_take(struct lnet_fault_rule *r, unsigned long now,
			    struct lnet_ni *ni, struct list_head *out,
			    unsigned long *next, bool *more)
{
	struct lnet_msg *msg, *tmp;

	spin_lock_bh(&r->lock);
	list_for_each_entry_safe(msg, tmp, &r->held, list) {
		if (ni && msg->ni != ni)
			continue;
		if (now && time_after(msg->fault_release, now)) {
			/* held in order of release: the rest is later */
			if (!*more || time_before(msg->fault_release, *next))
				*next = msg->fault_release;
			*more = true;
			break;
		}
		list_move_tail(&msg->list, out);
		r->stat.fs_held--;
	}
	spin_unlock_bh(&r->lock);
}

static void lnet_fault_work(struct work_struct *work)
{
	struct lnet_fault_rule *r;
	unsigned long now = jiffies, next = 0;
	bool more = false;
	LIST_HEAD(due);
	int idx;

	spin_lock_bh(&lnet_fault.arm_lock);
	lnet_fault.armed = false;
	spin_unlock_bh(&lnet_fault.arm_lock);

	/* see the top of the file: taken and delivered inside lnd_srcu */
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	rcu_read_lock();
	list_for_each_entry_rcu(r, &lnet_fault.delay, list)
		lnet_fault_take(r, now, NULL, &due, &next, &more);
	rcu_read_unlock();
	lnet_fault_release_list(&due, false);
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	if (more)
		lnet_fault_arm(next);
}

/**
 * lnet_fault_ni_stop() - @ni stops: give up the messages held for it
 * @ni: the NI, already down, inside lnet_ni_stop() before its LND shuts down
 */
void lnet_fault_ni_stop(struct lnet_ni *ni)
{
	struct lnet_fault_rule *r;
	unsigned long next = 0;
	bool more = false;
	LIST_HEAD(held);

	rcu_read_lock();
	list_for_each_entry_rcu(r, &lnet_fault.delay, list)
		lnet_fault_take(r, 0, ni, &held, &next, &more);
	rcu_read_unlock();
	lnet_fault_release_list(&held, true);
}

/* ---- the rule table ------------------------------------------------------------- */

static struct list_head *lnet_fault_list(bool delay)
{
	return delay ? &lnet_fault.delay : &lnet_fault.drop;
}

static int lnet_fault_add(struct lnet_fault_attr *a, bool delay)
{
	struct lnet_fault_rule *r;
	int rc;

	rc = lnet_fault_attr_check(a, delay);
	if (rc)
		return rc;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	if (!a->fa_seed)
		a->fa_seed = get_random_u64() ?: 1;
	r->attr = *a;
	r->delay = delay;
	spin_lock_init(&r->lock);
	INIT_LIST_HEAD(&r->held);
	lnet_fault_rule_reset(r, jiffies);

	mutex_lock(&lnet_fault.mutex);
	if (lnet_fault.nrules >= LNET_FAULT_MAX_RULES) {
		mutex_unlock(&lnet_fault.mutex);
		kfree(r);
		return -ENOSPC;
	}
	lnet_fault.nrules++;
	list_add_rcu(&r->list, lnet_fault_list(delay));
	static_branch_inc(&lnet_fault_active);
	mutex_unlock(&lnet_fault.mutex);
	return 0;
}

/* Delete the rules @a names (see struct lnet_ioctl_fault); how many. */
static unsigned int lnet_fault_del(const struct lnet_fault_attr *a, bool delay)
{
	struct lnet_fault_rule *r, *tmp;
	unsigned int n = 0;
	LIST_HEAD(held);
	int idx;

	mutex_lock(&lnet_fault.mutex);
	list_for_each_entry_safe(r, tmp, lnet_fault_list(delay), list) {
		if ((a->fa_src != LNET_NID_ANY && a->fa_src != r->attr.fa_src) ||
		    (a->fa_dst != LNET_NID_ANY && a->fa_dst != r->attr.fa_dst))
			continue;
		list_del_rcu(&r->list);
		spin_lock_bh(&r->lock);
		r->dead = true;
		list_splice_tail_init(&r->held, &held);
		spin_unlock_bh(&r->lock);
		kfree_rcu(r, rcu);
		lnet_fault.nrules--;
		static_branch_dec(&lnet_fault_active);
		n++;
	}
	mutex_unlock(&lnet_fault.mutex);

	/* released at once, whatever their latency */
	idx = srcu_read_lock(&lnet_core.lnd_srcu);
	lnet_fault_release_list(&held, false);
	srcu_read_unlock(&lnet_core.lnd_srcu, idx);
	return n;
}

static void lnet_fault_reset(bool delay)
{
	struct lnet_fault_rule *r;
	u64 held;

	mutex_lock(&lnet_fault.mutex);
	list_for_each_entry(r, lnet_fault_list(delay), list) {
		spin_lock_bh(&r->lock);
		held = r->stat.fs_held;
		lnet_fault_rule_reset(r, jiffies);
		r->stat.fs_held = held;
		spin_unlock_bh(&r->lock);
	}
	mutex_unlock(&lnet_fault.mutex);
}

static int lnet_fault_list_one(struct lnet_ioctl_fault *f, bool delay)
{
	struct lnet_fault_rule *r;
	unsigned int i = 0;
	int rc = -ENOENT;

	mutex_lock(&lnet_fault.mutex);
	list_for_each_entry(r, lnet_fault_list(delay), list) {
		if (i++ != f->lfi_index)
			continue;
		f->lfi_attr = r->attr;
		spin_lock_bh(&r->lock);
		f->lfi_stat = r->stat;
		spin_unlock_bh(&r->lock);
		rc = 0;
		break;
	}
	mutex_unlock(&lnet_fault.mutex);
	return rc;
}

/**
 * lnet_fault_ioctl() - LNET_FAULT (see struct lnet_ioctl_fault)
 * @f: the argument, kernel copy
 *
 * Return: 0, -EINVAL (bad rule or opcode), -ENOSPC (too many rules),
 * -ENOENT (LIST past the end) or -ENOMEM.
 */
int lnet_fault_ioctl(struct lnet_ioctl_fault *f)
{
	bool delay = f->lfi_opc >= LNET_FAULT_DELAY_ADD;

	switch (f->lfi_opc) {
	case LNET_FAULT_DROP_ADD:
	case LNET_FAULT_DELAY_ADD:
		return lnet_fault_add(&f->lfi_attr, delay);
	case LNET_FAULT_DROP_DEL:
	case LNET_FAULT_DELAY_DEL:
		f->lfi_count = lnet_fault_del(&f->lfi_attr, delay);
		return 0;
	case LNET_FAULT_DROP_RESET:
	case LNET_FAULT_DELAY_RESET:
		lnet_fault_reset(delay);
		return 0;
	case LNET_FAULT_DROP_LIST:
	case LNET_FAULT_DELAY_LIST:
		return lnet_fault_list_one(f, delay);
	default:
		return -EINVAL;
	}
}

void lnet_fault_init(void)
{
	INIT_DELAYED_WORK(&lnet_fault.work, lnet_fault_work);
}

/**
 * lnet_fault_clear() - delete every rule
 *
 * Rules belong to one bring-up, as in Lustre: LNet's shutdown calls this
 * once every NI is down, so no rule holds a message any more.
 */
void lnet_fault_clear(void)
{
	static const struct lnet_fault_attr all = {
		.fa_src = LNET_NID_ANY, .fa_dst = LNET_NID_ANY,
	};

	lnet_fault_del(&all, false);
	lnet_fault_del(&all, true);
}

/* Module unload. */
void lnet_fault_fini(void)
{
	lnet_fault_clear();
	cancel_delayed_work_sync(&lnet_fault.work);
	rcu_barrier();		/* the rules' kfree_rcu() */
}
