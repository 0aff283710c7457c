// SPDX-License-Identifier: GPL-2.0
// Command-line parsing of every verb, good and bad input.
#include <gtest/gtest.h>

#include <initializer_list>

#include "cli.hpp"
#include "test_util.hpp"
#include "tunables.hpp"

namespace lnetctl {
namespace {

using namespace test;

TEST(Cli, LnetConfigure)
{
	EXPECT_EQ(parsed<LnetConfigureArgs>({ "lnet", "configure" }),
		  (LnetConfigureArgs{ false, false }));
	EXPECT_EQ(parsed<LnetConfigureArgs>({ "lnet", "configure", "--all" }),
		  (LnetConfigureArgs{ true, false }));
	EXPECT_EQ(parsed<LnetConfigureArgs>({ "lnet", "configure", "-a", "--large" }),
		  (LnetConfigureArgs{ true, true }));
	parsed<LnetUnconfigureArgs>({ "lnet", "unconfigure" });
}

TEST(Cli, Routing)
{
	parsed<RoutingShowArgs>({ "routing", "show" });
	EXPECT_EQ(parsed<SetRoutingArgs>({ "set", "routing", "1" }),
		  (SetRoutingArgs{ "1" }));
	expect_usage_error({ "set", "routing" }, "value");
	expect_usage_error({ "routing" }, "");
}

TEST(Cli, NetAddAllOptions)
{
	NetAddArgs want;
	want.net = "tcp1";
	want.interfaces = "eth0,eth1";
	want.peer_timeout = 100;
	want.peer_credits = 16;
	want.peer_buffer_credits = 4;
	want.credits = 512;
	want.cpt = "[0,1]";
	want.conns_per_peer = 2;
	want.tos = 104;
	want.skip_mr_route_setup = true;

	EXPECT_EQ(parsed<NetAddArgs>({ "net", "add", "--net", "tcp1", "--if",
				       "eth0,eth1", "--peer-timeout", "100",
				       "--peer-credits", "16", "--peer-buffer-credits",
				       "4", "--credits", "512", "--cpt", "[0,1]",
				       "--conns-per-peer", "2", "--tos", "104",
				       "--skip-mr-route-setup" }),
		  want);
}

TEST(Cli, NetAddShortAndEqualsForms)
{
	NetAddArgs a = parsed<NetAddArgs>({ "net", "add", "-n", "o2ib", "-i", "ib0",
					    "--nid=10.0.0.1@o2ib", "--credits=-1" });
	EXPECT_EQ(a.net, "o2ib");
	EXPECT_EQ(a.interfaces, "ib0");
	EXPECT_EQ(a.nid, "10.0.0.1@o2ib");
	EXPECT_EQ(a.credits, -1);
	EXPECT_FALSE(a.peer_credits.has_value());
}

TEST(Cli, NetAddBadNumber)
{
	expect_usage_error({ "net", "add", "--net", "tcp", "--if", "eth0",
			     "--peer-credits", "lots" }, "--peer-credits");
	expect_usage_error({ "net", "add", "--net", "tcp", "--credits" }, "--credits");
}

TEST(Cli, NetDel)
{
	EXPECT_EQ(parsed<NetDelArgs>({ "net", "del", "--net", "tcp", "--if", "eth0" }),
		  (NetDelArgs{ "tcp", "eth0", "" }));
	EXPECT_EQ(parsed<NetDelArgs>({ "net", "del", "--net", "tcp", "--nid",
				       "1.2.3.4@tcp" }),
		  (NetDelArgs{ "tcp", "", "1.2.3.4@tcp" }));
}

TEST(Cli, NetDelMissingNet)
{
	expect_usage_error({ "net", "del", "--if", "eth0" }, "--net is required");
}

TEST(Cli, NetShowVerboseLevels)
{
	EXPECT_EQ(parsed<NetShowArgs>({ "net", "show" }), (NetShowArgs{ "", 0 }));
	EXPECT_EQ(parsed<NetShowArgs>({ "net", "show", "-v" }), (NetShowArgs{ "", 1 }));
	EXPECT_EQ(parsed<NetShowArgs>({ "net", "show", "--verbose", "2" }),
		  (NetShowArgs{ "", 2 }));
	EXPECT_EQ(parsed<NetShowArgs>({ "net", "show", "-v", "--net", "tcp" }),
		  (NetShowArgs{ "tcp", 1 }));
	EXPECT_EQ(parsed<NetShowArgs>({ "net", "show", "--net", "tcp", "--verbose" }),
		  (NetShowArgs{ "tcp", 1 }));
}

TEST(Cli, PeerShow)
{
	EXPECT_EQ(parsed<PeerShowArgs>({ "peer", "show" }), (PeerShowArgs{ "", 0 }));
	EXPECT_EQ(parsed<PeerShowArgs>({ "peer", "show", "--nid", "1.2.3.4@tcp", "-v" }),
		  (PeerShowArgs{ "1.2.3.4@tcp", 1 }));
}

TEST(Cli, PeerAddDel)
{
	EXPECT_EQ(parsed<PeerAddArgs>({ "peer", "add", "--prim_nid", "1.2.3.4@tcp", "--nid",
					"1.2.3.4@tcp,10.0.0.4@tcp1", "--lock_prim" }),
		  (PeerAddArgs{ "1.2.3.4@tcp", "1.2.3.4@tcp,10.0.0.4@tcp1", false, true }));
	EXPECT_EQ(parsed<PeerAddArgs>({ "peer", "add", "--prim_nid", "1.2.3.4@tcp",
					"--non_mr" }),
		  (PeerAddArgs{ "1.2.3.4@tcp", "", true, false }));
	EXPECT_EQ(parsed<PeerDelArgs>({ "peer", "del", "--prim_nid", "1.2.3.4@tcp" }),
		  (PeerDelArgs{ "1.2.3.4@tcp", "", false }));
	EXPECT_EQ(parsed<PeerDelArgs>({ "peer", "del", "--prim_nid", "1.2.3.4@tcp", "--nid",
					"10.0.0.4@tcp1", "--force" }),
		  (PeerDelArgs{ "1.2.3.4@tcp", "10.0.0.4@tcp1", true }));
	expect_usage_error({ "peer", "del", "--nid", "1.2.3.4@tcp" }, "--prim_nid is required");
	expect_usage_error({ "peer", "add", "--prim_nid", "1.2.3.4@tcp", "--force" },
			   "--force");
}

TEST(Cli, Discover)
{
	EXPECT_EQ(parsed<DiscoverArgs>({ "discover", "1.2.3.4@tcp,5.6.7.8@tcp", "9.9.9.9@tcp" }),
		  (DiscoverArgs{ { "1.2.3.4@tcp,5.6.7.8@tcp", "9.9.9.9@tcp" }, false }));
	EXPECT_EQ(parsed<DiscoverArgs>({ "discover", "--force", "1.2.3.4@tcp" }),
		  (DiscoverArgs{ { "1.2.3.4@tcp" }, true }));
	EXPECT_EQ(parsed<DiscoverArgs>({ "discover", "1.2.3.4@tcp", "-f" }),
		  (DiscoverArgs{ { "1.2.3.4@tcp" }, true }));
	expect_usage_error({ "discover" }, "nids is required");
	expect_usage_error({ "discover", "1.2.3.4@tcp", "--timeout", "5" }, "--timeout");
}

TEST(Cli, RouteAdd)
{
	RouteAddArgs want{ "o2ib1", "192.0.2.1@tcp", 2, 5, 3 };

	EXPECT_EQ(parsed<RouteAddArgs>({ "route", "add", "--net", "o2ib1", "--gateway",
					 "192.0.2.1@tcp", "--hop", "2", "--priority",
					 "5", "--health_sensitivity", "3" }),
		  want);
	EXPECT_EQ(parsed<RouteAddArgs>({ "route", "add", "-n", "o2ib1", "-g",
					 "192.0.2.1@tcp", "--hop-count", "2", "-p",
					 "5", "-s", "3" }),
		  want);
	EXPECT_EQ(parsed<RouteAddArgs>({ "route", "add", "--net", "tcp2",
					 "--gateway", "192.0.2.1@tcp" }),
		  (RouteAddArgs{ "tcp2", "192.0.2.1@tcp", {}, {}, {} }));
}

TEST(Cli, RouteAddBadInput)
{
	expect_usage_error({ "route", "add", "--net", "tcp1" }, "--gateway is required");
	expect_usage_error({ "route", "add", "--gateway", "1.2.3.4@tcp" },
			   "--net is required");
	expect_usage_error({ "route", "add", "--net", "tcp1", "--gateway",
			     "1.2.3.4@tcp", "--hop", "abc" }, "--hop");
	expect_usage_error({ "route", "add", "--net", "tcp1", "--gateway",
			     "1.2.3.4@tcp", "--priority", "1.5" }, "--priority");
}

TEST(Cli, RouteDelAndShow)
{
	EXPECT_EQ(parsed<RouteDelArgs>({ "route", "del", "--net", "tcp1", "--gateway",
					 "1.2.3.4@tcp" }),
		  (RouteDelArgs{ "tcp1", "1.2.3.4@tcp" }));
	expect_usage_error({ "route", "del", "--net", "tcp1" }, "--gateway is required");
	EXPECT_EQ(parsed<RouteShowArgs>({ "route", "show", "-v" }),
		  (RouteShowArgs{ "", "", 1 }));
	EXPECT_EQ(parsed<RouteShowArgs>({ "route", "show", "--net", "tcp1",
					  "--gateway", "1.2.3.4@tcp" }),
		  (RouteShowArgs{ "tcp1", "1.2.3.4@tcp", 0 }));
}

TEST(Cli, Ping)
{
	PingArgs a = parsed<PingArgs>({ "ping", "1.2.3.4@tcp,5.6.7.8@tcp", "12345-0@lo",
					"--timeout", "5", "--source", "1.2.3.5@tcp" });
	EXPECT_EQ(a.targets, (std::vector<std::string>{ "1.2.3.4@tcp,5.6.7.8@tcp",
							"12345-0@lo" }));
	EXPECT_EQ(a.timeout, 5);
	EXPECT_EQ(a.source, "1.2.3.5@tcp");
	EXPECT_FALSE(parsed<PingArgs>({ "ping", "1.2.3.4@tcp" }).timeout.has_value());
}

TEST(Cli, PingBadInput)
{
	expect_usage_error({ "ping" }, "nids is required");
	expect_usage_error({ "ping", "1.2.3.4@tcp", "--timeout", "soon" }, "--timeout");
}

TEST(Cli, StatsAndGlobal)
{
	parsed<StatsShowArgs>({ "stats", "show" });
	parsed<StatsResetArgs>({ "stats", "reset" });
	parsed<GlobalShowArgs>({ "global", "show" });
	expect_usage_error({ "stats" }, "a command is required");
}

TEST(Cli, SetEveryTunable)
{
	int n = 0;

	for (const auto &t : global_tunables()) {
		if (!t.settable)
			continue;
		std::string name(t.name);
		EXPECT_EQ(parsed<SetArgs>({ "set", name.c_str(), "7" }),
			  (SetArgs{ name, "7" }));
		n++;
	}
	EXPECT_EQ(n, 12);
}

TEST(Cli, SetBadInput)
{
	expect_usage_error({ "set", "no_such_thing", "1" },
			   "unknown tunable 'no_such_thing'");
	expect_usage_error({ "set", "lnd_timeout", "1" }, "unknown tunable");
	expect_usage_error({ "set", "discovery" }, "value is required");
	expect_usage_error({ "set" }, "a tunable is required");
}

TEST(Cli, DebugRecovery)
{
	EXPECT_EQ(parsed<DebugRecoveryArgs>({ "debug", "recovery", "--local" }),
		  (DebugRecoveryArgs{ true, false }));
	EXPECT_EQ(parsed<DebugRecoveryArgs>({ "debug", "recovery", "--peer" }),
		  (DebugRecoveryArgs{ false, true }));
}

TEST(Cli, DebugRecoveryBadInput)
{
	const std::string one_of = "lnetctl debug recovery: give --local or --peer "
				   "(one of them)\n";
	expect_usage_error({ "debug", "recovery" }, one_of);
	expect_usage_error({ "debug", "recovery", "--local", "--peer" }, one_of);
	expect_usage_error({ "debug", "recovery", "--peer", "--local" }, one_of);
	expect_usage_error({ "debug", "recovery", "--local", "--bogus" }, "--bogus");
	expect_usage_error({ "debug", "recovery", "--local", "extra" }, "extra");
	expect_usage_error({ "debug", "recovery", "--nid", "1.2.3.4@tcp" }, "--nid");
	expect_usage_error({ "debug" }, "lnetctl debug: a command is required "
					"(one of: recovery)");
	expect_usage_error({ "debug", "queue" }, "unknown command 'queue'");
}

TEST(Cli, ExportAndImport)
{
	EXPECT_EQ(parsed<ExportArgs>({ "export" }), (ExportArgs{ "", false }));
	EXPECT_EQ(parsed<ExportArgs>({ "export", "--backup", "/tmp/x.yaml" }),
		  (ExportArgs{ "/tmp/x.yaml", true }));
	EXPECT_EQ(parsed<ImportArgs>({ "import", "cfg.yaml" }),
		  (ImportArgs{ "cfg.yaml", ImportMode::add }));
	EXPECT_EQ(parsed<ImportArgs>({ "import", "--del", "cfg.yaml" }),
		  (ImportArgs{ "cfg.yaml", ImportMode::del }));
	EXPECT_EQ(parsed<ImportArgs>({ "import", "--add", "-" }),
		  (ImportArgs{ "-", ImportMode::add }));
}

TEST(Cli, ImportBadInput)
{
	expect_usage_error({ "import" }, "file is required");
	expect_usage_error({ "import", "--add", "--del", "x" }, "excludes");
}

TEST(Cli, UnknownVerbs)
{
	expect_usage_error({ "frobnicate" }, "unknown command 'frobnicate'");
	expect_usage_error({ "net", "frob" }, "lnetctl net: unknown command 'frob' "
					      "(one of: add, del, show, set)");
	expect_usage_error({ "lnet", "start" }, "unknown command 'start'");
}

TEST(Cli, MissingVerb)
{
	expect_usage_error({}, "a command is required");
	expect_usage_error({ "net" }, "lnetctl net: a command is required");
	expect_usage_error({ "route" }, "(one of: add, del, show)");
}

TEST(Cli, UnknownOptionAndExtraWords)
{
	expect_usage_error({ "net", "show", "--bogus" }, "--bogus");
	expect_usage_error({ "net", "show", "extra" }, "extra");
}

TEST(Cli, HelpOnEveryLevel)
{
	const std::vector<std::vector<std::string>> paths = {
		{}, { "lnet" }, { "lnet", "configure" }, { "lnet", "unconfigure" },
		{ "net" }, { "net", "add" }, { "net", "del" }, { "net", "show" },
		{ "peer" }, { "peer", "show" }, { "route" }, { "route", "add" },
		{ "peer", "add" }, { "peer", "del" }, { "discover" },
		{ "route", "del" }, { "route", "show" }, { "ping" }, { "stats" },
		{ "stats", "show" }, { "stats", "reset" }, { "global" },
		{ "global", "show" }, { "set" }, { "set", "discovery" },
		{ "export" }, { "import" }, { "debug" }, { "debug", "recovery" },
	};

	for (auto words : paths) {
		std::string where = "lnetctl";
		for (const auto &w : words)
			where += " " + w;
		words.push_back("--help");
		CommandLine cl = parse_command_line(words);
		EXPECT_FALSE(cl.command.has_value()) << where;
		EXPECT_EQ(cl.exit_code, 0) << where;
		EXPECT_NE(cl.out.find("Usage: " + where), std::string::npos)
			<< where << "\n" << cl.out;
	}
}

TEST(Cli, HelpListsOptions)
{
	CommandLine cl = parse({ "net", "add", "-h" });
	for (const char *opt : { "--net", "--if", "--peer-timeout", "--peer-credits",
				 "--peer-buffer-credits", "--credits", "--cpt",
				 "--conns-per-peer", "--tos", "--nid", "--ip2net" })
		EXPECT_NE(cl.out.find(opt), std::string::npos) << opt;
}

TEST(Cli, Version)
{
	CommandLine cl = parse({ "--version" });
	EXPECT_EQ(cl.exit_code, 0);
	EXPECT_NE(cl.out.find("lnetctl"), std::string::npos);
}

}  // namespace
}  // namespace lnetctl
