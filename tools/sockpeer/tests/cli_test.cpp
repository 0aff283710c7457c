// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace sockpeer {
namespace {

ParseResult parse(std::vector<std::string> args)
{
	return parse_args(args);
}

TEST(Cli, PeerAndServer)
{
	const auto p = parse({"peer", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(p.command) << p.error;
	EXPECT_EQ(p.command->mode, Command::Mode::peer);
	EXPECT_EQ(p.command->target_ip, 0xC0000202U);
	EXPECT_EQ(p.command->my_ip, 0xC0000201U);
	const auto s = parse({"server", "192.0.2.1", "192.0.2.2"});
	ASSERT_TRUE(s.command) << s.error;
	EXPECT_EQ(s.command->mode, Command::Mode::server);
	const auto d = parse({"done", "--run", "1000", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(d.command) << d.error;
	EXPECT_EQ(d.command->mode, Command::Mode::done);
	EXPECT_EQ(d.command->run, 1000U);
	EXPECT_EQ(parse({"done", "192.0.2.2", "192.0.2.1"}).command->run, 1U);
}

TEST(Cli, HostileModes)
{
	for (const std::string mode : {"zc-flood", "lazy-flood"}) {
		const auto h = parse({"hostile", mode, "192.0.2.2", "192.0.2.1"});
		ASSERT_TRUE(h.command) << h.error;
		EXPECT_EQ(h.command->mode, mode == "zc-flood" ? Command::Mode::hostile_zc
							       : Command::Mode::hostile_lazy);
		EXPECT_EQ(h.command->target_ip, 0xC0000202U);
	}
	EXPECT_FALSE(parse({"hostile", "flood", "192.0.2.2", "192.0.2.1"}).command);
	EXPECT_FALSE(parse({"hostile", "192.0.2.2", "192.0.2.1"}).command);
}

TEST(Cli, HostileLst)
{
	auto h = parse({"hostile", "lst", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(h.command) << h.error;
	EXPECT_EQ(h.command->mode, Command::Mode::hostile_lst);
	EXPECT_EQ(h.command->max_tests, 256U);
	h = parse({"hostile", "lst", "--max-tests", "32", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(h.command) << h.error;
	EXPECT_EQ(h.command->max_tests, 32U);
	EXPECT_FALSE(parse({"hostile", "lst", "--max-tests", "0", "192.0.2.2", "192.0.2.1"}).command);
}

TEST(Cli, HostileSlowHandshake)
{
	const auto h = parse({"hostile", "slow-handshake", "--conns", "150", "--seconds", "20",
			      "--interval-ms", "500", "--deadline-ms", "4000", "--slack-ms", "2000",
			      "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(h.command) << h.error;
	EXPECT_EQ(h.command->mode, Command::Mode::hostile_slow_handshake);
	EXPECT_EQ(h.command->slow_handshake.conns, 150U);
	EXPECT_EQ(h.command->slow_handshake.seconds, 20U);
	EXPECT_EQ(h.command->slow_handshake.interval, std::chrono::milliseconds(500));
	EXPECT_EQ(h.command->slow_handshake.deadline, std::chrono::milliseconds(4000));
	EXPECT_EQ(h.command->slow_handshake.slack, std::chrono::milliseconds(2000));
	EXPECT_EQ(h.command->target_ip, 0xC0000202U);
	EXPECT_FALSE(parse({"hostile", "192.0.2.2", "192.0.2.1"}).command);
	EXPECT_FALSE(parse({"hostile", "slow-handshake", "--conns", "0", "192.0.2.2",
			    "192.0.2.1"}).command);
}

TEST(Cli, HostileHandshakeDeadline)
{
	const auto d = parse({"hostile", "handshake-deadline", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(d.command) << d.error;
	EXPECT_EQ(d.command->mode, Command::Mode::hostile_handshake_deadline);
	EXPECT_EQ(d.command->two_stage.conns, 4U);
	EXPECT_EQ(d.command->two_stage.deadline, std::chrono::milliseconds(5000));
	const auto e = parse({"hostile", "handshake-deadline", "--conns", "2", "--deadline-ms",
			      "3000", "--slack-ms", "1000", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(e.command) << e.error;
	EXPECT_EQ(e.command->two_stage.conns, 2U);
	EXPECT_EQ(e.command->two_stage.deadline, std::chrono::milliseconds(3000));
	EXPECT_EQ(e.command->two_stage.slack, std::chrono::milliseconds(1000));
	EXPECT_FALSE(parse({"hostile", "handshake-deadline", "--conns", "65", "192.0.2.2",
			    "192.0.2.1"}).command);
}

TEST(Cli, FuzzOptions)
{
	const auto f = parse({"fuzz", "--seed", "0x10", "--cases", "2500", "--parallel", "8",
			      "--quiet-ms", "200", "--case-ms", "3000", "--log", "/tmp/x",
			      "--fake-pool", "10.9.0.1", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(f.command) << f.error;
	const Command &c = *f.command;
	EXPECT_EQ(c.mode, Command::Mode::fuzz);
	EXPECT_EQ(c.fuzz.seed, 16U);
	EXPECT_EQ(c.fuzz.cases, 2500U);
	EXPECT_EQ(c.fuzz.parallel, 8U);
	EXPECT_EQ(c.fuzz.quiet, std::chrono::milliseconds(200));
	EXPECT_EQ(c.fuzz.max_case, std::chrono::milliseconds(3000));
	EXPECT_FALSE(c.fuzz.only);
	EXPECT_EQ(c.log_path, "/tmp/x");
	EXPECT_EQ(fuzz::Context({0, 0, c.fake_base}).fake_nid(0), wire::tcp_nid(0x0A090001));

	const auto only = parse({"fuzz", "--only", "17", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(only.command) << only.error;
	EXPECT_EQ(only.command->fuzz.only, 17U);
	EXPECT_EQ(only.command->fuzz.seed, 1U);		// the default
}

TEST(Cli, Errors)
{
	const std::vector<std::vector<std::string>> bad = {
		{},
		{"dance"},
		{"peer", "192.0.2.2"},
		{"peer", "192.0.2.2", "192.0.2.1", "x"},
		{"peer", "192.0.2.2", "not-an-ip"},
		{"peer", "--seed", "1", "192.0.2.2", "192.0.2.1"},
		{"fuzz", "--cases", "many", "192.0.2.2", "192.0.2.1"},
		{"fuzz", "--cases"},
		{"fuzz", "--parallel", "0", "192.0.2.2", "192.0.2.1"},
		{"fuzz", "--frobnicate", "1", "192.0.2.2", "192.0.2.1"},
		{"fuzz", "--fake-pool", "10.0.0", "192.0.2.2", "192.0.2.1"},
		{"done", "--run", "0", "192.0.2.2", "192.0.2.1"},
		{"done", "--seed", "1", "192.0.2.2", "192.0.2.1"},
		// our own address in the fake pool
		{"fuzz", "10.254.0.7", "192.0.2.1"},
	};
	for (const auto &args : bad) {
		const auto r = parse_args(args);
		std::string joined;
		for (const auto &a : args)
			joined += a + " ";
		EXPECT_FALSE(r.command) << joined;
		EXPECT_FALSE(r.error.empty()) << joined;
	}
	EXPECT_NE(parse({"fuzz", "--cases", "many", "192.0.2.2", "192.0.2.1"}).error.find("'many'"),
		  std::string::npos);
}

// The command lines of tests/scenarios/socklnd-*.sh.
TEST(Cli, ScenarioCommandLines)
{
	EXPECT_TRUE(parse({"peer", "192.0.2.2", "192.0.2.1"}).command);
	EXPECT_TRUE(parse({"server", "192.0.2.1", "192.0.2.2"}).command);
	const auto f = parse({"fuzz", "--seed", "12345", "--cases", "3000", "--parallel", "4",
			      "--log", "/mnt/fuzz.log", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(f.command) << f.error;
	EXPECT_EQ(f.command->fuzz.seed, 12345U);
	EXPECT_EQ(f.command->log_path, "/mnt/fuzz.log");
	EXPECT_EQ(f.command->target_ip, 0xC0000202U);
	const auto d = parse({"done", "--run", "3", "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(d.command) << d.error;
	EXPECT_EQ(d.command->run, 3U);
}

TEST(Cli, ErrorMessages)
{
	EXPECT_EQ(parse({}).error, "no command (peer, server, fuzz or done)");
	EXPECT_EQ(parse({"dance"}).error, "unknown command 'dance' (peer, server, fuzz or done)");
	EXPECT_EQ(parse({"peer", "192.0.2.2"}).error, "peer: MY_IP is required");
	EXPECT_EQ(parse({"server", "192.0.2.1"}).error, "server: PEER_IP is required");
	EXPECT_EQ(parse({"peer", "192.0.2.2", "not-an-ip"}).error,
		  "peer: not an IPv4 address: 'not-an-ip'");
	// the option's value must not be taken for an address
	EXPECT_EQ(parse({"fuzz", "--frobnicate", "1", "192.0.2.2", "192.0.2.1"}).error,
		  "fuzz: unknown option '--frobnicate'");
	EXPECT_EQ(parse({"done", "--seed", "1", "192.0.2.2", "192.0.2.1"}).error,
		  "done: unknown option '--seed'");
	EXPECT_EQ(parse({"fuzz", "--cases", "many", "192.0.2.2", "192.0.2.1"}).error,
		  "fuzz: --cases: not a number: 'many'");
	EXPECT_EQ(parse({"fuzz", "--seed", "-1", "192.0.2.2", "192.0.2.1"}).error,
		  "fuzz: --seed: not a number: '-1'");
	EXPECT_EQ(parse({"fuzz", "--fake-pool", "10.0.0", "192.0.2.2", "192.0.2.1"}).error,
		  "fuzz: --fake-pool: not an IPv4 address: '10.0.0'");
	EXPECT_NE(parse({"fuzz", "--parallel", "65", "192.0.2.2", "192.0.2.1"}).error.find(
			  "--parallel"),
		  std::string::npos);
}

TEST(Cli, NumbersAreDecimalOrHex)
{
	const auto f = parse({"fuzz", "--seed", "010", "--cases", "0X20", "--case-ms=250",
			      "192.0.2.2", "192.0.2.1"});
	ASSERT_TRUE(f.command) << f.error;
	EXPECT_EQ(f.command->fuzz.seed, 10U);		// not octal
	EXPECT_EQ(f.command->fuzz.cases, 32U);
	EXPECT_EQ(f.command->fuzz.max_case, std::chrono::milliseconds(250));
}

TEST(Cli, Help)
{
	for (const std::vector<std::string> &args :
	     {std::vector<std::string>{"help"}, {"-h"}, {"fuzz", "--help"}}) {
		const auto r = parse(args);
		ASSERT_TRUE(r.command) << r.error;
		EXPECT_EQ(r.command->mode, Command::Mode::help);
	}

	const auto h = parse({"--help"});
	ASSERT_TRUE(h.command);
	std::ostringstream out, err;
	EXPECT_EQ(run(*h.command, out, err), 0);
	EXPECT_NE(out.str().find("lnet-sockpeer fuzz"), std::string::npos);
}

}  // namespace
}  // namespace sockpeer
