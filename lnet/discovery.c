// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery and push (Documentation/wire/routing-health-multirail.md,
 * "When discovery runs", "Push"; lnet-header.md's ping info).
 *
 * The first PUT or GET to a peer NID (not on portal 0; routed or not, ours
 * or one we forward as a router) waits on the NID's node while discovery
 * pings the node's primary NID, through a gateway if need be: the ping
 * info says which NIDs the node has, which one is primary and whether it
 * does Multi-Rail and discovery. If it does both (and so do we), we push
 * our own ping info to it (a PUT with an ACK on portal 0) so it learns
 * ours. Then the waiting messages go, through Multi-Rail selection when
 * they named no source NID, or fail with the error that ended the
 * discovery (the ping's or push's -ETIMEDOUT after transaction_timeout).
 *
 * Each node runs its discovery in its own work item, a small state
 * machine (enum lnet_disc_step): the work sends a ping or push and
 * returns; the MD's last event queues the work again. Nothing blocks a
 * worker, and shutdown unlinks the MDs out to end every discovery at once.
 *
 * The push target: an MD on portal 0 for one PUT with the ping match bits,
 * posted again after each. Portal 0 is lazy while it exists, so a push
 * that arrives between two postings waits instead of being dropped. A
 * push that says Multi-Rail from a peer we know (a node, or a NID that
 * traffic made a peer of) updates the peer's NIDs; any other is ACKed and
 * ignored.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

static struct workqueue_struct *lnet_disc_wq;
static DECLARE_WAIT_QUEUE_HEAD(lnet_disc_waitq);	/* disc_gen changed */
static atomic_t lnet_disc_mds = ATOMIC_INIT(0);	/* pings/pushes out */
static struct lnet_handle_eq lnet_disc_eqh;

struct lnet_push_rx {
	struct list_head	list;
	lnet_nid_t		from;		/* the sender's primary NID */
	unsigned int		len;
	u8			data[];
};

static struct {
	struct mutex		mutex;		/* posting and stopping */
	struct lnet_handle_me	meh;		/* mutex; while @posted */
	bool			posted;		/* mutex; cleared by UNLINK */
	bool			stopping;
	struct completion	unlinked;
	struct lnet_handle_eq	eqh;
	void			*buf;		/* LNET_PING_BUFFER_MAX */
	struct work_struct	repost;
	spinlock_t		rx_lock;
	struct list_head	rx;		/* struct lnet_push_rx */
	struct work_struct	rx_work;
} lnet_push;

bool lnet_discovery_enabled(void)
{
	return !lnet_tunable(&lnet_peer_discovery_disabled);
}
LNET_EXPORT_FOR_TEST(lnet_discovery_enabled);

/* Run @node's discovery work; the queued work holds a reference. */
static void lnet_disc_queue(struct lnet_peer_node *node)
{
	kref_get(&node->kref);
	if (!queue_work(lnet_disc_wq, &node->disc_work))
		lnet_node_put(node);
}

/*
 * The messages that waited for a discovery that ended with @rc: sent (to
 * a pair chosen now, if they let LNet choose) or failed with @rc.
 */
static void lnet_disc_release(struct list_head *msgs, int rc)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, msgs, list) {
		list_del_init(&msg->list);
		msg->parked = 0;
		if (rc) {
			msg->no_resend = 1;
			lnet_finalize(msg, rc);
			continue;
		}
		if (msg->mr_select)
			lnet_msg_reselect(msg);
		else if (msg->routing)
			lnet_forward_final_hop(msg);
		lnet_msg_launch(msg);
	}
}

/* A Multi-Rail peer that takes our pushes. */
static bool lnet_node_pushable_locked(const struct lnet_peer_node *node)
{
	lockdep_assert_held(&lnet_core.net_lock);
	return test_bit(LNET_NODE_MULTI_RAIL, &node->flags) &&
	       test_bit(LNET_NODE_DISCOVERED, &node->flags) &&
	       !test_bit(LNET_NODE_NO_DISCOVERY, &node->flags) &&
	       !test_bit(LNET_NODE_UNHASHED, &node->flags);
}

static void lnet_disc_finish(struct lnet_peer_node *node, int rc)
{
	char nid[LNET_NIDSTR_SIZE];
	bool repush;
	LIST_HEAD(msgs);

	spin_lock_bh(&lnet_core.net_lock);
	node->disc_error = rc;
	node->disc_force = false;
	if (!rc)
		set_bit(LNET_NODE_DISCOVERED, &node->flags);
	/*
	 * Our ping info changed while this ran (a status word, which does
	 * not move the sequence): what it sent, if anything, was older.
	 */
	repush = node->disc_repush && !rc && lnet_node_pushable_locked(node) &&
		 lnet_is_running();
	node->disc_repush = false;
	node->disc_step = repush ? LNET_DISC_NOTIFY : LNET_DISC_IDLE;
	list_splice_init(&node->parked, &msgs);
	WRITE_ONCE(node->disc_gen, node->disc_gen + 1);
	spin_unlock_bh(&lnet_core.net_lock);
	if (rc && rc != -ESHUTDOWN)
		pr_debug("discovery of %s failed: %d\n",
			 lnet_nid2str(node->primary, nid, sizeof(nid)), rc);
	wake_up_all(&lnet_disc_waitq);
	lnet_disc_release(&msgs, rc);
	if (repush)
		lnet_disc_queue(node);
}

/**
 * lnet_discovery_gate() - hold @msg until its peer is discovered
 * @msg: a message about to be sent (lnet_msg_launch())
 *
 * Return: true if @msg now waits for discovery (the caller is done with
 * it), false to send it now.
 */
bool lnet_discovery_gate(struct lnet_msg *msg)
{
	struct lnet_peer_node *node;
	bool start = false;
	u32 portal;

	/*
	 * A message we forward waits too, in its router buffer and holding
	 * its sender's router credit, as on a Lustre router. It keeps the
	 * next hop it has: only its originator chooses among the NIDs.
	 */
	if (msg->recovery || msg->retries ||
	    msg->ni == lnet_core.lo_ni || !lnet_discovery_enabled())
		return false;
	switch (msg->hdr.type) {
	case LNET_MSG_PUT:
		portal = msg->hdr.msg.put.ptl_index;
		break;
	case LNET_MSG_GET:
		portal = msg->hdr.msg.get.ptl_index;
		break;
	default:
		return false;	/* a REPLY or ACK never waits */
	}
	/*
	 * Routed too: the ping goes through a gateway like the message, and
	 * the node's other networks may be reached through other routes.
	 */
	if (portal == LNET_RESERVED_PORTAL)
		return false;

	rcu_read_lock();
	node = lnet_node_find_rcu(msg->hdr.dest_nid);
	if (node && lnet_node_needs_no_discovery(node)) {
		rcu_read_unlock();
		return false;
	}
	rcu_read_unlock();

	node = lnet_node_get_or_new(msg->hdr.dest_nid);
	if (!node)
		return false;	/* no memory: it goes undiscovered */
	spin_lock_bh(&lnet_core.net_lock);
	if (lnet_node_needs_no_discovery(node) ||
	    test_bit(LNET_NODE_UNHASHED, &node->flags) || !lnet_is_running()) {
		spin_unlock_bh(&lnet_core.net_lock);
		lnet_node_put(node);
		return false;
	}
	msg->parked = 1;
	list_add_tail(&msg->list, &node->parked);
	if (node->disc_step == LNET_DISC_IDLE) {
		node->disc_step = LNET_DISC_PING;
		start = true;
	}
	spin_unlock_bh(&lnet_core.net_lock);
	if (start)
		lnet_disc_queue(node);
	lnet_node_put(node);
	return true;
}

/* The ping's or push's MD: record what came; its UNLINK queues the work. */
static void lnet_disc_event(struct lnet_event *ev)
{
	struct lnet_peer_node *node = ev->md.user_ptr;

	switch (ev->type) {
	case LNET_EVENT_REPLY:
		node->disc_got = ev->mlength;
		node->disc_answered = !ev->status;
		node->answered = ev->target.nid;
		node->answered_via = ev->initiator.nid;
		break;
	case LNET_EVENT_ACK:
		node->disc_answered = !ev->status;
		break;
	case LNET_EVENT_SEND:
		/* it did not go: no answer will come, stop waiting */
		if (ev->status && !ev->unlinked)
			LNetMDUnlink(ev->md_handle);
		break;
	default:
		break;
	}
	if (ev->status && !node->disc_status)
		node->disc_status = ev->status;
	if (!ev->unlinked)
		return;
	WRITE_ONCE(node->disc_step,
		   node->disc_step == LNET_DISC_PINGING ? LNET_DISC_PUSH :
							  LNET_DISC_PUSHED);
	lnet_disc_queue(node);
	lnet_node_put(node);			/* the MD's */
	if (atomic_dec_and_test(&lnet_disc_mds))
		wake_up_var(&lnet_disc_mds);
}

/*
 * Bind an MD over @buf (@len bytes; @node's from now on) for a ping or
 * push of @node, which moves to @step. The MD holds a node reference.
 */
static int lnet_disc_md(struct lnet_peer_node *node, void *buf,
			unsigned int len, enum lnet_disc_step step,
			struct lnet_handle_md *mdh)
{
	struct lnet_md md = {
		.start		= buf,
		.length		= len,
		.threshold	= 2,	/* the SEND and the REPLY or ACK */
		.options	= LNET_MD_TRUNCATE | LNET_MD_TRACK_RESPONSE,
		.user_ptr	= node,
		.eq_handle	= lnet_disc_eqh,
	};
	int rc;

	kfree(node->disc_buf);
	node->disc_buf = buf;
	node->disc_len = len;
	node->disc_got = 0;
	node->disc_status = 0;
	node->disc_answered = false;
	WRITE_ONCE(node->disc_step, step);
	kref_get(&node->kref);
	atomic_inc(&lnet_disc_mds);
	rc = LNetMDBind(md, LNET_UNLINK, mdh);
	if (rc) {
		atomic_dec(&lnet_disc_mds);
		lnet_node_put(node);
		return rc;
	}
	spin_lock_bh(&lnet_core.net_lock);
	node->disc_mdh = *mdh;
	spin_unlock_bh(&lnet_core.net_lock);
	return 0;
}

static int lnet_disc_send_ping(struct lnet_peer_node *node)
{
	unsigned int len = max_t(unsigned int, node->disc_len,
				 LNET_PING_INFO_MIN_SIZE);
	struct lnet_process_id id = { .pid = LNET_PID_LUSTRE };
	struct lnet_handle_md mdh;
	void *buf;
	int rc;

	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	id.nid = READ_ONCE(node->primary);
	rc = lnet_disc_md(node, buf, len, LNET_DISC_PINGING, &mdh);
	if (rc)
		return rc;
	rc = LNetGet(LNET_NID_ANY, mdh, id, LNET_RESERVED_PORTAL,
		     LNET_PROTO_PING_MATCHBITS, 0);
	if (rc) {
		node->disc_status = rc;
		LNetMDUnlink(mdh);	/* its UNLINK event goes on */
	}
	return 0;
}

static int lnet_disc_send_push(struct lnet_peer_node *node)
{
	struct lnet_process_id id = {
		.nid = node->answered ?: READ_ONCE(node->primary),
		.pid = LNET_PID_LUSTRE,
	};
	lnet_nid_t self = node->answered ? node->answered_via : LNET_NID_ANY;
	struct lnet_handle_md mdh;
	size_t len;
	void *buf;
	int rc;

	buf = lnet_ping_info_copy(&len, &node->push_seq);
	if (!buf)
		return -ENOMEM;
	rc = lnet_disc_md(node, buf, len, LNET_DISC_PUSHING, &mdh);
	if (rc)
		return rc;
	rc = LNetPut(self, mdh, LNET_ACK_REQ, id,
		     LNET_RESERVED_PORTAL, LNET_PROTO_PING_MATCHBITS, 0, 0);
	if (rc) {
		node->disc_status = rc;
		LNetMDUnlink(mdh);
	}
	return 0;
}

/*
 * Collect the NIDs of a checked ping info (@n entries) that are not 0@lo
 * nor ours, primary first. Return: how many.
 */
static unsigned int lnet_disc_info_nids(const struct lnet_ping_info *info,
					unsigned int n, lnet_nid_t *nids)
{
	unsigned int i, k = 0;

	for (i = 1; i < n && k < LNET_NODE_MAX_NIDS; i++) {
		lnet_nid_t nid = info->ni[i].nid;

		if (nid == LNET_NID_ANY || nid == LNET_NID_LO_0 ||
		    lnet_nid_is_local(nid))
			continue;
		nids[k++] = nid;
	}
	return k;
}

/*
 * What a peer's ping info or push says, applied to its node. Return:
 * whether it is Multi-Rail (and does discovery, as we do).
 */
static bool lnet_disc_apply_info(struct lnet_peer_node *node,
				 const struct lnet_ping_info *info,
				 unsigned int n, lnet_nid_t pinged)
{
	lnet_nid_t nids[LNET_NODE_MAX_NIDS];
	unsigned int i, k = lnet_disc_info_nids(info, n, nids);
	bool mr = (info->features & LNET_PING_FEAT_MULTI_RAIL) &&
		  (info->features & LNET_PING_FEAT_DISCOVERY) &&
		  lnet_discovery_enabled();

	spin_lock_bh(&lnet_core.net_lock);
	node->their_seq = info->ni[0].status;
	node->features = info->features;
	if (test_bit(LNET_NODE_CONFIGURED, &node->flags) &&
	    test_bit(LNET_NODE_NO_DISCOVERY, &node->flags)) {
		mr = false;		/* --non_mr: the admin's word */
	} else if (mr) {
		set_bit(LNET_NODE_MULTI_RAIL, &node->flags);
		clear_bit(LNET_NODE_NO_DISCOVERY, &node->flags);
		lnet_node_merge_nids_locked(node, nids, k,
					    !test_bit(LNET_NODE_CONFIGURED,
						      &node->flags));
	} else if (!test_bit(LNET_NODE_CONFIGURED, &node->flags)) {
		clear_bit(LNET_NODE_MULTI_RAIL, &node->flags);
		lnet_node_keep_one_nid_locked(node, pinged);
		if (!(info->features & LNET_PING_FEAT_DISCOVERY))
			set_bit(LNET_NODE_NO_DISCOVERY, &node->flags);
	}
	/* what a router's final hop to a Multi-Rail node looks at */
	for (i = 1; i < n && (info->features & LNET_PING_FEAT_NI_STATUS); i++)
		lnet_node_set_down_locked(node, info->ni[i].nid,
					  info->ni[i].status ==
					  LNET_NI_STATUS_DOWN);
	spin_unlock_bh(&lnet_core.net_lock);
	return mr;
}

/* The ping ended: learn from its REPLY, then push if due. */
static void lnet_disc_ping_done(struct lnet_peer_node *node)
{
	struct lnet_ping_info *info = node->disc_buf;
	bool push;
	int n, rc;

	if (!node->disc_answered) {
		lnet_disc_finish(node, node->disc_status ?: -ETIMEDOUT);
		return;
	}
	n = lnet_ping_info_check(info, node->disc_got);
	if (n < 0) {
		lnet_disc_finish(node, n);
		return;
	}
	/* truncated: once more with room for all of it */
	if (n < info->nnis && node->disc_len < LNET_PING_BUFFER_MAX) {
		node->disc_len = min_t(size_t, lnet_ping_info_size(info->nnis),
				       LNET_PING_BUFFER_MAX);
		rc = lnet_disc_send_ping(node);
		if (rc)
			lnet_disc_finish(node, rc);
		return;
	}
	push = lnet_disc_apply_info(node, info, n, node->answered);
	push = push && (node->disc_force ||
			node->acked_seq != READ_ONCE(lnet_core.ping.seq));
	if (!push) {
		lnet_disc_finish(node, 0);
		return;
	}
	rc = lnet_disc_send_push(node);
	if (rc)
		lnet_disc_finish(node, rc);
}

void lnet_discovery_work(struct work_struct *work)
{
	struct lnet_peer_node *node =
		container_of(work, struct lnet_peer_node, disc_work);
	enum lnet_disc_step step = READ_ONCE(node->disc_step);
	int rc;

	if (step == LNET_DISC_PINGING || step == LNET_DISC_PUSHING)
		goto out;		/* the MD's UNLINK brings us back */
	if (!lnet_is_running() && step != LNET_DISC_IDLE) {
		lnet_disc_finish(node, -ESHUTDOWN);
		goto out;
	}
	switch (step) {
	case LNET_DISC_PING:
		rc = lnet_disc_send_ping(node);
		if (rc)
			lnet_disc_finish(node, rc);
		break;
	case LNET_DISC_PUSH:
		lnet_disc_ping_done(node);
		break;
	case LNET_DISC_NOTIFY:
		rc = lnet_disc_send_push(node);
		if (rc)
			lnet_disc_finish(node, rc);
		break;
	case LNET_DISC_PUSHED:
		if (node->disc_answered)
			node->acked_seq = node->push_seq;
		lnet_disc_finish(node, node->disc_answered ? 0 :
				 node->disc_status ?: -ETIMEDOUT);
		break;
	default:
		break;
	}
out:
	lnet_node_put(node);
}

/**
 * lnet_discover() - DISCOVER: discover @nid's peer now and wait for it
 * @nid: a NID of the peer
 * @force: ping and push even if the peer is up to date
 * @nids: filled with the peer's NIDs, primary first
 * @max: room in @nids
 * @flags: set to the peer's LNET_IOCTL_PEER_* flags
 * @features: set to the feature bits of its last ping info
 *
 * Context: process context; sleeps (killable) up to transaction_timeout.
 *
 * Return: how many NIDs were filled, or -errno.
 */
int lnet_discover(lnet_nid_t nid, bool force, lnet_nid_t *nids,
		  unsigned int max, u32 *flags, u32 *features)
{
	unsigned long wait = (lnet_tunable(&lnet_transaction_timeout) + 5) * HZ;
	struct lnet_peer_node *node;
	bool start = false;
	long left;
	u32 gen;
	int rc;

	if (lnet_nid_is_local(nid))
		return -EINVAL;
	node = lnet_node_get_or_new(nid);
	if (!node)
		return -ENOMEM;
	spin_lock_bh(&lnet_core.net_lock);
	gen = node->disc_gen;
	if (node->disc_step == LNET_DISC_IDLE &&
	    (force || !test_bit(LNET_NODE_DISCOVERED, &node->flags))) {
		node->disc_step = LNET_DISC_PING;
		node->disc_force = force;
		start = true;
	} else if (node->disc_step != LNET_DISC_IDLE) {
		node->disc_force |= force;
		start = true;		/* wait for the one under way */
	}
	spin_unlock_bh(&lnet_core.net_lock);
	if (start) {
		lnet_disc_queue(node);
		left = wait_event_killable_timeout(lnet_disc_waitq,
						   READ_ONCE(node->disc_gen) != gen,
						   wait);
		rc = left < 0 ? -EINTR : !left ? -ETIMEDOUT :
		     READ_ONCE(node->disc_error);
	} else {
		rc = 0;
	}
	*features = READ_ONCE(node->features);
	lnet_node_put(node);
	if (rc)
		return rc;
	return lnet_node_nids(nid, nids, max, flags);
}

/**
 * lnet_discovery_push_all() - our ping info changed: push it to every
 *	Multi-Rail peer discovered (one whose discovery or push is under way
 *	gets it at the end of that)
 * @last: discovery was just turned off; the info pushed says so, and the
 *	peers stop taking us for Multi-Rail (spec: "Push")
 */
void lnet_discovery_push_all(bool last)
{
	struct lnet_peer_node *node;
	bool push;

	if (!last && !lnet_discovery_enabled())
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(node, &lnet_core.nodes, list) {
		spin_lock_bh(&lnet_core.net_lock);
		push = node->disc_step == LNET_DISC_IDLE &&
		       lnet_node_pushable_locked(node);
		if (push)
			node->disc_step = LNET_DISC_NOTIFY;
		else if (node->disc_step != LNET_DISC_IDLE)
			node->disc_repush = true;	/* at its end */
		spin_unlock_bh(&lnet_core.net_lock);
		if (push)
			lnet_disc_queue(node);
	}
	rcu_read_unlock();
}

/* ---- push target ------------------------------------------------------- */

static void lnet_push_event(struct lnet_event *ev)
{
	struct lnet_push_rx *rx;

	if (ev->type == LNET_EVENT_PUT && !ev->status) {
		rx = kmalloc(struct_size(rx, data, ev->mlength), GFP_ATOMIC);
		if (rx) {
			rx->from = ev->initiator.nid;
			rx->len = ev->mlength;
			memcpy(rx->data, lnet_push.buf + ev->offset,
			       ev->mlength);
			spin_lock_bh(&lnet_push.rx_lock);
			list_add_tail(&rx->list, &lnet_push.rx);
			spin_unlock_bh(&lnet_push.rx_lock);
			queue_work(lnet_disc_wq, &lnet_push.rx_work);
		}
	}
	if (ev->unlinked) {
		WRITE_ONCE(lnet_push.posted, false);
		complete(&lnet_push.unlinked);
		if (!READ_ONCE(lnet_push.stopping))
			queue_work(lnet_disc_wq, &lnet_push.repost);
	}
}

/* Post the push target; lnet_push.mutex held. */
static int lnet_push_post(void)
{
	struct lnet_process_id anyone = {
		.nid = LNET_NID_ANY, .pid = LNET_PID_ANY,
	};
	struct lnet_handle_me meh;
	struct lnet_handle_md mdh;
	struct lnet_md md = {
		.start		= lnet_push.buf,
		.length		= LNET_PING_BUFFER_MAX,
		.threshold	= 1,
		.options	= LNET_MD_OP_PUT | LNET_MD_TRUNCATE,
		.eq_handle	= lnet_push.eqh,
	};
	int rc;

	lockdep_assert_held(&lnet_push.mutex);
	if (lnet_push.stopping || lnet_push.posted)
		return 0;
	rc = LNetMEAttach(LNET_RESERVED_PORTAL, anyone,
			  LNET_PROTO_PING_MATCHBITS, 0, LNET_UNLINK,
			  LNET_INS_AFTER, &meh);
	if (rc)
		return rc;
	reinit_completion(&lnet_push.unlinked);
	rc = LNetMDAttach(meh, md, LNET_UNLINK, &mdh);
	if (rc) {
		LNetMEUnlink(meh);
		return rc;
	}
	lnet_push.meh = meh;
	lnet_push.posted = true;
	return 0;
}

static void lnet_push_repost_work(struct work_struct *work)
{
	int rc;

	mutex_lock(&lnet_push.mutex);
	rc = lnet_push_post();
	mutex_unlock(&lnet_push.mutex);
	if (rc)
		pr_warn_ratelimited("cannot post the push target again (%d): pushes wait on portal 0\n",
				    rc);
}

/* A received push: a known Multi-Rail peer tells us its NIDs. */
static void lnet_push_apply(struct lnet_push_rx *rx)
{
	struct lnet_ping_info *info = (struct lnet_ping_info *)rx->data;
	struct lnet_peer_node *node;
	bool reping = false;
	int n;

	n = lnet_ping_info_check(rx->data, rx->len);
	if (n < 0 || !(info->features & LNET_PING_FEAT_MULTI_RAIL) ||
	    !lnet_discovery_enabled())
		return;
	node = lnet_node_get(rx->from);
	/* a peer known by its traffic alone (it pinged us first) */
	if (!node && lnet_peer_known(rx->from))
		node = lnet_node_get_or_new(rx->from);
	if (!node)
		return;		/* not a peer we know */
	if (n < info->nnis) {
		reping = true;	/* truncated: ask for all of it */
	} else {
		lnet_disc_apply_info(node, info, n, rx->from);
		spin_lock_bh(&lnet_core.net_lock);
		set_bit(LNET_NODE_DISCOVERED, &node->flags);
		spin_unlock_bh(&lnet_core.net_lock);
		lnet_gateway_pushed(rx->from, info, n);
	}
	if (reping) {
		spin_lock_bh(&lnet_core.net_lock);
		node->disc_force = true;
		if (node->disc_step == LNET_DISC_IDLE)
			node->disc_step = LNET_DISC_PING;
		else
			reping = false;
		spin_unlock_bh(&lnet_core.net_lock);
		if (reping)
			lnet_disc_queue(node);
	}
	lnet_node_put(node);
}

static void lnet_push_rx_work(struct work_struct *work)
{
	struct lnet_push_rx *rx, *tmp;
	LIST_HEAD(list);

	spin_lock_bh(&lnet_push.rx_lock);
	list_splice_init(&lnet_push.rx, &list);
	spin_unlock_bh(&lnet_push.rx_lock);
	list_for_each_entry_safe(rx, tmp, &list, list) {
		list_del(&rx->list);
		if (lnet_is_running())
			lnet_push_apply(rx);
		kfree(rx);
	}
}

/* ---- bring-up and shutdown --------------------------------------------- */

int lnet_discovery_init(void)
{
	mutex_init(&lnet_push.mutex);
	init_completion(&lnet_push.unlinked);
	spin_lock_init(&lnet_push.rx_lock);
	INIT_LIST_HEAD(&lnet_push.rx);
	INIT_WORK(&lnet_push.repost, lnet_push_repost_work);
	INIT_WORK(&lnet_push.rx_work, lnet_push_rx_work);
	lnet_disc_wq = alloc_workqueue("lnet_disc", WQ_UNBOUND, 0);
	return lnet_disc_wq ? 0 : -ENOMEM;
}

void lnet_discovery_fini(void)
{
	destroy_workqueue(lnet_disc_wq);
}

/**
 * lnet_discovery_start() - bring-up: the push target and discovery's EQ
 *
 * Before any network is up: a peer that sees MULTI_RAIL in our ping info
 * may push at once.
 */
int lnet_discovery_start(void)
{
	int rc;

	lnet_push.buf = kzalloc(LNET_PING_BUFFER_MAX, GFP_KERNEL);
	if (!lnet_push.buf)
		return -ENOMEM;
	rc = LNetEQAlloc(0, lnet_disc_event, &lnet_disc_eqh);
	if (rc)
		goto fail_buf;
	rc = LNetEQAlloc(0, lnet_push_event, &lnet_push.eqh);
	if (rc)
		goto fail_eq;
	rc = LNetSetLazyPortal(LNET_RESERVED_PORTAL);
	if (rc)
		goto fail_push_eq;
	mutex_lock(&lnet_push.mutex);
	lnet_push.stopping = false;
	rc = lnet_push_post();
	mutex_unlock(&lnet_push.mutex);
	if (rc)
		goto fail_lazy;
	return 0;

fail_lazy:
	LNetClearLazyPortal(LNET_RESERVED_PORTAL);
fail_push_eq:
	LNetEQFree(lnet_push.eqh);
fail_eq:
	LNetEQFree(lnet_disc_eqh);
fail_buf:
	kfree(lnet_push.buf);
	lnet_push.buf = NULL;
	return rc;
}

/* Unlink every ping and push out; their UNLINK events end discoveries. */
static void lnet_disc_unlink_all(void)
{
	struct lnet_peer_node *node;
	struct lnet_handle_md mdh;
	enum lnet_disc_step step;

	rcu_read_lock();
	list_for_each_entry_rcu(node, &lnet_core.nodes, list) {
		spin_lock_bh(&lnet_core.net_lock);
		mdh = node->disc_mdh;
		step = READ_ONCE(node->disc_step);
		spin_unlock_bh(&lnet_core.net_lock);
		if (step == LNET_DISC_PINGING || step == LNET_DISC_PUSHING)
			LNetMDUnlink(mdh);	/* stale: -ENOENT, harmless */
	}
	rcu_read_unlock();
}

/**
 * lnet_discovery_stop() - shutdown, networks still up: end every
 *	discovery (their waiting messages fail with -ESHUTDOWN) and take
 *	the push target down
 *
 * Context: LNet stopping (lnet_is_running() false: nothing new waits).
 */
void lnet_discovery_stop(void)
{
	if (!lnet_push.buf)
		return;		/* never started */
	mutex_lock(&lnet_push.mutex);
	lnet_push.stopping = true;
	if (lnet_push.posted) {
		LNetMEUnlink(lnet_push.meh);
		wait_for_completion(&lnet_push.unlinked);
	}
	mutex_unlock(&lnet_push.mutex);
	cancel_work_sync(&lnet_push.repost);
	LNetClearLazyPortal(LNET_RESERVED_PORTAL);

	/*
	 * A work item already past its lnet_is_running() check may still
	 * send: let those finish, then unlink what is out (again, for a
	 * straggler) until every MD has gone.
	 */
	flush_workqueue(lnet_disc_wq);
	do {
		lnet_disc_unlink_all();
	} while (!wait_var_event_timeout(&lnet_disc_mds,
					 !atomic_read(&lnet_disc_mds), HZ));
	flush_workqueue(lnet_disc_wq);
	LNetEQFree(lnet_disc_eqh);
	LNetEQFree(lnet_push.eqh);
	kfree(lnet_push.buf);
	lnet_push.buf = NULL;
}
