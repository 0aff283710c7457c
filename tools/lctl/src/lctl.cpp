// SPDX-License-Identifier: GPL-2.0
#include "lctl.hpp"

#include <CLI/CLI.hpp>
#include <lnet/nid.hpp>

#include <cerrno>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>

namespace lctl {
namespace {

using lnetctl::Kernel;
using lnetctl::KernelError;

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
constexpr long max_ping_seconds = 120;

// "<command>: <what>: <why>" for a failed kernel call.
int failed(std::ostream &err, std::string_view command, std::string_view what,
	   const KernelError &e)
{
	err << "lctl " << command << ": ";
	if (!e.standalone())
		err << what << ": ";
	err << e.what() << "\n";
	return exit_failed;
}

// network up|configure: bring LNet up with the networks of the module
// parameters (networks=, ip2nets=); down|unconfigure: take it down.
int network(Kernel &k, const std::string &verb, std::ostream &out,
	    std::ostream &err)
{
	if (verb == "up" || verb == "configure") {
		try {
			k.configure(true, false);
		} catch (const KernelError &e) {
			if (e.error() != EALREADY)
				return failed(err, "network", "LNET configure error", e);
		}
		out << "LNET configured\n";
		return 0;
	}
	if (verb == "down" || verb == "unconfigure") {
		try {
			k.unconfigure();
		} catch (const KernelError &e) {
			if (e.error() == EBUSY) {
				err << "LNET busy\n";
				return exit_failed;
			}
			return failed(err, "network", "LNET unconfigure error", e);
		}
		out << "LNET ready to unload\n";
		return 0;
	}
	err << "lctl network: '" << verb << "': use up, down, configure or unconfigure\n";
	return exit_usage;
}

// Every local NID, one a line; 0@lo only with "all".
int list_nids(Kernel &k, bool all, std::ostream &out, std::ostream &err)
{
	try {
		for (const auto &ni : k.get_nis())
			if (all || ni.config.nid != LNET_NID_LO_0)
				out << lnet::nid_to_string(ni.config.nid) << "\n";
	} catch (const KernelError &e) {
		return failed(err, "list_nids", "cannot list the local NIs", e);
	}
	return 0;
}

// The process ids of the target's ping reply, one a line ("12345-nid").
int ping(Kernel &k, const std::string &target, std::optional<long> seconds,
	 std::ostream &out, std::ostream &err)
{
	lnetctl::PingRequest req;
	auto id = lnet::parse_process_id(target);

	if (!id || id->nid == LNET_NID_ANY) {
		err << "lctl ping: can't parse process id '" << target << "'\n";
		return exit_usage;
	}
	if (seconds && (*seconds < 1 || *seconds > max_ping_seconds)) {
		err << "lctl ping: timeout " << *seconds << " s: use 1 to "
		    << max_ping_seconds << "\n";
		return exit_usage;
	}
	req.target = *id;
	req.timeout_ms = static_cast<std::int32_t>(seconds.value_or(1) * 1000);
	try {
		for (const auto &pid : k.ping(req).ids)
			out << lnet::process_id_to_string(pid) << "\n";
	} catch (const KernelError &e) {
		err << "failed to ping " << target << ": " << e.what() << "\n";
		return exit_failed;
	}
	return 0;
}

// The closest of @nids, as LNetDist() measures it: the fewest hops, then
// the lowest order of the local NI it is reached from; the first given of
// equals. NIDs nothing leads to are passed over.
int which_nid(Kernel &k, std::span<const std::string> nids, std::ostream &out,
	      std::ostream &err)
{
	std::optional<lnetctl::Distance> best;
	lnet_nid_t best_nid = LNET_NID_ANY;

	for (const auto &text : nids) {
		auto nid = lnet::parse_nid(text);

		if (!nid || *nid == LNET_NID_ANY) {
			err << "lctl which_nid: can't parse NID '" << text << "'\n";
			return exit_usage;
		}
		try {
			lnetctl::Distance d = k.distance(*nid);

			if (!best || d.distance < best->distance ||
			    (d.distance == best->distance && d.order < best->order)) {
				best = d;
				best_nid = *nid;
			}
		} catch (const KernelError &e) {
			if (e.error() != EHOSTUNREACH)
				return failed(err, "which_nid", "cannot measure the distance to " + text, e);
		}
	}
	if (!best) {
		err << "lctl which_nid: none of the NIDs is reachable\n";
		return exit_failed;
	}
	out << lnet::nid_to_string(best_nid) << "\n";
	return 0;
}

// "net <net> hops <n> gw <nid> up|down pri <n>", Lustre's columns.
int route_list(Kernel &k, std::ostream &out, std::ostream &err)
{
	try {
		for (const auto &r : k.get_routes()) {
			char line[160];

			std::snprintf(line, sizeof(line), "net %18s hops %d gw %32s %s pri %u\n",
				      lnet::net_to_string(r.config.net).c_str(),
				      r.config.hop,
				      lnet::nid_to_string(r.config.gateway).c_str(),
				      r.alive ? "up" : "down", r.config.priority);
			out << line;
		}
	} catch (const KernelError &e) {
		return failed(err, "route_list", "cannot list the routes", e);
	}
	return 0;
}

}  // namespace

int run(std::span<const std::string> args, Kernel &k, std::ostream &out,
	std::ostream &err)
{
	CLI::App app{ "LNet's network verbs, as Lustre's lctl has them.", "lctl" };
	std::function<int()> command;
	std::string verb, target;
	std::optional<long> seconds;
	bool all = false;

	app.require_subcommand(1);
	auto *net = app.add_subcommand("network", "bring LNet up or take it down");
	net->add_option("verb", verb, "up|configure (with networks=/ip2nets=) or "
				      "down|unconfigure")->required();
	net->callback([&] { command = [&] { return network(k, verb, out, err); }; });

	auto *nids = app.add_subcommand("list_nids", "this node's NIDs (0@lo with 'all')");
	nids->add_option("all", target, "'all' also lists 0@lo");
	nids->callback([&] {
		all = target == "all";
		command = [&] {
			if (!target.empty() && !all) {
				err << "usage: lctl list_nids [all]\n";
				return exit_usage;
			}
			return list_nids(k, all, out, err);
		};
	});

	auto *p = app.add_subcommand("ping", "LNet-ping a process: its ids, one a line");
	p->add_option("id", target, "NID or pid-NID")->required();
	p->add_option_function<long>(
		 "timeout", [&seconds](const long &v) { seconds = v; },
		 "seconds (default 1, at most 120)")
		->type_name("S");
	p->callback([&] { command = [&] { return ping(k, target, seconds, out, err); }; });

	std::vector<std::string> nid_list;
	auto *which = app.add_subcommand("which_nid", "the closest of the NIDs given");
	which->add_option("nids", nid_list, "NIDs")->required();
	which->callback([&] { command = [&] { return which_nid(k, nid_list, out, err); }; });

	auto *routes = app.add_subcommand("route_list", "the routes, one a line");
	routes->callback([&] { command = [&] { return route_list(k, out, err); }; });

	// CLI11 takes the words last-first.
	std::vector<std::string> words(args.rbegin(), args.rend());
	try {
		app.parse(words);
	} catch (const CLI::CallForHelp &e) {
		std::ostringstream o, e2;
		int rc = app.exit(e, o, e2);

		out << o.str();
		return rc;
	} catch (const CLI::ParseError &e) {
		err << "lctl: " << e.what() << "\n" << app.help();
		return exit_usage;
	}
	int rc = command ? command() : exit_usage;

	out.flush();
	err.flush();
	return rc;
}

}  // namespace lctl
