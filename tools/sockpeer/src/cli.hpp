// SPDX-License-Identifier: GPL-2.0
//
// Command line of lnet-sockpeer:
//   lnet-sockpeer peer TARGET_IP MY_IP
//   lnet-sockpeer server MY_IP PEER_IP
//   lnet-sockpeer fuzz [options] TARGET_IP MY_IP
//   lnet-sockpeer done [--run N] TARGET_IP MY_IP
//   lnet-sockpeer hostile zc-flood|lazy-flood TARGET_IP MY_IP
//   lnet-sockpeer hostile lst [--max-tests N] TARGET_IP MY_IP
//   lnet-sockpeer hostile slow-handshake [options] TARGET_IP MY_IP
//   lnet-sockpeer hostile handshake-deadline [options] TARGET_IP MY_IP
#ifndef LNET_SOCKPEER_CLI_HPP
#define LNET_SOCKPEER_CLI_HPP

#include <optional>
#include <ostream>
#include <span>
#include <string>

#include "fuzz.hpp"
#include "scenarios.hpp"

namespace sockpeer {

struct Command {
	enum class Mode { help, peer, server, fuzz, done, hostile_zc, hostile_lazy, hostile_lst,
			   hostile_slow_handshake, hostile_handshake_deadline };

	Mode mode = Mode::help;
	std::uint32_t target_ip = 0;	// peer, fuzz: the node under test; server: us
	std::uint32_t my_ip = 0;	// peer, fuzz: us; server: the node under test
	fuzz::Options fuzz;
	std::uint32_t fake_base = fuzz::Context{}.fake_base;
	std::string log_path;		// fuzz: one line per case
	std::uint32_t run = 1;		// done: the run number
	HostileOptions slow_handshake;	// hostile slow-handshake
	HostileOptions two_stage{.conns = 4};	// hostile handshake-deadline
	std::uint32_t max_tests = 256;	// hostile lst: the target's max_tests
};

struct ParseResult {
	std::optional<Command> command;
	std::string error;		// "fuzz: --cases: not a number: 'x'"
};

// @args without the program name.
ParseResult parse_args(std::span<const std::string> args);
std::string usage();

// Runs a parsed command; the exit status.
int run(const Command &cmd, std::ostream &out, std::ostream &err);

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_CLI_HPP
