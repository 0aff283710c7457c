// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the o2iblnd wire format (o2iblnd_proto.c) against
 * Documentation/wire/o2iblnd.md. Expected bytes are written by hand at the
 * documented offsets, in the sender's byte order: "native" is this
 * host's order, "swapped" the other one, so a byte-swapped peer is
 * simulated on any host.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "../o2iblnd.h"

/* Values from the tables of Documentation/wire/o2iblnd.md, not o2iblnd.h */
#define T_MAGIC		0x0BE91B91U	/* "Message header" */
#define T_UNIFIED	0x45726963U	/* LNET_PROTO_MAGIC, passive step 2 */
#define T_V1		0x11
#define T_V2		0x12

/* NIDs: o2ib is LND type 5, so o2ib0 is net 0x50000 */
#define NID_A		0x00050000C0000201ULL	/* 192.0.2.1@o2ib, passive */
#define NID_B		0x00050000C0000202ULL	/* 192.0.2.2@o2ib, active */
#define NID_C		0x000500000A000002ULL	/* 10.0.0.2@o2ib */
#define NID_D		0x00050000C00002FFULL	/* 192.0.2.255@o2ib */
#define NID_E		0x00050000C0000301ULL	/* 192.0.3.1@o2ib */
#define STAMP_A		0x1112131415161718ULL
#define STAMP_B		0x2122232425262728ULL

/* opaque cookies: every byte distinct, so a swap would show */
static const u8 cookie1[8] = { 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8 };
static const u8 cookie2[8] = { 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8 };

static bool host_be(void)
{
	return IS_ENABLED(CONFIG_CPU_BIG_ENDIAN);
}

/* Store @v in @n bytes at @buf + @off, big-endian if @be. */
static void put_bytes(u8 *buf, unsigned int off, u64 v, unsigned int n,
		      bool be)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		buf[off + (be ? n - 1 - i : i)] = (u8)(v >> (8 * i));
}

/* Read @n bytes at @buf + @off, big-endian if @be. */
static u64 get_bytes(const u8 *buf, unsigned int off, unsigned int n, bool be)
{
	unsigned int i;
	u64 v = 0;

	for (i = 0; i < n; i++)
		v |= (u64)buf[off + (be ? n - 1 - i : i)] << (8 * i);
	return v;
}

/* "Checksum", computed independently: rotate left 1, add the byte. */
static u32 ref_cksum(const u8 *p, unsigned int nob)
{
	u32 sum = 0;

	while (nob--)
		sum = ((sum << 1) | (sum >> 31)) + *p++;
	return sum ? sum : 1;
}

/* The 48-byte "Message header" as a sender would fill it */
struct thdr {
	u32	magic;
	u16	version;
	u8	type;
	u8	credits;
	u32	nob;
	u32	cksum;
	u64	srcnid;
	u64	srcstamp;
	u64	dstnid;
	u64	dststamp;
};

/* B (the active side) sending to A */
static struct thdr mkhdr(u8 type, u32 nob)
{
	struct thdr h = {
		.magic = T_MAGIC, .version = T_V2, .type = type, .credits = 7,
		.nob = nob, .srcnid = NID_B, .srcstamp = STAMP_B,
		.dstnid = NID_A, .dststamp = STAMP_A,
	};

	return h;
}

static void put_hdr(u8 *b, const struct thdr *h, bool be)
{
	put_bytes(b, 0, h->magic, 4, be);
	put_bytes(b, 4, h->version, 2, be);
	b[6] = h->type;
	b[7] = h->credits;
	put_bytes(b, 8, h->nob, 4, be);
	put_bytes(b, 12, h->cksum, 4, be);
	put_bytes(b, 16, h->srcnid, 8, be);
	put_bytes(b, 24, h->srcstamp, 8, be);
	put_bytes(b, 32, h->dstnid, 8, be);
	put_bytes(b, 40, h->dststamp, 8, be);
}

/* The header fields of an unpacked message, which must be in host order */
static void expect_hdr(struct kunit *test, const struct kib_msg *msg,
		       const struct thdr *h)
{
	KUNIT_EXPECT_EQ(test, msg->hdr.version, h->version);
	KUNIT_EXPECT_EQ(test, msg->hdr.type, h->type);
	KUNIT_EXPECT_EQ(test, msg->hdr.credits, h->credits);
	KUNIT_EXPECT_EQ(test, msg->hdr.nob, h->nob);
	KUNIT_EXPECT_EQ(test, msg->hdr.cksum, h->cksum);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcnid, h->srcnid);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcstamp, h->srcstamp);
	KUNIT_EXPECT_EQ(test, msg->hdr.dstnid, h->dstnid);
	KUNIT_EXPECT_EQ(test, msg->hdr.dststamp, h->dststamp);
}

static void put_connparams(u8 *b, u16 qd, u16 frags, u32 size, bool be)
{
	put_bytes(b, 48, qd, 2, be);
	put_bytes(b, 50, frags, 2, be);
	put_bytes(b, 52, size, 4, be);
}

/* An "RDMA descriptor" at @off with @n fragments i: nob, addr below */
#define FRAG_NOB(i)	(0x00010203U + 0x10000000U * ((i) & 0xf))
#define FRAG_ADDR(i)	(0x0405060708090a0bULL + \
			 0x1000000000000000ULL * ((i) & 0xf))
#define RD_KEY		0x0c0d0e0fU

static void put_rd(u8 *b, unsigned int off, u32 nfrags, unsigned int n,
		   bool be)
{
	unsigned int i;

	put_bytes(b, off, RD_KEY, 4, be);
	put_bytes(b, off + 4, nfrags, 4, be);
	for (i = 0; i < n; i++) {
		put_bytes(b, off + 8 + 12 * i, FRAG_NOB(i), 4, be);
		put_bytes(b, off + 12 + 12 * i, FRAG_ADDR(i), 8, be);
	}
}

/* An embedded LNet header (always LE, never swapped): a byte pattern */
static void put_lnet_hdr(u8 *b)
{
	unsigned int i;

	for (i = 0; i < 72; i++)
		b[48 + i] = (u8)(i * 7 + 3);
}

static bool lnet_hdr_intact(const u8 *b)
{
	unsigned int i;

	for (i = 0; i < 72; i++)
		if (b[48 + i] != (u8)(i * 7 + 3))
			return false;
	return true;
}

static u8 *tbuf(struct kunit *test)
{
	u8 *b = kunit_kzalloc(test, KIB_MSG_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

/* A complete message of @type and size @nob, header only, in order @be */
static struct kib_msg *tmsg(u8 *b, u8 type, u32 nob, bool be)
{
	struct thdr h = mkhdr(type, nob);

	put_hdr(b, &h, be);
	return (struct kib_msg *)b;
}

/* ---- o2iblnd_wire: sizes and packing ---------------------------------- */

static void wire_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KIB_MSG_MAGIC, T_MAGIC);
	KUNIT_EXPECT_EQ(test, KIB_PROTO_MAGIC_UNIFIED, T_UNIFIED);
	KUNIT_EXPECT_EQ(test, KIB_MSG_VERSION_1, T_V1);
	KUNIT_EXPECT_EQ(test, KIB_MSG_VERSION_2, T_V2);
	KUNIT_EXPECT_EQ(test, KIB_MSG_CONNREQ, 0xC0);
	KUNIT_EXPECT_EQ(test, KIB_MSG_CONNACK, 0xC1);
	KUNIT_EXPECT_EQ(test, KIB_MSG_NOOP, 0xD0);
	KUNIT_EXPECT_EQ(test, KIB_MSG_IMMEDIATE, 0xD1);
	KUNIT_EXPECT_EQ(test, KIB_MSG_PUT_REQ, 0xD2);
	KUNIT_EXPECT_EQ(test, KIB_MSG_PUT_NAK, 0xD3);
	KUNIT_EXPECT_EQ(test, KIB_MSG_PUT_ACK, 0xD4);
	KUNIT_EXPECT_EQ(test, KIB_MSG_PUT_DONE, 0xD5);
	KUNIT_EXPECT_EQ(test, KIB_MSG_GET_REQ, 0xD6);
	KUNIT_EXPECT_EQ(test, KIB_MSG_GET_DONE, 0xD7);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_CONN_RACE, 1);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_NO_RESOURCES, 2);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_FATAL, 3);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_CONN_UNCOMPAT, 4);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_CONN_STALE, 5);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_RDMA_FRAGS, 6);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_MSG_QUEUE_SIZE, 7);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_INVALID_SRV_ID, 8);
	KUNIT_EXPECT_EQ(test, KIB_REJECT_EARLY, 9);
	KUNIT_EXPECT_EQ(test, KIB_MAX_RDMA_FRAGS, 257);
	KUNIT_EXPECT_EQ(test, KIB_MSG_SIZE, 4096);
	KUNIT_EXPECT_EQ(test, sizeof(struct kib_msg_hdr), (size_t)48);
	KUNIT_EXPECT_EQ(test, sizeof(struct kib_rej), (size_t)24);
}

/* "Message types", "Size" column; PUT_ACK 72 + 12n, GET_REQ 136 + 12n */
static void wire_nob(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_CONNREQ, 0), 56U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_CONNACK, 0), 56U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_NOOP, 0), 48U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_IMMEDIATE, 0), 120U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_REQ, 0), 128U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_NAK, 0), 60U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_DONE, 0), 60U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_GET_DONE, 0), 60U);
	/* the fragment count does not change a fixed-size type */
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_REQ, 5), 128U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_GET_DONE, 5), 60U);

	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_ACK, 1), 84U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_ACK, 2), 96U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_PUT_ACK, 257), 3156U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_GET_REQ, 1), 148U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_GET_REQ, 2), 160U);
	KUNIT_EXPECT_EQ(test, kib_msg_nob(KIB_MSG_GET_REQ, 257), 3220U);
}

/* kib_msg_pack() writes the header in native order at the documented offsets */
static void wire_pack_header(struct kunit *test)
{
	u8 *b = tbuf(test);
	u8 *want = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_NOOP, 48);
	int cksum = kib_cksum;

	kib_cksum = 0;		/* the default: send no checksum */
	memset(b, 0xa5, 48);
	kib_msg_pack((struct kib_msg *)b, KIB_MSG_NOOP, 48, T_V2, 7, NID_B,
		     STAMP_B, NID_A, STAMP_A);
	put_hdr(want, &h, host_be());
	KUNIT_EXPECT_EQ(test, memcmp(b, want, 48), 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 0, 4, host_be()), (u64)T_MAGIC);
	KUNIT_EXPECT_EQ(test, b[6], 0xD0);
	KUNIT_EXPECT_EQ(test, b[7], 7);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 12, 4, host_be()), 0ULL);

	/* a V1 header, other values */
	kib_msg_pack((struct kib_msg *)b, KIB_MSG_GET_DONE, 60, T_V1, 255,
		     NID_A, STAMP_A, NID_C, 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 4, 2, host_be()), (u64)T_V1);
	KUNIT_EXPECT_EQ(test, b[6], 0xD7);
	KUNIT_EXPECT_EQ(test, b[7], 255);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 8, 4, host_be()), 60ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 16, 8, host_be()), NID_A);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 24, 8, host_be()), STAMP_A);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 32, 8, host_be()), NID_C);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 40, 8, host_be()), 0ULL);
	kib_cksum = cksum;
}

/* With cksum=1 the sender sums ibm_nob bytes, the field being 0 ("Checksum") */
static void wire_pack_cksum(struct kunit *test)
{
	u8 *b = tbuf(test);
	u8 *want = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_IMMEDIATE, 130);
	int cksum = kib_cksum;
	u32 sum;

	put_hdr(want, &h, host_be());
	put_lnet_hdr(want);
	memset(want + 120, 0xe7, 10);
	sum = ref_cksum(want, 130);
	put_bytes(want, 12, sum, 4, host_be());

	kib_cksum = 1;
	memcpy(b + 48, want + 48, 82);
	memset(b + 130, 0x3c, 10);	/* beyond ibm_nob: not summed */
	kib_msg_pack((struct kib_msg *)b, KIB_MSG_IMMEDIATE, 130, T_V2, 7,
		     NID_B, STAMP_B, NID_A, STAMP_A);
	kib_cksum = cksum;
	KUNIT_EXPECT_EQ(test, memcmp(b, want, 130), 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 12, 4, host_be()), (u64)sum);
	KUNIT_EXPECT_EQ(test, kib_msg_unpack((struct kib_msg *)b, 140), 0);
}

/*
 * The body is filled before packing (the checksum covers it): packing
 * must leave it alone, and the body structs must put each field at its
 * documented offset ("Message types", "Connection parameters").
 */
static void wire_pack_bodies(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg = (struct kib_msg *)b;
	bool be = host_be();

	msg->u.connparams.queue_depth = 0x0102;
	msg->u.connparams.max_frags = 0x0304;
	msg->u.connparams.max_msg_size = 0x05060708;
	kib_msg_pack(msg, KIB_MSG_CONNREQ, 56, T_V2, 0, NID_B, STAMP_B,
		     NID_A, 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 48, 2, be), 0x0102ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 50, 2, be), 0x0304ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 52, 4, be), 0x05060708ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 8, 4, be), 56ULL);

	memset(b, 0, KIB_MSG_SIZE);
	memcpy(&msg->u.putack.src_cookie, cookie1, 8);
	memcpy(&msg->u.putack.dst_cookie, cookie2, 8);
	msg->u.putack.rd.key = RD_KEY;
	msg->u.putack.rd.nfrags = 2;
	msg->u.putack.rd.frags[0].nob = FRAG_NOB(0);
	msg->u.putack.rd.frags[0].addr = FRAG_ADDR(0);
	msg->u.putack.rd.frags[1].nob = FRAG_NOB(1);
	msg->u.putack.rd.frags[1].addr = FRAG_ADDR(1);
	kib_msg_pack(msg, KIB_MSG_PUT_ACK, 96, T_V2, 0, NID_A, STAMP_A,
		     NID_B, STAMP_B);
	KUNIT_EXPECT_EQ(test, memcmp(b + 48, cookie1, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b + 56, cookie2, 8), 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 64, 4, be), (u64)RD_KEY);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 68, 4, be), 2ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 72, 4, be), (u64)FRAG_NOB(0));
	KUNIT_EXPECT_EQ(test, get_bytes(b, 76, 8, be), FRAG_ADDR(0));
	KUNIT_EXPECT_EQ(test, get_bytes(b, 84, 4, be), (u64)FRAG_NOB(1));
	KUNIT_EXPECT_EQ(test, get_bytes(b, 88, 8, be), FRAG_ADDR(1));

	memset(b, 0, KIB_MSG_SIZE);
	put_lnet_hdr(b);
	memcpy(&msg->u.getreq.cookie, cookie1, 8);
	msg->u.getreq.rd.key = RD_KEY;
	msg->u.getreq.rd.nfrags = 1;
	msg->u.getreq.rd.frags[0].nob = FRAG_NOB(0);
	msg->u.getreq.rd.frags[0].addr = FRAG_ADDR(0);
	kib_msg_pack(msg, KIB_MSG_GET_REQ, 148, T_V2, 1, NID_B, STAMP_B,
		     NID_A, STAMP_A);
	KUNIT_EXPECT_TRUE(test, lnet_hdr_intact(b));
	KUNIT_EXPECT_EQ(test, memcmp(b + 120, cookie1, 8), 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 128, 4, be), (u64)RD_KEY);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 132, 4, be), 1ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 136, 4, be), (u64)FRAG_NOB(0));
	KUNIT_EXPECT_EQ(test, get_bytes(b, 140, 8, be), FRAG_ADDR(0));

	memset(b, 0, KIB_MSG_SIZE);
	memcpy(&msg->u.completion.cookie, cookie2, 8);
	msg->u.completion.status = -61;
	kib_msg_pack(msg, KIB_MSG_GET_DONE, 60, T_V2, 0, NID_A, STAMP_A,
		     NID_B, STAMP_B);
	KUNIT_EXPECT_EQ(test, memcmp(b + 48, cookie2, 8), 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 56, 4, be), 0xFFFFFFC3ULL);

	memset(b, 0, KIB_MSG_SIZE);
	put_lnet_hdr(b);
	memcpy(&msg->u.putreq.cookie, cookie2, 8);
	kib_msg_pack(msg, KIB_MSG_PUT_REQ, 128, T_V2, 0, NID_A, STAMP_A,
		     NID_B, STAMP_B);
	KUNIT_EXPECT_TRUE(test, lnet_hdr_intact(b));
	KUNIT_EXPECT_EQ(test, memcmp(b + 120, cookie2, 8), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)msg->u.immediate.payload,
			    (void *)(b + 120));
}

/* ---- o2iblnd_wire: "Receive checks" ------------------------------------ */

static void wire_unpack_native(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	struct thdr h;

	/* every type at its minimum size, in native order */
	msg = tmsg(b, KIB_MSG_NOOP, 48, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 48), 0);
	h = mkhdr(KIB_MSG_NOOP, 48);
	expect_hdr(test, msg, &h);

	msg = tmsg(b, KIB_MSG_CONNREQ, 56, host_be());
	put_connparams(b, 8, 257, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 56), 0);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.queue_depth, 8);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_frags, 257);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_msg_size, 4096U);

	msg = tmsg(b, KIB_MSG_CONNACK, 56, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 56), 0);
	msg = tmsg(b, KIB_MSG_IMMEDIATE, 120, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 120), 0);
	msg = tmsg(b, KIB_MSG_IMMEDIATE, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 4096), 0);
	msg = tmsg(b, KIB_MSG_PUT_REQ, 128, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 128), 0);
	msg = tmsg(b, KIB_MSG_PUT_NAK, 60, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 60), 0);
	msg = tmsg(b, KIB_MSG_PUT_DONE, 60, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 60), 0);
	msg = tmsg(b, KIB_MSG_GET_DONE, 60, host_be());
	put_bytes(b, 56, (u32)-61, 4, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 60), 0);
	KUNIT_EXPECT_EQ(test, msg->u.completion.status, -61);

	msg = tmsg(b, KIB_MSG_PUT_ACK, 84, host_be());
	put_rd(b, 64, 1, 1, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 84), 0);
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.key, RD_KEY);
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.nfrags, 1U);
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.frags[0].nob, FRAG_NOB(0));
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.frags[0].addr, FRAG_ADDR(0));

	msg = tmsg(b, KIB_MSG_GET_REQ, 148, host_be());
	put_rd(b, 128, 1, 1, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 148), 0);
	KUNIT_EXPECT_EQ(test, msg->u.getreq.rd.frags[0].addr, FRAG_ADDR(0));

	/* V1 is a valid version; more bytes received than ibm_nob is fine */
	msg = tmsg(b, KIB_MSG_NOOP, 48, host_be());
	put_bytes(b, 4, T_V1, 2, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 4096), 0);
	KUNIT_EXPECT_EQ(test, msg->hdr.version, T_V1);
	KUNIT_EXPECT_EQ(test, msg->hdr.nob, 48U);
}

/* A byte-swapped NOOP: every header field comes out in host order */
static void wire_unpack_swapped_hdr(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_NOOP, 48);
	struct kib_msg *msg = (struct kib_msg *)b;

	h.version = T_V1;
	h.credits = 0xfe;
	put_hdr(b, &h, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 100), 0);
	expect_hdr(test, msg, &h);

	h = mkhdr(KIB_MSG_NOOP, 48);
	put_hdr(b, &h, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 48), 0);
	expect_hdr(test, msg, &h);
}

static void wire_unpack_swapped_connparams(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_CONNACK, 56);
	struct kib_msg *msg = (struct kib_msg *)b;

	put_hdr(b, &h, !host_be());
	put_connparams(b, 0x0102, 0x0103, 0x00001000, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 56), 0);
	expect_hdr(test, msg, &h);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.queue_depth, 0x0102);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_frags, 0x0103);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_msg_size, 4096U);
}

/* PUT_NAK, PUT_DONE, GET_DONE: status swapped (signed), cookie opaque */
static void wire_unpack_swapped_completion(struct kunit *test)
{
	static const u8 types[] = {
		KIB_MSG_PUT_NAK, KIB_MSG_PUT_DONE, KIB_MSG_GET_DONE
	};
	static const s32 status[] = { -61, 0x00123456, -1 };
	u8 *b = tbuf(test);
	struct kib_msg *msg = (struct kib_msg *)b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		struct thdr h = mkhdr(types[i], 60);

		put_hdr(b, &h, !host_be());
		memcpy(b + 48, cookie1, 8);
		put_bytes(b, 56, (u32)status[i], 4, !host_be());
		KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 60), 0);
		expect_hdr(test, msg, &h);
		KUNIT_EXPECT_EQ(test, msg->u.completion.status, status[i]);
		KUNIT_EXPECT_EQ(test, memcmp(b + 48, cookie1, 8), 0);
	}
}

/* PUT_ACK: descriptor swapped, both cookies as sent */
static void wire_unpack_swapped_put_ack(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_PUT_ACK, 96);
	struct kib_msg *msg = (struct kib_msg *)b;
	u32 i;

	put_hdr(b, &h, !host_be());
	memcpy(b + 48, cookie1, 8);
	memcpy(b + 56, cookie2, 8);
	put_rd(b, 64, 2, 2, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 96), 0);
	expect_hdr(test, msg, &h);
	KUNIT_EXPECT_EQ(test, memcmp(b + 48, cookie1, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b + 56, cookie2, 8), 0);
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.key, RD_KEY);
	KUNIT_EXPECT_EQ(test, msg->u.putack.rd.nfrags, 2U);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, msg->u.putack.rd.frags[i].nob,
				FRAG_NOB(i));
		KUNIT_EXPECT_EQ(test, msg->u.putack.rd.frags[i].addr,
				FRAG_ADDR(i));
	}
}

/* GET_REQ: LNet header (LE) and cookie as sent, descriptor swapped */
static void wire_unpack_swapped_get_req(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_GET_REQ, 160);
	struct kib_msg *msg = (struct kib_msg *)b;
	u32 i;

	put_hdr(b, &h, !host_be());
	put_lnet_hdr(b);
	memcpy(b + 120, cookie2, 8);
	put_rd(b, 128, 2, 2, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 160), 0);
	expect_hdr(test, msg, &h);
	KUNIT_EXPECT_TRUE(test, lnet_hdr_intact(b));
	KUNIT_EXPECT_EQ(test, memcmp(b + 120, cookie2, 8), 0);
	KUNIT_EXPECT_EQ(test, msg->u.getreq.rd.key, RD_KEY);
	KUNIT_EXPECT_EQ(test, msg->u.getreq.rd.nfrags, 2U);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, msg->u.getreq.rd.frags[i].nob,
				FRAG_NOB(i));
		KUNIT_EXPECT_EQ(test, msg->u.getreq.rd.frags[i].addr,
				FRAG_ADDR(i));
	}
}

/* PUT_REQ and IMMEDIATE: LNet header, cookie and payload as sent */
static void wire_unpack_swapped_put_req(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct thdr h = mkhdr(KIB_MSG_PUT_REQ, 128);
	struct kib_msg *msg = (struct kib_msg *)b;

	put_hdr(b, &h, !host_be());
	put_lnet_hdr(b);
	memcpy(b + 120, cookie1, 8);
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 128), 0);
	expect_hdr(test, msg, &h);
	KUNIT_EXPECT_TRUE(test, lnet_hdr_intact(b));
	KUNIT_EXPECT_EQ(test, memcmp(b + 120, cookie1, 8), 0);

	h = mkhdr(KIB_MSG_IMMEDIATE, 128);
	put_hdr(b, &h, !host_be());
	put_lnet_hdr(b);
	memcpy(b + 120, cookie2, 8);	/* 8 bytes of payload */
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 128), 0);
	expect_hdr(test, msg, &h);
	KUNIT_EXPECT_TRUE(test, lnet_hdr_intact(b));
	KUNIT_EXPECT_EQ(test, memcmp(b + 120, cookie2, 8), 0);
}

/*
 * A copy of the first @n bytes of @src in a buffer of exactly @n bytes, so
 * that KASAN reports any read past what was received.
 */
static void *tdup(struct kunit *test, const void *src, size_t n)
{
	void *p = kunit_kmalloc(test, n ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(p, src, n);
	return p;
}

/* Step 1 and 3: at least 6 bytes to read magic and version, 48 in all */
static void wire_unpack_short(struct kunit *test)
{
	u8 *b = tbuf(test);
	unsigned int nob, be;

	for (be = 0; be < 2; be++) {
		tmsg(b, KIB_MSG_NOOP, 48, be);
		for (nob = 0; nob < 48; nob++)
			KUNIT_EXPECT_EQ_MSG(test,
					    kib_msg_unpack(tdup(test, b, nob),
							   nob),
					    -EPROTO, "received %u bytes", nob);
		KUNIT_EXPECT_EQ(test, kib_msg_unpack(tdup(test, b, 48), 48), 0);
	}
}

static void wire_unpack_bad_magic(struct kunit *test)
{
	static const u32 magics[] = {
		0x0BE91B92, 0x911BE90B + 1, 0, 0xffffffff, T_UNIFIED,
		0x63697245,	/* the unified magic swapped */
	};
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(magics); i++) {
		msg = tmsg(b, KIB_MSG_NOOP, 48, host_be());
		put_bytes(b, 0, magics[i], 4, host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 48), -EPROTO,
				    "magic %#x", magics[i]);
	}
}

static void wire_unpack_bad_version(struct kunit *test)
{
	static const u16 versions[] = { 0, 0x10, 0x13, 0x1100, 0x1200, 0xffff };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;
	unsigned int be;	/* 0: little-endian sender, 1: big */

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		for (be = 0; be < 2; be++) {
			msg = tmsg(b, KIB_MSG_NOOP, 48, be);
			put_bytes(b, 4, versions[i], 2, be);
			KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 48),
					    -EPROTO, "version %#x be %u",
					    versions[i], be);
		}
	}
}

/* Step 3: ibm_nob may not claim more than was received */
static void wire_unpack_nob_too_large(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;

	msg = tmsg(b, KIB_MSG_NOOP, 49, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 48), -EPROTO);
	msg = tmsg(b, KIB_MSG_IMMEDIATE, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 4095), -EPROTO);
	msg = tmsg(b, KIB_MSG_CONNREQ, 56, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 55), -EPROTO);
	msg = tmsg(b, KIB_MSG_IMMEDIATE, 0xffffffff, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 4096), -EPROTO);
}

/* Step 6 */
static void wire_unpack_srcnid_any(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;

	msg = tmsg(b, KIB_MSG_NOOP, 48, host_be());
	put_bytes(b, 16, ~0ULL, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 48), -EPROTO);
	msg = tmsg(b, KIB_MSG_CONNREQ, 56, !host_be());
	put_connparams(b, 8, 257, 4096, !host_be());
	put_bytes(b, 16, ~0ULL, 8, !host_be());
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 56), -EPROTO);
}

/* Step 8 */
static void wire_unpack_unknown_type(struct kunit *test)
{
	static const u8 types[] = { 0x00, 0xBF, 0xC2, 0xCF, 0xD8, 0xFF };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		msg = tmsg(b, types[i], 48, host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 48), -EPROTO,
				    "type %#x", types[i]);
		msg = tmsg(b, types[i], 4096, !host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 4096), -EPROTO,
				    "type %#x, 4096 bytes", types[i]);
	}
}

/* Step 7: one byte below each type's size ("Message types") */
static void wire_unpack_below_min(struct kunit *test)
{
	static const struct {
		u8		type;
		unsigned int	nob;
	} min[] = {
		{ 0xC0, 56 }, { 0xC1, 56 }, { 0xD1, 120 }, { 0xD2, 128 },
		{ 0xD3, 60 }, { 0xD4, 84 }, { 0xD5, 60 }, { 0xD6, 148 },
		{ 0xD7, 60 },
	};
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(min); i++) {
		unsigned int rd = min[i].type == 0xD4 ? 64 : 128;

		msg = tmsg(b, min[i].type, min[i].nob - 1, host_be());
		put_connparams(b, 8, 257, 4096, host_be());
		put_rd(b, rd, 1, 1, host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 4096), -EPROTO,
				    "type %#x nob %u", min[i].type,
				    min[i].nob - 1);

		msg = tmsg(b, min[i].type, min[i].nob, host_be());
		put_connparams(b, 8, 257, 4096, host_be());
		put_rd(b, rd, 1, 1, host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_msg_unpack(msg, 4096), 0,
				    "type %#x nob %u", min[i].type,
				    min[i].nob);
	}
}

/* Step 7: PUT_ACK/GET_REQ need 1..257 fragments, all inside ibm_nob */
static void wire_unpack_rd_nfrags(struct kunit *test)
{
	static const struct {
		u8		type;
		unsigned int	rd;	/* descriptor offset */
		unsigned int	base;	/* size with no fragment */
	} t[] = { { 0xD4, 64, 72 }, { 0xD6, 128, 136 } };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i, nob;
	unsigned int be;	/* 0: little-endian sender, 1: big */

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		for (be = 0; be < 2; be++) {
			/* 0 fragments, room for one */
			nob = t[i].base + 12;
			msg = tmsg(b, t[i].type, nob, be);
			put_rd(b, t[i].rd, 0, 1, be);
			KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, nob), -EPROTO);

			/* 258 fragments, all present */
			nob = t[i].base + 12 * 258;
			msg = tmsg(b, t[i].type, nob, be);
			put_rd(b, t[i].rd, 258, 258, be);
			KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, nob), -EPROTO);

			/* 3 fragments announced, 2 in the message */
			nob = t[i].base + 12 * 2;
			msg = tmsg(b, t[i].type, nob, be);
			put_rd(b, t[i].rd, 3, 2, be);
			KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 4096),
					-EPROTO);

			/* a huge count must not wrap the size computation */
			nob = t[i].base + 12;
			msg = tmsg(b, t[i].type, nob, be);
			put_rd(b, t[i].rd, 0x80000001U, 1, be);
			KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, nob), -EPROTO);

			/* 257 fragments: the maximum */
			nob = t[i].base + 12 * 257;
			msg = tmsg(b, t[i].type, nob, be);
			put_rd(b, t[i].rd, 257, 257, be);
			KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, nob), 0);
			KUNIT_EXPECT_EQ(test, get_bytes(b, t[i].rd + 4, 4,
							host_be()), 257ULL);
			KUNIT_EXPECT_EQ(test, get_bytes(b, t[i].rd + 8 + 12 * 256,
							4, host_be()),
					(u64)FRAG_NOB(256));
		}
	}
}

/* 2.3 by hand: bytes are added unsigned (see o2iblnd_proto.c) */
static void wire_cksum_function(struct kunit *test)
{
	static const u8 v[] = { 0x01, 0x02, 0x80 };
	u8 *b = tbuf(test);
	unsigned int i;

	/* 0 -> rol 0 + 1 = 1 -> rol 2 + 2 = 4 -> rol 8 + 0x80 = 0x88 */
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(v, 3), 0x88U);
	/* an empty sum is 0, sent as 1 */
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(v, 0), 1U);
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(b, 16), 1U);
	/* the rotation carries bit 31 round to bit 0 */
	for (i = 0; i < 32; i++)
		b[i] = 0xff;
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(b, 32), ref_cksum(b, 32));
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(b, 33), ref_cksum(b, 33));
}

/* Step 4: a non-zero checksum over ibm_nob bytes (field zero) must match */
static void wire_unpack_cksum(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	struct thdr h;
	unsigned int be;	/* 0: little-endian sender, 1: big */
	u32 sum;

	for (be = 0; be < 2; be++) {
		h = mkhdr(KIB_MSG_IMMEDIATE, 200);
		put_hdr(b, &h, be);
		put_lnet_hdr(b);
		memset(b + 120, 0x9c, 80);
		memset(b + 200, 0x11, 56);	/* beyond ibm_nob: not summed */
		sum = ref_cksum(b, 200);
		put_bytes(b, 12, sum, 4, be);
		msg = (struct kib_msg *)b;
		KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 256), 0);
		KUNIT_EXPECT_EQ(test, msg->hdr.cksum, sum);
		KUNIT_EXPECT_EQ(test, msg->hdr.srcnid, NID_B);

		/* any other non-zero value is refused */
		h = mkhdr(KIB_MSG_IMMEDIATE, 200);
		put_hdr(b, &h, be);
		put_bytes(b, 12, sum + 1, 4, be);
		KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 256), -EPROTO);
		put_bytes(b, 12, sum, 4, be);
		b[150] ^= 0x01;		/* a corrupted body */
		KUNIT_EXPECT_EQ(test, kib_msg_unpack(msg, 256), -EPROTO);
	}
}

/* Step 9 */
static void wire_check_stamps(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg = tmsg(b, KIB_MSG_NOOP, 48, !host_be());

	KUNIT_ASSERT_EQ(test, kib_msg_unpack(msg, 48), 0);
	/* we are A, the peer is B */
	KUNIT_EXPECT_EQ(test, kib_msg_check_stamps(msg, NID_B, STAMP_B,
						   NID_A, STAMP_A), 0);
	KUNIT_EXPECT_EQ(test, kib_msg_check_stamps(msg, NID_C, STAMP_B,
						   NID_A, STAMP_A), -ESTALE);
	KUNIT_EXPECT_EQ(test, kib_msg_check_stamps(msg, NID_B, STAMP_B + 1,
						   NID_A, STAMP_A), -ESTALE);
	KUNIT_EXPECT_EQ(test, kib_msg_check_stamps(msg, NID_B, STAMP_B,
						   NID_C, STAMP_A), -ESTALE);
	KUNIT_EXPECT_EQ(test, kib_msg_check_stamps(msg, NID_B, STAMP_B,
						   NID_A, 0), -ESTALE);
}

static struct kunit_case o2iblnd_wire_cases[] = {
	KUNIT_CASE(wire_constants),
	KUNIT_CASE(wire_nob),
	KUNIT_CASE(wire_pack_header),
	KUNIT_CASE(wire_pack_cksum),
	KUNIT_CASE(wire_pack_bodies),
	KUNIT_CASE(wire_unpack_native),
	KUNIT_CASE(wire_unpack_swapped_hdr),
	KUNIT_CASE(wire_unpack_swapped_connparams),
	KUNIT_CASE(wire_unpack_swapped_completion),
	KUNIT_CASE(wire_unpack_swapped_put_ack),
	KUNIT_CASE(wire_unpack_swapped_get_req),
	KUNIT_CASE(wire_unpack_swapped_put_req),
	KUNIT_CASE(wire_unpack_short),
	KUNIT_CASE(wire_unpack_bad_magic),
	KUNIT_CASE(wire_unpack_bad_version),
	KUNIT_CASE(wire_unpack_nob_too_large),
	KUNIT_CASE(wire_unpack_srcnid_any),
	KUNIT_CASE(wire_unpack_unknown_type),
	KUNIT_CASE(wire_unpack_below_min),
	KUNIT_CASE(wire_unpack_rd_nfrags),
	KUNIT_CASE(wire_cksum_function),
	KUNIT_CASE(wire_unpack_cksum),
	KUNIT_CASE(wire_check_stamps),
	{}
};

static struct kunit_suite o2iblnd_wire_suite = {
	.name = "o2iblnd_wire",
	.test_cases = o2iblnd_wire_cases,
};

/* ---- o2iblnd_connect: "Passive side", "Active side", rejects, races ---- */

/* The passive side A: its NID, incarnation and peer_credits */
static const struct kib_accept_limits lim_a = {
	.own_nid = NID_A, .own_stamp = STAMP_A, .max_queue_depth = 8,
};

/* A good CONNREQ from B to A ("Active side" step 2), in byte order @be */
static struct kib_msg *connreq(u8 *b, bool be)
{
	struct thdr h = mkhdr(KIB_MSG_CONNREQ, 56);

	h.credits = 0;
	put_hdr(b, &h, be);
	put_connparams(b, 8, 257, 4096, be);
	return (struct kib_msg *)b;
}

static void conn_req_accept(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version = 0;

	msg = connreq(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version), 0);
	KUNIT_EXPECT_EQ(test, version, T_V2);

	/* swapped, with a smaller queue and an unknown incarnation */
	msg = connreq(b, !host_be());
	put_connparams(b, 2, 257, 4096, !host_be());
	put_bytes(b, 40, 0, 8, !host_be());
	version = 0;
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version), 0);
	KUNIT_EXPECT_EQ(test, version, T_V2);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcnid, NID_B);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcstamp, STAMP_B);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.queue_depth, 2);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_frags, 257);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_msg_size, 4096U);

	/* the limits themselves are acceptable */
	msg = connreq(b, host_be());
	put_connparams(b, 8, 1, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version), 0);
	msg = connreq(b, host_be());
	put_connparams(b, 8, 257, 48, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version), 0);
}

/* Step 2: the unified magic is refused FATAL, telling our version */
static void conn_req_unified_magic(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int be;	/* 0: little-endian sender, 1: big */
	u16 version;

	for (be = 0; be < 2; be++) {
		msg = connreq(b, be);
		put_bytes(b, 0, T_UNIFIED, 4, be);
		version = 0;
		KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a,
							&version),
				KIB_REJECT_FATAL);
		KUNIT_EXPECT_EQ(test, version, T_V2);
		/* a bare probe of 6 bytes too */
		version = 0;
		KUNIT_EXPECT_EQ(test, kib_connreq_check(tdup(test, b, 6), 6,
							&lim_a, &version),
				KIB_REJECT_FATAL);
		KUNIT_EXPECT_EQ(test, version, T_V2);
	}
}

/* Step 2: less than 6 bytes, an unknown magic or version: FATAL */
static void conn_req_bad_version(struct kunit *test)
{
	static const u16 versions[] = { 0x10, 0x13, 0x1200 };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;
	u16 version;

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		msg = connreq(b, !host_be());
		put_bytes(b, 4, versions[i], 2, !host_be());
		version = 0;
		KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a,
							&version),
				KIB_REJECT_FATAL);
		KUNIT_EXPECT_EQ(test, version, T_V2);
	}
	msg = connreq(b, host_be());
	version = 0;
	KUNIT_EXPECT_EQ(test, kib_connreq_check(tdup(test, b, 5), 5, &lim_a,
						&version),
			KIB_REJECT_FATAL);
	KUNIT_EXPECT_EQ(test, version, T_V2);
	msg = connreq(b, host_be());
	put_bytes(b, 0, 0x12345678, 4, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
}

/* Step 3: the request must be a valid message ("Receive checks") */
static void conn_req_invalid_msg(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version;

	msg = connreq(b, host_be());
	put_bytes(b, 16, ~0ULL, 8, host_be());		/* srcnid ANY */
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
	msg = connreq(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 48, &lim_a, &version),
			KIB_REJECT_FATAL);			/* short */
	msg = connreq(b, host_be());
	put_bytes(b, 12, 0x5a5a5a5a, 4, host_be());	/* bad cksum */
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
}

/* Step 4: no NI ready yet (EARLY), or addressed to another NID (FATAL) */
static void conn_req_dstnid(struct kunit *test)
{
	struct kib_accept_limits lim = lim_a;
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version = 0;

	lim.own_nid = LNET_NID_ANY;
	msg = connreq(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim, &version),
			KIB_REJECT_EARLY);
	KUNIT_EXPECT_EQ(test, version, T_V2);

	msg = connreq(b, host_be());
	put_bytes(b, 32, NID_C, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
	/* same address, other net (o2ib1) */
	msg = connreq(b, !host_be());
	put_bytes(b, 32, 0x00050001C0000201ULL, 8, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
}

/* Step 5: a destination stamp that is neither 0 nor ours */
static void conn_req_stale(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version;

	msg = connreq(b, host_be());
	put_bytes(b, 40, STAMP_A - 1, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_CONN_STALE);
	msg = connreq(b, !host_be());
	put_bytes(b, 40, STAMP_B, 8, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_CONN_STALE);
	msg = connreq(b, host_be());
	put_bytes(b, 40, 0, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version), 0);
}

/* Step 6 */
static void conn_req_not_connreq(struct kunit *test)
{
	static const u8 types[] = { 0xC1, 0xD0, 0xD7 };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;
	u16 version;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		msg = connreq(b, host_be());
		b[6] = types[i];
		KUNIT_EXPECT_EQ_MSG(test, kib_connreq_check(msg, 56, &lim_a,
							    &version),
				    KIB_REJECT_FATAL, "type %#x", types[i]);
	}
}

/* This LND speaks V2 only: a V1 request is told to retry in V2 */
static void conn_req_v1_uncompat(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version;
	unsigned int be;	/* 0: little-endian sender, 1: big */

	for (be = 0; be < 2; be++) {
		msg = connreq(b, be);
		put_bytes(b, 4, T_V1, 2, be);
		version = 0;
		KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a,
							&version),
				KIB_REJECT_CONN_UNCOMPAT);
		KUNIT_EXPECT_EQ(test, version, T_V2);
	}
}

/* A V1 requester refused for another reason is told our version too */
static void conn_req_v1_early_version(struct kunit *test)
{
	struct kib_accept_limits lim = lim_a;
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version = 0;

	lim.own_nid = LNET_NID_ANY;
	msg = connreq(b, host_be());
	put_bytes(b, 4, T_V1, 2, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim, &version),
			KIB_REJECT_EARLY);
	KUNIT_EXPECT_EQ(test, version, T_V2);
}

/* Step 7: queue depth above our peer_credits */
static void conn_req_queue_size(struct kunit *test)
{
	struct kib_accept_limits lim = lim_a;
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version = 0;

	msg = connreq(b, host_be());
	put_connparams(b, 9, 257, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_MSG_QUEUE_SIZE);
	KUNIT_EXPECT_EQ(test, version, T_V2);

	lim.max_queue_depth = 255;
	msg = connreq(b, !host_be());
	put_connparams(b, 255, 257, 4096, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim, &version), 0);
	msg = connreq(b, !host_be());
	put_connparams(b, 256, 257, 4096, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim, &version),
			KIB_REJECT_MSG_QUEUE_SIZE);
}

/* Step 8: max frags outside 1..257 */
static void conn_req_rdma_frags(struct kunit *test)
{
	static const u16 frags[] = { 0, 258, 0x0200, 0xffff };
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	unsigned int i;
	u16 version;

	for (i = 0; i < ARRAY_SIZE(frags); i++) {
		msg = connreq(b, host_be());
		put_connparams(b, 8, frags[i], 4096, host_be());
		KUNIT_EXPECT_EQ_MSG(test, kib_connreq_check(msg, 56, &lim_a,
							    &version),
				    KIB_REJECT_RDMA_FRAGS, "frags %u",
				    frags[i]);
	}
}

/* Step 9 */
static void conn_req_msg_size(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version;

	msg = connreq(b, host_be());
	put_connparams(b, 8, 257, 4097, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
	msg = connreq(b, !host_be());
	put_connparams(b, 8, 257, 8192, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
}

/* A request failing two checks gets the reason of the earlier one */
static void conn_req_order(struct kunit *test)
{
	struct kib_accept_limits early = lim_a;
	u8 *b = tbuf(test);
	struct kib_msg *msg;
	u16 version;

	early.own_nid = LNET_NID_ANY;

	/* EARLY before STALE */
	msg = connreq(b, host_be());
	put_bytes(b, 40, 1, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &early, &version),
			KIB_REJECT_EARLY);
	/* wrong NID (FATAL) before STALE */
	msg = connreq(b, host_be());
	put_bytes(b, 32, NID_C, 8, host_be());
	put_bytes(b, 40, 1, 8, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
	/* STALE before the type check */
	msg = connreq(b, host_be());
	put_bytes(b, 40, 1, 8, host_be());
	b[6] = 0xC1;
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_CONN_STALE);
	/* type (FATAL) before the parameters */
	msg = connreq(b, host_be());
	b[6] = 0xC1;
	put_connparams(b, 9, 258, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_FATAL);
	/* MSG_QUEUE_SIZE before RDMA_FRAGS */
	msg = connreq(b, host_be());
	put_connparams(b, 9, 258, 4096, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_MSG_QUEUE_SIZE);
	/* RDMA_FRAGS before the message size (FATAL) */
	msg = connreq(b, host_be());
	put_connparams(b, 8, 258, 4097, host_be());
	KUNIT_EXPECT_EQ(test, kib_connreq_check(msg, 56, &lim_a, &version),
			KIB_REJECT_RDMA_FRAGS);
}

/* The CONNACK A sends back to B ("Passive side", "Accept") */
static struct kib_msg *connack(u8 *b, bool be)
{
	struct thdr h = mkhdr(KIB_MSG_CONNACK, 56);

	h.credits = 0;
	h.srcnid = NID_A;
	h.srcstamp = STAMP_A;
	h.dstnid = NID_B;
	h.dststamp = STAMP_B;
	put_hdr(b, &h, be);
	put_connparams(b, 8, 257, 4096, be);
	return (struct kib_msg *)b;
}

static void conn_ack_accept(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;

	msg = connack(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), 0);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcstamp, STAMP_A);

	/* swapped, granting less than asked */
	msg = connack(b, !host_be());
	put_connparams(b, 4, 16, 4096, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), 0);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.queue_depth, 4);
	KUNIT_EXPECT_EQ(test, msg->u.connparams.max_frags, 16);
	KUNIT_EXPECT_EQ(test, msg->hdr.srcstamp, STAMP_A);
}

/* "Active side" step 3: anything but a fitting CONNACK is a protocol error */
static void conn_ack_eproto(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;

	msg = connack(b, host_be());
	b[6] = 0xC0;					/* a CONNREQ */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	put_bytes(b, 4, T_V1, 2, host_be());		/* not our version */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, !host_be());
	put_connparams(b, 9, 257, 4096, !host_be());	/* deeper queue */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	put_connparams(b, 8, 258, 4096, host_be());	/* more frags */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	put_connparams(b, 8, 32, 4096, host_be());	/* more than asked */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 16, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	put_connparams(b, 8, 257, 4097, host_be());	/* bigger messages */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 55, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
	msg = connack(b, host_be());
	put_bytes(b, 0, 0x0BE91B90, 4, host_be());	/* not o2iblnd */
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -EPROTO);
}

/* "Active side" step 3: addressed to another NID or incarnation of us */
static void conn_ack_estale(struct kunit *test)
{
	u8 *b = tbuf(test);
	struct kib_msg *msg;

	msg = connack(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B + 1), -ESTALE);
	msg = connack(b, !host_be());
	put_bytes(b, 40, 0, 8, !host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_B,
						STAMP_B), -ESTALE);
	msg = connack(b, host_be());
	KUNIT_EXPECT_EQ(test, kib_connack_check(msg, 56, T_V2, 8, 257, NID_C,
						STAMP_B), -ESTALE);
}

/* "Reject data": the 24 bytes of a reject, in native order */
static void conn_rej_roundtrip(struct kunit *test)
{
	u8 b[24];
	struct kib_rej_info info;
	bool be = host_be();

	memset(b, 0xa5, sizeof(b));
	kib_rej_pack((struct kib_rej *)b, T_V2, KIB_REJECT_MSG_QUEUE_SIZE,
		     STAMP_A, 8, 257);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 0, 4, be), (u64)T_MAGIC);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 4, 2, be), (u64)T_V2);
	KUNIT_EXPECT_EQ(test, b[6], 7);
	KUNIT_EXPECT_EQ(test, b[7], 0);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 8, 8, be), STAMP_A);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 16, 2, be), 8ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 18, 2, be), 257ULL);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 20, 4, be), 4096ULL);

	memset(&info, 0xa5, sizeof(info));
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, T_V2);
	KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_MSG_QUEUE_SIZE);
	KUNIT_EXPECT_EQ(test, info.incarnation, STAMP_A);
	KUNIT_EXPECT_EQ(test, info.queue_depth, 8);
	KUNIT_EXPECT_EQ(test, info.max_frags, 257);
	KUNIT_EXPECT_TRUE(test, info.has_params);

	/* no NI matched: no incarnation nor parameters */
	kib_rej_pack((struct kib_rej *)b, T_V2, KIB_REJECT_EARLY, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, b[6], 9);
	KUNIT_EXPECT_EQ(test, get_bytes(b, 8, 8, be), 0ULL);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
	KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_EARLY);
	KUNIT_EXPECT_EQ(test, info.incarnation, 0ULL);
}

/* A reject from a peer of the other byte order */
static void conn_rej_swapped(struct kunit *test)
{
	struct kib_rej_info info;
	bool be = !host_be();
	u8 b[24];

	put_bytes(b, 0, T_MAGIC, 4, be);
	put_bytes(b, 4, T_V2, 2, be);
	b[6] = KIB_REJECT_RDMA_FRAGS;
	b[7] = 0;
	put_bytes(b, 8, STAMP_B, 8, be);
	put_bytes(b, 16, 0x0102, 2, be);
	put_bytes(b, 18, 0x0100, 2, be);
	put_bytes(b, 20, 4096, 4, be);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, T_V2);
	KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_RDMA_FRAGS);
	KUNIT_EXPECT_EQ(test, info.incarnation, STAMP_B);
	KUNIT_EXPECT_EQ(test, info.queue_depth, 0x0102);
	KUNIT_EXPECT_EQ(test, info.max_frags, 0x0100);
	KUNIT_EXPECT_TRUE(test, info.has_params);

	/* the unified magic, either order, is accepted too */
	put_bytes(b, 0, T_UNIFIED, 4, be);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, T_V2);
	KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_RDMA_FRAGS);
	put_bytes(b, 0, T_UNIFIED, 4, !be);
	put_bytes(b, 4, T_V2, 2, !be);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, T_V2);
}

/* Parameters only from >= 24 bytes with a version above V1 */
static void conn_rej_no_params(struct kunit *test)
{
	struct kib_rej_info info;
	u8 b[24];
	unsigned int be;	/* 0: little-endian sender, 1: big */

	for (be = 0; be < 2; be++) {
		put_bytes(b, 0, T_MAGIC, 4, be);
		put_bytes(b, 4, T_V1, 2, be);
		b[6] = KIB_REJECT_FATAL;
		b[7] = 0;
		put_bytes(b, 8, STAMP_B, 8, be);
		put_bytes(b, 16, 8, 2, be);
		put_bytes(b, 18, 257, 2, be);
		put_bytes(b, 20, 4096, 4, be);
		KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), 0);
		KUNIT_EXPECT_EQ(test, info.version, T_V1);
		KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_FATAL);
		KUNIT_EXPECT_FALSE(test, info.has_params);

		/* V2 but short of the 24 bytes */
		put_bytes(b, 4, T_V2, 2, be);
		KUNIT_EXPECT_EQ(test, kib_rej_unpack(tdup(test, b, 23), 23,
						     &info), 0);
		KUNIT_EXPECT_EQ(test, info.version, T_V2);
		KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_FATAL);
		KUNIT_EXPECT_FALSE(test, info.has_params);
		/* magic, version and reason are enough */
		KUNIT_EXPECT_EQ(test, kib_rej_unpack(tdup(test, b, 7), 7,
						     &info), 0);
		KUNIT_EXPECT_EQ(test, info.why, KIB_REJECT_FATAL);
		KUNIT_EXPECT_FALSE(test, info.has_params);
	}
}

static void conn_rej_garbage(struct kunit *test)
{
	struct kib_rej_info info;
	u8 b[24];

	memset(b, 0, sizeof(b));
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), -EPROTO);
	put_bytes(b, 0, 0xdeadbeef, 4, host_be());
	b[6] = KIB_REJECT_CONN_RACE;
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), -EPROTO);
	put_bytes(b, 0, 0x0BE91B90, 4, host_be());
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 24, &info), -EPROTO);
	/* no room for the reason */
	put_bytes(b, 0, T_MAGIC, 4, host_be());
	put_bytes(b, 4, T_V2, 2, host_be());
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 6, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(b, 0, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(NULL, 0, &info), -EPROTO);
}

/*
 * "Connection races", master rule: hash(nid) = net ^ (the IPv4 address read
 * as a host-order u32 from its network-order bytes); reject the incoming
 * CONNREQ when hash(peer) < hash(own). o2ib0 is net 0x00050000.
 *
 * Little-endian host (bytes C0 00 02 01 read as 0x010200C0):
 *   A 192.0.2.1   0x010200C0 ^ 0x50000 = 0x010700C0
 *   B 192.0.2.2   0x020200C0 ^ 0x50000 = 0x020700C0
 *   C 10.0.0.2    0x0200000A ^ 0x50000 = 0x0205000A
 *   D 192.0.2.255 0xFF0200C0 ^ 0x50000 = 0xFF0700C0
 *   E 192.0.3.1   0x010300C0 ^ 0x50000 = 0x010600C0
 * Big-endian host (the address as is):
 *   A 0xC0050201  B 0xC0050202  C 0x0A050002  D 0xC00502FF  E 0xC0050301
 *
 * E against A shows both details: by plain address (and by b2_15's nid
 * comparison) E is higher, but after the XOR with the net its hash is lower.
 */
static void conn_race_master_rule(struct kunit *test)
{
	static const struct {
		u64	peer;
		u64	own;
		bool	le;	/* expected on a little-endian host */
		bool	be;	/* on a big-endian host */
	} t[] = {
		{ NID_B, NID_A, false, false },	/* B higher: B keeps its own */
		{ NID_A, NID_B, true,  true },	/* we are higher: refuse */
		{ NID_C, NID_A, false, true },	/* 0x0205000A > 0x010700C0 */
		{ NID_A, NID_C, true,  false },
		{ NID_D, NID_E, false, true },	/* 0xFF0700C0 > 0x010600C0 */
		{ NID_E, NID_D, true,  false },
		{ NID_E, NID_A, true,  false },	/* 0x010600C0 < 0x010700C0 */
		{ NID_A, NID_E, false, true },
		{ NID_A, NID_A, false, false },	/* equal: not lower */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    kib_race_reject_incoming(t[i].peer,
							     t[i].own),
				    host_be() ? t[i].be : t[i].le,
				    "peer %#llx own %#llx", t[i].peer,
				    t[i].own);
}

/* Of two distinct nodes racing, exactly one refuses the other */
static void conn_race_one_winner(struct kunit *test)
{
	static const u64 nids[] = {
		NID_A, NID_B, NID_C, NID_D, NID_E,
		0x00050001C0000201ULL,	/* 192.0.2.1@o2ib1 */
		0x000500000A000001ULL,	/* 10.0.0.1@o2ib */
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(nids); i++) {
		for (j = 0; j < ARRAY_SIZE(nids); j++) {
			bool ij = kib_race_reject_incoming(nids[i], nids[j]);
			bool ji = kib_race_reject_incoming(nids[j], nids[i]);

			if (i == j)
				KUNIT_EXPECT_FALSE(test, ij);
			else
				KUNIT_EXPECT_NE_MSG(test, ij, ji,
						    "%#llx vs %#llx",
						    nids[i], nids[j]);
		}
	}
}

static struct kunit_case o2iblnd_connect_cases[] = {
	KUNIT_CASE(conn_req_accept),
	KUNIT_CASE(conn_req_unified_magic),
	KUNIT_CASE(conn_req_bad_version),
	KUNIT_CASE(conn_req_invalid_msg),
	KUNIT_CASE(conn_req_dstnid),
	KUNIT_CASE(conn_req_stale),
	KUNIT_CASE(conn_req_not_connreq),
	KUNIT_CASE(conn_req_v1_uncompat),
	KUNIT_CASE(conn_req_v1_early_version),
	KUNIT_CASE(conn_req_queue_size),
	KUNIT_CASE(conn_req_rdma_frags),
	KUNIT_CASE(conn_req_msg_size),
	KUNIT_CASE(conn_req_order),
	KUNIT_CASE(conn_ack_accept),
	KUNIT_CASE(conn_ack_eproto),
	KUNIT_CASE(conn_ack_estale),
	KUNIT_CASE(conn_rej_roundtrip),
	KUNIT_CASE(conn_rej_swapped),
	KUNIT_CASE(conn_rej_no_params),
	KUNIT_CASE(conn_rej_garbage),
	KUNIT_CASE(conn_race_master_rule),
	KUNIT_CASE(conn_race_one_winner),
	{}
};

static struct kunit_suite o2iblnd_connect_suite = {
	.name = "o2iblnd_connect",
	.test_cases = o2iblnd_connect_cases,
};

kunit_test_suites(&o2iblnd_wire_suite, &o2iblnd_connect_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit suites for ko2iblnd.ko's wire format");
MODULE_IMPORT_NS(lnet_kunit);
