// SPDX-License-Identifier: GPL-2.0
//
// lnet-ioctlfuzz --as root|user [--seed N] [--first N] [--cases N]
//                [--no-changes] [--device PATH]
// lnet-ioctlfuzz --as root|user --fixed [--device PATH]
//
// Seeded, reproducible fuzzing of /dev/lnet. Every case is generated from
// (seed, index) alone: "--first 4711 --cases 1" runs case 4711 of a run
// again by itself. Prints "not ok case N: ... # why" for each answer the
// documented checks forbid, a histogram of the answers, and one
// "ok"/"not ok" line per check; exit status 1 if any check failed.
//
// --as user must run without CAP_NET_ADMIN (setpriv --reuid=65534 ...):
// every command but the core's reads must be refused, and the node's
// configuration (NIs, routes) must be the same afterwards. --as root also
// sends the commands that tear down and rebuild the configuration (unless
// --no-changes), and at the end checks that LNet can be configured again.
//
// --fixed runs a fixed list of malformed calls instead (fixed_cases.hpp),
// each with the errno it must get: one "ok"/"not ok" line per check.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <linux/lnet/lnet-ioctl.h>

#include "arena.hpp"
#include "cases.hpp"
#include "fixed_cases.hpp"
#include "lnet/dev_lnet.hpp"
#include "oracle.hpp"
#include "report.hpp"

namespace {

using ioctlfuzz::Case;
using ioctlfuzz::errno_label;

// The node's configuration as an unprivileged caller can read it: every
// NI's NID and status, every route.
std::vector<std::string> snapshot(lnet::LnetDevice &dev)
{
	std::vector<std::string> seen;
	for (std::uint32_t i = 0; i < 4096; i++) {
		struct lnet_ioctl_config_ni ni {};
		ni.lic_hdr.ioc_len = sizeof(ni);
		ni.lic_hdr.ioc_version = LNET_IOCTL_VERSION2;
		ni.lic_idx = i;
		const int err = dev.try_ioctl(LNET_IOC_GET_LOCAL_NI, &ni);
		if (err) {
			seen.push_back("ni end " + std::to_string(err));
			break;
		}
		seen.push_back("ni " + std::to_string(ni.lic_nid) + " " +
			       std::to_string(ni.lic_status));
	}
	for (std::uint32_t i = 0; i < 4096; i++) {
		struct lnet_ioctl_config_data r {};
		r.cfg_hdr.ioc_len = sizeof(r);
		r.cfg_hdr.ioc_version = LNET_IOCTL_VERSION2;
		r.cfg_count = i;
		const int err = dev.try_ioctl(LNET_IOC_GET_ROUTE, &r);
		if (err) {
			seen.push_back("route end " + std::to_string(err));
			break;
		}
		seen.push_back("route " + std::to_string(r.cfg_net) + " " +
			       std::to_string(r.cfg_nid));
	}
	return seen;
}

// Fault injection (failslab, fail_page_alloc with task-filter) for this
// process only: everything it will touch is locked in memory first, so
// that no failed allocation lands in a page fault on the root file system
// (a 9p mount in the test guests) instead of in /dev/lnet's commands.
//
// The switch is opened while allocations still succeed and stays open:
// opening it again with failures on can fail, which left them on for the
// rest of the process - its output and its exit on the 9p root - and broke
// that mount for every process in the guest. Writing to it allocates
// nothing, but the copy from user space may be failed too: retried.
class FaultSwitch {
public:
	FaultSwitch() : fd_(::open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC)) {}
	~FaultSwitch()
	{
		if (fd_ < 0)
			return;
		set(false);
		::close(fd_);
	}
	FaultSwitch(const FaultSwitch &) = delete;
	FaultSwitch &operator=(const FaultSwitch &) = delete;

	bool on()
	{
		return fd_ >= 0 && ::mlockall(MCL_CURRENT | MCL_FUTURE) == 0 && set(true);
	}
	bool set(bool on)
	{
		for (int i = 0; fd_ >= 0 && i < 1000; i++)
			if (::write(fd_, on ? "1" : "0", 1) == 1)
				return true;
		return false;
	}

private:
	int fd_;
};

// The seeded fuzz run, on @dev (open already).
int fuzz(lnet::LnetDevice &dev, const std::string &as, std::uint64_t seed, std::uint64_t first,
	 std::uint64_t cases, bool changes, bool fail_allocations, ioctlfuzz::Report &report)
{
	const bool privileged = as == "root";
	ioctlfuzz::Options opt;
	opt.seed = seed;
	opt.privileged = privileged;
	opt.changes = changes;
	const auto before = privileged ? std::vector<std::string>{} : snapshot(dev);

	ioctlfuzz::Arena arena;
	std::map<std::string, unsigned long> answers;
	std::vector<std::string> complaints;	// printed once faults are off
	complaints.reserve(51);
	unsigned long bad = 0;
	FaultSwitch faults;
	if (fail_allocations && !faults.on()) {
		report.result(false, "fail allocations",
			      std::string("make-it-fail: ") + std::strerror(errno));
		return 1;
	}
	for (std::uint64_t i = first; i < first + cases; i++) {
		const Case k = ioctlfuzz::make_case(opt, i);
		void *arg = arena.place(k);
		const int err = dev.try_ioctl(k.cmd, arg);
		answers[errno_label(err)]++;
		auto e = ioctlfuzz::expect(k, privileged);
		e.enomem_ok = fail_allocations;
		const std::string why = ioctlfuzz::judge(k, e, err);
		if (!why.empty() && ++bad <= 50)
			complaints.push_back("not ok " + k.describe() + " # " + why);
	}
	if (fail_allocations && !faults.set(false)) {
		report.result(false, "fail allocations turned off",
			      std::string("make-it-fail: ") + std::strerror(errno));
		return 1;
	}
	for (const auto &line : complaints)
		std::cout << line << "\n";
	std::cout << "# seed " << seed << ", cases " << first << ".." << first + cases - 1
		  << ", answers:";
	for (const auto &[label, n] : answers)
		std::cout << " [" << label << "] " << n;
	std::cout << "\n";
	report.result(bad == 0, "fuzz as " + as + ": every answer the checks allow",
	       std::to_string(bad) + " unexpected answers (first 50 above)");

	if (!privileged) {
		report.result(snapshot(dev) == before, "user: configuration unchanged",
		       "NIs or routes differ after the run");
		return report.exit_status();
	}
	// LNet may have been torn down by a case: it must come back
	struct {
		struct lnet_ioctl_data d;
	} conf{};
	conf.d.ioc_hdr.ioc_len = sizeof(conf.d);
	conf.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION;
	int err = dev.try_ioctl(LNET_IOC_CONFIGURE, &conf.d);
	report.result(err == 0, "root: CONFIGURE after the run", errno_label(err));
	struct lnet_ioctl_config_ni ni {};
	ni.lic_hdr.ioc_len = sizeof(ni);
	ni.lic_hdr.ioc_version = LNET_IOCTL_VERSION2;
	err = dev.try_ioctl(LNET_IOC_GET_LOCAL_NI, &ni);
	report.result(err == 0 && ni.lic_nid == LNET_NID_LO_0, "root: NI 0 is 0@lo after the run",
	       errno_label(err));
	return report.exit_status();
}

int run(const std::string &as, bool fixed, std::uint64_t seed, std::uint64_t first,
	std::uint64_t cases, bool changes, bool fail_allocations, const std::string &device)
{
	const bool privileged = as == "root";
	if (privileged != (::geteuid() == 0)) {
		std::cerr << "lnet-ioctlfuzz: --as " << as << " but running as uid " << ::geteuid()
			  << (privileged ? "" : " (use setpriv --reuid=65534 --regid=65534 --clear-groups)")
			  << "\n";
		return 2;
	}
	ioctlfuzz::Report report(std::cout);
	lnet::LnetDevice dev(device);
	try {
		dev.open();
	} catch (const lnet::DevLnetError &e) {
		report.result(false, "open " + device, e.what());
		return 1;
	}
	if (!fixed)
		return fuzz(dev, as, seed, first, cases, changes, fail_allocations, report);
	report.result(true, "open " + device);
	run_fixed(dev, privileged ? ioctlfuzz::Who::root : ioctlfuzz::Who::user, report);
	return report.exit_status();
}

}  // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"lnet-ioctlfuzz: seeded, reproducible fuzzing of /dev/lnet, or fixed bad calls"
	};
	std::string as;
	std::uint64_t seed = 1, first = 0, cases = 5000;
	bool fixed = false, no_changes = false, fail_allocations = false;
	std::string device = "/dev/lnet";
	app.add_option("--as", as, "root (all commands) or user (no CAP_NET_ADMIN)")
		->required()
		->check(CLI::IsMember({ "root", "user" }));
	auto *fixed_flag = app.add_flag("--fixed", fixed,
					"run the fixed malformed calls instead of fuzzing");
	const std::vector<CLI::Option *> fuzz_only{
		app.add_option("--seed", seed, "the run's seed"),
		app.add_option("--first", first,
			       "index of the first case (replay: --first N --cases 1)"),
		app.add_option("--cases", cases, "how many cases")
			->check(CLI::Range(1ULL, 100000000ULL)),
		app.add_flag("--no-changes", no_changes,
			     "root: leave out the commands that reconfigure"),
		app.add_flag("--fail-allocations", fail_allocations,
			     "fail this process's kernel allocations as failslab/fail_page_alloc"
			     " are set (task-filter): ENOMEM becomes an allowed answer"),
	};
	for (auto *opt : fuzz_only)
		fixed_flag->excludes(opt);
	app.add_option("--device", device, "the device")->capture_default_str();
	CLI11_PARSE(app, argc, argv);
	try {
		return run(as, fixed, seed, first, cases, !no_changes, fail_allocations, device);
	} catch (const std::exception &e) {
		std::cerr << "lnet-ioctlfuzz: " << e.what() << "\n";
		return 1;
	}
}
