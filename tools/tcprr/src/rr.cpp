// SPDX-License-Identifier: GPL-2.0
#include "rr.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <charconv>
#include <sstream>
#include <cstdio>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdexcept>
#include <sys/socket.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace tcprr {

double Result::per_second() const
{
	if (elapsed.count() <= 0)
		return 0;
	return static_cast<double>(exchanges) * 1e9 /
	       static_cast<double>(elapsed.count());
}

namespace {

[[noreturn]] void fail(const std::string &what)
{
	throw std::system_error(errno, std::generic_category(), what);
}

sockaddr_in make_addr(std::string_view addr, std::uint16_t port)
{
	sockaddr_in sa{};
	std::string text(addr);

	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, text.c_str(), &sa.sin_addr) != 1)
		throw std::invalid_argument("not an IPv4 address: \"" + text + "\"");
	return sa;
}

void set_nodelay(const UniqueFd &sock, bool on)
{
	int v = on ? 1 : 0;

	if (setsockopt(sock.get(), IPPROTO_TCP, TCP_NODELAY, &v, sizeof(v)))
		fail("setsockopt(TCP_NODELAY)");
}

// false: the peer closed before the first byte.
bool read_full(const UniqueFd &sock, std::span<std::byte> buf, bool quickack)
{
	const int one = 1;
	std::size_t done = 0;

	while (done < buf.size()) {
		ssize_t n = ::read(sock.get(), buf.data() + done, buf.size() - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("read");
		if (n == 0) {
			if (done == 0)
				return false;
			throw std::runtime_error("peer closed in the middle of a message");
		}
		done += static_cast<std::size_t>(n);
		// not sticky: the kernel may leave quick-ack mode again
		if (quickack && setsockopt(sock.get(), IPPROTO_TCP, TCP_QUICKACK,
					   &one, sizeof(one)))
			fail("setsockopt(TCP_QUICKACK)");
	}
	return true;
}

void write_full(const UniqueFd &sock, std::span<const std::byte> buf)
{
	std::size_t done = 0;

	while (done < buf.size()) {
		ssize_t n = ::write(sock.get(), buf.data() + done, buf.size() - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("write");
		done += static_cast<std::size_t>(n);
	}
}

} // namespace

UniqueFd listen_on(std::string_view addr, std::uint16_t port)
{
	sockaddr_in sa = make_addr(addr, port);
	UniqueFd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
	int one = 1;

	if (!sock)
		fail("socket");
	if (setsockopt(sock.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		fail("setsockopt(SO_REUSEADDR)");
	if (::bind(sock.get(), reinterpret_cast<sockaddr *>(&sa), sizeof(sa)))
		fail("bind " + std::string(addr) + ":" + std::to_string(port));
	if (::listen(sock.get(), 4))
		fail("listen");
	return sock;
}

std::uint16_t local_port(const UniqueFd &sock)
{
	sockaddr_in sa{};
	socklen_t len = sizeof(sa);

	if (getsockname(sock.get(), reinterpret_cast<sockaddr *>(&sa), &len))
		fail("getsockname");
	return ntohs(sa.sin_port);
}

UniqueFd connect_to(std::string_view addr, std::uint16_t port, bool nodelay)
{
	sockaddr_in sa = make_addr(addr, port);
	UniqueFd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));

	if (!sock)
		fail("socket");
	if (::connect(sock.get(), reinterpret_cast<sockaddr *>(&sa), sizeof(sa)))
		fail("connect " + std::string(addr) + ":" + std::to_string(port));
	set_nodelay(sock, nodelay);
	return sock;
}

std::uint64_t serve(const UniqueFd &conn, const Options &opts)
{
	std::vector<std::byte> buf(opts.size);
	std::uint64_t n = 0;

	set_nodelay(conn, opts.nodelay);
	if (opts.size == 0)
		throw std::invalid_argument("message size must be at least 1 byte");
	while (read_full(conn, buf, opts.quickack)) {
		write_full(conn, buf);
		n++;
	}
	return n;
}

Result run_client(const UniqueFd &conn, const Options &opts)
{
	using clock = std::chrono::steady_clock;
	std::vector<std::byte> req(opts.size, std::byte{0x5a}), resp(opts.size);
	unsigned int outstanding = 0;
	Result r;

	if (opts.size == 0 || opts.inflight == 0)
		throw std::invalid_argument("size and inflight must be at least 1");
	const auto start = clock::now();
	const auto end = start + opts.duration;
	for (; outstanding < opts.inflight; outstanding++)
		write_full(conn, req);
	while (outstanding) {
		if (!read_full(conn, resp, opts.quickack))
			throw std::runtime_error("server closed the connection");
		outstanding--;
		r.exchanges++;
		if (clock::now() < end) {
			write_full(conn, req);
			outstanding++;
		}
	}
	r.elapsed = clock::now() - start;
	return r;
}

std::chrono::milliseconds parse_duration(std::string_view text)
{
	std::string_view digits = text, unit;
	std::size_t i = 0;
	unsigned long v = 0;

	while (i < text.size() && text[i] >= '0' && text[i] <= '9')
		i++;
	digits = text.substr(0, i);
	unit = text.substr(i);
	auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
	if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size())
		throw std::invalid_argument("bad duration \"" + std::string(text) +
					    "\" (e.g. 5s, 500ms)");
	if (unit.empty() || unit == "s")
		return std::chrono::seconds(v);
	if (unit == "ms")
		return std::chrono::milliseconds(v);
	throw std::invalid_argument("bad duration unit in \"" + std::string(text) +
				    "\" (s or ms)");
}

std::string format_result(const Options &opts, const Result &r)
{
	char rate[32];
	std::ostringstream out;

	std::snprintf(rate, sizeof(rate), "%.0f", r.per_second());
	out << "tcprr: size=" << opts.size << " inflight=" << opts.inflight
	    << " quickack=" << (opts.quickack ? 1 : 0) << " ns=" << r.elapsed.count() << " exchanges=" << r.exchanges
	    << " per_sec=" << rate;
	return out.str();
}

} // namespace tcprr
