// SPDX-License-Identifier: GPL-2.0
//
// TCP sockets for the test peers: an owning descriptor, connecting from a
// privileged source port (1023 down to 512, as socklnd does), and reads
// bounded by deadlines so that a silent peer never hangs a test.
#ifndef LNET_SOCKPEER_NET_HPP
#define LNET_SOCKPEER_NET_HPP

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <lnet/unique_fd.hpp>

#include "wire.hpp"

namespace sockpeer {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using wire::Bytes;
using wire::ByteView;

inline constexpr std::uint16_t acceptor_port = 988;
inline constexpr std::uint16_t first_reserved_port = 1023;
inline constexpr std::uint16_t last_reserved_port = 512;

// A socket call failed in a way the caller cannot go on from.
struct NetError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "connect to 192.0.2.2:988: Connection refused"
std::string errno_message(const std::string &what, int err);

// A point in time to give up at.
class Deadline {
public:
	explicit Deadline(Clock::duration d) : at_(Clock::now() + d) {}
	bool passed() const { return Clock::now() >= at_; }
	// For poll(): >= 0, rounded up.
	int poll_ms() const;
	Clock::time_point at() const { return at_; }

private:
	Clock::time_point at_;
};

// An owned socket descriptor and what the peers do with it.
class Socket {
public:
	Socket() = default;
	explicit Socket(int fd) : fd_(fd) {}

	int fd() const { return fd_.get(); }
	explicit operator bool() const { return static_cast<bool>(fd_); }
	void reset() { fd_.reset(); }

	// Close with an RST instead of a FIN (SO_LINGER 0): no TIME_WAIT.
	void abort();
	// shutdown(SHUT_RDWR): wakes up a reader blocked in another thread.
	void shutdown() const;
	void set_nonblocking() const;
	std::uint16_t local_port() const;

	// Writes all of @data (blocking, at most @timeout). False if the
	// peer is gone or the time ran out.
	bool send_all(ByteView data, Clock::duration timeout = std::chrono::seconds(10)) const;
	// @n bytes, or fewer if the peer closed or reset the connection or
	// the time ran out.
	Bytes recv_exact(std::size_t n, Clock::duration timeout = std::chrono::seconds(10)) const;
	// True if the peer closes (or resets) the connection without sending
	// anything more within @timeout.
	bool eof(Clock::duration timeout = std::chrono::seconds(10)) const;

private:
	lnet::UniqueFd fd_;
};

struct ConnectOptions {
	// bind to a free port 1023..512 first (else any port)
	bool privileged = true;
	std::uint16_t port = acceptor_port;
	Clock::duration timeout = std::chrono::seconds(10);
	// source ports not to use
	std::vector<std::uint16_t> avoid;
};

// A connected socket to @ip (host order). Throws NetError.
Socket connect_to(std::uint32_t ip, const ConnectOptions &opt = {});

// A socket listening on INADDR_ANY:@port (SO_REUSEADDR). Throws NetError.
Socket listen_on(std::uint16_t port, int backlog);

struct Accepted {
	Socket sock;
	std::uint32_t peer_ip = 0;
	std::uint16_t peer_port = 0;
};
// The next connection, or nullopt if none came within @timeout.
std::optional<Accepted> accept_for(const Socket &listener, Clock::duration timeout);

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_NET_HPP
