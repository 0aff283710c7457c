// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl interface of lnetctl (include/uapi/linux/lnet/lnet-ioctl.h;
 * Lustre's is described in Documentation/wire/userspace-config.md): the
 * checks, the command table and the commands; /dev/lnet itself is dev.c,
 * the ip2nets rules ip2nets.c.
 *
 * Every call goes through the same checks before any command runs:
 *
 * 1. the command: type 'e' and _IOC_NR 30..112, else -EINVAL (the size bits
 *    are not checked, as the reference kernel does not check them);
 * 2. permission (below), -EACCES; the network namespace (below),
 *    -EOPNOTSUPP;
 * 3. the 8-byte header alone is copied: ioc_len must be 8..131072 and at
 *    least the size of the command's structure, the version must be the
 *    command's (LNET_IOCTL_VERSION for the generic block, VERSION2 for
 *    the command-specific structures), else -EINVAL;
 * 4. then ioc_len bytes are copied (the header must not have changed in
 *    between), and a generic block is validated (lnet_ioctl_check_data());
 * 5. commands other than CONFIGURE/UNCONFIGURE need LNet running
 *    (-ENETDOWN);
 * 6. on success ioc_len bytes are copied back.
 *
 * Permission: in Lustre (Documentation/wire/userspace-config.md) every ioctl
 * needs CAP_SYS_ADMIN (EACCES otherwise). This project's configuration issue
 * asks instead that changes need CAP_NET_ADMIN and that reads be open to
 * everyone, so that any user can run "lnetctl net show". We follow the
 * issue (the device node is 0666) and keep Lustre's errno:
 * a command that changes something, sends traffic (PING_PEER) or is not
 * the core's own needs CAP_NET_ADMIN in the initial user namespace, else
 * -EACCES. The GET_* commands of the core and LNET_DIST (reads) are open.
 *
 * Network namespaces: LNet lives in the initial network namespace only
 * (Documentation/design.md, "Network namespaces"). A command that changes
 * the networks or routes (CONFIGURE, UNCONFIGURE and the changes below)
 * from a process in another network namespace fails with -EOPNOTSUPP and
 * a warning in the log, rather than configuring interfaces that process
 * cannot see. Reads and PING_PEER work from anywhere.
 *
 * Serialization: configuration commands take lnet_config_mutex, which
 * nests outside lnet_core.api_mutex (the core takes that one itself) and
 * also guards the "configured" reference below. Reads use RCU (the NI
 * list and the peer list, net_lock only to copy one peer), api_mutex (the
 * route table); PING_PEER holds a reference on LNet, not a
 * mutex, while it waits for the reply.
 *
 * The "configured" reference: CONFIGURE (and config_on_load=1) take one
 * LNetNIInit()-style reference on behalf of user space, once; UNCONFIGURE
 * drops it, -EBUSY while anybody else (a kernel user, a ping in flight)
 * holds LNet too.
 *
 * Only 64-bit user space is supported (the uapi header says so): the
 * structures carry pointers as __u64, but 32-bit x86 aligns __u64 to 4
 * bytes, so several layouts differ. There is no compat_ioctl: a 32-bit
 * caller gets -ENOTTY rather than a misread argument.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/nsproxy.h>
#include <linux/rculist.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <uapi/linux/lnet/lnet-ioctl.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

#define LNET_IOC_DATA_SIZE	sizeof(struct lnet_ioctl_data)
#define LNET_IOC_TUN_CMN_END	(LNET_IOCTL_NI_TUNABLES_OFFSET + \
				 sizeof(struct lnet_ioctl_tunables_common))

static DEFINE_MUTEX(lnet_config_mutex);
static bool lnet_config_held;		/* lnet_config_mutex */

static DECLARE_RWSEM(lnet_ioctl_handlers_sem);
static LIST_HEAD(lnet_ioctl_handlers);	/* lnet_ioctl_handlers_sem */

/* ---- validation (pure; the KUnit suite lnet_ioctl tests these) ------------ */

/**
 * lnet_ioctl_check_cmd() - is @cmd a /dev/lnet command at all
 * @cmd: the ioctl command
 *
 * Return: 0 or -EINVAL (wrong type letter, _IOC_NR outside 30..112).
 */
int lnet_ioctl_check_cmd(unsigned int cmd)
{
	if (_IOC_TYPE(cmd) != LNET_IOC_TYPE ||
	    _IOC_NR(cmd) < LNET_IOC_MIN_NR || _IOC_NR(cmd) > LNET_IOC_MAX_NR)
		return -EINVAL;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_ioctl_check_cmd);

/**
 * lnet_ioctl_check_hdr() - check an argument's header before its data
 * @hdr: the header
 * @min_len: the size of the command's structure (>= the header's)
 * @version: LNET_IOCTL_VERSION or LNET_IOCTL_VERSION2; 0 accepts either
 *
 * Return: 0 or -EINVAL.
 */
int lnet_ioctl_check_hdr(const struct lnet_ioctl_hdr *hdr, u32 min_len,
			 u32 version)
{
	if (hdr->ioc_len < LNET_IOCTL_MIN_LEN ||
	    hdr->ioc_len > LNET_IOCTL_MAX_LEN || hdr->ioc_len < min_len)
		return -EINVAL;
	if (version)
		return hdr->ioc_version == version ? 0 : -EINVAL;
	if (hdr->ioc_version != LNET_IOCTL_VERSION &&
	    hdr->ioc_version != LNET_IOCTL_VERSION2)
		return -EINVAL;
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_ioctl_check_hdr);

/* A pointer must be there exactly when its length is not zero. */
static bool lnet_ioctl_buf_ok(u32 len, u64 ptr)
{
	return !len == !ptr;
}

/**
 * lnet_ioctl_check_data() - validate a generic block and its inline buffers
 * @data: the block, followed by its inline data
 * @len: bytes at @data (the header's ioc_len, already checked against it)
 *
 * ioc_len must be exactly 128 + round8(inline 1) + round8(inline 2); each
 * of the four buffers has a pointer exactly when it has a length; when
 * inline buffer 1 is present it must be NUL-terminated, and so must the
 * inline data as a whole (its last byte is NUL).
 *
 * Return: 0 or -EINVAL.
 */
int lnet_ioctl_check_data(const struct lnet_ioctl_data *data, u32 len)
{
	u64 need = LNET_IOC_DATA_SIZE;
	const char *inl = (const char *)(data + 1);

	if (len < LNET_IOC_DATA_SIZE || data->ioc_hdr.ioc_len != len ||
	    data->ioc_hdr.ioc_version != LNET_IOCTL_VERSION)
		return -EINVAL;
	need += round_up((u64)data->ioc_inline1_len, 8);
	need += round_up((u64)data->ioc_inline2_len, 8);
	if (need != len)
		return -EINVAL;
	if (!lnet_ioctl_buf_ok(data->ioc_inline1_len, data->ioc_inline1) ||
	    !lnet_ioctl_buf_ok(data->ioc_inline2_len, data->ioc_inline2) ||
	    !lnet_ioctl_buf_ok(data->ioc_user1_len, data->ioc_user1) ||
	    !lnet_ioctl_buf_ok(data->ioc_user2_len, data->ioc_user2))
		return -EINVAL;
	if (data->ioc_inline1_len) {
		u32 last = data->ioc_inline2_len ?
			   round_up(data->ioc_inline1_len, 8) +
			   data->ioc_inline2_len - 1 :
			   data->ioc_inline1_len - 1;

		if (inl[data->ioc_inline1_len - 1] || inl[last])
			return -EINVAL;
	}
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_ioctl_check_data);

char *lnet_ioctl_inline1(struct lnet_ioctl_data *data)
{
	return data->ioc_inline1_len ? (char *)(data + 1) : NULL;
}
EXPORT_SYMBOL_GPL(lnet_ioctl_inline1);

char *lnet_ioctl_inline2(struct lnet_ioctl_data *data)
{
	if (!data->ioc_inline2_len)
		return NULL;
	return (char *)(data + 1) + round_up(data->ioc_inline1_len, 8);
}
EXPORT_SYMBOL_GPL(lnet_ioctl_inline2);

/**
 * lnet_ioctl_ping_timeout() - the PING_PEER timeout to use
 * @ms: what the caller asked for
 *
 * Return: @ms, or 180 s for anything outside 1..180000 ms.
 */
int lnet_ioctl_ping_timeout(s32 ms)
{
	if (ms <= 0 || ms > LNET_IOCTL_PING_TIMEOUT_MAX_MS)
		return LNET_IOCTL_PING_TIMEOUT_MAX_MS;
	return ms;
}
LNET_EXPORT_FOR_TEST(lnet_ioctl_ping_timeout);

static int lnet_ioctl_lnd_tun_size(u32 lnd_type)
{
	switch (lnd_type) {
	case LNET_LND_SOCK:
		return sizeof(struct lnet_ioctl_tunables_socklnd);
	case LNET_LND_O2IB:
		return sizeof(struct lnet_ioctl_tunables_o2iblnd);
	default:
		return 0;
	}
}

/* A common tunable: -1 is the default (0 here), 0..INT_MAX a value. */
static int lnet_ioctl_tun_value(s32 v, int *out)
{
	if (v < -1)
		return -EINVAL;
	*out = v == -1 ? 0 : v;
	return 0;
}

/**
 * lnet_ioctl_ni_tunables() - the tunables block of ADD_LOCAL_NI
 * @buf: the NI configuration structure (struct lnet_ioctl_config_ni)
 * @len: its ioc_len; the common block is read when it is covered, the
 *	LND block when it is covered too
 * @lnd_type: the LND type of the NI's net (chooses the LND block)
 * @tun: what the core applies (0: the module parameter)
 *
 * The core applies credits, peer credits and router buffer credits per
 * peer; the LND block goes to the LND's startup(), which applies it or
 * refuses it (lnd.h). A per-NI peer timeout has no use here (peers are
 * judged by health and the router checker): only its default is taken,
 * -1, 0 or LNET_PEER_TIMEOUT_DEFAULT (what Lustre's lnetctl export
 * writes), anything else is refused rather than silently ignored. An LND
 * block whose version word is 0 counts as absent.
 *
 * Return: 0; -EINVAL for a bad version or value; -EOPNOTSUPP for a
 * tunable this LNet cannot apply.
 */
int lnet_ioctl_ni_tunables(const void *buf, u32 len, u32 lnd_type,
			   struct lnet_ni_tunables *tun)
{
	const struct lnet_ioctl_lnd_tunables *t =
		buf + LNET_IOCTL_NI_TUNABLES_OFFSET;
	const struct lnet_ioctl_tunables_common *c = &t->lt_cmn;
	struct lnet_lnd_tunables *lnd = &tun->lnd;
	int lnd_size = lnet_ioctl_lnd_tun_size(lnd_type);
	int peer_timeout;

	memset(tun, 0, sizeof(*tun));
	lnd->tos = -1;
	if (len < LNET_IOC_TUN_CMN_END)
		return 0;
	if (c->lct_version != LNET_IOCTL_TUNABLES_VERSION)
		return -EINVAL;
	if (lnet_ioctl_tun_value(c->lct_max_tx_credits, &tun->credits) ||
	    lnet_ioctl_tun_value(c->lct_peer_tx_credits, &tun->peer_credits) ||
	    lnet_ioctl_tun_value(c->lct_peer_timeout, &peer_timeout) ||
	    lnet_ioctl_tun_value(c->lct_peer_rtr_credits,
				 &tun->peer_rtr_credits))
		return -EINVAL;
	if (peer_timeout && peer_timeout != LNET_PEER_TIMEOUT_DEFAULT)
		return -EOPNOTSUPP;

	if (!lnd_size || len < LNET_IOC_TUN_CMN_END + lnd_size)
		return 0;
	/*
	 * Every LND block starts with its version word. 0: no LND block
	 * (lnetctl fills none for ip2nets rules, the net type being unknown).
	 */
	if (!t->lt_lnd.sock.lnd_version)
		return 0;
	if (t->lt_lnd.sock.lnd_version != LNET_IOCTL_TUNABLES_VERSION)
		return -EINVAL;
	if (lnd_type == LNET_LND_SOCK) {
		const struct lnet_ioctl_tunables_socklnd *s = &t->lt_lnd.sock;

		if (s->lnd_tos < -1 || s->lnd_tos > 255 ||
		    s->lnd_timeout > INT_MAX)
			return -EINVAL;
		lnd->conns_per_peer = s->lnd_conns_per_peer;
		lnd->timeout = s->lnd_timeout;
		lnd->tos = s->lnd_tos;
	} else {
		const struct lnet_ioctl_tunables_o2iblnd *o = &t->lt_lnd.o2ib;

		if (o->lnd_tos < -1 || o->lnd_tos > 255 ||
		    o->lnd_timeout > INT_MAX || o->lnd_peercredits_hiw > INT_MAX ||
		    o->lnd_concurrent_sends > INT_MAX ||
		    o->lnd_map_on_demand > INT_MAX ||
		    o->lnd_fmr_pool_size > INT_MAX ||
		    o->lnd_fmr_flush_trigger > INT_MAX ||
		    o->lnd_fmr_cache > INT_MAX)
			return -EINVAL;
		lnd->conns_per_peer = o->lnd_conns_per_peer;
		lnd->timeout = o->lnd_timeout;
		lnd->tos = o->lnd_tos;
		lnd->peercredits_hiw = o->lnd_peercredits_hiw;
		lnd->concurrent_sends = o->lnd_concurrent_sends;
		lnd->ntx = o->lnd_ntx;
		lnd->map_on_demand = o->lnd_map_on_demand;
		lnd->fmr_pool_size = o->lnd_fmr_pool_size;
		lnd->fmr_flush_trigger = o->lnd_fmr_flush_trigger;
		lnd->fmr_cache = o->lnd_fmr_cache;
	}
	return 0;
}
LNET_EXPORT_FOR_TEST(lnet_ioctl_ni_tunables);

/* ---- commands --------------------------------------------------------------- */

struct lnet_ioc_ctx {
	unsigned int	cmd;
	void		*buf;		/* kernel copy, @len bytes */
	u32		len;
	bool		user;		/* from /dev/lnet (user pointers valid) */
};

static int lnet_ioc_configure(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_data *data = ctx->buf;
	u32 known = LNET_IOCTL_CONFIGURE_ALL | LNET_IOCTL_CONFIGURE_LARGE;

	if (data->ioc_flags & ~known)
		return -EINVAL;
	/* no large-NID support: the uapi header's answer for --large */
	if (data->ioc_flags & LNET_IOCTL_CONFIGURE_LARGE)
		return -EOPNOTSUPP;
	return lnet_configure(data->ioc_flags & LNET_IOCTL_CONFIGURE_ALL);
}

static int lnet_ioc_unconfigure(struct lnet_ioc_ctx *ctx)
{
	return lnet_unconfigure();
}

/*
 * LNET_DIST: how far ioc_nid is (LNetDist()). Out: ioc_u32[0] the distance
 * (0 a NID of ours, 1 on a local net, hops + 1 through gateways),
 * ioc_u32[1] the order of the NI it leaves from (its LNetGetId() index)
 * and ioc_nid that NI's NID, LNET_NID_ANY when a gateway is the way.
 * -EHOSTUNREACH when there is none.
 */
static int lnet_ioc_dist(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_data *data = ctx->buf;
	lnet_nid_t src = LNET_NID_ANY;
	u32 order = 0;
	int rc;

	if (data->ioc_nid == LNET_NID_ANY)
		return -EINVAL;
	rc = LNetDist(data->ioc_nid, &src, &order);
	if (rc < 0)
		return rc;
	data->ioc_nid = src;
	data->ioc_u32[0] = rc;
	data->ioc_u32[1] = order;
	return 0;
}

static int lnet_ioc_check_string(const char *s, size_t size, size_t max)
{
	size_t n = strnlen(s, size);

	return n == size || n > max ? -EINVAL : (int)n;
}

/*
 * ADD_LOCAL_NI with an ip2nets rule: every NI the rules choose, each with
 * the tunables of the request. 0 when all are up (or were already), else
 * the first error (the others stay up); -EADDRNOTAVAIL if no rule applies.
 */
static int lnet_ioc_add_ip2nets(const char *rules, const void *buf, u32 len,
				struct lnet_net_config *cfg)
{
	struct lnet_ip2nets_ni *sel;
	struct lnet_ni_tunables tun;
	lnet_nid_t nid;
	int nsel, i, rc, first = 0;

	sel = kcalloc(LNET_IP2NETS_MAX_IFS, sizeof(*sel), GFP_KERNEL);
	if (!sel)
		return -ENOMEM;
	nsel = lnet_ip2nets_local(rules, sel, LNET_IP2NETS_MAX_IFS);
	if (nsel <= 0) {
		rc = nsel ?: -EADDRNOTAVAIL;
		goto out;
	}
	/* all the tunables first: nothing is added if one is refused */
	for (i = 0; i < nsel; i++) {
		rc = lnet_ioctl_ni_tunables(buf, len, LNET_NETTYP(sel[i].net),
					    &tun);
		if (rc)
			goto out;
	}
	for (i = 0; i < nsel; i++) {
		lnet_ioctl_ni_tunables(buf, len, LNET_NETTYP(sel[i].net), &tun);
		cfg->net_id = sel[i].net;
		strscpy(cfg->ifaces[0], sel[i].ifname, IFNAMSIZ);
		cfg->n_ifaces = 1;
		rc = lnet_ni_add(cfg, &tun, &nid);
		if (rc == -EPROTONOSUPPORT)
			rc = -ENODEV;
		if (rc && rc != -EEXIST && !first)
			first = rc;
	}
	rc = first;
out:
	kfree(sel);
	return rc;
}


static int lnet_ioc_add_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_ni *c = ctx->buf;
	u32 net = LNET_NIDNET(c->lic_nid);
	u32 lnd = LNET_NETTYP(net);
	struct lnet_net_config *cfg;
	struct lnet_ni_tunables tun;
	lnet_nid_t nid = LNET_NID_ANY;
	int ifl, i, j, rc;

	ifl = lnet_ioc_check_string(c->lic_ni_intf, sizeof(c->lic_ni_intf),
				    IFNAMSIZ - 1);
	if (ifl < 0 || lnet_ioc_check_string(c->lic_legacy_ip2nets,
					     sizeof(c->lic_legacy_ip2nets),
					     sizeof(c->lic_legacy_ip2nets)) < 0)
		return -EINVAL;
	if (c->lic_nid == LNET_NID_ANY ? !c->lic_legacy_ip2nets[0] || ifl :
	    c->lic_legacy_ip2nets[0] || net == LNET_NET_ANY)
		return -EINVAL;
	if (lnd == LNET_LND_LO)
		return -EEXIST;		/* 0@lo always exists */
	if (c->lic_ncpts > min(LNET_IOCTL_MAX_CPTS, LNET_MAX_CONFIG_CPTS))
		return -EINVAL;
	if (c->lic_nid != LNET_NID_ANY) {
		rc = lnet_ioctl_ni_tunables(ctx->buf, ctx->len, lnd, &tun);
		if (rc)
			return rc;
	}

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	cfg->net_id = net;
	for (i = 0; i < c->lic_ncpts; i++) {
		rc = -EINVAL;
		if (c->lic_cpts[i] >= lnet_cpt_number())
			goto out;
		for (j = 0; j < i; j++)
			if (c->lic_cpts[j] == c->lic_cpts[i])
				goto out;
		cfg->cpts[i] = c->lic_cpts[i];
	}
	cfg->n_cpts = c->lic_ncpts;
	if (c->lic_nid == LNET_NID_ANY) {
		rc = lnet_ioc_add_ip2nets(c->lic_legacy_ip2nets, ctx->buf,
					  ctx->len, cfg);
		goto out;
	}
	if (ifl) {
		memcpy(cfg->ifaces[0], c->lic_ni_intf, ifl + 1);
		cfg->n_ifaces = 1;
	} else if (LNET_NIDADDR(c->lic_nid) != 0xffffffffU &&
		   (lnd == LNET_LND_SOCK || lnd == LNET_LND_O2IB)) {
		/* a complete NID: the interface that has that address */
		rc = lnet_ipif_of_addr(LNET_NIDADDR(c->lic_nid),
				       cfg->ifaces[0]);
		if (rc)
			goto out;
		cfg->n_ifaces = 1;
	}

	rc = lnet_ni_add(cfg, &tun, &nid);
	if (rc == -EPROTONOSUPPORT)
		rc = -ENODEV;		/* no LND module for that net type */
	if (!rc && LNET_NIDADDR(c->lic_nid) != 0xffffffffU &&
	    nid != c->lic_nid) {
		/* the LND chose another address than the one asked for */
		lnet_ni_del(nid);
		rc = -EADDRNOTAVAIL;
	}
out:
	kfree(cfg);
	return rc;
}

static int lnet_ioc_del_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_ni *c = ctx->buf;

	return lnet_ni_del(c->lic_nid);
}

static int lnet_ioc_del_net(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;

	if (d->cfg_net == LNET_NET_ANY)
		return -EINVAL;
	return lnet_net_del(d->cfg_net);
}

static void lnet_ioc_fill_tunables(struct lnet_ioc_ctx *ctx,
				   const struct lnet_ni *ni)
{
	struct lnet_ioctl_lnd_tunables *t = ctx->buf +
					    LNET_IOCTL_NI_TUNABLES_OFFSET;
	const struct lnet_lnd_tunables *l = &ni->lnd_tunables;
	u32 lnd = LNET_NETTYP(LNET_NIDNET(ni->nid));
	int lnd_size = lnet_ioctl_lnd_tun_size(lnd);

	if (ctx->len < LNET_IOC_TUN_CMN_END)
		return;
	memset(t, 0, min_t(u32, ctx->len - LNET_IOCTL_NI_TUNABLES_OFFSET,
			   sizeof(*t)));
	t->lt_cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	/* 0@lo has no peers: all 0, as Lustre reports it */
	if (lnd == LNET_LND_LO)
		return;
	/*
	 * As configured, where an export and import must not pin what the
	 * node derives: the only peer timeout taken (Lustre's default), the
	 * NI's own router credits (0: lnet's peer_buffer_credits applies).
	 */
	t->lt_cmn.lct_peer_timeout = LNET_PEER_TIMEOUT_DEFAULT;
	t->lt_cmn.lct_peer_tx_credits = ni->peer_tx_credits;
	t->lt_cmn.lct_peer_rtr_credits = ni->cfg_peer_rtr_credits;
	t->lt_cmn.lct_max_tx_credits = ni->max_tx_credits;

	/* what the LND's startup() left: the values in effect */
	if (!lnd_size || ctx->len < LNET_IOC_TUN_CMN_END + lnd_size)
		return;
	if (lnd == LNET_LND_SOCK) {
		struct lnet_ioctl_tunables_socklnd *s = &t->lt_lnd.sock;

		s->lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		s->lnd_conns_per_peer = l->conns_per_peer;
		s->lnd_timeout = l->timeout;
		s->lnd_tos = l->tos;
	} else {
		struct lnet_ioctl_tunables_o2iblnd *o = &t->lt_lnd.o2ib;

		o->lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		o->lnd_peercredits_hiw = l->peercredits_hiw;
		o->lnd_map_on_demand = l->map_on_demand;
		o->lnd_concurrent_sends = l->concurrent_sends;
		o->lnd_fmr_pool_size = l->fmr_pool_size;
		o->lnd_fmr_flush_trigger = l->fmr_flush_trigger;
		o->lnd_fmr_cache = l->fmr_cache;
		o->lnd_conns_per_peer = l->conns_per_peer;
		o->lnd_ntx = l->ntx;
		o->lnd_timeout = l->timeout;
		o->lnd_tos = l->tos;
	}
}

static int lnet_ioc_get_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_ni *c = ctx->buf;
	unsigned int i = 0;
	struct lnet_ni *ni;
	int ncpt, k;

	rcu_read_lock();
	list_for_each_entry_rcu(ni, &lnet_core.nis, list)
		if (i++ == c->lic_idx)
			break;
	if (list_entry_is_head(ni, &lnet_core.nis, list)) {
		rcu_read_unlock();
		return -ENOENT;
	}
	c->lic_nid = ni->nid;
	memset(c->lic_ni_intf, 0, sizeof(c->lic_ni_intf));
	strscpy(c->lic_ni_intf, ni->iface, sizeof(c->lic_ni_intf));
	memset(c->lic_legacy_ip2nets, 0, sizeof(c->lic_legacy_ip2nets));
	memset(c->lic_cpts, 0, sizeof(c->lic_cpts));
	if (ni->ncpts) {
		ncpt = min_t(u32, ni->ncpts, LNET_IOCTL_MAX_CPTS);
		for (k = 0; k < ncpt; k++)
			c->lic_cpts[k] = ni->cpts[k];
	} else {
		/* bound to every partition */
		ncpt = min(lnet_cpt_number(), LNET_IOCTL_MAX_CPTS);
		for (k = 0; k < ncpt; k++)
			c->lic_cpts[k] = k;
	}
	c->lic_ncpts = ncpt;
	/* as the ping info says: down too while health is 0 or link down */
	c->lic_status = READ_ONCE(ni->state) == LNET_NI_STATE_UP &&
			!lnet_ni_says_down(ni) ?
			LNET_IOCTL_NI_STATUS_UP : LNET_IOCTL_NI_STATUS_DOWN;
	c->lic_dev_cpt = lnet_cpt_of_node(ni->dev_node);
	c->lic_pad = 0;
	c->lic_pad2 = 0;
	lnet_ioc_fill_tunables(ctx, ni);
	rcu_read_unlock();
	return 0;
}

/* The core counts messages per NI but not per message type (zeros). */
static int lnet_ioc_get_ni_stats(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_ni_msg_stats *s = ctx->buf;
	struct lnet_ni_stats sum;
	struct lnet_ni *ni;
	int rc = -ENOENT;

	rcu_read_lock();
	ni = lnet_ni_find_rcu(s->lns_nid);
	if (ni) {
		lnet_ni_stats_sum(ni, &sum);
		memset(&s->lns_stats, 0, sizeof(s->lns_stats));
		s->lns_stats.ms_send_count = sum.send_count;
		s->lns_stats.ms_recv_count = sum.recv_count;
		s->lns_stats.ms_drop_count = sum.drop_count;
		rc = 0;
	}
	rcu_read_unlock();
	return rc;
}

static int lnet_ioc_get_ni_health(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_ni_health *h = ctx->buf;
	lnet_nid_t nid = h->lnh_nid;
	struct lnet_ni_stats sum;
	struct lnet_ni *ni;
	u32 pings;
	int rc = -ENOENT;

	rcu_read_lock();
	ni = lnet_ni_find_rcu(nid);
	if (ni) {
		lnet_ni_stats_sum(ni, &sum);
		memset(h, 0, sizeof(*h));
		h->lnh_hdr.ioc_len = ctx->len;
		h->lnh_hdr.ioc_version = LNET_IOCTL_VERSION2;
		h->lnh_nid = nid;
		h->lnh_health_value = ni == lnet_core.lo_ni ? LNET_MAX_HEALTH :
				      atomic_read(&ni->healthv);
		h->lnh_fatal_error = READ_ONCE(ni->state) != LNET_NI_STATE_UP ||
				     test_bit(LNET_NI_LINK_DOWN,
					      &ni->health_flags);
		h->lnh_interrupts =
			sum.health[LNET_MSG_STATUS_LOCAL_INTERRUPT];
		h->lnh_dropped = sum.health[LNET_MSG_STATUS_LOCAL_DROPPED];
		h->lnh_aborted = sum.health[LNET_MSG_STATUS_LOCAL_ABORTED];
		h->lnh_no_route = sum.health[LNET_MSG_STATUS_LOCAL_NO_ROUTE];
		h->lnh_timeouts = sum.health[LNET_MSG_STATUS_LOCAL_TIMEOUT];
		h->lnh_error = sum.health[LNET_MSG_STATUS_LOCAL_ERROR];
		lnet_recovery_state(&ni->recovery, &pings, &h->lnh_next_ping);
		h->lnh_ping_count = pings;
		rc = 0;
	}
	rcu_read_unlock();
	return rc;
}

static int lnet_ioc_set_health(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_set_health *h = ctx->buf;

	if (h->sh_pad || h->sh_all > 1)
		return -EINVAL;
	switch (h->sh_type) {
	case LNET_HEALTH_LOCAL_NI:
		return lnet_ni_set_health(h->sh_nid, h->sh_all, h->sh_value);
	case LNET_HEALTH_PEER_NI:
		return lnet_peer_set_health(h->sh_nid, h->sh_all, h->sh_value);
	default:
		return -EINVAL;
	}
}

static int lnet_ioc_get_recovery_queue(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_recovery_list *rl = ctx->buf;

	if (rl->rl_pad)
		return -EINVAL;
	return lnet_recovery_list(rl->rl_type, rl);
}

/*
 * Peers are single NIs here (no Multi-Rail): each peer is its own primary
 * NID with one NI. Its state is not tracked (NA). The index walks the
 * peers in the order they were made; peers coming or going between two
 * calls may be missed or seen twice, as with any index-based listing.
 *
 * Anyone may list the peers, and a full listing costs a walk per entry:
 * the walk is under RCU, and net_lock (which the send path takes with BH
 * off) is held only to copy the one peer found.
 */
/* Copy one per-NID peer's state; net_lock held. */
static void lnet_ioc_fill_peer_ni(struct lnet_ioctl_peer_ni *p,
				  struct lnet_peer *peer)
{
	struct lnet_msg *msg;
	u32 pings;

	lockdep_assert_held(&lnet_core.net_lock);
	if (peer->configured)
		p->pni_flags |= LNET_IOCTL_PEER_CONFIGURED;
	p->pni_health_value = peer->healthv;
	p->pni_hs_dropped = peer->hstats[LNET_MSG_STATUS_REMOTE_DROPPED];
	p->pni_hs_timeout = peer->hstats[LNET_MSG_STATUS_REMOTE_TIMEOUT];
	p->pni_hs_error = peer->hstats[LNET_MSG_STATUS_REMOTE_ERROR];
	p->pni_hs_network_timeout =
		peer->hstats[LNET_MSG_STATUS_NETWORK_TIMEOUT];
	p->pni_max_tx_credits = peer->max_tx_credits;
	p->pni_available_tx_credits = peer->tx_credits;
	p->pni_min_tx_credits = peer->min_tx_credits;
	p->pni_available_rtr_credits = peer->rtr_credits;
	p->pni_min_rtr_credits = peer->min_rtr_credits;
	/* a peer unhashed with its NI has an empty queue (taken by
	 * lnet_peers_del_ni()); one forgotten by peer del drains it
	 */
	list_for_each_entry(msg, &peer->tx_queue, list)
		p->pni_tx_q_num_of_buf++;
	p->pni_refcount = kref_read(&peer->kref);
	p->pni_stats.ms_send_count = peer->send_count;
	lnet_recovery_state(&peer->recovery, &pings, &p->pni_hs_next_ping);
	p->pni_hs_ping_count = pings;
}

/*
 * A NID of a node that no message has used (no per-NID peer): full
 * credits of the NI it would use, full health.
 */
static void lnet_ioc_fill_unused_nid(struct lnet_ioctl_peer_ni *p)
{
	struct lnet_ni *ni;

	p->pni_health_value = LNET_MAX_HEALTH;
	rcu_read_lock();
	ni = lnet_ni_find_net_rcu(LNET_NIDNET(p->pni_nid));
	if (ni) {
		p->pni_max_tx_credits = ni->peer_tx_credits;
		p->pni_available_tx_credits = ni->peer_tx_credits;
		p->pni_min_tx_credits = ni->peer_tx_credits;
		p->pni_available_rtr_credits = lnet_peer_rtr_credits(ni);
		p->pni_min_rtr_credits = p->pni_available_rtr_credits;
	}
	rcu_read_unlock();
}

/*
 * GET_PEER_NI: the NIDs of the peer nodes (peer-node.c) first, node after
 * node, then the per-NID peers that belong to no node (peers of a node
 * with discovery off). The walks run under RCU; net_lock (which the send
 * path takes with BH off) is held only to copy the one entry found.
 * Entries added or removed between calls may be missed or seen twice, as
 * with any index-based listing.
 */
static int lnet_ioc_get_peer_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_peer_ni *p = ctx->buf;
	u32 index = p->pni_index, rest = index, flags = 0;
	lnet_nid_t nid, primary = LNET_NID_ANY;
	struct lnet_peer *peer;
	unsigned int i = 0;
	int rc = -ENOENT;

	memset((void *)p + sizeof(p->pni_hdr), 0, sizeof(*p) - sizeof(p->pni_hdr));
	p->pni_index = index;
	p->pni_ni_state = LNET_IOCTL_PEER_NI_NA;
	nid = lnet_node_nid_at(&rest, &primary, &flags);
	if (nid != LNET_NID_ANY) {
		p->pni_primary_nid = primary;
		p->pni_nid = nid;
		spin_lock_bh(&lnet_core.net_lock);
		peer = lnet_peer_find_locked(nid);
		if (peer)
			lnet_ioc_fill_peer_ni(p, peer);
		spin_unlock_bh(&lnet_core.net_lock);
		if (!peer)
			lnet_ioc_fill_unused_nid(p);
		p->pni_flags |= flags;
		return 0;
	}
	rcu_read_lock();
	list_for_each_entry_rcu(peer, &lnet_core.peer_list, list) {
		if (lnet_node_find_rcu(peer->nid) || i++ != rest)
			continue;
		p->pni_primary_nid = peer->nid;
		p->pni_nid = peer->nid;
		spin_lock_bh(&lnet_core.net_lock);
		lnet_ioc_fill_peer_ni(p, peer);
		spin_unlock_bh(&lnet_core.net_lock);
		rc = 0;
		break;
	}
	rcu_read_unlock();
	return rc;
}

static int lnet_ioc_peer_cfg_check(const struct lnet_ioctl_peer_cfg *pc)
{
	if (pc->pc_pad || pc->pc_flags & ~LNET_IOCTL_PEER_CFG_FLAGS ||
	    pc->pc_prim_nid == LNET_NID_ANY)
		return -EINVAL;
	return 0;
}

static_assert(LNET_IOCTL_PEER_MAX_NIDS == LNET_NODE_MAX_NIDS);

static int lnet_ioc_add_peer_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_peer_cfg *pc = ctx->buf;

	if (pc->pc_flags & LNET_IOCTL_PEER_CFG_FORCE)
		return -EINVAL;
	return lnet_ioc_peer_cfg_check(pc) ?:
	       lnet_node_configure(pc->pc_prim_nid, pc->pc_nid, pc->pc_flags);
}

static int lnet_ioc_del_peer_ni(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_peer_cfg *pc = ctx->buf;

	if (pc->pc_flags & ~LNET_IOCTL_PEER_CFG_FORCE)
		return -EINVAL;
	return lnet_ioc_peer_cfg_check(pc) ?:
	       lnet_node_del(pc->pc_prim_nid, pc->pc_nid, pc->pc_flags);
}

static int lnet_ioc_set_conns_per_peer(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_conns_per_peer *c = ctx->buf;

	if (c->cpp_all > 1)
		return -EINVAL;
	return lnet_ni_set_conns_per_peer(c->cpp_nid, c->cpp_all, c->cpp_value);
}

static int lnet_ioc_add_route(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	struct lnet_route_info r = {
		.net		= d->cfg_net,
		.gateway	= d->cfg_nid,
		.hops		= d->cfg_u.route.hop,
		.priority	= d->cfg_u.route.priority,
		.sensitivity	= d->cfg_u.route.sensitivity,
	};
	int rc = -ENETDOWN;

	mutex_lock(&lnet_core.api_mutex);
	if (lnet_is_running())
		rc = lnet_route_add(&r);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static int lnet_ioc_del_route(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_route_del(d->cfg_net, d->cfg_nid);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static int lnet_ioc_get_route(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	struct lnet_route_info r;
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_route_get(d->cfg_count, &r);
	mutex_unlock(&lnet_core.api_mutex);
	if (rc)
		return rc;
	d->cfg_net = r.net;
	d->cfg_nid = r.gateway;
	d->cfg_ncpts = 0;
	memset(&d->cfg_u, 0, sizeof(d->cfg_u));
	d->cfg_u.route.hop = r.hops;
	d->cfg_u.route.priority = r.priority;
	d->cfg_u.route.sensitivity = r.sensitivity;
	d->cfg_u.route.flags = (r.alive ? LNET_IOCTL_ROUTE_ALIVE : 0) |
			       (r.multi_hop ? LNET_IOCTL_ROUTE_MULTI_HOP : 0);
	d->cfg_pad = 0;
	return 0;
}

static int lnet_ioc_config_rtr(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	int enable = d->cfg_u.buffers.enable, rc;

	if (enable != 0 && enable != 1)
		return -EINVAL;
	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_router_set(enable);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static_assert(LNET_IOCTL_RTR_POOLS == LNET_NRTRPOOLS);

static int lnet_ioc_add_buf(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	const int totals[LNET_NRTRPOOLS] = {
		[LNET_RTRPOOL_TINY] = d->cfg_u.buffers.tiny,
		[LNET_RTRPOOL_SMALL] = d->cfg_u.buffers.small,
		[LNET_RTRPOOL_LARGE] = d->cfg_u.buffers.large,
	};
	int rc;

	mutex_lock(&lnet_core.api_mutex);
	rc = lnet_router_resize(totals);
	mutex_unlock(&lnet_core.api_mutex);
	return rc;
}

static int lnet_ioc_get_buf(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_config_data *d = ctx->buf;
	int cpt = d->cfg_count, i, npages, nbuffers, credits, min;

	if (d->cfg_count >= lnet_cpt_number())
		return -ENOENT;
	d->cfg_ncpts = lnet_cpt_number();
	memset(&d->cfg_u, 0, sizeof(d->cfg_u));
	d->cfg_u.pools.enable = lnet_routing_wanted();
	for (i = 0; i < LNET_IOCTL_RTR_POOLS; i++) {
		if (lnet_rtrpool_state(cpt, i, &npages, &nbuffers, &credits,
				       &min))
			continue;
		d->cfg_u.pools.pool[i].npages = npages;
		d->cfg_u.pools.pool[i].nbuffers = nbuffers;
		d->cfg_u.pools.pool[i].credits = credits;
		d->cfg_u.pools.pool[i].mincredits = min;
	}
	d->cfg_pad = 0;
	return 0;
}

static void lnet_ioc_peer_identity(struct lnet_ioctl_ping_data *p);

static int lnet_ioc_ping(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_ping_data *p = ctx->buf;
	struct lnet_process_id id = {
		.nid = p->ping_target_nid, .pid = p->ping_target_pid,
	};
	unsigned int n = min_t(u32, p->ping_count,
			       lnet_tunable(&lnet_interfaces_max));
	struct lnet_process_id *ids = NULL;
	u32 features = 0;
	int rc;

	/* the reply array is a user pointer: not for LNetCtl() callers */
	if (!ctx->user)
		return -EOPNOTSUPP;
	if (id.nid == LNET_NID_ANY || (n && !p->ping_ids))
		return -EINVAL;
	if (n) {
		/* zeroed: the entries' padding is copied out too */
		ids = kcalloc(n, sizeof(*ids), GFP_KERNEL);
		if (!ids)
			return -ENOMEM;
	}
	/* LNet must not go down under the ping; UNCONFIGURE gets -EBUSY */
	rc = lnet_ni_hold();
	if (rc)
		goto out;
	rc = lnet_ping_full(id, p->ping_src,
			    lnet_ioctl_ping_timeout(p->ping_param), ids, n,
			    &features);
	LNetNIFini();
	if (rc < 0)
		goto out;
	if (rc && copy_to_user(u64_to_user_ptr(p->ping_ids), ids,
			       rc * sizeof(*ids))) {
		rc = -EFAULT;
		goto out;
	}
	p->ping_count = rc;
	p->ping_flags = features;
	lnet_ioc_peer_identity(p);
	rc = 0;
out:
	kfree(ids);
	return rc;
}

/* ping_target_nid and ping_mr: what the peer table says of the target. */
static void lnet_ioc_peer_identity(struct lnet_ioctl_ping_data *p)
{
	lnet_nid_t nid;
	u32 flags = 0;

	if (lnet_node_nids(p->ping_target_nid, &nid, 1, &flags) == 1)
		p->ping_target_nid = nid;
	p->ping_mr = !!(flags & LNET_IOCTL_PEER_MULTI_RAIL);
}

/*
 * DISCOVER: as PING_PEER's data; ping_param nonzero forces a ping and
 * push. The entries are the peer's NIDs, primary first.
 */
static int lnet_ioc_discover(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_ping_data *p = ctx->buf;
	lnet_nid_t nids[LNET_NODE_MAX_NIDS];
	struct lnet_process_id ids[LNET_NODE_MAX_NIDS];
	u32 flags = 0, features = 0;
	int rc, n, i;

	if (!ctx->user)
		return -EOPNOTSUPP;
	if (p->ping_target_nid == LNET_NID_ANY || p->ping_pad ||
	    (p->ping_count && !p->ping_ids))
		return -EINVAL;
	rc = lnet_ni_hold();
	if (rc)
		return rc;
	n = lnet_discover(p->ping_target_nid, p->ping_param != 0, nids,
			  ARRAY_SIZE(nids), &flags, &features);
	LNetNIFini();
	if (n < 0)
		return n;
	n = min_t(u32, n, p->ping_count);
	memset(ids, 0, sizeof(ids));
	for (i = 0; i < n; i++) {
		ids[i].nid = nids[i];
		ids[i].pid = LNET_PID_LUSTRE;
	}
	if (n && copy_to_user(u64_to_user_ptr(p->ping_ids), ids,
			      n * sizeof(ids[0])))
		return -EFAULT;
	p->ping_count = n;
	p->ping_flags = features;
	p->ping_mr = !!(flags & LNET_IOCTL_PEER_MULTI_RAIL);
	if (n)
		p->ping_target_nid = nids[0];
	return 0;
}

static int lnet_ioc_fault(struct lnet_ioc_ctx *ctx)
{
	return lnet_fault_ioctl(ctx->buf);
}

static int lnet_ioc_get_stats(struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_lnet_stats *st = ctx->buf;
	struct lnet_counters sum;

	lnet_counters_sum(&sum);
	memset((void *)st + sizeof(st->st_hdr), 0,
	       sizeof(*st) - sizeof(st->st_hdr));
	st->st_msgs_alloc = max_t(s64, percpu_counter_sum(&lnet_core.msg_count),
				  0);
	st->st_msgs_max = max_t(s64, READ_ONCE(lnet_core.msg_max), 0);
	st->st_rst_alloc = lnet_md_rsp_tracked();
	st->st_response_timeout_count = sum.response_timeout_count;
	st->st_errors = sum.errors;
	st->st_send_count = sum.send_count;
	st->st_recv_count = sum.recv_count;
	st->st_drop_count = sum.drop_count;
	st->st_send_length = sum.send_length;
	st->st_recv_length = sum.recv_length;
	st->st_drop_length = sum.drop_length;
	st->st_route_count = sum.route_count;
	st->st_route_length = sum.route_length;
	st->st_local_interrupt_count =
		sum.health[LNET_MSG_STATUS_LOCAL_INTERRUPT];
	st->st_local_dropped_count = sum.health[LNET_MSG_STATUS_LOCAL_DROPPED];
	st->st_local_aborted_count = sum.health[LNET_MSG_STATUS_LOCAL_ABORTED];
	st->st_local_no_route_count =
		sum.health[LNET_MSG_STATUS_LOCAL_NO_ROUTE];
	st->st_local_timeout_count = sum.health[LNET_MSG_STATUS_LOCAL_TIMEOUT];
	st->st_local_error_count = sum.health[LNET_MSG_STATUS_LOCAL_ERROR];
	st->st_remote_dropped_count =
		sum.health[LNET_MSG_STATUS_REMOTE_DROPPED];
	st->st_remote_error_count = sum.health[LNET_MSG_STATUS_REMOTE_ERROR];
	st->st_remote_timeout_count =
		sum.health[LNET_MSG_STATUS_REMOTE_TIMEOUT];
	st->st_network_timeout_count =
		sum.health[LNET_MSG_STATUS_NETWORK_TIMEOUT];
	st->st_resend_count = sum.resend_count;
	st->st_successful_resends = sum.successful_resends;
	st->st_failed_resends = sum.failed_resends;
	return 0;
}

/*
 * Zero the global counters. Another CPU adding to its counter at the same
 * moment may keep that one addition; a reset is never exact under load.
 */
static int lnet_ioc_reset_stats(struct lnet_ioc_ctx *ctx)
{
	lnet_counters_reset();
	WRITE_ONCE(lnet_core.msg_max,
		   percpu_counter_sum(&lnet_core.msg_count));
	return 0;
}

/* lnet_ioc_cmd.flags */
#define LNET_IOC_ADMIN		0x1	/* needs CAP_NET_ADMIN */
#define LNET_IOC_RUNNING	0x2	/* needs LNet running */
#define LNET_IOC_CONFIG		0x4	/* under lnet_config_mutex */
#define LNET_IOC_INITNET	0x8	/* from the initial netns only */

struct lnet_ioc_cmd {
	u32	version;
	u32	min_len;
	u32	flags;
	int	(*fn)(struct lnet_ioc_ctx *ctx);
};

#define LNET_IOC_CHANGE		(LNET_IOC_ADMIN | LNET_IOC_RUNNING | \
				 LNET_IOC_CONFIG | LNET_IOC_INITNET)
#define LNET_IOC_CMD(nr, ver, type, fl, handler)			\
	[(nr) - LNET_IOC_MIN_NR] = {					\
		.version = (ver), .min_len = sizeof(type),		\
		.flags = (fl), .fn = (handler),				\
	}

static const struct lnet_ioc_cmd lnet_ioc_cmds[LNET_IOC_MAX_NR -
					       LNET_IOC_MIN_NR + 1] = {
	LNET_IOC_CMD(59, LNET_IOCTL_VERSION, struct lnet_ioctl_data,
		     LNET_IOC_ADMIN | LNET_IOC_INITNET, lnet_ioc_configure),
	LNET_IOC_CMD(56, LNET_IOCTL_VERSION, struct lnet_ioctl_data,
		     LNET_IOC_ADMIN | LNET_IOC_INITNET, lnet_ioc_unconfigure),
	LNET_IOC_CMD(58, LNET_IOCTL_VERSION, struct lnet_ioctl_data,
		     LNET_IOC_RUNNING, lnet_ioc_dist),
	LNET_IOC_CMD(62, LNET_IOCTL_VERSION2, struct lnet_ioctl_ping_data,
		     LNET_IOC_ADMIN | LNET_IOC_RUNNING, lnet_ioc_ping),
	LNET_IOC_CMD(77, LNET_IOCTL_VERSION2, struct lnet_ioctl_ping_data,
		     LNET_IOC_ADMIN | LNET_IOC_RUNNING, lnet_ioc_discover),
	LNET_IOC_CMD(64, LNET_IOCTL_VERSION2, struct lnet_ioctl_fault,
		     LNET_IOC_CHANGE, lnet_ioc_fault),
	LNET_IOC_CMD(81, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_CHANGE, lnet_ioc_add_route),
	LNET_IOC_CMD(82, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_CHANGE, lnet_ioc_del_route),
	LNET_IOC_CMD(83, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_RUNNING, lnet_ioc_get_route),
	LNET_IOC_CMD(85, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_CHANGE, lnet_ioc_del_net),
	LNET_IOC_CMD(87, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_CHANGE, lnet_ioc_config_rtr),
	LNET_IOC_CMD(88, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_CHANGE, lnet_ioc_add_buf),
	LNET_IOC_CMD(89, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_data,
		     LNET_IOC_RUNNING, lnet_ioc_get_buf),
	LNET_IOC_CMD(91, LNET_IOCTL_VERSION2, struct lnet_ioctl_lnet_stats,
		     LNET_IOC_RUNNING, lnet_ioc_get_stats),
	LNET_IOC_CMD(92, LNET_IOCTL_VERSION2, struct lnet_ioctl_peer_cfg,
		     LNET_IOC_CHANGE, lnet_ioc_add_peer_ni),
	LNET_IOC_CMD(93, LNET_IOCTL_VERSION2, struct lnet_ioctl_peer_cfg,
		     LNET_IOC_CHANGE, lnet_ioc_del_peer_ni),
	LNET_IOC_CMD(94, LNET_IOCTL_VERSION2, struct lnet_ioctl_peer_ni,
		     LNET_IOC_RUNNING, lnet_ioc_get_peer_ni),
	LNET_IOC_CMD(95, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_ni,
		     LNET_IOC_CHANGE, lnet_ioc_add_ni),
	LNET_IOC_CMD(96, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_ni,
		     LNET_IOC_CHANGE, lnet_ioc_del_ni),
	LNET_IOC_CMD(97, LNET_IOCTL_VERSION2, struct lnet_ioctl_config_ni,
		     LNET_IOC_RUNNING, lnet_ioc_get_ni),
	LNET_IOC_CMD(101, LNET_IOCTL_VERSION2, struct lnet_ioctl_ni_msg_stats,
		     LNET_IOC_RUNNING, lnet_ioc_get_ni_stats),
	LNET_IOC_CMD(102, LNET_IOCTL_VERSION2, struct lnet_ioctl_set_health,
		     LNET_IOC_CHANGE, lnet_ioc_set_health),
	LNET_IOC_CMD(103, LNET_IOCTL_VERSION2, struct lnet_ioctl_ni_health,
		     LNET_IOC_RUNNING, lnet_ioc_get_ni_health),
	LNET_IOC_CMD(104, LNET_IOCTL_VERSION2, struct lnet_ioctl_recovery_list,
		     LNET_IOC_RUNNING, lnet_ioc_get_recovery_queue),
	LNET_IOC_CMD(110, LNET_IOCTL_VERSION2, struct lnet_ioctl_hdr,
		     LNET_IOC_ADMIN | LNET_IOC_RUNNING, lnet_ioc_reset_stats),
	LNET_IOC_CMD(111, LNET_IOCTL_VERSION2, struct lnet_ioctl_conns_per_peer,
		     LNET_IOC_CHANGE, lnet_ioc_set_conns_per_peer),
};

/* The core's entry for @cmd (already checked), or NULL. */
static const struct lnet_ioc_cmd *lnet_ioc_find(unsigned int cmd)
{
	const struct lnet_ioc_cmd *c =
		&lnet_ioc_cmds[_IOC_NR(cmd) - LNET_IOC_MIN_NR];

	return c->fn ? c : NULL;
}

/* The commands the core does not know go to the registered handlers. */
static int lnet_ioc_other(unsigned int cmd, struct lnet_ioctl_hdr *hdr)
{
	struct lnet_ioctl_handler *h;
	int rc = -ENOIOCTLCMD;

	down_read(&lnet_ioctl_handlers_sem);
	list_for_each_entry(h, &lnet_ioctl_handlers, list) {
		rc = h->handle(cmd, hdr);
		if (rc != -ENOIOCTLCMD)
			break;
	}
	up_read(&lnet_ioctl_handlers_sem);
	return rc == -ENOIOCTLCMD ? -EINVAL : rc;
}

/* Checks 4 and 5 of the list at the top, then the command. */
static int lnet_ioc_dispatch(const struct lnet_ioc_cmd *c,
			     struct lnet_ioc_ctx *ctx)
{
	struct lnet_ioctl_hdr *hdr = ctx->buf;
	int rc;

	if (hdr->ioc_version == LNET_IOCTL_VERSION) {
		rc = lnet_ioctl_check_data(ctx->buf, ctx->len);
		if (rc)
			return rc;
	}
	if (!c)
		return lnet_ioc_other(ctx->cmd, hdr);
	if ((c->flags & LNET_IOC_RUNNING) && !lnet_is_running())
		return -ENETDOWN;
	if (!(c->flags & LNET_IOC_CONFIG))
		return c->fn(ctx);
	mutex_lock(&lnet_config_mutex);
	rc = c->fn(ctx);
	mutex_unlock(&lnet_config_mutex);
	return rc;
}

/**
 * lnet_ioctl_user() - an ioctl on /dev/lnet (dev.c)
 * @cmd: the command
 * @uarg: its argument in user memory
 *
 * Return: 0 or -errno, after the checks listed at the top.
 */
long lnet_ioctl_user(unsigned int cmd, void __user *uarg)
{
	const struct lnet_ioc_cmd *c;
	struct lnet_ioctl_hdr hdr;
	struct lnet_ioc_ctx ctx = { .cmd = cmd, .user = true };
	int rc;

	rc = lnet_ioctl_check_cmd(cmd);
	if (rc)
		return rc;
	c = lnet_ioc_find(cmd);
	/* see "Permission" and "Network namespaces" at the top */
	if ((!c || (c->flags & LNET_IOC_ADMIN)) && !capable(CAP_NET_ADMIN))
		return -EACCES;
	if (c && (c->flags & LNET_IOC_INITNET) &&
	    !net_eq(current->nsproxy->net_ns, &init_net)) {
		pr_warn_ratelimited("%s[%d]: configuring LNet from a network namespace other than the initial one is not supported\n",
				    current->comm, task_pid_nr(current));
		return -EOPNOTSUPP;
	}
	if (copy_from_user(&hdr, uarg, sizeof(hdr)))
		return -EFAULT;
	rc = lnet_ioctl_check_hdr(&hdr, c ? c->min_len : LNET_IOCTL_MIN_LEN,
				  c ? c->version : 0);
	if (rc)
		return rc;
	ctx.len = hdr.ioc_len;
	ctx.buf = vmemdup_user(uarg, ctx.len);
	if (IS_ERR(ctx.buf))
		return PTR_ERR(ctx.buf);
	/* the caller changed the header since we checked it */
	if (memcmp(ctx.buf, &hdr, sizeof(hdr))) {
		rc = -EINVAL;
		goto out;
	}
	rc = lnet_ioc_dispatch(c, &ctx);
	if (!rc && copy_to_user(uarg, ctx.buf, ctx.len))
		rc = -EFAULT;
out:
	kvfree(ctx.buf);
	return rc;
}

/**
 * lnet_ioctl_kernel() - LNetCtl(): an ioctl command from the kernel
 * @cmd: the command
 * @arg: its argument, ioc_len bytes of kernel memory
 *
 * Return: as the ioctl (no capability check; PING_PEER refused).
 */
int lnet_ioctl_kernel(unsigned int cmd, void *arg)
{
	struct lnet_ioc_ctx ctx = { .cmd = cmd, .buf = arg, .user = false };
	const struct lnet_ioc_cmd *c;
	int rc;

	if (!arg)
		return -EINVAL;
	rc = lnet_ioctl_check_cmd(cmd);
	if (rc)
		return rc;
	c = lnet_ioc_find(cmd);
	rc = lnet_ioctl_check_hdr(arg, c ? c->min_len : LNET_IOCTL_MIN_LEN,
				  c ? c->version : 0);
	if (rc)
		return rc;
	ctx.len = ((struct lnet_ioctl_hdr *)arg)->ioc_len;
	return lnet_ioc_dispatch(c, &ctx);
}

/**
 * lnet_ioctl_register() - take the /dev/lnet commands the core does not
 * @h: the handler (see lib-lnet.h); its module must unregister it before
 *	it unloads
 *
 * Return: 0.
 */
int lnet_ioctl_register(struct lnet_ioctl_handler *h)
{
	down_write(&lnet_ioctl_handlers_sem);
	list_add_tail(&h->list, &lnet_ioctl_handlers);
	up_write(&lnet_ioctl_handlers_sem);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_ioctl_register);

/* Withdraw @h; returns once no call to it is running. */
void lnet_ioctl_unregister(struct lnet_ioctl_handler *h)
{
	down_write(&lnet_ioctl_handlers_sem);
	list_del_init(&h->list);
	up_write(&lnet_ioctl_handlers_sem);
}
EXPORT_SYMBOL_GPL(lnet_ioctl_unregister);

/* ---- the "configured" reference --------------------------------------------- */

/**
 * lnet_configure() - CONFIGURE, and config_on_load
 * @all: also bring up the networks= nets (and routes=) that are not up
 *
 * Return: 0 (also when LNet was configured already), or -errno.
 */
int lnet_configure(bool all)
{
	int rc;

	mutex_lock(&lnet_config_mutex);
	rc = lnet_ni_init_config(all, !lnet_config_held);
	if (!rc)
		lnet_config_held = true;
	mutex_unlock(&lnet_config_mutex);
	return rc;
}

/**
 * lnet_unconfigure() - UNCONFIGURE: drop the configured reference
 *
 * Return: 0; -EBUSY while others hold LNet (the reference is kept);
 * -ENETDOWN if LNet was not configured (-EBUSY if it runs for others).
 */
int lnet_unconfigure(void)
{
	int rc;

	mutex_lock(&lnet_config_mutex);
	if (!lnet_config_held) {
		rc = lnet_is_running() ? -EBUSY : -ENETDOWN;
	} else {
		rc = lnet_ni_fini_last();
		if (!rc)
			lnet_config_held = false;
	}
	mutex_unlock(&lnet_config_mutex);
	return rc;
}

/*
 * Module exit (no ioctl is running: an open /dev/lnet holds the module):
 * drop the configured reference if user space left LNet configured.
 */
void lnet_config_fini(void)
{
	mutex_lock(&lnet_config_mutex);
	if (lnet_config_held)
		LNetNIFini();
	lnet_config_held = false;
	mutex_unlock(&lnet_config_mutex);
}

