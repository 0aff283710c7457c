// SPDX-License-Identifier: GPL-2.0
//
// The real kernel: /dev/lnet.
#include <sys/stat.h>

#include "devlnet.hpp"

namespace lst {

int DevLnet::lnetst(std::span<std::byte> buf)
{
	return dev_.try_ioctl(LNET_IOC_LNETST, buf.data());
}

bool DevLnet::selftest_loaded()
{
	struct stat st;

	return ::stat("/sys/module/lnet_selftest", &st) == 0;
}

}  // namespace lst
