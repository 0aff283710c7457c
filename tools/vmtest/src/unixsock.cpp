// SPDX-License-Identifier: GPL-2.0
#include "unixsock.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

namespace vmtest {
namespace {

sockaddr_un unix_address(const std::filesystem::path &path)
{
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	const auto &s = path.native();
	if (s.empty() || s.size() > max_socket_path())
		throw std::runtime_error("socket path " + s + " is longer than " +
					 std::to_string(max_socket_path()) + " bytes");
	std::copy(s.begin(), s.end(), addr.sun_path);
	return addr;
}

Fd new_socket()
{
	Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
	if (!fd)
		throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
	return fd;
}

} // namespace

std::size_t max_socket_path()
{
	return sizeof(sockaddr_un::sun_path) - 1;
}

Fd listen_unix(const std::filesystem::path &path, int backlog)
{
	const auto addr = unix_address(path);
	Fd fd = new_socket();
	std::error_code ec;
	std::filesystem::remove(path, ec);
	if (::bind(fd.get(), reinterpret_cast<const sockaddr *>(&addr), sizeof(addr)) != 0 ||
	    ::listen(fd.get(), backlog) != 0)
		throw std::runtime_error("cannot listen on " + path.string() + ": " +
					 std::strerror(errno));
	return fd;
}

Fd connect_unix(const std::filesystem::path &path)
{
	const auto addr = unix_address(path);
	Fd fd = new_socket();
	// A UNIX connect completes at once or fails (EAGAIN: backlog full).
	if (::connect(fd.get(), reinterpret_cast<const sockaddr *>(&addr), sizeof(addr)) != 0)
		throw std::runtime_error("cannot connect to " + path.string() + ": " +
					 std::strerror(errno));
	return fd;
}

bool wait_fd(int fd, short events, SteadyClock::time_point deadline)
{
	const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
	pollfd p{.fd = fd, .events = events, .revents = 0};
	const int ms = static_cast<int>(std::clamp<long long>(left.count(), 0, 60'000));
	const int n = ::poll(&p, 1, ms);
	if (n < 0 && errno != EINTR)
		throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
	return n > 0;
}

} // namespace vmtest
