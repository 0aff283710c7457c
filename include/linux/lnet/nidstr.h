/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text forms of nets, NIDs and process ids (Documentation/wire/nid.md,
 * "Text forms"): "tcp", "o2ib2", "192.0.2.1@tcp", "0@lo",
 * "12345-192.0.2.1@tcp". Parsers are strict: trailing junk, out-of-range
 * octets and unknown network names are rejected with -EINVAL.
 */
#ifndef _LINUX_LNET_NIDSTR_H
#define _LINUX_LNET_NIDSTR_H

#include <linux/types.h>
#include <uapi/linux/lnet/lnet-nid.h>

#define LNET_NETSTR_SIZE	16

/* Name of an LND type ("tcp", "o2ib", "lo"), or NULL if not known here. */
const char *lnet_lnd_type_name(u32 lnd_type);
/* LND type for a network-name prefix ("tcp" -> LNET_LND_SOCK), or -EINVAL. */
int lnet_lnd_type_from_name(const char *name, size_t len);

/* Format into @buf (>= LNET_NETSTR_SIZE / LNET_NIDSTR_SIZE); returns @buf. */
char *lnet_net2str(u32 net, char *buf, size_t len);
char *lnet_nid2str(lnet_nid_t nid, char *buf, size_t len);
char *lnet_id2str(struct lnet_process_id id, char *buf, size_t len);

/* Parse; 0 or -EINVAL. @len-bounded so callers can parse substrings. */
int lnet_str2net(const char *str, size_t len, u32 *net);
int lnet_str2nid(const char *str, size_t len, lnet_nid_t *nid);

#endif /* _LINUX_LNET_NIDSTR_H */
