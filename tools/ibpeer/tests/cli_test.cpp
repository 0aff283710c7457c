// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "cli.hpp"

namespace ibpeer {
namespace {

ParseResult parse(std::vector<std::string> args)
{
	return parse_args(args);
}

TEST(IbCli, Ping)
{
	const auto r = parse({"ping", "--count", "0x10", "192.168.1.2", "192.168.1.1"});
	ASSERT_TRUE(r.command) << r.error;
	EXPECT_EQ(r.command->mode, Command::Mode::ping);
	EXPECT_EQ(r.command->count, 16U);
	const auto &id = r.command->opt.id;
	EXPECT_EQ(id.target_nid, 0x00050000C0A80102ULL);
	EXPECT_EQ(id.my_nid, 0x00050000C0A80101ULL);
	EXPECT_EQ(id.target_ip, 0xC0A80102U);
	EXPECT_EQ(id.port, 987);
	EXPECT_EQ(id.queue_depth, 8);
	EXPECT_NE(id.my_stamp, 0U);
}

TEST(IbCli, Subcommands)
{
	auto r = parse({"stale-rkey", "--portal", "43", "--sink-match", "0x200", "10.0.0.2",
			"10.0.0.1"});
	ASSERT_TRUE(r.command) << r.error;
	EXPECT_EQ(r.command->mode, Command::Mode::stale_rkey);
	EXPECT_EQ(r.command->opt.portal, 43U);
	EXPECT_EQ(r.command->opt.sink_match, 0x200U);

	r = parse({"connreq-flood", "--nids", "20", "--same", "5", "--net", "2", "10.0.0.2",
		   "10.0.0.1"});
	ASSERT_TRUE(r.command) << r.error;
	EXPECT_EQ(r.command->mode, Command::Mode::connreq_flood);
	EXPECT_EQ(r.command->opt.flood_nids, 20U);
	EXPECT_EQ(r.command->opt.flood_same, 5U);
	EXPECT_EQ(r.command->opt.id.my_nid, 0x000500020A000001ULL);

	r = parse({"bad-desc", "10.0.0.2", "10.0.0.1"});
	ASSERT_TRUE(r.command) << r.error;
	EXPECT_EQ(r.command->mode, Command::Mode::bad_desc);
}

TEST(IbCli, Errors)
{
	EXPECT_FALSE(parse({}).command);
	EXPECT_FALSE(parse({"nonsense", "10.0.0.2", "10.0.0.1"}).command);
	EXPECT_FALSE(parse({"ping", "10.0.0.2"}).command);
	EXPECT_FALSE(parse({"ping", "10.0.0.300", "10.0.0.1"}).command);
	EXPECT_FALSE(parse({"ping", "--count", "x", "10.0.0.2", "10.0.0.1"}).command);
	EXPECT_FALSE(parse({"ping", "--queue-depth", "0", "10.0.0.2", "10.0.0.1"}).command);
	EXPECT_FALSE(parse({"stale-rkey", "--put-size", "100", "10.0.0.2", "10.0.0.1"}).command);
	EXPECT_NE(usage().find("connreq-flood"), std::string::npos);
}

}  // namespace
}  // namespace ibpeer
