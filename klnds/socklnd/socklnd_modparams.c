// SPDX-License-Identifier: GPL-2.0
/*
 * ksocklnd module parameters (Documentation/wire/socklnd.md, "Module
 * parameters").
 *
 * Accepted but ignored (kept so that Lustre configurations load):
 * peer_buffer_credits, peer_timeout (no routing here), nconnds_max
 * (nconnds is a fixed limit), enable_csum (we never send checksums and do
 * not verify received ones), zc_recv, round_robin (always round robin),
 * eager_ack, skip_mr_route_setup.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "socklnd.h"

int ksock_sock_timeout = 50;
module_param_named(sock_timeout, ksock_sock_timeout, int, 0644);
MODULE_PARM_DESC(sock_timeout,
		 "seconds without progress before a connection is closed (0: LNet's lnet_lnd_timeout, 49 s by default)");

int ksock_credits = 256;
module_param_named(credits, ksock_credits, int, 0444);
MODULE_PARM_DESC(credits, "messages in flight per NI");

int ksock_peer_credits = 8;
module_param_named(peer_credits, ksock_peer_credits, int, 0444);
MODULE_PARM_DESC(peer_credits, "messages in flight per peer");

static int peer_buffer_credits;
module_param(peer_buffer_credits, int, 0444);
MODULE_PARM_DESC(peer_buffer_credits, "router buffer credits per peer (ignored: no routing)");

static int peer_timeout = 180;
module_param(peer_timeout, int, 0444);
MODULE_PARM_DESC(peer_timeout, "seconds before a silent peer is declared dead (ignored)");

int ksock_nscheds;
module_param_named(nscheds, ksock_nscheds, int, 0444);
MODULE_PARM_DESC(nscheds, "scheduler threads per CPU partition (0: one per CPU of the partition, at most 4)");

int ksock_nconnds = 4;
module_param_named(nconnds, ksock_nconnds, int, 0444);
MODULE_PARM_DESC(nconnds, "handshakes in progress at once (connd workqueue's max_active)");

unsigned int ksock_max_pending_hellos = 256;
module_param_named(max_pending_hellos, ksock_max_pending_hellos, uint, 0644);
MODULE_PARM_DESC(max_pending_hellos,
		 "passive hellos read at once; a new connection beyond it drops the oldest pending one");

static int nconnds_max = 64;
module_param(nconnds_max, int, 0444);
MODULE_PARM_DESC(nconnds_max, "most handshakes at once (ignored: nconnds is fixed)");

int ksock_typed_conns = 1;
module_param_named(typed_conns, ksock_typed_conns, int, 0444);
MODULE_PARM_DESC(typed_conns,
		 "1: control + bulk-in + bulk-out connections per peer (protocol V3); 0: one untyped connection (protocol V2)");

int ksock_conns_per_peer;
module_param_named(conns_per_peer, ksock_conns_per_peer, int, 0444);
MODULE_PARM_DESC(conns_per_peer,
		 "bulk connections of each direction per peer (0: from the link speed)");

int ksock_min_bulk = 1024;
module_param_named(min_bulk, ksock_min_bulk, int, 0644);
MODULE_PARM_DESC(min_bulk, "smallest message (bytes) that prefers a bulk connection");

int ksock_keepalive = 30;
module_param_named(keepalive, ksock_keepalive, int, 0644);
MODULE_PARM_DESC(keepalive, "seconds of silence from a peer before a NOOP keepalive (0: never)");

int ksock_keepalive_idle = 30;
module_param_named(keepalive_idle, ksock_keepalive_idle, int, 0644);
MODULE_PARM_DESC(keepalive_idle, "TCP keepalive idle seconds (0: no TCP keepalive)");

int ksock_keepalive_count = 5;
module_param_named(keepalive_count, ksock_keepalive_count, int, 0644);
MODULE_PARM_DESC(keepalive_count, "TCP keepalive probes");

int ksock_keepalive_intvl = 5;
module_param_named(keepalive_intvl, ksock_keepalive_intvl, int, 0644);
MODULE_PARM_DESC(keepalive_intvl, "seconds between TCP keepalive probes");

static int enable_csum;
module_param(enable_csum, int, 0644);
MODULE_PARM_DESC(enable_csum, "V2 message checksums (ignored: never sent, not verified)");

int ksock_nonblk_zcack = 1;
module_param_named(nonblk_zcack, ksock_nonblk_zcack, int, 0644);
MODULE_PARM_DESC(nonblk_zcack, "send zero-copy ACKs on the bulk-in (ACK) connection");

int ksock_zc_min_payload = 16384;
module_param_named(zc_min_payload, ksock_zc_min_payload, int, 0644);
MODULE_PARM_DESC(zc_min_payload,
		 "smallest page payload (bytes, at least 2048) sent zero-copy with an ACK request");

int ksock_max_queued_noops = 64;
module_param_named(max_queued_noops, ksock_max_queued_noops, int, 0644);
MODULE_PARM_DESC(max_queued_noops,
		 "ZC-ACK and keepalive NOOPs one connection may have waiting to be written; a ZC-ACK beyond that closes it (the peer does not read)");

static int zc_recv;
module_param(zc_recv, int, 0444);
MODULE_PARM_DESC(zc_recv, "zero-copy receive (ignored)");

int ksock_tx_buffer_size;
module_param_named(tx_buffer_size, ksock_tx_buffer_size, int, 0644);
MODULE_PARM_DESC(tx_buffer_size, "socket send buffer bytes (0: system default)");

int ksock_rx_buffer_size;
module_param_named(rx_buffer_size, ksock_rx_buffer_size, int, 0644);
MODULE_PARM_DESC(rx_buffer_size, "socket receive buffer bytes (0: system default)");

int ksock_nagle;
module_param_named(nagle, ksock_nagle, int, 0644);
MODULE_PARM_DESC(nagle, "1: leave Nagle's algorithm on (no TCP_NODELAY)");

static int round_robin = 1;
module_param(round_robin, int, 0644);
MODULE_PARM_DESC(round_robin, "round robin among equally loaded connections (ignored: always)");

int ksock_min_reconnectms = 1000;
module_param_named(min_reconnectms, ksock_min_reconnectms, int, 0644);
MODULE_PARM_DESC(min_reconnectms, "first reconnect back-off, ms");

int ksock_max_reconnectms = 60000;
module_param_named(max_reconnectms, ksock_max_reconnectms, int, 0644);
MODULE_PARM_DESC(max_reconnectms, "longest reconnect back-off, ms");

static int eager_ack;
module_param(eager_ack, int, 0644);
MODULE_PARM_DESC(eager_ack, "TCP quick-ack per connection type (ignored)");

int ksock_tos = -1;
module_param_named(tos, ksock_tos, int, 0444);
MODULE_PARM_DESC(tos, "IP type of service of our connections (-1: unset)");

static int skip_mr_route_setup;
module_param(skip_mr_route_setup, int, 0444);
MODULE_PARM_DESC(skip_mr_route_setup, "(ignored)");

bool ksock_dump_hello;
module_param_named(dump_hello, ksock_dump_hello, bool, 0644);
MODULE_PARM_DESC(dump_hello, "log every hello sent and received, in hex (debugging)");

/* Clamp what would break us; called at module load. */
int ksock_modparams_check(void)
{
	if (ksock_credits < 1 || ksock_peer_credits < 1 ||
	    ksock_peer_credits > ksock_credits) {
		pr_err("credits=%d peer_credits=%d: need 1 <= peer_credits <= credits\n",
		       ksock_credits, ksock_peer_credits);
		return -EINVAL;
	}
	if (ksock_typed_conns != 0 && ksock_typed_conns != 1) {
		pr_err("typed_conns must be 0 or 1\n");
		return -EINVAL;
	}
	if (ksock_conns_per_peer < 0 ||
	    ksock_conns_per_peer > KSOCK_CONNS_PER_PEER_MAX) {
		pr_err("conns_per_peer must be 0..%d\n", KSOCK_CONNS_PER_PEER_MAX);
		return -EINVAL;
	}
	if (ksock_tos > 255)
		ksock_tos = 255;
	ksock_nconnds = clamp(ksock_nconnds, 1, 64);
	ksock_nscheds = clamp(ksock_nscheds, 0, 64);
	if (ksock_max_queued_noops < 1)
		ksock_max_queued_noops = 1;
	if (ksock_sock_timeout < 0)
		ksock_sock_timeout = 0;
	if (ksock_min_reconnectms < 1)
		ksock_min_reconnectms = 1;
	if (ksock_max_reconnectms < ksock_min_reconnectms)
		ksock_max_reconnectms = ksock_min_reconnectms;
	return 0;
}

/* @net's timeout (lnetctl net add --lnd-timeout), else sock_timeout's */
int ksock_timeout(const struct ksock_net *net)
{
	int t = net && net->timeout > 0 ? net->timeout :
		READ_ONCE(ksock_sock_timeout);

	return t > 0 ? t : lnet_lnd_timeout();
}
