// SPDX-License-Identifier: GPL-2.0
//
// `hostile slow-handshake`: many connections to the target's acceptor that
// trickle their handshake one byte at a time (Documentation/hardening.md,
// "Handshakes"). Half of them trickle the connection request, the other
// half send the request at once and trickle the socklnd hello, so that
// both the acceptor and the LND's passive side are kept busy. A
// connection the target closes is opened again until the flood ends; then
// every connection still open must be closed by the target within the
// handshake deadline. The checks: the target closed them all, nine in ten
// within the deadline plus some slack and none beyond twice that (a
// per-read timeout that each byte renews, or a queue behind one slow
// reader, lives longer).
//
// `hostile handshake-deadline`: a few connections each slow in both stages
// but quick enough in each one alone: the request's last byte comes at 0.6
// x the deadline, the whole hello at 1.3 x. One deadline for the whole
// handshake closes them at 1 x, before their hello; a deadline per stage
// (the request's, then a fresh one for the hello) would accept the hello
// and answer it.
#include <algorithm>
#include <cerrno>
#include <optional>
#include <sstream>
#include <vector>

#include <poll.h>
#include <sys/socket.h>

#include "report.hpp"
#include "scenarios.hpp"
#include "net.hpp"

namespace sockpeer {
namespace {

using namespace wire;
using namespace std::chrono_literals;

struct Trickler {
	Socket sock;
	Bytes bytes;			// what is still to be sent, one byte at a time
	std::size_t sent = 0;
	Clock::time_point opened;
	Clock::time_point next;
};

// The request and a V3 hello from MY_IP to TARGET; for a hello-stage
// connection the request goes out at once.
Bytes handshake_bytes(std::uint32_t target_ip, std::uint32_t my_ip)
{
	Bytes b = encode(ConnRequest{Order::little, acceptor_magic, acceptor_version,
				     tcp_nid(target_ip)});
	Hello h;
	h.src_nid = tcp_nid(my_ip);
	h.dst_nid = tcp_nid(target_ip);
	h.src_incarnation = 0x5EED;
	append(b, encode(h));
	return b;
}

// True if the target closed or reset @t (anything it sends is dropped).
bool closed_by_target(const Trickler &t)
{
	std::uint8_t buf[256];

	for (;;) {
		const ssize_t n = ::recv(t.sock.fd(), buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n == 0)
			return true;
		return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
	}
}

class Flood {
public:
	Flood(const HostileOptions &o, std::uint32_t target_ip, std::uint32_t my_ip)
		: o_(o), target_(target_ip), bytes_(handshake_bytes(target_ip, my_ip))
	{
	}

	int run(std::ostream &out)
	{
		Reporter rep(out);
		const auto start = Clock::now();
		const auto stop_opening = start + std::chrono::seconds(o_.seconds);
		const auto give_up = stop_opening + o_.deadline + o_.slack + std::chrono::seconds(2);

		while (Clock::now() < give_up && (Clock::now() < stop_opening || !conns_.empty())) {
			if (Clock::now() < stop_opening)
				top_up();
			wait_and_reap();
			trickle();
		}
		const std::size_t still_open = conns_.size();
		conns_.clear();

		std::sort(lifetimes_.begin(), lifetimes_.end());
		std::ostringstream s;
		s << "hostile slow-handshake: " << opened_ << " opened, " << connect_failures_
		  << " connects failed, " << lifetimes_.size() << " closed by the target, "
		  << still_open << " still open at the end, " << completed_
		  << " sent their whole handshake";
		if (!lifetimes_.empty())
			s << "; lifetime ms min " << ms(lifetimes_.front()) << " median "
			  << ms(lifetimes_[lifetimes_.size() / 2]) << " p90 "
			  << ms(lifetimes_[lifetimes_.size() * 9 / 10]) << " max "
			  << ms(lifetimes_.back());
		rep.note(s.str());
		rep.check("hostile connections opened", opened_ > 0, "no connection was accepted");
		rep.check("target closed every hostile connection", still_open == 0,
			  std::to_string(still_open) + " still open " +
				  std::to_string(ms(o_.deadline + o_.slack)) + " ms after the last one");
		// Nine in ten within the deadline and the slack: a timeout that
		// each byte renews keeps them all for the whole handshake (16 s
		// and more); a few late ones are the guest's scheduling. None may
		// live twice that: a queue behind slow peers holds them minutes.
		const auto limit = o_.deadline + o_.slack;
		const auto p90 = lifetimes_.empty() ? Clock::duration{}
						    : lifetimes_[lifetimes_.size() * 9 / 10];
		const auto longest = lifetimes_.empty() ? Clock::duration{} : lifetimes_.back();
		rep.check("hostile connections closed at the handshake deadline (9 in 10)",
			  p90 <= limit,
			  "the 90th percentile lived " + std::to_string(ms(p90)) + " ms, more than " +
				  std::to_string(ms(limit)) + " ms");
		rep.check("no hostile connection lived twice the deadline and slack",
			  longest <= 2 * limit,
			  "one lived " + std::to_string(ms(longest)) + " ms, more than " +
				  std::to_string(ms(2 * limit)) + " ms");
		return rep.failed() ? 1 : 0;
	}

private:
	static long ms(Clock::duration d)
	{
		return static_cast<long>(std::chrono::duration_cast<milliseconds>(d).count());
	}

	// Open connections up to --conns; one failure ends this round.
	void top_up()
	{
		while (conns_.size() < o_.conns) {
			Trickler t;
			ConnectOptions opt;
			opt.timeout = milliseconds(300);
			try {
				t.sock = connect_to(target_, opt);
			} catch (const NetError &) {
				connect_failures_++;
				return;
			}
			t.opened = Clock::now();
			t.next = t.opened;
			t.bytes = bytes_;
			// every other connection trickles the hello, not the request
			if (opened_++ % 2) {
				if (!t.sock.send_all(ByteView(bytes_).first(conn_request_size)))
					continue;
				t.sent = conn_request_size;
			}
			t.sock.set_nonblocking();
			conns_.push_back(std::move(t));
		}
	}

	// Sleep until the next byte is due, noting connections the target closed.
	void wait_and_reap()
	{
		auto next = Clock::now() + milliseconds(200);
		std::vector<pollfd> fds;
		for (const auto &t : conns_) {
			fds.push_back({t.sock.fd(), POLLIN, 0});
			next = std::min(next, t.next);
		}
		const auto wait = std::chrono::ceil<milliseconds>(next - Clock::now()).count();
		if (::poll(fds.data(), fds.size(), static_cast<int>(std::max<long>(wait, 0))) <= 0)
			return;
		const auto now = Clock::now();
		std::size_t i = 0;
		std::erase_if(conns_, [&](const Trickler &t) {
			const short ev = fds[i++].revents;
			if (!ev || !closed_by_target(t))
				return false;
			lifetimes_.push_back(now - t.opened);
			return true;
		});
	}

	// One byte to each connection whose time has come.
	void trickle()
	{
		const auto now = Clock::now();
		std::erase_if(conns_, [&](Trickler &t) {
			if (t.next > now || t.sent >= t.bytes.size())
				return false;
			const ssize_t n = ::send(t.sock.fd(), &t.bytes[t.sent], 1,
						 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
				lifetimes_.push_back(now - t.opened);
				return true;
			}
			if (n > 0 && ++t.sent == t.bytes.size())
				completed_++;
			t.next = now + o_.interval;
			return false;
		});
	}

	const HostileOptions &o_;
	std::uint32_t target_;
	Bytes bytes_;
	std::vector<Trickler> conns_;
	std::vector<Clock::duration> lifetimes_;
	unsigned opened_ = 0;
	unsigned connect_failures_ = 0;
	unsigned completed_ = 0;
};

// Connections slow in both stages (see the top of the file).
class TwoStage {
public:
	TwoStage(const HostileOptions &o, std::uint32_t target_ip, std::uint32_t my_ip)
		: o_(o), target_(target_ip), bytes_(handshake_bytes(target_ip, my_ip))
	{
	}

	int run(std::ostream &out)
	{
		Reporter rep(out);
		const auto request_done = o_.deadline * 6 / 10;
		const auto hello_at = o_.deadline * 13 / 10;
		const auto give_up = hello_at + o_.deadline + o_.slack;
		const ByteView all(bytes_);

		for (unsigned i = 0; i < o_.conns; i++) {
			Conn c;
			try {
				c.sock = connect_to(target_);
			} catch (const NetError &e) {
				rep.not_ok("handshake-deadline: connect", e.what());
				return 1;
			}
			if (!c.sock.send_all(all.first(conn_request_size - 1))) {
				rep.not_ok("handshake-deadline: request sent", "target closed at once");
				return 1;
			}
			c.sock.set_nonblocking();
			conns_.push_back(std::move(c));
		}
		const auto start = Clock::now();
		bool request_sent = false, hello_sent = false;

		while (Clock::now() - start < give_up && open() > 0) {
			const auto now = Clock::now() - start;
			if (!request_sent && now >= request_done) {
				send_each(all.subspan(conn_request_size - 1, 1), start);
				request_sent = true;
			}
			if (!hello_sent && now >= hello_at) {
				send_each(all.subspan(conn_request_size), start);
				hello_sent = true;
			}
			watch(start, 100ms);
		}

		unsigned answered = 0, late = 0;
		std::ostringstream s;
		s << "hostile handshake-deadline: request done at " << ms(request_done)
		  << " ms, hello at " << ms(hello_at) << " ms; closed by the target at (ms)";
		for (const auto &c : conns_) {
			answered += c.got > 0;
			if (c.closed_after)
				s << " " << ms(*c.closed_after);
			else
				s << " never";
			late += !c.closed_after || *c.closed_after > o_.deadline + o_.slack;
		}
		rep.note(s.str());
		rep.check("handshake-deadline: no hello answered after the deadline", !answered,
			  std::to_string(answered) + " of " + std::to_string(conns_.size()) +
				  " connections got an answer: a fresh deadline for the hello");
		rep.check("handshake-deadline: closed within the deadline", !late,
			  std::to_string(late) + " not closed within " +
				  std::to_string(ms(o_.deadline + o_.slack)) + " ms");
		return rep.failed() ? 1 : 0;
	}

private:
	struct Conn {
		Socket sock;
		std::size_t got = 0;			// bytes the target sent
		std::optional<Clock::duration> closed_after;
	};

	static long ms(Clock::duration d)
	{
		return static_cast<long>(std::chrono::duration_cast<milliseconds>(d).count());
	}

	std::size_t open() const
	{
		return std::ranges::count_if(conns_, [](const Conn &c) { return !c.closed_after; });
	}

	void send_each(ByteView bytes, Clock::time_point start)
	{
		for (auto &c : conns_)
			if (!c.closed_after &&
			    ::send(c.sock.fd(), bytes.data(), bytes.size(),
				   MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				c.closed_after = Clock::now() - start;
	}

	// Up to @wait for the target to answer or close.
	void watch(Clock::time_point start, milliseconds wait)
	{
		std::vector<pollfd> fds;
		for (const auto &c : conns_)
			fds.push_back({c.closed_after ? -1 : c.sock.fd(), POLLIN, 0});
		if (::poll(fds.data(), fds.size(), static_cast<int>(wait.count())) <= 0)
			return;
		for (std::size_t i = 0; i < conns_.size(); i++) {
			Conn &c = conns_[i];
			if (!fds[i].revents)
				continue;
			std::uint8_t buf[256];
			ssize_t n;
			while ((n = ::recv(c.sock.fd(), buf, sizeof(buf), MSG_DONTWAIT)) > 0)
				c.got += n;
			if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
				c.closed_after = Clock::now() - start;
		}
	}

	const HostileOptions &o_;
	std::uint32_t target_;
	Bytes bytes_;
	std::vector<Conn> conns_;
};

}  // namespace

int run_hostile_handshake_deadline(const HostileOptions &o, std::uint32_t target_ip,
				   std::uint32_t my_ip, std::ostream &out)
{
	return TwoStage(o, target_ip, my_ip).run(out);
}

int run_hostile_slow_handshake(const HostileOptions &o, std::uint32_t target_ip,
			       std::uint32_t my_ip, std::ostream &out)
{
	return Flood(o, target_ip, my_ip).run(out);
}

}  // namespace sockpeer
