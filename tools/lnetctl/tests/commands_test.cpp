// SPDX-License-Identifier: GPL-2.0
// The verbs against the fake kernel: what they ask the kernel, what they
// print, the error shape and the exit status.
#include <gtest/gtest.h>

#include <sstream>

#include <linux/lnet/lnet-ioctl.h>

#include <lnet/nid.hpp>
#include <yaml-cpp/yaml.h>

#include "cli.hpp"
#include "fake_kernel.hpp"
#include "test_util.hpp"

namespace lnetctl {
namespace {

using namespace test;

constexpr lnet_nid_t eth0_nid = 0x00020000C0A8010AULL;	// 192.168.1.10@tcp
constexpr lnet_nid_t eth1_nid1 = 0x000200010A00000AULL;	// 10.0.0.10@tcp1
constexpr lnet_nid_t peer_nid = 0x00020000C0A8010BULL;	// 192.168.1.11@tcp

// A configured node with tcp on eth0.
FakeKernel node()
{
	FakeKernel k;
	k.configure(false, false);
	NiConfig ni;
	ni.nid = nid_from_interface(LNET_MKNET(LNET_LND_SOCK, 0));
	ni.interface = "eth0";
	k.add_ni(ni);
	k.calls.clear();
	k.added.clear();
	return k;
}

TEST(Commands, ConfigurePassesFlags)
{
	FakeKernel k;
	Result r = run_words(k, { "lnet", "configure", "--all" });
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "");
	EXPECT_TRUE(k.configured);
	EXPECT_TRUE(k.configured_all);
	EXPECT_FALSE(k.configured_large);
}

TEST(Commands, ConfigureErrorShape)
{
	FakeKernel k;
	k.fail["configure"] = EPERM;
	Result r = run_words(k, { "lnet", "configure" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "configure:\n"
			 "    - lnet:\n"
			 "          errno: -1\n"
			 "          descr: \"LNet configure error: Operation not permitted\"\n");
}

TEST(Commands, Unconfigure)
{
	FakeKernel k = node();
	EXPECT_EQ(run_words(k, { "lnet", "unconfigure" }).status, 0);
	EXPECT_FALSE(k.configured);
	k.fail["unconfigure"] = EBUSY;
	Result r = run_words(k, { "lnet", "unconfigure" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("unconfigure:\n    - lnet:\n          errno: -16\n"),
		  std::string::npos) << r.err;
}

TEST(Commands, NetAddBuildsNiConfig)
{
	FakeKernel k;
	k.configure(false, false);
	Result r = run_words(k, { "net", "add", "--net", "tcp1", "--if", "eth1",
			       "--peer-credits", "16", "--credits", "512",
			       "--peer-timeout", "90", "--cpt", "[0,1]",
			       "--conns-per-peer", "4", "--tos", "96" });
	ASSERT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.added.size(), 1U);
	const NiConfig &ni = k.added[0];
	EXPECT_EQ(ni.nid, LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 1), 0xffffffffU));
	EXPECT_EQ(ni.interface, "eth1");
	EXPECT_EQ(ni.tunables, (CommonTunables{ 90, 16, -1, 512 }));
	EXPECT_EQ(ni.cpts, (std::vector<std::uint32_t>{ 0, 1 }));
	EXPECT_EQ(ni.lnd, LndTunables(SockTunables{ 4, 0, 96 }));
	EXPECT_EQ(k.nis.back().config.nid, eth1_nid1);
}

TEST(Commands, NetAddOneNiPerInterface)
{
	FakeKernel k;
	k.configure(false, false);
	Result r = run_words(k, { "net", "add", "--net", "tcp", "--if", "eth0, eth1" });
	ASSERT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.added.size(), 2U);
	EXPECT_EQ(k.added[0].interface, "eth0");
	EXPECT_EQ(k.added[1].interface, "eth1");
}

TEST(Commands, NetAddWithNid)
{
	FakeKernel k;
	k.configure(false, false);
	Result r = run_words(k, { "net", "add", "--net", "tcp", "--nid", "192.168.1.10@tcp",
			       "--if", "eth0" });
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.added.at(0).nid, eth0_nid);
}

TEST(Commands, NetAddBadNetErrorShape)
{
	FakeKernel k;
	Result r = run_words(k, { "net", "add", "--net", "tcpx", "--if", "eth0" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "add:\n"
			 "    - net:\n"
			 "          errno: -22\n"
			 "          descr: invalid network 'tcpx'\n");
	EXPECT_TRUE(k.calls.empty());
}

void expect_add_error(std::vector<std::string> words, const std::string &descr)
{
	FakeKernel k;
	k.configure(false, false);
	k.calls.clear();
	Result r = run_words(k, std::move(words));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find(descr), std::string::npos) << r.err;
	EXPECT_EQ(r.err.rfind("add:\n    - net:\n          errno: -22\n", 0), 0U) << r.err;
	EXPECT_TRUE(k.added.empty());
}

TEST(Commands, NetAddRejectsBadInput)
{
	expect_add_error({ "net", "add", "--if", "eth0" }, "no network given");
	expect_add_error({ "net", "add", "--net", "lo", "--if", "eth0" },
			 "loopback network");
	expect_add_error({ "net", "add", "--net", "tcp" }, "no interface given");
	expect_add_error({ "net", "add", "--net", "tcp", "--if", "eth0", "--cpt", "[0,x]" },
			 "invalid CPT list");
	expect_add_error({ "net", "add", "--net", "tcp", "--nid", "1.2.3.4@tcp2" },
			 "is not on network tcp");
	expect_add_error({ "net", "add", "--net", "tcp", "--nid", "1.2.3.256@tcp" },
			 "invalid NID '1.2.3.256@tcp'");
	expect_add_error({ "net", "add", "--net", "tcp", "--if", "averyveryverylongname" },
			 "invalid interface name");
	expect_add_error({ "net", "add", "--net", "tcp", "--if", "eth0", "--credits", "-2" },
			 "credits -2 is out of range");
	expect_add_error({ "net", "add", "--net", "gni", "--nid", "5@gni", "--tos", "3" },
			 "apply to tcp and o2ib networks only");
	expect_add_error({ "net", "add", "--net", "tcp", "--if", "eth0", "--tos", "256" },
			 "tos 256 is out of range");
	expect_add_error({ "net", "add", "--ip2net", "tcp(eth0) 1.2.3.*", "--net", "tcp" },
			 "--ip2net cannot be combined");
}

TEST(Commands, NetAddKernelFailurePerInterface)
{
	FakeKernel k = node();
	Result r = run_words(k, { "net", "add", "--net", "tcp", "--if", "eth0,eth1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n"
			 "    - net:\n"
			 "          errno: -17\n"
			 "          descr: \"cannot add network tcp on eth0: File exists\"\n");
	EXPECT_EQ(k.nis.size(), 3U);	// eth1 was still added
}

TEST(Commands, NetDelWholeNet)
{
	FakeKernel k = node();
	EXPECT_EQ(run_words(k, { "net", "del", "--net", "tcp" }).status, 0);
	EXPECT_EQ(k.calls, (std::vector<std::string>{ "del_net" }));
	EXPECT_EQ(k.nis.size(), 1U);
}

TEST(Commands, NetDelByInterfaceAndNid)
{
	FakeKernel k = node();
	EXPECT_EQ(run_words(k, { "net", "del", "--net", "tcp", "--if", "eth0" }).status, 0);
	EXPECT_EQ(k.nis.size(), 1U);

	k = node();
	EXPECT_EQ(run_words(k, { "net", "del", "--net", "tcp", "--nid",
				 "192.168.1.10@tcp" }).status, 0);
	EXPECT_EQ(k.nis.size(), 1U);
}

TEST(Commands, NetDelErrors)
{
	FakeKernel k = node();
	Result r = run_words(k, { "net", "del", "--net", "tcp", "--if", "eth7" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "del:\n"
			 "    - net:\n"
			 "          errno: -2\n"
			 "          descr: network tcp has no NI on interface eth7\n");
	r = run_words(k, { "net", "del", "--net", "tcp5" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot delete network tcp5: No such file or directory"),
		  std::string::npos) << r.err;
	r = run_words(k, { "net", "del", "--net", "lo" });
	EXPECT_EQ(r.status, 1);
}

TEST(Commands, NetShowBrief)
{
	FakeKernel k = node();
	Result r = run_words(k, { "net", "show" });
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, "net:\n"
			 "    - net type: lo\n"
			 "      local NI(s):\n"
			 "        - nid: 0@lo\n"
			 "          status: up\n"
			 "    - net type: tcp\n"
			 "      local NI(s):\n"
			 "        - nid: 192.168.1.10@tcp\n"
			 "          status: up\n"
			 "          interfaces:\n"
			 "              0: eth0\n");
}

TEST(Commands, NetShowFilterAndVerbose)
{
	FakeKernel k = node();
	k.ni_stats[eth0_nid].send_count = 42;
	Result r = run_words(k, { "net", "show", "--net", "tcp", "-v" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.find("net type: lo"), std::string::npos);
	EXPECT_NE(r.out.find("              send_count: 42\n"), std::string::npos);
	EXPECT_NE(r.out.find("          health stats:\n"), std::string::npos);
	EXPECT_NE(r.out.find("          lnd tunables:\n              conns_per_peer: 1\n"),
		  std::string::npos) << r.out;
	EXPECT_NE(r.out.find("          CPT: \"[0]\"\n"), std::string::npos);

	r = run_words(k, { "net", "show", "--net", "o2ib3" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "show:\n    - net:\n          errno: -2\n"
			 "          descr: network o2ib3 is not configured\n");
}

TEST(Commands, NetShowVerboseStatsFailureIsReported)
{
	FakeKernel k = node();
	k.fail["get_ni_health"] = EINVAL;
	Result r = run_words(k, { "net", "show", "-v" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.out.find("net type: tcp"), std::string::npos);
	EXPECT_NE(r.err.find("cannot get statistics of 192.168.1.10@tcp"),
		  std::string::npos) << r.err;
}

TEST(Commands, NetShowWhenLnetIsDown)
{
	FakeKernel k;
	Result r = run_words(k, { "net", "show" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "show:\n    - net:\n          errno: -100\n"
			 "          descr: \"cannot get networks: Network is down\"\n");
}

TEST(Commands, PeerShowFilter)
{
	FakeKernel k = node();
	PeerInfo p;
	p.primary_nid = peer_nid;
	p.multi_rail = true;
	PeerNiInfo a;
	a.nid = peer_nid;
	PeerNiInfo b;
	b.nid = eth1_nid1 + 1;
	p.nis = { a, b };
	PeerInfo q;
	q.primary_nid = peer_nid + 1;
	PeerNiInfo c;
	c.nid = peer_nid + 1;
	q.nis = { c };
	k.peers = { p, q };

	Result r = run_words(k, { "peer", "show", "--nid", "10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "peer:\n"
			 "    - primary nid: 192.168.1.11@tcp\n"
			 "      Multi-Rail: True\n"
			 "      peer ni:\n"
			 "        - nid: 192.168.1.11@tcp\n"
			 "          state: NA\n"
			 "        - nid: 10.0.0.11@tcp1\n"
			 "          state: NA\n");
	r = run_words(k, { "peer", "show", "--nid", "9.9.9.9@tcp" });
	EXPECT_EQ(r.status, 1);
	r = run_words(k, { "peer", "show", "--nid", "nonsense" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("invalid NID 'nonsense'"), std::string::npos);
}

TEST(Commands, HealthSet)
{
	FakeKernel k = node();
	lnet_nid_t ni_nid = k.nis.back().config.nid;
	PeerInfo p;
	p.primary_nid = peer_nid;
	PeerNiInfo a;
	a.nid = peer_nid;
	p.nis = { a };
	k.peers = { p };

	Result r = run_words(k, { "net", "set", "--nid", lnet::nid_to_string(ni_nid),
				  "--health", "500" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.ni_health[ni_nid].health_value, 500);
	r = run_words(k, { "peer", "set", "--all", "--health", "0" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peers[0].nis[0].health_value, 0);
	r = run_words(k, { "peer", "set", "--nid", "192.168.1.11@tcp", "--health",
			   "1000" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peers[0].nis[0].health_value, 1000);

	r = run_words(k, { "peer", "set", "--nid", "9.9.9.9@tcp", "--health", "1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot set the health of 9.9.9.9@tcp"),
		  std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--all", "--health", "1001" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("health"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--health", "5" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("give --nid or --all"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--all" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("give --health"), std::string::npos) << r.err;
	EXPECT_EQ(k.ni_health[ni_nid].health_value, 500);
}

TEST(Commands, NetSetLndTimeout)
{
	FakeKernel k = node();	// a tcp NI: ksocklnd/sock_timeout exists
	ASSERT_TRUE(k.read_param("ksocklnd", "sock_timeout"));

	Result r = run_words(k, { "net", "set", "--net", "tcp", "--lnd-timeout", "7" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.params["ksocklnd/sock_timeout"], "7");
	r = run_words(k, { "net", "set", "--net", "tcp", "--lnd-timeout", "0" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.params["ksocklnd/sock_timeout"], "0");

	r = run_words(k, { "net", "set", "--lnd-timeout", "7" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("--lnd-timeout needs --net"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--net", "tcp", "--lnd-timeout", "-1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("lnd-timeout"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--net", "o2ib", "--lnd-timeout", "7" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("ko2iblnd is not loaded"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--net", "gni", "--lnd-timeout", "7" });
	EXPECT_EQ(r.status, 1) << r.out;
	r = run_words(k, { "net", "set", "--net", "tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("--net only goes with --lnd-timeout"), std::string::npos)
		<< r.err;
	EXPECT_EQ(k.params["ksocklnd/sock_timeout"], "0");

	// with --health: both are set
	lnet_nid_t ni_nid = k.nis.back().config.nid;
	r = run_words(k, { "net", "set", "--nid", lnet::nid_to_string(ni_nid),
			   "--health", "300", "--net", "tcp", "--lnd-timeout", "9" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.ni_health[ni_nid].health_value, 300);
	EXPECT_EQ(k.params["ksocklnd/sock_timeout"], "9");
	// a timeout that cannot be set: the health is not set either
	r = run_words(k, { "net", "set", "--nid", lnet::nid_to_string(ni_nid),
			   "--health", "100", "--net", "o2ib", "--lnd-timeout", "9" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(k.ni_health[ni_nid].health_value, 300);
}

TEST(Commands, NetSetConnsPerPeer)
{
	FakeKernel k = node();
	NiConfig ib;
	ib.nid = nid_from_interface(LNET_MKNET(LNET_LND_O2IB, 0));
	ib.interface = "ib0";
	k.add_ni(ib);
	std::string tcp_nid = lnet::nid_to_string(k.nis[1].config.nid);
	std::string ib_nid = lnet::nid_to_string(k.nis[2].config.nid);
	auto cpp = [&]() { return std::get<SockTunables>(k.nis[1].config.lnd).conns_per_peer; };

	Result r = run_words(k, { "net", "set", "--nid", tcp_nid, "--conns-per-peer", "3" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(cpp(), 3);
	// --all: the NIs whose LND has the setting
	r = run_words(k, { "net", "set", "--all", "--conns-per-peer", "5" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(cpp(), 5);

	r = run_words(k, { "net", "set", "--nid", ib_nid, "--conns-per-peer", "2" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("one connection per peer"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--nid", tcp_nid, "--conns-per-peer", "128" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("conns-per-peer"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--conns-per-peer", "2" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("give --nid or --all"), std::string::npos) << r.err;
	r = run_words(k, { "net", "set", "--nid", tcp_nid });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("nothing to set"), std::string::npos) << r.err;
	EXPECT_EQ(cpp(), 5);

	// with --health: a bad value for either sets neither
	r = run_words(k, { "net", "set", "--nid", tcp_nid, "--health", "2000",
			   "--conns-per-peer", "1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(cpp(), 5);
	r = run_words(k, { "net", "set", "--nid", tcp_nid, "--health", "200",
			   "--conns-per-peer", "1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(cpp(), 1);
	EXPECT_EQ(k.ni_health[k.nis[1].config.nid].health_value, 200);
}

TEST(Commands, PeerAddDel)
{
	FakeKernel k = node();

	Result r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.30@tcp", "--non_mr" });
	EXPECT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.peers.size(), 1U);
	EXPECT_TRUE(k.peers[0].configured);
	EXPECT_FALSE(k.peers[0].multi_rail);
	EXPECT_EQ(k.peer_adds.back(),
		  (PeerConfig{ .primary = lnet::parse_nid("192.168.1.30@tcp").value(),
			       .non_mr = true }));
	r = run_words(k, { "peer", "show" });
	EXPECT_NE(r.out.find("primary nid: 192.168.1.30@tcp\n      Multi-Rail: False\n"),
		  std::string::npos) << r.out;

	// --nid may repeat the primary: one ADD, of the peer itself
	std::size_t adds = k.peer_adds.size();
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.31@tcp", "--nid",
			   "192.168.1.31@tcp", "--lock_prim" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peer_adds.size(), adds + 1);
	EXPECT_TRUE(k.peer_adds.back().lock_prim);
	EXPECT_EQ(k.peer_adds.back().nid, LNET_NID_ANY);
	EXPECT_TRUE(k.peers[1].lock_prim);
	EXPECT_TRUE(k.peers[1].multi_rail);

	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.30@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - peer:\n          errno: -17\n"
			 "          descr: \"cannot add peer 192.168.1.30@tcp: File exists\"\n");
	r = run_words(k, { "peer", "add", "--prim_nid", "10.9.9.9@tcp7" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("no local NI on its net"), std::string::npos) << r.err;
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.10@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot add peer 192.168.1.10@tcp: Invalid argument "
			     "(a NID of this node, or of another peer)"),
		  std::string::npos) << r.err;
	r = run_words(k, { "peer", "add", "--prim_nid", "bogus" });
	EXPECT_EQ(r.status, 1);
	r = run_words(k, { "peer", "add" });
	EXPECT_EQ(r.status, 2);

	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.30@tcp" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peers.size(), 1U);
	EXPECT_EQ(k.peer_dels.back(),
		  (PeerConfig{ .primary = lnet::parse_nid("192.168.1.30@tcp").value() }));
	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.30@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "del:\n    - peer:\n          errno: -2\n"
			 "          descr: \"cannot delete peer 192.168.1.30@tcp: "
			 "No such file or directory (no peer has that primary NID)\"\n");
}

// A node with tcp on eth0 and tcp1 on eth1: room for Multi-Rail peers.
FakeKernel mr_node()
{
	FakeKernel k = node();
	NiConfig ni;
	ni.nid = nid_from_interface(LNET_MKNET(LNET_LND_SOCK, 1));
	ni.interface = "eth1";
	k.add_ni(ni);
	k.calls.clear();
	k.added.clear();
	return k;
}

// peer add of 192.168.1.11@tcp with 10.0.0.11@tcp1; the exit status.
int add_two_nid_peer(FakeKernel &k)
{
	return run_words(k, { "peer", "add", "--prim_nid", "192.168.1.11@tcp", "--nid",
			      "10.0.0.11@tcp1" }).status;
}

// What peer show prints for that peer.
constexpr std::string_view two_nid_peer_show =
	"peer:\n"
	"    - primary nid: 192.168.1.11@tcp\n"
	"      Multi-Rail: True\n"
	"      peer ni:\n"
	"        - nid: 192.168.1.11@tcp\n"
	"          state: NA\n"
	"        - nid: 10.0.0.11@tcp1\n"
	"          state: NA\n";

TEST(Commands, PeerAddMultiRail)
{
	FakeKernel k = mr_node();
	const lnet_nid_t second = lnet::parse_nid("10.0.0.11@tcp1").value();

	Result r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.11@tcp",
				  "--nid", "192.168.1.11@tcp,10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "");
	// the peer itself, then each other NID joining it
	EXPECT_EQ(k.peer_adds, (std::vector<PeerConfig>{
				       { .primary = peer_nid },
				       { .primary = peer_nid, .nid = second } }));
	ASSERT_EQ(k.peers.size(), 1U);
	EXPECT_TRUE(k.peers[0].multi_rail);
	EXPECT_TRUE(k.peers[0].configured);

	r = run_words(k, { "peer", "show" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, two_nid_peer_show);
	// the peer of any of its NIDs
	r = run_words(k, { "peer", "show", "--nid", "10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, two_nid_peer_show);
	r = run_words(k, { "peer", "show", "-v" });
	EXPECT_NE(r.out.find("      Multi-Rail: True\n      peer state: 0\n"),
		  std::string::npos) << r.out;

	// NIDs join a peer configured already
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.11@tcp", "--nid",
			   "10.0.0.12@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peers[0].nis.size(), 3U);
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.11@tcp", "--nid",
			   "10.0.0.12@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - peer:\n          errno: -17\n"
			 "          descr: \"cannot add NID 10.0.0.12@tcp1 to peer "
			 "192.168.1.11@tcp: File exists\"\n");
}

TEST(Commands, PeerAddMultiRailErrors)
{
	FakeKernel k = mr_node();

	// --non_mr: one NID, refused before any request
	Result r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.32@tcp", "--nid",
				  "192.168.1.32@tcp,10.0.0.32@tcp1", "--non_mr" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - peer:\n          errno: -22\n"
			 "          descr: \"peer 192.168.1.32@tcp is not Multi-Rail "
			 "(--non_mr): it has one NID, its primary, so 10.0.0.32@tcp1 "
			 "cannot join it\"\n");
	EXPECT_TRUE(k.peer_adds.empty());
	EXPECT_TRUE(k.peers.empty());

	// more NIDs than a peer has
	std::string many = "192.168.1.40@tcp";
	for (int i = 1; i <= LNET_IOCTL_PEER_MAX_NIDS; i++)
		many += ",10.0.1." + std::to_string(i) + "@tcp1";
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.40@tcp", "--nid", many });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("17 NIDs given, a peer has at most 16"), std::string::npos)
		<< r.err;
	EXPECT_TRUE(k.peer_adds.empty());
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.40@tcp", "--nid",
			   "10.0.0.40@tcp1,,10.0.0.41@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("invalid NID ''"), std::string::npos) << r.err;

	// a NID of another peer, or of this node: each NID is tried
	ASSERT_EQ(add_two_nid_peer(k), 0);
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.12@tcp", "--nid",
			   "10.0.0.11@tcp1,10.0.0.10@tcp1,10.0.0.12@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n"
			 "    - peer:\n          errno: -22\n"
			 "          descr: \"cannot add NID 10.0.0.11@tcp1 to peer 192.168.1.12@tcp: "
			 "Invalid argument (the peer is not Multi-Rail, or the NID is this "
			 "node's or another peer's)\"\n"
			 "    - peer:\n          errno: -22\n"
			 "          descr: \"cannot add NID 10.0.0.10@tcp1 to peer 192.168.1.12@tcp: "
			 "Invalid argument (the peer is not Multi-Rail, or the NID is this "
			 "node's or another peer's)\"\n");
	ASSERT_EQ(k.peers.size(), 2U);
	EXPECT_EQ(k.peers[1].nis.size(), 2U);

	// a NID cannot join a --non_mr peer
	ASSERT_EQ(run_words(k, { "peer", "add", "--prim_nid", "192.168.1.13@tcp",
				 "--non_mr" }).status, 0);
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.13@tcp", "--nid",
			   "10.0.0.13@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("the peer is not Multi-Rail"), std::string::npos) << r.err;
	EXPECT_EQ(k.peers[2].nis.size(), 1U);

	// the kernel's limit on a peer's NIDs
	std::string fifteen;
	for (int i = 1; i < LNET_IOCTL_PEER_MAX_NIDS; i++)
		fifteen += (i > 1 ? "," : "") + ("10.0.2." + std::to_string(i) + "@tcp1");
	ASSERT_EQ(run_words(k, { "peer", "add", "--prim_nid", "192.168.1.14@tcp", "--nid",
				 fifteen }).status, 0);
	r = run_words(k, { "peer", "add", "--prim_nid", "192.168.1.14@tcp", "--nid",
			   "10.0.3.1@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("No space left on device (a peer has at most 16 NIDs)"),
		  std::string::npos) << r.err;
}

TEST(Commands, PeerDelMultiRail)
{
	FakeKernel k = mr_node();
	const lnet_nid_t second = lnet::parse_nid("10.0.0.11@tcp1").value();

	ASSERT_EQ(run_words(k, { "peer", "add", "--prim_nid", "192.168.1.11@tcp", "--nid",
				 "10.0.0.11@tcp1,10.0.0.12@tcp1", "--lock_prim" }).status, 0);
	ASSERT_EQ(k.peers.size(), 1U);
	ASSERT_EQ(k.peers[0].nis.size(), 3U);

	// one NID leaves the peer
	Result r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp",
				  "--nid", "10.0.0.12@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.peers[0].nis.size(), 2U);
	r = run_words(k, { "peer", "show" });
	EXPECT_EQ(r.out, two_nid_peer_show);
	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp",
			   "--nid", "10.0.0.12@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot delete NID 10.0.0.12@tcp1 of peer 192.168.1.11@tcp: "
			     "No such file or directory"),
		  std::string::npos) << r.err;

	// the whole peer: its primary is locked, --force needed
	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "del:\n    - peer:\n          errno: -1\n"
			 "          descr: \"cannot delete peer 192.168.1.11@tcp: Operation "
			 "not permitted (its primary NID is locked (--lock_prim): use "
			 "--force)\"\n");
	EXPECT_EQ(k.peers.size(), 1U);
	// the primary among --nid: the whole peer too
	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp", "--nid",
			   "10.0.0.11@tcp1,192.168.1.11@tcp", "--force" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(k.peers.empty());
	EXPECT_EQ(k.peer_dels.front(), (PeerConfig{ .primary = peer_nid, .nid = second + 1 }));
	EXPECT_EQ(k.peer_dels.back(), (PeerConfig{ .primary = peer_nid, .force = true }));

	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp", "--nid",
			   "10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot delete NID 10.0.0.11@tcp1 of peer 192.168.1.11@tcp"),
		  std::string::npos) << r.err;
	r = run_words(k, { "peer", "del", "--prim_nid", "192.168.1.11@tcp", "--nid", "x" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("invalid NID 'x'"), std::string::npos) << r.err;
}

// The item of "ping:" / "discover:" for the peer of mr_node_ping_info()
// with all three NIDs.
constexpr std::string_view mr_node_item =
	"    - primary nid: 192.168.1.11@tcp\n"
	"      Multi-Rail: True\n"
	"      peer ni:\n"
	"        - nid: 192.168.1.11@tcp\n"
	"        - nid: 10.0.0.11@tcp1\n"
	"        - nid: 10.0.0.13@tcp1\n";

// The remote node of 192.168.1.11@tcp: Multi-Rail, with three NIDs.
PingReply mr_node_ping_info()
{
	PingReply info;
	info.primary_nid = peer_nid;
	info.multi_rail = true;
	info.features = 0x1b;
	info.ids = { { LNET_NID_LO_0, 12345 },
		     { peer_nid, 12345 },
		     { lnet::parse_nid("10.0.0.11@tcp1").value(), 12345 },
		     { lnet::parse_nid("10.0.0.13@tcp1").value(), 12345 } };
	return info;
}

TEST(Commands, DiscoverConfiguredPeer)
{
	FakeKernel k = mr_node();
	k.ping_replies[peer_nid] = mr_node_ping_info();
	ASSERT_EQ(add_two_nid_peer(k), 0);

	Result r = run_words(k, { "discover", "192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "discover:\n" + std::string(mr_node_item));
	EXPECT_EQ(k.discovers, (std::vector<std::pair<lnet_nid_t, bool>>{ { peer_nid, false } }));
	EXPECT_TRUE(k.peers[0].discovered);
	EXPECT_EQ(k.peers[0].nis.size(), 3U);

	// --force; two NIDs, comma- or space-separated: one request each
	r = run_words(k, { "discover", "--force", "192.168.1.11@tcp,10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.discovers.size(), 3U);
	EXPECT_EQ(k.discovers[1], std::make_pair(peer_nid, true));
	EXPECT_EQ(k.discovers[2].first, lnet::parse_nid("10.0.0.11@tcp1").value());
	r = run_words(k, { "discover", "192.168.1.11@tcp", "-f" });
	EXPECT_TRUE(k.discovers.back().second);
}

TEST(Commands, DiscoverNewPeer)
{
	FakeKernel k = mr_node();
	PingReply single;
	const lnet_nid_t other = lnet::parse_nid("192.168.1.20@tcp").value();
	single.ids = { { LNET_NID_LO_0, 12345 }, { other, 12345 } };
	k.ping_replies[other] = single;
	k.ping_replies[peer_nid] = mr_node_ping_info();

	Result r = run_words(k, { "discover", "192.168.1.20@tcp", "192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "discover:\n"
			 "    - primary nid: 192.168.1.20@tcp\n"
			 "      Multi-Rail: False\n"
			 "      peer ni:\n"
			 "        - nid: 192.168.1.20@tcp\n" +
				 std::string(mr_node_item));
	// discovered, not configured: not exported
	ASSERT_EQ(k.peers.size(), 2U);
	EXPECT_FALSE(k.peers[1].configured);
	r = run_words(k, { "export" });
	EXPECT_EQ(r.out.find("\npeer:\n"), std::string::npos) << r.out;
}

TEST(Commands, DiscoverErrors)
{
	FakeKernel k = mr_node();
	k.ping_replies[peer_nid] = mr_node_ping_info();

	Result r = run_words(k, { "discover", "192.168.1.99@tcp,192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.out.find("discover:\n    - primary nid: 192.168.1.11@tcp\n"),
		  std::string::npos) << r.out;
	EXPECT_EQ(r.err, "manage:\n"
			 "    - discover:\n"
			 "          errno: -110\n"
			 "          descr: \"failed to discover 192.168.1.99@tcp: "
			 "Connection timed out\"\n");
	r = run_words(k, { "discover", "192.168.1.300@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "manage:\n    - discover:\n          errno: -22\n"
			 "          descr: invalid NID '192.168.1.300@tcp'\n");
	r = run_words(k, { "discover", "," });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("invalid NID ''"), std::string::npos) << r.err;
	r = run_words(k, { "discover" });
	EXPECT_EQ(r.status, 2);

	FakeKernel down;
	r = run_words(down, { "discover", "192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("failed to discover 192.168.1.11@tcp: Network is down"),
		  std::string::npos) << r.err;
}

// lnetctl debug recovery OPTIONS... against @k: what it must answer.
void expect_recovery(FakeKernel &k, std::vector<std::string> options, int status,
		     const std::string &out, const std::string &err = "")
{
	options.insert(options.begin(), { "debug", "recovery" });
	Result r = run_words(k, options);
	EXPECT_EQ(r.status, status) << r.err;
	EXPECT_EQ(r.out, out);
	EXPECT_EQ(r.err, err);
}

TEST(Commands, DebugRecoveryEmpty)
{
	FakeKernel k = node();
	expect_recovery(k, { "--local" }, 0, "local NI recovery: []\n");
	expect_recovery(k, { "--peer" }, 0, "peer NI recovery: []\n");
	EXPECT_EQ(k.calls, (std::vector<std::string>{ "get_recovery_queue",
						      "get_recovery_queue" }));
}

TEST(Commands, DebugRecoveryOneEntry)
{
	FakeKernel k = node();
	k.recovery[HealthOf::local_ni] = { { { eth0_nid, 100, 2, 3 } }, 1 };
	expect_recovery(k, { "--local" }, 0,
			"local NI recovery:\n"
			"    - nid: 192.168.1.10@tcp\n"
			"      health value: 100\n"
			"      ping count: 2\n"
			"      next ping: 3\n");
	// the other queue is another list
	expect_recovery(k, { "--peer" }, 0, "peer NI recovery: []\n");
}

TEST(Commands, DebugRecoveryPendingPing)
{
	FakeKernel k = node();
	k.recovery[HealthOf::peer_ni] = {
		{ { peer_nid, 0, 7, recovery_ping_pending }, { eth1_nid1 + 1, 950, 1, 0 } },
		2
	};
	expect_recovery(k, { "--peer" }, 0,
			"peer NI recovery:\n"
			"    - nid: 192.168.1.11@tcp\n"
			"      health value: 0\n"
			"      ping count: 7\n"
			"      next ping: pending\n"
			"    - nid: 10.0.0.11@tcp1\n"
			"      health value: 950\n"
			"      ping count: 1\n"
			"      next ping: 0\n");
}

TEST(Commands, DebugRecoveryTruncated)
{
	FakeKernel k = node();
	RecoveryQueue &q = k.recovery[HealthOf::peer_ni];
	for (std::uint32_t i = 0; i < 64; i++)
		q.entries.push_back({ peer_nid + i, static_cast<std::int32_t>(i), i,
				      i % 2 ? recovery_ping_pending : 60 });
	q.total = 100;
	Result r = run_words(k, { "debug", "recovery", "--peer" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.rfind("peer NI recovery:\n"
			      "    - nid: 192.168.1.11@tcp\n"
			      "      health value: 0\n"
			      "      ping count: 0\n"
			      "      next ping: 60\n"
			      "    - nid: 192.168.1.12@tcp\n"
			      "      health value: 1\n"
			      "      ping count: 1\n"
			      "      next ping: pending\n", 0),
		  0U) << r.out;
	const std::string tail = "    - nid: 192.168.1.74@tcp\n"
				 "      health value: 63\n"
				 "      ping count: 63\n"
				 "      next ping: pending\n"
				 "    # 36 more not listed\n";
	ASSERT_GE(r.out.size(), tail.size());
	EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail) << r.out;

	// the comment is no item: the document still holds 64 entries
	YAML::Node doc = YAML::Load(r.out);
	EXPECT_EQ(doc["peer NI recovery"].size(), 64U);
	EXPECT_EQ(doc["peer NI recovery"][1]["next ping"].as<std::string>(), "pending");
}

TEST(Commands, DebugRecoveryKernelErrors)
{
	FakeKernel k;
	expect_recovery(k, { "--local" }, 1, "",
			"show:\n"
			"    - local NI recovery:\n"
			"          errno: -100\n"
			"          descr: \"cannot get the local NI recovery queue: "
			"Network is down\"\n");
	k = node();
	k.fail["get_recovery_queue"] = EINVAL;
	expect_recovery(k, { "--peer" }, 1, "",
			"show:\n"
			"    - peer NI recovery:\n"
			"          errno: -22\n"
			"          descr: \"cannot get the peer NI recovery queue: "
			"Invalid argument\"\n");
}

TEST(Commands, DebugRecoveryArgumentErrors)
{
	const std::string one_of = "lnetctl debug recovery: give --local or --peer "
				   "(one of them)\n"
				   "Run 'lnetctl debug recovery --help' for usage.\n";
	FakeKernel k = node();
	expect_recovery(k, {}, 2, "", one_of);
	expect_recovery(k, { "--local", "--peer" }, 2, "", one_of);
	expect_recovery(k, { "--all" }, 2, "",
			"lnetctl debug recovery: The following argument was not "
			"expected: --all\n"
			"Run 'lnetctl debug recovery --help' for usage.\n");
	EXPECT_TRUE(k.calls.empty());

	// the verb itself refuses the same, without asking the kernel
	for (const DebugRecoveryArgs &a :
	     { DebugRecoveryArgs{ false, false }, DebugRecoveryArgs{ true, true } }) {
		Outcome o = debug_recovery(k, a);
		EXPECT_TRUE(o.out.empty());
		EXPECT_EQ(o.errors, (std::vector<ErrorItem>{
					    { "show", "recovery", EINVAL,
					      "give --local or --peer (one of them)" } }));
	}
	EXPECT_TRUE(k.calls.empty());
}

TEST(Commands, RouteAdd)
{
	FakeKernel k = node();
	Result r = run_words(k, { "route", "add", "--net", "o2ib1", "--gateway",
			       "192.168.1.11@tcp", "--hop", "2", "--priority", "3",
			       "--health_sensitivity", "5" });
	ASSERT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.routes.size(), 1U);
	EXPECT_EQ(k.routes[0].config,
		  (RouteConfig{ LNET_MKNET(LNET_LND_O2IB, 1), peer_nid, 2, 3, 5 }));

	r = run_words(k, { "route", "add", "--net", "tcp9", "--gateway", "192.168.1.11@tcp" });
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.routes[1].config, (RouteConfig{ LNET_MKNET(LNET_LND_SOCK, 9), peer_nid,
						    -1, 0, 1 }));
}

TEST(Commands, RouteAddBadInput)
{
	FakeKernel k = node();
	const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
		{ { "route", "add", "--net", "o2ib1", "--gateway", "bad" },
		  "invalid NID 'bad'" },
		{ { "route", "add", "--net", "o2ib1", "--gateway", "0@lo" },
		  "loopback NID cannot be a gateway" },
		{ { "route", "add", "--net", "xyz", "--gateway", "1.2.3.4@tcp" },
		  "invalid network 'xyz'" },
		{ { "route", "add", "--net", "o2ib1", "--gateway", "1.2.3.4@tcp",
		    "--hop", "0" }, "hop 0 is out of range 1..255" },
		{ { "route", "add", "--net", "o2ib1", "--gateway", "1.2.3.4@tcp",
		    "--hop", "256" }, "hop 256 is out of range" },
		{ { "route", "add", "--net", "o2ib1", "--gateway", "1.2.3.4@tcp",
		    "--priority", "-1" }, "priority -1 is out of range" },
	};

	for (const auto &[words, descr] : cases) {
		Result r = run_words(k, words);
		EXPECT_EQ(r.status, 1);
		EXPECT_EQ(r.err.rfind("add:\n    - route:\n          errno: -22\n", 0), 0U)
			<< r.err;
		EXPECT_NE(r.err.find(descr), std::string::npos) << r.err;
	}
	EXPECT_TRUE(k.routes.empty());
}

TEST(Commands, RouteAddUnreachableGateway)
{
	FakeKernel k = node();
	Result r = run_words(k, { "route", "add", "--net", "o2ib1", "--gateway", "10.1.1.1@tcp7" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - route:\n          errno: -113\n"
			 "          descr: \"cannot add route to o2ib1 via 10.1.1.1@tcp7: "
			 "No route to host\"\n");
}

TEST(Commands, RouteDelAndShow)
{
	FakeKernel k = node();
	run_words(k, { "route", "add", "--net", "o2ib1", "--gateway", "192.168.1.11@tcp" });
	run_words(k, { "route", "add", "--net", "tcp2", "--gateway", "192.168.1.11@tcp",
		       "--hop", "2" });
	Result r = run_words(k, { "route", "show", "--net", "tcp2", "-v" });
	EXPECT_EQ(r.out, "route:\n"
			 "    - net: tcp2\n"
			 "      gateway: 192.168.1.11@tcp\n"
			 "      hop: 2\n"
			 "      priority: 0\n"
			 "      health_sensitivity: 1\n"
			 "      state: up\n"
			 "      type: multi-hop\n");
	EXPECT_EQ(run_words(k, { "route", "del", "--net", "o2ib1", "--gateway",
				 "192.168.1.11@tcp" }).status, 0);
	EXPECT_EQ(k.routes.size(), 1U);
	r = run_words(k, { "route", "del", "--net", "o2ib1", "--gateway", "192.168.1.11@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("del:\n    - route:\n          errno: -2\n"), std::string::npos);
}

TEST(Commands, RoutingShowAndSet)
{
	FakeKernel k = node();
	Result r = run_words(k, { "routing", "show" });
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("    - enable: 0\n"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("buffers:\n    tiny: 0\n    small: 0\n    large: 0\n"),
		  std::string::npos) << r.out;

	ASSERT_EQ(run_words(k, { "set", "routing", "1" }).status, 0);
	EXPECT_TRUE(k.routing.enabled);
	r = run_words(k, { "routing", "show" });
	EXPECT_EQ(r.out, "routing:\n"
			 "    - cpt[0]:\n"
			 "          tiny:\n"
			 "              npages: 0\n"
			 "              nbuffers: 2048\n"
			 "              credits: 2048\n"
			 "              mincredits: 2048\n"
			 "          small:\n"
			 "              npages: 1\n"
			 "              nbuffers: 16384\n"
			 "              credits: 16384\n"
			 "              mincredits: 16384\n"
			 "          large:\n"
			 "              npages: 256\n"
			 "              nbuffers: 1024\n"
			 "              credits: 1024\n"
			 "              mincredits: 1024\n"
			 "    - enable: 1\n"
			 "buffers:\n"
			 "    tiny: 2048\n"
			 "    small: 16384\n"
			 "    large: 1024\n");
	ASSERT_EQ(run_words(k, { "set", "routing", "0" }).status, 0);
	EXPECT_FALSE(k.routing.enabled);

	r = run_words(k, { "set", "routing", "2" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("0 or 1"), std::string::npos) << r.err;
	k.fail["set_routing"] = ENOMEM;
	r = run_words(k, { "set", "routing", "1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot enable forwarding"), std::string::npos) << r.err;
}

TEST(Commands, ImportRouting)
{
	FakeKernel k = node();
	Outcome o = apply_config(k, "routing:\n    enable: 1\n", ImportMode::add);
	EXPECT_TRUE(o.ok());
	EXPECT_TRUE(k.routing.enabled);
	o = apply_config(k, "routing:\n    enable: 0\n", ImportMode::add);
	EXPECT_TRUE(o.ok());
	EXPECT_FALSE(k.routing.enabled);
}

TEST(Commands, SetBuffers)
{
	FakeKernel k = node();

	// not a router yet: the totals are for the pools made later
	ASSERT_EQ(run_words(k, { "set", "large_buffers", "64" }).status, 0);
	ASSERT_EQ(k.buffer_totals_set.size(), 1U);
	EXPECT_EQ(k.buffer_totals_set[0], (RouterBufferTotals{ 0, 0, 64 }));
	ASSERT_EQ(run_words(k, { "set", "routing", "1" }).status, 0);
	ASSERT_EQ(run_words(k, { "set", "tiny_buffers", "512" }).status, 0);
	EXPECT_EQ(k.buffer_totals_set.back(), (RouterBufferTotals{ 512, 0, 0 }));
	ASSERT_EQ(run_words(k, { "set", "small_buffers", "4096" }).status, 0);
	EXPECT_EQ(k.buffer_totals_set.back(), (RouterBufferTotals{ 0, 4096, 0 }));
	Result r = run_words(k, { "routing", "show" });
	EXPECT_NE(r.out.find("buffers:\n    tiny: 512\n    small: 4096\n"),
		  std::string::npos) << r.out;

	for (const char *bad : { "0", "-1", "many", "2147483648" }) {
		r = run_words(k, { "set", "small_buffers", bad });
		EXPECT_EQ(r.status, 1) << bad;
		EXPECT_NE(r.err.find("invalid value '" + std::string(bad) +
				     "' for small_buffers"),
			  std::string::npos) << r.err;
	}
	EXPECT_EQ(k.buffer_totals_set.size(), 3U);	// none reached the kernel
	k.fail["set_router_buffers"] = ENOMEM;
	r = run_words(k, { "set", "large_buffers", "100000" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot set large_buffers to 100000"), std::string::npos)
		<< r.err;
	EXPECT_NE(r.err.find("errno: -12"), std::string::npos) << r.err;
}

TEST(Commands, ImportBuffersBeforeRouting)
{
	FakeKernel k = node();
	Outcome o = apply_config(k,
				 "routing:\n    enable: 1\n"
				 "buffers:\n    tiny: 1024\n    small: 0\n    large: 128\n",
				 ImportMode::add);
	EXPECT_TRUE(o.ok());
	ASSERT_EQ(k.buffer_totals_set.size(), 1U);
	EXPECT_EQ(k.buffer_totals_set[0], (RouterBufferTotals{ 1024, 0, 128 }));
	auto set_buffers = std::find(k.calls.begin(), k.calls.end(), "set_router_buffers");
	auto set_routing = std::find(k.calls.begin(), k.calls.end(), "set_routing");
	EXPECT_LT(set_buffers, set_routing);
	EXPECT_TRUE(k.routing.enabled);

	// nothing applied from a file with a mistake in it
	FakeKernel k2 = node();
	o = apply_config(k2, "routing:\n    enable: 1\nbuffers:\n    huge: 1\n",
			 ImportMode::add);
	EXPECT_FALSE(o.ok());
	EXPECT_TRUE(k2.buffer_totals_set.empty());
	EXPECT_FALSE(k2.routing.enabled);
	o = apply_config(k2, "buffers:\n    large: -2\n", ImportMode::add);
	EXPECT_FALSE(o.ok());
	EXPECT_TRUE(k2.buffer_totals_set.empty());
}

TEST(Commands, PingMixedResults)
{
	FakeKernel k = node();
	PingReply reply;
	reply.primary_nid = peer_nid;
	reply.multi_rail = true;
	reply.ids = { { LNET_NID_LO_0, 12345 }, { peer_nid, 12345 } };
	k.ping_replies[peer_nid] = reply;

	Result r = run_words(k, { "ping", "192.168.1.11@tcp,192.168.1.99@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "ping:\n"
			 "    - primary nid: 192.168.1.11@tcp\n"
			 "      Multi-Rail: True\n"
			 "      peer ni:\n"
			 "        - nid: 192.168.1.11@tcp\n");
	EXPECT_EQ(r.err, "manage:\n"
			 "    - ping:\n"
			 "          errno: -110\n"
			 "          descr: \"failed to ping 192.168.1.99@tcp: "
			 "Connection timed out\"\n");
}

// The primary NID and Multi-Rail of the peer table, whichever NID is pinged.
TEST(Commands, PingSecondNidOfMultiRailPeer)
{
	FakeKernel k = mr_node();
	const lnet_nid_t second = lnet::parse_nid("10.0.0.11@tcp1").value();
	PingReply info = mr_node_ping_info();
	info.primary_nid = second;	// as the kernel would without a peer
	info.multi_rail = false;
	k.ping_replies[second] = info;
	ASSERT_EQ(add_two_nid_peer(k), 0);

	Result r = run_words(k, { "ping", "10.0.0.11@tcp1" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "ping:\n" + std::string(mr_node_item));
}

TEST(Commands, PingRequestFields)
{
	FakeKernel k = node();
	k.ping_replies[peer_nid] = PingReply{ peer_nid, false, {} };
	Result r = run_words(k, { "ping", "12345-192.168.1.11@tcp", "--timeout", "7",
			       "--source", "192.168.1.10@tcp" });
	EXPECT_EQ(r.status, 0) << r.err;
	ASSERT_EQ(k.pings.size(), 1U);
	EXPECT_EQ(k.pings[0].target.nid, peer_nid);
	EXPECT_EQ(k.pings[0].target.pid, 12345U);
	EXPECT_EQ(k.pings[0].timeout_ms, 7000);
	EXPECT_EQ(k.pings[0].source, eth0_nid);

	run_words(k, { "ping", "192.168.1.11@tcp" });
	EXPECT_EQ(k.pings[1].target.pid, LNET_PID_ANY);
	EXPECT_EQ(k.pings[1].timeout_ms, 1000);
	EXPECT_EQ(k.pings[1].source, LNET_NID_ANY);
}

TEST(Commands, PingBadInput)
{
	FakeKernel k = node();
	Result r = run_words(k, { "ping", "192.168.1.300@tcp" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "manage:\n    - ping:\n          errno: -22\n"
			 "          descr: invalid NID '192.168.1.300@tcp'\n");
	r = run_words(k, { "ping", "192.168.1.11@tcp", "--timeout", "0" });
	EXPECT_NE(r.err.find("timeout 0 is out of range 1..180"), std::string::npos);
	r = run_words(k, { "ping", "192.168.1.11@tcp", "--source", "x@y" });
	EXPECT_NE(r.err.find("invalid NID 'x@y'"), std::string::npos);
	EXPECT_TRUE(k.pings.empty());
}

TEST(Commands, StatsShowAndReset)
{
	FakeKernel k = node();
	k.counters[4] = 99;
	Result r = run_words(k, { "stats", "show" });
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out.rfind("statistics:\n    msgs_alloc: 0\n", 0), 0U);
	EXPECT_NE(r.out.find("    send_count: 99\n"), std::string::npos);
	EXPECT_EQ(run_words(k, { "stats", "reset" }).status, 0);
	EXPECT_EQ(k.counters[4], 0U);
	k.fail["get_stats"] = ENETDOWN;
	r = run_words(k, { "stats", "show" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err.rfind("show:\n    - statistics:\n          errno: -100\n", 0), 0U);
}

TEST(Commands, GlobalShow)
{
	FakeKernel k = node();
	k.params["lnet/lnet_peer_discovery_disabled"] = "1";
	Result r = run_words(k, { "global", "show" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "global:\n"
			 "    numa_range: 0\n"
			 "    max_interfaces: 4096\n"
			 "    discovery: 0\n"
			 "    drop_asym_route: 0\n"
			 "    retry_count: 2\n"
			 "    transaction_timeout: 150\n"
			 "    health_sensitivity: 100\n"
			 "    recovery_interval: 1\n"
			 "    router_sensitivity: 100\n"
			 "    lnd_timeout: 49\n"
			 "    response_tracking: 3\n"
			 "    recovery_limit: 0\n"
			 "    max_recovery_ping_interval: 900\n");
}

TEST(Commands, GlobalShowWithoutModule)
{
	FakeKernel k;
	k.params.clear();
	Result r = run_words(k, { "global", "show" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("is lnet.ko loaded?"), std::string::npos) << r.err;
}

TEST(Commands, SetWritesModuleParameter)
{
	FakeKernel k;
	EXPECT_EQ(run_words(k, { "set", "transaction_timeout", "30" }).status, 0);
	EXPECT_EQ(k.params["lnet/lnet_transaction_timeout"], "30");
	EXPECT_EQ(run_words(k, { "set", "router_sensitivity", "50" }).status, 0);
	EXPECT_EQ(k.params["lnet/router_sensitivity_percentage"], "50");
}

TEST(Commands, SetDiscoveryIsInverted)
{
	FakeKernel k;
	EXPECT_EQ(run_words(k, { "set", "discovery", "0" }).status, 0);
	EXPECT_EQ(k.params["lnet/lnet_peer_discovery_disabled"], "1");
	EXPECT_EQ(run_words(k, { "set", "discovery", "1" }).status, 0);
	EXPECT_EQ(k.params["lnet/lnet_peer_discovery_disabled"], "0");
}

TEST(Commands, SetBadValues)
{
	FakeKernel k;
	Result r = run_words(k, { "set", "discovery", "2" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - discovery:\n          errno: -22\n"
			 "          descr: discovery must be between 0 and 1\n");
	r = run_words(k, { "set", "retry_count", "two" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("invalid value 'two' for retry_count"), std::string::npos);
	r = run_words(k, { "set", "max_interfaces", "8" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(k.params["lnet/lnet_interfaces_max"], "4096");
}

TEST(Commands, SetMissingParameter)
{
	FakeKernel k;
	k.params.erase("lnet/lnet_recovery_limit");
	Result r = run_words(k, { "set", "recovery_limit", "60" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "add:\n    - recovery_limit:\n          errno: -2\n"
			 "          descr: \"cannot write /sys/module/lnet/lnet_recovery_limit: "
			 "no such parameter\"\n");
}

}  // namespace
}  // namespace lnetctl
