// SPDX-License-Identifier: GPL-2.0
#include "qemu.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace vmtest {

namespace fs = std::filesystem;

// The longest socket name below ("g252-monitor.sock") with its '/'.
constexpr std::size_t longest_socket_name = 18;
constexpr std::size_t sun_path_max = 107;

std::string encode_cmdline_path(const fs::path &p)
{
	std::string out;
	for (unsigned char c : p.string()) {
		const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				   (c >= '0' && c <= '9') || c == '/' || c == '.' || c == '_' ||
				   c == '+' || c == '-';
		if (plain) {
			out += static_cast<char>(c);
		} else {
			char hex[4];
			std::snprintf(hex, sizeof(hex), "%%%02X", c);
			out += hex;
		}
	}
	return out;
}

fs::path make_socket_dir()
{
	// "/lnt-XXXXXX" plus a socket name must fit in a sockaddr_un
	const std::size_t room = sun_path_max - longest_socket_name - 11;
	std::string base = "/tmp";
	if (const char *t = std::getenv("TMPDIR"); t && *t == '/' && std::string_view(t).size() <= room)
		base = t;
	std::string templ = base + "/lnt-XXXXXX";
	if (!::mkdtemp(templ.data()))
		throw std::system_error(errno, std::generic_category(),
					"cannot make a socket directory " + templ);
	return templ;
}

fs::path control_socket(const fs::path &socket_dir, int guest)
{
	return socket_dir / ("g" + std::to_string(guest) + "-control.sock");
}

fs::path monitor_socket(const fs::path &socket_dir, int guest)
{
	return socket_dir / ("g" + std::to_string(guest) + "-monitor.sock");
}

std::string kernel_append(const std::filesystem::path &top,
			  std::span<const std::string> extra)
{
	std::string line = "console=ttyS0,115200 panic=-1 loglevel=7 lnt.init=" +
			   encode_cmdline_path(top / "scripts/guest/init.sh");
	for (const auto &word : extra)
		line += " " + word;
	return line;
}

std::string netdev_id(int link)
{
	return "l" + std::to_string(link);
}

fs::path link_socket(const fs::path &socket_dir, int link)
{
	return socket_dir / (netdev_id(link) + ".sock");
}

std::vector<std::string> qemu_argv(const QemuRun &run, const GuestPlan &guest)
{
	const auto dir = (run.run_dir / guest.name()).string();
	std::vector<std::string> argv{
		"qemu-system-x86_64",
		"-accel", "tcg,thread=multi",
		"-cpu", "max",
		"-smp", std::to_string(run.smp),
		"-m", std::to_string(run.mem_mb),
		"-nographic",
		"-no-reboot",
		"-display", "none",
		"-kernel", run.kernel_image.string(),
		"-initrd", run.initramfs.string(),
		"-append", kernel_append(run.top, run.kernel_args),
		// The host root spans several file systems: remap their inode
		// numbers so that the guest never sees two files as one.
		"-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
		"-virtfs", "local,path=" + dir + ",mount_tag=out,security_model=none",
		"-serial", "file:" + dir + "/console.log",
		// The control channel: ttyS1, a client of the runner's socket.
		"-chardev", "socket,id=control,path=" +
			control_socket(run.socket_dir, guest.index).string(),
		"-serial", "chardev:control",
		// The monitor speaks QMP only: no human monitor anywhere.
		"-monitor", "none",
		"-qmp", "unix:" + monitor_socket(run.socket_dir, guest.index).string() +
			",server=on,wait=off",
		// No default user-mode NIC: the guest's NICs are its links only.
		"-nic", "none",
	};
	for (const auto &nic : guest.nics) {
		const auto id = netdev_id(nic.link);
		argv.push_back("-netdev");
		argv.push_back("stream,id=" + id + ",server=" + (nic.listens ? "on" : "off") +
			       ",addr.type=unix,addr.path=" +
			       link_socket(run.socket_dir, nic.link).string());
		argv.push_back("-device");
		argv.push_back("e1000,netdev=" + id + ",mac=" + nic.mac);
	}
	return argv;
}

std::string unsafe_path_reason(const std::filesystem::path &p)
{
	for (char c : p.string()) {
		if (c == ',')
			return "contains ',' (qemu option syntax)";
		if (c == '\n' || c == '\r')
			return "contains a line break";
	}
	return {};
}

} // namespace vmtest
