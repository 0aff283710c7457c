// SPDX-License-Identifier: GPL-2.0
#include "process.hpp"

#include "fd.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vmtest {
namespace {

volatile std::sig_atomic_t received_signal = 0;

extern "C" void on_signal(int sig)
{
	if (!received_signal)
		received_signal = sig;
}

std::string errno_text(int err)
{
	return std::strerror(err);
}

Fd open_or_throw(const char *path, int flags, mode_t mode = 0)
{
	Fd fd(::open(path, flags | O_CLOEXEC, mode));
	if (!fd)
		throw std::runtime_error(std::string(path) + ": " + errno_text(errno));
	return fd;
}

// fork + exec with the child leading a new process group. An exec failure
// comes back through a close-on-exec pipe as the child's errno.
pid_t spawn_group(std::span<const std::string> argv, int out_fd, int err_fd)
{
	if (argv.empty())
		throw std::runtime_error("internal error: empty argv");
	std::vector<std::string> copies(argv.begin(), argv.end());
	std::vector<char *> cargv;
	for (auto &s : copies)
		cargv.push_back(s.data());
	cargv.push_back(nullptr);

	Fd devnull = open_or_throw("/dev/null", O_RDONLY);
	int pipefd[2];
	if (::pipe2(pipefd, O_CLOEXEC) != 0)
		throw std::runtime_error("pipe: " + errno_text(errno));
	Fd report_read(pipefd[0]), report_write(pipefd[1]);
	const pid_t parent = ::getpid();

	pid_t pid = ::fork();
	if (pid < 0)
		throw std::runtime_error("fork: " + errno_text(errno));
	if (pid == 0) {
		// Child: only async-signal-safe calls from here on.
		::setpgid(0, 0);
		::prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (::getppid() != parent)
			::_exit(127);
		::dup2(devnull.get(), STDIN_FILENO);
		if (out_fd >= 0)
			::dup2(out_fd, STDOUT_FILENO);
		if (err_fd >= 0)
			::dup2(err_fd, STDERR_FILENO);
		::signal(SIGPIPE, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		::sigprocmask(SIG_SETMASK, &none, nullptr);
		::execvp(cargv[0], cargv.data());
		int err = errno;
		[[maybe_unused]] auto n = ::write(report_write.get(), &err, sizeof(err));
		::_exit(127);
	}
	::setpgid(pid, pid); // also done by the child; whoever runs first wins
	report_write.reset();
	int err = 0;
	ssize_t n;
	do
		n = ::read(report_read.get(), &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	if (n == sizeof(err)) {
		int status;
		while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		throw std::runtime_error("cannot run " + argv[0] + ": " + errno_text(err));
	}
	return pid;
}

} // namespace

Interrupted::Interrupted(int sig)
	: std::runtime_error(std::string("interrupted by ") + ::strsignal(sig)), signal(sig)
{
}

void install_signal_handlers()
{
	struct sigaction sa {};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; // no SA_RESTART: blocking reads return EINTR
	for (int sig : {SIGINT, SIGTERM, SIGHUP})
		::sigaction(sig, &sa, nullptr);
	::signal(SIGPIPE, SIG_IGN);
}

int pending_signal()
{
	return received_signal;
}

void check_interrupted()
{
	if (int sig = pending_signal())
		throw Interrupted(sig);
}

ChildGroup::ChildGroup(std::span<const std::string> argv, int stdout_fd, int stderr_fd)
	: pid_(spawn_group(argv, stdout_fd, stderr_fd))
{
}

ChildGroup::ChildGroup(std::span<const std::string> argv, const std::filesystem::path &log)
{
	Fd fd = open_or_throw(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	pid_ = spawn_group(argv, fd.get(), fd.get());
}

ChildGroup::ChildGroup(ChildGroup &&other) noexcept
	: pid_(std::exchange(other.pid_, -1)), status_(std::exchange(other.status_, std::nullopt))
{
}

ChildGroup &ChildGroup::operator=(ChildGroup &&other) noexcept
{
	if (this != &other) {
		terminate();
		pid_ = std::exchange(other.pid_, -1);
		status_ = std::exchange(other.status_, std::nullopt);
	}
	return *this;
}

ChildGroup::~ChildGroup()
{
	terminate();
}

bool ChildGroup::running()
{
	if (pid_ <= 0 || status_)
		return false;
	int status = 0;
	pid_t r = ::waitpid(pid_, &status, WNOHANG);
	if (r == pid_) {
		status_ = status;
		return false;
	}
	if (r < 0 && errno == ECHILD) {
		status_ = 0;
		return false;
	}
	return true;
}

void ChildGroup::signal_group(int sig) const
{
	if (pid_ > 0 && !status_)
		::kill(-pid_, sig);
}

void ChildGroup::terminate()
{
	if (pid_ > 0 && !status_)
		terminate_all(std::span(this, 1), std::chrono::seconds(5));
}

void terminate_all(std::span<ChildGroup> children, std::chrono::milliseconds grace)
{
	auto any_running = [&] {
		bool any = false;
		for (auto &c : children)
			any = c.running() || any;
		return any;
	};
	if (!any_running())
		return;
	for (auto &c : children)
		c.signal_group(SIGTERM);
	const auto deadline = std::chrono::steady_clock::now() + grace;
	while (any_running() && std::chrono::steady_clock::now() < deadline)
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
	for (auto &c : children) {
		if (!c.running())
			continue;
		c.signal_group(SIGKILL);
		while (c.running())
			std::this_thread::sleep_for(std::chrono::milliseconds(10));
	}
}

std::string run_last_line(std::span<const std::string> argv)
{
	int pipefd[2];
	if (::pipe2(pipefd, O_CLOEXEC) != 0)
		throw std::runtime_error("pipe: " + errno_text(errno));
	Fd out_read(pipefd[0]), out_write(pipefd[1]);
	ChildGroup child(argv, out_write.get(), -1);
	out_write.reset();

	std::string output;
	char buf[4096];
	bool killed = false;
	for (;;) {
		ssize_t n = ::read(out_read.get(), buf, sizeof(buf));
		if (n > 0) {
			output.append(buf, static_cast<size_t>(n));
			continue;
		}
		if (n == 0)
			break;
		if (errno != EINTR)
			throw std::runtime_error(argv[0] + ": read: " + errno_text(errno));
		if (pending_signal() && !killed) {
			child.signal_group(SIGTERM);
			killed = true;
		}
	}
	while (child.running())
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	check_interrupted();

	int status = child.wait_status().value_or(0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		throw std::runtime_error(argv[0] + " failed (" + describe_status(status) + ")");
	std::string last;
	size_t start = 0;
	while (start < output.size()) {
		size_t end = output.find('\n', start);
		if (end == std::string::npos)
			end = output.size();
		std::string line = output.substr(start, end - start);
		if (line.find_first_not_of(" \t\r") != std::string::npos)
			last = line;
		start = end + 1;
	}
	while (!last.empty() && (last.back() == '\r' || last.back() == ' '))
		last.pop_back();
	if (last.empty())
		throw std::runtime_error(argv[0] + " printed nothing");
	return last;
}


std::string describe_status(int status)
{
	if (WIFEXITED(status))
		return "exit status " + std::to_string(WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return std::string("killed by ") + ::strsignal(WTERMSIG(status));
	return "wait status " + std::to_string(status);
}

} // namespace vmtest
