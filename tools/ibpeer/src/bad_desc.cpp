// SPDX-License-Identifier: GPL-2.0
// bad-desc: bad messages on an established connection (completions for
// cookies that do not exist, RDMA descriptors with no, too many or
// overflowing fragments, nob/checksum/stamp/NID lies, credit overruns).
// The target must close the connection (or drop the message) and keep
// serving a well-behaved peer.
#include <thread>

#include "scenarios.hpp"

namespace ibpeer {
namespace {

namespace sw = sockpeer::wire;

struct Case {
	std::string name;
	// true: the spec requires the connection to be closed; false: closing
	// it or dropping the message are both fine
	bool must_close;
	// sends the bad thing; false if it could not be sent at all
	std::function<bool(Conn &, const Options &)> send;
};

wire::Msg get_req(Conn &c, const Options &opt, std::uint32_t sink_length)
{
	auto m = c.make(wire::msg_get_req);
	m.lnet = wire::get(m.hdr.srcnid, m.hdr.dstnid, opt.portal, opt.pattern_match, sink_length,
			   sw::Wmd{0x6e6e, c.next_cookie()});
	m.cookie = c.next_cookie();
	m.rd.key = 0x1bad;
	return m;
}

// A PUT nobody matches, as an IMMEDIATE with @n payload bytes.
wire::Msg small_put(Conn &c, const Options &opt, std::uint32_t n = 16)
{
	auto m = c.make(wire::msg_immediate);
	m.lnet = wire::put(m.hdr.srcnid, m.hdr.dstnid, opt.portal, opt.no_match, n);
	m.payload.assign(n, 0x77);
	return m;
}

// Sends @m as it is, taking a credit like a real send would.
bool send_as_is(Conn &c, wire::Msg m, wire::Encode how = {})
{
	return c.send_raw(wire::encode(m, how));
}

std::vector<Case> cases()
{
	std::vector<Case> v;

	v.push_back({"PUT_DONE for a cookie that does not exist", true, [](Conn &c, const Options &) {
			     auto m = c.make(wire::msg_put_done);
			     m.cookie = 0xdeadbeefcafeULL;
			     return c.send(m);
		     }});
	v.push_back({"GET_DONE for a cookie that does not exist", true, [](Conn &c, const Options &) {
			     auto m = c.make(wire::msg_get_done);
			     m.cookie = 0xdeadbeefcafeULL;
			     m.status = 4096;
			     return c.send(m);
		     }});
	v.push_back({"PUT_ACK for a PUT we never asked", true, [](Conn &c, const Options &) {
			     auto m = c.make(wire::msg_put_ack);
			     m.cookie = 0xdeadbeefcafeULL;
			     m.dst_cookie = 1;
			     m.rd.key = 0x1bad;
			     m.rd.nfrags = 1;
			     m.rd.frags = {{4096, 0x10000}};
			     return c.send(m);
		     }});
	v.push_back({"GET_REQ with 0 fragments", true, [](Conn &c, const Options &opt) {
			     auto m = get_req(c, opt, 8192);
			     m.rd.nfrags = 0;
			     return c.send(m);
		     }});
	v.push_back({"GET_REQ with 258 fragments", true, [](Conn &c, const Options &opt) {
			     auto m = get_req(c, opt, 8192);
			     m.rd.nfrags = 258;
			     m.rd.frags.assign(258, {32, 0x10000});
			     return c.send(m);
		     }});
	v.push_back({"GET_REQ with more fragments than its nob holds", true,
		     [](Conn &c, const Options &opt) {
			     auto m = get_req(c, opt, 8192);
			     m.rd.nfrags = 100;
			     m.rd.frags = {{8192, 0x10000}};
			     return c.send(m);
		     }});
	v.push_back({"GET_REQ whose fragment lengths overflow 32 bits", false,
		     [](Conn &c, const Options &opt) {
			     auto m = get_req(c, opt, 8192);
			     m.rd.nfrags = 3;
			     m.rd.frags = {{0xFFFFFFF0U, 0x10000}, {0x20, 0x20000}, {0xFFFFFFF0U, 0x30000}};
			     return c.send(m);
		     }});
	v.push_back({"GET_REQ whose fragment address wraps", false, [](Conn &c, const Options &opt) {
			     auto m = get_req(c, opt, 8192);
			     m.rd.nfrags = 1;
			     m.rd.frags = {{8192, ~0ULL - 100}};
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE whose nob is beyond what arrived", true,
		     [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.nob = static_cast<std::uint32_t>(wire::encode(m).size() + 100);
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE shorter than its LNet header", true,
		     [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.nob = 100;
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE whose LNet payload is longer than the message", true,
		     [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.lnet.payload_length = 3000;
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE with a wrong checksum", true, [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.cksum = 0x12345678;
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE with the wrong dst stamp", true, [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.dststamp = c.peer_stamp() + 1;
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE with the wrong src stamp", true, [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.srcstamp ^= 0x5555;
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE to another dst NID", true, [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.dstnid = wire::o2ib_nid(0x0AFD0002);
			     return c.send(m);
		     }});
	v.push_back({"IMMEDIATE from another src NID", true, [](Conn &c, const Options &opt) {
			     auto m = small_put(c, opt);
			     m.hdr.srcnid = wire::o2ib_nid(0x0AFD0003);
			     return c.send(m);
		     }});
	v.push_back({"NOOP returning 255 credits", true, [](Conn &c, const Options &) {
			     auto m = c.make(wire::msg_noop);
			     m.hdr.credits = 255;
			     return send_as_is(c, m);
		     }});
	v.push_back({"CONNREQ on an established connection", true, [](Conn &c, const Options &) {
			     auto m = c.make(wire::msg_connreq);
			     return send_as_is(c, m);
		     }});
	v.push_back({"message of unknown type 0xEE", true, [](Conn &c, const Options &) {
			     auto m = c.make(0xEE);
			     m.payload.assign(16, 0);
			     return send_as_is(c, m);
		     }});
	v.push_back({"3Q IMMEDIATEs at once, ignoring credits", false,
		     [](Conn &c, const Options &opt) {
			     std::vector<std::vector<std::uint8_t>> burst;
			     for (int i = 0; i < 3 * c.queue_depth(); i++)
				     burst.push_back(wire::encode(small_put(c, opt, 0)));
			     c.send_burst(burst);
			     return true;	// the sends may fail: the target may close
		     }});
	return v;
}

}  // namespace

int run_bad_desc(const Options &opt, lnet::Reporter &rep)
{
	for (const auto &k : cases()) {
		auto c = connect_retry(opt.id, 10);
		if (!rep.check("connect before: " + k.name, c->established(), c->outcome().describe()))
			continue;
		// a first ping: the connection works before the bad message
		std::string why = ping_over(*c);
		if (!rep.check("ping before: " + k.name, why.empty(), why))
			continue;
		const bool sent = k.send(*c, opt);
		// a request may be answered with an error instead (GET_DONE < 0)
		const auto answer = c->recv(
			[](const wire::Msg &r) {
				return r.hdr.type == wire::msg_get_done ||
				       r.hdr.type == wire::msg_put_nak;
			},
			3s);
		if (answer)
			rep.note(k.name + ": answered " + std::string(wire::type_name(answer->hdr.type)) +
				 " status " + std::to_string(answer->status));
		const bool closed = c->wait_closed(k.must_close ? 15s : 5s);
		if (k.must_close) {
			rep.check("connection closed: " + k.name, closed,
				  sent ? "still open 15 s later" : "not sent: " + c->why_dead());
		} else {
			rep.note(k.name + ": " + (closed ? "connection closed (" + c->why_dead() + ")" :
							   "message dropped, connection open"));
		}
		if (!closed) {
			// the same connection must still work
			why = ping_over(*c);
			rep.check("ping on the same connection after: " + k.name, why.empty(), why);
		}
		c.reset();
		auto fresh = connect_retry(opt.id, 10);
		why = fresh->established() ? ping_over(*fresh) : fresh->outcome().describe();
		rep.check("responsive after: " + k.name, why.empty(), why);
	}
	return rep.failed();
}

}  // namespace ibpeer
