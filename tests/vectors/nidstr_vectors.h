/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Net, NID and process-id text form vectors (Documentation/wire/nid.md,
 * "Worked examples" and "Text forms"), one table for both implementations: the kernel's
 * (lnet/nidstr.c, KUnit suite lnet/tests/nidstr_test.c) and libnid's
 * (tools/libnid, GoogleTest suite tools/libnid/tests/nid_test.cpp).
 *
 * Plain C, read by C and C++ alike: every member is initialized, no
 * designated initializers. The includer provides the UAPI lnet-nid.h
 * (__u32, lnet_nid_t, lnet_pid_t, LNET_MKNET() and friends) first.
 * Rejected strings fail with -EINVAL in the kernel, nullopt in libnid.
 */
#ifndef LNET_TESTS_NIDSTR_VECTORS_H
#define LNET_TESTS_NIDSTR_VECTORS_H

#include "vector_nets.h"

/* "Worked examples": both directions, and the wire bytes. */
struct nidstr_example_vector {
	const char	*str;
	__u32		net;
	lnet_nid_t	nid;
	__u8		le[8];
};

static const struct nidstr_example_vector nidstr_example_vectors[] = {
	{ "192.0.2.1@tcp", 0x00020000, 0x00020000C0000201ULL,
	  { 0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00 } },
	{ "192.0.2.1@tcp1", 0x00020001, 0x00020001C0000201ULL,
	  { 0x01, 0x02, 0x00, 0xC0, 0x01, 0x00, 0x02, 0x00 } },
	{ "10.0.0.1@o2ib2", 0x00050002, 0x000500020A000001ULL,
	  { 0x01, 0x00, 0x00, 0x0A, 0x02, 0x00, 0x05, 0x00 } },
	{ "0@lo", 0x00090000, 0x0009000000000000ULL,
	  { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00 } },
	{ "17@gni", 0x000D0000, 0x000D000000000011ULL,
	  { 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0D, 0x00 } },
};

struct nidstr_net_vector {
	const char	*str;
	__u32		net;
};

/* "Text forms", "Nets"; every entry is canonical, so both directions. */
static const struct nidstr_net_vector nidstr_net_vectors[] = {
	{ "tcp", VEC_TCP(0) },
	{ "tcp1", VEC_TCP(1) },
	{ "tcp65535", VEC_TCP(65535) },
	{ "o2ib", VEC_O2IB(0) },
	{ "o2ib2", VEC_O2IB(2) },
	{ "lo", LNET_MKNET(LNET_LND_LO, 0) },
	{ "gni3", LNET_MKNET(13, 3) },
	{ "gip", LNET_MKNET(14, 0) },
	{ "ptlf1", LNET_MKNET(15, 1) },
	{ "kfi", LNET_MKNET(16, 0) },
	{ "efa7", LNET_MKNET(18, 7) },
	{ "bxi3f", LNET_MKNET(19, 0) },
};

/* Accepted but not canonical: they parse to the given value. */
static const struct nidstr_net_vector nidstr_net_alias_vectors[] = {
	{ "tcp0", VEC_TCP(0) },
	{ "o2ib0", VEC_O2IB(0) },
	{ "tcp007", VEC_TCP(7) },
};

static const char * const nidstr_bad_net_vectors[] = {
	"", "t", "tc", "tcpx", "tcp-1", "tcp+1", "tcp 1", " tcp", "tcp ",
	"tcp65536", "tcp4294967296", "tcp99999999999999999999", "TCP", "Tcp",
	"tccp0", "o2ib0x1", "lo0", "lo1", "loo", "<17:0>", "17", "tcp1.",
	"tcp\t", "@tcp",
};

struct nidstr_nid_vector {
	const char	*str;
	lnet_nid_t	nid;
};

/* NIDs in canonical form: parse then format gives the string back. */
static const struct nidstr_nid_vector nidstr_nid_vectors[] = {
	{ "0.0.0.0@tcp", LNET_MKNID(VEC_TCP(0), 0) },
	{ "255.255.255.255@tcp", LNET_MKNID(VEC_TCP(0), 0xffffffff) },
	{ "10.1.2.3@tcp65535", LNET_MKNID(VEC_TCP(65535), 0x0a010203) },
	{ "192.168.1.2@o2ib", LNET_MKNID(VEC_O2IB(0), 0xc0a80102) },
	{ "4294967295@gni", LNET_MKNID(LNET_MKNET(13, 0), 0xffffffff) },
	{ "0@kfi2", LNET_MKNID(LNET_MKNET(16, 2), 0) },
	{ "1.2.3.4@efa", LNET_MKNID(LNET_MKNET(18, 0), 0x01020304) },
	{ "<?>", LNET_NID_ANY },
};

/* Accepted on input, printed differently. */
static const struct nidstr_nid_vector nidstr_nid_alias_vectors[] = {
	{ "192.0.2.1", LNET_MKNID(VEC_TCP(0), 0xc0000201) },
	{ "192.0.2.1@tcp0", LNET_MKNID(VEC_TCP(0), 0xc0000201) },
	{ "010.001.000.009@tcp", LNET_MKNID(VEC_TCP(0), 0x0a010009) },
	{ "0x11@gni", LNET_MKNID(LNET_MKNET(13, 0), 17) },
	{ "0X1f@gni", LNET_MKNID(LNET_MKNET(13, 0), 31) },
	{ "0xFFFFFFFF@ptlf", LNET_MKNID(LNET_MKNET(15, 0), 0xffffffff) },
	{ "00017@gni", LNET_MKNID(LNET_MKNET(13, 0), 17) },
	{ "7@lo", LNET_NID_LO_0 },
	{ "00@lo", LNET_NID_LO_0 },
	{ "99999999999999999999@lo", LNET_NID_LO_0 },
};

static const char * const nidstr_bad_nid_vectors[] = {
	/* IPv4 syntax */
	"", "@tcp", "1.2.3@tcp", "1.2.3.4.5@tcp", "1.2.3.@tcp", ".1.2.3@tcp",
	"1..2.3@tcp", "256.0.0.1@tcp", "1.2.3.256@tcp", "1.2.3.4444@tcp",
	"-1.2.3.4@tcp", "+1.2.3.4@tcp", "1.+2.3.4@tcp", "1.2.3.-4@tcp",
	" 1.2.3.4@tcp", "1.2.3.4 @tcp", "1.2.3.4@ tcp", "1.2.3.4@tcp ",
	"1.2.3.4x@tcp", "0x1.2.3.4@tcp", "1.2.3.4\n", "a.b.c.d@tcp",
	"localhost@tcp", "1.2.3.4@", "1.2.3.4@@tcp",
	"1.2.3.4@tcp@tcp", "99999999999.1.2.3@tcp", "1.2.3.4@o2ib@",
	/* without @net: tcp with IPv4 */
	"17", "1.2.3", "<?", "<?>@tcp",
	/* nets */
	"1.2.3.4@tcp65536", "1.2.3.4@tccp", "1.2.3.4@TCP", "1.2.3.4@<?>",
	"1.2.3.4@<17:0>", "11@<17:0>", "0@lo1", "0@lo0",
	/* lo and numeric addresses */
	"@lo", "x@lo", "-0@lo", "0x0@lo", " 0@lo", "1.2.3.4@lo",
	"4294967296@gni", "0x100000000@gni", "0x@gni", "0xg@gni", "-1@gni",
	"+1@gni", "1.2.3.4@gni", "@gni", "17 @gni",
};

/* Process ids in canonical form. */
struct nidstr_id_vector {
	lnet_pid_t	pid;
	lnet_nid_t	nid;
	const char	*str;
};

static const struct nidstr_id_vector nidstr_id_vectors[] = {
	{ 12345, 0x00020000C0000201ULL, "12345-192.0.2.1@tcp" },
	{ 0, LNET_NID_LO_0, "0-0@lo" },
	{ LNET_PID_USERFLAG | 1023, 0x00020000C0000207ULL,
	  "U1023-192.0.2.7@tcp" },
	{ LNET_PID_USERFLAG, 0x000500020A000001ULL, "U0-10.0.0.1@o2ib2" },
	{ 0x7fffffff, 0x00020000C0000201ULL,
	  "2147483647-192.0.2.1@tcp" },
	{ LNET_PID_ANY, 0x00020000C0000201ULL,
	  "LNET_PID_ANY-192.0.2.1@tcp" },
	{ LNET_PID_ANY, LNET_NID_ANY, "LNET_PID_ANY-<?>" },
	{ 0xfffffffe, 0x00020000C0000201ULL,
	  "U2147483646-192.0.2.1@tcp" },
};

#endif /* LNET_TESTS_NIDSTR_VECTORS_H */
