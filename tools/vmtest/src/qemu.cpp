// SPDX-License-Identifier: GPL-2.0
#include "qemu.hpp"

namespace vmtest {

std::string kernel_append(const std::filesystem::path &top,
			  std::span<const std::string> extra)
{
	std::string line = "console=ttyS0,115200 panic=-1 loglevel=7 lnt.init=" +
			   (top / "scripts/guest/init.sh").string();
	for (const auto &word : extra)
		line += " " + word;
	return line;
}

std::string netdev_id(int link)
{
	return "l" + std::to_string(link);
}

std::filesystem::path link_socket(const std::filesystem::path &run_dir, int link)
{
	return run_dir / (netdev_id(link) + ".sock");
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
		"-chardev", "socket,id=control,path=" + dir + "/control.sock",
		"-serial", "chardev:control",
		"-monitor", "unix:" + dir + "/monitor.sock,server,nowait",
		// No default user-mode NIC: the guest's NICs are its links only.
		"-nic", "none",
	};
	for (const auto &nic : guest.nics) {
		const auto id = netdev_id(nic.link);
		argv.push_back("-netdev");
		argv.push_back("stream,id=" + id + ",server=" + (nic.listens ? "on" : "off") +
			       ",addr.type=unix,addr.path=" +
			       link_socket(run.run_dir, nic.link).string());
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
		if (c == ' ' || c == '\t' || c == '\n')
			return "contains whitespace (kernel command line)";
	}
	return {};
}

} // namespace vmtest
