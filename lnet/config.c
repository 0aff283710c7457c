// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for the "networks" and "routes" module parameters.
 *
 * Both build their result in a private list and hand it over only when the
 * whole string is valid, so a caller never sees half a configuration. Error
 * messages name the parameter, the problem and the byte offset, because the
 * strings come from modprobe.d files where the user cannot see a caret.
 *
 * '#' comments are not supported (modprobe strips them from the files it
 * reads, and a '#' left in the value is an error here like any other junk).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/config.h>
#include <linux/lnet/nidstr.h>
#include <linux/lnet/test-export.h>

/* Bigger than any partition count; the real bound is checked at NI setup. */
#define LNET_CONFIG_CPT_MAX	U16_MAX
#define LNET_ROUTE_MAX_GWS	256	/* gateways per route entry */
#define LNET_HOPS_MAX		255

struct cfg_ctx {
	const char	*str;		/* start of the parameter, for offsets */
	const char	*param;		/* "networks" or "routes" */
	char		*err;
	size_t		errlen;
};

static __printf(3, 4)
int cfg_fail(const struct cfg_ctx *c, const char *at, const char *fmt, ...)
{
	va_list args;
	size_t n;

	if (!c->err || !c->errlen)
		return -EINVAL;
	n = scnprintf(c->err, c->errlen, "%s: ", c->param);
	va_start(args, fmt);
	n += vscnprintf(c->err + n, c->errlen - n, fmt, args);
	va_end(args);
	scnprintf(c->err + n, c->errlen - n, " at offset %td", at - c->str);
	return -EINVAL;
}

static int cfg_nomem(const struct cfg_ctx *c)
{
	if (c->err && c->errlen)
		scnprintf(c->err, c->errlen, "%s: out of memory", c->param);
	return -ENOMEM;
}

/* Characters that end a network or interface name. */
static bool cfg_is_delim(char ch)
{
	return !ch || isspace(ch) || strchr(",()[]", ch);
}

/* Decimal digits at *@pp (advanced past them), at most @max. */
static int cfg_parse_num(const char **pp, u32 max, u32 *val)
{
	const char *p = *pp;
	u64 v = 0;

	if (!isdigit(*p))
		return -EINVAL;
	while (isdigit(*p)) {
		v = v * 10 + (*p - '0');
		if (v > max)
			return -ERANGE;
		p++;
	}
	*pp = p;
	*val = v;
	return 0;
}

/* @p is at '('; on success it is left after the matching ')'. */
static int cfg_parse_ifaces(const struct cfg_ctx *c, const char **pp,
			    struct lnet_net_config *nc)
{
	const char *open = *pp;
	const char *p = open + 1;
	const char *name;
	size_t len;
	int i;

	for (;;) {
		p = skip_spaces(p);
		name = p;
		while (!cfg_is_delim(*p))
			p++;
		len = p - name;
		if (!len) {
			if (!*p)
				return cfg_fail(c, open, "unbalanced '('");
			if (*p == ',' || *p == ')')
				return cfg_fail(c, p, "empty interface name");
			return cfg_fail(c, p, "unexpected '%c' in interface list",
					*p);
		}
		if (len >= IFNAMSIZ)
			return cfg_fail(c, name,
					"interface name '%.*s' longer than %d characters",
					(int)len, name, IFNAMSIZ - 1);
		if (nc->n_ifaces == LNET_MAX_NET_IFACES)
			return cfg_fail(c, name, "more than %d interfaces",
					LNET_MAX_NET_IFACES);
		for (i = 0; i < nc->n_ifaces; i++)
			if (!strncmp(nc->ifaces[i], name, len) &&
			    !nc->ifaces[i][len])
				return cfg_fail(c, name,
						"duplicate interface '%.*s'",
						(int)len, name);
		memcpy(nc->ifaces[nc->n_ifaces], name, len);
		nc->ifaces[nc->n_ifaces][len] = '\0';
		nc->n_ifaces++;

		p = skip_spaces(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ')')
			break;
		if (!*p)
			return cfg_fail(c, open, "unbalanced '('");
		return cfg_fail(c, p, "unexpected '%c' in interface list", *p);
	}
	*pp = p + 1;
	return 0;
}

/* @p is at '['; on success it is left after the matching ']'. */
static int cfg_parse_cpts(const struct cfg_ctx *c, const char **pp,
			  struct lnet_net_config *nc)
{
	const char *open = *pp;
	const char *p = open + 1;
	const char *item;
	u32 lo, hi, v;
	int rc, i;

	for (;;) {
		p = skip_spaces(p);
		item = p;
		if (!isdigit(*p)) {
			if (!*p)
				return cfg_fail(c, open, "unbalanced '['");
			if (*p == ',' || *p == ']')
				return cfg_fail(c, p, "empty CPT");
			return cfg_fail(c, p, "CPT '%c' is not a number", *p);
		}
		rc = cfg_parse_num(&p, LNET_CONFIG_CPT_MAX, &lo);
		hi = lo;
		if (!rc && *p == '-') {
			p++;
			rc = cfg_parse_num(&p, LNET_CONFIG_CPT_MAX, &hi);
		}
		if (rc == -ERANGE)
			return cfg_fail(c, item, "CPT number larger than %u",
					LNET_CONFIG_CPT_MAX);
		if (rc)
			return cfg_fail(c, p, "CPT range without an end");
		if (hi < lo)
			return cfg_fail(c, item, "reversed CPT range %u-%u",
					lo, hi);
		for (v = lo; v <= hi; v++) {
			if (nc->n_cpts == LNET_MAX_CONFIG_CPTS)
				return cfg_fail(c, item, "more than %d CPTs",
						LNET_MAX_CONFIG_CPTS);
			for (i = 0; i < nc->n_cpts; i++)
				if (nc->cpts[i] == v)
					return cfg_fail(c, item,
							"duplicate CPT %u", v);
			nc->cpts[nc->n_cpts++] = v;
		}

		p = skip_spaces(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ']')
			break;
		if (!*p)
			return cfg_fail(c, open, "unbalanced '['");
		return cfg_fail(c, p, "unexpected '%c' in CPT list", *p);
	}
	*pp = p + 1;
	return 0;
}

/* One "net[(iface,...)][[cpt,...]]" item; @p is at its first character. */
static int cfg_parse_net(const struct cfg_ctx *c, const char **pp,
			 struct list_head *nets)
{
	struct lnet_net_config *nc;
	const char *name = *pp;
	const char *p = name;
	size_t len;
	u32 net;
	int rc;

	while (!cfg_is_delim(*p))
		p++;
	len = p - name;
	if (!len) {
		if (!*p || *p == ',')
			return cfg_fail(c, p, "empty network");
		if (*p == '(' || *p == '[')
			return cfg_fail(c, p, "missing network name before '%c'",
					*p);
		return cfg_fail(c, p, "unbalanced '%c'", *p);
	}
	if (lnet_str2net(name, len, &net) || net == LNET_NET_ANY)
		return cfg_fail(c, name, "unknown network '%.*s'",
				(int)len, name);
	if (LNET_NETTYP(net) == LNET_LND_LO)
		return cfg_fail(c, name,
				"network '%.*s' cannot be configured (it always exists)",
				(int)len, name);
	list_for_each_entry(nc, nets, list)
		if (nc->net_id == net)
			return cfg_fail(c, name, "duplicate network '%.*s'",
					(int)len, name);

	nc = kzalloc(sizeof(*nc), GFP_KERNEL);
	if (!nc)
		return cfg_nomem(c);
	nc->net_id = net;
	/* On the list at once, so the caller's unwind frees it. */
	list_add_tail(&nc->list, nets);

	p = skip_spaces(p);
	if (*p == '(') {
		rc = cfg_parse_ifaces(c, &p, nc);
		if (rc)
			return rc;
		p = skip_spaces(p);
	}
	if (*p == '[') {
		rc = cfg_parse_cpts(c, &p, nc);
		if (rc)
			return rc;
	}
	*pp = p;
	return 0;
}

int lnet_parse_networks(const char *str, struct list_head *nets,
			char *err, size_t errlen)
{
	struct cfg_ctx c = {
		.str = str, .param = "networks", .err = err, .errlen = errlen,
	};
	LIST_HEAD(found);
	const char *p;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!str)
		return 0;

	p = skip_spaces(str);
	if (!*p)
		return 0;

	for (;;) {
		rc = cfg_parse_net(&c, &p, &found);
		if (rc)
			goto fail;
		p = skip_spaces(p);
		if (!*p)
			break;
		if (*p != ',') {
			if (*p == ')' || *p == ']')
				rc = cfg_fail(&c, p, "unbalanced '%c'", *p);
			else
				rc = cfg_fail(&c, p, "unexpected '%c'", *p);
			goto fail;
		}
		p = skip_spaces(p + 1);
	}

	list_splice_tail(&found, nets);
	return 0;
fail:
	lnet_free_net_configs(&found);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_parse_networks);

void lnet_free_net_configs(struct list_head *nets)
{
	struct lnet_net_config *nc, *tmp;

	list_for_each_entry_safe(nc, tmp, nets, list) {
		list_del(&nc->list);
		kfree(nc);
	}
}
LNET_EXPORT_FOR_TEST(lnet_free_net_configs);

/* Next blank-separated token of a route entry; length 0 at ';' or end. */
static const char *cfg_next_token(const char **pp, size_t *len)
{
	const char *tok = skip_spaces(*pp);
	const char *p = tok;

	while (*p && *p != ';' && !isspace(*p))
		p++;
	*len = p - tok;
	*pp = p;
	return tok;
}

struct route_entry {
	u32		net;
	u32		hops;
	int		ngws;
};

static int cfg_add_route(const struct cfg_ctx *c, const char *tok, size_t len,
			 struct route_entry *re, lnet_nid_t gw, u32 prio,
			 struct list_head *routes)
{
	struct lnet_route_config *r;

	if (LNET_NIDNET(gw) == re->net)
		return cfg_fail(c, tok,
				"gateway '%.*s' is on the target network",
				(int)len, tok);
	if (LNET_NETTYP(LNET_NIDNET(gw)) == LNET_LND_LO)
		return cfg_fail(c, tok, "gateway '%.*s' is a loopback NID",
				(int)len, tok);
	if (++re->ngws > LNET_ROUTE_MAX_GWS)
		return cfg_fail(c, tok, "more than %d gateways in one entry",
				LNET_ROUTE_MAX_GWS);
	list_for_each_entry(r, routes, list)
		if (r->net_id == re->net && r->gateway == gw)
			return cfg_fail(c, tok, "duplicate route via '%.*s'",
					(int)len, tok);

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return cfg_nomem(c);
	r->net_id = re->net;
	r->hops = re->hops;
	r->priority = prio;
	r->gateway = gw;
	list_add_tail(&r->list, routes);
	return 0;
}

/*
 * "a.b.c.[list]@net": @lb/@rb point at the brackets. The rest of the NID is
 * checked by parsing it with 0 in place of the list, which also rejects
 * nets whose addresses are not dotted quads.
 */
static int cfg_parse_gw_range(const struct cfg_ctx *c, const char *tok,
			      size_t len, const char *lb, const char *rb,
			      u32 prio, struct route_entry *re,
			      struct list_head *routes)
{
	char nidbuf[LNET_NIDSTR_SIZE];
	const char *end = tok + len;
	const char *p, *item;
	lnet_nid_t base;
	size_t n = 0;
	int dots = 0;
	u32 lo, hi, v;
	int rc;

	for (p = tok; p < lb; p++)
		dots += *p == '.';
	if (dots != 3 || lb[-1] != '.' ||
	    (rb + 1 < end && rb[1] != '@'))
		return cfg_fail(c, lb,
				"a range is only allowed as the last octet of an IPv4 address");
	if ((lb - tok) + 1 + (end - rb - 1) >= sizeof(nidbuf))
		return cfg_fail(c, tok, "bad gateway '%.*s'", (int)len, tok);
	memcpy(nidbuf, tok, lb - tok);
	n = lb - tok;
	nidbuf[n++] = '0';
	memcpy(nidbuf + n, rb + 1, end - rb - 1);
	n += end - rb - 1;
	if (lnet_str2nid(nidbuf, n, &base))
		return cfg_fail(c, tok, "bad gateway '%.*s'", (int)len, tok);

	p = lb + 1;
	for (;;) {
		item = p;
		rc = cfg_parse_num(&p, 255, &lo);
		hi = lo;
		if (!rc && *p == '-') {
			p++;
			rc = cfg_parse_num(&p, 255, &hi);
		}
		if (rc || hi < lo)
			return cfg_fail(c, item, "bad octet range in gateway '%.*s'",
					(int)len, tok);
		for (v = lo; v <= hi; v++) {
			rc = cfg_add_route(c, tok, len, re, base | v, prio,
					   routes);
			if (rc)
				return rc;
		}
		if (p == rb)
			return 0;
		if (*p != ',')
			return cfg_fail(c, p, "bad octet range in gateway '%.*s'",
					(int)len, tok);
		p++;
	}
}

/* "nid[:prio]", where the last octet of an IPv4 nid may be "[list]". */
static int cfg_parse_gateway(const struct cfg_ctx *c, const char *tok,
			     size_t len, struct route_entry *re,
			     struct list_head *routes)
{
	const char *lb = NULL, *rb = NULL;
	const char *p, *colon = NULL;
	size_t nidlen = len;
	lnet_nid_t gw;
	u32 prio = 0;

	for (p = tok; p < tok + len; p++) {
		if (*p == ':')
			colon = p;
		if (*p == '[' || *p == ']') {
			if ((*p == '[' && lb) || (*p == ']' && (!lb || rb)))
				return cfg_fail(c, p, "unbalanced '%c'", *p);
			if (*p == '[')
				lb = p;
			else
				rb = p;
		}
	}
	if (lb && !rb)
		return cfg_fail(c, lb, "unbalanced '['");

	if (colon) {
		p = colon + 1;
		if (cfg_parse_num(&p, U32_MAX, &prio) || p != tok + len)
			return cfg_fail(c, colon + 1, "bad priority '%.*s'",
					(int)(tok + len - colon - 1), colon + 1);
		nidlen = colon - tok;
		if (rb && rb > colon)
			return cfg_fail(c, rb, "unbalanced ']'");
	}

	if (lb)
		return cfg_parse_gw_range(c, tok, nidlen, lb, rb, prio, re,
					  routes);

	if (lnet_str2nid(tok, nidlen, &gw) || gw == LNET_NID_ANY)
		return cfg_fail(c, tok, "bad gateway '%.*s'", (int)nidlen, tok);
	return cfg_add_route(c, tok, nidlen, re, gw, prio, routes);
}

/* One "net [hops] gw[:prio] [gw[:prio]...]" entry, up to ';' or the end. */
static int cfg_parse_route(const struct cfg_ctx *c, const char **pp,
			   struct list_head *routes)
{
	struct route_entry re = { };
	const char *tok, *p;
	size_t len;
	int rc;

	tok = cfg_next_token(pp, &len);
	if (!len)
		return 0;	/* blank entry, e.g. after a trailing ';' */
	if (lnet_str2net(tok, len, &re.net) || re.net == LNET_NET_ANY)
		return cfg_fail(c, tok, "unknown network '%.*s'", (int)len, tok);
	if (LNET_NETTYP(re.net) == LNET_LND_LO)
		return cfg_fail(c, tok, "cannot route to network '%.*s'",
				(int)len, tok);

	tok = cfg_next_token(pp, &len);
	for (p = tok; p < tok + len && isdigit(*p); p++)
		;
	/* A gateway is never all digits, so a number here is a hop count. */
	if (len && p == tok + len) {
		p = tok;
		if (cfg_parse_num(&p, LNET_HOPS_MAX, &re.hops) || !re.hops)
			return cfg_fail(c, tok, "hop count '%.*s' not in 1..%d",
					(int)len, tok, LNET_HOPS_MAX);
		tok = cfg_next_token(pp, &len);
	}

	if (!len)
		return cfg_fail(c, tok, "no gateway");
	while (len) {
		rc = cfg_parse_gateway(c, tok, len, &re, routes);
		if (rc)
			return rc;
		tok = cfg_next_token(pp, &len);
	}
	return 0;
}

int lnet_parse_routes(const char *str, struct list_head *routes,
		      char *err, size_t errlen)
{
	struct cfg_ctx c = {
		.str = str, .param = "routes", .err = err, .errlen = errlen,
	};
	LIST_HEAD(found);
	const char *p = str;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!str)
		return 0;

	while (*p) {
		rc = cfg_parse_route(&c, &p, &found);
		if (rc)
			goto fail;
		/* cfg_parse_route() stops only at ';' or the end. */
		if (*p == ';')
			p++;
	}

	list_splice_tail(&found, routes);
	return 0;
fail:
	lnet_free_route_configs(&found);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_parse_routes);

void lnet_free_route_configs(struct list_head *routes)
{
	struct lnet_route_config *r, *tmp;

	list_for_each_entry_safe(r, tmp, routes, list) {
		list_del(&r->list);
		kfree(r);
	}
}
LNET_EXPORT_FOR_TEST(lnet_free_route_configs);
