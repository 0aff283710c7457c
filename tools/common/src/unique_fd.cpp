// SPDX-License-Identifier: GPL-2.0
#include "lnet/unique_fd.hpp"

#include <unistd.h>

namespace lnet {

void UniqueFd::reset(int fd) noexcept
{
	int old = std::exchange(fd_, fd < 0 ? -1 : fd);

	// Not retried on EINTR: Linux frees the descriptor even then, and a
	// second close could hit one another thread has just been given.
	if (old >= 0 && old != fd_)
		::close(old);
}

}  // namespace lnet
