// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "fake_kernel.hpp"

using namespace lst;

TEST(Request, HeaderAndLength)
{
	Request r(LSTIO_BATCH_QUERY, sizeof(lstio_batch), 0, sizeof(lstio_node_rpc), 4);
	EXPECT_EQ(r.hdr().lh_ioc.ioc_len, 88u + 4 * 64);
	EXPECT_EQ(r.hdr().lh_ioc.ioc_version, LNET_IOCTL_VERSION2);
	EXPECT_EQ(r.hdr().lh_opc, (unsigned)LSTIO_BATCH_QUERY);
	EXPECT_EQ(r.hdr().lh_nres_max, 4u);
	EXPECT_EQ(r.records_offset(), 88u);
	EXPECT_EQ(r.bytes().size(), 88u + 256);
}

TEST(Request, NidsThenRecords)
{
	Request r(LSTIO_GROUP_ADD, sizeof(lstio_group), 3, sizeof(lstio_node_rpc), 3);
	EXPECT_EQ(r.records_offset(), 80u + 24);
	EXPECT_EQ(r.hdr().lh_ioc.ioc_len, 104u + 192);
}

TEST(Request, RecordsAreClampedToRoom)
{
	Request r(LSTIO_GROUP_INFO, sizeof(lstio_group), 0, sizeof(lstio_node_rpc), 2);
	test::put_records(r.bytes(), r.records_offset(),
			  std::vector<lstio_node_rpc>{test::node(1), test::node(2), test::node(3)});
	EXPECT_EQ(r.available(), 3u);
	auto recs = r.records<lstio_node_rpc>();
	ASSERT_EQ(recs.size(), 2u);
	EXPECT_EQ(recs[1].nr_nid, 2u);
}

TEST(Request, CopiesKeepTheirBytes)
{
	Request a(LSTIO_SESSION_INFO, sizeof(lstio_session_info), 0, 0, 0);
	a.as<lstio_session_info>().si_timeout = 77;
	Request b = a;
	a.as<lstio_session_info>().si_timeout = 1;
	EXPECT_EQ(b.as<lstio_session_info>().si_timeout, 77u);
}

TEST(Request, NamesAreTruncatedAndTerminated)
{
	char n[LST_NAME_SIZE];
	set_name(n, std::string(40, 'x'));
	EXPECT_EQ(get_name(n).size(), 31u);
	set_name(n, "abc");
	EXPECT_EQ(get_name(n), "abc");
}

TEST(Request, EveryCommandFitsTheIoctlLimit)
{
	// what the verbs allocate must pass the kernel's ioc_len check
	lst::test::Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		return lst::test::hdr_of(b).lh_ioc.ioc_len > LNET_IOCTL_MAX_LEN ? EINVAL : 0;
	};
	EXPECT_EQ(h.run({"add_test", "--from", "c", "--to", "s", "ping"}), 0) << h.err.str();
	EXPECT_EQ(h.run({"run", "b"}), 0) << h.err.str();
	EXPECT_EQ(h.run({"stat", "--count", "1", "g"}), 0) << h.err.str();
	EXPECT_EQ(h.run({"add_group", "g", "10.0.[0-3].[0-255]@tcp"}), 0) << h.err.str();
	EXPECT_EQ(h.run({"ping", "g"}), 0) << h.err.str();
}
