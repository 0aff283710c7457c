// SPDX-License-Identifier: GPL-2.0
// Raw TCP request/response exchanges with several requests in flight on
// one connection: the baseline that LNet's small-message rate (0-byte GET
// with 8 in flight) is compared against in make bench.
#pragma once

#include <chrono>
#include <span>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <lnet/unique_fd.hpp>

namespace tcprr {

using lnet::UniqueFd;

struct Options {
	std::size_t size = 96;		// bytes per request and per response
	unsigned int inflight = 8;	// requests outstanding
	std::chrono::milliseconds duration{5000};
	bool nodelay = true;		// TCP_NODELAY
	bool quickack = false;		// TCP_QUICKACK after every read
};

struct Result {
	std::uint64_t exchanges = 0;
	std::chrono::nanoseconds elapsed{0};
	double per_second() const;
};

// Throws std::system_error / std::invalid_argument with a readable message.
UniqueFd listen_on(std::string_view addr, std::uint16_t port);
std::uint16_t local_port(const UniqueFd &sock);
UniqueFd connect_to(std::string_view addr, std::uint16_t port, bool nodelay);

// Echo every opts.size-byte request until the peer closes; returns
// exchanges.
std::uint64_t serve(const UniqueFd &conn, const Options &opts);
// Keep opts.inflight requests outstanding for opts.duration, then drain.
Result run_client(const UniqueFd &conn, const Options &opts);

// "5s", "500ms", "2" (seconds) -> duration; throws std::invalid_argument.
std::chrono::milliseconds parse_duration(std::string_view text);
std::string format_result(const Options &opts, const Result &r);

} // namespace tcprr
