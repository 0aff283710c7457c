// SPDX-License-Identifier: GPL-2.0
// The well-behaved peer: connect, ping (an IMMEDIATE GET on portal 0),
// credits returned. The other scenarios use it to prove the target is
// still responsive.
#include <algorithm>
#include <thread>

#include "scenarios.hpp"

namespace ibpeer {

namespace sw = sockpeer::wire;

std::unique_ptr<Conn> connect_retry(const Identity &id, int tries)
{
	std::unique_ptr<Conn> c;
	for (int i = 0; i < tries; i++) {
		c = std::make_unique<Conn>(id);
		const auto &o = c->outcome();
		if (c->established())
			return c;
		const bool again = o.kind == Outcome::Kind::rejected && o.reject &&
				   (o.reject->reason == wire::rej_conn_stale ||
				    o.reject->reason == wire::rej_conn_race ||
				    o.reject->reason == wire::rej_early ||
				    o.reject->reason == wire::rej_no_resources);
		if (!again && o.kind != Outcome::Kind::timeout)
			return c;
		c.reset();	// its id goes before the next one is made
		std::this_thread::sleep_for(std::chrono::milliseconds(500 * (i + 1)));
	}
	return std::make_unique<Conn>(id);
}

std::string ping_over(Conn &c)
{
	static std::uint64_t seq;
	const sw::Wmd wmd{0x1b1b1b1bULL, ++seq};
	auto m = c.make(wire::msg_immediate);
	// the reply must fit an IMMEDIATE: no RDMA for it
	m.lnet = wire::ping_get(m.hdr.srcnid, m.hdr.dstnid, wmd, 1024);
	if (!c.send(m))
		return "the GET was not sent: " + c.why_dead();
	const auto reply = c.recv([&](const wire::Msg &r) {
		return r.hdr.type == wire::msg_immediate && r.lnet.type == sw::lnet_reply &&
		       sw::decode_reply(r.lnet.body).dst_wmd == wmd;
	});
	if (!reply)
		return c.dead() ? "connection lost: " + c.why_dead() : "no REPLY in 10 s";
	c.return_credits();
	const auto info = sw::decode_ping_info(reply->payload);
	if (!info)
		return "ping info: " + std::string(sw::to_string(info.error()));
	const auto &e = info->entries;
	if (std::none_of(e.begin(), e.end(), [&](const sw::PingEntry &p) {
		    return p.nid == reply->hdr.srcnid;
	    }))
		return "the target's NID " + wire::nid_to_string(reply->hdr.srcnid) +
		       " is not in its ping info";
	if (reply->lnet.src_nid != reply->hdr.srcnid)
		return "REPLY from " + wire::nid_to_string(reply->lnet.src_nid);
	return {};
}

int run_ping(const Options &opt, lnet::Reporter &rep, std::uint32_t count)
{
	auto c = connect_retry(opt.id);
	if (!rep.check("connect to " + wire::nid_to_string(opt.id.target_nid), c->established(),
		       c->outcome().describe()))
		return rep.failed();
	rep.note("connected: queue depth " + std::to_string(c->queue_depth()) +
		 ", target incarnation " + std::to_string(c->peer_stamp()));
	std::uint32_t good = 0;
	std::string why;
	for (std::uint32_t i = 0; i < count; i++) {
		why = ping_over(*c);
		if (!why.empty())
			break;
		good++;
	}
	rep.check("ping x" + std::to_string(count), good == count,
		  "ping " + std::to_string(good + 1) + ": " + why);
	// more pings than the queue depth pass only if the target returns
	// credits; it must never return more than it had
	rep.check("target's credit returns within the queue depth",
		  c->send_credits() >= 0 && c->send_credits() <= c->queue_depth(),
		  std::to_string(c->send_credits()) + " credits");
	return rep.failed();
}

}  // namespace ibpeer
