// SPDX-License-Identifier: GPL-2.0
// The guests' control channel (Documentation/testing.md, "Control
// channel"): guest i's second serial port (/dev/ttyS1) is a qemu socket
// chardev connected to control_socket() (qemu.hpp), where the runner listens.
// The guest writes one request per line, "<seq> <request>", and the runner
// answers "ok <seq>" or "err <seq> <why>". Requests: "ping", and
// "link <k> on|off", which runs QMP set_link on the monitor of both
// guests of link k (a cable pull: carrier gone, nothing delivered).
#pragma once

#include "qmp.hpp"
#include "topology.hpp"
#include "unixsock.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace vmtest {

inline constexpr std::size_t max_request = 256;	// bytes in a request line
inline constexpr std::size_t max_seq = 18;	// digits in a sequence number
inline constexpr std::string_view unknown_seq = "-";

struct PingRequest {
	bool operator==(const PingRequest &) const = default;
};

struct LinkRequest {
	int link = 0;
	bool up = false;
	bool operator==(const LinkRequest &) const = default;
};

struct Request {
	std::string seq{};
	std::variant<PingRequest, LinkRequest> action{};
};

// A line the runner answers with an error; seq is unknown_seq when the
// line does not start with a valid one.
struct BadRequest {
	std::string seq{};
	std::string why{};
};

// Blank lines and lines that look like answers ("ok ...", "err ...": a
// guest tty echoing what it received) get no answer at all.
struct Ignored {};

using ParsedRequest = std::variant<Ignored, Request, BadRequest>;

// One request line (without its line end); nlinks: the run's link count.
ParsedRequest parse_request(std::string_view line, std::size_t nlinks);

// "ok SEQ\n".
std::string ok_answer(std::string_view seq);
// "err SEQ WHY\n"; WHY is reduced to printable ASCII on one line, at most
// 200 bytes.
std::string err_answer(std::string_view seq, std::string_view why);

// Splits a byte stream into lines. A line longer than max_line comes out
// as soon as it is too long, cut to max_line bytes and marked overlong;
// the rest of it, up to its line end, is dropped.
class LineSplitter {
public:
	struct Line {
		std::string text{};
		bool overlong = false;
		bool operator==(const Line &) const = default;
	};

	explicit LineSplitter(std::size_t max_line = max_request) : max_(max_line) {}
	// The lines that bytes complete; "\n" ends a line, a "\r" before it is
	// dropped.
	std::vector<Line> feed(std::string_view bytes);

private:
	std::string partial_{};
	bool discarding_ = false;
	std::size_t max_;
};

// Runs one QMP command with its arguments on guest i's qemu by deadline and
// returns qemu's error ("Error: <desc>"; empty: it worked); throws
// std::runtime_error if the monitor cannot be used.
using MonitorFn = std::function<std::string(int guest, std::string_view command,
					    const Json &arguments,
					    SteadyClock::time_point deadline)>;

// The real monitors: QMP on monitor_socket(socket_dir, i).
MonitorFn qmp_monitors(std::filesystem::path socket_dir);

// Carries out requests.
class ControlHandler {
public:
	ControlHandler(std::vector<Link> links, MonitorFn monitor,
		       std::chrono::milliseconds budget = std::chrono::seconds(5))
		: links_(std::move(links)), monitor_(std::move(monitor)), budget_(budget)
	{
	}

	// The answer line to one request line, or nothing for a line to
	// ignore. Never throws for anything a guest sends.
	std::optional<std::string> handle(std::string_view line) const;
	// The answer to a line that was too long (its first max_request bytes).
	std::string handle_overlong(std::string_view start) const;

private:
	std::string set_link(const Request &req, const LinkRequest &link) const;

	std::vector<Link> links_;
	MonitorFn monitor_;
	std::chrono::milliseconds budget_; // for all monitor commands of one request
};

// The listening end of every guest's control port. It must exist before
// qemu starts: qemu connects to it at startup.
class ControlServer {
public:
	// Listens on control_socket(socket_dir, i) for each guest; requests
	// and answers are logged to run_dir/g<i>/control.log.
	ControlServer(const std::filesystem::path &run_dir, const std::filesystem::path &socket_dir,
		      int guests, ControlHandler handler);
	ControlServer(const ControlServer &) = delete;
	ControlServer &operator=(const ControlServer &) = delete;
	~ControlServer(); // closes and removes the sockets

	// Serves for up to timeout (less if a signal arrives): accepts the
	// qemu connections, answers the requests that came in. Throws only on
	// a failure of the runner's own machinery (poll).
	void serve(std::chrono::milliseconds timeout);

private:
	struct Port {
		std::filesystem::path dir{};
		std::filesystem::path socket{};
		Fd listener{};
		Fd conn{};
		LineSplitter lines{};
		std::string out{}; // answers not yet written
		std::ofstream log{};
	};

	void accept_on(Port &port);
	void read_from(Port &port);
	void write_to(Port &port);
	void log(Port &port, std::string_view what, std::string_view line);

	std::vector<Port> ports_;
	ControlHandler handler_;
	SteadyClock::time_point start_ = SteadyClock::now();
};

} // namespace vmtest
