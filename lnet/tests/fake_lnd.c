// SPDX-License-Identifier: GPL-2.0
/* The fake LND of the white-box suites (see fake_lnd.h). */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include "fake_lnd.h"
#include "wb_util.h"

struct fake_tx {
	struct list_head	list;
	struct lnet_msg		*msg;
};

struct fake_lnd fake;

static int fake_startup(struct lnet_ni *ni)
{
	unsigned int n = LNET_NETNUM(lnet_ni_net(ni));
	bool second = !strcmp(lnet_ni_iface(ni), FAKE_SECOND_IFACE);

	if (n >= FAKE_MAX_NETS)
		return -EINVAL;
	lnet_ni_set_addr(ni, FAKE_MY_ADDR + second);
	spin_lock_bh(&fake.lock);
	if (second)
		fake.ni2[n] = ni;
	else
		fake.ni[n] = ni;
	fake.nstartup++;
	spin_unlock_bh(&fake.lock);
	return 0;
}

static void fake_collect(struct list_head *list, struct lnet_ni *ni,
			 struct list_head *done)
{
	struct fake_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, list, list)
		if (tx->msg->ni == ni)
			list_move_tail(&tx->list, done);
}

/* Finalize what this NI still holds, taken by the test or not. */
static void fake_shutdown(struct lnet_ni *ni)
{
	struct fake_tx *tx, *tmp;
	LIST_HEAD(done);

	spin_lock_bh(&fake.lock);
	fake_collect(&fake.held, ni, &done);
	fake_collect(&fake.taken, ni, &done);
	fake.nheld = 0;
	list_for_each_entry(tx, &fake.held, list)
		fake.nheld++;
	if (fake.ni2[LNET_NETNUM(lnet_ni_net(ni))] == ni)
		fake.ni2[LNET_NETNUM(lnet_ni_net(ni))] = NULL;
	else
		fake.ni[LNET_NETNUM(lnet_ni_net(ni))] = NULL;
	fake.nshutdown++;
	spin_unlock_bh(&fake.lock);

	list_for_each_entry_safe(tx, tmp, &done, list) {
		lnet_finalize(tx->msg, -ESHUTDOWN);
		kfree(tx);
	}
}

static int fake_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	struct fake_tx *tx;

	spin_lock_bh(&fake.lock);
	fake.nsend++;
	fake.last_send_private = private;
	spin_unlock_bh(&fake.lock);

	switch (fake.send_mode) {
	case FAKE_SEND_FAIL:
		return fake.send_rc;
	case FAKE_SEND_COMPLETE:
		lnet_finalize(msg, 0);
		return 0;
	case FAKE_SEND_HOLD:
		break;
	}
	tx = kzalloc(sizeof(*tx), GFP_ATOMIC);
	if (!tx)
		return -ENOMEM;
	tx->msg = msg;
	spin_lock_bh(&fake.lock);
	list_add_tail(&tx->list, &fake.held);
	fake.nheld++;
	spin_unlock_bh(&fake.lock);
	wake_up_all(&fake.wq);
	return 0;
}

static int fake_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		     bool delayed, struct iov_iter *to, unsigned int mlen,
		     unsigned int rlen)
{
	spin_lock_bh(&fake.lock);
	fake.nrecv++;
	if (!msg)
		fake.nrecv_null++;
	fake.last_recv = (struct fake_recv){
		.msg = msg, .private = private, .delayed = delayed,
		.mlen = mlen, .rlen = rlen,
	};
	spin_unlock_bh(&fake.lock);

	if (!msg)
		return 0;
	if (fake.recv_rc < 0)
		return fake.recv_rc;
	if (fake.recv_hold)
		return 0;	/* the test finalizes last_recv.msg */
	if (mlen && fake.rx_data &&
	    copy_to_iter(fake.rx_data, mlen, to) != mlen) {
		lnet_finalize(msg, -EFAULT);
		return 0;
	}
	lnet_finalize(msg, 0);
	return 0;
}

static unsigned int fake_timeout(struct lnet_ni *ni)
{
	return READ_ONCE(fake.timeout);
}

struct lnet_lnd fake_lnd_ops = {
	.owner		= THIS_MODULE,
	.type		= FAKE_LND_TYPE,
	.startup	= fake_startup,
	.shutdown	= fake_shutdown,
	.send		= fake_send,
	.recv		= fake_recv,
	.timeout	= fake_timeout,
};

int fake_lnd_setup(struct kunit *test, int nnets, int credits,
		   int peer_credits)
{
	struct lnet_ni_tunables tun = {
		.credits = credits, .peer_credits = peer_credits,
	};
	struct lnet_net_config cfg = {};
	int i, rc;

	memset(&fake, 0, sizeof(fake));
	spin_lock_init(&fake.lock);
	init_waitqueue_head(&fake.wq);
	INIT_LIST_HEAD(&fake.held);
	INIT_LIST_HEAD(&fake.taken);
	rc = lnet_register_lnd(&fake_lnd_ops);
	if (rc)
		return rc;
	for (i = 0; i < nnets; i++) {
		cfg.net_id = FAKE_NET(i);
		rc = lnet_net_add(&cfg, &tun);
		if (rc) {
			kunit_err(test, "lnet_net_add(fake %d): %d\n", i, rc);
			fake_lnd_teardown();
			return rc;
		}
	}
	return 0;
}

void *fake_suite_init(struct kunit *test, int nnets, int credits,
		      int peer_credits, size_t env_size)
{
	struct wb_ctx *ctx;
	void *env;
	int rc;

	/* a suite that wants recovery pings among its sends says so */
	WRITE_ONCE(lnet_recovery_paused, true);
	rc = wb_init(test);
	if (rc)
		return ERR_PTR(rc);
	ctx = test->priv;
	rc = fake_lnd_setup(test, nnets, credits, peer_credits);
	if (rc) {
		LNetNIFini();
		test->priv = NULL;
		return ERR_PTR(rc);
	}
	env = kunit_kzalloc(test, env_size, GFP_KERNEL);
	if (!env)
		return ERR_PTR(-ENOMEM);
	ctx->priv = env;
	return env;
}

void fake_lnd_teardown(void)
{
	int i;

	fake.send_mode = FAKE_SEND_COMPLETE;
	for (i = 0; i < FAKE_MAX_NETS; i++)
		if (fake.ni[i])
			lnet_net_del(FAKE_NET(i));
	lnet_unregister_lnd(&fake_lnd_ops);
}

struct lnet_msg *fake_take_send(unsigned int ms)
{
	struct lnet_msg *msg = NULL;
	struct fake_tx *tx;

	wait_event_timeout(fake.wq, READ_ONCE(fake.nheld),
			   msecs_to_jiffies(ms));
	spin_lock_bh(&fake.lock);
	tx = list_first_entry_or_null(&fake.held, struct fake_tx, list);
	if (tx) {
		list_move_tail(&tx->list, &fake.taken);
		fake.nheld--;
		msg = tx->msg;
	}
	spin_unlock_bh(&fake.lock);
	return msg;
}

struct lnet_msg *fake_put_held(struct kunit *test, struct lnet_handle_eq eqh,
			       void *buf, unsigned int len, lnet_nid_t peer,
			       unsigned int pt)
{
	struct lnet_handle_md mdh;
	struct lnet_msg *msg;

	mdh = wb_bind(test, wb_md(buf, len, 1, 0, NULL, eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(peer, LNET_PID_LUSTRE), pt, 1, 0,
				      0), 0);
	msg = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	return msg;
}

void fake_done(struct lnet_msg *msg, int status)
{
	struct fake_tx *tx, *found = NULL;

	spin_lock_bh(&fake.lock);
	list_for_each_entry(tx, &fake.taken, list) {
		if (tx->msg == msg) {
			list_del(&tx->list);
			found = tx;
			break;
		}
	}
	spin_unlock_bh(&fake.lock);
	if (WARN_ON(!found))
		return;
	kfree(found);
	lnet_finalize(msg, status);
}

void fake_finish_held(int status)
{
	struct lnet_msg *msg;

	while ((msg = fake_take_send(0)))
		fake_done(msg, status);
}

void fake_hdr(struct lnet_hdr *hdr, enum lnet_msg_type type, int net,
	      lnet_nid_t src, unsigned int payload)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = type;
	hdr->dest_nid = FAKE_NID(net, FAKE_MY_ADDR);
	hdr->dest_pid = LNET_PID_LUSTRE;
	hdr->src_nid = src;
	hdr->src_pid = LNET_PID_LUSTRE;
	hdr->payload_length = payload;
}

int fake_peer_health(lnet_nid_t nid, enum lnet_msg_status hs, u64 *count)
{
	struct lnet_peer *peer;
	int v = -ENOENT;

	spin_lock_bh(&lnet_core.net_lock);
	peer = lnet_peer_find_locked(nid);
	if (peer) {
		v = peer->healthv;
		if (count)
			*count = peer->hstats[hs];
	}
	spin_unlock_bh(&lnet_core.net_lock);
	return v;
}
