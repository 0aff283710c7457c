// SPDX-License-Identifier: GPL-2.0
//
// The selftest messages against Documentation/wire/selftest.md ("Message
// header", "Framework bodies", "Test parameters"): offsets are the
// document's, checked on the encoder's bytes field by field.
#include "lst_wire.hpp"

#include <gtest/gtest.h>

namespace sockpeer::lst {
namespace {

using wire::get16;
using wire::get32;
using wire::get64;

constexpr std::size_t B = header_size;	// body offsets are from here

void expect_header(const Bytes &m, std::uint32_t type, Order o = Order::little,
		   std::uint32_t feats = feat_bulk_len)
{
	ASSERT_EQ(m.size(), 160U);
	EXPECT_EQ(get32(m, 0, o), 0xEEB0F00DU);
	EXPECT_EQ(get32(m, 4, o), 1U);
	EXPECT_EQ(get32(m, 8, o), type);
	EXPECT_EQ(get32(m, 12, o), 0U);
	EXPECT_EQ(get32(m, 16, o), 0U);
	EXPECT_EQ(get32(m, 20, o), feats);
}

TEST(LstWire, MakeSession)
{
	const Bytes m = encode(MksnReq{0x1122, {0x20000c0a80001ULL, -5}, 1, "hostile"});
	expect_header(m, 0);
	EXPECT_EQ(get64(m, B + 0), 0x1122U);
	EXPECT_EQ(get64(m, B + 8), 0x20000c0a80001ULL);
	EXPECT_EQ(get64(m, B + 16), static_cast<std::uint64_t>(-5));
	EXPECT_EQ(get32(m, B + 24), 1U);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(&m[B + 28])), "hostile");
	for (std::size_t i = B + 60; i < 160; i++)
		EXPECT_EQ(m[i], 0) << i;
}

TEST(LstWire, NameIsCutAndTheTailStaysZero)
{
	const Bytes m = encode(MksnReq{1, {}, 0, std::string(64, 'A')});
	for (std::size_t i = B + 28; i < B + 60; i++)
		EXPECT_EQ(m[i], 'A') << i;
	EXPECT_EQ(m[B + 60], 0);
}

TEST(LstWire, RemoveDebugBatch)
{
	const Sid sid{7, 9};
	Bytes m = encode(RmsnReq{3, sid});
	expect_header(m, 2);
	EXPECT_EQ(get64(m, B + 8), 7U);
	EXPECT_EQ(get64(m, B + 16), 9U);
	m = encode(DebugReq{4, sid, 0x55});
	expect_header(m, 10);
	EXPECT_EQ(get32(m, B + 24), 0x55U);
	m = encode(BatchReq{5, sid, 0xB0B, batch_run, 2, 30});
	expect_header(m, 4);
	EXPECT_EQ(get64(m, B + 24), 0xB0BU);
	EXPECT_EQ(get32(m, B + 32), 1U);
	EXPECT_EQ(get32(m, B + 36), 2U);
	EXPECT_EQ(get32(m, B + 40), 30U);
}

TEST(LstWire, TestRequestLayout)
{
	TestReq t;
	t.rpy_id = 0xA1;
	t.bulk_id = 0xB2;
	t.sid = {0xC3, 0xD4};
	t.bid = 0xE5;
	t.service = svc_brw;
	t.loop = 0xFFFFFFFF;
	t.concur = 1024;
	t.is_client = 1;
	t.stop_onerr = 1;
	t.ndest = max_ndest;
	t.param = brw_param(brw_write, brw_check_none, 1U << 20, 8);
	const Bytes m = encode(t);
	expect_header(m, 8);
	EXPECT_EQ(get64(m, B + 0), 0xA1U);
	EXPECT_EQ(get64(m, B + 8), 0xB2U);
	EXPECT_EQ(get64(m, B + 16), 0xC3U);
	EXPECT_EQ(get64(m, B + 24), 0xD4U);
	EXPECT_EQ(get64(m, B + 32), 0xE5U);
	EXPECT_EQ(get32(m, B + 40), 11U);
	EXPECT_EQ(get32(m, B + 44), 0xFFFFFFFFU);
	EXPECT_EQ(get32(m, B + 48), 1024U);
	EXPECT_EQ(m[B + 52], 1);
	EXPECT_EQ(m[B + 53], 1);
	EXPECT_EQ(get32(m, B + 54), 87296U);
	EXPECT_EQ(get16(m, B + 58), 2U);	// v1: opcode (2), flags (2), len, offset
	EXPECT_EQ(get16(m, B + 60), 1U);
	EXPECT_EQ(get32(m, B + 62), 1U << 20);
	EXPECT_EQ(get32(m, B + 66), 8U);
	EXPECT_EQ(m[B + 70], 0);
}

TEST(LstWire, BigEndianRequest)
{
	Header h;
	h.order = Order::big;
	TestReq t;
	t.ndest = 0x01020304;
	t.param = ping_param(0x10, 0x20, Order::big);
	const Bytes m = encode(t, h);
	expect_header(m, 8, Order::big);
	EXPECT_EQ(m[0], 0xEE);
	EXPECT_EQ(m[B + 54], 0x01);
	EXPECT_EQ(m[B + 57], 0x04);
	EXPECT_EQ(get32(m, B + 58, Order::big), 0x10U);
	EXPECT_EQ(get32(m, B + 62, Order::big), 0x20U);
}

TEST(LstWire, HeaderFieldsAsGiven)
{
	Header h;
	h.magic = 0xDEADBEEF;
	h.version = 2;
	h.feats = 0x80000001;
	const Bytes m = encode(DebugReq{}, h);
	EXPECT_EQ(get32(m, 0), 0xDEADBEEFU);
	EXPECT_EQ(get32(m, 4), 2U);
	EXPECT_EQ(get32(m, 8), 10U);	// the request's type, whatever h.type
	EXPECT_EQ(get32(m, 20), 0x80000001U);
	EXPECT_EQ(encode_raw(h, Bytes(500, 1)).size(), 160U);
}

Bytes reply_bytes(std::uint32_t type, Order o)
{
	Bytes body;
	wire::put32(body, 16, o);	// EBUSY
	wire::put64(body, 0x20000c0a80002ULL, o);
	wire::put64(body, 1234, o);
	wire::put32(body, 100, o);
	if (type == 11)
		wire::put32(body, 0, o);	// number of batches
	for (char c : std::string("other"))
		body.push_back(static_cast<std::uint8_t>(c));
	return encode_raw({o, msg_magic, 1, type, 1}, body);
}

TEST(LstWire, DecodeMakeSessionReply)
{
	for (const Order o : {Order::little, Order::big}) {
		const auto r = decode_reply(reply_bytes(1, o));
		ASSERT_TRUE(r);
		EXPECT_EQ(r->header.order, o);
		EXPECT_EQ(r->header.type, 1U);
		EXPECT_EQ(r->header.feats, 1U);
		EXPECT_EQ(r->status, 16U);
		EXPECT_EQ(r->sid, (Sid{0x20000c0a80002ULL, 1234}));
		EXPECT_EQ(r->timeout, 100U);
		EXPECT_EQ(r->name, "other");
	}
}

TEST(LstWire, DecodeDebugReplyNameAfterBatches)
{
	const auto r = decode_reply(reply_bytes(11, Order::little));
	ASSERT_TRUE(r);
	EXPECT_EQ(r->name, "other");
	EXPECT_EQ(r->timeout, 100U);
}

TEST(LstWire, DecodeOtherRepliesHaveNoTimeout)
{
	const auto r = decode_reply(reply_bytes(9, Order::little));
	ASSERT_TRUE(r);
	EXPECT_EQ(r->status, 16U);
	EXPECT_EQ(r->timeout, 0U);
	EXPECT_TRUE(r->name.empty());
}

TEST(LstWire, DecodeRefusesBadMessages)
{
	Bytes m = reply_bytes(1, Order::little);
	m.resize(159);
	EXPECT_EQ(decode_reply(m).error(), wire::Error::truncated);
	m.resize(2);
	EXPECT_EQ(decode_reply(m).error(), wire::Error::truncated);
	m = reply_bytes(1, Order::little);
	m[0] ^= 1;
	EXPECT_EQ(decode_reply(m).error(), wire::Error::bad_magic);
	m = reply_bytes(1, Order::little);
	m.push_back(0);
	EXPECT_EQ(decode_reply(m).error(), wire::Error::truncated);
}

TEST(LstWire, UnterminatedNameStopsAt32)
{
	Bytes body(24, 0);
	body.resize(24 + 40, 'N');
	const auto r = decode_reply(encode_raw({Order::little, msg_magic, 1, 1, 1}, body));
	ASSERT_TRUE(r);
	EXPECT_EQ(r->name, std::string(32, 'N'));
}

}  // namespace
}  // namespace sockpeer::lst
