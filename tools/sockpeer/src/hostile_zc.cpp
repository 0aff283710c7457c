// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer hostile zc-flood TARGET MY_IP`: a peer that floods the
// target with 0-byte PUTs, each asking for a zero-copy ACK (cookie 0 set),
// and reads what the target sends back only a few bytes at a time, so the
// target's writes keep making progress while its ZC-ACKs pile up. Cookies
// go up by 3: no two can share a range ACK. The target must close the
// flooded connections (Documentation/hardening.md) and keep answering a
// well-behaved peer's pings meanwhile.
#include <chrono>
#include <string>

#include "hostile.hpp"
#include "report.hpp"
#include "scenarios.hpp"

namespace sockpeer {

using namespace wire;
using namespace std::chrono_literals;

namespace {

constexpr std::uint32_t no_me_portal = 60;	// nothing is posted there
constexpr int batch_puts = 64;
constexpr auto flood_limit = 150s;

}  // namespace

int run_hostile_zc(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out)
{
	Reporter rep(out);
	const std::uint64_t t = tcp_nid(target_ip);
	const std::uint64_t me = hostile::fake_nid(my_ip, 251);

	try {
		hostile::Pinger good(target_ip, hostile::fake_nid(my_ip, 252));
		Session sess({target_ip, me, 1});
		const auto start = Clock::now();
		std::uint64_t cookie = 2, sent = 0;
		bool closed = false;

		good.start();
		while (!closed && Clock::now() - start < flood_limit) {
			Bytes batch;
			for (int i = 0; i < batch_puts; i++, cookie += 3)
				append(batch, hostile::put_bytes(t, me, no_me_portal, cookie, cookie));
			if (sess.send(conn_control, batch))
				sent += batch_puts;
			// a slow reader: the target's writes progress, its queue does not drain
			for (const auto type : {conn_control, conn_bulk_in, conn_bulk_out})
				hostile::sip(sess.sock(type), 16);
			closed = hostile::peer_closed(sess.sock(conn_control));
		}
		good.stop();
		const auto secs = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start);
		rep.note("zc-flood: " + std::to_string(sent) + " PUTs with ZC cookies in " +
			 std::to_string(secs.count()) + " s");
		rep.check("zc-flood: target closed the flooded connection", closed,
			  "still open after " + std::to_string(secs.count()) + " s");
		rep.check("zc-flood: pings answered during the flood",
			  good.answered() > 0 && !good.failed(),
			  std::to_string(good.answered()) + " answered, " +
				  std::to_string(good.failed()) + " not: " + good.first_error());
		for (const auto type : {conn_control, conn_bulk_in, conn_bulk_out})
			sess.take(type).abort();

		Session after({target_ip, hostile::fake_nid(my_ip, 253), 1});
		const auto why = after.ping();
		rep.check("zc-flood: ping answered after the flood", !why, why.value_or(""));
	} catch (const NetError &e) {
		rep.not_ok("zc-flood", e.what());
	}
	return rep.failed() ? 1 : 0;
}

}  // namespace sockpeer
