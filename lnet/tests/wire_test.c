// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of the LNet header encoding
 * (Documentation/wire/lnet-header.md): every field of every message type
 * is checked at its byte offset against little-endian buffers built by
 * hand, both ways.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/lnet/lnd.h>

/* Store @v little-endian in @n bytes at @buf + @off, independent of wire.c. */
static void put_le(u8 *buf, unsigned int off, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		buf[off + i] = (u8)(v >> (8 * i));
}

#define NID_A	0x00020000C0000201ULL	/* 192.0.2.1@tcp */
#define NID_B	0x000500020A000001ULL	/* 10.0.0.1@o2ib2 */
#define WH_IF	0x1122334455667788ULL
#define WH_OBJ	0x99aabbccddeeff00ULL

static void common_hdr(struct lnet_hdr *hdr, u8 *buf, u32 type, u32 len)
{
	memset(hdr, 0, sizeof(*hdr));
	memset(buf, 0, LNET_HDR_NID4_SIZE);
	hdr->dest_nid = NID_A;
	hdr->src_nid = NID_B;
	hdr->dest_pid = 12345;
	hdr->src_pid = 0x80000401;
	hdr->type = type;
	hdr->payload_length = len;
	put_le(buf, 0, NID_A, 8);
	put_le(buf, 8, NID_B, 8);
	put_le(buf, 16, 12345, 4);
	put_le(buf, 20, 0x80000401, 4);
	put_le(buf, 24, type, 4);
	put_le(buf, 28, len, 4);
}

static void put_wmd(struct lnet_handle_wire *wh, u8 *buf, unsigned int off)
{
	wh->wh_interface_cookie = WH_IF;
	wh->wh_object_cookie = WH_OBJ;
	put_le(buf, off, WH_IF, 8);
	put_le(buf, off + 8, WH_OBJ, 8);
}

/* Encode @hdr, compare with @want; decode @want, compare with @hdr. */
static void check_both_ways(struct kunit *test, const struct lnet_hdr *hdr,
			    const u8 *want)
{
	struct lnet_hdr_nid4 wire;
	struct lnet_hdr back;

	memset(&wire, 0xa5, sizeof(wire));	/* encoding must zero padding */
	lnet_hdr_to_nid4(hdr, &wire);
	KUNIT_EXPECT_EQ(test, memcmp(&wire, want, LNET_HDR_NID4_SIZE), 0);

	memset(&back, 0xa5, sizeof(back));
	lnet_hdr_from_nid4(&back, (const struct lnet_hdr_nid4 *)want);
	KUNIT_EXPECT_EQ(test, memcmp(&back, hdr, sizeof(back)), 0);
}

static void wire_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct lnet_hdr_nid4), 72U);
	KUNIT_EXPECT_EQ(test, sizeof(struct lnet_hdr_nid16), 96U);
	KUNIT_EXPECT_EQ(test, sizeof(struct lnet_nid16), 20U);
	KUNIT_EXPECT_EQ(test, sizeof(struct lnet_ping_info), 16U);
	KUNIT_EXPECT_EQ(test, sizeof(struct lnet_ping_nid), 16U);
	KUNIT_EXPECT_EQ(test, lnet_ping_info_size(16), (size_t)272);
}

static void wire_put(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_PUT, 4096);
	put_wmd(&hdr.msg.put.ack_wmd, buf, 32);
	hdr.msg.put.match_bits = 0x0102030405060708ULL;
	hdr.msg.put.hdr_data = 0xf0e0d0c0b0a09080ULL;
	hdr.msg.put.ptl_index = 17;
	hdr.msg.put.offset = 0xabcdef;
	put_le(buf, 48, 0x0102030405060708ULL, 8);
	put_le(buf, 56, 0xf0e0d0c0b0a09080ULL, 8);
	put_le(buf, 64, 17, 4);
	put_le(buf, 68, 0xabcdef, 4);
	check_both_ways(test, &hdr, buf);
}

static void wire_put_no_ack(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_PUT, 0);
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	memset(buf + 32, 0xff, 16);	/* NONE is all ones on the wire */
	check_both_ways(test, &hdr, buf);
	KUNIT_EXPECT_TRUE(test, lnet_wire_handle_is_none(&hdr.msg.put.ack_wmd));
}

static void wire_get(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_GET, 0);
	put_wmd(&hdr.msg.get.return_wmd, buf, 32);
	hdr.msg.get.match_bits = LNET_PROTO_PING_MATCHBITS;
	hdr.msg.get.ptl_index = 0;
	hdr.msg.get.src_offset = 0x10;
	hdr.msg.get.sink_length = 3960;
	put_le(buf, 48, LNET_PROTO_PING_MATCHBITS, 8);
	put_le(buf, 56, 0, 4);
	put_le(buf, 60, 0x10, 4);
	put_le(buf, 64, 3960, 4);
	/* 68..71 stay zero */
	check_both_ways(test, &hdr, buf);
}

static void wire_ack(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_ACK, 0);
	put_wmd(&hdr.msg.ack.dst_wmd, buf, 32);
	hdr.msg.ack.match_bits = 0xdeadbeefcafef00dULL;
	hdr.msg.ack.mlength = 1048576;
	put_le(buf, 48, 0xdeadbeefcafef00dULL, 8);
	put_le(buf, 56, 1048576, 4);
	check_both_ways(test, &hdr, buf);
}

static void wire_reply(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_REPLY, 272);
	put_wmd(&hdr.msg.reply.dst_wmd, buf, 32);
	check_both_ways(test, &hdr, buf);
}

static void wire_hello(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, buf, LNET_MSG_HELLO, 0);
	hdr.msg.hello.incarnation = 0x0011223344556677ULL;
	hdr.msg.hello.type = 3;
	put_le(buf, 32, 0x0011223344556677ULL, 8);
	put_le(buf, 40, 3, 4);
	check_both_ways(test, &hdr, buf);
}

/* An unknown type decodes its common part and nothing else. */
static void wire_unknown_type(struct kunit *test)
{
	struct lnet_hdr hdr;
	u8 buf[LNET_HDR_NID4_SIZE];
	unsigned int i;

	memset(buf, 0x5a, sizeof(buf));
	put_le(buf, 24, 9, 4);
	lnet_hdr_from_nid4(&hdr, (const struct lnet_hdr_nid4 *)buf);
	KUNIT_EXPECT_EQ(test, hdr.type, 9U);
	KUNIT_EXPECT_EQ(test, hdr.dest_nid, 0x5a5a5a5a5a5a5a5aULL);
	for (i = 0; i < sizeof(hdr.msg); i++)
		KUNIT_EXPECT_EQ(test, ((u8 *)&hdr.msg)[i], 0);
}

/* The worked examples of Documentation/wire/nid.md. */
static void wire_nid_bytes(struct kunit *test)
{
	static const u8 lo[8] = { 0, 0, 0, 0, 0, 0, 0x09, 0 };
	static const u8 tcp[8] = { 0x01, 0x02, 0x00, 0xc0, 0, 0, 0x02, 0 };
	struct lnet_hdr hdr = { .dest_nid = LNET_NID_LO_0, .src_nid = NID_A };
	struct lnet_hdr_nid4 wire;

	lnet_hdr_to_nid4(&hdr, &wire);
	KUNIT_EXPECT_EQ(test, memcmp((u8 *)&wire, lo, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp((u8 *)&wire + 8, tcp, 8), 0);
}

static void wire_nid16(struct kunit *test)
{
	static const u8 want[20] = {
		0, 2, 0, 1, 0xc0, 0x00, 0x02, 0x01,	/* 192.0.2.1@tcp1 */
	};
	struct lnet_nid16 large, any;
	lnet_nid_t nid;
	unsigned int i;

	lnet_nid4_to_nid16(0x00020001C0000201ULL, &large);
	KUNIT_EXPECT_EQ(test, memcmp(&large, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, lnet_nid16_to_nid4(&large, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, 0x00020001C0000201ULL);

	lnet_nid4_to_nid16(LNET_NID_ANY, &any);
	for (i = 0; i < sizeof(any); i++)
		KUNIT_EXPECT_EQ(test, ((u8 *)&any)[i], 0xff);
	KUNIT_EXPECT_EQ(test, lnet_nid16_to_nid4(&any, &nid), 0);
	KUNIT_EXPECT_EQ(test, nid, LNET_NID_ANY);

	large.size = 12;	/* an IPv6 address has no nid4 form */
	KUNIT_EXPECT_EQ(test, lnet_nid16_to_nid4(&large, &nid), -EAFNOSUPPORT);
}

static void wire_nid16_hdr(struct kunit *test)
{
	struct lnet_hdr hdr, back;
	struct lnet_hdr_nid16 wire;
	u8 *b = (u8 *)&wire;
	u8 nid4buf[LNET_HDR_NID4_SIZE];

	common_hdr(&hdr, nid4buf, LNET_MSG_PUT, 100);
	put_wmd(&hdr.msg.put.ack_wmd, nid4buf, 32);
	hdr.msg.put.match_bits = 7;
	put_le(nid4buf, 48, 7, 8);
	KUNIT_ASSERT_EQ(test, lnet_hdr_to_nid16(&hdr, &wire), 0);
	KUNIT_EXPECT_EQ(test, b[1], (u8)LNET_LND_SOCK);	/* dest type */
	KUNIT_EXPECT_EQ(test, b[21], (u8)LNET_LND_O2IB);	/* src type */
	KUNIT_EXPECT_EQ(test, b[23], 2);			/* o2ib2 */
	/* pids, type, length and the type part are the nid4 bytes, moved */
	KUNIT_EXPECT_EQ(test, memcmp(b + 40, nid4buf + 16, 56), 0);
	KUNIT_ASSERT_EQ(test, lnet_hdr_from_nid16(&back, &wire), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &hdr, sizeof(hdr)), 0);

	wire.src_nid.size = 12;
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid16(&back, &wire), -EAFNOSUPPORT);
}

static struct kunit_case lnet_wire_cases[] = {
	KUNIT_CASE(wire_sizes),
	KUNIT_CASE(wire_put),
	KUNIT_CASE(wire_put_no_ack),
	KUNIT_CASE(wire_get),
	KUNIT_CASE(wire_ack),
	KUNIT_CASE(wire_reply),
	KUNIT_CASE(wire_hello),
	KUNIT_CASE(wire_unknown_type),
	KUNIT_CASE(wire_nid_bytes),
	KUNIT_CASE(wire_nid16),
	KUNIT_CASE(wire_nid16_hdr),
	{}
};

static struct kunit_suite lnet_wire_suite = {
	.name = "lnet_wire",
	.test_cases = lnet_wire_cases,
};
kunit_test_suite(lnet_wire_suite);
