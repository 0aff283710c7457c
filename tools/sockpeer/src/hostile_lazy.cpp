// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer hostile lazy-flood TARGET MY_IP`: peers that fill a lazy
// portal with PUTs no service takes. The target runs lnet_selftest (lazy
// portals 50 and 51) with small lazy_portal_max / lazy_peer_max and a
// short transaction_timeout. Six fake peers open their three connections
// each and send, on every connection, a PUT to portal 50 with match bits
// no service posts, then a ping (GET) behind it. A connection whose PUT
// waits on the portal reads nothing more until the PUT is delivered or
// dropped (socklnd parks it), so its ping is answered only then:
//   - the PUTs over the caps are dropped at once: some pings are answered
//     right away;
//   - the PUTs under the caps are dropped at their deadline: every ping is
//     answered within the time limit.
// A well-behaved peer pings the target throughout.
#include <chrono>
#include <deque>
#include <map>
#include <string>

#include "hostile.hpp"
#include "report.hpp"
#include "scenarios.hpp"

namespace sockpeer {

using namespace wire;
using namespace std::chrono_literals;

namespace {

constexpr std::uint32_t lazy_portal = 50;	// LST_REQUEST_PORTAL
constexpr std::uint64_t no_service_bits = 0xdead0000ULL;
constexpr std::uint32_t npeers = 6;
constexpr std::uint64_t wmd_cookie = 0x1a2ULL;
constexpr auto at_once = 10s;
constexpr auto limit = 120s;

// Collects the REPLYs of the pings of @sessions (object cookie = ping
// number) until @want have come or @timeout; returns how many came.
std::size_t collect(std::deque<Session> &sessions, std::map<std::uint64_t, bool> &answered,
		    std::size_t want, Clock::duration timeout)
{
	const Deadline deadline(timeout);
	std::size_t n = 0;

	for (const auto &[k, v] : answered)
		n += v;
	while (n < want && !deadline.passed()) {
		for (auto &s : sessions) {
			const auto m = s.wait([](const Msg &m) { return m.is_lnet(lnet_reply); }, 200ms);
			if (!m)
				continue;
			const auto w = decode_reply(m->lnet.body).dst_wmd;
			if (w.interface_cookie == wmd_cookie && answered.count(w.object_cookie) &&
			    !answered[w.object_cookie]) {
				answered[w.object_cookie] = true;
				n++;
			}
		}
	}
	return n;
}

}  // namespace

int run_hostile_lazy(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out)
{
	Reporter rep(out);
	const std::uint64_t t = tcp_nid(target_ip);

	try {
		hostile::Pinger good(target_ip, hostile::fake_nid(my_ip, 252));
		std::deque<Session> sessions;
		std::map<std::uint64_t, bool> answered;
		std::uint64_t k = 0;

		good.start();
		for (std::uint32_t p = 0; p < npeers; p++)
			sessions.emplace_back(Session::Params{target_ip, hostile::fake_nid(my_ip, 200 + p), 1});
		for (std::uint32_t p = 0; p < npeers; p++) {
			const std::uint64_t me = hostile::fake_nid(my_ip, 200 + p);
			for (const auto type : {conn_control, conn_bulk_in, conn_bulk_out}) {
				LnetHeader get;
				get.dest_nid = t;
				get.src_nid = me;
				get.type = lnet_get;
				get.body = encode_body(
					GetBody{{wmd_cookie, ++k}, ping_match_bits, 0, 0, 272});
				answered[k] = false;
				Bytes b = hostile::put_bytes(t, me, lazy_portal, no_service_bits + k);
				append(b, lnet_message(KsockHeader{}, get));
				sessions[p].send(type, b);
			}
		}
		const std::size_t total = answered.size();
		const std::size_t first = collect(sessions, answered, total, at_once);
		rep.note("lazy-flood: " + std::to_string(first) + " of " + std::to_string(total) +
			 " connections answered within " + std::to_string(at_once.count()) + " s");
		rep.check("lazy-flood: PUTs over the caps dropped at once", first > 0 && first < total,
			  std::to_string(first) + " of " + std::to_string(total) + " answered at once");
		const auto start = Clock::now();
		const std::size_t all = collect(sessions, answered, total, limit);
		const auto secs = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start);
		rep.note("lazy-flood: the rest answered " + std::to_string(secs.count()) + " s later");
		rep.check("lazy-flood: waiting PUTs dropped at their deadline", all == total,
			  std::to_string(total - all) + " connections still pinned after " +
				  std::to_string(limit.count()) + " s");
		good.stop();
		rep.check("lazy-flood: pings answered during the flood",
			  good.answered() > 0 && !good.failed(),
			  std::to_string(good.answered()) + " answered, " +
				  std::to_string(good.failed()) + " not: " + good.first_error());
		for (auto &s : sessions)
			for (const auto type : {conn_control, conn_bulk_in, conn_bulk_out})
				s.take(type).abort();
	} catch (const NetError &e) {
		rep.not_ok("lazy-flood", e.what());
	}
	return rep.failed() ? 1 : 0;
}

}  // namespace sockpeer
