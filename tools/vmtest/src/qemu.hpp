// SPDX-License-Identifier: GPL-2.0
// The qemu command line of one guest (a pure function of the run's
// parameters, so it can be unit-tested without booting anything).
#pragma once

#include "topology.hpp"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

struct QemuRun {
	std::filesystem::path kernel_image{}; // bzImage
	std::filesystem::path initramfs{};
	std::filesystem::path top{};          // work tree; init is scripts/guest/init.sh
	std::filesystem::path run_dir{};      // guest i uses run_dir/g<i>
	std::filesystem::path socket_dir{};   // the run's Unix sockets (short path)
	int mem_mb = 1024;
	int smp = 1;
	std::span<const std::string> kernel_args{}; // extra command-line words
};

// The kernel command line: console on the first serial port, reboot (so
// qemu exits, given -no-reboot) at once on panic, init named for the
// initramfs as lnt.init= (percent-encoded, see encode_cmdline_path).
std::string kernel_append(const std::filesystem::path &top,
			  std::span<const std::string> extra = {});

// The qemu netdev id of link k on both of its guests ("l<k>"): the name
// set_link takes.
std::string netdev_id(int link);

// A path as one kernel command-line word: every byte but [A-Za-z0-9/._+-]
// becomes %XX, so a work tree under "/root/my tree" still boots; the
// initramfs decodes it.
std::string encode_cmdline_path(const std::filesystem::path &p);

// The run's Unix sockets live in their own directory, not in the run
// directory: a sockaddr_un holds 107 bytes, and a work tree may sit at any
// depth. make_socket_dir() makes a fresh one under $TMPDIR (or /tmp, when
// $TMPDIR would make the paths too long); the caller removes it.
std::filesystem::path make_socket_dir();

// Guest i's control channel (qemu connects; the runner listens) and its
// qemu monitor (QMP; qemu listens): socket_dir/g<i>-control.sock and
// socket_dir/g<i>-monitor.sock.
std::filesystem::path control_socket(const std::filesystem::path &socket_dir, int guest);
std::filesystem::path monitor_socket(const std::filesystem::path &socket_dir, int guest);

// The Unix stream socket that carries link k's frames (socket_dir/l<k>.sock):
// its guest A's qemu listens there, guest B's connects. A Unix socket, not
// TCP on 127.0.0.1: the host TCP connection between two qemus delays the
// second of two back-to-back small frames by up to a delayed-ACK timeout
// (40 ms; Nagle, qemu sets no TCP_NODELAY), which made every small-message
// round trip in the guests a benchmark of the host's TCP stack.
std::filesystem::path link_socket(const std::filesystem::path &socket_dir, int link);

// The guest's device for its control channel (the second serial port,
// connected to control_socket()).
inline constexpr std::string_view guest_control_device = "/dev/ttyS1";

// argv of qemu-system-x86_64 for guest (argv[0] included).
std::vector<std::string> qemu_argv(const QemuRun &run, const GuestPlan &guest);

// Paths end up inside qemu's comma-separated option strings: reject ','
// and line breaks there (empty string = fine). Spaces are fine.
std::string unsafe_path_reason(const std::filesystem::path &p);

} // namespace vmtest
