// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer server`: a passive socklnd node written from the protocol
// description (now Documentation/wire/socklnd.md and lnet-header.md),
// independently of the kernel code. It
// listens on TCP 988 and serves what lnet_lndtest.ko's client asks for
// (ping, the server's pattern and sink MDs on portal 42, "done"), so that
// the client exercises our ACTIVE side against a peer that is not our own
// code.
//
// Scripted handshake, to check the active side's rules:
//   connection 1: expect a V3 CONTROL hello; answer a V2 hello of type NONE
//                 (version mismatch) and close -> the node must retry in V2
//   connection 2: expect V2 CONTROL; answer NONE (declined) and close -> the
//                 node must wait min_reconnectms before trying again
//   connection 3+: accept; expect CONTROL, BULK_IN, BULK_OUT in that order
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "report.hpp"
#include "scenarios.hpp"
#include "session.hpp"

namespace sockpeer {
namespace {

using namespace wire;
using namespace std::chrono_literals;

// lnet_lndtest's client (tests/lndtest) asks for these
constexpr std::uint32_t portal = 42;
constexpr std::uint64_t mb_pat[] = {0x100, 0x101};
constexpr std::uint64_t mb_sink[] = {0x200, 0x201};
constexpr std::uint64_t mb_done = 0x300;
constexpr std::size_t max_len = 1U << 20;
constexpr std::uint32_t lt_pat_seed = 0x5eed;

// lnet_lndtest's pattern: byte i of the server's pattern MDs.
Bytes lt_pattern(std::uint32_t seed, std::size_t n)
{
	Bytes out(n);
	const std::uint32_t s = seed * 40503U;
	for (std::size_t i = 0; i < n; i++) {
		const std::uint32_t x = static_cast<std::uint32_t>(i + 1) * 2654435761U ^ s;
		out[i] = static_cast<std::uint8_t>((x >> 24) ^ (i >> 8));
	}
	return out;
}

Bytes slice(ByteView b, std::size_t off, std::size_t len)
{
	if (off >= b.size())
		return {};
	len = std::min(len, b.size() - off);
	return Bytes(b.begin() + static_cast<std::ptrdiff_t>(off),
		     b.begin() + static_cast<std::ptrdiff_t>(off + len));
}

struct Conn {
	Socket sock;
	std::mutex write_lock;
};

class Node {
public:
	Node(std::uint32_t me_ip, std::uint32_t peer_ip, Reporter &rep)
		: me_(tcp_nid(me_ip)), peer_(tcp_nid(peer_ip)), rep_(rep),
		  inc_(static_cast<std::uint64_t>(
			  std::chrono::system_clock::now().time_since_epoch().count())),
		  pattern_(lt_pattern(lt_pat_seed, max_len))
	{
		for (auto mb : mb_sink)
			sinks_[mb] = Bytes(max_len, 0);
	}

	int serve();

private:
	Hello hello(std::uint32_t version, std::uint64_t dst, std::uint32_t type) const
	{
		Hello h;
		h.version = version;
		h.src_nid = me_;
		h.dst_nid = dst;
		h.src_incarnation = inc_;
		h.type = type;
		return h;
	}
	void send(Conn &c, ByteView data)
	{
		const std::lock_guard guard(c.write_lock);
		c.sock.send_all(data);
	}
	void lnet(Conn &c, std::uint32_t type, std::uint64_t dest, std::uint32_t dest_pid,
		  const Body &body, ByteView payload = {})
	{
		LnetHeader lh;
		lh.dest_nid = dest;
		lh.src_nid = me_;
		lh.dest_pid = dest_pid;
		lh.type = type;
		lh.payload_length = static_cast<std::uint32_t>(payload.size());
		lh.body = body;
		send(c, lnet_message(KsockHeader{}, lh, payload));
	}
	Bytes ping_info() const
	{
		PingInfo p;
		p.nnis = 2;
		p.entries = {{lo_nid, 1, 0}, {me_, ni_status_up, 0}};
		return encode(p);
	}

	void on_get(Conn &c, const LnetHeader &lh);
	void on_put(Conn &c, const LnetHeader &lh, ByteView payload);
	void reader(Conn &c);
	std::unique_ptr<Conn> handshake(Accepted &a);

	std::uint64_t me_, peer_;
	Reporter &rep_;
	std::uint64_t inc_;
	Bytes pattern_;
	std::mutex lock_;		// sinks_, counters, types_, times_
	std::map<std::uint64_t, Bytes> sinks_;
	unsigned int nconn_ = 0;
	std::vector<std::uint32_t> types_;
	std::vector<Clock::time_point> times_;
	unsigned long zc_requests_ = 0;
	unsigned long msgs_ = 0;
	std::atomic<bool> done_{false};
};

void Node::on_get(Conn &c, const LnetHeader &lh)
{
	const GetBody g = decode_get(lh.body);
	const auto is = [&](const auto &set) {
		return std::find(std::begin(set), std::end(set), g.match_bits) != std::end(set);
	};
	Bytes data;
	if (g.portal == 0 && g.match_bits == ping_match_bits) {
		data = slice(ping_info(), g.src_offset, g.sink_length);
	} else if (g.portal == portal && is(mb_pat)) {
		data = slice(pattern_, g.src_offset, g.sink_length);
	} else if (g.portal == portal && is(mb_sink)) {
		const std::lock_guard guard(lock_);
		data = slice(sinks_[g.match_bits], g.src_offset, g.sink_length);
	} else {
		char why[80];
		std::snprintf(why, sizeof(why), "portal %u bits %#llx", g.portal,
			      static_cast<unsigned long long>(g.match_bits));
		rep_.not_ok("GET matches", why);
		return;
	}
	lnet(c, lnet_reply, lh.src_nid, lh.src_pid, encode_body(ReplyBody{g.return_wmd}), data);
}

void Node::on_put(Conn &c, const LnetHeader &lh, ByteView payload)
{
	const PutBody p = decode_put(lh.body);
	std::size_t n = 0;
	if (p.portal == portal && (p.match_bits == mb_sink[0] || p.match_bits == mb_sink[1])) {
		const std::lock_guard guard(lock_);
		Bytes &sink = sinks_[p.match_bits];
		if (p.offset < sink.size()) {
			n = std::min(payload.size(), sink.size() - p.offset);
			std::copy_n(payload.begin(), n, sink.begin() + p.offset);
		}
	} else if (p.portal == portal && p.match_bits == mb_done) {
		n = std::min<std::size_t>(payload.size(), 8);
	} else {
		char why[80];
		std::snprintf(why, sizeof(why), "portal %u bits %#llx", p.portal,
			      static_cast<unsigned long long>(p.match_bits));
		rep_.not_ok("PUT matches", why);
		return;
	}
	if (p.ack_wmd != wmd_none)
		lnet(c, lnet_ack, lh.src_nid, lh.src_pid,
		     encode_body(AckBody{p.ack_wmd, p.match_bits, static_cast<std::uint32_t>(n)}));
	if (p.match_bits == mb_done)
		done_ = true;
}

void Node::reader(Conn &c)
{
	const auto forever = std::chrono::hours(24);

	for (;;) {
		const auto kh = decode_ksock_header(c.sock.recv_exact(ksock_header_size, forever));
		if (!kh)
			return;
		if (kh->type == msg_noop)
			continue;
		if (kh->type != msg_lnet || kh->csum) {
			char why[64];
			std::snprintf(why, sizeof(why), "type %#x csum %#x", kh->type, kh->csum);
			rep_.not_ok("message framing", why);
			return;
		}
		const auto lh = decode_lnet_header(c.sock.recv_exact(lnet_header_size, forever));
		if (!lh)
			return;
		if (lh->payload_length > lnet_mtu) {
			rep_.not_ok("message framing",
				    "payload length " + std::to_string(lh->payload_length));
			return;
		}
		const Bytes payload = c.sock.recv_exact(lh->payload_length, forever);
		if (payload.size() < lh->payload_length)
			return;
		{
			const std::lock_guard guard(lock_);
			msgs_++;
		}
		if (lh->dest_nid != me_ || lh->src_nid != peer_ || lh->src_pid != lnet_pid)
			rep_.not_ok("LNet header", "dest " + nid_to_string(lh->dest_nid) + " src " +
				    nid_to_string(lh->src_nid) + " pid " +
				    std::to_string(lh->src_pid));
		if (kh->cookie0) {
			// a zero-copy request: ACK it once received
			// (Documentation/wire/socklnd.md, "Zero-copy
			// requests and ACKs")
			{
				const std::lock_guard guard(lock_);
				zc_requests_++;
			}
			send(c, noop(0, kh->cookie0));
		}
		if (lh->type == lnet_get)
			on_get(c, *lh);
		else if (lh->type == lnet_put)
			on_put(c, *lh, payload);
		else
			rep_.not_ok("LNet type", std::to_string(lh->type));
	}
}

std::unique_ptr<Conn> Node::handshake(Accepted &a)
{
	const Socket &s = a.sock;
	const unsigned int n = nconn_++;
	const auto now = Clock::now();
	const Bytes req = s.recv_exact(conn_request_size, 30s);
	const Bytes head = s.recv_exact(8, 30s);
	const std::string conn = "connection " + std::to_string(n);

	if (req.size() < conn_request_size || head.size() < 8) {
		rep_.not_ok(conn + ": request and hello", "short");
		return nullptr;
	}
	const std::uint32_t magic = get32(req, 0), version = get32(req, 4);
	const std::uint64_t target = get64(req, 8);
	if (n == 0) {
		rep_.check("active: connects from a privileged port", a.peer_port <= 1023,
			   "port " + std::to_string(a.peer_port));
		char why[80];
		std::snprintf(why, sizeof(why), "%#x %u %s", magic, version,
			      nid_to_string(target).c_str());
		rep_.check("active: connection request bytes",
			   magic == acceptor_magic && version == acceptor_version && target == me_,
			   why);
	}
	const std::uint32_t hmagic = get32(head, 0), hver = get32(head, 4);
	Bytes whole = head;
	append(whole, s.recv_exact(hello_size - 8, 30s));
	if (hmagic != proto_magic || whole.size() < hello_size) {
		char why[40];
		std::snprintf(why, sizeof(why), "magic %#x", hmagic);
		rep_.not_ok(conn + ": hello", why);
		return nullptr;
	}
	// the fields as sent (LE), whatever the version says
	Hello h;
	h.version = hver;
	h.src_nid = get64(whole, 8);
	h.dst_nid = get64(whole, 16);
	h.src_pid = get32(whole, 24);
	h.dst_pid = get32(whole, 28);
	h.src_incarnation = get64(whole, 32);
	h.dst_incarnation = get64(whole, 40);
	h.type = get32(whole, 48);
	h.nips = get32(whole, 52);
	if (n == 0) {
		rep_.check("active: V3 hello fields as the spec says",
			   hver == 3 && h.src_nid == peer_ && h.dst_nid == me_ &&
			   h.src_pid == lnet_pid && h.dst_pid == 0 && h.src_incarnation &&
			   h.dst_incarnation == 0 && h.type == conn_control && h.nips == 0,
			   describe(h));
		times_.push_back(now);
		s.send_all(encode(hello(2, h.src_nid, conn_none)));
		return nullptr;
	}
	if (n == 1) {
		rep_.check("active: falls back to V2 after a V2 answer",
			   hver == 2 && h.type == conn_control,
			   "v" + std::to_string(hver) + " type " + std::to_string(h.type));
		times_.push_back(now);
		s.send_all(encode(hello(2, h.src_nid, conn_none)));
		return nullptr;
	}
	if (n == 2) {
		const std::chrono::duration<double> gap = now - times_.back();
		char why[40];
		std::snprintf(why, sizeof(why), "%.2f s", gap.count());
		rep_.check("active: waits min_reconnectms after NONE",
			   gap >= 800ms && gap < 10s, why);
	}
	if (hver != 2) {
		rep_.not_ok(conn + ": version", "v" + std::to_string(hver));
		return nullptr;
	}
	types_.push_back(h.type);
	s.send_all(encode(hello(2, h.src_nid, inverse_type(h.type))));
	auto c = std::make_unique<Conn>();
	c->sock = std::move(a.sock);
	return c;
}

int Node::serve()
{
	const Socket listener = listen_on(acceptor_port, 16);
	std::list<std::unique_ptr<Conn>> conns;
	std::vector<std::jthread> readers;
	const Deadline give_up(400s);

	while (!done_ && !give_up.passed()) {
		auto a = accept_for(listener, 1s);
		if (!a)
			continue;
		auto c = handshake(*a);
		if (!c)
			continue;		// a's socket closes here
		Conn &conn = *conns.emplace_back(std::move(c));
		readers.emplace_back([this, &conn] { reader(conn); });
	}
	rep_.check("the client said done", done_, "timed out");
	std::string types = "types";
	for (auto t : types_)
		types += " " + std::to_string(t);
	rep_.check("active: typed connections CONTROL, BULK_IN, BULK_OUT",
		   types_.size() >= 3 && types_[0] == conn_control && types_[1] == conn_bulk_in &&
		   types_[2] == conn_bulk_out, types);
	unsigned long msgs, zc;
	{
		const std::lock_guard guard(lock_);
		msgs = msgs_;
		zc = zc_requests_;
	}
	rep_.check("active: large page payloads sent as zero-copy requests", zc > 0,
		   std::to_string(zc) + " requests");
	rep_.note(std::to_string(msgs) + " messages, " + std::to_string(zc) +
		  " zero-copy requests");
	std::this_thread::sleep_for(2s);
	for (auto &c : conns)
		c->sock.shutdown();
	readers.clear();			// joins
	return rep_.failed() ? 1 : 0;
}

}  // namespace

int run_server(std::uint32_t my_ip, std::uint32_t peer_ip, std::ostream &out)
{
	Reporter rep(out);

	try {
		return Node(my_ip, peer_ip, rep).serve();
	} catch (const NetError &e) {
		rep.note(std::string("lnet-sockpeer server: stopped: ") + e.what());
		return 1;
	}
}

}  // namespace sockpeer
