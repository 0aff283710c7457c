// SPDX-License-Identifier: GPL-2.0
#include "qemu.hpp"

#include <gtest/gtest.h>

#include <array>

namespace vmtest {
namespace {

using Argv = std::vector<std::string>;

Argv common_head(const std::string &guest)
{
	const std::string dir = "/w/build/vmtest/smoke/" + guest;
	return {
		"qemu-system-x86_64",
		"-accel", "tcg,thread=multi",
		"-cpu", "max",
		"-smp", "1",
		"-m", "1024",
		"-nographic",
		"-no-reboot",
		"-display", "none",
		"-kernel", "/boot/vmlinuz-6.1.0-56-amd64",
		"-initrd", "/cache/initramfs.cpio.gz",
		"-append", "console=ttyS0,115200 panic=-1 loglevel=7 lnt.init=/w/scripts/guest/init.sh",
		"-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
		"-virtfs", "local,path=" + dir + ",mount_tag=out,security_model=none",
		"-serial", "file:" + dir + "/console.log",
		"-chardev", "socket,id=control,path=/tmp/lnt-abc/" + guest + "-control.sock",
		"-serial", "chardev:control",
		"-monitor", "none",
		"-qmp", "unix:/tmp/lnt-abc/" + guest + "-monitor.sock,server=on,wait=off",
		"-nic", "none",
	};
}

Argv concat(Argv a, const Argv &b)
{
	a.insert(a.end(), b.begin(), b.end());
	return a;
}

struct TwoGuests : ::testing::Test {
	std::vector<Link> links{{0, 1}};
	std::vector<GuestPlan> plans = plan_guests(2, links);
	QemuRun run{
		.kernel_image = "/boot/vmlinuz-6.1.0-56-amd64",
		.initramfs = "/cache/initramfs.cpio.gz",
		.top = "/w",
		.run_dir = "/w/build/vmtest/smoke",
		.socket_dir = "/tmp/lnt-abc",
		.mem_mb = 1024,
	};
};

TEST_F(TwoGuests, ListeningSide)
{
	EXPECT_EQ(qemu_argv(run, plans[0]),
		  concat(common_head("g0"), {
						    "-netdev", "stream,id=l0,server=on,addr.type=unix,"
							    "addr.path=/tmp/lnt-abc/l0.sock",
						    "-device", "e1000,netdev=l0,mac=52:54:00:00:00:00",
					    }));
}

TEST_F(TwoGuests, ConnectingSide)
{
	EXPECT_EQ(qemu_argv(run, plans[1]),
		  concat(common_head("g1"), {
						    "-netdev", "stream,id=l0,server=off,addr.type=unix,"
							    "addr.path=/tmp/lnt-abc/l0.sock",
						    "-device", "e1000,netdev=l0,mac=52:54:00:00:00:01",
					    }));
}

TEST(Qemu, MiddleOfAChainHasBothLinksInOrder)
{
	auto links = default_links(3);
	auto plans = plan_guests(3, links);
	QemuRun run{.kernel_image = "/k", .initramfs = "/i", .top = "/t", .run_dir = "/r",
		    .socket_dir = "/s", .mem_mb = 512};
	auto argv = qemu_argv(run, plans[1]);
	Argv tail(argv.end() - 8, argv.end());
	EXPECT_EQ(tail, (Argv{
				"-netdev", "stream,id=l0,server=off,addr.type=unix,addr.path=/s/l0.sock",
				"-device", "e1000,netdev=l0,mac=52:54:00:00:00:01",
				"-netdev", "stream,id=l1,server=on,addr.type=unix,addr.path=/s/l1.sock",
				"-device", "e1000,netdev=l1,mac=52:54:00:00:01:01",
			}));
	EXPECT_EQ(argv[8], "512");
}

TEST(Qemu, GuestWithoutLinksHasNoNic)
{
	auto plans = plan_guests(1, {});
	QemuRun run{.kernel_image = "/k", .initramfs = "/i", .top = "/t", .run_dir = "/r"};
	auto argv = qemu_argv(run, plans[0]);
	EXPECT_EQ(argv.back(), "none");
	EXPECT_EQ(argv[argv.size() - 2], "-nic");
}

TEST(Qemu, NetdevIdIsTheLinkNumber)
{
	EXPECT_EQ(netdev_id(0), "l0");
	EXPECT_EQ(netdev_id(12), "l12");
}

TEST(Qemu, KernelAppend)
{
	EXPECT_EQ(kernel_append("/work/main"),
		  "console=ttyS0,115200 panic=-1 loglevel=7 lnt.init=/work/main/scripts/guest/init.sh");
}

TEST(Qemu, KernelAppendExtraWords)
{
	const std::vector<std::string> extra{"possible_cpus=8", "lnet.debug=1"};
	EXPECT_EQ(kernel_append("/w", extra),
		  "console=ttyS0,115200 panic=-1 loglevel=7 lnt.init=/w/scripts/guest/init.sh "
		  "possible_cpus=8 lnet.debug=1");
}

TEST(Qemu, KernelAppendEncodesTheInitPath)
{
	EXPECT_EQ(kernel_append("/root/my tree/50%"),
		  "console=ttyS0,115200 panic=-1 loglevel=7 "
		  "lnt.init=/root/my%20tree/50%25/scripts/guest/init.sh");
	EXPECT_EQ(encode_cmdline_path("/a_b-c.d+e/\t\"'"), "/a_b-c.d+e/%09%22%27");
}

TEST(Qemu, UnsafePaths)
{
	EXPECT_EQ(unsafe_path_reason("/work/main/build/vmtest/smoke"), "");
	EXPECT_EQ(unsafe_path_reason("/tmp/a b"), "");
	EXPECT_NE(unsafe_path_reason("/tmp/a,b"), "");
	EXPECT_NE(unsafe_path_reason("/tmp/a\nb"), "");
}

TEST(Qemu, SocketsFitASockaddrWhateverTheTree)
{
	const auto dir = make_socket_dir();
	EXPECT_TRUE(std::filesystem::is_directory(dir));
	EXPECT_LE(monitor_socket(dir, max_guests - 1).string().size(), 107U);
	EXPECT_LE(link_socket(dir, max_links - 1).string().size(), 107U);
	EXPECT_EQ(control_socket("/s", 3), "/s/g3-control.sock");
	EXPECT_EQ(monitor_socket("/s", 3), "/s/g3-monitor.sock");
	std::filesystem::remove_all(dir);
}

} // namespace
} // namespace vmtest
