// SPDX-License-Identifier: GPL-2.0
#include "lnet/dev_lnet.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/ioctl.h>

#include "lnet/errno_text.hpp"

namespace lnet {

std::string open_error_text(std::string_view path, int err)
{
	std::string text = "cannot open " + std::string(path) + ": " + errno_text(err);

	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		text += " (is lnet.ko loaded?)";
		break;
	case EACCES:
	case EPERM:
		text += " (run as root)";
		break;
	default:
		break;
	}
	return text;
}

std::string ioctl_error_text(int err)
{
	std::string text = errno_text(err);

	switch (err) {
	case EACCES:
	case EPERM:
		text += " (changes need CAP_NET_ADMIN: run as root)";
		break;
	case ENETDOWN:
	case ESHUTDOWN:
		text += " (LNet is not running: use 'lnetctl lnet configure')";
		break;
	default:
		break;
	}
	return text;
}

void LnetDevice::open()
{
	if (fd_)
		return;
	fd_.reset(::open(path_.c_str(), O_RDWR | O_CLOEXEC));
	if (!fd_) {
		int err = errno;

		throw DevLnetError(err, open_error_text(path_, err), true);
	}
}

int LnetDevice::try_ioctl(unsigned long cmd, void *arg)
{
	open();
	while (::ioctl(fd_.get(), cmd, arg) < 0) {
		if (errno != EINTR)
			return errno;
	}
	return 0;
}

void LnetDevice::ioctl(unsigned long cmd, void *arg)
{
	int err = try_ioctl(cmd, arg);

	if (err)
		throw DevLnetError(err, ioctl_error_text(err), false);
}

}  // namespace lnet
