// SPDX-License-Identifier: GPL-2.0
//
// The real kernel: /dev/lnet.
#include <cerrno>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devlnet.hpp"

namespace lst {

DevLnet::~DevLnet()
{
	if (fd_ >= 0)
		::close(fd_);
}

int DevLnet::lnetst(std::span<std::byte> buf)
{
	if (fd_ < 0) {
		fd_ = ::open(device_.c_str(), O_RDWR | O_CLOEXEC);
		if (fd_ < 0)
			return errno == ENOENT ? ENODEV : errno;
	}
	return ::ioctl(fd_, LNET_IOC_LNETST, buf.data()) < 0 ? errno : 0;
}

bool DevLnet::selftest_loaded()
{
	struct stat st;

	return ::stat("/sys/module/lnet_selftest", &st) == 0;
}

}  // namespace lst
