// SPDX-License-Identifier: GPL-2.0
/*
 * Health: how each local NI and each peer has been doing, judged by what
 * became of the messages that used it (Documentation/wire/
 * routing-health-multirail.md, "Health and resend"). Values run from 0 to
 * LNET_MAX_HEALTH; a failure takes health_sensitivity off whatever its
 * status blames, a success gives that much back, and a sensitivity of 0
 * freezes every value.
 *
 * A local NI's value is an atomic: the data path reads it without a lock
 * and changes it only while it is below the maximum or on a failure. A
 * peer's value lives under net_lock beside its credits. Crediting the
 * sender of a receive takes a peer lookup, so it is done only while some
 * peer is below the maximum (lnet_core.peers_unhealthy).
 *
 * Every peer here has one NI and none is a gateway (no Multi-Rail or
 * routing yet). For such peers the spec leaves the value alone on a
 * failed send: the failure is counted against the peer. What lowers its
 * value is an ACK or REPLY it owes and does not send in time (spec 3.5),
 * or an administrator's `lnetctl peer set --health`; each message
 * received from the peer raises it again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/minmax.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

/**
 * lnet_health_status_of() - the health status of a failure no one classified
 * @status: 0 or the -errno a message was finalized with
 *
 * What an LND's connection errors mean (the spec's socklnd table): the
 * peer timing out is the network's fault, a peer that refused, reset or
 * could not be reached dropped the message, anything else went wrong
 * here. An LND that knows better says so with lnet_msg_set_health().
 */
enum lnet_msg_status lnet_health_status_of(int status)
{
	switch (status) {
	case 0:
		return LNET_MSG_STATUS_OK;
	case -ETIMEDOUT:
		return LNET_MSG_STATUS_NETWORK_TIMEOUT;
	case -ENETDOWN:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -ECONNREFUSED:
	case -ECONNRESET:
		return LNET_MSG_STATUS_REMOTE_DROPPED;
	default:
		return LNET_MSG_STATUS_LOCAL_ERROR;
	}
}
LNET_EXPORT_FOR_TEST(lnet_health_status_of);

static bool lnet_health_status_local(enum lnet_msg_status hs)
{
	return hs >= LNET_MSG_STATUS_LOCAL_INTERRUPT &&
	       hs <= LNET_MSG_STATUS_LOCAL_TIMEOUT;
}

/* Whether @hs blames the local NI and whether it blames the peer. */
bool lnet_health_blames_local(enum lnet_msg_status hs)
{
	return lnet_health_status_local(hs) ||
	       hs == LNET_MSG_STATUS_NETWORK_TIMEOUT;
}
LNET_EXPORT_FOR_TEST(lnet_health_blames_local);

bool lnet_health_blames_remote(enum lnet_msg_status hs)
{
	return hs >= LNET_MSG_STATUS_REMOTE_ERROR && hs < LNET_MSG_NSTATUS;
}
LNET_EXPORT_FOR_TEST(lnet_health_blames_remote);

/* @value + @delta, kept within 0..LNET_MAX_HEALTH. */
int lnet_health_step(int value, int delta)
{
	return clamp(value + delta, 0, LNET_MAX_HEALTH);
}
LNET_EXPORT_FOR_TEST(lnet_health_step);

/*
 * An NI whose health fell to 0 says DOWN in the ping info until its health
 * is full again (spec 3.1): peers then keep away from it.
 */
static void lnet_ni_health_moved(struct lnet_ni *ni, int old, int new)
{
	if (!new && old &&
	    !test_and_set_bit(LNET_NI_HEALTH_DOWN, &ni->health_flags))
		lnet_ping_status_changed();
	else if (new == LNET_MAX_HEALTH &&
		 test_and_clear_bit(LNET_NI_HEALTH_DOWN, &ni->health_flags))
		lnet_ping_status_changed();
}

static void lnet_ni_health_add(struct lnet_ni *ni, int delta)
{
	int old = atomic_read(&ni->healthv);
	int new;

	do {
		new = lnet_health_step(old, delta);
		if (new == old)
			return;
	} while (!atomic_try_cmpxchg(&ni->healthv, &old, new));
	lnet_ni_health_moved(ni, old, new);
}

/* Keeps lnet_core.peers_unhealthy in step with the peers' values. */
static void lnet_peer_healthv_set_locked(struct lnet_peer *peer, int value)
{
	lockdep_assert_held(&lnet_core.net_lock);
	if (peer->unhashed || value == peer->healthv)
		return;
	if (peer->healthv == LNET_MAX_HEALTH)
		atomic_inc(&lnet_core.peers_unhealthy);
	else if (value == LNET_MAX_HEALTH)
		atomic_dec(&lnet_core.peers_unhealthy);
	WRITE_ONCE(peer->healthv, value);
}

/* @peer is leaving the table: it no longer counts as unhealthy. */
void lnet_peer_health_unhash(struct lnet_peer *peer)
{
	lockdep_assert_held(&lnet_core.net_lock);
	if (peer->healthv != LNET_MAX_HEALTH)
		atomic_dec(&lnet_core.peers_unhealthy);
}

/* A message from @nid arrived whole on @ni: its sender is doing well. */
static void lnet_peer_health_received(struct lnet_ni *ni, lnet_nid_t nid,
				      int step)
{
	struct lnet_peer *peer;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer && peer->ni == ni) {
		lnet_peer_healthv_set_locked(peer,
					     lnet_health_step(peer->healthv,
							      step));
		lnet_recovery_peer_heard_locked(peer);
	}
	spin_unlock_bh(&lnet_core.net_lock);
}

/**
 * lnet_peer_response_timeout() - a peer took a request and did not answer
 * @nid: the request's next hop (its destination: no gateways yet)
 *
 * It loses a step of health even with one NI, recovery pings it, and its
 * "timeout" health statistic counts it (a count a later message from the
 * peer does not undo, as it does the health value). An answer owed by one
 * of our own NIs says nothing about a peer.
 */
void lnet_peer_response_timeout(lnet_nid_t nid)
{
	int step = lnet_tunable(&lnet_health_sensitivity);
	struct lnet_peer *peer;

	if (lnet_nid_is_local(nid))
		return;
	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer) {
		peer->hstats[LNET_MSG_STATUS_REMOTE_TIMEOUT]++;
		lnet_peer_healthv_set_locked(peer,
					     lnet_health_step(peer->healthv,
							      -step));
		lnet_recovery_queue_peer_locked(peer);
	}
	spin_unlock_bh(&lnet_core.net_lock);
}

/**
 * lnet_health_check() - what a finalized message says about NI and peer
 * @msg: the message, finalized with @status
 * @status: 0 or -errno
 *
 * A failed send the LND did not classify is classified by its errno; a
 * failed receive counts only if its LND classified it (a malformed frame
 * says nothing about the network). The loopback NI has no health.
 */
void lnet_health_check(struct lnet_msg *msg, int status)
{
	enum lnet_msg_status hs = msg->health_status;
	struct lnet_ni *ni = msg->ni;
	int step;

	if (!ni || ni == lnet_core.lo_ni)
		return;
	if (hs == LNET_MSG_STATUS_OK && status) {
		if (!msg->tx)
			return;
		hs = lnet_health_status_of(status);
		msg->health_status = hs;
	}
	step = lnet_tunable(&lnet_health_sensitivity);

	if (hs == LNET_MSG_STATUS_OK) {
		/* the peer took it: alive, as far as recovery is concerned */
		if (msg->tx && msg->txpeer &&
		    READ_ONCE(msg->txpeer->last_alive) != (jiffies | 1))
			WRITE_ONCE(msg->txpeer->last_alive, jiffies | 1);
		if (!step)
			return;
		if (atomic_read(&ni->healthv) < LNET_MAX_HEALTH)
			lnet_ni_health_add(ni, step);
		if (!msg->tx && atomic_read(&lnet_core.peers_unhealthy))
			lnet_peer_health_received(ni, msg->from, step);
		return;
	}

	lnet_counter_add(health[hs], 1);
	lnet_ni_stat_add(ni, health[hs], 1);
	if (lnet_health_blames_local(hs)) {
		lnet_ni_health_add(ni, -step);
		lnet_recovery_queue_ni(ni);
	}
	if (lnet_health_blames_remote(hs) && msg->txpeer) {
		/* one NI, no gateway: counted, value left alone (see above) */
		spin_lock_bh(&lnet_core.net_lock);
		msg->txpeer->hstats[hs]++;
		lnet_recovery_queue_peer_locked(msg->txpeer);
		spin_unlock_bh(&lnet_core.net_lock);
	}
}

/* A recovery ping of @ni's own NID came back through it. */
void lnet_ni_health_recovered(struct lnet_ni *ni)
{
	lnet_ni_health_add(ni, lnet_tunable(&lnet_health_sensitivity));
}

/**
 * lnet_ni_set_health() - set local NIs' health by hand
 * @nid: the NI's NID; ignored with @all
 * @all: every NI but the loopback one
 * @value: 0..LNET_MAX_HEALTH
 *
 * Return: 0, -ENOENT (no such NI) or -EINVAL (@value out of range).
 */
int lnet_ni_set_health(lnet_nid_t nid, bool all, int value)
{
	struct lnet_ni *ni;
	int rc = -ENOENT;

	if (value < 0 || value > LNET_MAX_HEALTH)
		return -EINVAL;
	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list) {
		if (ni == lnet_core.lo_ni || (!all && ni->nid != nid))
			continue;
		lnet_ni_health_moved(ni, atomic_xchg(&ni->healthv, value),
				     value);
		lnet_recovery_queue_ni(ni);
		rc = 0;
	}
	rcu_read_unlock();
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_ni_set_health);

/**
 * lnet_peer_set_health() - set peers' health by hand
 * @nid: the peer's NID; ignored with @all
 * @all: every peer
 * @value: 0..LNET_MAX_HEALTH
 *
 * Return: 0, -ENOENT (no such peer) or -EINVAL (@value out of range).
 */
int lnet_peer_set_health(lnet_nid_t nid, bool all, int value)
{
	struct lnet_peer *peer;
	int rc = -ENOENT;

	if (value < 0 || value > LNET_MAX_HEALTH)
		return -EINVAL;
	spin_lock_bh(&lnet_core.net_lock);
	if (all) {
		list_for_each_entry(peer, &lnet_core.peer_list, list) {
			lnet_peer_healthv_set_locked(peer, value);
			lnet_recovery_queue_peer_locked(peer);
		}
		rc = 0;
	} else {
		peer = lnet_peer_find_locked(nid);
		if (peer) {
			lnet_peer_healthv_set_locked(peer, value);
			lnet_recovery_queue_peer_locked(peer);
			rc = 0;
		}
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_peer_set_health);
