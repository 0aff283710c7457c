// SPDX-License-Identifier: GPL-2.0
//
// What lnet-ibpeer does against a node running ko2iblnd (the guest suite
// tests/scenarios/o2iblnd-hostile.sh): each prints "ok NAME" /
// "not ok NAME # why" lines (lnet::Reporter) and returns the number of
// failed checks.
#ifndef LNET_IBPEER_SCENARIOS_HPP
#define LNET_IBPEER_SCENARIOS_HPP

#include <cstdint>
#include <ostream>
#include <string>

#include "lnet/report.hpp"
#include "conn.hpp"

namespace ibpeer {

struct Options {
	Identity id;
	// stale-rkey: a portal and match bits whose MD takes a large PUT
	// (lnet_lndtest's server: portal 42, its contiguous sink 0x201)
	std::uint32_t portal = 42;
	std::uint64_t sink_match = 0x201;
	std::uint64_t pattern_match = 0x101;	// an MD that serves GETs
	std::uint64_t no_match = 0xdead0000;	// nothing matches it
	std::uint32_t put_size = 65536;		// more than an IMMEDIATE takes
	// connreq-flood
	std::uint32_t flood_nids = 200;		// requests claiming other NIDs
	std::uint32_t flood_same = 50;		// requests claiming ours
	std::uint32_t fake_base = 0x0AFE0001;	// 10.254.0.1: first fake NID's address
	std::uint32_t max_conns_per_peer = 4;	// the target's limits
	std::uint32_t max_nids_per_addr = 4;
};

// Connects as @id, retrying what a real peer retries (CONN_STALE: the
// target still knew an older incarnation of us; CONN_RACE; EARLY) for at
// most @tries attempts.
std::unique_ptr<Conn> connect_retry(const Identity &id, int tries = 5);

// One ping over @c: IMMEDIATE GET of the ping info, the REPLY checked
// (magic, the target's NID listed). Empty, or why it failed.
std::string ping_over(Conn &c);

int run_ping(const Options &opt, lnet::Reporter &rep, std::uint32_t count);
int run_stale_rkey(const Options &opt, lnet::Reporter &rep);
int run_connreq_flood(const Options &opt, lnet::Reporter &rep);
int run_bad_desc(const Options &opt, lnet::Reporter &rep);

}  // namespace ibpeer

#endif  // LNET_IBPEER_SCENARIOS_HPP
