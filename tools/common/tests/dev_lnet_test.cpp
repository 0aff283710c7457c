// SPDX-License-Identifier: GPL-2.0
// LnetDevice without LNet: a missing device, and a device that is not
// /dev/lnet (/dev/null: every ioctl fails with ENOTTY).
#include <gtest/gtest.h>

#include <cerrno>

#include "lnet/dev_lnet.hpp"

namespace lnet {
namespace {

constexpr unsigned long some_ioctl = 0x4004e001;	// _IOW('e', 1, int)

TEST(LnetDevice, DefaultPath)
{
	EXPECT_EQ(LnetDevice().path(), "/dev/lnet");
}

TEST(LnetDevice, MissingDeviceSaysWhy)
{
	LnetDevice dev("/nonexistent/lnet");
	int arg = 0;

	try {
		dev.try_ioctl(some_ioctl, &arg);
		FAIL() << "no error";
	} catch (const DevLnetError &e) {
		EXPECT_EQ(e.error(), ENOENT);
		EXPECT_TRUE(e.open_failed());
		EXPECT_STREQ(e.what(), "cannot open /nonexistent/lnet: No such file or "
				       "directory (is lnet.ko loaded?)");
	}
	EXPECT_FALSE(dev.is_open());
}

TEST(LnetDevice, OpensOnceAndReturnsIoctlErrno)
{
	LnetDevice dev("/dev/null");
	int arg = 0;

	EXPECT_FALSE(dev.is_open());
	EXPECT_EQ(dev.try_ioctl(some_ioctl, &arg), ENOTTY);
	EXPECT_TRUE(dev.is_open());
	dev.open();	// already open: nothing happens
	EXPECT_EQ(dev.try_ioctl(some_ioctl, &arg), ENOTTY);
}

TEST(LnetDevice, IoctlThrowsTheErrno)
{
	LnetDevice dev("/dev/null");
	int arg = 0;

	try {
		dev.ioctl(some_ioctl, &arg);
		FAIL() << "no error";
	} catch (const DevLnetError &e) {
		EXPECT_EQ(e.error(), ENOTTY);
		EXPECT_FALSE(e.open_failed());
		EXPECT_STREQ(e.what(), "Inappropriate ioctl for device");
	}
}

TEST(LnetDevice, ErrorTexts)
{
	EXPECT_EQ(open_error_text("/dev/lnet", EACCES),
		  "cannot open /dev/lnet: Permission denied (run as root)");
	EXPECT_EQ(open_error_text("/dev/lnet", EBUSY),
		  "cannot open /dev/lnet: Device or resource busy");
	EXPECT_EQ(ioctl_error_text(EPERM),
		  "Operation not permitted (changes need CAP_NET_ADMIN: run as root)");
	EXPECT_NE(ioctl_error_text(ENETDOWN).find("lnetctl lnet configure"),
		  std::string::npos);
	EXPECT_EQ(ioctl_error_text(EEXIST), "File exists");
}

}  // namespace
}  // namespace lnet
