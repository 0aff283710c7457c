// SPDX-License-Identifier: GPL-2.0
#include "wire.hpp"

#include <algorithm>
#include <bit>

namespace ibpeer::wire {

namespace sw = sockpeer::wire;
using sw::get16;
using sw::get32;
using sw::get64;
using sw::put16;
using sw::put32;
using sw::put64;

std::string nid_to_string(std::uint64_t nid)
{
	const auto net = static_cast<std::uint32_t>(nid >> 32);
	if (nid != sw::nid_any && (net >> 16) == lnd_o2ib) {
		std::string s = sw::ipv4_to_string(static_cast<std::uint32_t>(nid)) + "@o2ib";
		if (net & 0xFFFF)
			s += std::to_string(net & 0xFFFF);
		return s;
	}
	return sw::nid_to_string(nid);
}

std::string_view type_name(std::uint8_t type)
{
	switch (type) {
	case msg_connreq: return "CONNREQ";
	case msg_connack: return "CONNACK";
	case msg_noop: return "NOOP";
	case msg_immediate: return "IMMEDIATE";
	case msg_put_req: return "PUT_REQ";
	case msg_put_nak: return "PUT_NAK";
	case msg_put_ack: return "PUT_ACK";
	case msg_put_done: return "PUT_DONE";
	case msg_get_req: return "GET_REQ";
	case msg_get_done: return "GET_DONE";
	default: return "unknown";
	}
}

std::string_view reject_name(std::uint8_t reason)
{
	switch (reason) {
	case rej_conn_race: return "CONN_RACE";
	case rej_no_resources: return "NO_RESOURCES";
	case rej_fatal: return "FATAL";
	case rej_conn_uncompat: return "CONN_UNCOMPAT";
	case rej_conn_stale: return "CONN_STALE";
	case rej_rdma_frags: return "RDMA_FRAGS";
	case rej_msg_queue_size: return "MSG_QUEUE_SIZE";
	case rej_invalid_srv_id: return "INVALID_SRV_ID";
	case rej_early: return "EARLY";
	default: return "unknown";
	}
}

std::size_t type_size(std::uint8_t type, std::uint32_t nfrags)
{
	switch (type) {
	case msg_connreq:
	case msg_connack:
		return connparams_size;
	case msg_noop:
		return header_size;
	case msg_immediate:
		return immediate_hdr_size;
	case msg_put_req:
		return immediate_hdr_size + 8;
	case msg_put_ack:
		return header_size + 16 + 8 + frag_size * nfrags;
	case msg_get_req:
		return immediate_hdr_size + 8 + 8 + frag_size * nfrags;
	case msg_put_nak:
	case msg_put_done:
	case msg_get_done:
		return completion_size;
	default:
		return 0;
	}
}

std::uint32_t cksum(ByteView msg)
{
	std::uint32_t sum = 0;

	for (const std::uint8_t b : msg)
		sum = std::rotl(sum, 1) + b;
	return sum ? sum : 1;
}

namespace {

void put_rd(Bytes &out, const RdmaDesc &rd, Order o)
{
	put32(out, rd.key, o);
	put32(out, rd.nfrags, o);
	for (const auto &f : rd.frags) {
		put32(out, f.nob, o);
		put64(out, f.addr, o);
	}
}

void put_lnet(Bytes &out, const LnetHeader &h)
{
	sw::append(out, sw::encode(h));
}

// The descriptor at @off of @in (nob bytes), checked: 1..257 fragments
// that fit in nob.
std::optional<RdmaDesc> get_rd(ByteView in, std::size_t off, Order o)
{
	if (off + 8 > in.size())
		return std::nullopt;
	RdmaDesc rd;
	rd.key = get32(in, off, o);
	rd.nfrags = get32(in, off + 4, o);
	if (rd.nfrags == 0 || rd.nfrags > max_frags ||
	    off + 8 + frag_size * rd.nfrags > in.size())
		return std::nullopt;
	for (std::uint32_t i = 0; i < rd.nfrags; i++) {
		const std::size_t f = off + 8 + frag_size * i;
		rd.frags.push_back({get32(in, f, o), get64(in, f + 4, o)});
	}
	return rd;
}

}  // namespace

Bytes encode(const Msg &m, Encode how)
{
	const Order o = m.hdr.order;
	Bytes out;

	put32(out, m.hdr.magic, o);
	put16(out, m.hdr.version, o);
	out.push_back(m.hdr.type);
	out.push_back(m.hdr.credits);
	put32(out, 0, o);		// nob, below
	put32(out, how.cksum ? 0 : m.hdr.cksum, o);
	put64(out, m.hdr.srcnid, o);
	put64(out, m.hdr.srcstamp, o);
	put64(out, m.hdr.dstnid, o);
	put64(out, m.hdr.dststamp, o);

	switch (m.hdr.type) {
	case msg_connreq:
	case msg_connack:
		put16(out, m.params.queue_depth, o);
		put16(out, m.params.max_frags, o);
		put32(out, m.params.max_msg_size, o);
		break;
	case msg_immediate:
		put_lnet(out, m.lnet);
		sw::append(out, m.payload);
		break;
	case msg_put_req:
		put_lnet(out, m.lnet);
		put64(out, m.cookie, o);
		break;
	case msg_put_ack:
		put64(out, m.cookie, o);
		put64(out, m.dst_cookie, o);
		put_rd(out, m.rd, o);
		break;
	case msg_get_req:
		put_lnet(out, m.lnet);
		put64(out, m.cookie, o);
		put_rd(out, m.rd, o);
		break;
	case msg_put_nak:
	case msg_put_done:
	case msg_get_done:
		put64(out, m.cookie, o);
		put32(out, static_cast<std::uint32_t>(m.status), o);
		break;
	default:
		sw::append(out, m.payload);	// unknown types: raw body
		break;
	}

	const std::uint32_t nob = m.hdr.nob ? m.hdr.nob : static_cast<std::uint32_t>(out.size());
	Bytes n;
	put32(n, nob, o);
	std::copy(n.begin(), n.end(), out.begin() + 8);
	if (how.cksum) {
		const std::size_t len = std::min<std::size_t>(nob, out.size());
		Bytes c;
		put32(c, cksum(ByteView(out).first(len)), o);
		std::copy(c.begin(), c.end(), out.begin() + 12);
	}
	return out;
}

std::string_view to_string(Error e)
{
	switch (e) {
	case Error::truncated: return "truncated";
	case Error::bad_magic: return "bad magic";
	case Error::bad_version: return "bad version";
	case Error::bad_nob: return "bad nob";
	case Error::bad_cksum: return "bad checksum";
	case Error::bad_type: return "bad type";
	case Error::bad_frags: return "bad RDMA descriptor";
	case Error::bad_nid: return "source NID ANY";
	}
	return "?";
}

Decoded<Msg> decode(ByteView in)
{
	Msg m;
	Order o;

	if (in.size() < 6)
		return Error::truncated;
	if (get32(in, 0, Order::little) == msg_magic)
		o = Order::little;
	else if (get32(in, 0, Order::big) == msg_magic)
		o = Order::big;
	else
		return Error::bad_magic;
	m.hdr.order = o;
	m.hdr.magic = msg_magic;
	m.hdr.version = get16(in, 4, o);
	if (m.hdr.version != version_1 && m.hdr.version != version_2)
		return Error::bad_version;
	if (in.size() < header_size)
		return Error::truncated;
	m.hdr.type = in[6];
	m.hdr.credits = in[7];
	m.hdr.nob = get32(in, 8, o);
	if (m.hdr.nob < header_size || m.hdr.nob > in.size())
		return Error::bad_nob;
	in = in.first(m.hdr.nob);
	m.hdr.cksum = get32(in, 12, o);
	if (m.hdr.cksum) {
		Bytes copy(in.begin(), in.end());
		std::fill(copy.begin() + 12, copy.begin() + 16, 0);
		if (cksum(copy) != m.hdr.cksum)
			return Error::bad_cksum;
	}
	m.hdr.srcnid = get64(in, 16, o);
	m.hdr.srcstamp = get64(in, 24, o);
	m.hdr.dstnid = get64(in, 32, o);
	m.hdr.dststamp = get64(in, 40, o);
	if (m.hdr.srcnid == sw::nid_any)
		return Error::bad_nid;

	const std::size_t need = type_size(m.hdr.type);
	if (!need)
		return Error::bad_type;
	if (in.size() < need)
		return Error::truncated;

	switch (m.hdr.type) {
	case msg_connreq:
	case msg_connack:
		m.params.queue_depth = get16(in, 48, o);
		m.params.max_frags = get16(in, 50, o);
		m.params.max_msg_size = get32(in, 52, o);
		break;
	case msg_immediate:
	case msg_put_req:
	case msg_get_req: {
		const auto h = sw::decode_lnet_header(in.subspan(header_size));
		if (!h)
			return Error::truncated;
		m.lnet = *h;
		if (m.hdr.type == msg_immediate) {
			m.payload.assign(in.begin() + immediate_hdr_size, in.end());
			break;
		}
		m.cookie = get64(in, immediate_hdr_size, o);
		if (m.hdr.type == msg_get_req) {
			const auto rd = get_rd(in, immediate_hdr_size + 8, o);
			if (!rd)
				return Error::bad_frags;
			m.rd = *rd;
		}
		break;
	}
	case msg_put_ack: {
		m.cookie = get64(in, 48, o);
		m.dst_cookie = get64(in, 56, o);
		const auto rd = get_rd(in, 64, o);
		if (!rd)
			return Error::bad_frags;
		m.rd = *rd;
		break;
	}
	case msg_put_nak:
	case msg_put_done:
	case msg_get_done:
		m.cookie = get64(in, 48, o);
		m.status = static_cast<std::int32_t>(get32(in, 56, o));
		break;
	default:
		break;
	}
	return m;
}

Bytes encode(const Reject &r)
{
	Bytes out;

	put32(out, r.magic, r.order);
	put16(out, r.version, r.order);
	out.push_back(r.reason);
	out.push_back(0);
	put64(out, r.incarnation, r.order);
	put16(out, r.queue_depth, r.order);
	put16(out, r.max_frags, r.order);
	put32(out, r.max_msg_size, r.order);
	return out;
}

Decoded<Reject> decode_reject(ByteView in)
{
	Reject r;

	if (in.size() < 7)
		return Error::truncated;
	const std::uint32_t le = get32(in, 0, Order::little);
	if (le == msg_magic || le == unified_magic)
		r.order = Order::little;
	else if (get32(in, 0, Order::big) == msg_magic || get32(in, 0, Order::big) == unified_magic)
		r.order = Order::big;
	else
		return Error::bad_magic;
	r.magic = get32(in, 0, r.order);
	r.version = get16(in, 4, r.order);
	r.reason = in[6];
	if (in.size() >= reject_size && r.version > version_1) {
		r.has_params = true;
		r.incarnation = get64(in, 8, r.order);
		r.queue_depth = get16(in, 16, r.order);
		r.max_frags = get16(in, 18, r.order);
		r.max_msg_size = get32(in, 20, r.order);
	}
	return r;
}

LnetHeader ping_get(std::uint64_t src, std::uint64_t dst, sw::Wmd wmd, std::uint32_t sink_length)
{
	return get(src, dst, 0, sw::ping_match_bits, sink_length, wmd);
}

LnetHeader put(std::uint64_t src, std::uint64_t dst, std::uint32_t portal,
	       std::uint64_t match_bits, std::uint32_t length)
{
	LnetHeader h;
	sw::PutBody b;

	h.dest_nid = dst;
	h.src_nid = src;
	h.type = sw::lnet_put;
	h.payload_length = length;
	b.ack_wmd = sw::wmd_none;
	b.match_bits = match_bits;
	b.portal = portal;
	h.body = sw::encode_body(b);
	return h;
}

LnetHeader get(std::uint64_t src, std::uint64_t dst, std::uint32_t portal,
	       std::uint64_t match_bits, std::uint32_t sink_length, sw::Wmd wmd)
{
	LnetHeader h;
	sw::GetBody b;

	h.dest_nid = dst;
	h.src_nid = src;
	h.type = sw::lnet_get;
	b.return_wmd = wmd;
	b.match_bits = match_bits;
	b.portal = portal;
	b.sink_length = sink_length;
	h.body = sw::encode_body(b);
	return h;
}

}  // namespace ibpeer::wire
