// SPDX-License-Identifier: GPL-2.0
#include "process.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;
using Argv = std::vector<std::string>;

fs::path temp_log(const char *tag)
{
	return fs::temp_directory_path() /
	       ("vmtest-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".log");
}

// Running or stopped; a zombie (whose parent has not reaped it yet) is dead.
bool alive(pid_t pid)
{
	std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
	std::string line;
	if (!std::getline(stat, line))
		return false;
	auto close = line.rfind(')');
	return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(Process, RunLastLine)
{
	EXPECT_EQ(run_last_line(Argv{"sh", "-c", "echo first; echo; echo ' last '; echo '  '"}),
		  " last");
	EXPECT_THROW(run_last_line(Argv{"sh", "-c", "echo x; exit 3"}), std::runtime_error);
	EXPECT_THROW(run_last_line(Argv{"sh", "-c", "true"}), std::runtime_error);
	try {
		run_last_line(Argv{"/nonexistent/tool"});
		ADD_FAILURE() << "no exception";
	} catch (const std::runtime_error &e) {
		EXPECT_NE(std::string(e.what()).find("cannot run /nonexistent/tool"),
			  std::string::npos)
			<< e.what();
	}
}

TEST(Process, ChildLogsAndExitStatus)
{
	auto log = temp_log("exit");
	ChildGroup child(Argv{"sh", "-c", "echo out; echo err >&2; exit 4"}, log);
	while (child.running())
		::usleep(10000);
	ASSERT_TRUE(child.wait_status());
	EXPECT_EQ(describe_status(*child.wait_status()), "exit status 4");
	std::ifstream in(log);
	std::stringstream text;
	text << in.rdbuf();
	fs::remove(log);
	EXPECT_EQ(text.str(), "out\nerr\n");
}

TEST(Process, DestructorKillsTheWholeGroup)
{
	auto log = temp_log("group");
	pid_t leader, grandchild;
	{
		// The shell ignores SIGTERM, so teardown has to escalate to
		// SIGKILL; its background child must go too.
		ChildGroup child(Argv{"sh", "-c", "trap '' TERM; sleep 60 & echo $!; wait"}, log);
		leader = child.pid();
		EXPECT_EQ(::getpgid(leader), leader);
		std::string line;
		for (int i = 0; i < 200 && line.empty(); i++) {
			::usleep(10000);
			std::ifstream in(log);
			std::getline(in, line);
		}
		ASSERT_FALSE(line.empty());
		grandchild = std::stoi(line);
		EXPECT_TRUE(child.running());
	}
	fs::remove(log);
	EXPECT_FALSE(alive(leader));
	// The grandchild was reparented; give init a moment to reap it.
	for (int i = 0; i < 100 && alive(grandchild); i++)
		::usleep(10000);
	EXPECT_FALSE(alive(grandchild));
}

TEST(Process, TerminateAllIsQuickForWellBehavedChildren)
{
	std::vector<ChildGroup> children;
	for (int i = 0; i < 3; i++)
		children.emplace_back(Argv{"sleep", "60"}, "/dev/null");
	auto start = std::chrono::steady_clock::now();
	terminate_all(children, std::chrono::seconds(5));
	EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
	for (auto &c : children) {
		EXPECT_FALSE(c.running());
		ASSERT_TRUE(c.wait_status());
		EXPECT_TRUE(WIFSIGNALED(*c.wait_status()));
	}
}

TEST(Process, CannotStartMissingProgram)
{
	EXPECT_THROW(ChildGroup(Argv{"/nonexistent/qemu"}, "/dev/null"), std::runtime_error);
}

} // namespace
} // namespace vmtest
