// SPDX-License-Identifier: GPL-2.0
//
// The client side of /dev/lnet: the device opened on first use, ioctls
// restarted after a signal, and failures turned into messages that say
// what to do about them.
#ifndef LNET_DEV_LNET_HPP
#define LNET_DEV_LNET_HPP

#include <stdexcept>
#include <string>
#include <string_view>

#include "lnet/unique_fd.hpp"

namespace lnet {

// /dev/lnet could not be opened, or an ioctl on it failed.
class DevLnetError : public std::runtime_error {
public:
	DevLnetError(int err, const std::string &message, bool open_failed)
		: std::runtime_error(message), err_(err), open_failed_(open_failed)
	{
	}

	// the positive errno
	int error() const noexcept { return err_; }
	// the device could not be opened (else an ioctl failed); the message
	// then names the device and stands on its own
	bool open_failed() const noexcept { return open_failed_; }

private:
	int err_;
	bool open_failed_;
};

class LnetDevice {
public:
	static constexpr std::string_view default_path = "/dev/lnet";

	explicit LnetDevice(std::string path = std::string(default_path))
		: path_(std::move(path))
	{
	}

	const std::string &path() const noexcept { return path_; }
	bool is_open() const noexcept { return static_cast<bool>(fd_); }

	// Opens the device unless it is open already. Throws DevLnetError:
	// "cannot open /dev/lnet: No such file or directory (is lnet.ko
	// loaded?)".
	void open();

	// One ioctl (opened first if need be): 0, or the ioctl's errno, for
	// callers to which some errors are answers (ENOENT: no more entries).
	// Only a failed open throws.
	int try_ioctl(unsigned long cmd, void *arg);

	// The same; an error throws DevLnetError with ioctl_error_text().
	void ioctl(unsigned long cmd, void *arg);

private:
	std::string path_;
	UniqueFd fd_;
};

// The message for a failed open of @path with @err: the errno's words and
// the usual cause.
std::string open_error_text(std::string_view path, int err);

// The message for a failed ioctl: the errno's words and, for the errors
// with a usual cause (no privilege, LNet not running), what to do.
std::string ioctl_error_text(int err);

}  // namespace lnet

#endif  // LNET_DEV_LNET_HPP
