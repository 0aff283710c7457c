// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the net/NID/process-id text forms (lnet/nidstr.c).
 * Expected values come from Documentation/wire/nid.md ("Worked examples",
 * "Text forms").
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/lnet/nidstr.h>

#include "nidstr_vectors.h"


/* Quoted, with blanks and controls escaped: KTAP lines must stay whole. */
static void str_desc(const char *s, char *desc)
{
	size_t n;

	n = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"");
	for (; *s; s++) {
		if (isgraph(*s) && *s != '"' && *s != '#' && *s != '\\')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "%c",
				       *s);
		else
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
				       "\\x%02x", (unsigned char)*s);
	}
	scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\"");
}

/* Documentation/wire/nid.md, "Worked examples": both directions must agree exactly. */
static void nid_example_desc(const struct nidstr_example_vector *e,
			     char *desc)
{
	str_desc(e->str, desc);
}

KUNIT_ARRAY_PARAM(nid_example, nidstr_example_vectors, nid_example_desc);

static void nidstr_example_parse(struct kunit *test)
{
	const struct nidstr_example_vector *e = test->param_value;
	lnet_nid_t nid = 0;
	__le64 wire;

	KUNIT_ASSERT_EQ(test, lnet_str2nid(e->str, strlen(e->str), &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, e->nid);
	KUNIT_EXPECT_EQ(test, LNET_NIDNET(nid), e->net);
	wire = cpu_to_le64(nid);
	KUNIT_EXPECT_EQ(test, memcmp(&wire, e->le, sizeof(wire)), 0);
}

static void nidstr_example_format(struct kunit *test)
{
	const struct nidstr_example_vector *e = test->param_value;
	char buf[LNET_NIDSTR_SIZE];

	KUNIT_EXPECT_STREQ(test, lnet_nid2str(e->nid, buf, sizeof(buf)),
			   e->str);
}

/* Documentation/wire/nid.md, "Nets": canonical, so both directions. */
static void net_case_desc(const struct nidstr_net_vector *c, char *desc)
{
	str_desc(c->str, desc);
}

KUNIT_ARRAY_PARAM(net_case, nidstr_net_vectors, net_case_desc);

static void nidstr_net_both_ways(struct kunit *test)
{
	const struct nidstr_net_vector *c = test->param_value;
	char buf[LNET_NETSTR_SIZE];
	u32 net = 0;

	KUNIT_EXPECT_EQ(test, lnet_str2net(c->str, strlen(c->str), &net), 0);
	KUNIT_EXPECT_EQ(test, net, c->net);
	KUNIT_EXPECT_STREQ(test, lnet_net2str(c->net, buf, sizeof(buf)),
			   c->str);
}

KUNIT_ARRAY_PARAM(net_alias, nidstr_net_alias_vectors, net_case_desc);

static void nidstr_net_aliases(struct kunit *test)
{
	const struct nidstr_net_vector *c = test->param_value;
	u32 net = 0;

	KUNIT_EXPECT_EQ(test, lnet_str2net(c->str, strlen(c->str), &net), 0);
	KUNIT_EXPECT_EQ(test, net, c->net);
}

static void bad_str_desc(const char * const *s, char *desc)
{
	str_desc(*s, desc);
}

KUNIT_ARRAY_PARAM(bad_net, nidstr_bad_net_vectors, bad_str_desc);

static void nidstr_net_rejects(struct kunit *test)
{
	const char * const *s = test->param_value;
	u32 net = 0x12345678;

	KUNIT_EXPECT_EQ(test, lnet_str2net(*s, strlen(*s), &net), -EINVAL);
	KUNIT_EXPECT_EQ(test, net, 0x12345678U);
}

static void nidstr_net_unknown_type(struct kunit *test)
{
	char buf[LNET_NETSTR_SIZE];

	KUNIT_EXPECT_STREQ(test, lnet_net2str(LNET_MKNET(17, 0), buf,
					      sizeof(buf)), "<17:0>");
	KUNIT_EXPECT_STREQ(test, lnet_net2str(LNET_MKNET(1, 65535), buf,
					      sizeof(buf)), "<1:65535>");
	KUNIT_EXPECT_STREQ(test, lnet_net2str(LNET_MKNET(255, 3), buf,
					      sizeof(buf)), "<255:3>");
	/* A set top byte is not a valid net: never shown as a known name. */
	KUNIT_EXPECT_STREQ(test, lnet_net2str(0x01020003, buf, sizeof(buf)),
			   "<258:3>");
	KUNIT_EXPECT_STREQ(test, lnet_net2str(LNET_NET_ANY, buf, sizeof(buf)),
			   "<?>");
}

/* NIDs in canonical form: parse then format gives the string back. */
static void nid_case_desc(const struct nidstr_nid_vector *c, char *desc)
{
	str_desc(c->str, desc);
}

KUNIT_ARRAY_PARAM(nid_case, nidstr_nid_vectors, nid_case_desc);

static void nidstr_nid_both_ways(struct kunit *test)
{
	const struct nidstr_nid_vector *c = test->param_value;
	char buf[LNET_NIDSTR_SIZE];
	lnet_nid_t nid = 0;

	KUNIT_EXPECT_EQ(test, lnet_str2nid(c->str, strlen(c->str), &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, c->nid);
	KUNIT_EXPECT_STREQ(test, lnet_nid2str(c->nid, buf, sizeof(buf)),
			   c->str);
}

KUNIT_ARRAY_PARAM(nid_alias, nidstr_nid_alias_vectors, nid_case_desc);

static void nidstr_nid_aliases(struct kunit *test)
{
	const struct nidstr_nid_vector *c = test->param_value;
	lnet_nid_t nid = 0;

	KUNIT_EXPECT_EQ(test, lnet_str2nid(c->str, strlen(c->str), &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, c->nid);
}

KUNIT_ARRAY_PARAM(bad_nid, nidstr_bad_nid_vectors, bad_str_desc);

static void nidstr_nid_rejects(struct kunit *test)
{
	const char * const *s = test->param_value;
	lnet_nid_t nid = 0x1234;

	KUNIT_EXPECT_EQ(test, lnet_str2nid(*s, strlen(*s), &nid), -EINVAL);
	KUNIT_EXPECT_EQ(test, nid, 0x1234ULL);
}

static void nidstr_nid_unknown_type(struct kunit *test)
{
	char buf[LNET_NIDSTR_SIZE];

	KUNIT_EXPECT_STREQ(test,
			   lnet_nid2str(LNET_MKNID(LNET_MKNET(17, 0), 17),
					buf, sizeof(buf)), "11@<17:0>");
	KUNIT_EXPECT_STREQ(test,
			   lnet_nid2str(LNET_MKNID(LNET_MKNET(200, 9),
						   0xc0000201),
					buf, sizeof(buf)), "c0000201@<200:9>");
	/* The widest nid4 string must fit LNET_NIDSTR_SIZE. */
	KUNIT_EXPECT_STREQ(test,
			   lnet_nid2str(0x00ffffff00000000ULL | 0xffffffff,
					buf, sizeof(buf)),
			   "ffffffff@<255:65535>");
	KUNIT_EXPECT_STREQ(test,
			   lnet_nid2str(0xfffffffe00000001ULL, buf,
					sizeof(buf)), "1@<65535:65534>");
}

static void nidstr_any(struct kunit *test)
{
	char buf[LNET_NIDSTR_SIZE];
	lnet_nid_t nid = 0;
	u32 net = 0;

	KUNIT_EXPECT_STREQ(test, lnet_nid2str(LNET_NID_ANY, buf, sizeof(buf)),
			   "<?>");
	KUNIT_EXPECT_EQ(test, lnet_str2nid("<?>", 3, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, LNET_NID_ANY);
	KUNIT_EXPECT_EQ(test, lnet_str2net("<?>", 3, &net), 0);
	KUNIT_EXPECT_EQ(test, net, LNET_NET_ANY);
}

static void nidstr_missing_net_is_tcp0(struct kunit *test)
{
	lnet_nid_t nid = 0;

	KUNIT_ASSERT_EQ(test, lnet_str2nid("192.0.2.1", 9, &nid), 0);
	KUNIT_EXPECT_EQ(test, LNET_NIDNET(nid), VEC_TCP(0));
	KUNIT_EXPECT_EQ(test, LNET_NIDADDR(nid), 0xc0000201U);
}

static void nidstr_lo_nid(struct kunit *test)
{
	char buf[LNET_NIDSTR_SIZE];
	lnet_nid_t nid = 1;

	KUNIT_EXPECT_EQ(test, LNET_NID_LO_0, 0x0009000000000000ULL);
	KUNIT_EXPECT_EQ(test, lnet_str2nid("0@lo", 4, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, LNET_NID_LO_0);
	KUNIT_EXPECT_STREQ(test, lnet_nid2str(LNET_NID_LO_0, buf, sizeof(buf)),
			   "0@lo");
}

/* Parsers honour @len and stop at a NUL, so substrings can be parsed. */
static void nidstr_len_bounded(struct kunit *test)
{
	static const char text[] = "192.0.2.1@tcp1,o2ib3(ib0)";
	lnet_nid_t nid = 0;
	u32 net = 0;

	KUNIT_EXPECT_EQ(test, lnet_str2nid(text, 14, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, 0x00020001C0000201ULL);
	KUNIT_EXPECT_EQ(test, lnet_str2nid(text, 13, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, 0x00020000C0000201ULL);
	KUNIT_EXPECT_EQ(test, lnet_str2nid(text, 15, &nid), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_str2nid(text, 9, &nid), 0);
	KUNIT_EXPECT_EQ(test, lnet_str2nid(text, 8, &nid), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_str2net(text + 15, 5, &net), 0);
	KUNIT_EXPECT_EQ(test, net, VEC_O2IB(3));
	KUNIT_EXPECT_EQ(test, lnet_str2net(text + 15, 4, &net), 0);
	KUNIT_EXPECT_EQ(test, net, VEC_O2IB(0));
	KUNIT_EXPECT_EQ(test, lnet_str2net(text + 15, 0, &net), -EINVAL);
	/* A NUL before @len ends the string. */
	KUNIT_EXPECT_EQ(test, lnet_str2net("tcp2\0junk", 9, &net), 0);
	KUNIT_EXPECT_EQ(test, net, VEC_TCP(2));
	KUNIT_EXPECT_EQ(test, lnet_str2nid("0@lo\0x", 6, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, LNET_NID_LO_0);
}

static void nidstr_process_ids(struct kunit *test)
{
	const struct nidstr_id_vector *v;
	struct lnet_process_id id;
	char buf[LNET_IDSTR_SIZE];

	for (v = nidstr_id_vectors;
	     v < nidstr_id_vectors + ARRAY_SIZE(nidstr_id_vectors); v++) {
		id.pid = v->pid;
		id.nid = v->nid;
		KUNIT_EXPECT_STREQ(test, lnet_id2str(id, buf, sizeof(buf)),
				   v->str);
	}
}

static void nidstr_lnd_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, lnet_lnd_type_name(LNET_LND_SOCK), "tcp");
	KUNIT_EXPECT_STREQ(test, lnet_lnd_type_name(LNET_LND_O2IB), "o2ib");
	KUNIT_EXPECT_STREQ(test, lnet_lnd_type_name(LNET_LND_LO), "lo");
	KUNIT_EXPECT_STREQ(test, lnet_lnd_type_name(13), "gni");
	KUNIT_EXPECT_NULL(test, lnet_lnd_type_name(0));
	KUNIT_EXPECT_NULL(test, lnet_lnd_type_name(1));
	KUNIT_EXPECT_NULL(test, lnet_lnd_type_name(17));
	KUNIT_EXPECT_NULL(test, lnet_lnd_type_name(0x102));

	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("tcp", 3), LNET_LND_SOCK);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("o2ib", 4), LNET_LND_O2IB);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("lo", 2), LNET_LND_LO);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("o2ib0", 4),
			LNET_LND_O2IB);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("o2ib0", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("o2i", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("", 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_lnd_type_from_name("TCP", 3), -EINVAL);
}

/* A pseudo-random walk over nets and addresses of the string-able types. */
static void nidstr_round_trip(struct kunit *test)
{
	static const u32 types[] = { LNET_LND_SOCK, LNET_LND_O2IB, 13, 16 };
	char buf[LNET_NIDSTR_SIZE];
	lnet_nid_t nid, back;
	u64 x = 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < 2000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		nid = LNET_MKNID(LNET_MKNET(types[(x >> 60) % ARRAY_SIZE(types)],
					    (x >> 40) & 0xffff),
				 x & 0xffffffff);
		if (i % 7 == 0)	/* small net numbers are the common ones */
			nid = LNET_MKNID(LNET_NIDNET(nid) & ~0xffffU,
					 LNET_NIDADDR(nid));
		lnet_nid2str(nid, buf, sizeof(buf));
		back = ~nid;
		KUNIT_ASSERT_EQ_MSG(test, lnet_str2nid(buf, sizeof(buf), &back),
				    0, "%s", buf);
		KUNIT_ASSERT_EQ_MSG(test, back, nid, "%s", buf);
	}
}

/* Every buffer size from 0 up: no write past @len, always terminated. */
static void check_truncation(struct kunit *test, const char *full,
			     char *(*fmt)(const void *arg, char *buf,
					  size_t len),
			     const void *arg)
{
	size_t flen = strlen(full);
	char buf[64];
	size_t len;

	KUNIT_ASSERT_LT(test, flen + 1, sizeof(buf) - 8);
	for (len = 0; len <= flen + 1; len++) {
		memset(buf, 0x5a, sizeof(buf));
		KUNIT_EXPECT_PTR_EQ(test, fmt(arg, buf, len), &buf[0]);
		KUNIT_EXPECT_EQ(test, buf[len], 0x5a);
		if (!len)
			continue;
		KUNIT_EXPECT_EQ(test, strnlen(buf, len), min(len - 1, flen));
		KUNIT_EXPECT_EQ(test, strncmp(buf, full, len - 1), 0);
	}
	KUNIT_EXPECT_STREQ(test, buf, full);
}

static char *fmt_net(const void *arg, char *buf, size_t len)
{
	return lnet_net2str(*(const u32 *)arg, buf, len);
}

static char *fmt_nid(const void *arg, char *buf, size_t len)
{
	return lnet_nid2str(*(const lnet_nid_t *)arg, buf, len);
}

static char *fmt_id(const void *arg, char *buf, size_t len)
{
	return lnet_id2str(*(const struct lnet_process_id *)arg, buf, len);
}

static void nidstr_truncation_net(struct kunit *test)
{
	u32 net = VEC_O2IB(65535);
	u32 unknown = LNET_MKNET(17, 4);

	check_truncation(test, "o2ib65535", fmt_net, &net);
	check_truncation(test, "<17:4>", fmt_net, &unknown);
}

static void nidstr_truncation_nid(struct kunit *test)
{
	lnet_nid_t nid = LNET_MKNID(VEC_O2IB(65535), 0xffffffff);
	lnet_nid_t any = LNET_NID_ANY;

	check_truncation(test, "255.255.255.255@o2ib65535", fmt_nid, &nid);
	check_truncation(test, "<?>", fmt_nid, &any);
}

static void nidstr_truncation_id(struct kunit *test)
{
	struct lnet_process_id id = {
		.nid = LNET_MKNID(VEC_O2IB(65535), 0xffffffff),
		.pid = LNET_PID_ANY,
	};
	struct lnet_process_id uid = {
		.nid = LNET_MKNID(VEC_TCP(1), 0xc0000201),
		.pid = LNET_PID_USERFLAG | 0x7ffffffe,
	};

	check_truncation(test, "LNET_PID_ANY-255.255.255.255@o2ib65535",
			 fmt_id, &id);
	check_truncation(test, "U2147483646-192.0.2.1@tcp1", fmt_id, &uid);
}

static struct kunit_case nidstr_cases[] = {
	KUNIT_CASE_PARAM(nidstr_example_parse, nid_example_gen_params),
	KUNIT_CASE_PARAM(nidstr_example_format, nid_example_gen_params),
	KUNIT_CASE_PARAM(nidstr_net_both_ways, net_case_gen_params),
	KUNIT_CASE_PARAM(nidstr_net_aliases, net_alias_gen_params),
	KUNIT_CASE_PARAM(nidstr_net_rejects, bad_net_gen_params),
	KUNIT_CASE(nidstr_net_unknown_type),
	KUNIT_CASE_PARAM(nidstr_nid_both_ways, nid_case_gen_params),
	KUNIT_CASE_PARAM(nidstr_nid_aliases, nid_alias_gen_params),
	KUNIT_CASE_PARAM(nidstr_nid_rejects, bad_nid_gen_params),
	KUNIT_CASE(nidstr_nid_unknown_type),
	KUNIT_CASE(nidstr_any),
	KUNIT_CASE(nidstr_missing_net_is_tcp0),
	KUNIT_CASE(nidstr_lo_nid),
	KUNIT_CASE(nidstr_len_bounded),
	KUNIT_CASE(nidstr_process_ids),
	KUNIT_CASE(nidstr_lnd_names),
	KUNIT_CASE(nidstr_round_trip),
	KUNIT_CASE(nidstr_truncation_net),
	KUNIT_CASE(nidstr_truncation_nid),
	KUNIT_CASE(nidstr_truncation_id),
	{}
};

static struct kunit_suite nidstr_suite = {
	.name = "lnet_nidstr",
	.test_cases = nidstr_cases,
};

kunit_test_suite(nidstr_suite);
