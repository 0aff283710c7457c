// SPDX-License-Identifier: GPL-2.0
// DevLnet without a kernel: missing device, a non-LNet device, and module
// parameters in a fake /sys/module tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "cli.hpp"
#include "devlnet.hpp"

namespace lnetctl {
namespace {

namespace fs = std::filesystem;

class SysfsDir : public ::testing::Test {
protected:
	void SetUp() override
	{
		root = fs::temp_directory_path() /
		       ("lnetctl-sysfs-" + std::to_string(::getpid()));
		fs::create_directories(root / "lnet" / "parameters");
		std::ofstream(root / "lnet" / "parameters" / "lnet_retry_count") << "2\n";
	}
	void TearDown() override { fs::remove_all(root); }

	fs::path root;
};

TEST(DevLnet, MissingDeviceNamesTheCause)
{
	DevLnet k("/nonexistent/lnet");
	try {
		k.configure(false, false);
		FAIL() << "no error";
	} catch (const KernelError &e) {
		EXPECT_EQ(e.error(), ENOENT);
		EXPECT_TRUE(e.standalone());
		EXPECT_STREQ(e.what(), "cannot open /nonexistent/lnet: No such file or "
				       "directory (is lnet.ko loaded?)");
	}
}

TEST(DevLnet, MissingDeviceThroughTheCommandLine)
{
	DevLnet k("/nonexistent/lnet");
	std::ostringstream out, err;
	int status = run(std::vector<std::string>{ "route", "show" }, k, out, err);
	EXPECT_EQ(status, 1);
	EXPECT_EQ(out.str(), "");
	EXPECT_EQ(err.str(), "show:\n    - route:\n          errno: -2\n"
			     "          descr: \"cannot open /nonexistent/lnet: No such file "
			     "or directory (is lnet.ko loaded?)\"\n");
}

TEST(DevLnet, WrongDeviceReportsIoctlError)
{
	DevLnet k("/dev/null");
	try {
		k.get_stats();
		FAIL() << "no error";
	} catch (const KernelError &e) {
		EXPECT_EQ(e.error(), ENOTTY);
		EXPECT_FALSE(e.standalone());
	}
}

TEST_F(SysfsDir, ReadParam)
{
	DevLnet k("/nonexistent/lnet", root.string());
	EXPECT_EQ(k.read_param("lnet", "lnet_retry_count"), "2");
	EXPECT_EQ(k.read_param("lnet", "lnet_numa_range"), std::nullopt);
	EXPECT_EQ(k.read_param("ksocklnd", "sock_timeout"), std::nullopt);
}

TEST_F(SysfsDir, WriteParam)
{
	DevLnet k("/nonexistent/lnet", root.string());
	k.write_param("lnet", "lnet_retry_count", "5");
	EXPECT_EQ(k.read_param("lnet", "lnet_retry_count"), "5");

	try {
		k.write_param("lnet", "lnet_numa_range", "1");
		FAIL() << "no error";
	} catch (const KernelError &e) {
		EXPECT_EQ(e.error(), ENOENT);
		EXPECT_NE(std::string(e.what()).find("this lnet.ko has no such parameter"),
			  std::string::npos) << e.what();
	}
	try {
		k.write_param("ko2iblnd", "timeout", "1");
		FAIL() << "no error";
	} catch (const KernelError &e) {
		EXPECT_NE(std::string(e.what()).find("(is ko2iblnd.ko loaded?)"),
			  std::string::npos) << e.what();
	}
}

TEST_F(SysfsDir, GlobalShowOmitsMissingParameters)
{
	DevLnet k("/nonexistent/lnet", root.string());
	std::ostringstream out, err;
	EXPECT_EQ(run(std::vector<std::string>{ "global", "show" }, k, out, err), 0);
	EXPECT_EQ(out.str(), "global:\n    retry_count: 2\n");
}

// discovery is a real setting now: set writes the inverted parameter,
// global show reads it back.
TEST_F(SysfsDir, SetDiscoveryWritesInvertedParameter)
{
	std::ofstream(root / "lnet" / "parameters" / "lnet_peer_discovery_disabled") << "0\n";
	DevLnet k("/nonexistent/lnet", root.string());
	std::ostringstream out, err;

	EXPECT_EQ(run(std::vector<std::string>{ "set", "discovery", "0" }, k, out, err), 0)
		<< err.str();
	EXPECT_EQ(k.read_param("lnet", "lnet_peer_discovery_disabled"), "1");
	EXPECT_EQ(run(std::vector<std::string>{ "global", "show" }, k, out, err), 0);
	EXPECT_EQ(out.str(), "global:\n    discovery: 0\n    retry_count: 2\n");
	out.str("");
	EXPECT_EQ(run(std::vector<std::string>{ "set", "discovery", "1" }, k, out, err), 0);
	EXPECT_EQ(k.read_param("lnet", "lnet_peer_discovery_disabled"), "0");
}

}  // namespace
}  // namespace lnetctl
