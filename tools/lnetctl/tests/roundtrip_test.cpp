// SPDX-License-Identifier: GPL-2.0
// export -> import through the fake kernel recreates the configuration.
#include <gtest/gtest.h>
#include <lnet/nid.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.hpp"
#include "config_file.hpp"
#include "fake_kernel.hpp"

namespace lnetctl {
namespace {

using test::FakeKernel;

std::string yaml_of(const Outcome &o)
{
	return yaml::render(o.out, o.layout);
}

// A configured node: two nets with tunables, routes, a peer that is not
// Multi-Rail and one of two NIDs, and changed globals.
FakeKernel configured_node()
{
	FakeKernel k;
	std::ostringstream out, err;
	const std::vector<std::vector<std::string>> setup = {
		{ "lnet", "configure" },
		{ "net", "add", "--net", "tcp", "--if", "eth0", "--peer-credits", "16",
		  "--conns-per-peer", "4" },
		{ "net", "add", "--net", "tcp1", "--if", "eth1", "--cpt", "[0,1]",
		  "--credits", "512", "--tos", "96" },
		{ "net", "add", "--net", "o2ib1", "--if", "ib0", "--peer-timeout", "60" },
		{ "route", "add", "--net", "o2ib5", "--gateway", "10.0.0.1@tcp1", "--hop",
		  "2", "--priority", "1" },
		{ "route", "add", "--net", "tcp9", "--gateway", "192.168.1.1@tcp" },
		{ "peer", "add", "--prim_nid", "192.168.1.20@tcp", "--non_mr" },
		{ "peer", "add", "--prim_nid", "192.168.1.21@tcp", "--nid",
		  "192.168.1.21@tcp,10.0.0.21@tcp1" },
		{ "set", "discovery", "0" },
		{ "set", "transaction_timeout", "40" },
		{ "set", "retry_count", "1" },
		{ "set", "max_interfaces", "200" },
	};

	for (const auto &words : setup)
		EXPECT_EQ(run(words, k, out, err), 0) << err.str();
	return k;
}

void expect_same_config(const FakeKernel &a, const FakeKernel &b)
{
	EXPECT_EQ(a.configured, b.configured);
	EXPECT_EQ(a.nis, b.nis);
	EXPECT_EQ(a.routes, b.routes);
	EXPECT_EQ(a.params, b.params);
	EXPECT_EQ(a.peers, b.peers);
}

TEST(RoundTrip, ExportImportRecreatesConfiguration)
{
	FakeKernel a = configured_node();
	Outcome exported = export_config(a, ExportArgs{});
	ASSERT_TRUE(exported.ok());
	std::string text = yaml_of(exported);

	FakeKernel b;	// lnet.ko loaded, LNet not started
	Outcome imported = apply_config(b, text, ImportMode::add);
	EXPECT_TRUE(imported.ok()) << yaml::render(render_errors(imported.errors));
	expect_same_config(a, b);
	EXPECT_EQ(yaml_of(export_config(b, ExportArgs{})), text);
}

TEST(RoundTrip, BackupExportImport)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{ "", true }));
	EXPECT_EQ(text.find("status:"), std::string::npos);
	EXPECT_EQ(text.find("dev cpt:"), std::string::npos);
	EXPECT_EQ(text.find("state:"), std::string::npos);

	FakeKernel b;
	Outcome imported = apply_config(b, text, ImportMode::add);
	EXPECT_TRUE(imported.ok()) << yaml::render(render_errors(imported.errors));
	expect_same_config(a, b);
}

// A router's forwarding and pool totals go through export and import:
// the totals first, so that the pools are made at those sizes.
TEST(RoundTrip, RoutingAndBuffers)
{
	FakeKernel a = configured_node();
	std::ostringstream out, err;
	ASSERT_EQ(run(std::vector<std::string>{ "set", "routing", "1" }, a, out, err), 0);
	ASSERT_EQ(run(std::vector<std::string>{ "set", "large_buffers", "256" }, a, out,
		      err), 0);
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	EXPECT_NE(text.find("\nrouting:\n-     cpt[0]:\n            tiny:\n"), std::string::npos)
		<< text;
	EXPECT_NE(text.find("\n-     enable: 1\nbuffers:\n    tiny: 2048\n    small: 16384\n"
			    "    large: 256\n"),
		  std::string::npos) << text;
	std::string backup = yaml_of(export_config(a, ExportArgs{ "", true }));
	EXPECT_NE(backup.find("\nrouting:\n    enable: 1\nbuffers:\n    tiny: 2048\n"),
		  std::string::npos) << backup;

	for (const std::string &t : { text, backup }) {
		FakeKernel b;
		Outcome imported = apply_config(b, t, ImportMode::add);
		EXPECT_TRUE(imported.ok()) << yaml::render(render_errors(imported.errors));
		EXPECT_TRUE(b.routing.enabled);
		ASSERT_EQ(b.buffer_totals_set.size(), 1U);
		EXPECT_EQ(b.buffer_totals_set[0], (RouterBufferTotals{ 2048, 16384, 256 }));
		EXPECT_EQ(b.routing.cpts[0][2].nbuffers, 256);
	}
}

TEST(RoundTrip, ExportShape)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{ "", true }));

	// as Lustre's --backup: no lo net, no nid where interfaces say it,
	// its sequences' layout
	EXPECT_EQ(text.rfind("net:\n-     net type: tcp\n      local NI(s):\n"
			     "      -     interfaces:\n                  0: eth0\n", 0), 0U)
		<< text;
	EXPECT_EQ(text.find("net type: lo"), std::string::npos) << text;
	EXPECT_EQ(text.substr(0, text.find("\nroute:")).find("nid:"), std::string::npos)
		<< text;
	EXPECT_NE(text.find("\nroute:\n-     net: o2ib5\n      gateway: 10.0.0.1@tcp1\n"
			    "      hop: 2\n      priority: 1\n-     net: tcp9\n"),
		  std::string::npos) << text;
	EXPECT_NE(text.find("\nglobal:\n    numa_range: 0\n    max_interfaces: 200\n"
			    "    discovery: 0\n"),
		  std::string::npos) << text;
	// derived from transaction_timeout 40 and retry_count 1
	EXPECT_NE(text.find("    lnd_timeout: 19\n"), std::string::npos);
	// peer add's peers, as Lustre's keys, each with all its NIDs
	EXPECT_NE(text.find("\npeer:\n-     primary nid: 192.168.1.20@tcp\n"
			    "      Multi-Rail: false\n      peer ni:\n"
			    "      -     nid: 192.168.1.20@tcp\n"
			    "-     primary nid: 192.168.1.21@tcp\n"
			    "      Multi-Rail: true\n      peer ni:\n"
			    "      -     nid: 192.168.1.21@tcp\n"
			    "      -     nid: 10.0.0.21@tcp1\nglobal:\n"),
		  std::string::npos) << text;
	EXPECT_EQ(text.find("\nudsp:"), std::string::npos);
}

// Lustre 2.17.0's global section with its defaults (max_interfaces 200)
constexpr std::string_view lustre_global =
	"global:\n"
	"    numa_range: 0\n"
	"    max_interfaces: 200\n"
	"    discovery: 1\n"
	"    drop_asym_route: 0\n"
	"    retry_count: 2\n"
	"    transaction_timeout: 150\n"
	"    health_sensitivity: 100\n"
	"    recovery_interval: 1\n"
	"    router_sensitivity: 100\n"
	"    lnd_timeout: 49\n"
	"    response_tracking: 3\n"
	"    recovery_limit: 0\n"
	"    max_recovery_ping_interval: 900\n";

// Byte for byte what Lustre 2.17.0's "lnetctl export --backup" wrote for
// tcp on eth0 with its defaults and one route (its peer section, the
// gateway's peer, left out: this lnetctl writes none yet).
TEST(RoundTrip, BackupAsLustreWritesIt)
{
	FakeKernel k;
	std::ostringstream out, err;
	const std::vector<std::vector<std::string>> setup = {
		{ "lnet", "configure" },
		{ "net", "add", "--net", "tcp", "--if", "eth0" },
		{ "route", "add", "--net", "o2ib9", "--gateway", "192.0.2.99@tcp", "--hop",
		  "2", "--priority", "1" },
		{ "set", "max_interfaces", "200" },
	};

	for (const auto &words : setup)
		ASSERT_EQ(run(words, k, out, err), 0) << err.str();
	EXPECT_EQ(yaml_of(export_config(k, ExportArgs{ "", true })),
		  "net:\n"
		  "-     net type: tcp\n"
		  "      local NI(s):\n"
		  "      -     interfaces:\n"
		  "                  0: eth0\n"
		  "            tunables:\n"
		  "                  peer_timeout: 180\n"
		  "                  peer_credits: 8\n"
		  "                  peer_buffer_credits: 0\n"
		  "                  credits: 256\n"
		  "            lnd tunables:\n"
		  "                  conns_per_peer: 1\n"
		  "                  tos: -1\n"
		  "            CPT: \"[0]\"\n"
		  "route:\n"
		  "-     net: o2ib9\n"
		  "      gateway: 192.0.2.99@tcp\n"
		  "      hop: 2\n"
		  "      priority: 1\n" +
			  std::string(lustre_global));
}

// Byte for byte what Lustre 2.17.0's "lnetctl export --backup" wrote for
// o2ib on eth0 with ko2iblnd's defaults (peer_credits 8), captured in
// make interop (its peer section left out). Its lnetctl imports only
// conns_per_peer and tos of these LND tunables, and refuses its own
// "map_on_demand: true"; this one takes all of them, and writes
// map_on_demand as a number, which Lustre's import takes.
constexpr std::string_view lustre_o2ib_net =
	"net:\n"
	"-     net type: o2ib\n"
	"      local NI(s):\n"
	"      -     interfaces:\n"
	"                  0: eth0\n"
	"            tunables:\n"
	"                  peer_timeout: 180\n"
	"                  peer_credits: 8\n"
	"                  peer_buffer_credits: 0\n"
	"                  credits: 256\n"
	"            lnd tunables:\n"
	"                  peercredits_hiw: 4\n"
	"                  concurrent_sends: 8\n"
	"                  map_on_demand: true\n"
	"                  fmr_pool_size: 512\n"
	"                  fmr_flush_trigger: 384\n"
	"                  fmr_cache: 1\n"
	"                  ntx: 512\n"
	"                  conns_per_peer: 1\n"
	"                  tos: -1\n"
	"            CPT: \"[0]\"\n";

TEST(RoundTrip, O2ibBackupAsLustreWritesIt)
{
	const std::string lustre = std::string(lustre_o2ib_net) + std::string(lustre_global);
	FakeKernel k;
	std::ostringstream out, err;
	Outcome imported = apply_config(k, lustre, ImportMode::add);
	ASSERT_TRUE(imported.ok()) << yaml::render(render_errors(imported.errors));
	std::string ours = lustre;
	const std::string_view flag = "map_on_demand: true";
	ours.replace(ours.find(flag), flag.size(), "map_on_demand: 1");
	EXPECT_EQ(yaml_of(export_config(k, ExportArgs{ "", true })), ours);
	// the same NI made on the command line, with the LND's defaults
	FakeKernel cli;
	const std::vector<std::vector<std::string>> setup = {
		{ "lnet", "configure" },
		{ "net", "add", "--net", "o2ib", "--if", "eth0" },
		{ "set", "max_interfaces", "200" },
	};
	for (const auto &words : setup)
		ASSERT_EQ(run(words, cli, out, err), 0) << err.str();
	EXPECT_EQ(yaml_of(export_config(cli, ExportArgs{ "", true })), ours);
}

TEST(RoundTrip, ThroughFilesAndTheCommandLine)
{
	namespace fs = std::filesystem;
	fs::path file = fs::temp_directory_path() /
			("lnetctl-rt-" + std::to_string(::getpid()) + ".yaml");
	FakeKernel a = configured_node();
	std::ostringstream out, err;

	ASSERT_EQ(run(std::vector<std::string>{ "export", file.string() }, a, out, err), 0)
		<< err.str();
	EXPECT_EQ(out.str(), "");
	ASSERT_TRUE(fs::exists(file));

	FakeKernel b;
	EXPECT_EQ(run(std::vector<std::string>{ "import", file.string() }, b, out, err), 0)
		<< err.str();
	expect_same_config(a, b);
	fs::remove(file);
}

TEST(RoundTrip, ImportOrderStartsLnetThenNetsRoutesGlobals)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	FakeKernel b;
	apply_config(b, text, ImportMode::add);

	std::vector<std::string> ops;
	for (const auto &c : b.calls)
		if (c == "configure" || c == "add_ni" || c == "add_route" ||
		    c == "write_param")
			if (ops.empty() || ops.back() != c)
				ops.push_back(c);
	EXPECT_EQ(ops, (std::vector<std::string>{ "configure", "add_ni", "add_route",
						  "write_param" }));
}

TEST(RoundTrip, ImportDelRemovesWhatTheFileDescribes)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	Outcome o = apply_config(a, text, ImportMode::del);
	EXPECT_TRUE(o.ok()) << yaml::render(render_errors(o.errors));
	EXPECT_TRUE(a.routes.empty());
	ASSERT_EQ(a.nis.size(), 1U);
	EXPECT_EQ(a.nis[0].config.nid, LNET_NID_LO_0);
}

TEST(RoundTrip, ReimportReportsEachItem)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	Outcome o = apply_config(a, text, ImportMode::add);

	EXPECT_EQ(o.exit_code(), 1);
	ASSERT_EQ(o.errors.size(), 5U);		// 3 NIs, 2 routes
	EXPECT_EQ(o.errors[0], (ErrorItem{ "add", "net", EEXIST,
					   "cannot add network tcp on eth0: File exists" }));
	EXPECT_EQ(o.errors[3].entity, "route");
	EXPECT_EQ(o.errors[3].err, EEXIST);
}

TEST(RoundTrip, FileWithErrorsIsNotApplied)
{
	FakeKernel b;
	Outcome o = apply_config(b, "net:\n"
				    "    - net type: tcp\n"
				    "      local NI(s):\n"
				    "        - interfaces: eth0\n"
				    "route:\n"
				    "    - net: o2ib1\n"
				    "      gateway: oops\n", ImportMode::add);
	EXPECT_EQ(o.exit_code(), 1);
	EXPECT_TRUE(b.calls.empty());
}

// What this LNet cannot configure fails the import before anything of
// the file is applied; peers are configured with all their NIDs, those
// behind a router skipped (nothing to configure here), and so is this
// node's own entry in a file another node exported.
TEST(RoundTrip, UnsupportedFailsWholePeersTaken)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	const std::string routed = "-     primary nid: 172.16.0.1@tcp9\n"
				   "      Multi-Rail: true\n"
				   "      peer ni:\n"
				   "      -     nid: 172.16.0.1@tcp9\n";
	const std::string local = "-     primary nid: 192.168.1.11@tcp\n"
				  "      Multi-Rail: true\n"
				  "      peer ni:\n"
				  "      -     nid: 192.168.1.11@tcp\n";
	const std::string second_nid = "      -     nid: 10.0.0.11@tcp1\n";
	const std::string ourselves = "-     primary nid: 192.168.1.99@tcp\n"
				      "      Multi-Rail: true\n"
				      "      peer ni:\n"
				      "      -     nid: 192.168.1.99@tcp\n"
				      "      -     nid: 10.0.0.10@tcp1\n";

	// the export's peer section comes last but global: add to it
	ASSERT_NE(text.find("\npeer:\n"), std::string::npos) << text;
	std::string more = text;
	more.insert(more.find("global:\n"), routed + local + second_nid + ourselves);
	FakeKernel b;
	Outcome o = apply_config(b, more, ImportMode::add);
	EXPECT_TRUE(o.ok()) << yaml::render(render_errors(o.errors));
	ASSERT_EQ(b.peers.size(), 3U);
	EXPECT_EQ(b.peers[2].primary_nid, lnet::parse_nid("192.168.1.11@tcp").value());
	EXPECT_TRUE(b.peers[2].multi_rail);
	ASSERT_EQ(b.peers[2].nis.size(), 2U);
	EXPECT_EQ(b.peers[2].nis[1].nid, lnet::parse_nid("10.0.0.11@tcp1").value());
	b.peers.pop_back();
	expect_same_config(a, b);

	std::string udsp = text + "udsp:\n    - src: tcp\n";
	FakeKernel c;
	o = apply_config(c, udsp, ImportMode::add);
	EXPECT_EQ(o.exit_code(), 1);
	ASSERT_EQ(o.errors.size(), 1U);
	EXPECT_EQ(o.errors[0].err, EOPNOTSUPP);
	EXPECT_TRUE(c.calls.empty());
}

// A peer configured already keeps its flags; the file's NIDs it lacks
// join it.
TEST(RoundTrip, ImportAddsNidsToConfiguredPeer)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{}));
	std::ostringstream out, err;

	ASSERT_EQ(run(std::vector<std::string>{ "peer", "del", "--prim_nid", "192.168.1.21@tcp",
						"--nid", "10.0.0.21@tcp1" }, a, out, err), 0)
		<< err.str();
	ASSERT_EQ(a.peers[1].nis.size(), 1U);
	Outcome o = apply_config(a, text, ImportMode::add);
	ASSERT_EQ(o.errors.size(), 5U);		// 3 NIs, 2 routes exist
	ASSERT_EQ(a.peers[1].nis.size(), 2U);
	EXPECT_EQ(a.peers[1].nis[1].nid, lnet::parse_nid("10.0.0.21@tcp1").value());
}

// Each whole peer goes (no --force: a locked primary stays).
TEST(RoundTrip, ImportDelRemovesPeers)
{
	FakeKernel a = configured_node();
	std::string text = yaml_of(export_config(a, ExportArgs{ "", true }));
	a.peers[1].lock_prim = true;
	Outcome o = apply_config(a, text, ImportMode::del);
	ASSERT_EQ(o.errors.size(), 1U);
	EXPECT_EQ(o.errors[0], (ErrorItem{ "del", "peer", EPERM,
					   "cannot delete peer 192.168.1.21@tcp: "
					   "Operation not permitted" }));
	ASSERT_EQ(a.peers.size(), 1U);
	EXPECT_EQ(a.peers[0].primary_nid, lnet::parse_nid("192.168.1.21@tcp").value());
	a.peers[0].lock_prim = false;
	o = apply_config(a, text, ImportMode::del);
	EXPECT_TRUE(a.peers.empty());
}

// import --show: what is configured now of what the file names, nothing
// changed.
TEST(RoundTrip, ImportShowPrintsWhatTheFileNames)
{
	FakeKernel k = configured_node();
	const std::string file = "net:\n"
				 "    - net type: tcp1\n"
				 "      local NI(s):\n"
				 "        - interfaces:\n"
				 "              0: eth1\n"
				 "route:\n"
				 "    - net: tcp9\n"
				 "      gateway: 192.168.1.1@tcp\n"
				 "peer:\n"
				 "    - primary nid: 192.168.1.20@tcp\n"
				 "global:\n"
				 "    retry_count: 3\n";
	k.calls.clear();
	Outcome o = apply_config(k, file, ImportMode::show);
	ASSERT_TRUE(o.ok()) << yaml::render(render_errors(o.errors));
	for (const auto &call : k.calls)
		EXPECT_TRUE(call.rfind("get_", 0) == 0 || call.rfind("read_", 0) == 0) << call;
	std::string text = yaml_of(o);
	EXPECT_NE(text.find("net type: tcp1"), std::string::npos) << text;
	EXPECT_EQ(text.find("net type: tcp\n"), std::string::npos) << text;
	EXPECT_EQ(text.find("net type: o2ib1"), std::string::npos) << text;
	EXPECT_NE(text.find("gateway: 192.168.1.1@tcp"), std::string::npos) << text;
	EXPECT_EQ(text.find("10.0.0.1@tcp1"), std::string::npos) << text;
	EXPECT_NE(text.find("primary nid: 192.168.1.20@tcp"), std::string::npos) << text;
	// the current value, not the file's
	EXPECT_NE(text.find("retry_count: 1"), std::string::npos) << text;
	EXPECT_EQ(text.find("transaction_timeout"), std::string::npos) << text;

	std::ostringstream out, err;
	EXPECT_EQ(run(std::vector<std::string>{ "import", "--show", "--del", "x" }, k, out, err),
		  2);
}

// What an ip2nets rule chooses on the fake node: lo 127.0.0.1, eth0
// 192.168.1.10, eth1 10.0.0.10, ib0 10.10.10.1 (down here).
TEST(Ip2nets, ChoosesAsLustreDoes)
{
	FakeKernel k;
	k.down = { "ib0" };
	const std::vector<Ipv4Interface> ifs = k.ipv4_interfaces();
	auto choose = [&](std::vector<std::string> names, std::vector<std::string> ranges) {
		PlannedIp2nets r;

		r.net = LNET_MKNET(LNET_LND_SOCK, 0);
		r.interfaces = std::move(names);
		r.ip_ranges = std::move(ranges);
		return ip2nets_choose(r, ifs);
	};
	using V = std::vector<std::string>;

	// by address: every interface that is up with an address in a range
	EXPECT_EQ(choose({}, { "192.168.1.*", "10.0.*.*" }).interfaces, (V{ "eth0", "eth1" }));
	EXPECT_EQ(choose({}, { "*.*.*.10" }).interfaces, (V{ "eth0", "eth1" }));
	EXPECT_EQ(choose({}, { "10.10.10.1" }).error,
		  "no interface that is up has an address in an ip-range");
	// neither names nor ranges: the first interface up, not lo
	EXPECT_EQ(choose({}, {}).interfaces, (V{ "eth0" }));
	// named: each must be up with an address in a range
	EXPECT_EQ(choose({ "eth1" }, { "10.0.0.0-10" }).interfaces, (V{ "eth1" }));
	EXPECT_EQ(choose({ "eth1", "eth0" }, {}).interfaces, (V{ "eth1", "eth0" }));
	EXPECT_EQ(choose({ "eth0", "eth1" }, { "192.168.1.*" }).error,
		  "interface 'eth1' has no address in an ip-range");
	EXPECT_EQ(choose({ "ib0" }, {}).error, "interface 'ib0' is not up");
	EXPECT_EQ(choose({ "ib9" }, {}).error, "no interface 'ib9' with an IPv4 address");
	EXPECT_TRUE(choose({ "ib9" }, {}).interfaces.empty());
}

TEST(Ip2nets, ImportAddsTheChosenNis)
{
	FakeKernel k;
	Outcome o = apply_config(k, "ip2nets:\n"
				    "    - net-spec: tcp1\n"
				    "      ip-range:\n"
				    "          0: 192.168.1.*\n"
				    "          1: 10.0.0.*\n"
				    "      tunables:\n"
				    "          peer_credits: 16\n",
				 ImportMode::add);
	ASSERT_TRUE(o.ok()) << yaml::render(render_errors(o.errors));
	std::vector<std::string> ifs;
	for (const auto &ni : k.nis) {
		if (LNET_NIDNET(ni.config.nid) != LNET_MKNET(LNET_LND_SOCK, 1))
			continue;
		ifs.push_back(ni.config.interface);
		EXPECT_EQ(ni.config.tunables.peer_credits, 16);
	}
	EXPECT_EQ(ifs, (std::vector<std::string>{ "eth0", "eth1" }));
}

TEST(Ip2nets, RuleThatChoosesNothingAppliesNothing)
{
	FakeKernel k;
	Outcome o = apply_config(k, "net:\n"
				    "    - net type: tcp\n"
				    "      local NI(s):\n"
				    "        - interfaces: eth0\n"
				    "ip2nets:\n"
				    "    - net-spec: o2ib\n"
				    "      ip-range: 172.16.*.*\n",
				 ImportMode::add);
	EXPECT_EQ(o.exit_code(), 1);
	ASSERT_EQ(o.errors.size(), 1U);
	EXPECT_EQ(o.errors[0], (ErrorItem{ "add", "ip2nets", ENODEV,
					   "ip2nets rule for o2ib: no interface that is up "
					   "has an address in an ip-range" }));
	EXPECT_EQ(k.calls, (std::vector<std::string>{ "ipv4_interfaces" }));
}

TEST(Ip2nets, DelLeavesIp2netsAlone)
{
	FakeKernel k;
	Outcome o = apply_config(k, "ip2nets:\n    - net-spec: tcp\n", ImportMode::del);
	EXPECT_TRUE(o.ok());
	EXPECT_TRUE(k.calls.empty());
}

TEST(RoundTrip, ExportIsAllOrNothing)
{
	FakeKernel a = configured_node();
	a.fail["get_routes"] = EIO;
	Outcome o = export_config(a, ExportArgs{});
	EXPECT_EQ(o.exit_code(), 1);
	EXPECT_TRUE(o.out.empty());
	EXPECT_EQ(o.errors.at(0), (ErrorItem{ "show", "route", EIO,
					      "cannot get routes: Input/output error" }));
}

TEST(RoundTrip, ImportMissingFile)
{
	FakeKernel b;
	std::ostringstream out, err;
	int status = run(std::vector<std::string>{ "import", "/nonexistent/cfg.yaml" }, b,
			 out, err);
	EXPECT_EQ(status, 1);
	EXPECT_EQ(err.str(), "add:\n    - yaml:\n          errno: -2\n"
			     "          descr: \"cannot read /nonexistent/cfg.yaml: "
			     "No such file or directory\"\n");
}

TEST(RoundTrip, ExportToUnwritableFile)
{
	FakeKernel a = configured_node();
	Outcome o = export_config(a, ExportArgs{ "/nonexistent/dir/out.yaml", false });
	EXPECT_EQ(o.exit_code(), 1);
	EXPECT_EQ(o.errors.at(0).command, "export");
	EXPECT_NE(o.errors.at(0).descr.find("cannot write /nonexistent/dir/out.yaml"),
		  std::string::npos);
}

}  // namespace
}  // namespace lnetctl
