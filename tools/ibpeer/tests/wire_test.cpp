// SPDX-License-Identifier: GPL-2.0
// The o2iblnd wire against Documentation/wire/o2iblnd.md's offsets and
// receive checks.
#include <gtest/gtest.h>

#include "wire.hpp"

namespace ibpeer::wire {
namespace {

namespace sw = sockpeer::wire;

constexpr std::uint64_t a_nid = 0x00050000C0A80102ULL;	// 192.168.1.2@o2ib
constexpr std::uint64_t b_nid = 0x00050000C0A80103ULL;

Msg base(std::uint8_t type)
{
	Msg m;
	m.hdr.type = type;
	m.hdr.srcnid = a_nid;
	m.hdr.srcstamp = 0x1111222233334444ULL;
	m.hdr.dstnid = b_nid;
	m.hdr.dststamp = 0x5555666677778888ULL;
	m.hdr.credits = 3;
	return m;
}

// decode(encode(m)) == m, with nob filled in as the encoder does
void round_trip(Msg m, Order order)
{
	m.hdr.order = order;
	const Bytes b = encode(m);
	m.hdr.nob = static_cast<std::uint32_t>(b.size());
	const auto d = decode(b);
	ASSERT_TRUE(d) << to_string(d.error());
	EXPECT_EQ(*d, m);
}

TEST(IbWire, Nids)
{
	EXPECT_EQ(o2ib_nid(0xC0A80102), a_nid);
	EXPECT_EQ(o2ib_nid(0xC0A80102, 3), 0x00050003C0A80102ULL);
	EXPECT_EQ(nid_to_string(a_nid), "192.168.1.2@o2ib");
	EXPECT_EQ(nid_to_string(o2ib_nid(0x0A000001, 2)), "10.0.0.1@o2ib2");
	EXPECT_EQ(nid_to_string(sw::tcp_nid(0x0A000001)), "10.0.0.1@tcp");
}

TEST(IbWire, TypeSizes)
{
	// "Message types", last column
	EXPECT_EQ(type_size(msg_connreq), 56U);
	EXPECT_EQ(type_size(msg_connack), 56U);
	EXPECT_EQ(type_size(msg_noop), 48U);
	EXPECT_EQ(type_size(msg_immediate), 120U);
	EXPECT_EQ(type_size(msg_put_req), 128U);
	EXPECT_EQ(type_size(msg_put_nak), 60U);
	EXPECT_EQ(type_size(msg_put_ack, 2), 72U + 24U);
	EXPECT_EQ(type_size(msg_put_done), 60U);
	EXPECT_EQ(type_size(msg_get_req, 1), 136U + 12U);
	EXPECT_EQ(type_size(msg_get_done), 60U);
	EXPECT_EQ(type_size(0xEE), 0U);
	EXPECT_EQ(immediate_max, 3976U);
}

TEST(IbWire, ConnreqLayout)
{
	Msg m = base(msg_connreq);
	m.hdr.credits = 0;
	m.params = {8, 257, 4096};
	const Bytes b = encode(m);
	ASSERT_EQ(b.size(), 56U);
	EXPECT_EQ(sw::get32(b, 0), msg_magic);
	EXPECT_EQ(b[0], 0x91);
	EXPECT_EQ(sw::get16(b, 4), 0x12);
	EXPECT_EQ(b[6], 0xC0);
	EXPECT_EQ(b[7], 0);
	EXPECT_EQ(sw::get32(b, 8), 56U);
	EXPECT_EQ(sw::get32(b, 12), 0U);
	EXPECT_EQ(sw::get64(b, 16), a_nid);
	EXPECT_EQ(sw::get64(b, 24), 0x1111222233334444ULL);
	EXPECT_EQ(sw::get64(b, 32), b_nid);
	EXPECT_EQ(sw::get64(b, 40), 0x5555666677778888ULL);
	EXPECT_EQ(sw::get16(b, 48), 8);
	EXPECT_EQ(sw::get16(b, 50), 257);
	EXPECT_EQ(sw::get32(b, 52), 4096U);
}

TEST(IbWire, BigEndianHeader)
{
	Msg m = base(msg_noop);
	m.hdr.order = Order::big;
	const Bytes b = encode(m);
	EXPECT_EQ(b[0], 0x0B);
	EXPECT_EQ(sw::get32(b, 8, Order::big), 48U);
	EXPECT_EQ(sw::get64(b, 16, Order::big), a_nid);
}

TEST(IbWire, PutAckLayout)
{
	Msg m = base(msg_put_ack);
	m.cookie = 0xAAAA;
	m.dst_cookie = 0xBBBB;
	m.rd = {0x1234, 2, {{4096, 0x1000000000ULL}, {100, 0x2000}}};
	const Bytes b = encode(m);
	ASSERT_EQ(b.size(), 72U + 24U);
	EXPECT_EQ(sw::get64(b, 48), 0xAAAAU);
	EXPECT_EQ(sw::get64(b, 56), 0xBBBBU);
	EXPECT_EQ(sw::get32(b, 64), 0x1234U);
	EXPECT_EQ(sw::get32(b, 68), 2U);
	EXPECT_EQ(sw::get32(b, 72), 4096U);
	// packed: the address is not 8-byte aligned
	EXPECT_EQ(sw::get64(b, 76), 0x1000000000ULL);
	EXPECT_EQ(sw::get32(b, 84), 100U);
	EXPECT_EQ(sw::get64(b, 88), 0x2000U);
}

TEST(IbWire, GetReqAndCompletionLayout)
{
	Msg g = base(msg_get_req);
	g.lnet = ping_get(a_nid, b_nid, {1, 2}, 1024);
	g.cookie = 0xC00C1E;
	g.rd = {7, 1, {{1024, 0x4000}}};
	Bytes b = encode(g);
	ASSERT_EQ(b.size(), 148U);
	EXPECT_EQ(sw::get64(b, 48), b_nid);		// LNet dest_nid
	EXPECT_EQ(sw::get32(b, 48 + 24), sw::lnet_get);
	EXPECT_EQ(sw::get64(b, 120), 0xC00C1EU);
	EXPECT_EQ(sw::get32(b, 128), 7U);
	EXPECT_EQ(sw::get32(b, 132), 1U);

	Msg c = base(msg_get_done);
	c.cookie = 0x99;
	c.status = -61;
	b = encode(c);
	ASSERT_EQ(b.size(), 60U);
	EXPECT_EQ(sw::get64(b, 48), 0x99U);
	EXPECT_EQ(static_cast<std::int32_t>(sw::get32(b, 56)), -61);
}

TEST(IbWire, PingGet)
{
	const auto h = ping_get(a_nid, b_nid, {0x11, 0x22}, 1024);
	const Bytes b = sw::encode(h);
	ASSERT_EQ(b.size(), 72U);
	EXPECT_EQ(sw::get64(b, 0), b_nid);
	EXPECT_EQ(sw::get64(b, 8), a_nid);
	EXPECT_EQ(sw::get32(b, 16), 12345U);
	EXPECT_EQ(sw::get32(b, 20), 12345U);
	EXPECT_EQ(sw::get32(b, 24), sw::lnet_get);
	EXPECT_EQ(sw::get32(b, 28), 0U);
	EXPECT_EQ(sw::get64(b, 32), 0x11U);
	EXPECT_EQ(sw::get64(b, 40), 0x22U);
	EXPECT_EQ(sw::get64(b, 48), 0x8000000000000000ULL);
	EXPECT_EQ(sw::get32(b, 56), 0U);	// portal 0
	EXPECT_EQ(sw::get32(b, 64), 1024U);	// sink length
}

TEST(IbWire, RoundTrips)
{
	for (const Order o : {Order::little, Order::big}) {
		Msg m = base(msg_connack);
		m.params = {4, 200, 4096};
		round_trip(m, o);
		round_trip(base(msg_noop), o);
		m = base(msg_immediate);
		m.lnet = put(a_nid, b_nid, 42, 0x201, 5);
		m.payload = {1, 2, 3, 4, 5};
		round_trip(m, o);
		m = base(msg_put_req);
		m.lnet = put(a_nid, b_nid, 42, 0x201, 65536);
		m.cookie = 0x123456789ULL;
		round_trip(m, o);
		m = base(msg_put_ack);
		m.cookie = 1;
		m.dst_cookie = 2;
		m.rd = {0xFEED, 3, {{1, 2}, {3, 4}, {5, 6}}};
		round_trip(m, o);
		m = base(msg_get_req);
		m.lnet = get(a_nid, b_nid, 42, 0x101, 8192, {3, 4});
		m.cookie = 9;
		m.rd = {0xFEED, 1, {{8192, 0x7000}}};
		round_trip(m, o);
		for (const auto t : {msg_put_nak, msg_put_done, msg_get_done}) {
			m = base(t);
			m.cookie = 77;
			m.status = -5;
			round_trip(m, o);
		}
	}
}

TEST(IbWire, Checksum)
{
	// rotate left 1 and add, unsigned bytes
	const Bytes b{0x01, 0x80, 0xFF};
	const std::uint32_t want = std::rotl(std::rotl(std::rotl(0U, 1) + 1, 1) + 0x80U, 1) + 0xFFU;
	EXPECT_EQ(cksum(b), want);
	EXPECT_EQ(cksum(Bytes(10, 0)), 1U);	// 0 is sent as 1

	Msg m = base(msg_immediate);
	m.lnet = put(a_nid, b_nid, 42, 0x201, 3);
	m.payload = {9, 8, 7};
	Bytes good = encode(m, {.cksum = true});
	EXPECT_NE(sw::get32(good, 12), 0U);
	const auto d = decode(good);
	ASSERT_TRUE(d);
	good[121] ^= 1;	// one payload bit
	EXPECT_EQ(decode(good).error(), Error::bad_cksum);
	m.hdr.cksum = 0x12345678;
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_cksum);
}

TEST(IbWire, ReceiveChecks)
{
	Bytes ok = encode(base(msg_noop));
	EXPECT_TRUE(decode(ok));
	EXPECT_EQ(decode(ByteView(ok).first(5)).error(), Error::truncated);
	EXPECT_EQ(decode(ByteView(ok).first(40)).error(), Error::truncated);

	Msg m = base(msg_noop);
	m.hdr.magic = 0x12345678;
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_magic);
	m = base(msg_noop);
	m.hdr.version = 0x13;
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_version);
	m = base(msg_noop);
	m.hdr.nob = 49;		// beyond the 48 bytes
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_nob);
	m.hdr.nob = 47;
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_nob);
	m = base(0xEE);
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_type);
	m = base(msg_noop);
	m.hdr.srcnid = sw::nid_any;
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_nid);
	m = base(msg_put_req);
	m.hdr.nob = 120;	// no cookie
	Bytes b = encode(m);
	EXPECT_EQ(decode(b).error(), Error::truncated);

	// descriptors: 1..257 fragments within nob
	m = base(msg_get_req);
	m.lnet = get(a_nid, b_nid, 42, 0x101, 8192, {3, 4});
	m.rd = {1, 0, {}};
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_frags);
	m.rd = {1, 258, std::vector<Frag>(258, {8, 0})};
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_frags);
	m.rd = {1, 2, {{8, 0}}};
	EXPECT_EQ(decode(encode(m)).error(), Error::bad_frags);
	m.rd = {1, 257, std::vector<Frag>(257, {8, 0})};
	EXPECT_TRUE(decode(encode(m)));

	// bytes after nob are not the message's
	b = encode(base(msg_noop));
	b.resize(200, 0xEE);
	const auto d = decode(b);
	ASSERT_TRUE(d);
	EXPECT_EQ(d->hdr.nob, 48U);
}

TEST(IbWire, Rejects)
{
	Reject r;
	r.reason = rej_no_resources;
	r.incarnation = 0xABCDEF;
	r.queue_depth = 8;
	r.max_frags = 257;
	r.max_msg_size = 4096;
	Bytes b = encode(r);
	ASSERT_EQ(b.size(), 24U);
	EXPECT_EQ(b[6], rej_no_resources);
	r.has_params = true;
	auto d = decode_reject(b);
	ASSERT_TRUE(d);
	EXPECT_EQ(*d, r);

	// IB CM private data is longer than the 24 bytes
	b.resize(148, 0);
	EXPECT_TRUE(decode_reject(b)->has_params);

	r.order = Order::big;
	d = decode_reject(encode(r));
	ASSERT_TRUE(d);
	EXPECT_EQ(d->incarnation, 0xABCDEFU);

	// V1: magic, version, reason only
	Reject v1;
	v1.version = version_1;
	v1.reason = rej_fatal;
	d = decode_reject(encode(v1));
	ASSERT_TRUE(d);
	EXPECT_FALSE(d->has_params);

	Reject u;
	u.magic = unified_magic;
	u.reason = rej_fatal;
	EXPECT_TRUE(decode_reject(ByteView(encode(u)).first(8)));
	EXPECT_EQ(decode_reject(Bytes(24, 0)).error(), Error::bad_magic);
	EXPECT_EQ(decode_reject(Bytes(4, 0)).error(), Error::truncated);
	EXPECT_EQ(reject_name(rej_msg_queue_size), "MSG_QUEUE_SIZE");
}

}  // namespace
}  // namespace ibpeer::wire
