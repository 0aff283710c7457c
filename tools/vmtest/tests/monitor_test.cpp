// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// What qemu 7.2 sends for "set_link l9 off" typed into its monitor
// (abridged echo: qemu redraws the line after every character).
const std::string_view qemu_error =
	"s\x1b[K\x1b[Dse\x1b[K\x1b[D\x1b[Dset_link l9 off\x1b[K\r\n"
	"Error: Device 'l9' not found\r\n(qemu) ";
const std::string_view qemu_silent = "s\x1b[K\x1b[Dset_link l0 off\x1b[K\r\n(qemu) ";

TEST(Monitor, Output)
{
	EXPECT_EQ(hmp_output(qemu_silent), "");
	EXPECT_EQ(hmp_output(qemu_error), "Error: Device 'l9' not found");
	EXPECT_EQ(hmp_output("info network\x1b[K\r\ne1000.0: index=0\r\n \\ l0: index=0\r\n(qemu) "),
		  "e1000.0: index=0\n \\ l0: index=0");
	EXPECT_EQ(hmp_output(""), "");
	EXPECT_EQ(hmp_output("(qemu) "), "");
}

fs::path temp_socket(const char *tag)
{
	return fs::temp_directory_path() /
	       ("vmtest-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".sock");
}

// A stand-in for qemu's HMP monitor: one client at a time, banner and
// prompt, echoes each line, answers "set_link l0 ..." silently and
// anything else with an error. mute: never sends anything.
class FakeMonitor {
public:
	explicit FakeMonitor(fs::path path, bool mute = false)
		: path_(std::move(path)), listener_(listen_unix(path_)), mute_(mute),
		  thread_([this](std::stop_token st) { run(st); })
	{
	}
	~FakeMonitor()
	{
		thread_.request_stop();
		thread_.join();
		std::error_code ec;
		fs::remove(path_, ec);
	}
	std::vector<std::string> commands() const
	{
		std::lock_guard lock(mutex_);
		return commands_;
	}

private:
	void send(int fd, std::string_view s) { (void)::send(fd, s.data(), s.size(), MSG_NOSIGNAL); }

	void run(std::stop_token st)
	{
		while (!st.stop_requested()) {
			if (!wait_fd(listener_.get(), POLLIN, SteadyClock::now() + 20ms))
				continue;
			Fd c(::accept(listener_.get(), nullptr, nullptr));
			if (!c)
				continue;
			if (!mute_)
				send(c.get(), "QEMU 7.2.22 monitor - type 'help' for more information\r\n(qemu) ");
			std::string line;
			while (!st.stop_requested()) {
				if (!wait_fd(c.get(), POLLIN, SteadyClock::now() + 20ms))
					continue;
				char ch;
				if (::recv(c.get(), &ch, 1, MSG_DONTWAIT) <= 0)
					break;
				if (ch != '\n') {
					line += ch;
					continue;
				}
				{
					std::lock_guard lock(mutex_);
					commands_.push_back(line);
				}
				if (mute_)
					continue;
				std::string answer = line + "\x1b[K\r\n";
				if (line.rfind("set_link l0 ", 0) != 0)
					answer += "Error: Device 'x' not found\r\n";
				send(c.get(), answer + "(qemu) ");
				line.clear();
			}
		}
	}

	fs::path path_;
	Fd listener_;
	bool mute_;
	mutable std::mutex mutex_;
	std::vector<std::string> commands_;
	std::jthread thread_;
};

TEST(Monitor, RunCommands)
{
	const auto path = temp_socket("hmp");
	FakeMonitor mon(path);
	const auto deadline = SteadyClock::now() + 5s;
	EXPECT_EQ(hmp_run(path, "set_link l0 off", deadline), "");
	EXPECT_EQ(hmp_run(path, "set_link l0 on", deadline), "");
	EXPECT_EQ(hmp_run(path, "set_link l7 on", deadline), "Error: Device 'x' not found");
	EXPECT_EQ(mon.commands(),
		  (std::vector<std::string>{"set_link l0 off", "set_link l0 on", "set_link l7 on"}));
}

TEST(Monitor, NobodyListens)
{
	const auto path = temp_socket("hmp-none");
	std::error_code ec;
	fs::remove(path, ec);
	EXPECT_THROW(hmp_run(path, "set_link l0 off", SteadyClock::now() + 1s), std::runtime_error);
	{
		// A socket file left by a qemu that exited.
		Fd stale = listen_unix(path);
	}
	EXPECT_THROW(hmp_run(path, "set_link l0 off", SteadyClock::now() + 1s), std::runtime_error);
	fs::remove(path, ec);
}

TEST(Monitor, SilentMonitorTimesOut)
{
	const auto path = temp_socket("hmp-mute");
	FakeMonitor mon(path, true);
	const auto start = SteadyClock::now();
	EXPECT_THROW(hmp_run(path, "set_link l0 off", start + 300ms), std::runtime_error);
	const auto took = SteadyClock::now() - start;
	EXPECT_GE(took, 300ms);
	EXPECT_LT(took, 3s);
}

TEST(Monitor, PathTooLong)
{
	const fs::path path = "/tmp/" + std::string(max_socket_path(), 'x');
	EXPECT_THROW(listen_unix(path), std::runtime_error);
	EXPECT_THROW(hmp_run(path, "info network", SteadyClock::now() + 1s), std::runtime_error);
}

} // namespace
} // namespace vmtest
