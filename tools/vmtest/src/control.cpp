// SPDX-License-Identifier: GPL-2.0
#include "control.hpp"

#include "monitor.hpp"
#include "qemu.hpp"
#include "text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <poll.h>
#include <sys/socket.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t max_why = 200;
constexpr std::size_t max_pending_out = 64 * 1024;
constexpr std::string_view usage = "requests: ping, link <k> on|off";

std::vector<std::string_view> words(std::string_view s)
{
	std::vector<std::string_view> out;
	for (;;) {
		while (!s.empty() && is_blank(s.front()))
			s.remove_prefix(1);
		if (s.empty())
			return out;
		auto end = std::find_if(s.begin(), s.end(), is_blank);
		auto n = static_cast<std::size_t>(end - s.begin());
		out.push_back(s.substr(0, n));
		s.remove_prefix(n);
	}
}

bool valid_seq(std::string_view s)
{
	return !s.empty() && s.size() <= max_seq &&
	       std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool printable(std::string_view s)
{
	return std::all_of(s.begin(), s.end(),
			   [](char c) { return (c >= ' ' && c <= '~') || c == '\t'; });
}

// Shown back to the guest in an error: printable and short.
std::string quoted(std::string_view s)
{
	std::string out;
	for (char c : s.substr(0, 40))
		out += c >= ' ' && c <= '~' ? c : '?';
	return "'" + out + (s.size() > 40 ? "...'" : "'");
}

std::string guest_name(int i)
{
	return "g" + std::to_string(i);
}

} // namespace

ParsedRequest parse_request(std::string_view line, std::size_t nlinks)
{
	const auto w = words(line);
	if (w.empty() || w[0] == "ok" || w[0] == "err")
		return Ignored{};
	if (!valid_seq(w[0]))
		return BadRequest{std::string(unknown_seq),
				  "a request is '<seq> <request>', <seq> a number of up to " +
					  std::to_string(max_seq) + " digits; got " + quoted(w[0])};
	std::string seq(w[0]);
	if (!printable(trim(line)))
		return BadRequest{seq, "not printable ASCII"};
	if (w.size() < 2)
		return BadRequest{seq, "no request; " + std::string(usage)};
	const auto verb = w[1];
	if (verb == "ping") {
		if (w.size() != 2)
			return BadRequest{seq, "ping takes no argument"};
		return Request{seq, PingRequest{}};
	}
	if (verb == "link") {
		if (w.size() != 4)
			return BadRequest{seq, "usage: link <k> on|off"};
		const auto k = parse_long(w[2]);
		if (!k || *k < 0)
			return BadRequest{seq, "link " + quoted(w[2]) + ": not a link number"};
		if (static_cast<unsigned long>(*k) >= nlinks)
			return BadRequest{seq, "no link " + std::to_string(*k) + " (this run has " +
						       std::to_string(nlinks) + ")"};
		if (w[3] != "on" && w[3] != "off")
			return BadRequest{seq, "link state " + quoted(w[3]) + ": on or off"};
		return Request{seq, LinkRequest{static_cast<int>(*k), w[3] == "on"}};
	}
	return BadRequest{seq, "unknown request " + quoted(verb) + "; " + std::string(usage)};
}

std::string ok_answer(std::string_view seq)
{
	return "ok " + std::string(seq) + "\n";
}

std::string err_answer(std::string_view seq, std::string_view why)
{
	std::string clean;
	for (char c : why.substr(0, max_why))
		clean += c >= ' ' && c <= '~' ? c : ' ';
	clean = std::string(trim(clean));
	if (clean.empty())
		clean = "failed";
	return "err " + std::string(seq) + " " + clean + "\n";
}

std::vector<LineSplitter::Line> LineSplitter::feed(std::string_view bytes)
{
	std::vector<Line> lines;
	for (char c : bytes) {
		if (c == '\n') {
			if (!discarding_) {
				if (!partial_.empty() && partial_.back() == '\r')
					partial_.pop_back();
				lines.push_back(Line{std::move(partial_), false});
			}
			partial_.clear();
			discarding_ = false;
			continue;
		}
		if (discarding_)
			continue;
		partial_ += c;
		if (partial_.size() > max_) {
			partial_.resize(max_);
			lines.push_back(Line{std::move(partial_), true});
			partial_.clear();
			discarding_ = true;
		}
	}
	return lines;
}

MonitorFn qmp_monitors(fs::path socket_dir)
{
	return [socket_dir = std::move(socket_dir)](int guest, std::string_view command,
						    const Json &arguments,
						    SteadyClock::time_point deadline) {
		return qmp_run(monitor_socket(socket_dir, guest), command, arguments, deadline);
	};
}

std::optional<std::string> ControlHandler::handle(std::string_view line) const
{
	const auto parsed = parse_request(line, links_.size());
	if (std::holds_alternative<Ignored>(parsed))
		return std::nullopt;
	if (const auto *bad = std::get_if<BadRequest>(&parsed))
		return err_answer(bad->seq, bad->why);
	const auto &req = std::get<Request>(parsed);
	if (const auto *link = std::get_if<LinkRequest>(&req.action))
		return set_link(req, *link);
	return ok_answer(req.seq);
}

std::string ControlHandler::handle_overlong(std::string_view start) const
{
	const auto w = words(start);
	const bool seq_ok = !w.empty() && valid_seq(w[0]);
	return err_answer(seq_ok ? w[0] : unknown_seq,
			  "request longer than " + std::to_string(max_request) + " bytes");
}

// Both ends, even if the first one fails, so that "on" restores whatever
// can be restored.
std::string ControlHandler::set_link(const Request &req, const LinkRequest &link) const
{
	const auto &l = links_[static_cast<std::size_t>(link.link)];
	const Json arguments{{"name", netdev_id(link.link)}, {"up", link.up}};
	const auto deadline = SteadyClock::now() + budget_;
	std::string errors;
	for (int guest : {l.a, l.b}) {
		std::string problem;
		try {
			problem = monitor_(guest, "set_link", arguments, deadline);
		} catch (const std::exception &e) {
			problem = e.what();
		}
		if (!problem.empty())
			errors += (errors.empty() ? "" : "; ") + guest_name(guest) + ": " + problem;
	}
	return errors.empty() ? ok_answer(req.seq) : err_answer(req.seq, errors);
}

ControlServer::ControlServer(const fs::path &run_dir, const fs::path &socket_dir, int guests,
			     ControlHandler handler)
	: handler_(std::move(handler))
{
	ports_.resize(static_cast<std::size_t>(guests));
	for (int i = 0; i < guests; i++) {
		auto &port = ports_[static_cast<std::size_t>(i)];
		port.dir = run_dir / guest_name(i);
		port.socket = control_socket(socket_dir, i);
		port.listener = listen_unix(port.socket);
	}
}

ControlServer::~ControlServer()
{
	for (auto &port : ports_) {
		if (!port.listener)
			continue;
		port.listener.reset();
		std::error_code ec;
		fs::remove(port.socket, ec);
	}
}

void ControlServer::log(Port &port, std::string_view what, std::string_view line)
{
	if (!port.log.is_open())
		port.log.open(port.dir / "control.log", std::ios::app);
	const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
		SteadyClock::now() - start_).count();
	char stamp[32];
	std::snprintf(stamp, sizeof(stamp), "[%6lld.%03lld] ", static_cast<long long>(ms / 1000),
		      static_cast<long long>(ms % 1000));
	std::string text(line);
	while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
		text.pop_back();
	port.log << stamp << what << " " << text << std::endl;
}

void ControlServer::accept_on(Port &port)
{
	Fd conn(::accept4(port.listener.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
	if (!conn)
		return; // EAGAIN, or the client went away again
	if (port.conn)
		log(port, "--", "new connection replaces the old one");
	port.conn = std::move(conn);
	port.lines = LineSplitter{};
	port.out.clear();
}

void ControlServer::read_from(Port &port)
{
	char buf[4096];
	const ssize_t n = ::recv(port.conn.get(), buf, sizeof(buf), 0);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		port.conn.reset();
		port.out.clear();
		return;
	}
	for (const auto &line : port.lines.feed(std::string_view(buf, static_cast<std::size_t>(n)))) {
		log(port, "<-", line.text);
		std::optional<std::string> answer;
		if (line.overlong)
			answer = handler_.handle_overlong(line.text);
		else
			answer = handler_.handle(line.text);
		if (!answer)
			continue;
		log(port, "->", *answer);
		if (port.out.size() + answer->size() > max_pending_out) {
			log(port, "--", "answer dropped: the guest does not read");
			continue;
		}
		port.out += *answer;
	}
	write_to(port);
}

void ControlServer::write_to(Port &port)
{
	while (port.conn && !port.out.empty()) {
		const ssize_t n = ::send(port.conn.get(), port.out.data(), port.out.size(),
					 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			port.conn.reset();
			port.out.clear();
			return;
		}
		port.out.erase(0, static_cast<std::size_t>(n));
	}
}

void ControlServer::serve(std::chrono::milliseconds timeout)
{
	std::vector<pollfd> fds;
	std::vector<std::pair<Port *, bool>> who; // port, is its listener
	for (auto &port : ports_) {
		fds.push_back({port.listener.get(), POLLIN, 0});
		who.emplace_back(&port, true);
		if (port.conn) {
			const short ev = POLLIN | (port.out.empty() ? 0 : POLLOUT);
			fds.push_back({port.conn.get(), ev, 0});
			who.emplace_back(&port, false);
		}
	}
	const int n = ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
	if (n < 0) {
		if (errno == EINTR)
			return;
		throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
	}
	for (std::size_t i = 0; i < fds.size() && n > 0; i++) {
		auto [port, listener] = who[i];
		const short rev = fds[i].revents;
		if (!rev)
			continue;
		if (listener) {
			accept_on(*port);
			continue;
		}
		if (!port->conn || port->conn.get() != fds[i].fd)
			continue; // replaced meanwhile
		if (rev & POLLOUT)
			write_to(*port);
		if (rev & (POLLIN | POLLHUP | POLLERR))
			read_from(*port);
	}
}

} // namespace vmtest
