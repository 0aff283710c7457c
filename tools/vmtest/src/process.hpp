// SPDX-License-Identifier: GPL-2.0
// Child processes: helper scripts whose last output line we need, and qemu
// guests, each the leader of its own process group, torn down by RAII.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/types.h>

namespace vmtest {

// A SIGINT, SIGTERM or SIGHUP arrived (see install_signal_handlers).
struct Interrupted : std::runtime_error {
	explicit Interrupted(int sig);
	int signal;
};

// Record SIGINT/SIGTERM/SIGHUP instead of dying, so that every qemu is
// torn down by its guard before the runner exits; ignore SIGPIPE.
void install_signal_handlers();
// The signal received so far, or 0.
int pending_signal();
// Throws Interrupted if a signal arrived.
void check_interrupted();

// Runs argv (stdin /dev/null, stderr inherited) and returns the last
// non-empty line of its stdout. Throws std::runtime_error if it cannot be
// run or exits non-zero, Interrupted on a signal (after killing it).
std::string run_last_line(std::span<const std::string> argv);

// A running child in its own process group, with stdout and stderr sent to
// a log file. Destroying it terminates the group: SIGTERM, then SIGKILL if
// it is still there after the grace period. The child also gets SIGKILL if
// the runner dies without running destructors (PR_SET_PDEATHSIG).
class ChildGroup {
public:
	// Throws std::runtime_error if the program cannot be started.
	ChildGroup(std::span<const std::string> argv, const std::filesystem::path &log);
	// Same with stdout/stderr on the given descriptors (-1: inherit).
	ChildGroup(std::span<const std::string> argv, int stdout_fd, int stderr_fd);
	ChildGroup(ChildGroup &&other) noexcept;
	ChildGroup &operator=(ChildGroup &&other) noexcept;
	ChildGroup(const ChildGroup &) = delete;
	ChildGroup &operator=(const ChildGroup &) = delete;
	~ChildGroup();

	pid_t pid() const { return pid_; }
	// Reaps the child if it has exited; true while it runs.
	bool running();
	// The waitpid() status once reaped.
	std::optional<int> wait_status() const { return status_; }
	// Sends sig to the whole group if the leader has not been reaped.
	void signal_group(int sig) const;

private:
	void terminate();

	pid_t pid_ = -1;
	std::optional<int> status_;
};

// Terminates all groups together: SIGTERM to each, up to grace for all of
// them to exit, then SIGKILL to the rest, and reaps them.
void terminate_all(std::span<ChildGroup> children, std::chrono::milliseconds grace);

// "signal 9", "exit status 1": a waitpid() status for messages.
std::string describe_status(int status);

} // namespace vmtest
