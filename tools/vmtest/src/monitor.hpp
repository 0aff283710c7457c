// SPDX-License-Identifier: GPL-2.0
// A client for a guest's qemu monitor, which speaks QMP (qmp.hpp) on its
// monitor_socket() (qemu.hpp).
#pragma once

#include "qmp.hpp"
#include "unixsock.hpp"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vmtest {

// qemu answered a command with an error.
class QmpCommandError : public std::runtime_error {
public:
	QmpCommandError(std::string error_class, std::string desc)
		: std::runtime_error(desc), error_class_(std::move(error_class))
	{
	}
	const std::string &error_class() const { return error_class_; }

private:
	std::string error_class_;
};

// One QMP session on a connected stream socket. Every call takes a
// deadline and throws std::runtime_error, naming the peer, when the socket
// fails, qemu closes it, sends something that is not QMP, or does not
// answer in time.
class QmpClient {
public:
	// Reads qemu's greeting and leaves capabilities negotiation, so that
	// commands can be run. fd: non-blocking; peer: its name in errors.
	QmpClient(Fd fd, std::string peer, SteadyClock::time_point deadline);

	// Connects to the monitor at socket (qemu's monitor serves one client
	// at a time: a second one waits for the greeting).
	static QmpClient connect(const std::filesystem::path &socket,
				 SteadyClock::time_point deadline);

	const QmpGreeting &greeting() const { return greeting_; }

	// Runs command and returns its "return" value; throws
	// QmpCommandError when qemu answers with an error. Events that arrive
	// meanwhile are kept for take_events().
	Json execute(std::string_view command, const Json &arguments,
		     SteadyClock::time_point deadline);

	// The events received so far, oldest first; the list starts empty
	// again.
	std::vector<QmpEvent> take_events() { return std::exchange(events_, {}); }

private:
	QmpMessage next(SteadyClock::time_point deadline);
	void send(std::string_view data, SteadyClock::time_point deadline);
	[[noreturn]] void fail(std::string_view why) const;

	Fd fd_;
	std::string peer_;
	QmpFramer framer_{};
	std::deque<Json> ready_{}; // parsed, not yet looked at (oldest first)
	std::vector<QmpEvent> events_{};
	QmpGreeting greeting_{};
	std::int64_t next_id_ = 1;
};

// Runs one command on the monitor at socket in a session of its own.
// Returns "" when it worked and "Error: <desc>" when qemu refused it (what
// the human monitor prints); throws std::runtime_error when the monitor
// cannot be used by deadline.
std::string qmp_run(const std::filesystem::path &socket, std::string_view command,
		    const Json &arguments, SteadyClock::time_point deadline);

} // namespace vmtest
