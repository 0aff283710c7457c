// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <fstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "lnet/cli_number.hpp"

#include "scenarios.hpp"

namespace sockpeer {
namespace {

const CLI::Validator &number = lnet::cli_number;

const CLI::Validator ipv4(
	[](std::string &text) -> std::string {
		if (!wire::parse_ipv4(text))
			return "not an IPv4 address: '" + text + "'";
		return {};
	},
	"IP");

CLI::Option *add_ms(CLI::App *app, const std::string &name, std::chrono::milliseconds &target,
		    const std::string &help)
{
	return app
		->add_option_function<std::uint64_t>(
			name,
			[&target](const std::uint64_t &ms) { target = std::chrono::milliseconds(ms); },
			help)
		->transform(number)
		->type_name("MS");
}

// The two addresses every command takes, in its order; converted after
// the parse, so that an unknown option is reported as such and not as the
// bad address its value became.
struct Addresses {
	std::string first, second;
};

void add_ips(CLI::App *app, Addresses &ips, bool server)
{
	app->add_option(server ? "MY_IP" : "TARGET_IP", ips.first,
			server ? "this node's address" : "the node under test")
		->required();
	app->add_option(server ? "PEER_IP" : "MY_IP", ips.second,
			server ? "the node under test" : "this node's address")
		->required();
}

void add_fuzz_options(CLI::App *fuzz, Command &cmd)
{
	fuzz->add_option("--seed", cmd.fuzz.seed, "first seed (default 1)")->transform(number);
	fuzz->add_option("--cases", cmd.fuzz.cases, "cases to run (default 3000)")->transform(number);
	fuzz->add_option("--only", cmd.fuzz.only, "replay this case and show its bytes")
		->transform(number);
	fuzz->add_option("--parallel", cmd.fuzz.parallel, "connections at a time, 1..64 (default 4)")
		->transform(number)
		->check(CLI::Range(1U, 64U).description(""));
	add_ms(fuzz, "--quiet-ms", cmd.fuzz.quiet, "end a case after MS without a byte (300)");
	add_ms(fuzz, "--case-ms", cmd.fuzz.max_case, "end a case after MS in all (5000)");
	fuzz->add_option_function<std::string>(
		    "--fake-pool",
		    [&cmd](const std::string &text) { cmd.fake_base = *wire::parse_ipv4(text) - 1; },
		    "first of the 64 addresses of the fake source NIDs (10.254.0.1)")
		->check(ipv4);
	fuzz->add_option("--log", cmd.log_path, "one line per case to FILE")->type_name("FILE");
}

// "peer: MY_IP is required"; for a missing or unknown command, the
// commands there are.
std::string parse_error(const CLI::App &app, const CLI::ParseError &e)
{
	const auto chosen = app.get_subcommands();
	const auto rest = app.remaining(true);
	if (!chosen.empty()) {
		const std::string name = chosen.front()->get_name();
		if (dynamic_cast<const CLI::ExtrasError *>(&e))
			for (const auto &word : rest)
				if (word.starts_with('-'))
					return name + ": unknown option '" + word + "'";
		return name + ": " + e.what();
	}
	if (rest.empty())
		return "no command (peer, server, fuzz or done)";
	return "unknown command '" + rest.front() + "' (peer, server, fuzz or done)";
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
	       "       lnet-sockpeer hostile zc-flood|lazy-flood TARGET_IP MY_IP\n"
	       "       lnet-sockpeer hostile lst [--max-tests N] TARGET_IP MY_IP\n"
	       "       lnet-sockpeer hostile slow-handshake [--conns N] [--seconds S]\n"
	       "                          [--interval-ms MS] [--deadline-ms MS] [--slack-ms MS]\n"
	       "                          TARGET_IP MY_IP\n"
	       "       lnet-sockpeer hostile handshake-deadline [--conns N] [--deadline-ms MS]\n"
	       "                          [--slack-ms MS] TARGET_IP MY_IP\n"
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
	       "hostile: zc-flood: 0-byte PUTs asking for ZC-ACKs, read back slowly;\n"
	       "        lazy-flood: PUTs no service takes on lazy portal 50 (lnet_selftest)\n"
	       "hostile lst: a selftest console forcing sessions, sending TESTs over the\n"
	       "        target's limits (--max-tests: its max_tests, 256) and malformed requests\n"
	       "hostile slow-handshake: N connections (100) trickling their request or hello\n"
	       "        a byte every --interval-ms (1000) for S seconds (30), reopened when\n"
	       "        closed; each must be closed by the target within --deadline-ms (5000)\n"
	       "        + --slack-ms (3000)\n"
	       "hostile handshake-deadline: N connections (4) whose request is complete at\n"
	       "        0.6 x --deadline-ms (5000) and whose hello follows at 1.3 x: each must be\n"
	       "        closed within the deadline + --slack-ms (3000), its hello unanswered\n"
	       "\n"
	       "Each check prints \"ok NAME\" or \"not ok NAME # why\"; the exit status is 1 if\n"
	       "one failed, 2 for a usage error. Needs root (privileged source ports).\n";
}

ParseResult parse_args(std::span<const std::string> args)
{
	Command cmd;
	Addresses ips;
	bool help = false;
	CLI::App app("socklnd test peers and fuzzer", "lnet-sockpeer");

	// usage() is the help, for every command
	app.set_help_flag();
	app.add_flag("-h,--help", help);
	app.fallthrough();
	app.require_subcommand(1);
	auto *help_cmd = app.add_subcommand("help");
	auto *peer = app.add_subcommand("peer");
	add_ips(peer, ips, false);
	auto *server = app.add_subcommand("server");
	add_ips(server, ips, true);
	auto *fuzz = app.add_subcommand("fuzz");
	add_fuzz_options(fuzz, cmd);
	add_ips(fuzz, ips, false);
	auto *done = app.add_subcommand("done");
	done->add_option("--run", cmd.run, "the run number, 1..2147483647 (default 1)")
		->transform(number)
		->check(CLI::Range(1U, 0x7FFFFFFFU).description(""));
	add_ips(done, ips, false);
	auto *hostile = app.add_subcommand("hostile")->require_subcommand(1);
	auto *zc = hostile->add_subcommand("zc-flood");
	add_ips(zc, ips, false);
	auto *lazy = hostile->add_subcommand("lazy-flood");
	add_ips(lazy, ips, false);
	auto *lst = hostile->add_subcommand("lst");
	lst->add_option("--max-tests", cmd.max_tests, "the target's max_tests (256)")
		->transform(number)
		->check(CLI::Range(1U, 4096U).description(""));
	add_ips(lst, ips, false);
	auto *slow = hostile->add_subcommand("slow-handshake");
	slow->add_option("--conns", cmd.slow_handshake.conns, "connections at once (100)")
		->transform(number)
		->check(CLI::Range(1U, 500U).description(""));
	slow->add_option("--seconds", cmd.slow_handshake.seconds, "how long to flood (30)")
		->transform(number);
	add_ms(slow, "--interval-ms", cmd.slow_handshake.interval, "between two bytes (1000)");
	add_ms(slow, "--deadline-ms", cmd.slow_handshake.deadline,
	       "the target's handshake deadline (5000)");
	add_ms(slow, "--slack-ms", cmd.slow_handshake.slack, "allowed beyond the deadline (3000)");
	add_ips(slow, ips, false);
	auto *two = hostile->add_subcommand("handshake-deadline");
	two->add_option("--conns", cmd.two_stage.conns, "connections (4)")
		->transform(number)
		->check(CLI::Range(1U, 64U).description(""));
	add_ms(two, "--deadline-ms", cmd.two_stage.deadline,
	       "the target's handshake deadline (5000)");
	add_ms(two, "--slack-ms", cmd.two_stage.slack, "allowed beyond the deadline (3000)");
	add_ips(two, ips, false);

	// CLI11 takes the words last-first.
	std::vector<std::string> words(args.rbegin(), args.rend());
	try {
		app.parse(words);
	} catch (const CLI::ParseError &e) {
		if (help)
			return {Command{}, {}};
		return {std::nullopt, parse_error(app, e)};
	}
	if (help || help_cmd->parsed())
		return {Command{}, {}};
	if (peer->parsed())
		cmd.mode = Command::Mode::peer;
	else if (server->parsed())
		cmd.mode = Command::Mode::server;
	else if (done->parsed())
		cmd.mode = Command::Mode::done;
	else if (zc->parsed())
		cmd.mode = Command::Mode::hostile_zc;
	else if (lazy->parsed())
		cmd.mode = Command::Mode::hostile_lazy;
	else if (lst->parsed())
		cmd.mode = Command::Mode::hostile_lst;
	else if (slow->parsed())
		cmd.mode = Command::Mode::hostile_slow_handshake;
	else if (two->parsed())
		cmd.mode = Command::Mode::hostile_handshake_deadline;
	else
		cmd.mode = Command::Mode::fuzz;
	const std::string name = app.get_subcommands().front()->get_name();
	for (const std::string *text : {&ips.first, &ips.second})
		if (!wire::parse_ipv4(*text))
			return {std::nullopt, name + ": not an IPv4 address: '" + *text + "'"};
	cmd.target_ip = *wire::parse_ipv4(ips.first);
	cmd.my_ip = *wire::parse_ipv4(ips.second);
	if (cmd.mode == Command::Mode::fuzz) {
		const fuzz::Context ctx{cmd.target_ip, cmd.my_ip, cmd.fake_base};
		for (std::uint32_t ip : {cmd.target_ip, cmd.my_ip})
			if (ip > ctx.fake_base && ip <= ctx.fake_base + ctx.fake_count)
				return {std::nullopt, "fuzz: " + wire::ipv4_to_string(ip) +
							      " is in the fake NID pool; choose "
							      "another --fake-pool"};
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
	case Command::Mode::hostile_zc:
		return run_hostile_zc(cmd.target_ip, cmd.my_ip, out);
	case Command::Mode::hostile_lazy:
		return run_hostile_lazy(cmd.target_ip, cmd.my_ip, out);
	case Command::Mode::hostile_lst:
		return run_hostile_lst(cmd.target_ip, cmd.my_ip, cmd.max_tests, out);
	case Command::Mode::hostile_slow_handshake:
		return run_hostile_slow_handshake(cmd.slow_handshake, cmd.target_ip, cmd.my_ip, out);
	case Command::Mode::hostile_handshake_deadline:
		return run_hostile_handshake_deadline(cmd.two_stage, cmd.target_ip, cmd.my_ip, out);
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
