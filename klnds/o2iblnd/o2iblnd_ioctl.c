// SPDX-License-Identifier: GPL-2.0
/*
 * ko2iblnd's answers to GET_PEER and GET_CONN ("lctl --net o2ib peer_list",
 * "conn_list"); the fields are described in the uapi header, next to the
 * command numbers.
 *
 * lnet.ko hands the command over with its own copy of the argument and
 * copies it back itself, so the tables are walked under the spinlocks
 * with nothing to fault in. An index counts over every NI of ours on the
 * net, in the order of kib_data.nets and of each net's hash table: stable
 * while nothing changes, which is all a listing needs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <uapi/linux/lnet/lnet-ioctl.h>
#include "o2iblnd.h"

static u32 kib_ioc_state(enum kib_conn_state state)
{
	switch (state) {
	case KIB_CONN_INIT:
	case KIB_CONN_CONNECTING:
		return LNET_IOCTL_O2IB_STATE_CONNECTING;
	case KIB_CONN_ESTABLISHED:
		return LNET_IOCTL_O2IB_STATE_ESTABLISHED;
	default:
		return LNET_IOCTL_O2IB_STATE_CLOSING;
	}
}

/*
 * The path MTU rdma_cm chose. Only an established connection is asked:
 * its rdma_cm id lives until the connection is closed, which needs
 * net->lock.
 */
static u32 kib_ioc_mtu_locked(const struct kib_conn *conn)
{
	const struct rdma_cm_id *cmid = conn->cmid;

	lockdep_assert_held(&conn->net->lock);
	if (conn->state != KIB_CONN_ESTABLISHED || !cmid ||
	    !cmid->route.path_rec)
		return 0;
	return ib_mtu_enum_to_int(cmid->route.path_rec->mtu);
}

/* The credit fields of @conn, in the GET_PEER and GET_CONN slots 1..4. */
static void kib_ioc_credits_locked(struct kib_conn *conn,
				   struct lnet_ioctl_data *d, u32 *queued)
{
	struct list_head *pos;

	lockdep_assert_held(&conn->net->lock);
	d->ioc_u32[1] = kib_ioc_state(conn->state);
	d->ioc_u32[4] = conn->queue_depth;
	spin_lock_bh(&conn->lock);
	d->ioc_u32[2] = conn->credits;
	d->ioc_u32[3] = conn->outstanding_credits;
	if (queued) {
		*queued = 0;
		list_for_each(pos, &conn->tx_noops)
			(*queued)++;
		list_for_each(pos, &conn->tx_queue)
			(*queued)++;
		list_for_each(pos, &conn->tx_queue_rsrvd)
			(*queued)++;
	}
	spin_unlock_bh(&conn->lock);
}

static void kib_ioc_peer_locked(struct kib_peer *peer,
				struct lnet_ioctl_data *d)
{
	struct kib_conn *best;
	struct list_head *pos;
	u32 n = 0;

	lockdep_assert_held(&peer->net->lock);
	list_for_each(pos, &peer->conns)
		n++;
	d->ioc_nid = peer->nid;
	d->ioc_u64[0] = LNET_PID_LUSTRE;
	d->ioc_u32[0] = n;
	best = list_first_entry_or_null(&peer->conns, struct kib_conn, list);
	if (!best)
		best = peer->connecting;
	if (!best)
		best = list_first_entry_or_null(&peer->passive,
						struct kib_conn, list);
	if (best) {
		kib_ioc_credits_locked(best, d, NULL);
	} else {
		d->ioc_u32[1] = LNET_IOCTL_O2IB_STATE_NONE;
		d->ioc_u32[4] = peer->queue_depth;
	}
	n = 0;
	list_for_each(pos, &peer->tx_queue)
		n++;
	d->ioc_u32[5] = n;
	d->ioc_u32[6] = kref_read(&peer->kref);
}

static void kib_ioc_conn_locked(struct kib_conn *conn,
				struct lnet_ioctl_data *d)
{
	u32 queued;

	lockdep_assert_held(&conn->net->lock);
	d->ioc_nid = conn->peer->nid;
	d->ioc_u64[0] = LNET_PID_LUSTRE;
	d->ioc_u32[0] = kib_ioc_mtu_locked(conn);
	kib_ioc_credits_locked(conn, d, &queued);
	d->ioc_u32[5] = conn->version;
	d->ioc_u32[6] = queued;
	d->ioc_flags = conn->active ? LNET_IOCTL_O2IB_CONN_ACTIVE : 0;
}

/* Entry @*index of @list (of conns), counting @*index down; NULL if none. */
static struct kib_conn *kib_ioc_nth_locked(struct list_head *list,
					   u32 *index)
{
	struct kib_conn *conn;

	list_for_each_entry(conn, list, list)
		if (!(*index)--)
			return conn;
	return NULL;
}

/*
 * Fill @d from entry @*index of @net, counting down @*index over the
 * entries passed. Returns true when found.
 */
static bool kib_ioc_net_locked(struct kib_net *net, bool conns, u32 *index,
			       struct lnet_ioctl_data *d)
{
	struct kib_peer *peer;
	struct kib_conn *conn;
	int b;

	lockdep_assert_held(&net->lock);
	hash_for_each(net->peers, b, peer, hnode) {
		if (!conns) {
			if (!(*index)--) {
				kib_ioc_peer_locked(peer, d);
				return true;
			}
			continue;
		}
		conn = kib_ioc_nth_locked(&peer->conns, index);
		if (!conn)
			conn = kib_ioc_nth_locked(&peer->passive, index);
		if (!conn && peer->connecting && !(*index)--)
			conn = peer->connecting;
		if (conn) {
			kib_ioc_conn_locked(conn, d);
			return true;
		}
	}
	return false;
}

static int kib_ioc_get(struct lnet_ioctl_data *d, bool conns)
{
	struct kib_net *net;
	bool any = false, found = false;
	u32 index = d->ioc_count;

	memset(d->ioc_u32, 0, sizeof(d->ioc_u32));
	spin_lock_bh(&kib_data.nets_lock);
	list_for_each_entry(net, &kib_data.nets, list) {
		if (LNET_NIDNET(lnet_ni_nid(net->ni)) != d->ioc_net)
			continue;
		any = true;
		spin_lock_bh(&net->lock);
		found = kib_ioc_net_locked(net, conns, &index, d);
		spin_unlock_bh(&net->lock);
		if (found)
			break;
	}
	spin_unlock_bh(&kib_data.nets_lock);
	if (!any)
		return -ENETDOWN;
	return found ? 0 : -ENOENT;
}

static int kib_ioctl(unsigned int cmd, struct lnet_ioctl_hdr *hdr)
{
	struct lnet_ioctl_data *d = (struct lnet_ioctl_data *)hdr;

	if (cmd != LNET_IOC_GET_PEER && cmd != LNET_IOC_GET_CONN)
		return -ENOIOCTLCMD;
	/* a generic block of at least 128 bytes, lnet.ko checked */
	if (hdr->ioc_version != LNET_IOCTL_VERSION)
		return -EINVAL;
	if (LNET_NETTYP(d->ioc_net) != LNET_LND_O2IB)
		return -ENOIOCTLCMD;
	return kib_ioc_get(d, cmd == LNET_IOC_GET_CONN);
}

static struct lnet_ioctl_handler kib_ioctl_handler = {
	.handle	= kib_ioctl,
};

void kib_ioctl_init(void)
{
	lnet_ioctl_register(&kib_ioctl_handler);
}

/* Returns once no call of ours runs. */
void kib_ioctl_fini(void)
{
	lnet_ioctl_unregister(&kib_ioctl_handler);
}
