// SPDX-License-Identifier: GPL-2.0
#include "wire.hpp"

#include <charconv>
#include <cstdio>

namespace sockpeer::wire {
namespace {

// Which order @magic was written in, if it is @expect in either.
std::optional<Order> order_of(ByteView in, std::uint32_t expect)
{
	if (get32(in, 0, Order::little) == expect)
		return Order::little;
	if (get32(in, 0, Order::big) == expect)
		return Order::big;
	return std::nullopt;
}

void put_wmd(Bytes &out, const Wmd &w)
{
	put64(out, w.interface_cookie);
	put64(out, w.object_cookie);
}

Wmd get_wmd(ByteView in, std::size_t off)
{
	return {get64(in, off), get64(in, off + 8)};
}

Body to_body(const Bytes &b)
{
	Body body{};
	for (std::size_t i = 0; i < b.size() && i < body.size(); i++)
		body[i] = b[i];
	return body;
}

}  // namespace

std::uint32_t inverse_type(std::uint32_t type)
{
	switch (type) {
	case conn_any:
	case conn_control:
		return type;
	case conn_bulk_in:
		return conn_bulk_out;
	case conn_bulk_out:
		return conn_bulk_in;
	default:
		return conn_none;
	}
}

// ---- NIDs ----------------------------------------------------------------------

std::optional<std::uint32_t> parse_ipv4(std::string_view text)
{
	std::uint32_t addr = 0;
	const char *p = text.data();
	const char *end = text.data() + text.size();

	for (int i = 0; i < 4; i++) {
		if (i > 0) {
			if (p == end || *p != '.')
				return std::nullopt;
			p++;
		}
		unsigned int octet = 0;
		auto [next, ec] = std::from_chars(p, end, octet);
		if (ec != std::errc() || next == p || next - p > 3 || octet > 255)
			return std::nullopt;
		addr = (addr << 8) | octet;
		p = next;
	}
	if (p != end)
		return std::nullopt;
	return addr;
}

std::string ipv4_to_string(std::uint32_t ipv4)
{
	char buf[16];

	std::snprintf(buf, sizeof(buf), "%u.%u.%u.%u", ipv4 >> 24,
		      (ipv4 >> 16) & 0xFF, (ipv4 >> 8) & 0xFF, ipv4 & 0xFF);
	return buf;
}

std::string nid_to_string(std::uint64_t nid)
{
	if (nid == nid_any)
		return "<?>";
	if (nid == lo_nid)
		return "0@lo";
	const auto net = static_cast<std::uint32_t>(nid >> 32);
	const auto addr = static_cast<std::uint32_t>(nid);
	if ((net >> 16) == lnd_sock) {
		std::string s = ipv4_to_string(addr) + "@tcp";
		if (net & 0xFFFF)
			s += std::to_string(net & 0xFFFF);
		return s;
	}
	char buf[24];
	std::snprintf(buf, sizeof(buf), "%#llx", static_cast<unsigned long long>(nid));
	return buf;
}

// ---- byte helpers ----------------------------------------------------------------

void put16(Bytes &out, std::uint16_t v, Order order)
{
	for (int i = 0; i < 2; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (1 - i);
		out.push_back(static_cast<std::uint8_t>(v >> shift));
	}
}

void put32(Bytes &out, std::uint32_t v, Order order)
{
	for (int i = 0; i < 4; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (3 - i);
		out.push_back(static_cast<std::uint8_t>(v >> shift));
	}
}

void put64(Bytes &out, std::uint64_t v, Order order)
{
	for (int i = 0; i < 8; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (7 - i);
		out.push_back(static_cast<std::uint8_t>(v >> shift));
	}
}

std::uint16_t get16(ByteView in, std::size_t off, Order order)
{
	std::uint16_t v = 0;
	for (int i = 0; i < 2; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (1 - i);
		v |= static_cast<std::uint16_t>(in[off + i] << shift);
	}
	return v;
}

std::uint32_t get32(ByteView in, std::size_t off, Order order)
{
	std::uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (3 - i);
		v |= std::uint32_t{in[off + i]} << shift;
	}
	return v;
}

std::uint64_t get64(ByteView in, std::size_t off, Order order)
{
	std::uint64_t v = 0;
	for (int i = 0; i < 8; i++) {
		const int shift = order == Order::little ? 8 * i : 8 * (7 - i);
		v |= std::uint64_t{in[off + i]} << shift;
	}
	return v;
}

void append(Bytes &out, ByteView more)
{
	out.insert(out.end(), more.begin(), more.end());
}

std::string hex(ByteView in, std::size_t max)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;

	for (std::size_t i = 0; i < in.size() && i < max; i++) {
		if (i)
			s += ' ';
		s += digits[in[i] >> 4];
		s += digits[in[i] & 15];
	}
	if (in.size() > max)
		s += " ...";
	return s;
}

std::string_view to_string(Error e)
{
	switch (e) {
	case Error::truncated:
		return "truncated";
	case Error::bad_magic:
		return "bad magic";
	case Error::bad_version:
		return "unsupported version";
	case Error::too_many_ips:
		return "more than 16 IPs";
	case Error::zero_ip:
		return "a zero IP";
	}
	return "unknown error";
}

// ---- acceptor request ----------------------------------------------------------

Bytes encode(const ConnRequest &req)
{
	Bytes out;

	put32(out, req.magic, req.order);
	put32(out, req.version, req.order);
	put64(out, req.target, req.order);
	return out;
}

Decoded<ConnRequest> decode_conn_request(ByteView in)
{
	if (in.size() < conn_request_size)
		return Error::truncated;
	const auto order = order_of(in, acceptor_magic);
	if (!order)
		return Error::bad_magic;
	ConnRequest req;
	req.order = *order;
	req.magic = acceptor_magic;
	req.version = get32(in, 4, *order);
	req.target = get64(in, 8, *order);
	return req;
}

Bytes version_answer()
{
	return encode(ConnRequest{Order::little, acceptor_magic, acceptor_version, 0});
}

Nid16 nid4_to_nid16(std::uint64_t nid)
{
	Nid16 out{};
	if (nid == nid_any) {
		out.fill(0xFF);
		return out;
	}
	const auto net = static_cast<std::uint32_t>(nid >> 32);
	const auto addr = static_cast<std::uint32_t>(nid);
	out[0] = 0;				// 4 address bytes
	out[1] = static_cast<std::uint8_t>(net >> 16);
	out[2] = static_cast<std::uint8_t>(net >> 8);
	out[3] = static_cast<std::uint8_t>(net);
	for (int i = 0; i < 4; i++)
		out[4 + i] = static_cast<std::uint8_t>(addr >> (24 - 8 * i));
	return out;
}

std::optional<std::uint64_t> nid16_to_nid4(const Nid16 &nid)
{
	if (nid[1] == 0xFF)
		return nid_any;
	if (nid[0] != 0)
		return std::nullopt;
	const std::uint32_t net = (std::uint32_t{nid[1]} << 16) | get16(nid, 2, Order::big);
	return make_nid(net, get32(nid, 4, Order::big));
}

Bytes encode_conn_request_16(const Nid16 &target, Order order)
{
	Bytes out;

	put32(out, acceptor_magic, order);
	put32(out, acceptor_version_16, order);
	append(out, target);
	return out;
}

// ---- hellos ---------------------------------------------------------------------

Bytes encode(const Hello &h)
{
	Bytes out;

	put32(out, h.magic, h.order);
	put32(out, h.version, h.order);
	put64(out, h.src_nid, h.order);
	put64(out, h.dst_nid, h.order);
	put32(out, h.src_pid, h.order);
	put32(out, h.dst_pid, h.order);
	put64(out, h.src_incarnation, h.order);
	put64(out, h.dst_incarnation, h.order);
	put32(out, h.type, h.order);
	put32(out, h.nips, h.order);
	for (auto ip : h.ips)
		put32(out, ip, h.order);
	return out;
}

Decoded<HelloHead> decode_hello_head(ByteView in)
{
	if (in.size() < 8)
		return Error::truncated;
	if (const auto order = order_of(in, proto_magic))
		return HelloHead{*order, get32(in, 4, *order)};
	if (get32(in, 0, Order::little) == tcp_magic) {
		if (get16(in, 4) != 1 || get16(in, 6) != 0)
			return Error::bad_version;
		return HelloHead{Order::little, 1};
	}
	return Error::bad_magic;
}

Decoded<Hello> decode_hello(ByteView in)
{
	const auto head = decode_hello_head(in);
	if (!head)
		return head.error();
	if (head->version != 2 && head->version != 3)
		return Error::bad_version;
	if (in.size() < hello_size)
		return Error::truncated;
	const Order o = head->order;
	Hello h;
	h.order = o;
	h.magic = proto_magic;
	h.version = head->version;
	h.src_nid = get64(in, 8, o);
	h.dst_nid = get64(in, 16, o);
	h.src_pid = get32(in, 24, o);
	h.dst_pid = get32(in, 28, o);
	h.src_incarnation = get64(in, 32, o);
	h.dst_incarnation = get64(in, 40, o);
	h.type = get32(in, 48, o);
	h.nips = get32(in, 52, o);
	if (h.nips > hello_max_ips)
		return Error::too_many_ips;
	if (in.size() < hello_size + 4 * std::size_t{h.nips})
		return Error::truncated;
	for (std::uint32_t i = 0; i < h.nips; i++) {
		const std::uint32_t ip = get32(in, hello_size + 4 * i, o);
		if (!ip)
			return Error::zero_ip;
		h.ips.push_back(ip);
	}
	return h;
}

std::size_t wire_size(const Hello &h)
{
	return hello_size + 4 * std::size_t{h.nips};
}

Bytes encode(const HelloV1 &h)
{
	Bytes out;

	put32(out, tcp_magic);
	put16(out, 1);
	put16(out, 0);
	put64(out, h.src_nid);
	put32(out, 0);				// destination pid slot
	put32(out, h.src_pid);
	put32(out, lnet_hello);
	put32(out, static_cast<std::uint32_t>(4 * h.ips.size()));
	put64(out, h.incarnation);
	put32(out, h.type);
	out.resize(hello_v1_size, 0);
	for (auto ip : h.ips)
		put32(out, ip);
	return out;
}

// ---- socklnd header ----------------------------------------------------------------

Bytes encode(const KsockHeader &h)
{
	Bytes out;

	put32(out, h.type, h.order);
	put32(out, h.csum, h.order);
	put64(out, h.cookie0, h.order);
	put64(out, h.cookie1, h.order);
	return out;
}

Decoded<KsockHeader> decode_ksock_header(ByteView in, Order order)
{
	if (in.size() < ksock_header_size)
		return Error::truncated;
	KsockHeader h;
	h.order = order;
	h.type = get32(in, 0, order);
	h.csum = get32(in, 4, order);
	h.cookie0 = get64(in, 8, order);
	h.cookie1 = get64(in, 16, order);
	return h;
}

// ---- LNet header --------------------------------------------------------------------

Body encode_body(const PutBody &b)
{
	Bytes out;

	put_wmd(out, b.ack_wmd);
	put64(out, b.match_bits);
	put64(out, b.hdr_data);
	put32(out, b.portal);
	put32(out, b.offset);
	return to_body(out);
}

Body encode_body(const GetBody &b)
{
	Bytes out;

	put_wmd(out, b.return_wmd);
	put64(out, b.match_bits);
	put32(out, b.portal);
	put32(out, b.src_offset);
	put32(out, b.sink_length);
	return to_body(out);
}

Body encode_body(const AckBody &b)
{
	Bytes out;

	put_wmd(out, b.dst_wmd);
	put64(out, b.match_bits);
	put32(out, b.mlength);
	return to_body(out);
}

Body encode_body(const ReplyBody &b)
{
	Bytes out;

	put_wmd(out, b.dst_wmd);
	return to_body(out);
}

PutBody decode_put(const Body &b)
{
	return {get_wmd(b, 0), get64(b, 16), get64(b, 24), get32(b, 32), get32(b, 36)};
}

GetBody decode_get(const Body &b)
{
	return {get_wmd(b, 0), get64(b, 16), get32(b, 24), get32(b, 28), get32(b, 32)};
}

AckBody decode_ack(const Body &b)
{
	return {get_wmd(b, 0), get64(b, 16), get32(b, 24)};
}

ReplyBody decode_reply(const Body &b)
{
	return {get_wmd(b, 0)};
}

Bytes encode(const LnetHeader &h)
{
	Bytes out;

	put64(out, h.dest_nid);
	put64(out, h.src_nid);
	put32(out, h.dest_pid);
	put32(out, h.src_pid);
	put32(out, h.type);
	put32(out, h.payload_length);
	append(out, h.body);
	return out;
}

Decoded<LnetHeader> decode_lnet_header(ByteView in)
{
	if (in.size() < lnet_header_size)
		return Error::truncated;
	LnetHeader h;
	h.dest_nid = get64(in, 0);
	h.src_nid = get64(in, 8);
	h.dest_pid = get32(in, 16);
	h.src_pid = get32(in, 20);
	h.type = get32(in, 24);
	h.payload_length = get32(in, 28);
	for (std::size_t i = 0; i < lnet_body_size; i++)
		h.body[i] = in[32 + i];
	return h;
}

Bytes lnet_message(const KsockHeader &kh, const LnetHeader &lh, ByteView payload)
{
	Bytes out = encode(kh);

	append(out, encode(lh));
	append(out, payload);
	return out;
}

Bytes noop(std::uint64_t cookie0, std::uint64_t cookie1, Order order)
{
	return encode(KsockHeader{order, msg_noop, 0, cookie0, cookie1});
}

// ---- ping info -----------------------------------------------------------------------

Bytes encode(const PingInfo &p)
{
	Bytes out;

	put32(out, p.magic, p.order);
	put32(out, p.features, p.order);
	put32(out, p.pid, p.order);
	put32(out, p.nnis, p.order);
	for (const auto &e : p.entries) {
		put64(out, e.nid, p.order);
		put32(out, e.status, p.order);
		put32(out, e.msg_size, p.order);
	}
	return out;
}

Decoded<PingInfo> decode_ping_info(ByteView in)
{
	if (in.size() < ping_header_size)
		return Error::truncated;
	const auto order = order_of(in, ping_magic);
	if (!order)
		return Error::bad_magic;
	PingInfo p;
	p.order = *order;
	p.features = get32(in, 4, *order);
	p.pid = get32(in, 8, *order);
	p.nnis = get32(in, 12, *order);
	const std::size_t room = (in.size() - ping_header_size) / ping_entry_size;
	for (std::size_t i = 0; i < p.nnis && i < room; i++) {
		const std::size_t off = ping_header_size + i * ping_entry_size;
		p.entries.push_back({get64(in, off, *order), get32(in, off + 8, *order),
				     get32(in, off + 12, *order)});
	}
	return p;
}

}  // namespace sockpeer::wire
