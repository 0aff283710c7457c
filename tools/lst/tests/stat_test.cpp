// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <sstream>

#include "fake_kernel.hpp"

using namespace lst;

static lstio_node_stat st(lnet_nid_t nid, std::uint32_t ms, std::uint32_t sends,
			  std::uint32_t recvs, std::uint64_t sent_b, std::uint64_t recv_b)
{
	lstio_node_stat s{};
	s.ns_rpc = test::node(nid);
	s.ns_running_ms = ms;
	s.ns_send_count = sends;
	s.ns_recv_count = recvs;
	s.ns_send_length = sent_b;
	s.ns_recv_length = recv_b;
	return s;
}

constexpr std::uint64_t MiB = 1 << 20;

TEST(Stat, OneNodeRatesAndBandwidth)
{
	std::vector<lstio_node_stat> b{st(1, 1000, 100, 50, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 3000, 300, 250, 20 * MiB, 4 * MiB)};
	auto s = summarize("g", b, a, 9999);
	EXPECT_EQ(s.answered, 1u);
	EXPECT_DOUBLE_EQ(s.w_rpc.avg, 100.0);
	EXPECT_DOUBLE_EQ(s.r_rpc.avg, 100.0);
	EXPECT_DOUBLE_EQ(s.w_mib.avg, 10.0);
	EXPECT_DOUBLE_EQ(s.r_mib.avg, 2.0);
}

TEST(Stat, MinAvgMaxOverNodes)
{
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0), st(2, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 10, 0, 0, 0), st(2, 1000, 30, 0, 0, 0)};
	auto s = summarize("g", b, a, 1000);
	EXPECT_DOUBLE_EQ(s.w_rpc.min, 10);
	EXPECT_DOUBLE_EQ(s.w_rpc.max, 30);
	EXPECT_DOUBLE_EQ(s.w_rpc.avg, 20);
}

TEST(Stat, NodesThatDidNotAnswerAreLeftOut)
{
	auto down = st(2, 1000, 999, 0, 0, 0);
	down.ns_rpc.nr_rpc_errno = -ETIMEDOUT;
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0), st(2, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 10, 0, 0, 0), down};
	auto s = summarize("g", b, a, 1000);
	EXPECT_EQ(s.nodes, 2u);
	EXPECT_EQ(s.answered, 1u);
	EXPECT_DOUBLE_EQ(s.w_rpc.max, 10);
	std::ostringstream o;
	print_table(o, s, StatShow::both);
	EXPECT_NE(o.str().find("1 node did not answer"), std::string::npos);
}

TEST(Stat, WallClockWhenTheNodeClockStands)
{
	std::vector<lstio_node_stat> b{st(1, 500, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 500, 20, 0, 0, 0)};
	EXPECT_DOUBLE_EQ(summarize("g", b, a, 2000).w_rpc.avg, 10);
}

TEST(Stat, CountersGoingBackCountZero)
{
	std::vector<lstio_node_stat> b{st(1, 0, 100, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 50, 0, 0, 0)};
	EXPECT_DOUBLE_EQ(summarize("g", b, a, 1000).w_rpc.avg, 0);
}

TEST(Stat, ErrorDeltasAreSummed)
{
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0), st(2, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 0, 0, 0, 0), st(2, 1000, 0, 0, 0, 0)};
	b[0].ns_brw_errors = 2;
	a[0].ns_brw_errors = 5;
	a[1].ns_ping_errors = 1;
	a[1].ns_rpc_errors = 4;
	auto s = summarize("g", b, a, 1000);
	EXPECT_EQ(s.brw_errors, 3u);
	EXPECT_EQ(s.ping_errors, 1u);
	EXPECT_EQ(s.rpc_errors, 4u);
}

TEST(Stat, TableShapes)
{
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 2264, 2264, 0, 1187135)};
	auto s = summarize("servers", b, a, 1000);
	std::ostringstream both, bw, rate;
	print_table(both, s, StatShow::both);
	print_table(bw, s, StatShow::bw);
	print_table(rate, s, StatShow::rate);
	EXPECT_NE(both.str().find("[LNet Rates of servers]\n[R] Avg: 2264     RPC/s Min: 2264     RPC/s Max: 2264     RPC/s\n"),
		  std::string::npos) << both.str();
	EXPECT_NE(both.str().find("[LNet Bandwidth of servers]\n[R] Avg: 1.13     MiB/s"), std::string::npos)
		<< both.str();
	EXPECT_EQ(bw.str().find("Rates"), std::string::npos);
	EXPECT_NE(bw.str().find("Bandwidth"), std::string::npos);
	EXPECT_NE(rate.str().find("Rates"), std::string::npos);
	EXPECT_EQ(rate.str().find("Bandwidth"), std::string::npos);
}

TEST(Stat, CsvHasAColumnPerHeaderField)
{
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 10, 20, MiB, 2 * MiB)};
	auto row = csv_row(3, summarize("clients", b, a, 1000));
	auto count = [](const std::string &s) { return std::count(s.begin(), s.end(), ','); };
	EXPECT_EQ(count(row), count(csv_header()));
	EXPECT_EQ(row.rfind("3,clients,1,1,20,20,20,10,10,10,2.00,2.00,2.00,1.00,1.00,1.00,0,0,0", 0), 0u)
		<< row;
}

TEST(Stat, JsonRow)
{
	std::vector<lstio_node_stat> b{st(1, 0, 0, 0, 0, 0)};
	std::vector<lstio_node_stat> a{st(1, 1000, 10, 0, 0, 0)};
	auto j = json_row(1, summarize("a\"b", b, a, 1000));
	EXPECT_EQ(j.front(), '{');
	EXPECT_EQ(j.back(), '}');
	EXPECT_NE(j.find("\"target\":\"a\\\"b\""), std::string::npos) << j;
	EXPECT_NE(j.find("\"w_rpc_avg\":10,"), std::string::npos) << j;
	EXPECT_NE(j.find("\"answered\":1"), std::string::npos) << j;
}
