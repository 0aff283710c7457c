// SPDX-License-Identifier: GPL-2.0
#include "lctl.hpp"

#include <CLI/CLI.hpp>
#include <lnet/nid.hpp>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <variant>

#include "cli.hpp"
#include "commands/commands.hpp"
#include "fault_text.hpp"

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

// ---- peer_list, conn_list: the LND's own tables ------------------------------

std::string ipv4(std::uint32_t addr)
{
	return std::to_string(addr >> 24) + "." + std::to_string((addr >> 16) & 0xff) + "." +
	       std::to_string((addr >> 8) & 0xff) + "." + std::to_string(addr & 0xff);
}

bool lnd_listed(std::uint32_t net)
{
	return LNET_NETTYP(net) == LNET_LND_SOCK || LNET_NETTYP(net) == LNET_LND_O2IB;
}

std::string_view state_name(lnetctl::O2ibState s)
{
	switch (s) {
	case lnetctl::O2ibState::none:
		return "none";
	case lnetctl::O2ibState::connecting:
		return "connecting";
	case lnetctl::O2ibState::established:
		return "established";
	case lnetctl::O2ibState::closing:
		return "closing";
	default:
		return "unknown";
	}
}

std::string_view type_letter(lnetctl::SockConnType t)
{
	switch (t) {
	case lnetctl::SockConnType::any:
		return "A";
	case lnetctl::SockConnType::control:
		return "C";
	case lnetctl::SockConnType::bulk_in:
		return "I";
	case lnetctl::SockConnType::bulk_out:
		return "O";
	default:
		return "?";
	}
}

// Lustre's columns: "%-20s [0]LOCAL->PEER:PORT #CONNS" (no peer here is
// configured by hand, so the count in brackets is 0); o2ib "%-20s [REFS]"
// and then the connection's state and credits.
std::string peer_line(const lnetctl::LndPeer &peer)
{
	char line[256];

	if (const auto *p = std::get_if<lnetctl::SockPeer>(&peer)) {
		std::snprintf(line, sizeof(line), "%-20s [0]%s->%s:%u #%u\n",
			      lnet::process_id_to_string(p->id).c_str(), ipv4(p->local_ip).c_str(),
			      ipv4(p->peer_ip).c_str(), p->peer_port, p->conns);
		return line;
	}
	const auto &o = std::get<lnetctl::O2ibPeer>(peer);

	std::snprintf(line, sizeof(line),
		      "%-20s [%u] %s conns %u credits %d outstanding %d queue_depth %u\n",
		      lnet::nid_to_string(o.nid).c_str(), o.refs, state_name(o.state).data(),
		      o.conns, o.credits, o.outstanding, o.queue_depth);
	return line;
}

// Lustre's columns, with the local port too: "%-20s TYPE[SCHED]LOCAL:PORT->
// PEER:PORT TX/RX nagle|nonagle"; o2ib "NID mtu N" and then the state and
// credits.
std::string conn_line(const lnetctl::LndConn &conn)
{
	char line[256];

	if (const auto *c = std::get_if<lnetctl::SockConn>(&conn)) {
		std::snprintf(line, sizeof(line), "%-20s %s[%u]%s:%u->%s:%u %u/%u %s\n",
			      lnet::process_id_to_string(c->id).c_str(),
			      type_letter(c->type).data(), c->scheduler,
			      ipv4(c->local_ip).c_str(), c->local_port, ipv4(c->peer_ip).c_str(),
			      c->peer_port, c->tx_buffer, c->rx_buffer,
			      c->nagle ? "nagle" : "nonagle");
		return line;
	}
	const auto &o = std::get<lnetctl::O2ibConn>(conn);

	std::snprintf(line, sizeof(line),
		      "%s mtu %u %s credits %d outstanding %d queue_depth %u\n",
		      lnet::nid_to_string(o.nid).c_str(), o.mtu, state_name(o.state).data(),
		      o.credits, o.outstanding, o.queue_depth);
	return line;
}

// The nets to list: @text's, or every tcp and o2ib net of this node.
std::optional<std::vector<std::uint32_t>> lnd_nets(Kernel &k, std::string_view verb,
						   const std::string &text, std::ostream &err,
						   int &rc)
{
	if (!text.empty()) {
		auto net = lnet::parse_net(text);

		if (!net) {
			err << "lctl " << verb << ": can't parse net '" << text << "'\n";
			rc = exit_usage;
			return std::nullopt;
		}
		if (!lnd_listed(*net)) {
			err << "lctl " << verb << ": net " << text
			    << ": only tcp and o2ib nets have one\n";
			rc = exit_usage;
			return std::nullopt;
		}
		return std::vector<std::uint32_t>{ *net };
	}
	std::vector<std::uint32_t> nets;

	try {
		for (const auto &ni : k.get_nis()) {
			std::uint32_t net = LNET_NIDNET(ni.config.nid);

			if (lnd_listed(net) && std::find(nets.begin(), nets.end(), net) == nets.end())
				nets.push_back(net);
		}
	} catch (const KernelError &e) {
		rc = failed(err, verb, "cannot list the local NIs", e);
		return std::nullopt;
	}
	if (nets.empty()) {
		err << "lctl " << verb << ": no tcp or o2ib net is up here (--net NET)\n";
		rc = exit_failed;
		return std::nullopt;
	}
	return nets;
}

// What the LND's answer means for the user.
int lnd_failed(std::ostream &err, std::string_view verb, std::uint32_t net,
	       const KernelError &e)
{
	const std::string name = lnet::net_to_string(net);
	const char *lnd = LNET_NETTYP(net) == LNET_LND_SOCK ? "ksocklnd" : "ko2iblnd";

	if (e.error() == ENETDOWN && !e.standalone()) {
		err << "lctl " << verb << ": net " << name << " is not up on this node\n";
		return exit_failed;
	}
	if (e.error() == EINVAL && !e.standalone()) {
		err << "lctl " << verb << ": net " << name << ": " << lnd << " is not loaded\n";
		return exit_failed;
	}
	return failed(err, verb, "net " + name, e);
}

// peer_list (@conns false) or conn_list: one line each, "<no peers>" /
// "<no connections>" when there are none.
int lnd_list(Kernel &k, bool conns, const std::string &net_text, std::ostream &out,
	     std::ostream &err)
{
	const std::string_view verb = conns ? "conn_list" : "peer_list";
	int rc = 0;
	auto nets = lnd_nets(k, verb, net_text, err, rc);
	std::size_t lines = 0;

	if (!nets)
		return rc;
	for (std::uint32_t net : *nets) {
		try {
			if (conns) {
				for (const auto &c : k.lnd_conns(net)) {
					out << conn_line(c);
					lines++;
				}
			} else {
				for (const auto &p : k.lnd_peers(net)) {
					out << peer_line(p);
					lines++;
				}
			}
		} catch (const KernelError &e) {
			return lnd_failed(err, verb, net, e);
		}
	}
	if (!lines)
		out << (conns ? "<no connections>\n" : "<no peers>\n");
	return 0;
}

// ---- net_drop_*, net_delay_*: lnetctl fault's rules, Lustre's lines ---------

using lnetctl::FaultKind;

std::string fault_verb(FaultKind kind, std::string_view op)
{
	return "net_" + std::string(lnetctl::fault_kind_name(kind)) + "_" + std::string(op);
}

// A rule the options describe, checked as lnetctl fault add checks it.
int fault_add(Kernel &k, const lnetctl::FaultAddArgs &a, std::ostream &out, std::ostream &err)
{
	const std::string_view kind = lnetctl::fault_kind_name(a.kind);
	lnetctl::Outcome o;
	auto rule = lnetctl::fault_rule(a, o);
	lnetctl::FaultRule added;

	if (!rule) {
		err << "lctl " << fault_verb(a.kind, "add") << ": " << o.errors.front().descr
		    << "\n";
		return exit_usage;
	}
	const std::string nids = lnetctl::fault_nid_to_string(rule->src) + "->" +
				 lnetctl::fault_nid_to_string(rule->dst);
	try {
		added = k.fault_add(a.kind, *rule);
	} catch (const KernelError &e) {
		err << "add " << kind << " rule " << nids << " failed: " << e.what() << "\n";
		return exit_failed;
	}
	out << "Added " << kind << " rule " << nids << " (1/" << added.rate << ")\n";
	return 0;
}

// The rules from -s to -d (a side not given: any), or every rule (-a).
int fault_del(Kernel &k, lnetctl::FaultDelArgs a, std::ostream &out, std::ostream &err)
{
	const std::string_view kind = lnetctl::fault_kind_name(a.kind);
	lnetctl::Outcome o;
	std::uint32_t n = 0;

	if (!a.all && a.source.empty() && a.dest.empty()) {
		err << "lctl " << fault_verb(a.kind, "del")
		    << ": give -s NID, -d NID or both, or -a for every rule\n";
		return exit_usage;
	}
	if (!a.all) {
		for (auto *side : { &a.source, &a.dest })
			if (side->empty())
				*side = "*";
	}
	auto nids = lnetctl::fault_del_nids(a, o);

	if (!nids) {
		err << "lctl " << fault_verb(a.kind, "del") << ": " << o.errors.front().descr
		    << "\n";
		return exit_usage;
	}
	try {
		n = k.fault_del(a.kind, nids->src, nids->dst);
	} catch (const KernelError &e) {
		err << "remove " << kind << " rule " << lnetctl::fault_nid_to_string(nids->src)
		    << "->" << lnetctl::fault_nid_to_string(nids->dst) << " failed: " << e.what()
		    << "\n";
		return exit_failed;
	}
	out << "Removed " << n << " " << kind << " rules\n";
	return 0;
}

int fault_reset(Kernel &k, FaultKind kind, std::ostream &err)
{
	try {
		k.fault_reset(kind);
	} catch (const KernelError &e) {
		err << "failed to reset " << lnetctl::fault_kind_name(kind) << " stats: " << e.what()
		    << "\n";
		return exit_failed;
	}
	return 0;
}

// Lustre's lines, newest rule first: "SRC->DST (1/RATE | INTERVAL[, latency
// S]) ptl MASK, msg MASK, ACTED/MATCHED, PUT n, ACK n, GET n, REP n", under
// a "LNet drop rules:" heading on standard error.
int fault_list(Kernel &k, FaultKind kind, std::ostream &out, std::ostream &err)
{
	std::vector<lnetctl::FaultInfo> rules;

	try {
		rules = k.fault_list(kind);
	} catch (const KernelError &e) {
		return failed(err, fault_verb(kind, "list"), "cannot list the rules", e);
	}
	err << "LNet " << lnetctl::fault_kind_name(kind) << " rules:\n";
	for (const auto &f : rules) {
		const auto &r = f.rule;
		const auto &st = f.stats;
		std::string latency;
		char line[320];

		if (kind == FaultKind::delay)
			latency = ", latency " + std::to_string(r.latency);
		std::snprintf(line, sizeof(line),
			      "%s->%s (1/%u | %u%s) ptl %#" PRIx64 ", msg %x, %" PRIu64 "/%" PRIu64
			      ", PUT %" PRIu64 ", ACK %" PRIu64 ", GET %" PRIu64 ", REP %" PRIu64
			      "\n",
			      lnetctl::fault_nid_to_string(r.src).c_str(),
			      lnetctl::fault_nid_to_string(r.dst).c_str(), r.rate, r.interval,
			      latency.c_str(), r.ptl_mask, r.msg_mask, st.total, st.matched, st.put,
			      st.ack, st.get, st.reply);
		out << line;
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

	// Lustre's "lctl --net NET peer_list"; "peer_list --net NET" too.
	std::string global_net, own_net;
	app.add_option("--net", global_net, "the net of peer_list and conn_list")
		->type_name("NET");
	for (bool conns : { false, true }) {
		auto *list = app.add_subcommand(conns ? "conn_list" : "peer_list",
						conns ? "the LND's connections, one a line" :
							"the LND's peers, one a line");

		list->add_option("--net", own_net, "tcp or o2ib net (default: every one)")
			->type_name("NET");
		list->callback([&, conns] {
			command = [&, conns] {
				return lnd_list(k, conns, own_net.empty() ? global_net : own_net,
						out, err);
			};
		});
	}

	lnetctl::FaultAddArgs add_args;
	lnetctl::FaultDelArgs del_args;
	for (FaultKind kind : { FaultKind::drop, FaultKind::delay }) {
		const std::string name(lnetctl::fault_kind_name(kind));
		auto *add = app.add_subcommand(fault_verb(kind, "add"), "add a " + name + " rule");
		auto *del = app.add_subcommand(fault_verb(kind, "del"), "delete " + name + " rules");
		auto *reset = app.add_subcommand(fault_verb(kind, "reset"),
						 "zero the " + name + " rules' statistics");
		auto *list = app.add_subcommand(fault_verb(kind, "list"),
						"the " + name + " rules, newest first");

		lnetctl::add_fault_add_options(add, add_args, kind == FaultKind::drop);
		lnetctl::add_fault_del_options(del, del_args);
		add->callback([&, kind] {
			add_args.kind = kind;
			command = [&] { return fault_add(k, add_args, out, err); };
		});
		del->callback([&, kind] {
			del_args.kind = kind;
			command = [&] { return fault_del(k, del_args, out, err); };
		});
		reset->callback([&, kind] { command = [&, kind] { return fault_reset(k, kind, err); }; });
		list->callback([&, kind] {
			command = [&, kind] { return fault_list(k, kind, out, err); };
		});
	}

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
