// SPDX-License-Identifier: GPL-2.0
// Reading configuration files for import: good files and malformed ones.
#include <gtest/gtest.h>
#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include "config_file.hpp"

namespace lnetctl {
namespace {

constexpr std::uint32_t tcp = LNET_MKNET(LNET_LND_SOCK, 0);
constexpr std::uint32_t tcp1 = LNET_MKNET(LNET_LND_SOCK, 1);
constexpr std::uint32_t o2ib1 = LNET_MKNET(LNET_LND_O2IB, 1);

struct Parsed {
	ConfigPlan plan;
	Outcome o;
};

Parsed parse(const std::string &text)
{
	Parsed p;
	p.plan = parse_config(text, "add", p.o);
	return p;
}

// The verbose form Lustre's lnetctl exports, with keys import must skip.
constexpr const char *lustre_style = R"(net:
    - net type: lo
      local NI(s):
        - nid: 0@lo
          status: up
          statistics:
              send_count: 0
              recv_count: 0
              drop_count: 0
          tunables:
              peer_timeout: 0
              peer_credits: 0
              peer_buffer_credits: 0
              credits: 0
          lnd tunables:
          dev cpt: 0
          CPT: "[0]"
    - net type: tcp
      local NI(s):
        - nid: 192.168.1.10@tcp
          status: up
          interfaces:
              0: eth0
          statistics:
              send_count: 5
              recv_count: 5
              drop_count: 0
          health stats:
              health value: 1000
          tunables:
              peer_timeout: 180
              peer_credits: 16
              peer_buffer_credits: 0
              credits: 256
          lnd tunables:
              conns_per_peer: 2
              timeout: 50
              tos: -1
          dev cpt: -1
          CPT: "[0,1]"
route:
    - net: o2ib1
      gateway: 192.168.1.11@tcp
      hop: -1
      priority: 4
      health_sensitivity: 1
      state: up
      type: single-hop
global:
    numa_range: 0
    discovery: 1
    transaction_timeout: 50
    lnd_timeout: 16
)";

TEST(ConfigFile, ParsesLustreStyleExport)
{
	Parsed p = parse(lustre_style);
	ASSERT_TRUE(p.o.ok()) << yaml::render(render_errors(p.o.errors));

	ASSERT_EQ(p.plan.nis.size(), 1U);	// lo is left out
	const PlannedNi &ni = p.plan.nis[0];
	EXPECT_EQ(ni.net, tcp);
	EXPECT_FALSE(ni.whole_net);
	EXPECT_EQ(ni.config.nid, nid_from_interface(tcp));
	EXPECT_EQ(ni.config.interface, "eth0");
	EXPECT_EQ(ni.config.tunables, (CommonTunables{ 180, 16, 0, 256 }));
	EXPECT_EQ(ni.config.lnd, LndTunables(SockTunables{ 2, 50, -1 }));
	EXPECT_EQ(ni.config.cpts, (std::vector<std::uint32_t>{ 0, 1 }));

	ASSERT_EQ(p.plan.routes.size(), 1U);
	EXPECT_EQ(p.plan.routes[0],
		  (RouteConfig{ o2ib1, 0x00020000C0A8010BULL, -1, 4, 1 }));

	// lnd_timeout is derived: exported, not imported
	ASSERT_EQ(p.plan.globals.size(), 3U);
	EXPECT_EQ(p.plan.globals[1].tunable->name, "discovery");
	EXPECT_EQ(p.plan.globals[1].value, 1);
	EXPECT_EQ(p.plan.globals[2].tunable->name, "transaction_timeout");
}

TEST(ConfigFile, InterfaceForms)
{
	Parsed p = parse("net:\n"
			 "    - net type: tcp1\n"
			 "      local NI(s):\n"
			 "        - interfaces: [eth0, eth1]\n"
			 "        - interfaces: ib0\n");
	ASSERT_TRUE(p.o.ok());
	ASSERT_EQ(p.plan.nis.size(), 3U);
	EXPECT_EQ(p.plan.nis[0].config.interface, "eth0");
	EXPECT_EQ(p.plan.nis[1].config.interface, "eth1");
	EXPECT_EQ(p.plan.nis[2].config.interface, "ib0");
	EXPECT_EQ(p.plan.nis[2].config.nid, nid_from_interface(tcp1));
}

TEST(ConfigFile, NidOnlyNiAndFlowCpts)
{
	Parsed p = parse("net:\n"
			 "    - net type: tcp1\n"
			 "      local NI(s):\n"
			 "        - nid: 10.0.0.10@tcp1\n"
			 "          CPT: [1, 2]\n");
	ASSERT_TRUE(p.o.ok());
	ASSERT_EQ(p.plan.nis.size(), 1U);
	EXPECT_EQ(p.plan.nis[0].config.nid, 0x000200010A00000AULL);
	EXPECT_TRUE(p.plan.nis[0].config.interface.empty());
	EXPECT_EQ(p.plan.nis[0].config.cpts, (std::vector<std::uint32_t>{ 1, 2 }));
}

TEST(ConfigFile, O2ibLndTunables)
{
	Parsed p = parse("net:\n"
			 "    - net type: o2ib1\n"
			 "      local NI(s):\n"
			 "        - interfaces:\n"
			 "              0: ib0\n"
			 "          lnd tunables:\n"
			 "              peercredits_hiw: 4\n"
			 "              map_on_demand: 1\n"
			 "              concurrent_sends: 8\n"
			 "              fmr_pool_size: 512\n"
			 "              fmr_flush_trigger: 384\n"
			 "              fmr_cache: 1\n"
			 "              ntx: 512\n"
			 "              conns_per_peer: 1\n"
			 "              timeout: 50\n"
			 "              tos: 106\n");
	ASSERT_TRUE(p.o.ok());
	const auto *o = std::get_if<O2ibTunables>(&p.plan.nis.at(0).config.lnd);
	ASSERT_NE(o, nullptr);
	EXPECT_EQ(*o, (O2ibTunables{ 4, 1, 8, 512, 384, 1, 512, 1, 50, 106 }));
}

// Lustre's export writes map_on_demand as a flag
TEST(ConfigFile, O2ibMapOnDemandFlag)
{
	for (const auto &[text, want] : { std::pair{ "true", 1U }, std::pair{ "false", 0U },
					 std::pair{ "32", 32U } }) {
		Parsed p = parse(std::string("net:\n"
					     "    - net type: o2ib\n"
					     "      local NI(s):\n"
					     "        - interfaces:\n"
					     "              0: ib0\n"
					     "          lnd tunables:\n"
					     "              map_on_demand: ") +
				 text + "\n");
		ASSERT_TRUE(p.o.ok()) << text;
		const auto *o = std::get_if<O2ibTunables>(&p.plan.nis.at(0).config.lnd);
		ASSERT_NE(o, nullptr);
		EXPECT_EQ(o->map_on_demand, want) << text;
	}
	Parsed bad = parse("net:\n"
			   "    - net type: o2ib\n"
			   "      local NI(s):\n"
			   "        - interfaces:\n"
			   "              0: ib0\n"
			   "          lnd tunables:\n"
			   "              map_on_demand: maybe\n");
	EXPECT_FALSE(bad.o.ok());
}

TEST(ConfigFile, NetWithoutLocalNis)
{
	Parsed p = parse("net:\n    - net type: tcp1\n");
	ASSERT_TRUE(p.o.ok());
	ASSERT_EQ(p.plan.nis.size(), 1U);
	EXPECT_TRUE(p.plan.nis[0].whole_net);
	EXPECT_EQ(p.plan.nis[0].net, tcp1);
}

TEST(ConfigFile, EmptySectionsAreFine)
{
	Parsed p = parse("net:\nroute:\nglobal:\npeer:\nudsp: []\n");
	EXPECT_TRUE(p.o.ok()) << yaml::render(render_errors(p.o.errors));
	EXPECT_TRUE(p.plan.empty());
}

void expect_error(const std::string &text, const std::string &entity, int err,
		  const std::string &descr)
{
	Parsed p = parse(text);
	ASSERT_FALSE(p.o.ok()) << text;
	const ErrorItem &e = p.o.errors.front();
	EXPECT_EQ(e.command, "add");
	EXPECT_EQ(e.entity, entity) << e.descr;
	EXPECT_EQ(e.err, err) << e.descr;
	EXPECT_NE(e.descr.find(descr), std::string::npos) << e.descr;
}

TEST(ConfigFile, SyntaxError)
{
	expect_error("net:\n    - net type: tcp\n   bad: [\n", "yaml", EINVAL,
		     "cannot parse the YAML: line ");
	expect_error("net: [unclosed\n", "yaml", EINVAL, "cannot parse the YAML");
}

TEST(ConfigFile, NotAConfiguration)
{
	expect_error("", "yaml", EINVAL, "holds no configuration");
	expect_error("- a\n- b\n", "yaml", EINVAL, "not a YAML mapping");
	expect_error("just words\n", "yaml", EINVAL, "not a YAML mapping");
	expect_error("nets:\n    - net type: tcp\n", "yaml", EINVAL,
		     "unknown section 'nets'");
}

TEST(ConfigFile, UnsupportedSectionsAreListed)
{
	Parsed p = parse("udsp:\n    - src: tcp\n"
			 "routing:\n    enable: 1\n"
			 "route:\n    - net: o2ib1\n      gateway: 1.2.3.4@tcp\n");
	EXPECT_TRUE(p.o.ok());
	EXPECT_EQ(p.plan.unsupported, (std::vector<std::string>{ "udsp" }));
	EXPECT_EQ(p.plan.routes.size(), 1U);
	EXPECT_EQ(p.plan.routing, std::optional<bool>(true));
}

// The peer section as Lustre's lnetctl exports it (a full export's state
// and statistics keys are not configuration): each peer with its NIDs,
// the primary's left out of the others and each NID once.
TEST(ConfigFile, Peers)
{
	Parsed p = parse("peer:\n"
			 "-     primary nid: 192.0.2.99@tcp\n"
			 "      Multi-Rail: false\n"
			 "      peer state: 82496\n"
			 "      peer ni:\n"
			 "      -     nid: 192.0.2.99@tcp\n"
			 "            state: up\n"
			 "            max_ni_tx_credits: 8\n"
			 "-     primary nid: 192.0.2.7@tcp\n"
			 "      Multi-Rail: true\n"
			 "      peer ni:\n"
			 "      -     nid: 192.0.2.7@tcp\n"
			 "-     primary nid: 192.0.2.50@tcp\n"
			 "      Multi-Rail: True\n"
			 "      peer ni:\n"
			 "      -     nid: 192.0.2.50@tcp\n"
			 "      -     nid: 10.0.0.50@tcp1\n"
			 "      -     nid: 10.0.0.50@tcp1\n"
			 "      -     nid: 10.1.0.50@tcp2\n");
	EXPECT_TRUE(p.o.ok()) << yaml::render(render_errors(p.o.errors));
	auto nid = [](const char *text) { return lnet::parse_nid(text).value(); };
	EXPECT_EQ(p.plan.peers,
		  (std::vector<PeerNids>{
			  { { .primary = nid("192.0.2.99@tcp"), .non_mr = true }, {} },
			  { { .primary = nid("192.0.2.7@tcp") }, {} },
			  { { .primary = nid("192.0.2.50@tcp") },
			    { nid("10.0.0.50@tcp1"), nid("10.1.0.50@tcp2") } } }));

	// a peer that is not Multi-Rail has one NID
	expect_error("peer:\n    - primary nid: 192.0.2.50@tcp\n      Multi-Rail: false\n"
		     "      peer ni:\n        - nid: 192.0.2.50@tcp\n"
		     "        - nid: 10.0.0.50@tcp1\n",
		     "peer", EINVAL, "is not Multi-Rail");
	expect_error("peer:\n    - Multi-Rail: false\n", "peer", EINVAL, "primary nid");
	expect_error("peer:\n    - primary nid: 1.2.3.4@tcp\n      Multi-Rail: maybe\n",
		     "peer", EINVAL, "'Multi-Rail' must be true or false");
	expect_error("peer:\n    - primary nid: 1.2.3@tcp\n", "peer", EINVAL, "1.2.3@tcp");
	expect_error("peer:\n    - primary nid: 1.2.3.4@tcp\n      peer ni:\n"
		     "        - state: up\n", "peer", EINVAL, "needs a 'nid'");
}

// More NIDs than LNet keeps for a peer: the file is refused.
TEST(ConfigFile, PeerWithTooManyNids)
{
	std::string text = "peer:\n    - primary nid: 192.0.2.1@tcp\n      peer ni:\n";

	for (int i = 1; i <= LNET_IOCTL_PEER_MAX_NIDS + 1; i++)
		text += "        - nid: 192.0.2." + std::to_string(i) + "@tcp\n";
	expect_error(text, "peer", EINVAL, "17 NIDs given, a peer has at most 16");
}

// routing: enable: 0|1 is planned as "set routing"
TEST(ConfigFile, RoutingEnable)
{
	Parsed p = parse("routing:\n    enable: 0\n");
	EXPECT_TRUE(p.o.ok());
	EXPECT_TRUE(p.plan.unsupported.empty());
	EXPECT_EQ(p.plan.routing, std::optional<bool>(false));
	EXPECT_FALSE(p.plan.empty());
	EXPECT_FALSE(parse("routing:\n").plan.routing.has_value());
	expect_error("routing:\n    enable: 2\n", "routing", EINVAL, "enable");
	expect_error("routing: 1\n", "routing", EINVAL, "must be a mapping");
}

// The form Lustre's lnetctl exports without --backup: the pools per CPT
// (not configuration) and an enable item; buffers totals, 0 unchanged.
TEST(ConfigFile, RoutingSequenceAndBuffers)
{
	Parsed p = parse("routing:\n"
			 "    - cpt[0]:\n"
			 "          tiny:\n"
			 "              npages: 0\n"
			 "              nbuffers: 512\n"
			 "              credits: 512\n"
			 "              mincredits: 500\n"
			 "    - cpt[1]:\n"
			 "          tiny:\n"
			 "              npages: 0\n"
			 "    - enable: 1\n"
			 "buffers:\n    tiny: 1024\n    small: 0\n    large: 64\n");
	EXPECT_TRUE(p.o.ok()) << yaml::render(render_errors(p.o.errors));
	EXPECT_EQ(p.plan.routing, std::optional<bool>(true));
	EXPECT_EQ(p.plan.buffers, (std::optional<RouterBufferTotals>(
					  RouterBufferTotals{ 1024, 0, 64 })));
	EXPECT_TRUE(p.plan.unsupported.empty());
	// a node that never forwarded exports zeros: nothing to apply
	p = parse("routing:\n    - enable: 0\nbuffers:\n    tiny: 0\n    small: 0\n"
		  "    large: 0\n");
	EXPECT_TRUE(p.o.ok());
	EXPECT_FALSE(p.plan.buffers.has_value());
	EXPECT_EQ(p.plan.routing, std::optional<bool>(false));
	expect_error("routing:\n    - forwarding: 1\n", "routing", EINVAL,
		     "must be 'enable' or 'cpt[N]'");
	expect_error("buffers:\n    tiny: -1\n", "buffers", EINVAL, "tiny");
	expect_error("buffers:\n    huge: 1\n", "buffers", EINVAL, "unknown key 'huge'");
	expect_error("buffers: 5\n", "buffers", EINVAL, "must be a mapping");
}

TEST(ConfigFile, BadNets)
{
	expect_error("net: tcp\n", "net", EINVAL, "must be a sequence");
	expect_error("net:\n    - local NI(s): []\n", "net", EINVAL, "without 'net type'");
	expect_error("net:\n    - net type: tcq\n", "net", EINVAL, "invalid network 'tcq'");
	expect_error("net:\n    - net type: tcp\n      local NI(s): eth0\n", "net",
		     EINVAL, "must be a sequence");
	expect_error("net:\n    - net type: tcp\n      local NI(s):\n        - status: up\n",
		     "net", EINVAL, "needs 'interfaces' or 'nid'");
	expect_error("net:\n    - net type: tcp\n      local NI(s):\n"
		     "        - nid: 1.2.3.4@tcp2\n", "net", EINVAL, "is not on network tcp");
	expect_error("net:\n    - net type: tcp\n      local NI(s):\n"
		     "        - interfaces: {0: eth0}\n          tunables:\n"
		     "              peer_credits: many\n", "net", EINVAL,
		     "peer_credits: an integer is required");
	expect_error("net:\n    - net type: tcp\n      local NI(s):\n"
		     "        - interfaces: eth0\n          CPT: \"[0-]\"\n", "net", EINVAL,
		     "invalid CPT list");
	expect_error("net:\n    - net type: tcp\n      local NI(s):\n"
		     "        - interfaces: eth0\n          lnd tunables:\n"
		     "              tos: 300\n", "net", EINVAL, "tos 300 is out of range");
}

// The ip2nets section as Lustre's lnetctl documents it.
TEST(ConfigFile, Ip2netsRules)
{
	Parsed p = parse("ip2nets:\n"
			 "    - net-spec: tcp1\n"
			 "      interfaces:\n"
			 "          0: eth0\n"
			 "          1: eth1\n"
			 "      ip-range:\n"
			 "          0: 192.0.2.*\n"
			 "          1: 198.51.100.[1-9]\n"
			 "      tunables:\n"
			 "          peer_credits: 16\n"
			 "      lnd tunables:\n"
			 "          conns_per_peer: 2\n"
			 "      CPT: \"[0,1]\"\n"
			 "    - net-spec: o2ib1\n"
			 "      ip-range: 10.*.*.*\n"
			 "    - net-spec: tcp\n");
	ASSERT_TRUE(p.o.ok()) << p.o.errors.size();
	ASSERT_EQ(p.plan.ip2nets.size(), 3U);
	const PlannedIp2nets &r = p.plan.ip2nets[0];
	EXPECT_EQ(r.net, tcp1);
	EXPECT_EQ(r.interfaces, (std::vector<std::string>{ "eth0", "eth1" }));
	EXPECT_EQ(r.ip_ranges, (std::vector<std::string>{ "192.0.2.*", "198.51.100.[1-9]" }));
	EXPECT_EQ(r.config.tunables.peer_credits, 16);
	EXPECT_EQ(std::get<SockTunables>(r.config.lnd).conns_per_peer, 2);
	EXPECT_EQ(r.config.cpts, (std::vector<std::uint32_t>{ 0, 1 }));
	EXPECT_EQ(r.config.nid, nid_from_interface(tcp1));
	EXPECT_EQ(p.plan.ip2nets[1].net, o2ib1);
	EXPECT_EQ(p.plan.ip2nets[1].ip_ranges, (std::vector<std::string>{ "10.*.*.*" }));
	EXPECT_TRUE(p.plan.ip2nets[2].interfaces.empty());
	EXPECT_TRUE(p.plan.ip2nets[2].ip_ranges.empty());
	EXPECT_TRUE(p.plan.nis.empty());	// chosen at import, on the node
}

TEST(ConfigFile, BadIp2nets)
{
	expect_error("ip2nets: tcp\n", "ip2nets", EINVAL, "must be a sequence of rules");
	expect_error("ip2nets:\n    - ip-range: 1.2.3.4\n", "ip2nets", EINVAL,
		     "without 'net-spec'");
	expect_error("ip2nets:\n    - net-spec: tcq\n", "ip2nets", EINVAL,
		     "invalid network 'tcq'");
	expect_error("ip2nets:\n    - net-spec: lo\n", "ip2nets", EINVAL, "lo");
	expect_error("ip2nets:\n    - net-spec: tcp\n      ip-range:\n          0: 1.2.3\n",
		     "ip2nets", EINVAL, "bad ip-range '1.2.3'");
	expect_error("ip2nets:\n    - net-spec: tcp\n      ip-range: 1.2.3.[4-2]\n",
		     "ip2nets", EINVAL, "bad ip-range '1.2.3.[4-2]'");
	expect_error("ip2nets:\n    - net-spec: tcp\n      interfaces: [\"eth 0\"]\n",
		     "ip2nets", EINVAL, "eth 0");
	expect_error("ip2nets:\n    - net-spec: tcp\n      interfaces:\n          0: [a]\n",
		     "ip2nets", EINVAL, "'interfaces': bad entry");
}

TEST(ConfigFile, BadRoutes)
{
	expect_error("route:\n    - net: o2ib1\n", "route", EINVAL,
		     "needs 'net' and 'gateway'");
	expect_error("route:\n    - net: o2ib1\n      gateway: nowhere\n", "route", EINVAL,
		     "invalid NID 'nowhere'");
	expect_error("route:\n    - net: o2ib1\n      gateway: 1.2.3.4@tcp\n      hop: 0\n",
		     "route", EINVAL, "hop 0 is out of range");
	expect_error("route:\n    - net: o2ib1\n      gateway: 1.2.3.4@tcp\n"
		     "      priority: high\n", "route", EINVAL, "priority: an integer");
}

TEST(ConfigFile, BadGlobals)
{
	expect_error("global:\n    numa_rang: 1\n", "numa_rang", EINVAL,
		     "unknown global tunable 'numa_rang'");
	expect_error("global:\n    discovery: 5\n", "discovery", EINVAL,
		     "discovery 5 is out of range 0..1");
	expect_error("global:\n    retry_count: [1]\n", "retry_count", EINVAL,
		     "an integer is required");
	expect_error("global: 3\n", "global", EINVAL, "must be a mapping");
}

TEST(ConfigFile, ReportsEveryBadItem)
{
	Parsed p = parse("route:\n"
			 "    - net: o2ib1\n      gateway: bad1\n"
			 "    - net: o2ib2\n      gateway: 1.2.3.4@tcp\n"
			 "    - net: o2ib3\n      gateway: bad3\n");
	EXPECT_EQ(p.o.errors.size(), 2U);
	EXPECT_EQ(p.plan.routes.size(), 1U);
}

}  // namespace
}  // namespace lnetctl
