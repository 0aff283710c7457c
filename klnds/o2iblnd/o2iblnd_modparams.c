// SPDX-License-Identifier: GPL-2.0
/*
 * ko2iblnd module parameters (Documentation/wire/o2iblnd.md, "Module
 * parameters").
 *
 * Accepted but ignored, so that Lustre configurations load: map_on_demand
 * (memory is always fast-registered per transfer), fmr_pool_size,
 * fmr_flush_trigger, fmr_cache (no FMR), use_fastreg_gaps, ib_mtu (rdma_cm
 * picks the path MTU), conns_per_peer (one connection per peer),
 * peer_buffer_credits and peer_timeout (no routing), dev_failover, nscheds
 * (completions run on ib_cq's workqueue).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/lnet/test-export.h>
#include "o2iblnd.h"

int kib_service = KIB_SERVICE_DEFAULT;
module_param_named(service, kib_service, int, 0444);
MODULE_PARM_DESC(service, "rdma_cm port (RDMA_PS_TCP) to listen on and connect to");

int kib_peer_credits = 8;
module_param_named(peer_credits, kib_peer_credits, int, 0444);
MODULE_PARM_DESC(peer_credits, "queue depth proposed to peers: messages in flight per connection (8..255)");

int kib_credits = 256;
module_param_named(credits, kib_credits, int, 0444);
MODULE_PARM_DESC(credits, "messages in flight per NI");

int kib_peer_credits_hiw;
module_param_named(peer_credits_hiw, kib_peer_credits_hiw, int, 0444);
MODULE_PARM_DESC(peer_credits_hiw, "returnable credits that trigger a NOOP (0: peer_credits/2)");

int kib_concurrent_sends;
module_param_named(concurrent_sends, kib_concurrent_sends, int, 0444);
MODULE_PARM_DESC(concurrent_sends, "sends posted at once per connection (0: the queue depth)");

int kib_ntx = 512;
module_param_named(ntx, kib_ntx, int, 0444);
MODULE_PARM_DESC(ntx, "tx descriptors per NI");

static int kib_timeout = 50;
module_param_named(timeout, kib_timeout, int, 0644);
MODULE_PARM_DESC(timeout, "seconds a message may wait to be sent or for its completion (0: LNet's lnet_lnd_timeout, 49 s by default)");

int kib_keepalive = 100;
module_param_named(keepalive, kib_keepalive, int, 0644);
MODULE_PARM_DESC(keepalive, "seconds of send idleness before a NOOP (0: never)");

int kib_cksum;
module_param_named(cksum, kib_cksum, int, 0644);
MODULE_PARM_DESC(cksum, "checksum the messages we send (received checksums are always verified)");
LNET_EXPORT_FOR_TEST(kib_cksum);

int kib_retry_count = 5;
module_param_named(retry_count, kib_retry_count, int, 0444);
MODULE_PARM_DESC(retry_count, "RC transport retries (0..7)");

int kib_rnr_retry_count = 6;
module_param_named(rnr_retry_count, kib_rnr_retry_count, int, 0444);
MODULE_PARM_DESC(rnr_retry_count, "receiver-not-ready retries (0..7, 7: forever)");

int kib_use_privileged_port = 1;
module_param_named(use_privileged_port, kib_use_privileged_port, int, 0444);
MODULE_PARM_DESC(use_privileged_port, "connect from a port below 1024");

int kib_require_privileged_port;
module_param_named(require_privileged_port, kib_require_privileged_port, int, 0644);
MODULE_PARM_DESC(require_privileged_port, "refuse connections from ports >= 1024");

int kib_tos = -1;
module_param_named(tos, kib_tos, int, 0444);
MODULE_PARM_DESC(tos, "IP type of service of our connections (-1: unset)");

int kib_wrq_sge = 2;
module_param_named(wrq_sge, kib_wrq_sge, int, 0444);
MODULE_PARM_DESC(wrq_sge, "scatter/gather entries per RDMA work request (at least; more if the device allows)");

char *kib_ipif_name = "ib0";
module_param_named(ipif_name, kib_ipif_name, charp, 0444);
MODULE_PARM_DESC(ipif_name, "interface of an NI configured without one");

/*
 * What a peer can make us create (Documentation/hardening.md, "o2iblnd"):
 * each connection is a QP and 2Q+2 receive buffers of 4 KiB.
 */
int kib_max_conns_per_peer = 4;
module_param_named(max_conns_per_peer, kib_max_conns_per_peer, int, 0644);
MODULE_PARM_DESC(max_conns_per_peer, "connections a peer NID may have with us, its and ours");

int kib_max_nids_per_addr = 4;
module_param_named(max_nids_per_addr, kib_max_nids_per_addr, int, 0644);
MODULE_PARM_DESC(max_nids_per_addr, "peer NIDs that may connect from one IP address");

int kib_max_passive = 64;
module_param_named(max_passive, kib_max_passive, int, 0644);
MODULE_PARM_DESC(max_passive, "connection requests accepted and not yet established, per NI");

#ifdef LNET_KUNIT
/* Fault injection for the guest scenarios; test builds only. */
int kib_test_send_delay_ms;
module_param_named(test_send_delay_ms, kib_test_send_delay_ms, int, 0644);
MODULE_PARM_DESC(test_send_delay_ms, "test: send() sleeps this long holding its tx, where it may sleep");

int kib_test_done_extra;
module_param_named(test_done_extra, kib_test_done_extra, int, 0644);
MODULE_PARM_DESC(test_done_extra, "test: bytes added to the length our GET_DONE and PUT_DONE claim");

int kib_test_refuse_after_qp;
module_param_named(test_refuse_after_qp, kib_test_refuse_after_qp, int, 0644);
MODULE_PARM_DESC(test_refuse_after_qp, "test: refuse this many connection requests as over a limit once their QP is made");

static int kib_test_flood_set(const char *val, bool same)
{
	int n, rc;

	rc = kstrtoint(val, 0, &n);
	if (rc)
		return rc;
	if (n < 1 || n > 1024)
		return -EINVAL;
	return kib_test_flood(n, same);
}

static int kib_test_flood_nids_set(const char *val,
				   const struct kernel_param *kp)
{
	return kib_test_flood_set(val, false);
}

static int kib_test_flood_same_set(const char *val,
				   const struct kernel_param *kp)
{
	return kib_test_flood_set(val, true);
}

static const struct kernel_param_ops kib_test_flood_nids_ops = {
	.set	= kib_test_flood_nids_set,
};
static const struct kernel_param_ops kib_test_flood_same_ops = {
	.set	= kib_test_flood_same_set,
};
module_param_cb(test_flood_nids, &kib_test_flood_nids_ops, NULL, 0200);
MODULE_PARM_DESC(test_flood_nids, "test: write N: N connection requests to a connected peer, each from another NID");
module_param_cb(test_flood_same, &kib_test_flood_same_ops, NULL, 0200);
MODULE_PARM_DESC(test_flood_same, "test: write N: N connection requests to a connected peer from our own NID");
#endif

#define KIB_IGNORED_INT(name, def, desc)				\
	static int name = def;						\
	module_param(name, int, 0444);					\
	MODULE_PARM_DESC(name, desc " (ignored)")

KIB_IGNORED_INT(map_on_demand, 1, "obsolete: memory is always registered per transfer");
KIB_IGNORED_INT(fmr_pool_size, 512, "FMR pool size: no FMR here");
KIB_IGNORED_INT(fmr_flush_trigger, 384, "FMR flush trigger: no FMR here");
KIB_IGNORED_INT(fmr_cache, 1, "FMR cache: no FMR here");
KIB_IGNORED_INT(use_fastreg_gaps, 0, "non-contiguous fast registration");
KIB_IGNORED_INT(ib_mtu, 0, "IB MTU: rdma_cm chooses the path MTU");
KIB_IGNORED_INT(conns_per_peer, 1, "connections per peer: always 1");
KIB_IGNORED_INT(peer_buffer_credits, 0, "router buffer credits per peer: no routing");
KIB_IGNORED_INT(peer_timeout, 180, "seconds before a silent peer is declared dead");
KIB_IGNORED_INT(dev_failover, 0, "HCA failover");
KIB_IGNORED_INT(nscheds, 0, "scheduler threads: completions run on ib_cq's workqueue");

int kib_modparams_check(void)
{
	if (kib_peer_credits < 8 || kib_peer_credits > KIB_CREDITS_MAX) {
		pr_err("peer_credits %d out of 8..%d\n",
		       kib_peer_credits, KIB_CREDITS_MAX);
		return -EINVAL;
	}
	if (kib_credits < kib_peer_credits) {
		pr_err("credits %d below peer_credits %d\n",
		       kib_credits, kib_peer_credits);
		return -EINVAL;
	}
	if (kib_service <= 0 || kib_service > 65535) {
		pr_err("service %d is no port\n", kib_service);
		return -EINVAL;
	}
	if (kib_ntx < 2 * kib_peer_credits) {
		pr_err("ntx %d below 2 x peer_credits\n", kib_ntx);
		return -EINVAL;
	}
	if (kib_retry_count < 0 || kib_retry_count > 7 ||
	    kib_rnr_retry_count < 0 || kib_rnr_retry_count > 7) {
		pr_err("retry counts must be 0..7\n");
		return -EINVAL;
	}
	if (kib_tos > 255 || kib_tos < -1) {
		pr_err("tos %d out of -1..255\n", kib_tos);
		return -EINVAL;
	}
	if (kib_wrq_sge < 1)
		kib_wrq_sge = 1;
	if (kib_timeout < 0)
		kib_timeout = 0;
	return 0;
}

/* @net's timeout in seconds, never 0 */
unsigned int kib_timeout_secs(const struct kib_net *net)
{
	int t = net->timeout ?: READ_ONCE(kib_timeout);

	return t > 0 ? t : lnet_lnd_timeout();
}

/**
 * kib_ni_tunables() - apply an NI's LND tunables (lnetctl net add, the
 *	YAML "lnd tunables") and write back the values in effect
 * @net: the net; its timeout, tos, pool size and credit tunables are set
 * @nid: the NI's NID, for messages
 * @t: the tunables
 *
 * timeout, tos, ntx, peercredits_hiw and concurrent_sends are the NI's own
 * (0, and -1 for tos: the module's). conns_per_peer is 1: this LND makes
 * one connection per peer. map_on_demand and the FMR pool tunables are
 * obsolete (no FMR pools): taken as given (0: the module parameter's
 * value), reported, never used.
 *
 * Return: 0, -EINVAL (a value out of range) or -EOPNOTSUPP.
 */
int kib_ni_tunables(struct kib_net *net, const char *nid,
		    struct lnet_lnd_tunables *t)
{
	if (t->conns_per_peer && t->conns_per_peer != 1) {
		pr_err("%s: conns_per_peer %d refused: one connection per peer\n",
		       nid, t->conns_per_peer);
		return -EOPNOTSUPP;
	}
	if (t->timeout < 0 || t->tos < -1 || t->tos > 255 ||
	    t->peercredits_hiw < 0 || t->concurrent_sends < 0 ||
	    (t->ntx && t->ntx < 2 * kib_peer_credits) || t->ntx > U16_MAX) {
		pr_err("%s: timeout %d, tos %d, peercredits_hiw %d, concurrent_sends %d or ntx %d out of range (ntx: at least 2 x peer_credits)\n",
		       nid, t->timeout, t->tos, t->peercredits_hiw,
		       t->concurrent_sends, t->ntx);
		return -EINVAL;
	}
	/* like ksocklnd's, 0 while the module's timeout applies */
	net->timeout = t->timeout;
	net->tos = t->tos >= 0 ? t->tos : kib_tos;
	net->pool_size = t->ntx ?: kib_ntx;
	net->credits_hiw = t->peercredits_hiw;
	net->concurrent_sends = t->concurrent_sends;

	t->conns_per_peer = 1;
	/* unused here; shown as Lustre's LND shows them (0: the module's) */
	t->map_on_demand = t->map_on_demand ?: map_on_demand;
	t->fmr_pool_size = t->fmr_pool_size ?: fmr_pool_size;
	t->fmr_flush_trigger = t->fmr_flush_trigger ?: fmr_flush_trigger;
	t->fmr_cache = t->fmr_cache ?: fmr_cache;
	t->tos = net->tos;
	t->ntx = net->pool_size;
	t->peercredits_hiw = kib_credits_hiw(net, kib_peer_credits);
	t->concurrent_sends = kib_concurrent_sends_for(net, kib_peer_credits);
	return 0;
}

/*
 * "Credits" in Documentation/wire/o2iblnd.md: hiw scales with the
 * negotiated depth; NOOP at >= this.
 */
int kib_credits_hiw(const struct kib_net *net, int q)
{
	int hiw = net->credits_hiw ?: kib_peer_credits_hiw ?: kib_peer_credits / 2;

	hiw = clamp(hiw, kib_peer_credits / 2, kib_peer_credits - 1);
	return max(1, q * hiw / kib_peer_credits);
}

int kib_concurrent_sends_for(const struct kib_net *net, int q)
{
	int n = net->concurrent_sends ?: kib_concurrent_sends ?: q;

	return clamp(n, max(1, q / 2), 2 * q);
}
