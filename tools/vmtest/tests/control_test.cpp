// SPDX-License-Identifier: GPL-2.0
#include "control.hpp"
#include "qemu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Lines = std::vector<LineSplitter::Line>;

template <typename T> const T &as(const ParsedRequest &p)
{
	EXPECT_TRUE(std::holds_alternative<T>(p)) << "index " << p.index();
	static const T none{};
	const T *v = std::get_if<T>(&p);
	return v ? *v : none;
}

TEST(Control, ParseGood)
{
	auto r = as<Request>(parse_request("17 link 0 off", 1));
	EXPECT_EQ(r.seq, "17");
	EXPECT_EQ(std::get<LinkRequest>(r.action), (LinkRequest{0, false}));

	r = as<Request>(parse_request("  0042\tlink  2 on \r", 3));
	EXPECT_EQ(r.seq, "0042");
	EXPECT_EQ(std::get<LinkRequest>(r.action), (LinkRequest{2, true}));

	r = as<Request>(parse_request("5 ping", 0));
	EXPECT_EQ(r.seq, "5");
	EXPECT_TRUE(std::holds_alternative<PingRequest>(r.action));
}

TEST(Control, ParseIgnored)
{
	as<Ignored>(parse_request("", 1));
	as<Ignored>(parse_request("  \t\r", 1));
	// A guest tty that echoes would send our answers back: never answer them.
	as<Ignored>(parse_request("ok 17", 1));
	as<Ignored>(parse_request("err 17 no link 4 (this run has 1)", 1));
	as<Ignored>(parse_request("err - bad", 1));
}

TEST(Control, ParseBad)
{
	struct Case {
		std::string_view line;
		std::string_view seq;
		std::string_view why_has;
	};
	const Case cases[] = {
		{"link 0 off", "-", "<seq> <request>"},
		{"17", "17", "no request"},
		{"17 reboot", "17", "unknown request 'reboot'"},
		{"17 LINK 0 off", "17", "unknown request"},
		{"17 ping now", "17", "no argument"},
		{"17 link", "17", "usage"},
		{"17 link 0", "17", "usage"},
		{"17 link 0 off now", "17", "usage"},
		{"17 link x off", "17", "'x': not a link number"},
		{"17 link -1 off", "17", "not a link number"},
		{"17 link 0x1 off", "17", "not a link number"},
		{"17 link 99999999999999999999 off", "17", "not a link number"},
		{"17 link 1 off", "17", "no link 1 (this run has 1)"},
		{"17 link 0 down", "17", "'down': on or off"},
		{"17 link 0 Off", "17", "on or off"},
		{"17 link 0 off\x01", "17", "not printable"},
		{"\x01\x02 ping", "-", "got '?" "?'"},
		{"1234567890123456789 ping", "-", "<seq>"},
		{"a1 ping", "-", "got 'a1'"},
		{"-1 ping", "-", "<seq>"},
	};
	for (const auto &c : cases) {
		SCOPED_TRACE(std::string(c.line));
		const auto bad = as<BadRequest>(parse_request(c.line, 1));
		EXPECT_EQ(bad.seq, c.seq);
		EXPECT_NE(bad.why.find(c.why_has), std::string::npos) << bad.why;
	}
}

TEST(Control, Answers)
{
	EXPECT_EQ(ok_answer("17"), "ok 17\n");
	EXPECT_EQ(err_answer("17", "g1: Error: Device 'l0' not found"),
		  "err 17 g1: Error: Device 'l0' not found\n");
	EXPECT_EQ(err_answer("-", "two\nlines\r\x1b[K"), "err - two lines  [K\n");
	EXPECT_EQ(err_answer("3", " \n"), "err 3 failed\n");
	EXPECT_EQ(err_answer("3", std::string(1000, 'x')).size(), 4 + 2 + 200 + 1);
}

TEST(Control, LineSplitter)
{
	LineSplitter s(8);
	EXPECT_EQ(s.feed("1 pi"), Lines{});
	EXPECT_EQ(s.feed("ng\n2 ping\r\n\n"),
		  (Lines{{"1 ping", false}, {"2 ping", false}, {"", false}}));
	// Too long: out at once (cut), the rest up to the line end dropped.
	EXPECT_EQ(s.feed("3 link 0 o"), (Lines{{"3 link 0", true}}));
	EXPECT_EQ(s.feed("ff and more"), Lines{});
	EXPECT_EQ(s.feed(" still\n4 ping\n"), (Lines{{"4 ping", false}}));
	EXPECT_EQ(s.feed("12345678\n"), (Lines{{"12345678", false}}));
	EXPECT_EQ(s.feed("123456789\n"), (Lines{{"12345678", true}}));
}

// Records monitor commands; guest 1's monitor fails when told to.
struct FakeMonitors {
	std::vector<std::pair<int, std::string>> calls;
	std::string g1_prints;
	bool g0_unreachable = false;

	MonitorFn fn()
	{
		return [this](int guest, std::string_view cmd, const Json &args,
			      SteadyClock::time_point) {
			calls.emplace_back(guest, std::string(cmd) + " " + args.dump());
			if (guest == 0 && g0_unreachable)
				throw std::runtime_error("cannot connect to g0/monitor.sock: refused");
			return guest == 1 ? g1_prints : std::string();
		};
	}
};

using Calls = std::vector<std::pair<int, std::string>>;

TEST(Control, HandlerLink)
{
	FakeMonitors mons;
	ControlHandler h({{0, 1}, {1, 2}}, mons.fn());
	EXPECT_EQ(h.handle("1 link 1 off"), "ok 1\n");
	EXPECT_EQ(h.handle("2 link 0 on"), "ok 2\n");
	EXPECT_EQ(mons.calls, (Calls{{1, R"(set_link {"name":"l1","up":false})"},
				     {2, R"(set_link {"name":"l1","up":false})"},
				     {0, R"(set_link {"name":"l0","up":true})"},
				     {1, R"(set_link {"name":"l0","up":true})"}}));
}

TEST(Control, HandlerMonitorFailures)
{
	FakeMonitors mons;
	ControlHandler h({{0, 1}}, mons.fn());
	mons.g1_prints = "Error: Device 'l0' not found";
	EXPECT_EQ(h.handle("1 link 0 off"), "err 1 g1: Error: Device 'l0' not found\n");
	// The other end is still tried when one cannot be reached.
	mons.g1_prints.clear();
	mons.g0_unreachable = true;
	mons.calls.clear();
	EXPECT_EQ(h.handle("2 link 0 on"), "err 2 g0: cannot connect to g0/monitor.sock: refused\n");
	EXPECT_EQ(mons.calls, (Calls{{0, R"(set_link {"name":"l0","up":true})"},
				     {1, R"(set_link {"name":"l0","up":true})"}}));
}

TEST(Control, HandlerOther)
{
	FakeMonitors mons;
	ControlHandler h({{0, 1}}, mons.fn());
	EXPECT_EQ(h.handle("9 ping"), "ok 9\n");
	EXPECT_EQ(h.handle("ok 9"), std::nullopt);
	EXPECT_EQ(h.handle(""), std::nullopt);
	EXPECT_EQ(h.handle("9 link 1 off"), "err 9 no link 1 (this run has 1)\n");
	EXPECT_EQ(h.handle_overlong("12 link 0 offffffff"), "err 12 request longer than 256 bytes\n");
	EXPECT_EQ(h.handle_overlong("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
		  "err - request longer than 256 bytes\n");
	EXPECT_EQ(h.handle("123456789012345678 ping"), "ok 123456789012345678\n");
	EXPECT_TRUE(mons.calls.empty());
}

// A run directory with g0 and g1, removed afterwards.
struct ServerTest : ::testing::Test {
	fs::path run = fs::temp_directory_path() / ("vmtest-ctl-" + std::to_string(::getpid()));
	FakeMonitors mons;

	void SetUp() override
	{
		fs::remove_all(run);
		fs::create_directories(run / "g0");
		fs::create_directories(run / "g1");
	}
	void TearDown() override { fs::remove_all(run); }

	// What qemu does: connect to the guest's control socket.
	Fd connect_guest(int i) { return connect_unix(control_socket(run, i)); }

	static void send(const Fd &fd, std::string_view s)
	{
		ASSERT_EQ(::send(fd.get(), s.data(), s.size(), MSG_NOSIGNAL),
			  static_cast<ssize_t>(s.size()));
	}

	// Serves until fd has nlines lines to read (at most 5 s); returns them.
	static std::string answer(ControlServer &srv, const Fd &fd, std::size_t nlines)
	{
		std::string got;
		const auto until = SteadyClock::now() + 5s;
		while (static_cast<std::size_t>(std::count(got.begin(), got.end(), '\n')) < nlines &&
		       SteadyClock::now() < until) {
			srv.serve(20ms);
			char buf[512];
			ssize_t n = ::recv(fd.get(), buf, sizeof(buf), MSG_DONTWAIT);
			if (n > 0)
				got.append(buf, static_cast<std::size_t>(n));
		}
		return got;
	}

	std::string read_file(const fs::path &p)
	{
		std::ifstream in(p);
		std::stringstream ss;
		ss << in.rdbuf();
		return ss.str();
	}
};

TEST_F(ServerTest, RequestsAndAnswers)
{
	ControlServer srv(run, run, 2, ControlHandler({{0, 1}}, mons.fn()));
	EXPECT_TRUE(fs::exists(control_socket(run, 0)));
	Fd g0 = connect_guest(0), g1 = connect_guest(1);
	send(g0, "1 link 0 off\n");
	EXPECT_EQ(answer(srv, g0, 1), "ok 1\n");
	EXPECT_EQ(mons.calls, (Calls{{0, R"(set_link {"name":"l0","up":false})"},
				     {1, R"(set_link {"name":"l0","up":false})"}}));
	// Several requests in one write, one split over two; an echoed answer
	// and blank lines get nothing.
	send(g1, "2 ping\nok 1\n\n3 bogus\n4 li");
	send(g1, "nk 0 on\r\n");
	EXPECT_EQ(answer(srv, g1, 3), "ok 2\nerr 3 unknown request 'bogus'; requests: ping, "
				       "link <k> on|off\nok 4\n");
	const auto log = read_file(run / "g1/control.log");
	EXPECT_NE(log.find("<- 4 link 0 on"), std::string::npos) << log;
	EXPECT_NE(log.find("-> ok 4"), std::string::npos) << log;
	EXPECT_FALSE(fs::exists(run / "g0/control.log") && read_file(run / "g0/control.log")
							.find("bogus") != std::string::npos);
}

TEST_F(ServerTest, OverlongAndGarbage)
{
	ControlServer srv(run, run, 2, ControlHandler({{0, 1}}, mons.fn()));
	Fd g0 = connect_guest(0);
	send(g0, "7 link 0 off " + std::string(1000, 'y') + "\n8 ping\n");
	EXPECT_EQ(answer(srv, g0, 2), "err 7 request longer than 256 bytes\nok 8\n");
	send(g0, std::string("\xff\xfe\x00\x01\n", 5));
	EXPECT_EQ(answer(srv, g0, 1).substr(0, 6), "err - ");
	EXPECT_TRUE(mons.calls.empty());
}

TEST_F(ServerTest, GuestGoneOrNotReading)
{
	ControlServer srv(run, run, 2, ControlHandler({{0, 1}}, mons.fn()));
	{
		Fd g0 = connect_guest(0);
		send(g0, "1 ping\n");
		srv.serve(20ms);
	} // qemu exits
	for (int i = 0; i < 5; i++)
		srv.serve(10ms);
	// A guest that never reads its answers does not block the runner.
	Fd g1 = connect_guest(1);
	std::string flood;
	for (int i = 0; i < 5000; i++)
		flood += std::to_string(i) + " ping\n";
	const auto start = SteadyClock::now();
	std::string_view rest = flood;
	while (!rest.empty() && SteadyClock::now() - start < 10s) {
		ssize_t n = ::send(g1.get(), rest.data(), rest.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0)
			rest.remove_prefix(static_cast<std::size_t>(n));
		srv.serve(1ms);
	}
	EXPECT_TRUE(rest.empty());
	EXPECT_LT(SteadyClock::now() - start, 10s);
	// And a reconnect (a new qemu on the same socket) is served.
	Fd again = connect_guest(1);
	send(again, "9 ping\n");
	EXPECT_EQ(answer(srv, again, 1), "ok 9\n");
}

TEST_F(ServerTest, SocketsRemoved)
{
	{
		ControlServer srv(run, run, 2, ControlHandler({{0, 1}}, mons.fn()));
		EXPECT_TRUE(fs::exists(control_socket(run, 1)));
	}
	EXPECT_FALSE(fs::exists(control_socket(run, 0)));
	EXPECT_FALSE(fs::exists(control_socket(run, 1)));
	EXPECT_THROW(ControlServer(run / "missing", run / "missing", 1, ControlHandler({}, mons.fn())),
		     std::runtime_error);
}

} // namespace
} // namespace vmtest
