// SPDX-License-Identifier: GPL-2.0
//
// Command line of lnet-ibpeer (all take TARGET_IP MY_IP, the addresses of
// the node under test and of this node on the RDMA device's netdev):
//   lnet-ibpeer ping [--count N] TARGET_IP MY_IP
//   lnet-ibpeer stale-rkey [--portal P] [--sink-match MB] [--put-size N] TARGET_IP MY_IP
//   lnet-ibpeer connreq-flood [--nids N] [--same N] TARGET_IP MY_IP
//   lnet-ibpeer bad-desc TARGET_IP MY_IP
// and the common options --net N (o2ib<N>), --queue-depth Q.
#ifndef LNET_IBPEER_CLI_HPP
#define LNET_IBPEER_CLI_HPP

#include <optional>
#include <ostream>
#include <span>
#include <string>

#include "scenarios.hpp"

namespace ibpeer {

struct Command {
	enum class Mode { ping, stale_rkey, connreq_flood, bad_desc };

	Mode mode = Mode::ping;
	Options opt;
	std::uint32_t count = 20;	// ping: more than the queue depth
};

struct ParseResult {
	std::optional<Command> command;
	std::string error;
};

// @args without the program name. The identity's NIDs are IP@o2ib<net>,
// our stamp the time in microseconds.
ParseResult parse_args(std::span<const std::string> args);
std::string usage();

int run(const Command &cmd, std::ostream &out);

}  // namespace ibpeer

#endif  // LNET_IBPEER_CLI_HPP
