// SPDX-License-Identifier: GPL-2.0
/*
 * Text forms of LNet nets, NIDs and process ids.
 *
 * Every LND type that has a protocol name is known here, not only the ones
 * this tree implements, so that log lines and debugfs show a peer's NID the
 * same way every other LNet node prints it.
 *
 * Parsing is strict because the strings come from module parameters and
 * ioctls: a lenient parser (sscanf-style skipping of blanks, signs, trailing
 * text) would turn a typo into a valid but wrong address.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/lnet/nidstr.h>

enum lnet_addr_syntax {
	LNET_ADDR_IPV4,		/* dotted quad */
	LNET_ADDR_NUM,		/* u32, decimal or 0x hex on input */
	LNET_ADDR_LO,		/* digits, always address 0 */
};

struct lnet_lnd_desc {
	u32			type;
	const char		*name;
	enum lnet_addr_syntax	syntax;
};

/* No name is a prefix of another name followed by digits. */
static const struct lnet_lnd_desc lnet_lnds[] = {
	{ LNET_LND_SOCK,	"tcp",		LNET_ADDR_IPV4 },
	{ LNET_LND_O2IB,	"o2ib",		LNET_ADDR_IPV4 },
	{ LNET_LND_LO,		"lo",		LNET_ADDR_LO },
	{ LNET_LND_GNI,		"gni",		LNET_ADDR_NUM },
	{ LNET_LND_GNIIP,	"gip",		LNET_ADDR_IPV4 },
	{ LNET_LND_PTL4,	"ptlf",		LNET_ADDR_NUM },
	{ LNET_LND_KFI,		"kfi",		LNET_ADDR_NUM },
	{ LNET_LND_EFA,		"efa",		LNET_ADDR_IPV4 },
	{ LNET_LND_BXI3,	"bxi3f",	LNET_ADDR_NUM },
};

static const char lnet_any_str[] = "<?>";

static const struct lnet_lnd_desc *lnet_lnd_by_type(u32 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lnet_lnds); i++)
		if (lnet_lnds[i].type == type)
			return &lnet_lnds[i];
	return NULL;
}

/* A net id whose top byte is set is malformed (or LNET_NET_ANY). */
static const struct lnet_lnd_desc *lnet_lnd_of_net(u32 net)
{
	if (net >> 24)
		return NULL;
	return lnet_lnd_by_type(LNET_NETTYP(net));
}

static bool lnet_is_any(const char *str, size_t len)
{
	return len == sizeof(lnet_any_str) - 1 &&
	       !memcmp(str, lnet_any_str, len);
}

/* All of @s[0..len) as unsigned decimal, at most @max. */
static int lnet_parse_dec(const char *s, size_t len, u32 max, u32 *val)
{
	u64 v = 0;
	size_t i;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit(s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -EINVAL;
	}
	*val = v;
	return 0;
}

static int lnet_parse_hex(const char *s, size_t len, u32 *val)
{
	u64 v = 0;
	size_t i;
	int d;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		d = hex_to_bin(s[i]);
		if (d < 0)
			return -EINVAL;
		v = (v << 4) | d;
		if (v > U32_MAX)
			return -EINVAL;
	}
	*val = v;
	return 0;
}

static int lnet_parse_ipv4(const char *s, size_t len, u32 *addr)
{
	size_t start = 0, i;
	u32 a = 0, octet;
	int n = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (n == 4 || lnet_parse_dec(s + start, i - start, 255, &octet))
			return -EINVAL;
		a = (a << 8) | octet;
		n++;
		start = i + 1;
	}
	if (n != 4)
		return -EINVAL;
	*addr = a;
	return 0;
}

static int lnet_parse_addr(const struct lnet_lnd_desc *lnd, const char *s,
			   size_t len, u32 *addr)
{
	size_t i;

	switch (lnd->syntax) {
	case LNET_ADDR_IPV4:
		return lnet_parse_ipv4(s, len, addr);
	case LNET_ADDR_NUM:
		if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			return lnet_parse_hex(s + 2, len - 2, addr);
		return lnet_parse_dec(s, len, U32_MAX, addr);
	case LNET_ADDR_LO:
		/* The number carries no meaning, only its syntax is checked. */
		if (!len)
			return -EINVAL;
		for (i = 0; i < len; i++)
			if (!isdigit(s[i]))
				return -EINVAL;
		*addr = 0;
		return 0;
	}
	return -EINVAL;
}

const char *lnet_lnd_type_name(u32 lnd_type)
{
	const struct lnet_lnd_desc *lnd = lnet_lnd_by_type(lnd_type);

	return lnd ? lnd->name : NULL;
}
EXPORT_SYMBOL_GPL(lnet_lnd_type_name);

int lnet_lnd_type_from_name(const char *name, size_t len)
{
	unsigned int i;

	len = strnlen(name, len);
	for (i = 0; i < ARRAY_SIZE(lnet_lnds); i++)
		if (strlen(lnet_lnds[i].name) == len &&
		    !memcmp(lnet_lnds[i].name, name, len))
			return lnet_lnds[i].type;
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(lnet_lnd_type_from_name);

char *lnet_net2str(u32 net, char *buf, size_t len)
{
	const struct lnet_lnd_desc *lnd = lnet_lnd_of_net(net);

	if (net == LNET_NET_ANY)
		scnprintf(buf, len, "%s", lnet_any_str);
	else if (!lnd)
		scnprintf(buf, len, "<%u:%u>", net >> 16, LNET_NETNUM(net));
	else if (!LNET_NETNUM(net))
		scnprintf(buf, len, "%s", lnd->name);
	else
		scnprintf(buf, len, "%s%u", lnd->name, LNET_NETNUM(net));
	return buf;
}
EXPORT_SYMBOL_GPL(lnet_net2str);

char *lnet_nid2str(lnet_nid_t nid, char *buf, size_t len)
{
	u32 net = LNET_NIDNET(nid);
	u32 addr = LNET_NIDADDR(nid);
	const struct lnet_lnd_desc *lnd = lnet_lnd_of_net(net);
	char netstr[LNET_NETSTR_SIZE];

	if (nid == LNET_NID_ANY) {
		scnprintf(buf, len, "%s", lnet_any_str);
		return buf;
	}

	lnet_net2str(net, netstr, sizeof(netstr));
	if (!lnd)
		scnprintf(buf, len, "%x@%s", addr, netstr);
	else if (lnd->syntax == LNET_ADDR_IPV4)
		scnprintf(buf, len, "%u.%u.%u.%u@%s", addr >> 24,
			  (addr >> 16) & 0xff, (addr >> 8) & 0xff, addr & 0xff,
			  netstr);
	else
		scnprintf(buf, len, "%u@%s", addr, netstr);
	return buf;
}
EXPORT_SYMBOL_GPL(lnet_nid2str);

char *lnet_id2str(struct lnet_process_id id, char *buf, size_t len)
{
	char nidstr[LNET_NIDSTR_SIZE];

	lnet_nid2str(id.nid, nidstr, sizeof(nidstr));
	if (id.pid == LNET_PID_ANY)
		scnprintf(buf, len, "LNET_PID_ANY-%s", nidstr);
	else if (id.pid & LNET_PID_USERFLAG)
		scnprintf(buf, len, "U%u-%s", id.pid & ~LNET_PID_USERFLAG,
			  nidstr);
	else
		scnprintf(buf, len, "%u-%s", id.pid, nidstr);
	return buf;
}
EXPORT_SYMBOL_GPL(lnet_id2str);

int lnet_str2net(const char *str, size_t len, u32 *net)
{
	const struct lnet_lnd_desc *lnd;
	size_t nlen;
	u32 num;
	unsigned int i;

	len = strnlen(str, len);
	if (lnet_is_any(str, len)) {
		*net = LNET_NET_ANY;
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(lnet_lnds); i++) {
		lnd = &lnet_lnds[i];
		nlen = strlen(lnd->name);
		if (len < nlen || memcmp(str, lnd->name, nlen))
			continue;
		if (len == nlen) {
			num = 0;
		} else if (lnd->syntax == LNET_ADDR_LO) {
			/* There is only one loopback net. */
			return -EINVAL;
		} else if (lnet_parse_dec(str + nlen, len - nlen, 0xffff,
					  &num)) {
			return -EINVAL;
		}
		*net = LNET_MKNET(lnd->type, num);
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(lnet_str2net);

int lnet_str2nid(const char *str, size_t len, lnet_nid_t *nid)
{
	const struct lnet_lnd_desc *lnd;
	const char *at;
	size_t alen;
	u32 net, addr;

	len = strnlen(str, len);
	if (lnet_is_any(str, len)) {
		*nid = LNET_NID_ANY;
		return 0;
	}

	at = memchr(str, '@', len);
	if (at) {
		alen = at - str;
		if (lnet_str2net(at + 1, len - alen - 1, &net) ||
		    net == LNET_NET_ANY)
			return -EINVAL;
	} else {
		alen = len;
		net = LNET_MKNET(LNET_LND_SOCK, 0);
	}

	lnd = lnet_lnd_of_net(net);
	if (!lnd || lnet_parse_addr(lnd, str, alen, &addr))
		return -EINVAL;
	*nid = LNET_MKNID(net, addr);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_str2nid);
