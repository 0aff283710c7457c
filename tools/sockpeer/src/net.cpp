// SPDX-License-Identifier: GPL-2.0
#include "net.hpp"

#include <algorithm>
#include <cerrno>
#include <utility>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <lnet/errno_text.hpp>

namespace sockpeer {
namespace {

sockaddr_in make_addr(std::uint32_t ip, std::uint16_t port)
{
	sockaddr_in sa{};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(ip);
	sa.sin_port = htons(port);
	return sa;
}

// Waits for @events on @fd until @deadline: the revents, 0 on timeout.
short wait_for(int fd, short events, const Deadline &deadline)
{
	for (;;) {
		pollfd p{fd, events, 0};
		const int rc = ::poll(&p, 1, deadline.poll_ms());
		if (rc > 0)
			return p.revents;
		if (rc == 0)
			return 0;
		if (errno != EINTR)
			return POLLERR;
	}
}

// Non-blocking connect of @s to @sa, finished within @timeout. 0 or errno.
int connect_within(const Socket &s, const sockaddr_in &sa, Clock::duration timeout)
{
	const int flags = ::fcntl(s.fd(), F_GETFL);
	::fcntl(s.fd(), F_SETFL, flags | O_NONBLOCK);
	int err = 0;
	if (::connect(s.fd(), reinterpret_cast<const sockaddr *>(&sa), sizeof(sa)) != 0) {
		err = errno;
		if (err == EINPROGRESS) {
			const Deadline deadline(timeout);
			if (!wait_for(s.fd(), POLLOUT, deadline)) {
				err = ETIMEDOUT;
			} else {
				socklen_t len = sizeof(err);
				if (::getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &err, &len) != 0)
					err = errno;
			}
		}
	}
	::fcntl(s.fd(), F_SETFL, flags);
	return err;
}

}  // namespace

std::string errno_message(const std::string &what, int err)
{
	return what + ": " + lnet::errno_text(err);
}

int Deadline::poll_ms() const
{
	const auto left = at_ - Clock::now();
	if (left <= Clock::duration::zero())
		return 0;
	const auto ms = std::chrono::ceil<milliseconds>(left).count();
	return static_cast<int>(std::min<decltype(ms)>(ms, 1 << 30));
}

void Socket::abort()
{
	if (!fd_)
		return;
	const linger l{1, 0};
	::setsockopt(fd_.get(), SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	reset();
}

void Socket::shutdown() const
{
	if (fd_)
		::shutdown(fd_.get(), SHUT_RDWR);
}

void Socket::set_nonblocking() const
{
	::fcntl(fd_.get(), F_SETFL, ::fcntl(fd_.get(), F_GETFL) | O_NONBLOCK);
}

std::uint16_t Socket::local_port() const
{
	sockaddr_in sa{};
	socklen_t len = sizeof(sa);
	if (::getsockname(fd_.get(), reinterpret_cast<sockaddr *>(&sa), &len) != 0)
		return 0;
	return ntohs(sa.sin_port);
}

bool Socket::send_all(ByteView data, Clock::duration timeout) const
{
	const Deadline deadline(timeout);
	std::size_t done = 0;

	while (done < data.size()) {
		const ssize_t n = ::send(fd_.get(), data.data() + done, data.size() - done,
					 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			done += static_cast<std::size_t>(n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			const short ev = wait_for(fd_.get(), POLLOUT, deadline);
			if (!ev || (ev & (POLLERR | POLLHUP)))
				return false;
			continue;
		}
		return false;
	}
	return true;
}

Bytes Socket::recv_exact(std::size_t n, Clock::duration timeout) const
{
	const Deadline deadline(timeout);
	Bytes data(n);
	std::size_t got = 0;

	while (got < n) {
		const ssize_t r = ::recv(fd_.get(), data.data() + got, n - got, MSG_DONTWAIT);
		if (r > 0) {
			got += static_cast<std::size_t>(r);
			continue;
		}
		if (r == 0)
			break;				// closed
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			break;				// reset
		if (!wait_for(fd_.get(), POLLIN, deadline))
			break;				// time is up
	}
	data.resize(got);
	return data;
}

bool Socket::eof(Clock::duration timeout) const
{
	const Deadline deadline(timeout);
	std::uint8_t buf[4096];

	for (;;) {
		const ssize_t r = ::recv(fd_.get(), buf, sizeof(buf), MSG_DONTWAIT);
		if (r == 0)
			return true;
		if (r > 0)
			return false;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return true;			// reset
		if (!wait_for(fd_.get(), POLLIN, deadline))
			return false;
	}
}

Socket connect_to(std::uint32_t ip, const ConnectOptions &opt)
{
	const sockaddr_in to = make_addr(ip, opt.port);
	const std::string where = wire::ipv4_to_string(ip) + ":" + std::to_string(opt.port);

	if (!opt.privileged) {
		Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
		if (!s)
			throw NetError(errno_message("socket", errno));
		if (const int err = connect_within(s, to, opt.timeout))
			throw NetError(errno_message("connect to " + where, err));
		return s;
	}
	for (int port = first_reserved_port; port >= last_reserved_port; port--) {
		if (std::find(opt.avoid.begin(), opt.avoid.end(), port) != opt.avoid.end())
			continue;
		Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
		if (!s)
			throw NetError(errno_message("socket", errno));
		const int one = 1;
		::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		const sockaddr_in from = make_addr(INADDR_ANY, static_cast<std::uint16_t>(port));
		if (::bind(s.fd(), reinterpret_cast<const sockaddr *>(&from), sizeof(from)) != 0) {
			if (errno == EACCES || errno == EPERM)
				throw NetError(errno_message("bind to port " + std::to_string(port) +
							     " (privileged ports need root)", errno));
			continue;
		}
		const int err = connect_within(s, to, opt.timeout);
		if (!err)
			return s;
		if (err != EADDRINUSE && err != EADDRNOTAVAIL)
			throw NetError(errno_message("connect to " + where + " from port " +
						     std::to_string(port), err));
	}
	throw NetError("connect to " + where + ": no free privileged port (1023..512)");
}

Socket listen_on(std::uint16_t port, int backlog)
{
	Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
	if (!s)
		throw NetError(errno_message("socket", errno));
	const int one = 1;
	::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	const sockaddr_in sa = make_addr(INADDR_ANY, port);
	if (::bind(s.fd(), reinterpret_cast<const sockaddr *>(&sa), sizeof(sa)) != 0)
		throw NetError(errno_message("bind to port " + std::to_string(port), errno));
	if (::listen(s.fd(), backlog) != 0)
		throw NetError(errno_message("listen on port " + std::to_string(port), errno));
	return s;
}

std::optional<Accepted> accept_for(const Socket &listener, Clock::duration timeout)
{
	const Deadline deadline(timeout);

	for (;;) {
		if (!wait_for(listener.fd(), POLLIN, deadline))
			return std::nullopt;
		sockaddr_in sa{};
		socklen_t len = sizeof(sa);
		const int fd = ::accept4(listener.fd(), reinterpret_cast<sockaddr *>(&sa), &len,
					 SOCK_CLOEXEC);
		if (fd >= 0)
			return Accepted{Socket(fd), ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port)};
		if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
			throw NetError(errno_message("accept", errno));
		if (deadline.passed())
			return std::nullopt;
	}
}

}  // namespace sockpeer
