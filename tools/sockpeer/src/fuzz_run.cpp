// SPDX-License-Identifier: GPL-2.0
//
// Running fuzz cases: up to Options::parallel connections at once in one
// poll() loop, each bounded by its own deadlines.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include "fuzz.hpp"
#include "report.hpp"
#include "session.hpp"

namespace sockpeer::fuzz {
namespace {

using namespace wire;
using namespace std::chrono_literals;

constexpr std::size_t recv_chunk = 65536;

std::chrono::milliseconds ms_since(Clock::time_point t)
{
	return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

// Source ports 1023..512 in turn, so that a port just reset is not the
// next one tried.
class PortCursor {
public:
	std::uint16_t next()
	{
		const std::uint16_t p = next_;
		next_ = next_ == last_reserved_port ? first_reserved_port
						    : static_cast<std::uint16_t>(next_ - 1);
		return p;
	}

private:
	std::uint16_t next_ = first_reserved_port;
};

struct Slot {
	enum class State { idle, connecting, sending, waiting };

	State state = State::idle;
	Case c;
	Socket sock;
	std::optional<Oracle> oracle;
	std::size_t sent = 0;
	std::size_t split = 0;			// next index into c.splits
	Clock::time_point started, resume_at, last_activity;
	bool nid_shared = false;		// another case's hello had our NID meanwhile
};

class Runner {
public:
	Runner(const Context &ctx, const Options &opt, std::ostream &log)
		: ctx_(ctx), opt_(opt), log_(log), slots_(std::max(opt.parallel, 1U))
	{
	}

	// Runs @cases (in this order); @done gets each result.
	void run(std::vector<Case> cases, const std::function<void(const Case &, const CaseResult &,
								   const Oracle &)> &done);

private:
	bool start(Slot &s, const Case &c, CaseResult &failed);
	void note_shared_nid(Slot &s);
	void on_connected(Slot &s);
	void send_some(Slot &s);
	void read_some(Slot &s);
	void finish(Slot &s, Outcome o, std::string error = {});
	Clock::time_point wake_time(const Slot &s) const;
	void check_timers(Slot &s);

	const Context &ctx_;
	const Options &opt_;
	std::ostream &log_;
	std::vector<Slot> slots_;
	PortCursor ports_;
	std::function<void(const Case &, const CaseResult &, const Oracle &)> done_;
};

// Starts connecting; false (and @failed filled) if that is not possible.
bool Runner::start(Slot &s, const Case &c, CaseResult &failed)
{
	const bool bind_reserved = opt_.privileged && !c.insecure;
	sockaddr_in to{};
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(ctx_.target_ip);
	to.sin_port = htons(opt_.port);

	failed.id = c.id;
	const int tries = bind_reserved ? first_reserved_port - last_reserved_port + 1 : 1;
	for (int i = 0; i < tries; i++) {
		Socket sock(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
		if (!sock) {
			failed.error = errno_message("socket", errno);
			return false;
		}
		const int one = 1;
		if (bind_reserved) {
			::setsockopt(sock.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			sockaddr_in from{};
			from.sin_family = AF_INET;
			from.sin_port = htons(ports_.next());
			if (::bind(sock.fd(), reinterpret_cast<sockaddr *>(&from), sizeof(from)) != 0) {
				if (errno == EACCES || errno == EPERM) {
					failed.error = errno_message("bind to a privileged port", errno);
					return false;
				}
				continue;
			}
		}
		::setsockopt(sock.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (::connect(sock.fd(), reinterpret_cast<sockaddr *>(&to), sizeof(to)) != 0 &&
		    errno != EINPROGRESS) {
			if (errno == EADDRINUSE || errno == EADDRNOTAVAIL)
				continue;
			failed.error = errno_message("connect", errno);
			return false;
		}
		s = Slot{};
		s.state = Slot::State::connecting;
		s.sock = std::move(sock);
		s.oracle.emplace(ctx_, predict(ctx_, c));
		note_shared_nid(s);
		s.c = c;
		s.started = s.last_activity = Clock::now();
		return true;
	}
	failed.error = "no free privileged source port";
	return false;
}

// Cases whose hellos claim the same NID at the same time race in the
// target: a restart or duplicate may close one before it is answered.
void Runner::note_shared_nid(Slot &s)
{
	const Prediction &p = s.oracle->prediction();
	if (p.expect != Expect::hello || p.must_be_none)
		return;
	for (auto &other : slots_) {
		if (&other == &s || other.state == Slot::State::idle)
			continue;
		const Prediction &o = other.oracle->prediction();
		if (o.expect == Expect::hello && !o.must_be_none && o.src_nid == p.src_nid)
			s.nid_shared = other.nid_shared = true;
	}
}

void Runner::on_connected(Slot &s)
{
	int err = 0;
	socklen_t len = sizeof(err);
	if (::getsockopt(s.sock.fd(), SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err)
		return finish(s, Outcome::no_connect, errno_message("connect", err));
	s.state = Slot::State::sending;
	s.started = s.last_activity = Clock::now();
	send_some(s);
}

void Runner::send_some(Slot &s)
{
	const auto &bytes = s.c.bytes;

	while (s.state == Slot::State::sending) {
		if (Clock::now() < s.resume_at)
			return;
		const std::size_t limit = s.split < s.c.splits.size() ? s.c.splits[s.split] : bytes.size();
		if (s.sent == limit) {
			if (limit == bytes.size()) {
				s.state = Slot::State::waiting;
				s.last_activity = Clock::now();
				return;
			}
			s.split++;
			s.resume_at = Clock::now() + opt_.split_pause;
			continue;
		}
		const ssize_t n = ::send(s.sock.fd(), bytes.data() + s.sent, limit - s.sent,
					 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			s.sent += static_cast<std::size_t>(n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		// the target is gone already: take what it said, then stop
		read_some(s);
		if (s.state != Slot::State::idle)
			finish(s, Outcome::reset);
		return;
	}
}

void Runner::read_some(Slot &s)
{
	std::uint8_t buf[recv_chunk];

	for (;;) {
		const ssize_t n = ::recv(s.sock.fd(), buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0) {
			s.oracle->feed(ByteView(buf, static_cast<std::size_t>(n)));
			s.last_activity = Clock::now();
			continue;
		}
		if (n == 0)
			return finish(s, Outcome::closed);
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		return finish(s, Outcome::reset);
	}
}

void Runner::finish(Slot &s, Outcome o, std::string error)
{
	CaseResult r;
	r.id = s.c.id;
	r.outcome = o;
	r.sent = s.sent;
	r.elapsed = ms_since(s.started);
	r.error = std::move(error);
	s.oracle->finish(o, s.nid_shared);
	r.received = s.oracle->received();
	r.anomaly = s.oracle->anomaly();
	r.nid_shared = s.nid_shared;
	s.sock.abort();				// RST: no TIME_WAIT on either side
	s.state = Slot::State::idle;
	done_(s.c, r, *s.oracle);
}

Clock::time_point Runner::wake_time(const Slot &s) const
{
	switch (s.state) {
	case Slot::State::connecting:
		return s.started + opt_.connect_timeout;
	case Slot::State::sending:
		return std::min(s.resume_at > Clock::now() ? s.resume_at : Clock::time_point::max(),
				s.started + opt_.max_case);
	case Slot::State::waiting:
		return std::min(s.last_activity + opt_.quiet, s.started + opt_.max_case);
	case Slot::State::idle:
		break;
	}
	return Clock::time_point::max();
}

void Runner::check_timers(Slot &s)
{
	const auto now = Clock::now();

	switch (s.state) {
	case Slot::State::connecting:
		if (now >= s.started + opt_.connect_timeout)
			finish(s, Outcome::no_connect, "connect: timed out");
		return;
	case Slot::State::sending:
		if (now >= s.started + opt_.max_case)
			finish(s, Outcome::deadline);
		else if (s.resume_at <= now)
			send_some(s);
		return;
	case Slot::State::waiting:
		if (now >= s.started + opt_.max_case)
			finish(s, Outcome::deadline);
		else if (now >= s.last_activity + opt_.quiet)
			finish(s, Outcome::quiet);
		return;
	case Slot::State::idle:
		return;
	}
}

void Runner::run(std::vector<Case> cases,
		 const std::function<void(const Case &, const CaseResult &, const Oracle &)> &done)
{
	done_ = done;
	std::size_t next = 0;

	for (;;) {
		for (auto &s : slots_) {
			while (s.state == Slot::State::idle && next < cases.size()) {
				CaseResult failed;
				const Case &c = cases[next++];
				if (start(s, c, failed))
					break;
				failed.outcome = Outcome::no_connect;
				const Oracle o(ctx_, Prediction{});
				done_(c, failed, o);
			}
		}
		std::vector<pollfd> fds;
		std::vector<Slot *> owners;
		Clock::time_point wake = Clock::time_point::max();
		for (auto &s : slots_) {
			if (s.state == Slot::State::idle)
				continue;
			short events = POLLIN;
			if (s.state == Slot::State::connecting ||
			    (s.state == Slot::State::sending && s.resume_at <= Clock::now()))
				events |= POLLOUT;
			if (s.state == Slot::State::connecting)
				events = POLLOUT;
			fds.push_back({s.sock.fd(), events, 0});
			owners.push_back(&s);
			wake = std::min(wake, wake_time(s));
		}
		if (fds.empty())
			return;
		int timeout = 1000;
		if (wake != Clock::time_point::max())
			timeout = Deadline(wake - Clock::now()).poll_ms();
		const int rc = ::poll(fds.data(), fds.size(), timeout);
		if (rc < 0 && errno != EINTR)
			throw NetError(errno_message("poll", errno));
		for (std::size_t i = 0; rc > 0 && i < fds.size(); i++) {
			Slot &s = *owners[i];
			const short ev = fds[i].revents;
			if (!ev)
				continue;
			if (s.state == Slot::State::connecting) {
				on_connected(s);
				continue;
			}
			if (ev & (POLLIN | POLLHUP | POLLERR))
				read_some(s);
			if (s.state == Slot::State::sending && (ev & POLLOUT))
				send_some(s);
		}
		for (auto &s : slots_)
			check_timers(s);
	}
}

std::string result_line(const Case &c, const CaseResult &r)
{
	std::string line = "case " + std::to_string(c.id) + " " + c.family + ": " + c.what + " | sent " +
			   std::to_string(r.sent) + "/" + std::to_string(c.bytes.size()) + " B, received " +
			   std::to_string(r.received) + " B, " + std::string(to_string(r.outcome)) + ", " +
			   std::to_string(r.elapsed.count()) + " ms";
	if (r.nid_shared)
		line += ", NID shared";
	if (!r.error.empty())
		line += " | " + r.error;
	if (r.anomaly)
		line += " | ANOMALY: " + *r.anomaly;
	return line;
}

// A session from a NID of its own (outside the fuzz pool) and a ping.
std::optional<std::string> health_ping(const Context &ctx, unsigned int n)
{
	try {
		Session sess({ctx.target_ip, tcp_nid(ctx.fake_base + 0x100 + n), 1000 + n});
		if (!sess.all_replied())
			return "no hello answer";
		return sess.ping();
	} catch (const NetError &e) {
		return e.what();
	}
}

}  // namespace

Summary run(const Context &ctx, const Options &opt, std::ostream &log)
{
	Summary sum;
	const auto t0 = Clock::now();
	Runner runner(ctx, opt, log);
	auto record = [&](const Case &c, const CaseResult &r, const Oracle &) {
		sum.run++;
		sum.outcomes[r.outcome]++;
		if (r.outcome == Outcome::no_connect)
			sum.failures.push_back(r);
		if (r.anomaly)
			sum.anomalies.push_back(r);
		log << result_line(c, r) << std::endl;
	};
	const std::uint64_t batch = opt.health && opt.health_every ? opt.health_every : opt.cases;

	for (std::uint64_t first = 0; first < opt.cases; first += batch) {
		std::vector<Case> cases;
		for (std::uint64_t id = first; id < std::min(first + batch, opt.cases); id++)
			cases.push_back(make_case(ctx, opt.seed, id));
		runner.run(std::move(cases), record);
		if (opt.health && first + batch < opt.cases) {
			sum.health_checks++;
			if (auto why = health_ping(ctx, sum.health_checks))
				sum.health_failures.push_back("after case " + std::to_string(first + batch - 1) +
							      ": " + *why);
		}
	}
	sum.elapsed = ms_since(t0);
	return sum;
}

CaseResult run_one(const Context &ctx, const Options &opt, const Case &c, std::ostream &log)
{
	Options one = opt;
	one.parallel = 1;
	Runner runner(ctx, one, log);
	CaseResult result;
	const Prediction p = predict(ctx, c);

	log << "case " << c.id << " (" << c.family << "): " << c.what << "\n";
	log << "sent " << c.bytes.size() << " bytes" << (c.insecure ? " from an unprivileged port" : "")
	    << ":\n  " << hex(c.bytes, c.bytes.size()) << "\n";
	log << "expected: " << to_string(p.expect) << " (" << p.why << ")\n";
	runner.run({c}, [&](const Case &, const CaseResult &r, const Oracle &) { result = r; });
	log << result_line(c, result) << std::endl;
	return result;
}

int run_fuzz(const Context &ctx, const Options &opt, std::ostream &out, std::ostream *log)
{
	Reporter rep(out);
	std::ostream &lines = log ? *log : out;

	if (opt.only) {
		const Case c = make_case(ctx, opt.seed, *opt.only);
		const CaseResult r = run_one(ctx, opt, c, out);
		const std::string name = "fuzz: seed " + std::to_string(opt.seed) + " case " +
					 std::to_string(c.id);
		if (r.outcome == Outcome::no_connect)
			rep.not_ok(name, r.error);
		else if (r.anomaly)
			rep.not_ok(name, *r.anomaly);
		else
			rep.ok(name);
		return rep.failed() ? 1 : 0;
	}

	rep.note("fuzz: seed " + std::to_string(opt.seed) + ", " + std::to_string(opt.cases) +
		 " cases, " + std::to_string(opt.parallel) + " at a time, against " +
		 ipv4_to_string(ctx.target_ip) + ":" + std::to_string(opt.port) +
		 " (replay one: --seed " + std::to_string(opt.seed) + " --only ID)");
	if (opt.health) {
		// the target may still be coming up
		const Deadline give_up(180s);
		std::optional<std::string> why;
		while ((why = health_ping(ctx, 0)) && !give_up.passed())
			std::this_thread::sleep_for(1s);
		if (!rep.check("fuzz: target up", !why, why.value_or("")))
			return 1;
	}

	Summary sum;
	try {
		sum = run(ctx, opt, lines);
	} catch (const NetError &e) {
		rep.not_ok("fuzz: cases run", e.what());
		return 1;
	}
	std::string failures;
	for (std::size_t i = 0; i < sum.failures.size() && i < 5; i++)
		failures += (i ? "; case " : "case ") + std::to_string(sum.failures[i].id) + ": " +
			    sum.failures[i].error;
	rep.check("fuzz: " + std::to_string(opt.cases) + " cases run", sum.run == opt.cases &&
		  sum.failures.empty(),
		  std::to_string(sum.failures.size()) + " could not connect: " + failures);
	std::string anomalies;
	for (std::size_t i = 0; i < sum.anomalies.size() && i < 5; i++)
		anomalies += (i ? "; case " : "case ") + std::to_string(sum.anomalies[i].id) + ": " +
			     *sum.anomalies[i].anomaly;
	rep.check("fuzz: the target's answers follow the spec", sum.anomalies.empty(),
		  std::to_string(sum.anomalies.size()) + " cases: " + anomalies);
	if (opt.health) {
		std::string why;
		for (const auto &f : sum.health_failures)
			why += (why.empty() ? "" : "; ") + f;
		rep.check("fuzz: target answered pings during the fuzz (" +
			  std::to_string(sum.health_checks) + ")",
			  sum.health_failures.empty(), why);
		const auto after = health_ping(ctx, sum.health_checks + 1);
		rep.check("fuzz: target healthy after the fuzz", !after, after.value_or(""));
	}
	char secs[32];
	std::snprintf(secs, sizeof(secs), "%.1f s", static_cast<double>(sum.elapsed.count()) / 1000);
	std::string outcomes;
	for (const auto &[o, n] : sum.outcomes)
		outcomes += (outcomes.empty() ? "" : ", ") + std::to_string(n) + " " +
			    std::string(to_string(o));
	rep.note("fuzz: " + std::to_string(sum.run) + " cases in " + secs + ": " + outcomes);
	return rep.failed() ? 1 : 0;
}

}  // namespace sockpeer::fuzz
