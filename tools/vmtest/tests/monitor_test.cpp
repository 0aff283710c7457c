// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <mutex>
#include <thread>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string greeting =
	"{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 22, \"minor\": 2, \"major\": 7}, "
	"\"package\": \"Debian 1:7.2+dfsg-7+deb12u18\"}, \"capabilities\": [\"oob\"]}}\r\n";

// What the fake writes, in order; each chunk is its own write, after a
// short pause, so that the client sees the stream cut at chunk boundaries.
using Chunks = std::vector<std::string>;

// Every byte on its own.
Chunks bytewise(std::string_view s)
{
	Chunks out;
	for (const char c : s)
		out.emplace_back(1, c);
	return out;
}

std::string answer(const Json &id, const Json &value = Json::object())
{
	return Json{{"return", value}, {"id", id}}.dump() + "\r\n";
}

std::string event(std::string_view name)
{
	return Json{{"event", name},
		    {"timestamp", {{"seconds", 1}, {"microseconds", 2}}}}.dump() + "\r\n";
}

// A stand-in for qemu's QMP monitor: on each connection it writes the
// greeting chunks, then answers every command line it reads with what
// respond() returns. The default answers qmp_capabilities with an empty
// return, set_link of "l0" with an empty return, any other set_link with
// DeviceNotFound, anything else with CommandNotFound. Either the qemu end
// of a socket pair (client_end() is the other) or a listener on a path.
class FakeQemu {
public:
	using Respond = std::function<Chunks(const Json &command)>;

	explicit FakeQemu(Chunks hello = {greeting}, Respond respond = standard)
		: hello_(std::move(hello)), respond_(std::move(respond))
	{
		int sv[2];
		if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0)
			throw std::runtime_error("socketpair");
		client_ = Fd(sv[0]);
		server_ = Fd(sv[1]);
		thread_ = std::jthread([this](std::stop_token st) { session(server_.get(), st); });
	}

	FakeQemu(fs::path path, Chunks hello = {greeting}, Respond respond = standard)
		: hello_(std::move(hello)), respond_(std::move(respond)), path_(std::move(path)),
		  server_(listen_unix(path_))
	{
		thread_ = std::jthread([this](std::stop_token st) { listen(st); });
	}

	~FakeQemu()
	{
		stop();
		if (!path_.empty()) {
			std::error_code ec;
			fs::remove(path_, ec);
		}
	}

	Fd client_end() { return std::move(client_); }

	// Closes the qemu end of a socket pair.
	void hang_up()
	{
		stop();
		server_.reset();
	}

	std::vector<Json> commands() const
	{
		std::lock_guard lock(mutex_);
		return commands_;
	}

	static Chunks standard(const Json &cmd)
	{
		const std::string name = cmd.value("execute", "");
		if (name == "qmp_capabilities")
			return {answer(cmd["id"])};
		if (name == "set_link" && cmd["arguments"]["name"] == "l0")
			return {answer(cmd["id"])};
		const auto [cls, desc] =
			name == "set_link"
				? std::pair{"DeviceNotFound",
					    "Device '" + cmd["arguments"]["name"].get<std::string>() +
						    "' not found"}
				: std::pair{"CommandNotFound",
					    "The command " + name + " has not been found"};
		return {Json{{"error", {{"class", cls}, {"desc", desc}}}, {"id", cmd["id"]}}.dump() +
			"\r\n"};
	}

private:
	void stop()
	{
		if (thread_.joinable()) {
			thread_.request_stop();
			thread_.join();
		}
	}

	static void write(int fd, const Chunks &chunks, std::stop_token st)
	{
		for (const auto &c : chunks) {
			if (st.stop_requested())
				return;
			std::this_thread::sleep_for(1ms);
			(void)::send(fd, c.data(), c.size(), MSG_NOSIGNAL);
		}
	}

	void listen(std::stop_token st)
	{
		while (!st.stop_requested()) {
			if (!wait_fd(server_.get(), POLLIN, SteadyClock::now() + 20ms))
				continue;
			Fd c(::accept(server_.get(), nullptr, nullptr));
			if (c)
				session(c.get(), st);
		}
	}

	void session(int fd, std::stop_token st)
	{
		write(fd, hello_, st);
		std::string line;
		while (!st.stop_requested()) {
			if (!wait_fd(fd, POLLIN, SteadyClock::now() + 20ms))
				continue;
			char ch;
			if (::recv(fd, &ch, 1, MSG_DONTWAIT) <= 0)
				break;
			if (ch != '\n') {
				line += ch;
				continue;
			}
			const Json cmd = Json::parse(line);
			line.clear();
			{
				std::lock_guard lock(mutex_);
				commands_.push_back(cmd);
			}
			write(fd, respond_(cmd), st);
		}
	}

	Chunks hello_;
	Respond respond_;
	fs::path path_{};
	Fd client_{};
	Fd server_{};
	mutable std::mutex mutex_;
	std::vector<Json> commands_;
	std::jthread thread_;
};

SteadyClock::time_point soon()
{
	return SteadyClock::now() + 5s;
}

TEST(Monitor, Handshake)
{
	FakeQemu qemu;
	QmpClient c(qemu.client_end(), "g0", soon());
	EXPECT_EQ(c.greeting().version["qemu"]["major"], 7);
	EXPECT_EQ(c.greeting().capabilities, std::vector<std::string>{"oob"});
	EXPECT_EQ(qemu.commands(), std::vector<Json>{Json::parse(
					   R"({"execute": "qmp_capabilities", "id": 1})")});
}

TEST(Monitor, ReturnAndError)
{
	FakeQemu qemu;
	QmpClient c(qemu.client_end(), "g0", soon());
	EXPECT_EQ(c.execute("set_link", {{"name", "l0"}, {"up", false}}, soon()), Json::object());
	try {
		c.execute("set_link", {{"name", "l9"}, {"up", true}}, soon());
		FAIL() << "no error";
	} catch (const QmpCommandError &e) {
		EXPECT_EQ(e.error_class(), "DeviceNotFound");
		EXPECT_STREQ(e.what(), "Device 'l9' not found");
	}
	// The session goes on after an error.
	EXPECT_THROW(c.execute("frobnicate", Json::object(), soon()), QmpCommandError);
	const auto cmds = qemu.commands();
	ASSERT_EQ(cmds.size(), 4U);
	EXPECT_EQ(cmds[1], Json::parse(
		R"({"execute": "set_link", "arguments": {"name": "l0", "up": false}, "id": 2})"));
	EXPECT_EQ(cmds[3]["id"], 4);
	EXPECT_TRUE(c.take_events().empty());
}

// Events before and after an answer: the answer is found, the events are
// kept in order, and an event that follows an answer is only seen on the
// next command.
Chunks with_events(const Json &cmd)
{
	const std::string name = cmd["execute"];
	if (name == "qmp_capabilities")
		return {event("RESUME"), answer(cmd["id"])};
	if (name == "system_powerdown")
		return {event("POWERDOWN"), answer(cmd["id"]) + event("SHUTDOWN"), event("STOP")};
	if (name == "query-status")
		return {event("X") + answer(cmd["id"], {{"status", "shutdown"}, {"running", false}})};
	return FakeQemu::standard(cmd);
}

TEST(Monitor, EventsInterleaved)
{
	FakeQemu qemu({greeting}, with_events);
	QmpClient c(qemu.client_end(), "g0", soon());
	auto names = [&] {
		std::vector<std::string> out;
		for (const auto &ev : c.take_events())
			out.push_back(ev.name);
		return out;
	};
	EXPECT_EQ(names(), std::vector<std::string>{"RESUME"});
	EXPECT_EQ(c.execute("system_powerdown", Json::object(), soon()), Json::object());
	EXPECT_EQ(names(), std::vector<std::string>{"POWERDOWN"});
	EXPECT_EQ(c.execute("query-status", Json::object(), soon())["status"], "shutdown");
	EXPECT_EQ(names(), (std::vector<std::string>{"SHUTDOWN", "STOP", "X"}));
	EXPECT_TRUE(names().empty());
}

// An event before the greeting is not QMP.
TEST(Monitor, EventBeforeGreeting)
{
	FakeQemu qemu({event("RESUME"), greeting});
	EXPECT_THROW(QmpClient(qemu.client_end(), "g0", soon()), std::runtime_error);
}

TEST(Monitor, PartialReads)
{
	FakeQemu qemu(bytewise(greeting), [](const Json &cmd) {
		if (cmd["execute"] == "query-status")
			return bytewise(event("STOP") +
					answer(cmd["id"], {{"status", "paused"}, {"running", false}}));
		return bytewise(FakeQemu::standard(cmd)[0]);
	});
	QmpClient c(qemu.client_end(), "g0", soon());
	const Json status = c.execute("query-status", Json::object(), soon());
	EXPECT_EQ(status["status"], "paused");
	EXPECT_EQ(status["running"], false);
	const auto events = c.take_events();
	ASSERT_EQ(events.size(), 1U);
	EXPECT_EQ(events[0].name, "STOP");
	EXPECT_EQ(events[0].seconds, 1);
	EXPECT_EQ(events[0].microseconds, 2);
}

// A late answer (another id) is skipped; an error without an id (qemu
// could not parse the command) is the command's.
TEST(Monitor, AnswerIds)
{
	FakeQemu qemu({greeting}, [](const Json &cmd) -> Chunks {
		if (cmd["execute"] == "query-status")
			return {answer(99, "stale"), answer(cmd["id"], "fresh")};
		if (cmd["execute"] == "bad")
			return {R"({"error": {"class": "GenericError", "desc": "JSON parse error"}})"
				"\r\n"};
		return FakeQemu::standard(cmd);
	});
	QmpClient c(qemu.client_end(), "g0", soon());
	EXPECT_EQ(c.execute("query-status", Json::object(), soon()), "fresh");
	EXPECT_THROW(c.execute("bad", Json::object(), soon()), QmpCommandError);
}

TEST(Monitor, NotQmp)
{
	FakeQemu hmp(Chunks{"QEMU 7.2.22 monitor - type 'help' for more information\r\n(qemu) "});
	try {
		QmpClient c(hmp.client_end(), "g0-monitor.sock", soon());
		FAIL() << "no error";
	} catch (const std::runtime_error &e) {
		EXPECT_NE(std::string(e.what()).find("g0-monitor.sock: "), std::string::npos);
	}
	FakeQemu answer_first(Chunks{answer(1)});
	EXPECT_THROW(QmpClient(answer_first.client_end(), "g0", soon()), std::runtime_error);
	FakeQemu twice({greeting}, [](const Json &cmd) -> Chunks {
		if (cmd["execute"] == "query-status")
			return {greeting};
		return FakeQemu::standard(cmd);
	});
	QmpClient c(twice.client_end(), "g0", soon());
	EXPECT_THROW(c.execute("query-status", Json::object(), soon()), std::runtime_error);
}

TEST(Monitor, HangUp)
{
	FakeQemu qemu;
	QmpClient c(qemu.client_end(), "g0", soon());
	qemu.hang_up();
	EXPECT_THROW(c.execute("query-status", Json::object(), soon()), std::runtime_error);
}

TEST(Monitor, SilentMonitorTimesOut)
{
	FakeQemu mute(Chunks{});
	const auto start = SteadyClock::now();
	EXPECT_THROW(QmpClient(mute.client_end(), "g0", start + 300ms), std::runtime_error);
	const auto took = SteadyClock::now() - start;
	EXPECT_GE(took, 300ms);
	EXPECT_LT(took, 3s);
}

fs::path temp_socket(const char *tag)
{
	return fs::temp_directory_path() /
	       ("vmtest-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".sock");
}

TEST(Monitor, RunOnSocket)
{
	const auto path = temp_socket("qmp");
	FakeQemu qemu(path);
	const auto deadline = soon();
	EXPECT_EQ(qmp_run(path, "set_link", {{"name", "l0"}, {"up", false}}, deadline), "");
	EXPECT_EQ(qmp_run(path, "set_link", {{"name", "l0"}, {"up", true}}, deadline), "");
	EXPECT_EQ(qmp_run(path, "set_link", {{"name", "l7"}, {"up", true}}, deadline),
		  "Error: Device 'l7' not found");
	std::vector<std::string> seen;
	for (const auto &cmd : qemu.commands())
		seen.push_back(cmd.dump());
	EXPECT_EQ(seen, (std::vector<std::string>{
				R"({"execute":"qmp_capabilities","id":1})",
				R"({"arguments":{"name":"l0","up":false},"execute":"set_link","id":2})",
				R"({"execute":"qmp_capabilities","id":1})",
				R"({"arguments":{"name":"l0","up":true},"execute":"set_link","id":2})",
				R"({"execute":"qmp_capabilities","id":1})",
				R"({"arguments":{"name":"l7","up":true},"execute":"set_link","id":2})",
			}));
}

TEST(Monitor, NobodyListens)
{
	const auto path = temp_socket("qmp-none");
	std::error_code ec;
	fs::remove(path, ec);
	EXPECT_THROW(qmp_run(path, "query-status", Json::object(), SteadyClock::now() + 1s),
		     std::runtime_error);
	{
		// A socket file left by a qemu that exited.
		Fd stale = listen_unix(path);
	}
	EXPECT_THROW(qmp_run(path, "query-status", Json::object(), SteadyClock::now() + 1s),
		     std::runtime_error);
	fs::remove(path, ec);
}

TEST(Monitor, PathTooLong)
{
	const fs::path path = "/tmp/" + std::string(max_socket_path(), 'x');
	EXPECT_THROW(listen_unix(path), std::runtime_error);
	EXPECT_THROW(qmp_run(path, "query-status", Json::object(), SteadyClock::now() + 1s),
		     std::runtime_error);
}

} // namespace
} // namespace vmtest
