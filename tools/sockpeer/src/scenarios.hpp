// SPDX-License-Identifier: GPL-2.0
//
// The guest scenarios' test peers. Each prints one line per check ("ok X" /
// "not ok X # why") and returns the exit status (non-zero if a check
// failed or the run could not go on).
#ifndef LNET_SOCKPEER_SCENARIOS_HPP
#define LNET_SOCKPEER_SCENARIOS_HPP

#include <chrono>
#include <cstdint>
#include <ostream>

namespace sockpeer {

// `peer TARGET MY_IP`: a socklnd peer against the target's passive side
// (acceptor answers and refusals, bad hellos, a Lustre-like session, bad
// messages). The target runs lnet.ko + ksocklnd.ko sock_timeout=5 +
// lnet_lndtest.ko mode=server (portal 42); the last check PUTs the
// lndtest "done" marker (run 1).
int run_peer(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out);

// `done TARGET MY_IP --run N`: PUTs lnet_lndtest's "done" marker with run
// number N (the server's peer_done becomes at least N) from a NID no node
// has, so that a target waiting for it may unload; ok if it is ACKed.
int run_done(std::uint32_t target_ip, std::uint32_t my_ip, std::uint32_t run, std::ostream &out);

// `server MY_IP PEER_IP`: a passive socklnd node on TCP 988 that steers
// the handshake of lnet_lndtest's client at PEER_IP (V2 fallback, NONE,
// typed order) and serves it.
int run_server(std::uint32_t my_ip, std::uint32_t peer_ip, std::ostream &out);

// `hostile zc-flood TARGET MY_IP`, `hostile lazy-flood TARGET MY_IP`:
// peers that try to make the target hold memory (hostile_zc.cpp,
// hostile_lazy.cpp; tests/scenarios/socklnd-hostile.sh).
int run_hostile_zc(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out);
int run_hostile_lazy(std::uint32_t target_ip, std::uint32_t my_ip, std::ostream &out);

// `hostile lst [--max-tests N] TARGET MY_IP`: a selftest console sending
// forced sessions, TESTs over the target's limits (its max_tests is
// @max_tests) and malformed requests (hostile_lst.cpp;
// tests/scenarios/socklnd-hostile.sh).
int run_hostile_lst(std::uint32_t target_ip, std::uint32_t my_ip, std::uint32_t max_tests,
		    std::ostream &out);

// `hostile slow-handshake TARGET MY_IP`: keeps @conns connections to the
// target's acceptor trickling their connection request or hello one byte
// every @interval for @seconds, then checks that the target closed every
// one of them, none later than @deadline + @slack after it opened.
struct HostileOptions {
	unsigned conns = 100;
	unsigned seconds = 30;
	std::chrono::milliseconds interval{1000};
	std::chrono::milliseconds deadline{5000};
	std::chrono::milliseconds slack{3000};
};
int run_hostile_slow_handshake(const HostileOptions &o, std::uint32_t target_ip,
			       std::uint32_t my_ip, std::ostream &out);

// `hostile handshake-deadline TARGET MY_IP`: @conns connections whose
// request is complete at 0.6 x @deadline and whose hello comes at 1.3 x:
// the target must close each within @deadline + @slack without answering.
int run_hostile_handshake_deadline(const HostileOptions &o, std::uint32_t target_ip,
				   std::uint32_t my_ip, std::ostream &out);

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_SCENARIOS_HPP
