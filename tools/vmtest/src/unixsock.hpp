// SPDX-License-Identifier: GPL-2.0
// Non-blocking UNIX stream sockets: the guests' control ports and the qemu
// monitors.
#pragma once

#include "fd.hpp"

#include <chrono>
#include <filesystem>
#include <string>

namespace vmtest {

using SteadyClock = std::chrono::steady_clock;

// Longest path a sockaddr_un holds (without its NUL).
std::size_t max_socket_path();

// A listening socket at path (a stale file there is removed first);
// non-blocking, close-on-exec. Throws std::runtime_error.
Fd listen_unix(const std::filesystem::path &path, int backlog = 4);

// A socket connected to path; non-blocking, close-on-exec. Throws
// std::runtime_error ("connection refused" when nothing listens).
Fd connect_unix(const std::filesystem::path &path);

// poll() for events on fd until deadline: true when ready, false on
// timeout. EINTR ends the wait early (false), so that the caller can look
// at a pending signal.
bool wait_fd(int fd, short events, SteadyClock::time_point deadline);

} // namespace vmtest
