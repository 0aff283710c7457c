// SPDX-License-Identifier: GPL-2.0
//
// Fuzz cases: mutations of valid connection requests, hellos and frames.
// Everything here depends on the case's own Rng only.
#include <algorithm>
#include <cstdio>

#include "fuzz.hpp"

namespace sockpeer::fuzz {
namespace {

using namespace wire;

// lnet_lndtest's server (tests/lndtest)
constexpr std::uint32_t lt_portal = 42;
constexpr std::uint64_t lt_mb_pat[] = {0x100, 0x101};
constexpr std::uint64_t lt_mb_sink[] = {0x200, 0x201};
constexpr std::uint64_t lt_mb_done = 0x300;

std::uint64_t mix(std::uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

std::string hexnum(std::uint64_t v)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "%#llx", static_cast<unsigned long long>(v));
	return buf;
}

class Gen {
public:
	Gen(const Context &ctx, Rng &rng, Case &c) : ctx_(ctx), r_(rng), c_(c) {}

	void request_family();
	void hello_family();
	void frames_family();
	void random_family();
	void bitflip_family();
	void maybe_split();

private:
	void note(const std::string &s)
	{
		if (!c_.what.empty())
			c_.what += ", ";
		c_.what += s;
	}
	Order order(unsigned int big_percent) { return r_.chance(big_percent) ? Order::big : Order::little; }
	std::uint64_t fake() { return ctx_.fake_nid(r_.u32()); }
	std::uint64_t bad_nid();
	std::uint64_t incarnation() { return r_.chance(50) ? 1 + r_.below(8) : r_.next() | 1; }
	std::uint32_t good_type()
	{
		static const std::uint32_t types[] = {conn_control, conn_control, conn_bulk_in,
						      conn_bulk_out, conn_any};
		return r_.pick(types);
	}
	std::uint32_t interesting32();
	Bytes request(Order o) const
	{
		return encode(ConnRequest{o, acceptor_magic, acceptor_version, ctx_.target_nid()});
	}
	Hello good_hello(Order o)
	{
		Hello h;
		h.order = o;
		h.version = r_.chance(80) ? 3 : 2;
		h.src_nid = fake();
		h.dst_nid = ctx_.target_nid();
		h.src_incarnation = incarnation();
		h.type = good_type();
		return h;
	}
	// One mutation of @h; true if it replaced the hello by @raw (V1, V4).
	bool mutate_hello(Hello &h, Bytes &raw);
	Bytes frame(Order o, std::uint64_t src);
	Bytes payload(std::size_t n)
	{
		return r_.chance(50) ? r_.bytes(n) : Bytes(n, static_cast<std::uint8_t>(r_.u32()));
	}
	void truncate_from(std::size_t from)
	{
		if (c_.bytes.size() <= from)
			return;
		const std::size_t at = from + r_.below(c_.bytes.size() - from);
		note("cut at " + std::to_string(at) + " of " + std::to_string(c_.bytes.size()));
		c_.bytes.resize(at);
	}
	void flip_from(std::size_t from, unsigned int max_flips)
	{
		if (c_.bytes.size() <= from)
			return;
		const auto n = 1 + r_.below(max_flips);
		for (std::uint64_t i = 0; i < n; i++) {
			const std::size_t at = from + r_.below(c_.bytes.size() - from);
			const unsigned int bit = static_cast<unsigned int>(r_.below(8));
			c_.bytes[at] ^= static_cast<std::uint8_t>(1U << bit);
			note("flip " + std::to_string(at) + "." + std::to_string(bit));
		}
	}
	void garbage()
	{
		const auto n = 1 + r_.below(64);
		append(c_.bytes, r_.bytes(n));
		note(std::to_string(n) + " garbage bytes");
	}

	const Context &ctx_;
	Rng &r_;
	Case &c_;
};

std::uint64_t Gen::bad_nid()
{
	const std::uint64_t target = ctx_.target_nid();
	std::uint64_t nid = 0;

	switch (r_.below(9)) {
	case 0:
		nid = nid_any;
		break;
	case 1:
		nid = 0;
		break;
	case 2:
		nid = lo_nid;
		break;
	case 3:
		nid = tcp_nid(ctx_.target_ip, 1 + static_cast<std::uint32_t>(r_.below(3)));
		break;
	case 4:
		nid = target;					// the target itself
		break;
	case 5:
		nid = target ^ (1ULL << r_.below(64));
		break;
	case 6: {
		const auto net = static_cast<std::uint32_t>(r_.below(20) << 16);
		nid = make_nid(net, r_.u32());
		break;
	}
	case 7: {
		const auto addr = ctx_.fake_base + 1 + static_cast<std::uint32_t>(r_.below(ctx_.fake_count));
		nid = tcp_nid(addr, 1 + static_cast<std::uint32_t>(r_.below(2)));
		break;
	}
	default:
		nid = r_.next();
		break;
	}
	// never the fuzzing node's own NID: a real peer may live there
	return nid == ctx_.my_nid() ? nid_any : nid;
}

std::uint32_t Gen::interesting32()
{
	static const std::uint32_t values[] = {
		0, 1, 2, 3, 4, 5, 7, 16, 17, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000,
		0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF, lnet_mtu, lnet_mtu + 1,
		acceptor_magic, proto_magic, tcp_magic, 0x02000000, 0x03000000,
	};
	return r_.chance(75) ? r_.pick(values) : r_.u32();
}

void Gen::request_family()
{
	const Order o = order(25);
	ConnRequest req{o, acceptor_magic, acceptor_version, ctx_.target_nid()};
	bool then_hello = r_.chance(60);

	switch (r_.below(9)) {
	case 0: {
		static const std::uint32_t magics[] = {0, 0x12345678, tcp_magic, proto_magic,
						       0xACCE7101, 0x0071CEAC, 0xFFFFFFFF};
		req.magic = r_.chance(70) ? r_.pick(magics) : r_.u32();
		note("request magic " + hexnum(req.magic));
		c_.bytes = encode(req);
		break;
	}
	case 1:
		req.version = interesting32();
		while (req.version == acceptor_version)
			req.version = r_.u32();
		note("request version " + hexnum(req.version));
		c_.bytes = encode(req);
		break;
	case 2: {
		// version 2: a large NID, good or not
		Nid16 nid = nid4_to_nid16(r_.chance(50) ? ctx_.target_nid() : bad_nid());
		switch (r_.below(4)) {
		case 0:
			nid[0] = static_cast<std::uint8_t>(r_.below(17));	// address size
			break;
		case 1: {
			const auto at = 4 + r_.below(16);
			nid[at] ^= static_cast<std::uint8_t>(1 + r_.below(255));
			break;
		}
		default:
			break;
		}
		note("large-NID request " + hex(nid, 20));
		c_.bytes = encode_conn_request_16(nid, o);
		break;
	}
	case 3:
		req.target = r_.chance(70) ? bad_nid() : fake();
		note("request target " + nid_to_string(req.target));
		c_.bytes = encode(req);
		break;
	case 4:
		c_.bytes = encode(req);
		truncate_from(0);
		then_hello = false;
		break;
	case 5:
		c_.bytes = encode(req);
		flip_from(0, 4);
		break;
	case 6:
		c_.insecure = true;
		note("from an unprivileged port");
		c_.bytes = encode(req);
		break;
	case 7:
		// a request where the hello should be
		c_.bytes = encode(req);
		append(c_.bytes, encode(req));
		note("request twice");
		break;
	default: {
		// a hello without a request
		Hello h = good_hello(order(25));
		if (r_.chance(40))
			h.version = interesting32();
		note("hello without request, v" + hexnum(h.version));
		c_.bytes = encode(h);
		then_hello = false;
		break;
	}
	}
	if (then_hello) {
		note("then a good hello");
		append(c_.bytes, encode(good_hello(Order::little)));
	}
}

bool Gen::mutate_hello(Hello &h, Bytes &raw)
{
	switch (r_.below(10)) {
	case 0:
		h.version = interesting32();
		note("hello version " + hexnum(h.version));
		break;
	case 1: {
		static const std::uint32_t magics[] = {0, tcp_magic, acceptor_magic, 0x63697245,
						       proto_magic ^ 0x100, 0xFFFFFFFF};
		h.magic = r_.chance(70) ? r_.pick(magics) : r_.u32();
		note("hello magic " + hexnum(h.magic));
		break;
	}
	case 2:
		h.src_nid = bad_nid();
		note("source " + nid_to_string(h.src_nid));
		break;
	case 3:
		h.dst_nid = r_.chance(60) ? bad_nid() : fake();
		note("destination " + nid_to_string(h.dst_nid));
		break;
	case 4:
		h.src_pid = r_.chance(50) ? interesting32() : 0x80000000U | r_.u32();
		h.dst_pid = r_.u32();
		note("pids " + hexnum(h.src_pid) + "/" + hexnum(h.dst_pid));
		break;
	case 5: {
		static const std::uint32_t types[] = {conn_none, 4, 5, 7, 0x80000001, 0x7FFFFFFF,
						      0x100};
		h.type = r_.chance(80) ? r_.pick(types) : r_.u32();
		note("type " + hexnum(h.type));
		break;
	}
	case 6: {
		h.ips.clear();
		switch (r_.below(6)) {
		case 0:
			h.nips = static_cast<std::uint32_t>(1 + r_.below(hello_max_ips));
			for (std::uint32_t i = 0; i < h.nips; i++)
				h.ips.push_back(r_.u32() | 1);
			break;
		case 1:
			h.nips = 17;
			for (std::uint32_t i = 0; i < h.nips; i++)
				h.ips.push_back(i + 1);
			break;
		case 2:
			h.nips = r_.chance(50) ? 0xFFFFFFFF : 0x100;
			break;
		case 3:
			h.nips = static_cast<std::uint32_t>(1 + r_.below(hello_max_ips));
			for (std::uint32_t i = 0; i < h.nips; i++)
				h.ips.push_back(r_.u32() | 1);
			h.ips[r_.below(h.nips)] = 0;
			break;
		case 4:
			h.nips = 5;
			h.ips = {1, 2};				// 3 missing
			break;
		default:
			h.nips = static_cast<std::uint32_t>(r_.below(20));
			for (std::uint32_t i = 0; i < h.nips; i++)
				h.ips.push_back(r_.u32());
			break;
		}
		note("nips " + hexnum(h.nips) + " with " + std::to_string(h.ips.size()) + " IPs");
		break;
	}
	case 7:
		h.src_incarnation = r_.chance(50) ? 0 : r_.next();
		h.dst_incarnation = r_.next();
		note("incarnations " + hexnum(h.src_incarnation) + "/" + hexnum(h.dst_incarnation));
		break;
	case 8: {
		// a V1 hello, possibly with a bad version
		HelloV1 v1;
		v1.src_nid = r_.chance(70) ? fake() : bad_nid();
		v1.incarnation = incarnation();
		v1.type = good_type();
		for (auto n = r_.below(4); n > 0; n--)
			v1.ips.push_back(r_.u32());
		raw = encode(v1);
		if (r_.chance(30)) {
			const auto at = 4 + r_.below(4);
			raw[at] ^= static_cast<std::uint8_t>(1 + r_.below(255));
			note("V1 hello, bad version " + hex(ByteView(raw).subspan(4, 4)));
		} else {
			note("V1 hello");
		}
		return true;
	}
	default:
		// V4: 80 bytes we cannot read
		raw.clear();
		put32(raw, proto_magic, h.order);
		put32(raw, 4, h.order);
		append(raw, r_.bytes(hello_v4_size - 8));
		note("V4 hello");
		return true;
	}
	return false;
}

void Gen::hello_family()
{
	c_.bytes = request(order(10));
	const std::size_t start = c_.bytes.size();
	Hello h = good_hello(order(15));
	Bytes raw;
	bool replaced = false;
	for (auto n = 1 + r_.below(3); n > 0 && !replaced; n--)
		replaced = mutate_hello(h, raw);
	append(c_.bytes, replaced ? raw : encode(h));
	if (r_.chance(25))
		truncate_from(start);
	if (r_.chance(20))
		garbage();
	if (r_.chance(15)) {
		note("then a frame");
		append(c_.bytes, frame(h.order, h.src_nid));
	}
}

Bytes Gen::frame(Order o, std::uint64_t src)
{
	KsockHeader kh{o};
	LnetHeader lh;
	Bytes body_bytes;
	std::string what;
	const auto kind = r_.below(100);

	if (kind < 15) {
		static const std::uint64_t cookies[] = {0, 0, 1, 2, 0x1234};
		const std::uint64_t c0 = r_.chance(80) ? r_.pick(cookies) : r_.next();
		const std::uint64_t c1 = r_.chance(80) ? r_.pick(cookies) : r_.next();
		note("NOOP " + hexnum(c0) + "/" + hexnum(c1));
		return noop(c0, c1, o);
	}
	lh.dest_nid = r_.chance(85) ? ctx_.target_nid() : (r_.chance(50) ? bad_nid() : fake());
	lh.src_nid = r_.chance(75) ? src : (r_.chance(60) ? fake() : bad_nid());
	if (r_.chance(10))
		lh.src_pid = interesting32();
	if (r_.chance(10))
		lh.dest_pid = interesting32();

	if (kind < 45) {
		static const std::pair<std::uint32_t, std::uint64_t> targets[] = {
			{0, ping_match_bits}, {lt_portal, lt_mb_pat[0]}, {lt_portal, lt_mb_pat[1]},
			{lt_portal, lt_mb_sink[0]}, {lt_portal, lt_mb_sink[1]}, {lt_portal, lt_mb_done},
		};
		static const std::uint32_t offsets[] = {0, 0, 0, 1, 4093, lnet_mtu - 1, lnet_mtu,
							0xFFFFFFFF};
		static const std::uint32_t sinks[] = {0, 1, 272, 4096, 65536, lnet_mtu,
						      lnet_mtu + 1, 0xFFFFFFFF};
		auto [portal, mb] = r_.chance(80) ? r_.pick(targets)
						  : std::pair{static_cast<std::uint32_t>(r_.below(80)), r_.next()};
		GetBody g{{r_.next(), r_.next()}, mb, portal,
			  r_.chance(80) ? r_.pick(offsets) : r_.u32(),
			  r_.chance(80) ? r_.pick(sinks) : static_cast<std::uint32_t>(r_.below(lnet_mtu))};
		lh.type = lnet_get;
		lh.body = encode_body(g);
		what = "GET portal " + std::to_string(portal) + " bits " + hexnum(mb) + " offset " +
		       hexnum(g.src_offset) + " sink " + hexnum(g.sink_length);
		if (r_.chance(10)) {
			static const std::uint32_t plens[] = {1, 5, lnet_mtu, 0xFFFFFFFF};
			lh.payload_length = r_.pick(plens);
			body_bytes = payload(std::min<std::size_t>(lh.payload_length, r_.below(64)));
		}
	} else if (kind < 70) {
		static const std::pair<std::uint32_t, std::uint64_t> targets[] = {
			{lt_portal, lt_mb_pat[0]}, {lt_portal, lt_mb_pat[1]}, {lt_portal, 0x150},
			{0, ping_match_bits},
		};
		static const std::uint32_t plens[] = {0, 1, 100, 4096, 16384, 20000, 65536,
						      lnet_mtu + 1, 2 * lnet_mtu, 0xFFFFFFFF};
		auto [portal, mb] = r_.chance(75) ? r_.pick(targets)
						  : std::pair{static_cast<std::uint32_t>(r_.below(80)), r_.next()};
		// a real client may be using lnet_lndtest's sink and done MDs
		if (portal == lt_portal &&
		    (mb == lt_mb_sink[0] || mb == lt_mb_sink[1] || mb == lt_mb_done))
			mb = 0x150;
		PutBody p{r_.chance(30) ? wmd_none : Wmd{r_.next(), r_.next()}, mb, r_.next(), portal,
			  r_.chance(70) ? 0 : interesting32()};
		lh.type = lnet_put;
		lh.body = encode_body(p);
		lh.payload_length = r_.chance(80) ? r_.pick(plens) : static_cast<std::uint32_t>(r_.below(70000));
		body_bytes = payload(lh.payload_length <= 70000 ? lh.payload_length : r_.below(256));
		what = "PUT portal " + std::to_string(portal) + " bits " + hexnum(mb) + " length " +
		       hexnum(lh.payload_length);
	} else if (kind < 78) {
		lh.type = lnet_ack;
		lh.body = encode_body(AckBody{{r_.next(), r_.next()}, r_.next(), r_.u32()});
		if (r_.chance(10)) {
			lh.payload_length = 1 + static_cast<std::uint32_t>(r_.below(100));
			body_bytes = payload(lh.payload_length);
		}
		what = "ACK length " + hexnum(lh.payload_length);
	} else if (kind < 86) {
		static const std::uint32_t plens[] = {0, 1, 100, 4096, lnet_mtu + 1};
		lh.type = lnet_reply;
		lh.body = encode_body(ReplyBody{{r_.next(), r_.next()}});
		lh.payload_length = r_.pick(plens);
		body_bytes = payload(lh.payload_length <= 4096 ? lh.payload_length : 0);
		what = "REPLY length " + hexnum(lh.payload_length);
	} else if (kind < 90) {
		lh.type = lnet_hello;
		const Bytes b = r_.bytes(lnet_body_size);
		std::copy(b.begin(), b.end(), lh.body.begin());
		what = "LNet HELLO";
	} else {
		lh.type = 5 + static_cast<std::uint32_t>(r_.below(0xFFFFFFF0));
		const Bytes b = r_.bytes(lnet_body_size);
		std::copy(b.begin(), b.end(), lh.body.begin());
		lh.payload_length = static_cast<std::uint32_t>(r_.below(64));
		body_bytes = payload(lh.payload_length);
		what = "LNet type " + hexnum(lh.type);
	}
	if (lh.dest_nid != ctx_.target_nid())
		what += " to " + nid_to_string(lh.dest_nid);
	if (lh.src_nid != src)
		what += " from " + nid_to_string(lh.src_nid);
	if (r_.chance(10)) {
		static const std::uint32_t types[] = {0, msg_noop, 0xC2, 0xBF, 0xC1000000};
		kh.type = r_.chance(70) ? r_.pick(types) : r_.u32();
		what += " socklnd type " + hexnum(kh.type);
	}
	if (r_.chance(10)) {
		kh.csum = r_.u32();
		what += " csum " + hexnum(kh.csum);
	}
	if (r_.chance(20)) {
		kh.cookie0 = r_.chance(50) ? 2 + r_.below(100) : r_.next();
		what += " zc " + hexnum(kh.cookie0);
	}
	if (r_.chance(10)) {
		kh.cookie1 = r_.chance(50) ? 1 : r_.next();
		what += " zc-ack " + hexnum(kh.cookie1);
	}
	note(what);
	return lnet_message(kh, lh, body_bytes);
}

void Gen::frames_family()
{
	c_.bytes = request(order(10));
	const Hello h = good_hello(order(15));
	append(c_.bytes, encode(h));
	note("good v" + std::to_string(h.version) + " hello type " + std::to_string(static_cast<int>(h.type)) +
	     (h.order == Order::big ? " big-endian" : ""));
	const std::size_t start = c_.bytes.size();
	for (auto n = 1 + r_.below(4); n > 0; n--)
		append(c_.bytes, frame(h.order, h.src_nid));
	if (r_.chance(25))
		truncate_from(start);
	if (r_.chance(15))
		garbage();
	if (r_.chance(10))
		flip_from(start, 4);
}

void Gen::random_family()
{
	switch (r_.below(3)) {
	case 0:
		note("random bytes");
		c_.bytes = r_.bytes(1 + r_.below(256));
		break;
	case 1:
		note("request, random bytes");
		c_.bytes = request(Order::little);
		append(c_.bytes, r_.bytes(1 + r_.below(256)));
		break;
	default: {
		const Hello h = good_hello(Order::little);
		note("request, hello, random bytes");
		c_.bytes = request(Order::little);
		append(c_.bytes, encode(h));
		append(c_.bytes, r_.bytes(1 + r_.below(512)));
		break;
	}
	}
}

void Gen::bitflip_family()
{
	const Hello h = good_hello(Order::little);
	c_.bytes = request(Order::little);
	append(c_.bytes, encode(h));
	LnetHeader lh;
	lh.dest_nid = ctx_.target_nid();
	lh.src_nid = h.src_nid;
	lh.type = lnet_get;
	lh.body = encode_body(GetBody{{r_.next(), r_.next()}, ping_match_bits, 0, 0, 272});
	append(c_.bytes, lnet_message(KsockHeader{}, lh));
	append(c_.bytes, noop(0, keepalive_cookie));
	note("request, hello, ping, keepalive");
	flip_from(0, 8);
}

void Gen::maybe_split()
{
	if (c_.bytes.size() < 2 || !r_.chance(15))
		return;
	for (auto n = 1 + r_.below(3); n > 0; n--)
		c_.splits.push_back(1 + r_.below(c_.bytes.size() - 1));
	std::sort(c_.splits.begin(), c_.splits.end());
	c_.splits.erase(std::unique(c_.splits.begin(), c_.splits.end()), c_.splits.end());
	std::string s = "written in parts at";
	for (auto at : c_.splits)
		s += " " + std::to_string(at);
	note(s);
}

}  // namespace

std::uint64_t Rng::next()
{
	state_ += 0x9E3779B97F4A7C15ULL;
	return mix(state_);
}

Bytes Rng::bytes(std::size_t n)
{
	Bytes out(n);
	for (std::size_t i = 0; i < n; i += 8) {
		const std::uint64_t v = next();
		for (std::size_t j = 0; j < 8 && i + j < n; j++)
			out[i + j] = static_cast<std::uint8_t>(v >> (8 * j));
	}
	return out;
}

std::uint64_t case_seed(std::uint64_t seed, std::uint64_t id)
{
	return mix(mix(seed) ^ (id * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL));
}

Case make_case(const Context &ctx, std::uint64_t seed, std::uint64_t id)
{
	Rng rng(case_seed(seed, id));
	Case c;
	c.id = id;
	Gen g(ctx, rng, c);

	const auto family = rng.below(100);
	if (family < 15) {
		c.family = "request";
		g.request_family();
	} else if (family < 45) {
		c.family = "hello";
		g.hello_family();
	} else if (family < 80) {
		c.family = "frames";
		g.frames_family();
	} else if (family < 92) {
		c.family = "random";
		g.random_family();
	} else {
		c.family = "bitflip";
		g.bitflip_family();
	}
	g.maybe_split();
	return c;
}

}  // namespace sockpeer::fuzz
