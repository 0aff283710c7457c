// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

#include <linux/lnet/lnet-ioctl.h>

#include "oracle.hpp"

using namespace ioctlfuzz;

namespace {

Case make(unsigned long cmd, std::uint32_t len, std::uint32_t version, std::size_t bytes)
{
	Case k;
	k.cmd = cmd;
	k.arg.assign(std::max<std::size_t>(bytes, 8), 0);
	std::memcpy(k.arg.data(), &len, 4);
	std::memcpy(k.arg.data() + 4, &version, 4);
	k.mapped = bytes;
	return k;
}

const std::uint32_t stats = sizeof(lnet_ioctl_lnet_stats);

}  // namespace

TEST(Oracle, CommandNumbers)
{
	const Case bad_type = make(_IOWR('f', 91, long), stats, LNET_IOCTL_VERSION2, stats);
	EXPECT_EQ(expect(bad_type, true).exact, EINVAL);
	const Case low = make(LNET_IOC_GRP1(29), 8, LNET_IOCTL_VERSION2, 8);
	EXPECT_EQ(expect(low, false).exact, EINVAL);	// before the permission check
}

TEST(Oracle, Permission)
{
	const Case reset = make(LNET_IOC_RESET_LNET_STATS, 8, LNET_IOCTL_VERSION2, 8);
	EXPECT_EQ(expect(reset, false).exact, EACCES);
	const Case unknown = make(LNET_IOC_GET_PEER_LIST, 8, LNET_IOCTL_VERSION2, 0);
	EXPECT_EQ(expect(unknown, false).exact, EACCES);	// before the header is read
	const Case get = make(LNET_IOC_GET_LNET_STATS, stats, LNET_IOCTL_VERSION2, stats);
	EXPECT_FALSE(expect(get, false).exact.has_value());
	EXPECT_FALSE(expect(get, false).refused);
}

TEST(Oracle, Header)
{
	Case k = make(LNET_IOC_GET_LNET_STATS, stats, LNET_IOCTL_VERSION2, stats);
	k.mapped = 4;
	EXPECT_EQ(expect(k, true).exact, EFAULT);
	EXPECT_EQ(expect(make(LNET_IOC_GET_LNET_STATS, stats - 1, LNET_IOCTL_VERSION2, stats), true)
			  .exact,
		  EINVAL);
	EXPECT_EQ(expect(make(LNET_IOC_GET_LNET_STATS, stats, LNET_IOCTL_VERSION, stats), true).exact,
		  EINVAL);
	EXPECT_EQ(expect(make(LNET_IOC_GET_LNET_STATS, LNET_IOCTL_MAX_LEN + 1, LNET_IOCTL_VERSION2,
			      stats),
			 true)
			  .exact,
		  EINVAL);
	// a length the buffer does not have: the copy faults
	EXPECT_EQ(expect(make(LNET_IOC_GET_LNET_STATS, 4096, LNET_IOCTL_VERSION2, stats), true).exact,
		  EFAULT);
	// a command no module takes: either version, any length in range
	EXPECT_FALSE(expect(make(LNET_IOC_GET_INTERFACE, 128, LNET_IOCTL_VERSION2, 128), true)
			     .exact.has_value());
	EXPECT_EQ(expect(make(LNET_IOC_GET_INTERFACE, 128, 7, 128), true).exact, EINVAL);
}

// GET_PEER / GET_CONN: the generic block or EINVAL; then an LND's answers.
TEST(Oracle, LndListing)
{
	const Case v2 = make(LNET_IOC_GET_CONN, 128, LNET_IOCTL_VERSION2, 128);
	Expectation wrong_version = expect(v2, true);
	EXPECT_EQ(judge(v2, wrong_version, EINVAL), "");
	EXPECT_NE(judge(v2, wrong_version, 0), "");
	EXPECT_NE(judge(v2, wrong_version, ENOMEM), "");
	// the LND checks the version after lnet.ko's copy of the argument
	wrong_version.enomem_ok = true;
	EXPECT_EQ(judge(v2, wrong_version, ENOMEM), "");
	EXPECT_EQ(expect(v2, false).exact, EACCES);
	const Case v1 = make(LNET_IOC_GET_PEER, 128, LNET_IOCTL_VERSION, 128);
	const Expectation e = expect(v1, true);
	EXPECT_FALSE(e.exact.has_value());
	EXPECT_EQ(judge(v1, e, 0), "");
	EXPECT_EQ(judge(v1, e, ENOENT), "");
	EXPECT_EQ(judge(v1, e, ENETDOWN), "");
	EXPECT_EQ(judge(v1, e, EINVAL), "");
	EXPECT_NE(judge(v1, e, EPERM), "");
	EXPECT_NE(judge(v1, e, 515), "");	// ENOIOCTLCMD leaked
}

TEST(Oracle, Judge)
{
	const Case k = make(LNET_IOC_GET_LNET_STATS, stats, LNET_IOCTL_VERSION2, stats);
	Expectation free_form;
	EXPECT_EQ(judge(k, free_form, 0), "");
	EXPECT_EQ(judge(k, free_form, ENETDOWN), "");
	EXPECT_NE(judge(k, free_form, 515), "");	// ENOIOCTLCMD leaked
	EXPECT_NE(judge(k, free_form, ENOTTY), "");
	Expectation exact;
	exact.exact = EINVAL;
	EXPECT_EQ(judge(k, exact, EINVAL), "");
	EXPECT_NE(judge(k, exact, 0), "");
	Expectation refused;
	refused.refused = true;
	EXPECT_NE(judge(k, refused, 0), "");
}

TEST(Oracle, EnomemWhileFailingAllocations)
{
	const Case k = make(LNET_IOC_GET_LNET_STATS, 4096, LNET_IOCTL_VERSION2, stats);
	Expectation e = expect(k, true);	// EFAULT: the copy runs past the buffer
	EXPECT_NE(judge(k, e, ENOMEM), "");
	e.enomem_ok = true;
	EXPECT_EQ(judge(k, e, ENOMEM), "");	// the copy's allocation failed first
	Expectation refused;
	refused.exact = EACCES;
	refused.enomem_ok = true;
	EXPECT_NE(judge(k, refused, ENOMEM), "");	// decided before any allocation
}
