// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters of the configuration interface:
 *
 * - the global tunables that "lnetctl global show" reads and "lnetctl set"
 *   writes under /sys/module/lnet/parameters (0644). Every write goes
 *   through lnet_int_param_ops, which rejects anything but a decimal (or
 *   0x-prefixed) integer within the tunable's range with -EINVAL, so the
 *   stored value is always valid. The ranges are the ones lnetctl accepts.
 *   The two Lustre deprecated (recovery_interval, router_sensitivity) are
 *   accepted and ignored with a warning, as Lustre does.
 * - lnet_lnd_timeout (0444), derived from transaction_timeout and
 *   retry_count: what an LND whose own timeout is 0 uses.
 * - routes= and forwarding= (0444), read at load like networks=.
 *
 * lnet_params_check() runs first thing in module init: a malformed
 * networks=, routes= or forwarding= makes the load fail with -EINVAL and a
 * message naming the problem, instead of a half-configured LNet later.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/lnet/config.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

/**
 * lnet_int_param_check() - parse and range-check a tunable's new value
 * @p: the tunable (its range)
 * @val: the text written (a trailing newline is accepted)
 * @out: the value, on success
 *
 * Return: 0 or -EINVAL (not an integer in range).
 */
int lnet_int_param_check(const struct lnet_int_param *p, const char *val,
			 int *out)
{
	int v;

	if (!val || kstrtoint(val, 0, &v))
		return -EINVAL;
	if (v < p->min || v > p->max)
		return -EINVAL;
	*out = v;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_int_param_check);

/*
 * The tunables that bound each other (spec 3.1, 3.4): a transaction must
 * outlast its retries (transaction_timeout > retry_count, retry_count <=
 * transaction_timeout), and with health off (sensitivity 0) nothing is
 * resent, so retry_count stays 0.
 */
static int lnet_int_param_cross_check(const struct lnet_int_param *p, int v,
				      const char *name)
{
	if (p == &lnet_transaction_timeout &&
	    v <= lnet_tunable(&lnet_retry_count)) {
		pr_warn("%s=%d refused: it must exceed retry_count (%d)\n",
			name, v, lnet_tunable(&lnet_retry_count));
		return -EINVAL;
	}
	if (p == &lnet_retry_count &&
	    v > lnet_tunable(&lnet_transaction_timeout)) {
		pr_warn("%s=%d refused: it may not exceed transaction_timeout (%d)\n",
			name, v, lnet_tunable(&lnet_transaction_timeout));
		return -EINVAL;
	}
	if (p == &lnet_retry_count && v &&
	    !lnet_tunable(&lnet_health_sensitivity)) {
		pr_warn("%s=%d refused: health is off (health_sensitivity 0), nothing is resent\n",
			name, v);
		return -EINVAL;
	}
	return 0;
}

/* Writers are serialized by the module parameter lock. */
static int lnet_int_param_set(const char *val, const struct kernel_param *kp)
{
	struct lnet_int_param *p = kp->arg;
	int v, rc;

	rc = lnet_int_param_check(p, val, &v);
	if (rc) {
		pr_warn("%s: '%s' is not an integer in %d..%d\n",
			kp->name, val, p->min, p->max);
		return rc;
	}
	if (p->deprecated) {
		/* an import of exported defaults is no news */
		if (v != p->def)
			pr_warn("%s is deprecated and has no effect: %d ignored\n",
				kp->name, v);
		return 0;
	}
	rc = lnet_int_param_cross_check(p, v, kp->name);
	if (rc)
		return rc;
	WRITE_ONCE(p->value, v);
	/* the ping info says whether we discover (none before bring-up) */
	if (p == &lnet_peer_discovery_disabled && lnet_is_running())
		lnet_ping_status_changed();
	if (p == &lnet_health_sensitivity && !v &&
	    lnet_tunable(&lnet_retry_count)) {
		WRITE_ONCE(lnet_retry_count.value, 0);
		pr_info("%s=0: health is off, retry_count set to 0\n",
			kp->name);
	}
	return 0;
}

static int lnet_int_param_get(char *buf, const struct kernel_param *kp)
{
	const struct lnet_int_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%d\n", lnet_tunable(p));
}

static const struct kernel_param_ops lnet_int_param_ops = {
	.set	= lnet_int_param_set,
	.get	= lnet_int_param_get,
};

#define LNET_TUNABLE_FULL(var, name, dflt, lo, hi, old, desc)		\
	struct lnet_int_param var = { .value = (dflt), .min = (lo),	\
				      .max = (hi), .def = (dflt),	\
				      .deprecated = (old) };		\
	module_param_cb(name, &lnet_int_param_ops, &var, 0644);	\
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi "]")
#define LNET_TUNABLE(var, name, dflt, lo, hi, desc)			\
	LNET_TUNABLE_FULL(var, name, dflt, lo, hi, false, desc)
#define LNET_TUNABLE_DEPRECATED(var, name, dflt, lo, hi, desc)		\
	LNET_TUNABLE_FULL(var, name, dflt, lo, hi, true,		\
			  desc " (deprecated: writes are ignored)")

LNET_TUNABLE(lnet_numa_range, lnet_numa_range, 0, 0, INT_MAX,
	     "NUMA distance up to which a local NI counts as near the message's memory as the nearest (node_distance() units: 10 local, 20 one hop on most machines)");
LNET_EXPORT_FOR_TEST(lnet_numa_range);
LNET_TUNABLE(lnet_interfaces_max, lnet_interfaces_max,
	     LNET_INTERFACES_MAX_DEFAULT, LNET_INTERFACES_MIN, INT_MAX,
	     "most NIs a peer's ping info may list (a longer one is refused), and most NIs a ping of ours asks for");
LNET_EXPORT_FOR_TEST(lnet_interfaces_max);
LNET_TUNABLE(lnet_peer_discovery_disabled, lnet_peer_discovery_disabled, 0,
	     0, 1,
	     "1: no peer discovery: peers are not pinged before the first message, and none is Multi-Rail unless configured so");
LNET_EXPORT_FOR_TEST(lnet_peer_discovery_disabled);
LNET_TUNABLE(lnet_drop_asym_route, lnet_drop_asym_route, 0, 0, 1,
	     "1: drop a message from another network that comes through a gateway none of our routes to that network uses");
LNET_EXPORT_FOR_TEST(lnet_drop_asym_route);
LNET_TUNABLE(lnet_retry_count, lnet_retry_count, 2, 0, INT_MAX,
	     "times a message that failed in a way another try could fix is sent again (resend.c); 0 never");
LNET_EXPORT_FOR_TEST(lnet_retry_count);
LNET_TUNABLE(lnet_transaction_timeout, lnet_transaction_timeout, 150, 1,
	     INT_MAX,
	     "seconds a message may wait for a peer's send credit or on a lazy portal, and an ACK or REPLY may take to come (response_tracking), before it fails; with retry_count it sets lnet_lnd_timeout");
LNET_EXPORT_FOR_TEST(lnet_transaction_timeout);
LNET_TUNABLE(lnet_health_sensitivity, lnet_health_sensitivity, 100, 0, 1000,
	     "health (of 1000) an NI or peer loses per failure and regains per success; 0 freezes health");
LNET_EXPORT_FOR_TEST(lnet_health_sensitivity);
LNET_TUNABLE_DEPRECATED(lnet_recovery_interval, lnet_recovery_interval, 1, 1,
			INT_MAX, "seconds between recovery pings");
LNET_TUNABLE_DEPRECATED(lnet_router_sensitivity, router_sensitivity_percentage,
			100, 0, 100,
			"health percentage at which a gateway counts as up");
LNET_TUNABLE(lnet_response_tracking, lnet_response_tracking, 3, 0, 3,
	     "which answers are timed out after transaction_timeout: 0 only MDs that ask (LNET_MD_TRACK_RESPONSE), 1 also REPLYs to GETs, 2 also ACKs to PUTs, 3 both");
LNET_EXPORT_FOR_TEST(lnet_response_tracking);
LNET_TUNABLE(lnet_recovery_limit, lnet_recovery_limit, 0, 0, INT_MAX,
	     "seconds a peer silent for that long stays on the recovery queue (recovery.c), 0 forever");
LNET_EXPORT_FOR_TEST(lnet_recovery_limit);
LNET_TUNABLE(lnet_max_recovery_ping_interval,
	     lnet_max_recovery_ping_interval, 900, 1, INT_MAX,
	     "longest interval in seconds between recovery pings of an NI or peer below full health");
LNET_EXPORT_FOR_TEST(lnet_max_recovery_ping_interval);

/**
 * lnet_lnd_timeout_of() - an LND's timeout when its own tunable is 0
 * @transaction_timeout: seconds, above @retry_count
 * @retry_count: resends allowed per message
 *
 * The retry_count + 1 tries of a message share transaction_timeout (less
 * a second of slack), so that the last try still fails in time (spec 3.4).
 *
 * Return: seconds, at least 1.
 */
unsigned int lnet_lnd_timeout_of(int transaction_timeout, int retry_count)
{
	return max((transaction_timeout - 1) / (retry_count + 1), 1);
}
LNET_EXPORT_FOR_TEST(lnet_lnd_timeout_of);

unsigned int lnet_lnd_timeout(void)
{
	return lnet_lnd_timeout_of(lnet_tunable(&lnet_transaction_timeout),
				   lnet_tunable(&lnet_retry_count));
}
EXPORT_SYMBOL_GPL(lnet_lnd_timeout);

/* Derived, so it follows its two inputs instead of being set. */
static int lnet_lnd_timeout_param_set(const char *val,
				      const struct kernel_param *kp)
{
	pr_warn("%s is read-only: set transaction_timeout or retry_count, or the LND's own timeout\n",
		kp->name);
	return -EPERM;
}

static int lnet_lnd_timeout_param_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", lnet_lnd_timeout());
}

static const struct kernel_param_ops lnet_lnd_timeout_param_ops = {
	.set	= lnet_lnd_timeout_param_set,
	.get	= lnet_lnd_timeout_param_get,
};
module_param_cb(lnet_lnd_timeout, &lnet_lnd_timeout_param_ops, NULL, 0444);
MODULE_PARM_DESC(lnet_lnd_timeout,
		 "seconds an LND whose own timeout (sock_timeout, timeout) is 0 gives a try of a message: (transaction_timeout - 1) / (retry_count + 1), at least 1 (read-only)");

char *lnet_ip2nets = "";
module_param_named(ip2nets, lnet_ip2nets, charp, 0444);
MODULE_PARM_DESC(ip2nets,
		 "networks chosen by this node's IPv4 addresses, used instead of networks= (not with it), e.g. \"tcp(eth0) 192.168.0.*; o2ib 10.10.*.*\"");

char *lnet_routes = "";
module_param_named(routes, lnet_routes, charp, 0444);
MODULE_PARM_DESC(routes,
		 "routes stored when the networks= nets come up (configure --all, config_on_load), e.g. \"o2ib1 192.0.2.1@tcp; tcp2 1 10.0.0.[1-4]@tcp:2\"");

char *lnet_forwarding = "";
LNET_EXPORT_FOR_TEST(lnet_forwarding);
module_param_named(forwarding, lnet_forwarding, charp, 0444);
MODULE_PARM_DESC(forwarding,
		 "\"enabled\": forward messages for other nodes; \"disabled\": never; empty: only if routes= names one of this node's NIDs as a gateway");

/**
 * lnet_params_check() - validate networks=, ip2nets=, routes= and forwarding=
 * at load
 *
 * Return: 0, or -EINVAL (with the reason logged) if one is malformed.
 */
int lnet_params_check(void)
{
	LIST_HEAD(nets);
	LIST_HEAD(routes);
	char err[128];
	int rc;

	rc = lnet_parse_networks(lnet_networks, &nets, err, sizeof(err));
	lnet_free_net_configs(&nets);
	if (rc) {
		pr_err("refusing to load: bad module parameter %s (networks=\"%s\")\n",
		       err, lnet_networks);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	if (lnet_ip2nets[0] && lnet_networks[0]) {
		pr_err("refusing to load: networks= and ip2nets= are both set; give one of them\n");
		return -EINVAL;
	}
	/* the syntax only: which rules apply depends on the addresses then */
	rc = lnet_ip2nets_select(lnet_ip2nets, NULL, 0, NULL, 0);
	if (rc < 0) {
		pr_err("refusing to load: bad module parameter ip2nets=\"%s\" (rules are \"net[(iface[,iface...])] a.b.c.d [a.b.c.d...]; ...\", each octet *, n, n-m, n-m/stride or [list])\n",
		       lnet_ip2nets);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	rc = lnet_parse_routes(lnet_routes, &routes, err, sizeof(err));
	lnet_free_route_configs(&routes);
	if (rc) {
		pr_err("refusing to load: bad module parameter %s (routes=\"%s\")\n",
		       err, lnet_routes);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	if (lnet_forwarding[0] && strcmp(lnet_forwarding, "disabled") &&
	    strcmp(lnet_forwarding, "enabled")) {
		pr_err("refusing to load: forwarding=\"%s\": use \"enabled\", \"disabled\" or leave it empty\n",
		       lnet_forwarding);
		return -EINVAL;
	}
	return 0;
}
