// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <sstream>
#include <type_traits>
#include <vector>

#include "tunables.hpp"
#include "yaml_out.hpp"

namespace lnetctl {
namespace {

constexpr const char *version_text = "lnetctl 0.1 (LNet for Linux)";

// Binds an optional integer option.
CLI::Option *add_int(CLI::App *app, const std::string &name,
		     std::optional<std::int64_t> &target, const std::string &help)
{
	return app->add_option_function<std::int64_t>(
			  name, [&target](const std::int64_t &v) { target = v; }, help)
		->type_name("N");
}

CLI::Option *add_verbose(CLI::App *app, int &target)
{
	return app->add_option("-v,--verbose", target,
			       "more detail (an optional level may follow)")
		->expected(0, 1)
		->default_str("1")
		->type_name("[LEVEL]");
}

// Every verb's argument storage plus the CLI11 tree that fills it.
class Cli {
public:
	Cli();

	CLI::App app{ "Configure and inspect LNet, the Lustre network layer.\n"
		      "Output is YAML; errors are YAML on standard error.",
		      "lnetctl" };

	std::optional<Command> selected() const;

private:
	void lnet_verbs();
	void net_verbs();
	void peer_verbs();
	CLI::App *health_set(CLI::App *set, HealthSetArgs &args,
			     const std::string &what);
	void route_verbs();
	void other_verbs();
	void fault_verbs();
	void fault_kind_verbs(CLI::App *fault, std::size_t i, FaultKind kind);
	void debug_verbs();

	template <typename T>
	void bind(CLI::App *sub, T &args)
	{
		leaves_.push_back({ sub, [&args]() { return Command(args); } });
	}

	struct Leaf {
		CLI::App *app;
		std::function<Command()> make;
	};
	std::vector<Leaf> leaves_;

	LnetConfigureArgs configure_;
	LnetUnconfigureArgs unconfigure_;
	NetAddArgs net_add_;
	NetDelArgs net_del_;
	NetShowArgs net_show_;
	NetSetArgs net_set_;
	PeerAddArgs peer_add_;
	PeerDelArgs peer_del_;
	PeerShowArgs peer_show_;
	PeerSetArgs peer_set_;
	RouteAddArgs route_add_;
	RouteDelArgs route_del_;
	RouteShowArgs route_show_;
	RoutingShowArgs routing_show_;
	SetRoutingArgs set_routing_;
	std::array<SetBuffersArgs, 3> set_buffers_{ { { "tiny", "" },
						      { "small", "" },
						      { "large", "" } } };
	PingArgs ping_;
	DiscoverArgs discover_;
	StatsShowArgs stats_show_;
	StatsResetArgs stats_reset_;
	GlobalShowArgs global_show_;
	std::vector<SetArgs> set_;	// one per tunable
	ExportArgs export_;
	ImportArgs import_;
	// [0] drop, [1] delay
	std::array<FaultAddArgs, 2> fault_add_;
	std::array<FaultDelArgs, 2> fault_del_;
	std::array<FaultResetArgs, 2> fault_reset_;
	std::array<FaultShowArgs, 2> fault_show_;
	DebugRecoveryArgs debug_recovery_;
};

Cli::Cli()
{
	app.require_subcommand(1);
	app.set_version_flag("--version", version_text);
	app.footer("Run 'lnetctl <command> --help' for the options of a command.");
	lnet_verbs();
	net_verbs();
	peer_verbs();
	route_verbs();
	other_verbs();
	fault_verbs();
	debug_verbs();
}

void Cli::lnet_verbs()
{
	auto *lnet = app.add_subcommand("lnet", "start or stop LNet");
	lnet->require_subcommand(1);

	auto *conf = lnet->add_subcommand("configure", "start LNet");
	conf->add_flag("-a,--all", configure_.all,
		       "also bring up the NIs of the networks= module parameter");
	conf->add_flag("-l,--large", configure_.large,
		       "large-NID mode: IP LNDs prefer IPv6 addresses");
	bind(conf, configure_);

	auto *unconf = lnet->add_subcommand("unconfigure",
					    "stop LNet (fails while it is in use)");
	bind(unconf, unconfigure_);
}

void Cli::net_verbs()
{
	auto *net = app.add_subcommand("net", "local networks and NIs");
	net->require_subcommand(1);

	auto *add = net->add_subcommand("add", "add an NI");
	add->add_option("-n,--net", net_add_.net, "network, e.g. tcp or o2ib1")
		->type_name("NET");
	add->add_option("-i,--if", net_add_.interfaces,
			"interface(s), comma-separated: one NI each")
		->type_name("IF[,IF...]");
	add->add_option("--nid", net_add_.nid, "the NI's NID (instead of the "
			"interface's address)")->type_name("NID");
	add_int(add, "--peer-timeout", net_add_.peer_timeout,
		"seconds before a silent peer counts as dead (-1: default)");
	add_int(add, "--peer-credits", net_add_.peer_credits,
		"concurrent sends to one peer (-1: default)");
	add_int(add, "--peer-buffer-credits", net_add_.peer_buffer_credits,
		"router buffer credits per peer (-1: default)");
	add_int(add, "--credits", net_add_.credits,
		"concurrent sends on the NI (-1: default)");
	add->add_option("--cpt", net_add_.cpt,
			"CPU partitions of the NI, e.g. \"[0,1]\"")
		->type_name("LIST");
	add_int(add, "--conns-per-peer", net_add_.conns_per_peer,
		"connections per peer, tcp and o2ib (0: default)");
	add_int(add, "--tos", net_add_.tos,
		"IP type of service, tcp and o2ib (-1: default)");
	add->add_option("--ip2net", net_add_.ip2net,
			"an ip2nets rule instead of --net/--if")
		->type_name("RULE");
	add->add_flag("--skip-mr-route-setup", net_add_.skip_mr_route_setup,
		      "accepted for compatibility; this lnetctl never sets up "
		      "Multi-Rail routing rules");
	bind(add, net_add_);

	auto *del = net->add_subcommand("del", "remove a network or one of its NIs");
	del->add_option("-n,--net", net_del_.net, "network")->required()
		->type_name("NET");
	del->add_option("-i,--if", net_del_.interface,
			"only the NI on this interface")->type_name("IF");
	del->add_option("--nid", net_del_.nid, "only the NI with this NID")
		->type_name("NID");
	bind(del, net_del_);

	auto *show = net->add_subcommand("show", "list the local NIs");
	show->add_option("-n,--net", net_show_.net, "only this network")
		->type_name("NET");
	add_verbose(show, net_show_.verbose);
	bind(show, net_show_);

	auto *net_set = health_set(net->add_subcommand("set",
			"set a local NI's health or connections per peer, or an LND's timeout"),
				   net_set_, "local NI");
	add_int(net_set, "--conns-per-peer", net_set_.conns_per_peer,
		"connections per peer of the NI (--nid) or of every tcp NI (--all), 0 for the default");
	net_set->add_option("--net", net_set_.net,
			    "with --lnd-timeout: the net whose LND it is")
		->type_name("NET");
	add_int(net_set, "--lnd-timeout", net_set_.lnd_timeout,
		"seconds the net's LND (ksocklnd sock_timeout, ko2iblnd timeout) gives a message; 0: LNet's lnd_timeout");
	bind(net_set, net_set_);
}

CLI::App *Cli::health_set(CLI::App *set, HealthSetArgs &args,
			  const std::string &what)
{
	set->add_option("--nid", args.nid, "the " + what + "'s NID")
		->type_name("NID");
	set->add_flag("--all", args.all, "every " + what);
	add_int(set, "--health", args.health,
		"health value, 0 (failing) to 1000 (healthy)");
	return set;
}

void Cli::peer_verbs()
{
	auto *peer = app.add_subcommand("peer", "remote peers");
	peer->require_subcommand(1);

	auto *add = peer->add_subcommand("add", "add a configured peer");
	add->add_option("--prim_nid", peer_add_.prim_nid, "the peer's primary NID")
		->required()->type_name("NID");
	add->add_option("--nid", peer_add_.nids,
			"the peer's NIDs (the primary may be among them); they join "
			"a peer configured already")
		->type_name("NID[,NID...]");
	add->add_flag("--non_mr", peer_add_.non_mr,
		      "a peer that is not Multi-Rail (one NID, its primary)");
	add->add_flag("--lock_prim", peer_add_.lock_prim,
		      "keep the primary NID (discovery does not change it)");
	bind(add, peer_add_);

	auto *del = peer->add_subcommand("del", "forget a peer");
	del->add_option("--prim_nid", peer_del_.prim_nid, "the peer's primary NID")
		->required()->type_name("NID");
	del->add_option("--nid", peer_del_.nids,
			"only these NIDs of the peer (with the primary: the whole peer)")
		->type_name("NID[,NID...]");
	del->add_flag("--force", peer_del_.force,
		      "also a peer whose primary NID is locked (--lock_prim)");
	bind(del, peer_del_);

	auto *show = peer->add_subcommand("show", "list peers and their NIs");
	show->add_option("-n,--nid", peer_show_.nid,
			 "only the peer that has this NID")->type_name("NID");
	add_verbose(show, peer_show_.verbose);
	bind(show, peer_show_);

	bind(health_set(peer->add_subcommand("set", "set a peer NI's health"),
			peer_set_, "peer NI"), peer_set_);
}

void Cli::route_verbs()
{
	auto *route = app.add_subcommand("route", "routes to remote networks");
	route->require_subcommand(1);

	auto *add = route->add_subcommand("add", "add a route");
	add->add_option("-n,--net", route_add_.net, "remote network")->required()
		->type_name("NET");
	add->add_option("-g,--gateway", route_add_.gateway, "gateway NID")
		->required()->type_name("NID");
	add_int(add, "-c,--hop,--hop-count", route_add_.hop,
		"hops to the remote network, 1..255 (-1: unspecified)");
	add_int(add, "-p,--priority", route_add_.priority,
		"route priority, lower is preferred (default 0)");
	add_int(add, "-s,--health_sensitivity", route_add_.health_sensitivity,
		"gateway health sensitivity (default 1)");
	bind(add, route_add_);

	auto *del = route->add_subcommand("del", "delete a route");
	del->add_option("-n,--net", route_del_.net, "remote network")->required()
		->type_name("NET");
	del->add_option("-g,--gateway", route_del_.gateway, "gateway NID")
		->required()->type_name("NID");
	bind(del, route_del_);

	auto *show = route->add_subcommand("show", "list routes");
	show->add_option("-n,--net", route_show_.net, "only routes to this network")
		->type_name("NET");
	show->add_option("-g,--gateway", route_show_.gateway,
			 "only routes through this gateway")->type_name("NID");
	add_verbose(show, route_show_.verbose);
	bind(show, route_show_);
}

void Cli::other_verbs()
{
	auto *ping = app.add_subcommand("ping", "LNet-ping remote NIDs");
	ping->add_option("nids", ping_.targets,
			 "NIDs to ping, comma- or space-separated; [U]pid-NID accepted")
		->required()->type_name("NID[,NID...]");
	add_int(ping, "-t,--timeout", ping_.timeout,
		"seconds to wait for each reply, 1..180 (default 1)");
	ping->add_option("-s,--source", ping_.source, "local NID to ping from")
		->type_name("NID");
	bind(ping, ping_);

	auto *disc = app.add_subcommand("discover",
					"discover the peers of NIDs: their NIDs and Multi-Rail");
	disc->add_option("nids", discover_.targets,
			 "NIDs whose peers to discover, comma- or space-separated")
		->required()->type_name("NID[,NID...]");
	disc->add_flag("-f,--force", discover_.force,
		       "ping and push even if the peer is up to date");
	bind(disc, discover_);

	auto *stats = app.add_subcommand("stats", "global LNet counters");
	stats->require_subcommand(1);
	bind(stats->add_subcommand("show", "print the counters"), stats_show_);
	bind(stats->add_subcommand("reset", "zero the counters"), stats_reset_);

	auto *global = app.add_subcommand("global", "global tunables");
	global->require_subcommand(1);
	bind(global->add_subcommand("show", "print the global tunables"),
	     global_show_);

	auto *set = app.add_subcommand("set", "set a global tunable");
	set->require_subcommand(1);
	set_.reserve(global_tunables().size());
	for (const auto &t : global_tunables()) {
		if (!t.settable)
			continue;
		set_.push_back(SetArgs{ std::string(t.name), "" });
		auto *sub = set->add_subcommand(std::string(t.name),
						std::string(t.help));
		sub->add_option("value", set_.back().value,
				"new value (" + std::to_string(t.min) + ".." +
					std::to_string(t.max) + ")")
			->required()->type_name("VALUE");
		bind(sub, set_.back());
	}
	auto *routing_set = set->add_subcommand("routing",
		"1: forward messages for other nodes (router buffers are made "
		"the first time), 0: stop forwarding");
	routing_set->add_option("value", set_routing_.value, "0 or 1")
		->required()->type_name("VALUE");
	bind(routing_set, set_routing_);
	for (auto &b : set_buffers_) {
		auto *sub = set->add_subcommand(
			b.pool + "_buffers",
			"router buffers of the " + b.pool +
				" pools, the total over all CPTs (resized now on a "
				"router, used when forwarding starts otherwise)");
		sub->add_option("value", b.value, "number of buffers (at least 1)")
			->required()->type_name("VALUE");
		bind(sub, b);
	}

	auto *routing = app.add_subcommand("routing", "forwarding and router buffers");
	routing->require_subcommand(1);
	bind(routing->add_subcommand("show",
				     "whether this node forwards, and its router "
				     "buffer pools per CPT"),
	     routing_show_);

	auto *exp = app.add_subcommand("export",
				       "write the configuration as YAML (net, "
				       "route, routing, buffers, global)");
	exp->add_option("file", export_.file, "output file (default: stdout)")
		->type_name("FILE");
	exp->add_flag("-b,--backup", export_.backup,
		      "configuration only: leave out status, dev cpt and "
		      "route state");
	bind(exp, export_);

	auto *imp = app.add_subcommand("import",
				       "apply a YAML configuration written by export");
	imp->add_option("file", import_.file, "input file ('-': stdin)")
		->required()->type_name("FILE");
	auto *add_flag = imp->add_flag_callback(
		"-a,--add", [this]() { import_.mode = ImportMode::add; },
		"add what the file describes (default)");
	auto *del_flag = imp->add_flag_callback(
		"-d,--del", [this]() { import_.mode = ImportMode::del; },
		"delete the routes and NIs the file describes");
	auto *show_flag = imp->add_flag_callback(
		"-s,--show", [this]() { import_.mode = ImportMode::show; },
		"show what is configured now of what the file names");
	add_flag->excludes(del_flag);
	show_flag->excludes(add_flag)->excludes(del_flag);
	bind(imp, import_);
}

// A repeatable option: every occurrence is kept.
CLI::Option *add_repeatable(CLI::App *app, const std::string &name,
			    std::vector<std::string> &target,
			    const std::string &help, const std::string &type)
{
	return app->add_option(name, target, help)
		->allow_extra_args(false)
		->type_name(type);
}

void Cli::fault_kind_verbs(CLI::App *fault, std::size_t i, FaultKind kind)
{
	bool drop = kind == FaultKind::drop;
	auto *top = fault->add_subcommand(
		std::string(drop ? "drop" : "delay"),
		drop ? "rules that drop messages (or fail sends)" :
		       "rules that hold messages for a while");
	auto &add_args = fault_add_[i];
	auto &del_args = fault_del_[i];

	top->require_subcommand(1);
	add_args.kind = kind;
	del_args.kind = kind;
	fault_reset_[i].kind = kind;
	fault_show_[i].kind = kind;

	auto *add = top->add_subcommand("add", drop ? "add a drop rule" :
						      "add a delay rule");
	add_fault_add_options(add, add_args, drop);
	bind(add, add_args);

	auto *del = top->add_subcommand("del", "delete rules");
	add_fault_del_options(del, del_args);
	bind(del, del_args);

	bind(top->add_subcommand("reset", "zero the statistics and restart the "
					  "random choices from each seed"),
	     fault_reset_[i]);
	bind(top->add_subcommand("show", "list the rules, newest first"),
	     fault_show_[i]);
}

void Cli::fault_verbs()
{
	auto *fault = app.add_subcommand("fault", "fault injection rules");

	fault->require_subcommand(1);
	fault_kind_verbs(fault, 0, FaultKind::drop);
	fault_kind_verbs(fault, 1, FaultKind::delay);
}

void Cli::debug_verbs()
{
	auto *debug = app.add_subcommand("debug", "LNet's internal state");
	debug->require_subcommand(1);

	auto *rec = debug->add_subcommand(
		"recovery", "list the NIs that recovery pings are bringing back "
			    "to health");
	rec->add_flag("--local", debug_recovery_.local, "the local NIs' queue");
	rec->add_flag("--peer", debug_recovery_.peer, "the peer NIs' queue");
	// after --help and unknown options have had their say
	rec->callback([this]() {
		if (debug_recovery_.local == debug_recovery_.peer)
			throw CLI::ValidationError(std::string(debug_recovery_choice));
	});
	bind(rec, debug_recovery_);
}

std::optional<Command> Cli::selected() const
{
	for (const auto &leaf : leaves_)
		if (leaf.app->parsed())
			return leaf.make();
	return std::nullopt;
}

// The message for a usage error, naming the command level it happened at:
// "lnetctl net: unknown command 'foo' (one of: add, del, show)".
std::string usage_error(CLI::App &app, const CLI::ParseError &e)
{
	std::vector<std::string> rest = app.remaining(true);
	CLI::App *level = &app;
	std::string path = "lnetctl";
	std::string known;
	std::string message = e.what();

	for (;;) {
		auto chosen = level->get_subcommands();

		if (chosen.empty())
			break;
		level = chosen.front();
		path += " " + level->get_name();
	}
	for (const auto *sub : level->get_subcommands({}))
		known += (known.empty() ? "" : ", ") + sub->get_name();
	if (dynamic_cast<const CLI::RequiredError *>(&e) != nullptr &&
	    !known.empty()) {
		const char *what = path == "lnetctl set" ? "tunable" : "command";

		if (rest.empty())
			message = std::string("a ") + what + " is required";
		else
			message = std::string("unknown ") + what + " '" +
				  rest.front() + "'";
		message += " (one of: " + known + ")";
	}
	return path + ": " + message + "\nRun '" + path +
	       " --help' for usage.\n";
}

}  // namespace

void add_fault_add_options(CLI::App *add, FaultAddArgs &args, bool drop)
{
	add->add_option("-s,--source", args.source,
			"source NID of the messages ('*': any, '*@NET': any on NET)")
		->type_name("NID");
	add->add_option("-d,--dest", args.dest,
			"destination NID ('*': any, '*@NET': any on NET)")
		->type_name("NID");
	add_int(add, "-r,--rate", args.rate,
		"act on one of every N matching messages");
	add_int(add, drop ? "-i,--interval" : "--interval", args.interval,
		"act on one matching message per S-second window")
		->type_name("S");
	if (!drop)
		add_int(add, "-l,--latency", args.latency,
			"seconds to hold a message (> 0)")->type_name("S");
	add_repeatable(add, "-p,--portal", args.portals,
		       "only PUTs and GETs to this portal 0..63 (repeatable)", "P");
	add_repeatable(add, "-m,--message", args.messages,
		       "only this message type: PUT, ACK, GET, REPLY (repeatable)",
		       "TYPE");
	if (drop) {
		add_repeatable(add, "-e,--health_error", args.health_errors,
			       "fail sends with this health status instead of "
			       "dropping on receive (repeatable; random: any)",
			       "KIND");
		add->add_flag("-n,--random", args.random,
			      "with --interval: drop each match with probability 1/2");
		add->add_flag("-x,--drop_all", args.drop_all,
			      "drop every matching message, on receive and send");
	}
	add->add_option("-o,--local_nid", args.local_nid,
			"only messages received by this local NI")->type_name("NID");
	add->add_option("--seed", args.seed,
			"seed of the rule's random choices (default: the kernel "
			"picks one; add and show print it)")->type_name("S");
}

void add_fault_del_options(CLI::App *del, FaultDelArgs &args)
{
	del->add_flag("-a,--all", args.all, "every rule");
	del->add_option("-s,--source", args.source,
			"the rules with this source ('*': any)")->type_name("NID");
	del->add_option("-d,--dest", args.dest,
			"the rules with this destination ('*': any)")
		->type_name("NID");
}

CommandLine parse_command_line(std::span<const std::string> args)
{
	Cli cli;
	CommandLine result;
	// CLI11 takes the words last-first.
	std::vector<std::string> words(args.rbegin(), args.rend());

	try {
		cli.app.parse(words);
	} catch (const CLI::CallForHelp &e) {
		std::ostringstream out, err;

		result.exit_code = cli.app.exit(e, out, err);
		result.out = out.str();
		return result;
	} catch (const CLI::CallForAllHelp &e) {
		std::ostringstream out, err;

		result.exit_code = cli.app.exit(e, out, err);
		result.out = out.str();
		return result;
	} catch (const CLI::CallForVersion &e) {
		std::ostringstream out, err;

		result.exit_code = cli.app.exit(e, out, err);
		result.out = out.str();
		return result;
	} catch (const CLI::ParseError &e) {
		result.exit_code = exit_usage;
		result.err = usage_error(cli.app, e);
		return result;
	}
	result.command = cli.selected();
	if (!result.command) {
		result.exit_code = exit_usage;
		result.err = "lnetctl: no command given\n";
	}
	return result;
}

Outcome execute(Kernel &kernel, const Command &command)
{
	return std::visit(
		[&kernel](const auto &a) -> Outcome {
			using T = std::decay_t<decltype(a)>;

			if constexpr (std::is_same_v<T, LnetConfigureArgs>)
				return lnet_configure(kernel, a);
			else if constexpr (std::is_same_v<T, LnetUnconfigureArgs>)
				return lnet_unconfigure(kernel, a);
			else if constexpr (std::is_same_v<T, NetAddArgs>)
				return net_add(kernel, a);
			else if constexpr (std::is_same_v<T, NetDelArgs>)
				return net_del(kernel, a);
			else if constexpr (std::is_same_v<T, NetShowArgs>)
				return net_show(kernel, a);
			else if constexpr (std::is_same_v<T, NetSetArgs>)
				return net_set(kernel, a);
			else if constexpr (std::is_same_v<T, PeerAddArgs>)
				return peer_add(kernel, a);
			else if constexpr (std::is_same_v<T, PeerDelArgs>)
				return peer_del(kernel, a);
			else if constexpr (std::is_same_v<T, PeerShowArgs>)
				return peer_show(kernel, a);
			else if constexpr (std::is_same_v<T, PeerSetArgs>)
				return peer_set(kernel, a);
			else if constexpr (std::is_same_v<T, RouteAddArgs>)
				return route_add(kernel, a);
			else if constexpr (std::is_same_v<T, RouteDelArgs>)
				return route_del(kernel, a);
			else if constexpr (std::is_same_v<T, RouteShowArgs>)
				return route_show(kernel, a);
			else if constexpr (std::is_same_v<T, RoutingShowArgs>)
				return routing_show(kernel, a);
			else if constexpr (std::is_same_v<T, SetRoutingArgs>)
				return set_routing(kernel, a);
			else if constexpr (std::is_same_v<T, SetBuffersArgs>)
				return set_buffers(kernel, a);
			else if constexpr (std::is_same_v<T, PingArgs>)
				return ping(kernel, a);
			else if constexpr (std::is_same_v<T, DiscoverArgs>)
				return discover(kernel, a);
			else if constexpr (std::is_same_v<T, StatsShowArgs>)
				return stats_show(kernel, a);
			else if constexpr (std::is_same_v<T, StatsResetArgs>)
				return stats_reset(kernel, a);
			else if constexpr (std::is_same_v<T, GlobalShowArgs>)
				return global_show(kernel, a);
			else if constexpr (std::is_same_v<T, SetArgs>)
				return set_tunable(kernel, a);
			else if constexpr (std::is_same_v<T, ExportArgs>)
				return export_config(kernel, a);
			else if constexpr (std::is_same_v<T, FaultAddArgs>)
				return fault_add(kernel, a);
			else if constexpr (std::is_same_v<T, FaultDelArgs>)
				return fault_del(kernel, a);
			else if constexpr (std::is_same_v<T, FaultResetArgs>)
				return fault_reset(kernel, a);
			else if constexpr (std::is_same_v<T, FaultShowArgs>)
				return fault_show(kernel, a);
			else if constexpr (std::is_same_v<T, DebugRecoveryArgs>)
				return debug_recovery(kernel, a);
			else
				return import_config(kernel, a);
		},
		command);
}

int run(std::span<const std::string> args, Kernel &kernel, std::ostream &out,
	std::ostream &err)
{
	CommandLine cl = parse_command_line(args);

	out << cl.out;
	err << cl.err;
	if (!cl.command)
		return cl.exit_code;

	Outcome o = execute(kernel, *cl.command);
	out << yaml::render(o.out, o.layout);
	err << yaml::render(render_errors(o.errors));
	out.flush();
	err.flush();
	return o.exit_code();
}

}  // namespace lnetctl
