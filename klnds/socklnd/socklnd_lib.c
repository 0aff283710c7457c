// SPDX-License-Identifier: GPL-2.0
/*
 * Sockets and interfaces: the NI's address, socket options, and the
 * socket callbacks that feed the schedulers.
 *
 * Once a connection is set up its socket's data_ready, write_space and
 * state_change callbacks are ours (taken over under sk_callback_lock,
 * with sk_user_data pointing at the connection); they only flag the
 * connection ready and queue it on its scheduler. The scheduler restores
 * the saved callbacks when the connection closes, again under
 * sk_callback_lock, so no callback sees a connection being torn down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/inetdevice.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <linux/lnet/nidstr.h>
#include "socklnd.h"

/* ---- the NI's interface ------------------------------------------------------- */

/*
 * 1 Gb -> 1, 10 Gb -> 2, 25 Gb -> 3, 100 Gb -> 4 ...
 * (Documentation/wire/socklnd.md, "A peer's set of connections")
 */
static int ksock_dev_conns_per_peer(struct net_device *dev)
{
	struct ethtool_link_ksettings ks = { };
	u32 speed;

	ASSERT_RTNL();
	if (__ethtool_get_link_ksettings(dev, &ks) ||
	    ks.base.speed == (u32)SPEED_UNKNOWN || !ks.base.speed)
		return 1;
	speed = max_t(u32, ks.base.speed, 1000);
	return ilog2(speed / 1000) / 2 + 1;
}

/* The module's conns_per_peer, or while that is 0 the link speed's. */
static int ksock_net_default_conns_per_peer(struct ksock_net *net)
{
	struct net_device *dev;
	int cpp = ksock_conns_per_peer;

	if (cpp)
		return cpp;
	rtnl_lock();
	dev = __dev_get_by_name(&init_net, net->ifname);
	cpp = dev ? ksock_dev_conns_per_peer(dev) : 1;
	rtnl_unlock();
	return cpp;
}

/* The NUMA node of the device behind @net's interface. */
int ksock_net_dev_node(struct ksock_net *net)
{
	struct net_device *dev;
	int node;

	rtnl_lock();
	dev = __dev_get_by_name(&init_net, net->ifname);
	node = dev ? dev_to_node(&dev->dev) : NUMA_NO_NODE;
	rtnl_unlock();
	return node;
}

/**
 * ksock_net_pick_iface() - the NI's interface, IPv4 address and bulk
 *	connections per peer
 * @net: the net; its ifname, ip and conns_per_peer are set
 * @name: the interface named in networks=, or "" for the first
 *	non-loopback interface that is up and has an IPv4 address
 *
 * Return: 0, -ENODEV, -ENETDOWN or -EADDRNOTAVAIL.
 */
int ksock_net_pick_iface(struct ksock_net *net, const char *name)
{
	int rc;

	rc = lnet_ipif_pick("ksocklnd", name, net->ifname, &net->ip);
	if (rc)
		return rc;
	net->conns_per_peer = ksock_net_default_conns_per_peer(net);
	return 0;
}

/**
 * ksock_set_conns_per_peer() - lnet_lnd.set_conns_per_peer
 * @ni: the NI
 * @conns: bulk connections per direction, 0 for the default
 *
 * A peer with fewer connections than that gets the missing ones at its
 * next send; one with more keeps them until they close.
 */
void ksock_set_conns_per_peer(struct lnet_ni *ni, unsigned int conns)
{
	struct ksock_net *net = lnet_ni_data(ni);
	int cpp = conns ?: ksock_net_default_conns_per_peer(net);

	spin_lock_bh(&net->lock);
	net->conns_per_peer = cpp;
	spin_unlock_bh(&net->lock);
	WRITE_ONCE(lnet_ni_lnd_tunables(ni)->conns_per_peer, cpp);
}

/**
 * ksock_net_tunables() - apply an NI's LND tunables to its net
 * @net: the net, its interface picked (conns_per_peer: the module's or
 *	the link speed's)
 * @t: the NI's tunables (lnetctl net add, the YAML "lnd tunables"); on
 *	return, the values in effect, which net show reports (timeout: the
 *	NI's own, 0 if none)
 *
 * Return: 0, or -EINVAL for conns_per_peer above what the module takes.
 */
int ksock_net_tunables(struct ksock_net *net, struct lnet_lnd_tunables *t)
{
	char nidstr[LNET_NIDSTR_SIZE];

	if (t->conns_per_peer > KSOCK_CONNS_PER_PEER_MAX) {
		pr_err("%s: conns_per_peer %d: at most %d\n",
		       lnet_nid2str(lnet_ni_nid(net->ni), nidstr, sizeof(nidstr)),
		       t->conns_per_peer, KSOCK_CONNS_PER_PEER_MAX);
		return -EINVAL;
	}
	if (t->conns_per_peer > 0)
		net->conns_per_peer = t->conns_per_peer;
	net->timeout = t->timeout;
	net->tos = t->tos >= 0 ? t->tos : ksock_tos;

	/*
	 * The timeout reported is the NI's own, 0 while sock_timeout (which
	 * "net set --lnd-timeout" changes) applies: an export and import
	 * must not pin the module's value on the NI.
	 */
	t->conns_per_peer = net->conns_per_peer;
	t->tos = net->tos;
	return 0;
}

/* ---- socket options ------------------------------------------------------------ */

/*
 * Local options of an established connection (Documentation/wire/socklnd.md,
 * end of "Handshake").
 */
int ksock_socket_setup(struct socket *sock, const struct ksock_net *net)
{
	struct sock *sk = sock->sk;
	int rc;

	sk->sk_allocation = GFP_NOFS;
	if (!ksock_nagle)
		tcp_sock_set_nodelay(sk);
	if (ksock_tx_buffer_size > 0) {
		lock_sock(sk);
		sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
		WRITE_ONCE(sk->sk_sndbuf, max_t(int, ksock_tx_buffer_size * 2,
						SOCK_MIN_SNDBUF));
		release_sock(sk);
	}
	if (ksock_rx_buffer_size > 0)
		sock_set_rcvbuf(sk, ksock_rx_buffer_size);
	if (net->tos >= 0)
		ip_sock_set_tos(sk, net->tos);
	if (ksock_keepalive_idle > 0 && ksock_keepalive_count > 0 &&
	    ksock_keepalive_intvl > 0) {
		rc = tcp_sock_set_keepidle(sk, ksock_keepalive_idle);
		if (!rc)
			rc = tcp_sock_set_keepintvl(sk, ksock_keepalive_intvl);
		if (!rc)
			rc = tcp_sock_set_keepcnt(sk, ksock_keepalive_count);
		if (rc)
			return rc;
		sock_set_keepalive(sk);
	}
	return 0;
}

/* Can pages go out by reference (scatter/gather and checksum offload)? */
bool ksock_sock_zc_capable(struct socket *sock)
{
	netdev_features_t caps = READ_ONCE(sock->sk->sk_route_caps);

	return (caps & NETIF_F_SG) && (caps & NETIF_F_CSUM_MASK);
}

/* ---- callbacks ------------------------------------------------------------------ */

static void ksock_data_ready(struct sock *sk)
{
	struct ksock_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		spin_lock(&conn->sched->lock);
		conn->rx_ready = true;
		ksock_conn_schedule_rx_locked(conn);
		spin_unlock(&conn->sched->lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

static void ksock_write_space(struct sock *sk)
{
	struct ksock_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && sk_stream_is_writeable(sk)) {
		if (sk->sk_socket)
			clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		spin_lock(&conn->sched->lock);
		conn->tx_ready = true;
		ksock_conn_schedule_tx_locked(conn);
		spin_unlock(&conn->sched->lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/* An error or the peer's FIN: let the scheduler find out by reading. */
static void ksock_state_change(struct sock *sk)
{
	struct ksock_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		spin_lock(&conn->sched->lock);
		conn->rx_ready = true;
		conn->tx_ready = true;
		ksock_conn_schedule_rx_locked(conn);
		ksock_conn_schedule_tx_locked(conn);
		spin_unlock(&conn->sched->lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

void ksock_conn_install_callbacks(struct ksock_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	conn->saved_data_ready = sk->sk_data_ready;
	conn->saved_write_space = sk->sk_write_space;
	conn->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = conn;
	sk->sk_data_ready = ksock_data_ready;
	sk->sk_write_space = ksock_write_space;
	sk->sk_state_change = ksock_state_change;
	conn->cb_installed = true;
	write_unlock_bh(&sk->sk_callback_lock);
}

void ksock_conn_restore_callbacks(struct ksock_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (conn->cb_installed) {
		sk->sk_data_ready = conn->saved_data_ready;
		sk->sk_write_space = conn->saved_write_space;
		sk->sk_state_change = conn->saved_state_change;
		sk->sk_user_data = NULL;
		conn->cb_installed = false;
	}
	write_unlock_bh(&sk->sk_callback_lock);
}
