// SPDX-License-Identifier: GPL-2.0
/*
 * ksocklnd's answers to GET_PEER and GET_CONN ("lctl --net tcp peer_list",
 * "conn_list"); the fields are described in the uapi header, next to the
 * command numbers.
 *
 * lnet.ko hands the command over with its own copy of the argument and
 * copies it back itself, so the tables are walked under the spinlocks
 * with nothing to fault in. An index counts over every NI of ours on the
 * net, in the order of ksock_data.nets and of each net's hash table:
 * stable while nothing changes, which is all a listing needs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <net/inet_sock.h>
#include <net/tcp.h>
#include <uapi/linux/lnet/lnet-ioctl.h>
#include "socklnd.h"

static_assert(KSOCK_CONN_ANY == LNET_IOCTL_SOCK_CONN_ANY);
static_assert(KSOCK_CONN_CONTROL == LNET_IOCTL_SOCK_CONN_CONTROL);
static_assert(KSOCK_CONN_BULK_IN == LNET_IOCTL_SOCK_CONN_BULK_IN);
static_assert(KSOCK_CONN_BULK_OUT == LNET_IOCTL_SOCK_CONN_BULK_OUT);

static void ksock_ioc_peer_locked(struct ksock_peer *peer,
				  struct lnet_ioctl_data *d)
{
	struct ksock_conn *first;
	struct list_head *pos;
	u32 nconns = 0, nwaiting = 0;

	lockdep_assert_held(&peer->net->lock);
	list_for_each(pos, &peer->conns)
		nconns++;
	list_for_each(pos, &peer->tx_queue)
		nwaiting++;
	first = list_first_entry_or_null(&peer->conns, struct ksock_conn,
					 peer_list);
	d->ioc_nid = peer->id.nid;
	d->ioc_u64[0] = peer->id.pid;
	d->ioc_u32[0] = ntohl(peer->net->ip);
	d->ioc_u32[1] = ntohl(peer->ip);
	d->ioc_u32[2] = first ? first->peer_port : 0;
	d->ioc_u32[3] = nconns;
	d->ioc_u32[4] = nwaiting;
	d->ioc_flags = peer->connecting ? LNET_IOCTL_SOCK_PEER_CONNECTING : 0;
}

/*
 * A connection on its peer's list has not been closed, so its socket is
 * still there; the socket's values are read without its lock, as a
 * snapshot.
 */
static void ksock_ioc_conn_locked(struct ksock_conn *conn,
				  struct lnet_ioctl_data *d)
{
	struct sock *sk = conn->sock->sk;
	u32 flags;

	lockdep_assert_held(&conn->net->lock);
	flags = (u32)conn->sched->index << LNET_IOCTL_SOCK_CONN_SCHED_SHIFT;
	if (!(tcp_sk(sk)->nonagle & TCP_NAGLE_OFF))
		flags |= LNET_IOCTL_SOCK_CONN_NAGLE;
	d->ioc_nid = conn->peer->id.nid;
	d->ioc_u64[0] = conn->peer->id.pid;
	d->ioc_u32[0] = ntohl(conn->local_ip);
	d->ioc_u32[1] = ntohs(READ_ONCE(inet_sk(sk)->inet_sport));
	d->ioc_u32[2] = ntohl(conn->peer_ip);
	d->ioc_u32[3] = conn->peer_port;
	d->ioc_u32[4] = conn->type;
	d->ioc_u32[5] = READ_ONCE(sk->sk_sndbuf);
	d->ioc_u32[6] = READ_ONCE(sk->sk_rcvbuf);
	d->ioc_flags = flags;
}

/*
 * Fill @d from entry @*index of @net, counting down @*index over the
 * entries passed. Returns true when found.
 */
static bool ksock_ioc_net_locked(struct ksock_net *net, bool conns,
				 u32 *index, struct lnet_ioctl_data *d)
{
	struct ksock_peer *peer;
	struct ksock_conn *conn;
	int b;

	lockdep_assert_held(&net->lock);
	hash_for_each(net->peers, b, peer, hnode) {
		if (!conns) {
			if (!(*index)--) {
				ksock_ioc_peer_locked(peer, d);
				return true;
			}
			continue;
		}
		list_for_each_entry(conn, &peer->conns, peer_list) {
			if (!(*index)--) {
				ksock_ioc_conn_locked(conn, d);
				return true;
			}
		}
	}
	return false;
}

static int ksock_ioc_get(struct lnet_ioctl_data *d, bool conns)
{
	struct ksock_net *net;
	bool any = false, found = false;
	u32 index = d->ioc_count;

	memset(d->ioc_u32, 0, sizeof(d->ioc_u32));
	spin_lock_bh(&ksock_data.nets_lock);
	list_for_each_entry(net, &ksock_data.nets, list) {
		if (LNET_NIDNET(lnet_ni_nid(net->ni)) != d->ioc_net)
			continue;
		any = true;
		spin_lock_bh(&net->lock);
		found = ksock_ioc_net_locked(net, conns, &index, d);
		spin_unlock_bh(&net->lock);
		if (found)
			break;
	}
	spin_unlock_bh(&ksock_data.nets_lock);
	if (!any)
		return -ENETDOWN;
	return found ? 0 : -ENOENT;
}

static int ksock_ioctl(unsigned int cmd, struct lnet_ioctl_hdr *hdr)
{
	struct lnet_ioctl_data *d = (struct lnet_ioctl_data *)hdr;

	if (cmd != LNET_IOC_GET_PEER && cmd != LNET_IOC_GET_CONN)
		return -ENOIOCTLCMD;
	/* a generic block of at least 128 bytes, lnet.ko checked */
	if (hdr->ioc_version != LNET_IOCTL_VERSION)
		return -EINVAL;
	if (LNET_NETTYP(d->ioc_net) != LNET_LND_SOCK)
		return -ENOIOCTLCMD;
	return ksock_ioc_get(d, cmd == LNET_IOC_GET_CONN);
}

static struct lnet_ioctl_handler ksock_ioctl_handler = {
	.handle	= ksock_ioctl,
};

void ksock_ioctl_init(void)
{
	lnet_ioctl_register(&ksock_ioctl_handler);
}

/* Returns once no call of ours runs. */
void ksock_ioctl_fini(void)
{
	lnet_ioctl_unregister(&ksock_ioctl_handler);
}
