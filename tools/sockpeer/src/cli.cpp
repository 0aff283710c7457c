// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <charconv>
#include <fstream>
#include <vector>

#include "scenarios.hpp"

namespace sockpeer {
namespace {

// Decimal or 0x hex, the whole text.
std::optional<std::uint64_t> parse_number(std::string_view text)
{
	int base = 10;
	if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		text.remove_prefix(2);
	}
	std::uint64_t v = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
	if (text.empty() || ec != std::errc() || end != text.data() + text.size())
		return std::nullopt;
	return v;
}

ParseResult fail(std::string error)
{
	return {std::nullopt, std::move(error)};
}

}  // namespace

std::string usage()
{
	return "usage: lnet-sockpeer peer TARGET_IP MY_IP\n"
	       "       lnet-sockpeer server MY_IP PEER_IP\n"
	       "       lnet-sockpeer fuzz [--seed S] [--cases N] [--only ID] [--parallel P]\n"
	       "                          [--quiet-ms MS] [--case-ms MS] [--fake-pool IP]\n"
	       "                          [--log FILE] TARGET_IP MY_IP\n"
	       "       lnet-sockpeer done [--run N] TARGET_IP MY_IP\n"
	       "\n"
	       "peer:   a socklnd peer against TARGET_IP's acceptor (TCP 988): good and bad\n"
	       "        requests, hellos and messages\n"
	       "server: a passive socklnd node on TCP 988 serving lnet_lndtest's client at\n"
	       "        PEER_IP, checking its connection requests and hellos\n"
	       "fuzz:   N malformed requests, hellos and frames (default 3000, seed 1),\n"
	       "        P connections at a time (4); a case ends when the target closes, after\n"
	       "        --quiet-ms without a byte (300), or after --case-ms (5000). Source NIDs\n"
	       "        come from 64 addresses from --fake-pool on (10.254.0.1). --only ID\n"
	       "        replays one case and shows its bytes; --log FILE gets a line per case.\n"
	       "done:   PUT lnet_lndtest's \"done\" marker with run number N (default 1) to\n"
	       "        TARGET_IP's server, from a NID of MY_IP's subnet ending in .250\n"
	       "\n"
	       "Each check prints \"ok NAME\" or \"not ok NAME # why\"; the exit status is 1 if\n"
	       "one failed, 2 for a usage error. Needs root (privileged source ports).\n";
}

ParseResult parse_args(std::span<const std::string> args)
{
	Command cmd;

	if (args.empty())
		return fail("no command (peer, server, fuzz or done)");
	const std::string &mode = args[0];
	if (mode == "-h" || mode == "--help" || mode == "help")
		return {cmd, {}};
	if (mode == "peer")
		cmd.mode = Command::Mode::peer;
	else if (mode == "server")
		cmd.mode = Command::Mode::server;
	else if (mode == "fuzz")
		cmd.mode = Command::Mode::fuzz;
	else if (mode == "done")
		cmd.mode = Command::Mode::done;
	else
		return fail("unknown command '" + mode + "' (peer, server, fuzz or done)");

	std::vector<std::string> positional;
	for (std::size_t i = 1; i < args.size(); i++) {
		const std::string &a = args[i];
		if (a.size() < 2 || a.compare(0, 2, "--") != 0) {
			positional.push_back(a);
			continue;
		}
		if (cmd.mode != Command::Mode::fuzz && !(cmd.mode == Command::Mode::done && a == "--run"))
			return fail(mode + ": unknown option '" + a + "'");
		if (i + 1 >= args.size())
			return fail(mode + ": " + a + " needs a value");
		const std::string &value = args[++i];
		if (a == "--log") {
			cmd.log_path = value;
			continue;
		}
		if (a == "--fake-pool") {
			const auto ip = wire::parse_ipv4(value);
			if (!ip)
				return fail(mode + ": --fake-pool: not an IPv4 address: '" + value + "'");
			cmd.fake_base = *ip - 1;
			continue;
		}
		const auto n = parse_number(value);
		if (!n)
			return fail(mode + ": " + a + ": not a number: '" + value + "'");
		if (a == "--run") {
			if (*n < 1 || *n > 0x7FFFFFFF)
				return fail(mode + ": --run: 1..2147483647");
			cmd.run = static_cast<std::uint32_t>(*n);
		} else if (a == "--seed") {
			cmd.fuzz.seed = *n;
		} else if (a == "--cases") {
			cmd.fuzz.cases = *n;
		} else if (a == "--only") {
			cmd.fuzz.only = *n;
		} else if (a == "--parallel") {
			if (*n < 1 || *n > 64)
				return fail(mode + ": --parallel: 1..64");
			cmd.fuzz.parallel = static_cast<unsigned int>(*n);
		} else if (a == "--quiet-ms") {
			cmd.fuzz.quiet = std::chrono::milliseconds(*n);
		} else if (a == "--case-ms") {
			cmd.fuzz.max_case = std::chrono::milliseconds(*n);
		} else {
			return fail(mode + ": unknown option '" + a + "'");
		}
	}
	if (positional.size() != 2)
		return fail(mode + ": needs two IPv4 addresses, " +
			    (cmd.mode == Command::Mode::server ? "MY_IP PEER_IP" : "TARGET_IP MY_IP"));
	std::uint32_t ips[2];
	for (int i = 0; i < 2; i++) {
		const auto ip = wire::parse_ipv4(positional[i]);
		if (!ip)
			return fail(mode + ": not an IPv4 address: '" + positional[i] + "'");
		ips[i] = *ip;
	}
	cmd.target_ip = ips[0];
	cmd.my_ip = ips[1];
	if (cmd.mode == Command::Mode::fuzz) {
		const fuzz::Context ctx{cmd.target_ip, cmd.my_ip, cmd.fake_base};
		for (std::uint32_t ip : {cmd.target_ip, cmd.my_ip})
			if (ip > ctx.fake_base && ip <= ctx.fake_base + ctx.fake_count)
				return fail(mode + ": " + wire::ipv4_to_string(ip) +
					    " is in the fake NID pool; choose another --fake-pool");
	}
	return {cmd, {}};
}

int run(const Command &cmd, std::ostream &out, std::ostream &err)
{
	switch (cmd.mode) {
	case Command::Mode::help:
		out << usage();
		return 0;
	case Command::Mode::peer:
		return run_peer(cmd.target_ip, cmd.my_ip, out);
	case Command::Mode::server:
		return run_server(cmd.target_ip, cmd.my_ip, out);
	case Command::Mode::done:
		return run_done(cmd.target_ip, cmd.my_ip, cmd.run, out);
	case Command::Mode::fuzz:
		break;
	}
	std::ofstream log;
	if (!cmd.log_path.empty()) {
		log.open(cmd.log_path, std::ios::out | std::ios::trunc);
		if (!log) {
			err << "lnet-sockpeer fuzz: cannot write " << cmd.log_path << "\n";
			return 2;
		}
	}
	const fuzz::Context ctx{cmd.target_ip, cmd.my_ip, cmd.fake_base};
	return fuzz::run_fuzz(ctx, cmd.fuzz, out, cmd.log_path.empty() ? nullptr : &log);
}

}  // namespace sockpeer
