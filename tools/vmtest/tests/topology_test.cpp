// SPDX-License-Identifier: GPL-2.0
#include "topology.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vmtest {
namespace {

TEST(Topology, ParseLink)
{
	EXPECT_EQ(parse_link("0-1", 2), (Link{0, 1}));
	EXPECT_EQ(parse_link("2-0", 3), (Link{0, 2})); // the lower index listens
	EXPECT_THROW(parse_link("0-2", 2), std::invalid_argument);
	EXPECT_THROW(parse_link("1-1", 2), std::invalid_argument);
	EXPECT_THROW(parse_link("01", 2), std::invalid_argument);
	EXPECT_THROW(parse_link("a-b", 2), std::invalid_argument);
	EXPECT_THROW(parse_link("-1-0", 2), std::invalid_argument);
	EXPECT_THROW(parse_link("0-1x", 2), std::invalid_argument);
}

TEST(Topology, DefaultChain)
{
	EXPECT_TRUE(default_links(1).empty());
	EXPECT_EQ(default_links(3), (std::vector<Link>{{0, 1}, {1, 2}}));
}

TEST(Topology, Networks)
{
	EXPECT_EQ(link_network(0), "192.0.2");
	EXPECT_EQ(link_network(1), "198.51.100");
	EXPECT_EQ(link_network(2), "203.0.113");
	EXPECT_EQ(link_network(3), "10.99.3");
	EXPECT_EQ(link_network(17), "10.99.17");
}

TEST(Topology, ChainOfThree)
{
	auto plans = plan_guests(3, default_links(3));
	ASSERT_EQ(plans.size(), 3u);

	ASSERT_EQ(plans[0].nics.size(), 1u);
	EXPECT_EQ(plans[0].nics[0].ifname, "eth0");
	EXPECT_EQ(plans[0].nics[0].address, "192.0.2.1");
	EXPECT_TRUE(plans[0].nics[0].listens);
	ASSERT_EQ(plans[0].peers.size(), 1u);
	EXPECT_EQ(plans[0].peers[0].guest, 1);
	EXPECT_EQ(plans[0].peers[0].address, "192.0.2.2");

	ASSERT_EQ(plans[1].nics.size(), 2u);
	EXPECT_EQ(plans[1].nics[0].ifname, "eth0");
	EXPECT_EQ(plans[1].nics[0].address, "192.0.2.2");
	EXPECT_FALSE(plans[1].nics[0].listens);
	EXPECT_EQ(plans[1].nics[1].ifname, "eth1");
	EXPECT_EQ(plans[1].nics[1].address, "198.51.100.2");
	EXPECT_EQ(plans[1].nics[1].mac, "52:54:00:00:01:01");
	EXPECT_TRUE(plans[1].nics[1].listens);
	ASSERT_EQ(plans[1].peers.size(), 2u);
	EXPECT_EQ(plans[1].peers[0].address, "192.0.2.1");
	EXPECT_EQ(plans[1].peers[1].address, "198.51.100.3");

	ASSERT_EQ(plans[2].nics.size(), 1u);
	EXPECT_EQ(plans[2].nics[0].ifname, "eth0");
	EXPECT_EQ(plans[2].nics[0].address, "198.51.100.3");
	EXPECT_EQ(plans[2].nics[0].mac, "52:54:00:00:01:02");
}

TEST(Topology, ShellQuote)
{
	EXPECT_EQ(shell_quote(""), "''");
	EXPECT_EQ(shell_quote("a b"), "'a b'");
	EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

TEST(Topology, RenderEnv)
{
	auto plans = plan_guests(2, default_links(2));
	std::vector<std::string> args{"--count", "3"};
	std::vector<std::string> extra{"LUSTRE_DIR=/c/lustre x", "EMPTY="};
	RunEnv run{
		.guest_count = 2,
		.script = "/w/tests/scenarios/smoke.sh",
		.args = args,
		.kernel = "stock",
		.top = "/w",
		.moddir = "/w/build/stock",
		.control = "/dev/ttyS1",
		.cache = "/c",
		.extra_env = extra,
	};
	EXPECT_EQ(render_env(plans[1], run),
		  "# Written by lnet-vmtest for g1; sourced by its init.\n"
		  "GUEST_INDEX='1'\n"
		  "GUEST_NAME='g1'\n"
		  "GUEST_COUNT='2'\n"
		  "GUEST_ADDRS='eth0=192.0.2.2/24'\n"
		  "GUEST_PEERS='g0=192.0.2.1'\n"
		  "GUEST_SCRIPT='/w/tests/scenarios/smoke.sh'\n"
		  "GUEST_ARGS='--count 3'\n"
		  "GUEST_KERNEL='stock'\n"
		  "LNET_TOP='/w'\n"
		  "LNET_MODDIR='/w/build/stock'\n"
		  "GUEST_CONTROL='/dev/ttyS1'\n"
		  "LNET_CACHE='/c'\n"
		  "LUSTRE_DIR='/c/lustre x'\n"
		  "EMPTY=''\n");
}

TEST(Topology, HostPathsWithoutNestedOnes)
{
	const std::vector<std::filesystem::path> paths{"/root/t", "/root/t/tests/scenarios",
						       "/root/t/build/stock", "/root/.cache/lnet-dev/",
						       "/root/shared", "/root/t", "/root/tx"};
	EXPECT_EQ(render_host_paths(paths),
		  "/root/t\n/root/.cache/lnet-dev\n/root/shared\n/root/tx\n");
}

TEST(Topology, RenderEnvLonelyGuest)
{
	auto plans = plan_guests(1, {});
	RunEnv run{.guest_count = 1, .script = "/s", .kernel = "debug", .top = "/w",
		   .moddir = "/w/build/debug"};
	auto env = render_env(plans[0], run);
	EXPECT_NE(env.find("GUEST_ADDRS=''\n"), std::string::npos);
	EXPECT_NE(env.find("GUEST_PEERS=''\n"), std::string::npos);
	EXPECT_NE(env.find("GUEST_ARGS=''\n"), std::string::npos);
	EXPECT_NE(env.find("GUEST_KERNEL='debug'\n"), std::string::npos);
}

} // namespace
} // namespace vmtest
