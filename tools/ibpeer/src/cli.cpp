// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <chrono>

#include <CLI/CLI.hpp>

#include "lnet/cli_number.hpp"

namespace ibpeer {
namespace {

const CLI::Validator &number = lnet::cli_number;

struct Raw {
	std::string target, me;
	std::uint32_t net = 0;
	std::uint32_t queue_depth = 8;
};

void build(CLI::App &app, Command &cmd, Raw &raw)
{
	app.require_subcommand(1);
	auto common = [&](CLI::App *sub) {
		sub->add_option("TARGET_IP", raw.target, "the node under test")->required();
		sub->add_option("MY_IP", raw.me, "this node's address")->required();
		sub->add_option("--net", raw.net, "o2ib network number")->transform(number);
		sub->add_option("--queue-depth", raw.queue_depth, "queue depth we propose (1..255)")
			->transform(number);
	};
	auto *ping = app.add_subcommand("ping", "a well-behaved peer: connect, ping, credits");
	common(ping);
	ping->add_option("--count", cmd.count, "pings")->transform(number);
	ping->callback([&] { cmd.mode = Command::Mode::ping; });

	auto *stale = app.add_subcommand("stale-rkey", "RDMA writes to sinks whose PUT is over");
	common(stale);
	stale->add_option("--portal", cmd.opt.portal, "portal of a sink MD")->transform(number);
	stale->add_option("--sink-match", cmd.opt.sink_match, "its match bits")->transform(number);
	stale->add_option("--put-size", cmd.opt.put_size, "PUT size (> 3976)")->transform(number);
	stale->callback([&] { cmd.mode = Command::Mode::stale_rkey; });

	auto *flood = app.add_subcommand("connreq-flood", "connection requests, many and malformed");
	common(flood);
	flood->add_option("--nids", cmd.opt.flood_nids, "requests claiming other NIDs")
		->transform(number);
	flood->add_option("--same", cmd.opt.flood_same, "requests claiming ours")->transform(number);
	flood->add_option("--max-conns-per-peer", cmd.opt.max_conns_per_peer, "the target's limit")
		->transform(number);
	flood->add_option("--max-nids-per-addr", cmd.opt.max_nids_per_addr, "the target's limit")
		->transform(number);
	flood->callback([&] { cmd.mode = Command::Mode::connreq_flood; });

	auto *bad = app.add_subcommand("bad-desc", "bad messages on an established connection");
	common(bad);
	bad->add_option("--portal", cmd.opt.portal, "portal of a GET MD")->transform(number);
	bad->add_option("--pattern-match", cmd.opt.pattern_match, "its match bits")
		->transform(number);
	bad->callback([&] { cmd.mode = Command::Mode::bad_desc; });
}

}  // namespace

ParseResult parse_args(std::span<const std::string> args)
{
	Command cmd;
	Raw raw;
	CLI::App app("lnet-ibpeer: a hostile o2iblnd peer", "lnet-ibpeer");
	build(app, cmd, raw);
	std::vector<std::string> rev(args.rbegin(), args.rend());
	try {
		app.parse(rev);
	} catch (const CLI::ParseError &e) {
		return {std::nullopt, e.what()};
	}
	const auto target = sockpeer::wire::parse_ipv4(raw.target);
	const auto me = sockpeer::wire::parse_ipv4(raw.me);
	if (!target)
		return {std::nullopt, "not an IPv4 address: '" + raw.target + "'"};
	if (!me)
		return {std::nullopt, "not an IPv4 address: '" + raw.me + "'"};
	if (raw.queue_depth < 1 || raw.queue_depth > 255)
		return {std::nullopt, "--queue-depth: 1..255"};
	if (raw.net > 0xFFFF)
		return {std::nullopt, "--net: 0..65535"};
	if (cmd.opt.put_size <= wire::immediate_max || cmd.opt.put_size > (1U << 20))
		return {std::nullopt, "--put-size: 3977..1048576"};
	auto &id = cmd.opt.id;
	id.target_ip = *target;
	id.my_ip = *me;
	id.target_nid = wire::o2ib_nid(*target, raw.net);
	id.my_nid = wire::o2ib_nid(*me, raw.net);
	id.queue_depth = static_cast<std::uint16_t>(raw.queue_depth);
	id.my_stamp = static_cast<std::uint64_t>(
		std::chrono::duration_cast<std::chrono::microseconds>(
			std::chrono::system_clock::now().time_since_epoch())
			.count());
	return {cmd, {}};
}

std::string usage()
{
	Command cmd;
	Raw raw;
	CLI::App app("lnet-ibpeer: a hostile o2iblnd peer", "lnet-ibpeer");
	build(app, cmd, raw);
	return app.help();
}

int run(const Command &cmd, std::ostream &out)
{
	lnet::Reporter rep(out);
	rep.note("lnet-ibpeer: " + wire::nid_to_string(cmd.opt.id.my_nid) + " -> " +
		 wire::nid_to_string(cmd.opt.id.target_nid));
	switch (cmd.mode) {
	case Command::Mode::ping:
		run_ping(cmd.opt, rep, cmd.count);
		break;
	case Command::Mode::stale_rkey:
		run_stale_rkey(cmd.opt, rep);
		break;
	case Command::Mode::connreq_flood:
		run_connreq_flood(cmd.opt, rep);
		break;
	case Command::Mode::bad_desc:
		run_bad_desc(cmd.opt, rep);
		break;
	}
	return rep.failed() ? 1 : 0;
}

}  // namespace ibpeer
