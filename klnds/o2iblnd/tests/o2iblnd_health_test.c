// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what o2iblnd tells the core about a failed message
 * (routing-health-multirail.md 3.2): a connection closed for a timeout
 * blames each tx by where it was, and a peer that could not be
 * (re)connected to fails its waiting messages by why.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "../o2iblnd.h"

struct timeout_case {
	struct list_head	*queue;
	int			sending;
	bool			waiting;
	int			status;		/* already failed with */
	enum lnet_msg_status	want;
	int			want_status;
};

/* One tx in each place a timed-out connection can hold one. */
static void health_conn_timeout_by_place(struct kunit *test)
{
	struct kib_net *net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	struct kib_conn *conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	struct timeout_case cases[7];
	struct kib_tx *tx[ARRAY_SIZE(cases)];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, net);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	spin_lock_init(&net->lock);
	spin_lock_init(&conn->lock);
	conn->net = net;
	INIT_LIST_HEAD(&conn->tx_noops);
	INIT_LIST_HEAD(&conn->tx_queue);
	INIT_LIST_HEAD(&conn->tx_queue_rsrvd);
	INIT_LIST_HEAD(&conn->active_txs);

	cases[0] = (struct timeout_case){ &conn->tx_queue, 0, false, 0,
		LNET_MSG_STATUS_LOCAL_TIMEOUT, -ETIMEDOUT };
	cases[1] = (struct timeout_case){ &conn->tx_queue_rsrvd, 0, false, 0,
		LNET_MSG_STATUS_LOCAL_TIMEOUT, -ETIMEDOUT };
	cases[2] = (struct timeout_case){ &conn->tx_noops, 0, false, 0,
		LNET_MSG_STATUS_LOCAL_TIMEOUT, -ETIMEDOUT };
	cases[3] = (struct timeout_case){ &conn->active_txs, 1, true, 0,
		LNET_MSG_STATUS_NETWORK_TIMEOUT, -ETIMEDOUT };
	cases[4] = (struct timeout_case){ &conn->active_txs, 0, true, 0,
		LNET_MSG_STATUS_REMOTE_TIMEOUT, -ETIMEDOUT };
	/* done sending, not waiting: nothing to blame it for */
	cases[5] = (struct timeout_case){ &conn->active_txs, 0, false, 0,
		LNET_MSG_STATUS_OK, 0 };
	/* failed already: keeps its own verdict */
	cases[6] = (struct timeout_case){ &conn->active_txs, 1, false, -EIO,
		LNET_MSG_STATUS_OK, -EIO };

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tx[i] = kunit_kzalloc(test, sizeof(*tx[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, tx[i]);
		tx[i]->sending = cases[i].sending;
		tx[i]->waiting = cases[i].waiting;
		tx[i]->status = cases[i].status;
		list_add_tail(&tx[i]->list, cases[i].queue);
	}
	spin_lock_bh(&net->lock);
	kib_conn_txs_timed_out(conn);
	spin_unlock_bh(&net->lock);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, tx[i]->hstatus, (u8)cases[i].want,
				    "tx %d", i);
		KUNIT_EXPECT_EQ_MSG(test, tx[i]->status, cases[i].want_status,
				    "tx %d", i);
	}
}

static void health_connect_failure(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-ETIMEDOUT),
			LNET_MSG_STATUS_NETWORK_TIMEOUT);
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-EHOSTUNREACH),
			LNET_MSG_STATUS_NETWORK_TIMEOUT);
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-ECONNREFUSED),
			LNET_MSG_STATUS_REMOTE_DROPPED);
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-ECONNABORTED),
			LNET_MSG_STATUS_LOCAL_DROPPED);
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-EIO),
			LNET_MSG_STATUS_LOCAL_DROPPED);
	KUNIT_EXPECT_EQ(test, kib_connect_failure_status(-ESHUTDOWN),
			LNET_MSG_STATUS_OK);
}

static struct kunit_case o2iblnd_health_cases[] = {
	KUNIT_CASE(health_conn_timeout_by_place),
	KUNIT_CASE(health_connect_failure),
	{}
};

static struct kunit_suite o2iblnd_health_suite = {
	.name = "o2iblnd_health",
	.test_cases = o2iblnd_health_cases,
};
kunit_test_suite(o2iblnd_health_suite);
