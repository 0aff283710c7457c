// SPDX-License-Identifier: GPL-2.0
//
// The wire formats against the tables of Documentation/wire/: lnet-header.md
// (header, type-specific part), routing-health-multirail.md ("Ping info"),
// socklnd.md ("Connection request", "Hello", "Message header") and nid.md
// ("Worked examples", "Large NIDs"). Byte strings are written out by hand
// from the tables, not from the encoder.
#include "wire.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

namespace sockpeer::wire {
namespace {

Bytes B(std::initializer_list<int> v)
{
	Bytes out;
	for (int x : v)
		out.push_back(static_cast<std::uint8_t>(x));
	return out;
}

Bytes at(const Bytes &b, std::size_t off, std::size_t len)
{
	return Bytes(b.begin() + static_cast<std::ptrdiff_t>(off),
		     b.begin() + static_cast<std::ptrdiff_t>(off + len));
}

constexpr std::uint32_t ip_192_0_2_1 = 0xC0000201;
constexpr std::uint64_t nid_192_0_2_1 = 0x00020000C0000201ULL;	// 192.0.2.1@tcp

// ---- NIDs ------------------------------------------------------------------

TEST(Nid, ExamplesOfTheSpec)
{
	EXPECT_EQ(tcp_nid(ip_192_0_2_1), nid_192_0_2_1);
	EXPECT_EQ(tcp_nid(ip_192_0_2_1, 1), 0x00020001C0000201ULL);
	EXPECT_EQ(nid_to_string(nid_192_0_2_1), "192.0.2.1@tcp");
	EXPECT_EQ(nid_to_string(tcp_nid(ip_192_0_2_1, 1)), "192.0.2.1@tcp1");
	EXPECT_EQ(nid_to_string(lo_nid), "0@lo");
	EXPECT_EQ(nid_to_string(nid_any), "<?>");
	EXPECT_EQ(nid_to_string(0x000500020A000001ULL), "0x500020a000001");
	// little-endian u64 on the wire: 01 02 00 C0 00 00 02 00
	Bytes b;
	put64(b, nid_192_0_2_1);
	EXPECT_EQ(b, B({0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
}

TEST(Nid, ParseIpv4)
{
	EXPECT_EQ(parse_ipv4("192.0.2.1"), ip_192_0_2_1);
	EXPECT_EQ(parse_ipv4("0.0.0.0"), 0U);
	EXPECT_EQ(parse_ipv4("255.255.255.255"), 0xFFFFFFFFU);
	for (const char *bad : {"", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1.2.3.4x", "1..2.3",
				" 1.2.3.4", "1.2.3.-4", "0001.2.3.4", "a.b.c.d"})
		EXPECT_FALSE(parse_ipv4(bad)) << bad;
	EXPECT_EQ(ipv4_to_string(ip_192_0_2_1), "192.0.2.1");
}

TEST(Nid, LargeNidForm)
{
	// size 0, type 2, num BE 0, address BE, rest 0
	const Nid16 n = nid4_to_nid16(nid_192_0_2_1);
	EXPECT_EQ(Bytes(n.begin(), n.end()),
		  B({0x00, 0x02, 0x00, 0x00, 0xC0, 0x00, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
	const Nid16 n1 = nid4_to_nid16(tcp_nid(ip_192_0_2_1, 0x0102));
	EXPECT_EQ(n1[2], 0x01);
	EXPECT_EQ(n1[3], 0x02);
	EXPECT_EQ(nid16_to_nid4(n), nid_192_0_2_1);
	EXPECT_EQ(nid16_to_nid4(n1), tcp_nid(ip_192_0_2_1, 0x0102));

	const Nid16 any = nid4_to_nid16(nid_any);
	for (auto byte : any)
		EXPECT_EQ(byte, 0xFF);
	EXPECT_EQ(nid16_to_nid4(any), nid_any);

	Nid16 v6 = n;
	v6[0] = 12;					// IPv6: 16 address bytes
	EXPECT_FALSE(nid16_to_nid4(v6));
}

TEST(ConnType, Inverse)
{
	EXPECT_EQ(inverse_type(conn_any), conn_any);
	EXPECT_EQ(inverse_type(conn_control), conn_control);
	EXPECT_EQ(inverse_type(conn_bulk_in), conn_bulk_out);
	EXPECT_EQ(inverse_type(conn_bulk_out), conn_bulk_in);
	for (std::uint32_t t : {4U, 7U, conn_none, 0x80000001U})
		EXPECT_EQ(inverse_type(t), conn_none) << t;
}

// ---- acceptor request ---------------------------------------------------------

TEST(ConnRequest, LittleEndianLayout)
{
	const Bytes b = encode(ConnRequest{Order::little, acceptor_magic, 1, nid_192_0_2_1});
	EXPECT_EQ(b, B({0x00, 0x71, 0xCE, 0xAC, 0x01, 0x00, 0x00, 0x00,
			0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
	const auto r = decode_conn_request(b);
	ASSERT_TRUE(r);
	EXPECT_EQ(r->order, Order::little);
	EXPECT_EQ(r->version, 1U);
	EXPECT_EQ(r->target, nid_192_0_2_1);
}

TEST(ConnRequest, ByteSwapped)
{
	const ConnRequest req{Order::big, acceptor_magic, 1, nid_192_0_2_1};
	const Bytes b = encode(req);
	EXPECT_EQ(b, B({0xAC, 0xCE, 0x71, 0x00, 0x00, 0x00, 0x00, 0x01,
			0x00, 0x02, 0x00, 0x00, 0xC0, 0x00, 0x02, 0x01}));
	const auto r = decode_conn_request(b);
	ASSERT_TRUE(r);
	EXPECT_EQ(*r, req);
}

TEST(ConnRequest, Errors)
{
	Bytes b = encode(ConnRequest{Order::little, acceptor_magic, 1, nid_192_0_2_1});
	for (std::size_t n = 0; n < conn_request_size; n++) {
		const auto r = decode_conn_request(ByteView(b).first(n));
		ASSERT_FALSE(r) << n;
		EXPECT_EQ(r.error(), Error::truncated);
	}
	b[0] ^= 1;
	EXPECT_EQ(decode_conn_request(b).error(), Error::bad_magic);
	// any version is reported as it is
	const auto v7 = decode_conn_request(encode(ConnRequest{Order::big, acceptor_magic, 7, 0}));
	ASSERT_TRUE(v7);
	EXPECT_EQ(v7->version, 7U);
}

TEST(ConnRequest, VersionAnswer)
{
	EXPECT_EQ(version_answer(), B({0x00, 0x71, 0xCE, 0xAC, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(ConnRequest, LargeNidRequest)
{
	const Nid16 n = nid4_to_nid16(nid_192_0_2_1);
	for (Order o : {Order::little, Order::big}) {
		const Bytes b = encode_conn_request_16(n, o);
		ASSERT_EQ(b.size(), conn_request_16_size);
		EXPECT_EQ(get32(b, 0, o), acceptor_magic);
		EXPECT_EQ(get32(b, 4, o), acceptor_version_16);
		// the NID is never swapped
		EXPECT_EQ(at(b, 8, 20), Bytes(n.begin(), n.end()));
	}
}

// ---- hellos ---------------------------------------------------------------------

Hello sample_hello(Order o)
{
	Hello h;
	h.order = o;
	h.version = 3;
	h.src_nid = nid_192_0_2_1;
	h.dst_nid = 0x00020000C0000202ULL;
	h.src_pid = lnet_pid;
	h.dst_pid = 0x11223344;
	h.src_incarnation = 0x0102030405060708ULL;
	h.dst_incarnation = 0x1112131415161718ULL;
	h.type = conn_bulk_in;
	h.nips = 2;
	h.ips = {0x0A000001, 0x0A000002};
	return h;
}

TEST(Hello, LittleEndianLayout)
{
	const Bytes b = encode(sample_hello(Order::little));
	ASSERT_EQ(b.size(), hello_size + 8);
	EXPECT_EQ(at(b, 0, 4), B({0x63, 0x69, 0x72, 0x45}));		// magic
	EXPECT_EQ(at(b, 4, 4), B({0x03, 0, 0, 0}));			// version
	EXPECT_EQ(at(b, 8, 8), B({0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
	EXPECT_EQ(at(b, 16, 8), B({0x02, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
	EXPECT_EQ(at(b, 24, 4), B({0x39, 0x30, 0, 0}));			// 12345
	EXPECT_EQ(at(b, 28, 4), B({0x44, 0x33, 0x22, 0x11}));
	EXPECT_EQ(at(b, 32, 8), B({8, 7, 6, 5, 4, 3, 2, 1}));
	EXPECT_EQ(at(b, 40, 8), B({0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11}));
	EXPECT_EQ(at(b, 48, 4), B({0x02, 0, 0, 0}));			// BULK_IN
	EXPECT_EQ(at(b, 52, 4), B({0x02, 0, 0, 0}));			// nips
	EXPECT_EQ(at(b, 56, 8), B({0x01, 0, 0, 0x0A, 0x02, 0, 0, 0x0A}));
	const auto h = decode_hello(b);
	ASSERT_TRUE(h);
	EXPECT_EQ(*h, sample_hello(Order::little));
	EXPECT_EQ(wire_size(*h), b.size());
}

TEST(Hello, ByteSwapped)
{
	const Bytes b = encode(sample_hello(Order::big));
	EXPECT_EQ(at(b, 0, 4), B({0x45, 0x72, 0x69, 0x63}));
	EXPECT_EQ(at(b, 4, 4), B({0, 0, 0, 0x03}));
	EXPECT_EQ(at(b, 8, 8), B({0x00, 0x02, 0x00, 0x00, 0xC0, 0x00, 0x02, 0x01}));
	EXPECT_EQ(at(b, 48, 4), B({0, 0, 0, 0x02}));
	EXPECT_EQ(at(b, 56, 4), B({0x0A, 0, 0, 0x01}));
	const auto head = decode_hello_head(b);
	ASSERT_TRUE(head);
	EXPECT_EQ(*head, (HelloHead{Order::big, 3}));
	const auto h = decode_hello(b);
	ASSERT_TRUE(h);
	EXPECT_EQ(*h, sample_hello(Order::big));
}

TEST(Hello, Truncated)
{
	const Bytes b = encode(sample_hello(Order::little));
	for (std::size_t n = 0; n < b.size(); n++) {
		const auto h = decode_hello(ByteView(b).first(n));
		ASSERT_FALSE(h) << n;
		EXPECT_EQ(h.error(), Error::truncated) << n;
	}
}

TEST(Hello, BadIpLists)
{
	Hello h = sample_hello(Order::little);
	h.nips = 17;
	h.ips.assign(17, 1);
	EXPECT_EQ(decode_hello(encode(h)).error(), Error::too_many_ips);
	h.nips = 0xFFFFFFFF;
	h.ips.clear();
	EXPECT_EQ(decode_hello(encode(h)).error(), Error::too_many_ips);
	h.nips = 3;
	h.ips = {1, 0, 3};
	EXPECT_EQ(decode_hello(encode(h)).error(), Error::zero_ip);
	h.nips = 16;
	h.ips.assign(16, 7);
	EXPECT_TRUE(decode_hello(encode(h)));
}

TEST(Hello, VersionsAndMagics)
{
	Hello h = sample_hello(Order::little);
	h.version = 2;
	EXPECT_TRUE(decode_hello(encode(h)));
	for (std::uint32_t v : {0U, 1U, 4U, 5U, 0x03000000U}) {
		h.version = v;
		const Bytes b = encode(h);
		ASSERT_TRUE(decode_hello_head(b)) << v;
		EXPECT_EQ(decode_hello_head(b)->version, v);
		EXPECT_EQ(decode_hello(b).error(), Error::bad_version) << v;
	}
	h.version = 3;
	h.magic = 0x12345678;
	EXPECT_EQ(decode_hello_head(encode(h)).error(), Error::bad_magic);
	EXPECT_EQ(decode_hello(encode(h)).error(), Error::bad_magic);
	EXPECT_EQ(decode_hello_head(B({0x63, 0x69, 0x72})).error(), Error::truncated);
}

TEST(Hello, V1Head)
{
	// ED 0D BC EE, major 1, minor 0 (LE u16s)
	const auto v1 = decode_hello_head(B({0xED, 0x0D, 0xBC, 0xEE, 0x01, 0x00, 0x00, 0x00}));
	ASSERT_TRUE(v1);
	EXPECT_EQ(v1->version, 1U);
	EXPECT_EQ(decode_hello_head(B({0xED, 0x0D, 0xBC, 0xEE, 0x01, 0x00, 0x01, 0x00})).error(),
		  Error::bad_version);
	EXPECT_EQ(decode_hello_head(B({0xED, 0x0D, 0xBC, 0xEE, 0x02, 0x00, 0x00, 0x00})).error(),
		  Error::bad_version);
	// the V1 magic is little-endian only
	EXPECT_EQ(decode_hello_head(B({0xEE, 0xBC, 0x0D, 0xED, 0x00, 0x01, 0x00, 0x00})).error(),
		  Error::bad_magic);
}

TEST(Hello, V1Layout)
{
	HelloV1 h;
	h.src_nid = nid_192_0_2_1;
	h.incarnation = 0x0102030405060708ULL;
	h.type = conn_bulk_out;
	h.ips = {0x0A000001};
	const Bytes b = encode(h);
	ASSERT_EQ(b.size(), hello_v1_size + 4);
	EXPECT_EQ(at(b, 0, 8), B({0xED, 0x0D, 0xBC, 0xEE, 0x01, 0x00, 0x00, 0x00}));
	EXPECT_EQ(get64(b, 8), nid_192_0_2_1);
	EXPECT_EQ(get32(b, 16), 0U);
	EXPECT_EQ(get32(b, 20), lnet_pid);
	EXPECT_EQ(get32(b, 24), lnet_hello);
	EXPECT_EQ(get32(b, 28), 4U);			// IP list length in bytes
	EXPECT_EQ(get64(b, 32), h.incarnation);
	EXPECT_EQ(get32(b, 40), conn_bulk_out);
	EXPECT_EQ(at(b, 44, 28), Bytes(28, 0));
	EXPECT_EQ(get32(b, 72), 0x0A000001U);
}

// ---- socklnd header -------------------------------------------------------------

TEST(KsockHeader, Layout)
{
	const KsockHeader h{Order::little, msg_lnet, 0x11223344, 0x0102030405060708ULL, 1};
	const Bytes b = encode(h);
	ASSERT_EQ(b.size(), ksock_header_size);
	EXPECT_EQ(at(b, 0, 4), B({0xC1, 0, 0, 0}));
	EXPECT_EQ(at(b, 4, 4), B({0x44, 0x33, 0x22, 0x11}));
	EXPECT_EQ(at(b, 8, 8), B({8, 7, 6, 5, 4, 3, 2, 1}));
	EXPECT_EQ(at(b, 16, 8), B({1, 0, 0, 0, 0, 0, 0, 0}));
	EXPECT_EQ(*decode_ksock_header(b), h);

	EXPECT_EQ(noop(0, keepalive_cookie), B({0xC0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
						1, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(KsockHeader, ByteSwapped)
{
	const KsockHeader h{Order::big, msg_noop, 0, 0, 0x1234};
	const Bytes b = encode(h);
	EXPECT_EQ(at(b, 0, 4), B({0, 0, 0, 0xC0}));
	EXPECT_EQ(at(b, 16, 8), B({0, 0, 0, 0, 0, 0, 0x12, 0x34}));
	EXPECT_EQ(*decode_ksock_header(b, Order::big), h);
	// read in the wrong order, the type is not a socklnd type
	EXPECT_EQ(decode_ksock_header(b, Order::little)->type, 0xC0000000U);
}

TEST(KsockHeader, Truncated)
{
	const Bytes b = noop(0, 1);
	EXPECT_EQ(decode_ksock_header(ByteView(b).first(23)).error(), Error::truncated);
}

// ---- LNet header ------------------------------------------------------------------

LnetHeader sample_put()
{
	LnetHeader h;
	h.dest_nid = nid_192_0_2_1;
	h.src_nid = 0x00020000C0000202ULL;
	h.dest_pid = 0x01020304;
	h.src_pid = lnet_pid;
	h.type = lnet_put;
	h.payload_length = 20000;
	h.body = encode_body(PutBody{{0xAA, 0xBB}, 0x201, 0x1122334455667788ULL, 42, 4093});
	return h;
}

TEST(LnetHeader, PutLayout)
{
	const Bytes b = encode(sample_put());
	ASSERT_EQ(b.size(), lnet_header_size);
	EXPECT_EQ(get64(b, 0), nid_192_0_2_1);
	EXPECT_EQ(at(b, 0, 8), B({0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
	EXPECT_EQ(get64(b, 8), 0x00020000C0000202ULL);
	EXPECT_EQ(at(b, 16, 4), B({4, 3, 2, 1}));
	EXPECT_EQ(at(b, 20, 4), B({0x39, 0x30, 0, 0}));
	EXPECT_EQ(at(b, 24, 4), B({1, 0, 0, 0}));
	EXPECT_EQ(at(b, 28, 4), B({0x20, 0x4E, 0, 0}));			// 20000
	EXPECT_EQ(get64(b, 32), 0xAAU);					// ACK handle
	EXPECT_EQ(get64(b, 40), 0xBBU);
	EXPECT_EQ(get64(b, 48), 0x201U);				// match bits
	EXPECT_EQ(get64(b, 56), 0x1122334455667788ULL);			// hdr_data
	EXPECT_EQ(get32(b, 64), 42U);					// portal
	EXPECT_EQ(get32(b, 68), 4093U);					// offset
	const auto h = decode_lnet_header(b);
	ASSERT_TRUE(h);
	EXPECT_EQ(*h, sample_put());
	EXPECT_EQ(decode_put(h->body), (PutBody{{0xAA, 0xBB}, 0x201, 0x1122334455667788ULL, 42, 4093}));
}

TEST(LnetHeader, GetAckReplyLayouts)
{
	const Body get = encode_body(GetBody{{1, 2}, ping_match_bits, 7, 8, 272});
	EXPECT_EQ(get64(get, 0), 1U);
	EXPECT_EQ(get64(get, 8), 2U);
	EXPECT_EQ(get64(get, 16), ping_match_bits);			// offset 48
	EXPECT_EQ(get32(get, 24), 7U);					// portal, 56
	EXPECT_EQ(get32(get, 28), 8U);					// src offset, 60
	EXPECT_EQ(get32(get, 32), 272U);				// sink length, 64
	EXPECT_EQ(get32(get, 36), 0U);
	EXPECT_EQ(decode_get(get), (GetBody{{1, 2}, ping_match_bits, 7, 8, 272}));

	const Body ack = encode_body(AckBody{{3, 4}, 0x300, 20000});
	EXPECT_EQ(get64(ack, 16), 0x300U);
	EXPECT_EQ(get32(ack, 24), 20000U);				// mlength, 56
	for (std::size_t i = 28; i < lnet_body_size; i++)
		EXPECT_EQ(ack[i], 0) << i;
	EXPECT_EQ(decode_ack(ack), (AckBody{{3, 4}, 0x300, 20000}));

	const Body reply = encode_body(ReplyBody{{5, 6}});
	for (std::size_t i = 16; i < lnet_body_size; i++)
		EXPECT_EQ(reply[i], 0) << i;
	EXPECT_EQ(decode_reply(reply), (ReplyBody{{5, 6}}));
}

TEST(LnetHeader, Truncated)
{
	const Bytes b = encode(sample_put());
	EXPECT_EQ(decode_lnet_header(ByteView(b).first(71)).error(), Error::truncated);
}

TEST(LnetHeader, WholeMessage)
{
	const Bytes payload(100, 0x5A);
	const Bytes m = lnet_message(KsockHeader{Order::big, msg_lnet, 0, 9, 0}, sample_put(), payload);
	ASSERT_EQ(m.size(), ksock_header_size + lnet_header_size + payload.size());
	// the socklnd header in the connection's order, the LNet header LE
	EXPECT_EQ(at(m, 0, 4), B({0, 0, 0, 0xC1}));
	EXPECT_EQ(at(m, 24, 8), B({0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00}));
	EXPECT_EQ(at(m, 96, 100), payload);
}

// ---- ping info ------------------------------------------------------------------------

TEST(PingInfo, LayoutAndSwap)
{
	PingInfo p;
	p.nnis = 2;
	p.entries = {{lo_nid, 7, 0}, {nid_192_0_2_1, ni_status_up, 0}};
	const Bytes b = encode(p);
	ASSERT_EQ(b.size(), ping_header_size + 2 * ping_entry_size);
	EXPECT_EQ(at(b, 0, 4), B({0x67, 0x6E, 0x69, 0x70}));		// "ping" read BE
	EXPECT_EQ(get32(b, 4), ping_feat_ni_status);
	EXPECT_EQ(get32(b, 8), lnet_pid);
	EXPECT_EQ(get32(b, 12), 2U);
	EXPECT_EQ(get64(b, 16), lo_nid);
	EXPECT_EQ(get32(b, 24), 7U);
	EXPECT_EQ(get64(b, 32), nid_192_0_2_1);
	EXPECT_EQ(get32(b, 40), ni_status_up);
	EXPECT_EQ(*decode_ping_info(b), p);

	PingInfo big = p;
	big.order = Order::big;
	const Bytes bb = encode(big);
	EXPECT_EQ(at(bb, 0, 4), B({0x70, 0x69, 0x6E, 0x67}));
	EXPECT_EQ(*decode_ping_info(bb), big);
}

TEST(PingInfo, ShortAndBad)
{
	PingInfo p;
	p.nnis = 16;
	p.entries = {{lo_nid, 1, 0}, {nid_192_0_2_1, ni_status_up, 0}};
	const auto d = decode_ping_info(encode(p));
	ASSERT_TRUE(d);
	EXPECT_EQ(d->nnis, 16U);
	EXPECT_EQ(d->entries.size(), 2U);	// a truncated reply, not an error
	EXPECT_EQ(decode_ping_info(B({0x67, 0x6E, 0x69, 0x70, 0, 0})).error(), Error::truncated);
	EXPECT_EQ(decode_ping_info(Bytes(16, 0)).error(), Error::bad_magic);
}

TEST(Bytes, Hex)
{
	EXPECT_EQ(hex(B({0x00, 0xAB, 0x10})), "00 ab 10");
	EXPECT_EQ(hex(B({1, 2, 3}), 2), "01 02 ...");
	EXPECT_EQ(hex({}), "");
}

}  // namespace
}  // namespace sockpeer::wire
