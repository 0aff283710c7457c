// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer peer`: a socklnd peer written from the protocol description
// (now Documentation/wire/socklnd.md and lnet-header.md), independently of
// the kernel code. It
// connects to the target's acceptor (TCP 988) and checks that good
// handshakes and messages work and that bad input only ever closes the
// connection. Needs root: privileged source ports, TCP_REPAIR.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "report.hpp"
#include "scenarios.hpp"
#include "session.hpp"

namespace sockpeer {
namespace {

using namespace wire;
using namespace std::chrono_literals;

// lnet_lndtest's server (tests/lndtest): portal and match bits
constexpr std::uint32_t portal = 42;
constexpr std::uint64_t mb_pat_kvec = 0x101;
constexpr std::uint64_t mb_sink_kvec = 0x201;
constexpr std::uint64_t mb_done = 0x300;

Hello hello(std::uint32_t version, std::uint64_t src, std::uint64_t dst, std::uint64_t inc,
	    std::uint32_t type)
{
	Hello h;
	h.version = version;
	h.src_nid = src;
	h.dst_nid = dst;
	h.src_incarnation = inc;
	h.type = type;
	return h;
}

Hello with_ips(Hello h, std::uint32_t nips, std::vector<std::uint32_t> ips)
{
	h.nips = nips;
	h.ips = std::move(ips);
	return h;
}

Bytes connreq(std::uint64_t target, Order order = Order::little)
{
	return encode(ConnRequest{order, acceptor_magic, acceptor_version, target});
}

Bytes cat(Bytes a, const Bytes &b)
{
	append(a, b);
	return a;
}

// The first bytes of a stream: two u32s, little-endian.
Bytes two_words(std::uint32_t a, std::uint32_t b, std::size_t zeros = 0)
{
	Bytes out;
	put32(out, a);
	put32(out, b);
	out.resize(out.size() + zeros, 0);
	return out;
}

LnetHeader lnet_hdr(std::uint64_t dest, std::uint64_t src, std::uint32_t type,
		    std::uint32_t plen, const Body &body)
{
	LnetHeader h;
	h.dest_nid = dest;
	h.src_nid = src;
	h.type = type;
	h.payload_length = plen;
	h.body = body;
	return h;
}

std::optional<Hello> read_hello(const Socket &s)
{
	const auto r = decode_hello(s.recv_exact(hello_size));
	if (!r)
		return std::nullopt;
	return *r;
}

class PeerRun {
public:
	PeerRun(std::uint32_t tip, std::uint32_t myip, Reporter &rep)
		: tip_(tip), myip_(myip), t_(tcp_nid(tip)), me_(tcp_nid(myip)), rep_(rep)
	{
	}

	int run();

private:
	// A NID next to ours that no node has: a.b.c.k@tcp.
	std::uint64_t fake(std::uint32_t k) const
	{
		return tcp_nid((myip_ & 0xFFFFFF00U) | k);
	}
	Socket connect(bool privileged = true) const
	{
		ConnectOptions opt;
		opt.privileged = privileged;
		return connect_to(tip_, opt);
	}
	Session session(std::uint64_t me, std::uint64_t inc, std::uint32_t version = 3,
			Order order = Order::little) const
	{
		return Session({tip_, me, inc, version, order});
	}
	void check_ping(std::string_view name, const std::optional<std::string> &why)
	{
		rep_.check(name, !why, why.value_or(""));
	}

	bool wait_for_target();
	void acceptor();
	void hellos();
	void sessions();
	void half_open();
	void bad_messages();
	void done();

	std::uint32_t tip_, myip_;
	std::uint64_t t_, me_;
	Reporter &rep_;
};

bool PeerRun::wait_for_target()
{
	const Deadline give_up(180s);

	for (;;) {
		try {
			Socket s = connect();
			s.send_all(handshake_bytes(t_, hello(3, fake(200), t_, 1, conn_control)));
			const auto r = read_hello(s);
			if (r && r->type == conn_control)
				return true;
		} catch (const NetError &) {
			// not up yet
		}
		if (give_up.passed())
			return false;
		std::this_thread::sleep_for(1s);
	}
}

// Documentation/wire/socklnd.md, "Passive side, step by step"
void PeerRun::acceptor()
{
	const Bytes answer = version_answer();
	{
		Socket s = connect();
		s.send_all(two_words(proto_magic, 3));
		rep_.check("acceptor: hello without request -> version answer",
			   s.recv_exact(16) == answer && s.eof());
	}
	{
		Socket s = connect();
		s.send_all(two_words(acceptor_magic, 7));
		rep_.check("acceptor: request version 7 -> version answer",
			   s.recv_exact(16) == answer && s.eof());
	}
	{
		Socket s = connect();
		const std::string_view http = "GET / HTTP/1.0\r\n\r\n";
		s.send_all(Bytes(http.begin(), http.end()));
		rep_.check("acceptor: bad magic -> closed", s.eof());
	}
	{
		Socket s = connect();
		s.send_all(cat(connreq(fake(99)),
			       encode(hello(3, fake(150), fake(99), 1, conn_control))));
		rep_.check("acceptor: request for a NID not there -> closed", s.eof());
	}
	{
		Socket s = connect(false);
		s.send_all(handshake_bytes(t_, hello(3, fake(150), t_, 1, conn_control)));
		rep_.check("acceptor: insecure source port -> closed", s.eof());
	}
	{
		Socket s = connect();
		s.send_all(cat(connreq(t_, Order::big),
			       encode(hello(3, fake(151), t_, 5, conn_control))));
		const auto r = read_hello(s);
		rep_.check("acceptor: byte-swapped request accepted",
			   r && r->type == conn_control, "reply " + describe(r));
	}
}

// Documentation/wire/socklnd.md, "Hello" and "Handshake"
void PeerRun::hellos()
{
	{
		Socket s = connect();
		Bytes b = handshake_bytes(t_, hello(3, fake(152), t_, 1, conn_control));
		b.resize(conn_request_size + 20);
		s.send_all(b);
		const auto t0 = Clock::now();
		const bool closed = s.eof(15s);
		rep_.check("hello: truncated -> closed within accept_timeout",
			   closed && Clock::now() - t0 < 12s);
	}
	const std::pair<const char *, Bytes> versions[] = {
		{"V1", encode(HelloV1{})},
		{"V4", two_words(proto_magic, 4, hello_v4_size - 8)},
	};
	for (const auto &[name, bytes] : versions) {
		Socket s = connect();
		s.send_all(cat(connreq(t_), bytes));
		const auto r = read_hello(s);
		rep_.check(std::string("hello: ") + name + " -> our V3 hello with type NONE, closed",
			   r && r->version == 3 && r->type == conn_none && s.eof(),
			   "reply " + describe(r));
	}
	std::vector<std::uint32_t> ips17;
	for (std::uint32_t i = 1; i <= 17; i++)
		ips17.push_back(i);
	const std::pair<const char *, Bytes> bad[] = {
		{"source NID ANY", encode(hello(3, nid_any, t_, 1, conn_control))},
		{"destination NID not the target",
		 encode(hello(3, fake(153), fake(98), 1, conn_control))},
		{"connection type 7", encode(hello(3, fake(153), t_, 1, 7))},
		{"17 IPs", encode(with_ips(hello(3, fake(153), t_, 1, conn_control), 17, ips17))},
		{"a zero IP", encode(with_ips(hello(3, fake(153), t_, 1, conn_control), 1, {0}))},
		{"bad magic", two_words(0x12345678, 3, 48)},
	};
	for (const auto &[name, bytes] : bad) {
		Socket s = connect();
		s.send_all(cat(connreq(t_), bytes));
		rep_.check(std::string("hello: ") + name + " -> closed", s.eof());
	}
	{
		Socket s = connect();
		s.send_all(handshake_bytes(t_, with_ips(hello(3, fake(154), t_, 9, conn_control), 2,
							{0x0A000001, 0x0A000002})));
		const auto r = read_hello(s);
		rep_.check("hello: with an IP list accepted", r && r->type == conn_control,
			   "reply " + describe(r));
	}
}

// A session as the real peer would open it, restarts, duplicates.
void PeerRun::sessions()
{
	{
		Session sess = session(me_, 111);
		bool good = true;
		std::string why = "replies:";
		const auto &control = sess.reply(conn_control);
		for (const auto c : {conn_control, conn_bulk_in, conn_bulk_out}) {
			const auto &r = sess.reply(c);
			good = good && r && r->version == 3 && r->src_nid == t_ && r->dst_nid == me_ &&
			       r->src_pid == lnet_pid && r->type == inverse_type(c) && r->nips == 0 &&
			       r->src_incarnation && r->src_incarnation == control->src_incarnation;
			why += " [" + describe(r) + "]";
		}
		rep_.check("session: three typed connections, replies as the spec says", good, why);
		check_ping("session: ping", sess.ping());

		const Bytes data = pattern(20000, 3);
		sess.send(conn_bulk_out,
			  lnet_message(KsockHeader{Order::little, msg_lnet, 0, 0x1234, 0},
				       lnet_hdr(t_, me_, lnet_put, static_cast<std::uint32_t>(data.size()),
						encode_body(PutBody{{0xAA, 0xBB}, mb_sink_kvec, 0, portal, 0})),
				       data));
		const auto zack = sess.wait([](const Msg &m) {
			return m.kind == Msg::Kind::noop && (m.c0 == 0x1234 || m.c1 == 0x1234);
		});
		rep_.check("session: zero-copy request ACKed by a NOOP", zack.has_value());
		const auto ack = sess.wait([](const Msg &m) { return m.is_lnet(lnet_ack); });
		bool acked = ack && ack->lnet.payload_length == 0;
		if (acked)
			acked = decode_ack(ack->lnet.body) ==
				AckBody{{0xAA, 0xBB}, mb_sink_kvec, static_cast<std::uint32_t>(data.size())};
		rep_.check("session: PUT of 20000 bytes ACKed", acked,
			   "ACK " + (ack ? ack->describe() : std::string("none")));

		sess.send(conn_control,
			  lnet_message(KsockHeader{},
				       lnet_hdr(t_, me_, lnet_get, 0,
						encode_body(GetBody{{5, 6}, mb_sink_kvec, portal, 0,
								    static_cast<std::uint32_t>(data.size())}))));
		const auto rep = sess.wait([](const Msg &m) { return m.is_lnet(lnet_reply); });
		rep_.check("session: GET returns the PUT data", rep && rep->payload == data,
			   "REPLY " + (rep ? rep->describe() : std::string("none")));
		sess.send(conn_bulk_out, noop(0, keepalive_cookie));
		check_ping("session: keepalive NOOP ignored", sess.ping());

		// a new incarnation: old connections closed, NONE, then accepted
		auto [s, r] = sess.open(conn_control, 222);
		rep_.check("session: new incarnation -> NONE", r && r->type == conn_none,
			   "reply " + describe(r));
		s.reset();
		rep_.check("session: new incarnation -> old connections closed", sess.all_closed());
	}
	{
		Session sess = session(me_, 222);
		check_ping("session: after the restart", sess.ping());
		auto [s, r] = sess.open(conn_control);
		rep_.check("session: duplicate CONTROL -> NONE", r && r->type == conn_none && s.eof(),
			   "reply " + describe(r));
		s.reset();
		check_ping("session: still up after the duplicate", sess.ping());
		sess.send(conn_control, noop(0, 0x999999));
		rep_.check("session: ZC-ACK of an unknown cookie -> all closed", sess.all_closed());
	}
	{
		// byte-swapped peer: hello and socklnd headers big-endian
		Session sess = session(fake(155), 7, 3, Order::big);
		const auto why = sess.all_replied() ? sess.ping() : std::optional<std::string>("no session");
		check_ping("session: byte-swapped peer", why);
	}
	{
		Session sess = session(fake(156), 8, 2);
		bool v2 = true;
		std::string replies = "replies:";
		for (const auto c : {conn_control, conn_bulk_in, conn_bulk_out}) {
			v2 = v2 && sess.reply(c) && sess.reply(c)->version == 2;
			replies += " [" + describe(sess.reply(c)) + "]";
		}
		check_ping("session: protocol V2", v2 ? sess.ping() : std::optional<std::string>(replies));
	}
}

// A half-open connection: ours vanishes silently (TCP_REPAIR: close sends
// neither FIN nor RST); the target answers a duplicate with NONE but must
// notice and drop its stale end, so the next attempt succeeds.
void PeerRun::half_open()
{
	Session sess = session(fake(170), 17);
	std::this_thread::sleep_for(1s);	// every segment ACKed: nothing to retransmit
	Socket stale = sess.take(conn_bulk_in);
	// a new connection from the same port would reset the stale one
	const std::vector<std::uint16_t> avoid{stale.local_port()};
	const int on = 1;
	if (::setsockopt(stale.fd(), IPPROTO_TCP, TCP_REPAIR, &on, sizeof(on)) != 0)
		rep_.note(errno_message("half-open: TCP_REPAIR", errno));
	stale.reset();
	{
		auto [s, r] = sess.open(conn_bulk_in, std::nullopt, avoid);
		rep_.check("half-open: duplicate answered NONE", r && r->type == conn_none,
			   "reply " + describe(r));
	}
	std::this_thread::sleep_for(2s);
	auto [s, r] = sess.open(conn_bulk_in, std::nullopt, avoid);
	rep_.check("half-open: stale end dropped, next attempt accepted",
		   r && r->type == conn_bulk_out, "reply " + describe(r));
	sess.put(conn_bulk_in, std::move(s));
	check_ping("half-open: session works again", sess.ping());
}

void PeerRun::bad_messages()
{
	auto bad_msg = [&](std::uint32_t k, const std::string &name, const Bytes &bytes,
			   bool all_conns = false) {
		Session sess = session(fake(k), k);
		sess.send(conn_control, bytes);
		const bool closed = all_conns ? sess.all_closed() : sess.sock(conn_control).eof(15s);
		rep_.check("bad message: " + name + " -> closed", closed);
	};
	const auto get_pat = encode_body(GetBody{{1, 2}, mb_pat_kvec, portal, 0, 1});

	bad_msg(160, "socklnd type 0xdead", encode(KsockHeader{Order::little, 0xDEAD}), true);
	bad_msg(161, "PUT of 2 MiB",
		lnet_message(KsockHeader{},
			     lnet_hdr(t_, fake(161), lnet_put, 2U << 20,
				      encode_body(PutBody{{1, 2}, mb_sink_kvec, 0, portal, 0}))));
	bad_msg(162, "GET with a payload",
		lnet_message(KsockHeader{}, lnet_hdr(t_, fake(162), lnet_get, 5, get_pat),
			     Bytes(5, 'x')));
	bad_msg(163, "destination NID not ours",
		lnet_message(KsockHeader{}, lnet_hdr(fake(97), fake(163), lnet_get, 0, get_pat)));
	bad_msg(164, "LNet type HELLO",
		lnet_message(KsockHeader{}, lnet_hdr(t_, fake(164), lnet_hello, 0, Body{})));
	const auto t0 = Clock::now();
	Bytes truncated = encode(KsockHeader{});
	truncated.resize(truncated.size() + 30, 0);
	bad_msg(165, "truncated, then silence (sock_timeout=5)", truncated);
	rep_.check("bad message: truncated message timed out in time", Clock::now() - t0 < 15s);
}

// The target may unload once its server saw "done".
void PeerRun::done()
{
	Session sess = session(me_, 333);
	sess.send(conn_control,
		  lnet_message(KsockHeader{},
			       lnet_hdr(t_, me_, lnet_put, 0,
					encode_body(PutBody{{7, 8}, mb_done, 1, portal, 0}))));
	const auto ack = sess.wait([](const Msg &m) { return m.is_lnet(lnet_ack); });
	rep_.check("done marker ACKed", ack.has_value());
	check_ping("target still healthy", sess.ping());
}

int PeerRun::run()
{
	if (!wait_for_target()) {
		rep_.not_ok("target up", "no acceptor on " + ipv4_to_string(tip_) + ":988");
		return 1;
	}
	rep_.ok("target up");
	acceptor();
	hellos();
	sessions();
	half_open();
	bad_messages();
	done();
	return rep_.failed() ? 1 : 0;
}

}  // namespace

int run_done(std::uint32_t target_ip, std::uint32_t my_ip, std::uint32_t run, std::ostream &out)
{
	Reporter rep(out);
	const std::string name = "done marker " + std::to_string(run) + " ACKed";
	// a fake NID of our subnet: the node's own NID may be a real peer
	const std::uint64_t me = tcp_nid((my_ip & 0xFFFFFF00U) | 250);
	const std::uint64_t t = tcp_nid(target_ip);

	try {
		Session sess({target_ip, me, run});
		sess.send(conn_control,
			  lnet_message(KsockHeader{},
				       lnet_hdr(t, me, lnet_put, 0,
						encode_body(PutBody{{7, 8}, mb_done, run, portal, 0}))));
		const auto ack = sess.wait([](const Msg &m) { return m.is_lnet(lnet_ack); });
		rep.check(name, ack.has_value(), "no ACK");
	} catch (const NetError &e) {
		rep.not_ok(name, e.what());
	}
	return rep.failed() ? 1 : 0;
}

int run_peer(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out)
{
	Reporter rep(out);

	try {
		return PeerRun(target_ip, my_ip, rep).run();
	} catch (const NetError &e) {
		rep.note(std::string("lnet-sockpeer peer: stopped: ") + e.what());
		return 1;
	}
}

}  // namespace sockpeer
