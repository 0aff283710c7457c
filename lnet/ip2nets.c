// SPDX-License-Identifier: GPL-2.0
/*
 * ip2nets: the networks this node joins, chosen by rules on its IPv4
 * addresses (ADD_LOCAL_NI with a rule string instead of a NID).
 *
 * lnet_ip2nets_select() is pure: the KUnit suite lnet_ioctl hands it
 * made-up interfaces. lnet_ip2nets_local() applies it to this node's
 * interfaces as lnet_ipif_list() (ipif.c) sees them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

/*
 * "net[(iface[,iface...])] pattern [pattern...][; rule...]": a rule applies
 * when any IPv4 address of this node's interfaces matches one of its
 * patterns; it brings its network up on the interfaces it names, or (none
 * named) on the interfaces whose address matched. The first rule that
 * applies for a network wins. A pattern is four dot-separated octets, each
 * "*", "n", "n-m", "n-m/stride" or a bracketed list of those
 * ("[1,5-7,10-20/2]"); a stride keeps lo, lo + stride, ... up to m.
 */

static const char *lnet_i2n_skip(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
}

static int lnet_i2n_num(const char **pp, u32 *v)
{
	const char *p = *pp;
	u32 n = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > 255)
			return -EINVAL;
	}
	*pp = p;
	*v = n;
	return 0;
}

/* One "n", "n-m" or "n-m/stride" at *@pp: does @octet fall in it? */
static int lnet_i2n_range(const char **pp, u32 octet, bool *hit)
{
	u32 lo, hi, stride = 1;

	if (lnet_i2n_num(pp, &lo))
		return -EINVAL;
	hi = lo;
	if (**pp == '-') {
		(*pp)++;
		if (lnet_i2n_num(pp, &hi) || hi < lo)
			return -EINVAL;
		if (**pp == '/') {
			(*pp)++;
			if (lnet_i2n_num(pp, &stride) || !stride)
				return -EINVAL;
		}
	}
	*hit |= octet >= lo && octet <= hi && (octet - lo) % stride == 0;
	return 0;
}

/* A pattern at *@pp (moved past it): 1 if @addr matches, 0 if not. */
static int lnet_i2n_pattern(const char **pp, u32 addr)
{
	const char *p = *pp;
	bool all = true;
	int i;

	for (i = 0; i < 4; i++) {
		u32 octet = (addr >> (24 - 8 * i)) & 0xff;
		bool hit = false;

		if (i && *p++ != '.')
			return -EINVAL;
		if (*p == '*') {
			hit = true;
			p++;
		} else if (*p == '[') {
			do {
				p++;
				if (lnet_i2n_range(&p, octet, &hit))
					return -EINVAL;
			} while (*p == ',');
			if (*p++ != ']')
				return -EINVAL;
		} else if (lnet_i2n_range(&p, octet, &hit)) {
			return -EINVAL;
		}
		all &= hit;
	}
	if (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != ';')
		return -EINVAL;
	*pp = p;
	return all;
}

static bool lnet_i2n_have(const struct lnet_ip2nets_ni *sel, int n, u32 net,
			  const char *ifname)
{
	int i;

	for (i = 0; i < n; i++)
		if (sel[i].net == net && (!ifname || !strcmp(sel[i].ifname, ifname)))
			return true;
	return false;
}

/**
 * lnet_ip2nets_select() - the NIs that ip2nets rules ask for on this node
 * @rules: the rules (NUL-terminated)
 * @ifs: this node's interfaces and their IPv4 addresses (host order)
 * @nifs: entries in @ifs
 * @sel: filled with the (network, interface) pairs chosen, in rule order
 * @max: room in @sel
 *
 * Pure: the caller supplies the interfaces.
 *
 * Return: the number of pairs in @sel (0: no rule applies), or -EINVAL for
 * a malformed rule, -E2BIG if @sel is too small.
 */
int lnet_ip2nets_select(const char *rules, const struct lnet_ipif *ifs,
			int nifs, struct lnet_ip2nets_ni *sel, int max)
{
	char names[LNET_MAX_NET_IFACES][IFNAMSIZ];
	bool matched[LNET_IP2NETS_MAX_IFS];
	const char *p = rules, *tok;
	int nsel = 0, nnames, i, rc;
	bool any;
	u32 net;

	if (nifs > LNET_IP2NETS_MAX_IFS)
		return -EINVAL;
	for (;;) {
		p = lnet_i2n_skip(p);
		if (!*p)
			break;
		if (*p == ';') {
			p++;
			continue;
		}
		tok = p;
		while (*p && *p != '(' && *p != ' ' && *p != '\t' &&
		       *p != '\n' && *p != ';')
			p++;
		if (lnet_str2net(tok, p - tok, &net) || net == LNET_NET_ANY ||
		    LNET_NETTYP(net) == LNET_LND_LO)
			return -EINVAL;
		nnames = 0;
		if (*p == '(') {
			do {
				p = lnet_i2n_skip(p + 1);
				tok = p;
				while (*p && *p != ',' && *p != ')' &&
				       *p != ' ' && *p != ';')
					p++;
				if (p == tok || p - tok >= IFNAMSIZ ||
				    nnames == LNET_MAX_NET_IFACES)
					return -EINVAL;
				memcpy(names[nnames], tok, p - tok);
				names[nnames++][p - tok] = '\0';
				p = lnet_i2n_skip(p);
			} while (*p == ',');
			if (*p++ != ')')
				return -EINVAL;
		}
		memset(matched, 0, sizeof(matched));
		any = false;
		p = lnet_i2n_skip(p);
		if (!*p || *p == ';')
			return -EINVAL;		/* a rule needs a pattern */
		while (*p && *p != ';') {
			tok = p;
			for (i = 0; i < nifs; i++) {
				p = tok;
				rc = lnet_i2n_pattern(&p, ifs[i].addr);
				if (rc < 0)
					return rc;
				matched[i] |= rc;
				any |= rc;
			}
			if (!nifs) {	/* still check the syntax */
				rc = lnet_i2n_pattern(&p, 0);
				if (rc < 0)
					return rc;
			}
			p = lnet_i2n_skip(p);
		}
		if (!any || lnet_i2n_have(sel, nsel, net, NULL))
			continue;
		for (i = 0; i < (nnames ? nnames : nifs); i++) {
			const char *ifname = nnames ? names[i] : ifs[i].name;

			if ((!nnames && !matched[i]) ||
			    lnet_i2n_have(sel, nsel, net, ifname))
				continue;
			if (nsel == max)
				return -E2BIG;
			sel[nsel].net = net;
			strscpy(sel[nsel].ifname, ifname, IFNAMSIZ);
			nsel++;
		}
	}
	return nsel;
}
LNET_EXPORT_FOR_TEST(lnet_ip2nets_select);

/**
 * lnet_ip2nets_local() - the NIs that ip2nets rules ask for on this node
 * @rules: the rules (NUL-terminated)
 * @sel: filled as by lnet_ip2nets_select()
 * @max: room in @sel
 *
 * Context: process context; takes the RTNL lock.
 *
 * Return: as lnet_ip2nets_select(), or -ENOMEM.
 */
int lnet_ip2nets_local(const char *rules, struct lnet_ip2nets_ni *sel,
		       int max)
{
	struct lnet_ipif *ifs;
	int nifs, rc;

	ifs = kcalloc(LNET_IP2NETS_MAX_IFS, sizeof(*ifs), GFP_KERNEL);
	if (!ifs)
		return -ENOMEM;
	nifs = lnet_ipif_list(ifs, LNET_IP2NETS_MAX_IFS);
	rc = lnet_ip2nets_select(rules, ifs, nifs, sel, max);
	kfree(ifs);
	return rc;
}
