// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "fake_kernel.hpp"

using namespace lst;

static NidList ex(std::vector<std::string> a)
{
	return expand_nids(a);
}

TEST(Nids, PlainNid)
{
	auto r = ex({"192.0.2.1@tcp"});
	ASSERT_TRUE(r.error.empty()) << r.error;
	ASSERT_EQ(r.nids.size(), 1u);
	EXPECT_EQ(r.nids[0], test::nid_a);
}

TEST(Nids, RangeInLastField)
{
	auto r = ex({"192.0.2.[1-3]@tcp"});
	ASSERT_TRUE(r.error.empty()) << r.error;
	ASSERT_EQ(r.nids.size(), 3u);
	EXPECT_EQ(r.nids[0], test::nid_a);
	EXPECT_EQ(r.nids[2], test::nid_a + 2);
}

TEST(Nids, ListAndRangesKeepOrder)
{
	auto r = ex({"10.0.0.[1,3,7-9]@o2ib"});
	ASSERT_TRUE(r.error.empty()) << r.error;
	ASSERT_EQ(r.nids.size(), 5u);
	EXPECT_EQ(r.nids[1] & 0xff, 3u);
	EXPECT_EQ(r.nids[4] & 0xff, 9u);
	EXPECT_EQ(LNET_NETTYP(LNET_NIDNET(r.nids[0])), (unsigned)LNET_LND_O2IB);
}

TEST(Nids, RangesInTwoFieldsMultiply)
{
	auto r = ex({"10.0.[1-2].[1-3]@tcp"});
	ASSERT_TRUE(r.error.empty()) << r.error;
	EXPECT_EQ(r.nids.size(), 6u);
	EXPECT_EQ(r.nids[3], LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0), 0x0A000201U));
}

TEST(Nids, SeveralArguments)
{
	auto r = ex({"192.0.2.1@tcp", "192.0.2.2@tcp"});
	ASSERT_EQ(r.nids.size(), 2u);
	EXPECT_EQ(r.nids[1], test::nid_b);
}

TEST(Nids, ReversedRangeIsAnError)
{
	auto r = ex({"192.0.2.[5-2]@tcp"});
	EXPECT_FALSE(r.error.empty());
	EXPECT_TRUE(r.nids.empty());
}

TEST(Nids, UnclosedBracketIsAnError)
{
	EXPECT_FALSE(ex({"192.0.2.[1-3@tcp"}).error.empty());
	EXPECT_FALSE(ex({"192.0.2.1-3]@tcp"}).error.empty());
	EXPECT_FALSE(ex({"192.0.2.[]@tcp"}).error.empty());
	EXPECT_FALSE(ex({"192.0.2.[a-b]@tcp"}).error.empty());
}

TEST(Nids, BadNidIsNamed)
{
	auto r = ex({"not-a-nid@@"});
	ASSERT_FALSE(r.error.empty());
	EXPECT_NE(r.error.find("not-a-nid"), std::string::npos);
}

TEST(Nids, OctetOutOfRangeIsRefused)
{
	EXPECT_FALSE(ex({"192.0.2.[250-260]@tcp"}).error.empty());
}

TEST(Nids, LimitOfNodes)
{
	EXPECT_TRUE(ex({"10.0.[0-3].[0-255]@tcp"}).error.empty());
	auto r = ex({"10.0.[0-4].[0-255]@tcp"});
	EXPECT_FALSE(r.error.empty());
	EXPECT_NE(r.error.find("1024"), std::string::npos);
}

TEST(Nids, NodeName)
{
	EXPECT_EQ(node_name(test::nid_a), "12345-192.0.2.1@tcp");
}
