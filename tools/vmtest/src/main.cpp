// SPDX-License-Identifier: GPL-2.0
// lnet-vmtest: boots the guests of one test suite under qemu, links them,
// enforces the timeout, always tears qemu down, and judges the run
// (Documentation/testing.md).
#include "control.hpp"
#include "options.hpp"
#include "process.hpp"
#include "qemu.hpp"
#include "rundir.hpp"
#include "topology.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>

namespace {

using namespace vmtest;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto listen_wait = 10s;
constexpr auto kill_grace = 5s;

// The qemu processes of a run; all of them are torn down together on every
// way out of the run (normal end, timeout, exception, signal).
struct Fleet {
	std::vector<ChildGroup> guests;
	Fleet() = default;
	Fleet(const Fleet &) = delete;
	Fleet &operator=(const Fleet &) = delete;
	~Fleet() { terminate_all(guests, kill_grace); }
};

void require_file(const fs::path &p, std::string_view hint)
{
	if (!fs::is_regular_file(p))
		throw std::runtime_error(p.string() + " not found: " + std::string(hint));
}

void require_safe(const fs::path &p, std::string_view what)
{
	if (auto why = unsafe_path_reason(p); !why.empty())
		throw std::runtime_error(std::string(what) + " " + p.string() + " " + why);
}

void write_text(const fs::path &p, const std::string &text)
{
	std::ofstream out(p, std::ios::binary | std::ios::trunc);
	out << text;
	out.close();
	if (!out)
		throw std::runtime_error("cannot write " + p.string());
}

struct BootFiles {
	fs::path image;
	fs::path moddir;
	fs::path initramfs;
};

BootFiles resolve_boot_files(const Options &o)
{
	const fs::path scripts = o.top / "scripts";
	BootFiles b;
	if (o.kernel == Kernel::stock) {
		auto tool = (scripts / "stock-kernel.sh").string();
		require_file(tool, "is --top (or LNET_TOP) the work tree?");
		auto version = run_last_line(std::vector<std::string>{tool});
		b.image = "/boot/vmlinuz-" + version;
		require_file(b.image, "run make deps");
		b.moddir = o.top / "build" / "stock";
	} else {
		auto tool = (scripts / "build-debug-kernel.sh").string();
		require_file(tool, "is --top (or LNET_TOP) the work tree?");
		fs::path dir = run_last_line(std::vector<std::string>{tool});
		b.image = dir / "arch/x86/boot/bzImage";
		require_file(b.image, "run make debug-kernel");
		b.moddir = o.top / "build" / "debug";
	}
	auto mkinitramfs = (scripts / "mkinitramfs.sh").string();
	require_file(mkinitramfs, "is --top (or LNET_TOP) the work tree?");
	b.initramfs = run_last_line(std::vector<std::string>{mkinitramfs});
	require_file(b.initramfs, "scripts/mkinitramfs.sh did not make it");
	return b;
}

std::string shell_command(const std::vector<std::string> &argv)
{
	std::string out;
	for (const auto &word : argv)
		out += (out.empty() ? "" : " ") + shell_quote(word);
	return out + "\n";
}

// Waits until the guest at the listening end of a link has its socket, so
// that the connecting guest's qemu finds it. Not probed with a connection:
// the listening qemu serves one peer.
void wait_for_listener(ChildGroup &listener, const GuestPlan &who, const fs::path &socket,
		       const fs::path &run)
{
	const auto until = Clock::now() + listen_wait;
	while (!fs::exists(socket)) {
		check_interrupted();
		if (!listener.running())
			throw std::runtime_error(who.name() + "'s qemu exited before listening on " +
						 socket.string() + " (see " +
						 (run / who.name() / "qemu.log").string() + ")");
		if (Clock::now() >= until)
			throw std::runtime_error(who.name() + " does not listen on " +
						 socket.string() + " after " +
						 std::to_string(listen_wait.count()) + " s");
		std::this_thread::sleep_for(50ms);
	}
	// qemu binds (the file appears), then listens: let it get there
	std::this_thread::sleep_for(200ms);
}

// The run's socket directory, removed on every way out of the run.
struct SocketDir {
	fs::path path = make_socket_dir();
	SocketDir() = default;
	SocketDir(const SocketDir &) = delete;
	SocketDir &operator=(const SocketDir &) = delete;
	~SocketDir()
	{
		std::error_code ec;
		fs::remove_all(path, ec);
	}
};

// One run's guests at a time on this machine: two suites' guests sharing
// two host cores make each other's timings, and so their timeouts, wrong.
// Held from before the first guest boots to the end of the run; a second
// run waits here, before its own timeout starts.
Fd take_machine_lock()
{
	const char *path = "/tmp/lnet-vmtest.lock";
	Fd fd(::open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666));
	if (!fd)
		throw std::system_error(errno, std::generic_category(), path);
	if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0)
		return fd;
	std::cerr << "lnet-vmtest: waiting for another run's guests to end (" << path << ")\n";
	while (::flock(fd.get(), LOCK_EX) != 0) {
		if (errno != EINTR)
			throw std::system_error(errno, std::generic_category(), path);
		check_interrupted();
	}
	return fd;
}

// Where the debug kernel and the reference node's build are cached; the
// guest needs it for the latter.
fs::path cache_dir()
{
	if (const char *c = std::getenv("LNET_CACHE"); c && *c)
		return c;
	const char *home = std::getenv("HOME");
	return fs::path(home && *home ? home : "/root") / ".cache/lnet-dev";
}

std::vector<fs::path> host_paths(const Options &o, const BootFiles &boot)
{
	std::vector<fs::path> paths{o.top, o.script.parent_path(), boot.moddir, cache_dir()};
	if (const auto shared = (o.top / "../shared").lexically_normal(); fs::is_directory(shared))
		paths.push_back(shared);
	paths.insert(paths.end(), o.shares.begin(), o.shares.end());
	return paths;
}

void print_results(std::span<const Result> results, bool verbose, std::string_view prefix = {})
{
	for (const auto &r : results)
		if (!r.passed || verbose)
			std::cout << prefix << format_result(r) << "\n";
}

// Boots the guests in index order. Guest A of a link listens, so it is
// up before guest B connects; the fleet's guard tears down whatever was
// started if anything goes wrong.
void start_guests(Fleet &fleet, const Options &o, const BootFiles &boot,
		  std::span<const GuestPlan> plans, const fs::path &socket_dir)
{
	const RunEnv env{
		.guest_count = o.guests,
		.script = o.script,
		.args = o.args,
		.kernel = to_string(o.kernel),
		.top = o.top,
		.moddir = boot.moddir,
		.control = guest_control_device,
		.cache = cache_dir(),
		.extra_env = o.env,
	};
	const auto shown = host_paths(o, boot);
	const QemuRun qemu{
		.kernel_image = boot.image,
		.initramfs = boot.initramfs,
		.top = o.top,
		.run_dir = o.run_dir,
		.socket_dir = socket_dir,
		.mem_mb = o.mem_mb,
		.smp = o.smp,
		.kernel_args = o.kernel_args,
	};
	fleet.guests.reserve(plans.size());
	for (const auto &plan : plans) {
		const fs::path dir = o.run_dir / plan.name();
		write_text(dir / "env", render_env(plan, env));
		write_text(dir / "host-paths", render_host_paths(shown));
		const auto argv = qemu_argv(qemu, plan);
		write_text(dir / "qemu.cmd", shell_command(argv));
		for (const auto &nic : plan.nics) {
			if (nic.listens)
				continue;
			const auto a = static_cast<size_t>(o.links[static_cast<size_t>(nic.link)].a);
			wait_for_listener(fleet.guests[a], plans[a], link_socket(socket_dir, nic.link),
					  o.run_dir);
		}
		fleet.guests.emplace_back(argv, dir / "qemu.log");
		if (o.verbose)
			std::cerr << "lnet-vmtest: " << plan.name() << ": qemu pid "
				  << fleet.guests.back().pid() << "\n";
	}
}

// Waits for every guest to power off or the deadline, serving their control
// requests meanwhile, then stops the rest. Returns how each one ended.
std::vector<GuestExit> wait_for_guests(Fleet &fleet, ControlServer &control, const Options &o,
				       Clock::time_point deadline)
{
	auto any_running = [&] {
		bool any = false;
		for (auto &g : fleet.guests)
			any = g.running() || any;
		return any;
	};
	while (any_running() && Clock::now() < deadline) {
		check_interrupted();
		control.serve(100ms);
	}
	std::vector<GuestExit> exits(fleet.guests.size());
	bool late = false;
	for (size_t i = 0; i < exits.size(); i++) {
		if (fleet.guests[i].running()) {
			late = true;
			exits[i].note = "timed out after " + std::to_string(o.timeout_s) + " s";
		}
	}
	if (late)
		std::cerr << "lnet-vmtest: " << o.suite << ": timeout after " << o.timeout_s
			  << " s, stopping the guests still running\n";
	terminate_all(fleet.guests, kill_grace);
	for (size_t i = 0; i < exits.size(); i++) {
		if (!exits[i].note.empty())
			continue;
		const int status = fleet.guests[i].wait_status().value_or(0);
		exits[i].finished = WIFEXITED(status);
		if (status != 0)
			exits[i].note = "qemu " + describe_status(status) + " (see qemu.log)";
	}
	return exits;
}

// Prints the results and the suite line; returns the exit status.
int report(const Options &o, const Verdict &verdict)
{
	std::vector<Result> counted = verdict.results;
	if (o.expect) {
		// A self-check: the usual verdict is only informational.
		print_results(verdict.results, o.verbose, "info ");
		counted = expect_results(verdict, *o.expect);
	}
	print_results(counted, o.verbose);
	std::cout << summary_line(o.suite, counted) << std::endl;
	const auto failed = count_failed(counted);
	if (failed)
		std::cerr << "lnet-vmtest: " << o.suite << ": logs in " << o.run_dir.string() << "\n";
	return failed == 0 ? 0 : 1;
}

int run(const Options &o)
{
	require_safe(o.top, "work tree");
	require_safe(o.run_dir, "run directory");
	require_file(o.top / "scripts/guest/init.sh", "is --top (or LNET_TOP) the work tree?");
	require_file(o.script, "check --script");
	for (const auto &p : o.shares)
		if (!fs::is_directory(p))
			throw std::runtime_error("--share " + p.string() + " is not a directory");
	const BootFiles boot = resolve_boot_files(o);
	require_safe(boot.image, "kernel");
	require_safe(boot.initramfs, "initramfs");
	if (!fs::is_directory(boot.moddir))
		std::cerr << "lnet-vmtest: warning: " << boot.moddir.string() << " does not exist (make "
			  << (o.kernel == Kernel::stock ? "modules" : "modules-debug") << ")\n";
	check_interrupted();

	prepare_run_dir(o.run_dir, o.top, o.guests);
	const auto plans = plan_guests(o.guests, o.links);
	if (o.verbose)
		std::cerr << "lnet-vmtest: " << o.suite << ": " << o.guests << " guest(s), "
			  << to_string(o.kernel) << " kernel " << boot.image.string() << ", run dir "
			  << o.run_dir.string() << "\n";

	std::vector<GuestExit> exits;
	{
		const Fd machine = take_machine_lock();
		const SocketDir sockets;
		// qemu connects to its control socket at startup: listen first.
		ControlServer control(o.run_dir, sockets.path, o.guests,
				      ControlHandler(o.links, qmp_monitors(sockets.path)));
		Fleet fleet;
		const auto deadline = Clock::now() + std::chrono::seconds(o.timeout_s);
		start_guests(fleet, o, boot, plans, sockets.path);
		exits = wait_for_guests(fleet, control, o, deadline);
	}
	std::vector<GuestEvidence> evidence;
	for (const auto &plan : plans)
		evidence.push_back(load_evidence(o.run_dir / plan.name(), plan.name(),
						 exits[static_cast<size_t>(plan.index)]));
	return report(o, judge(evidence));
}

} // namespace

int main(int argc, char **argv)
{
	install_signal_handlers();
	std::error_code ec;
	auto cwd = fs::current_path(ec);
	auto parsed = parse_options(std::span<const char *const>(argv, static_cast<size_t>(argc)),
				    std::getenv("LNET_TOP"), cwd, std::cout, std::cerr);
	if (!parsed.options)
		return parsed.exit_code;
	try {
		return run(*parsed.options);
	} catch (const Interrupted &e) {
		std::cerr << "lnet-vmtest: " << e.what() << "; guests torn down\n";
		return 128 + e.signal;
	} catch (const std::exception &e) {
		std::cerr << "lnet-vmtest: " << e.what() << "\n";
		return 2;
	}
}
