// SPDX-License-Identifier: GPL-2.0
#include "logscan.hpp"

#include <gtest/gtest.h>

namespace vmtest {
namespace {

constexpr const char *lockdep_splat = R"([   14.201337] 
[   14.201802] ======================================================
[   14.202147] WARNING: possible circular locking dependency detected
[   14.202504] 6.1.0-lnet-debug #1 Tainted: G           O      
[   14.202851] ------------------------------------------------------
[   14.203197] insmod/212 is trying to acquire lock:
[   14.203480] ffffffffc0210090 (selfcheck_b){+.+.}-{3:3}, at: selfcheck_lockdep+0x5c/0xa0 [lnet_selfcheck]
[   14.204022] 
[   14.204022] but task is already holding lock:
[   14.204410] ffffffffc0210050 (selfcheck_a){+.+.}-{3:3}, at: selfcheck_lockdep+0x50/0xa0 [lnet_selfcheck]
[   14.204951] 
[   14.204951] which lock already depends on the new lock.
[   14.205516] 
[   14.205516] the existing dependency chain (in reverse order) is:
[   14.206870]  Possible unsafe locking scenario:
[   14.207240]        CPU0                    CPU1
[   14.207520]        ----                    ----
[   14.207800]   lock(selfcheck_a);
[   14.208001]                                lock(selfcheck_b);
[   14.208340]  *** DEADLOCK ***
[   14.210000] Call Trace:
[   14.210150]  <TASK>
[   14.210280]  dump_stack_lvl+0x45/0x5e
[   14.210500]  check_noncircular+0x10c/0x130
[   14.210720]  </TASK>
)";

constexpr const char *kasan_report = R"([   20.511002] ==================================================================
[   20.511610] BUG: KASAN: slab-out-of-bounds in selfcheck_kasan+0x2a/0x40 [lnet_selfcheck]
[   20.512200] Write of size 1 at addr ffff888003c1a8c8 by task insmod/230
[   20.512700] 
[   20.512800] CPU: 0 PID: 230 Comm: insmod Tainted: G           O       6.1.0-lnet-debug #1
[   20.513400] Call Trace:
[   20.513500]  <TASK>
[   20.513600]  kasan_report+0xb9/0xf0
[   20.513800]  </TASK>
[   20.513900] Allocated by task 230:
[   20.514000] The buggy address belongs to the object at ffff888003c1a8c0
[   20.514100] Disabling lock debugging due to kernel taint
[   20.514200] ==================================================================
)";

TEST(LogScan, LockdepSplatIsLockdepOnly)
{
	auto found = scan_console(lockdep_splat);
	ASSERT_EQ(found.size(), 1u);
	EXPECT_EQ(found[0].category, Category::lockdep);
	EXPECT_EQ(found[0].line, "WARNING: possible circular locking dependency detected");
}

TEST(LogScan, KasanReportIsKasanOnly)
{
	auto found = scan_console(kasan_report);
	ASSERT_EQ(found.size(), 1u);
	EXPECT_EQ(found[0].category, Category::kasan);
	EXPECT_EQ(found[0].line,
		  "BUG: KASAN: slab-out-of-bounds in selfcheck_kasan+0x2a/0x40 [lnet_selfcheck]");
}

TEST(LogScan, WarningWithCrLf)
{
	auto found = scan_console(
		"[    5.100000] ------------[ cut here ]------------\r\n"
		"[    5.100100] WARNING: CPU: 0 PID: 1 at lnet/api.c:42 lnet_init+0x10/0x20 [lnet]\r\n"
		"[    5.100200] Modules linked in: lnet(O+)\r\n"
		"[    5.100300] ---[ end trace 0000000000000000 ]---\r\n");
	ASSERT_EQ(found.size(), 1u);
	EXPECT_EQ(found[0].category, Category::warning);
	EXPECT_EQ(found[0].line, "WARNING: CPU: 0 PID: 1 at lnet/api.c:42 lnet_init+0x10/0x20 [lnet]");
}

TEST(LogScan, CleanBootLogHasNothing)
{
	auto found = scan_console(
		"[    0.000000] Linux version 6.1.0-56-amd64 (debian-kernel@lists.debian.org)\r\n"
		"[    0.000000] Command line: console=ttyS0,115200 panic=-1 loglevel=7 "
		"lnt.init=/work/main/scripts/guest/init.sh\r\n"
		"[    0.120000] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to "
		"RETBleed attacks, data leaks possible!\r\n"
		"[    0.130000] Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on\r\n"
		"[    0.900000] KTAP version 1\r\n"
		"[    0.900001] 1..0\r\n"
		"[    1.500000] Call Trace:\r\n"
		"[    1.500001]  <TASK>\r\n"
		"[    1.500002]  dump_stack_lvl+0x45/0x5e\r\n"
		"[    1.600000] ok 1 lnet_nid\r\n"
		"[    1.700000] debug_objects: BUGGY object? no, just a name\r\n"
		"initramfs: mounting the host root\r\n"
		"[    2.000000] reboot: Restarting system\r\n");
	for (const auto &f : found)
		ADD_FAILURE() << to_string(f.category) << ": " << f.line;
}

TEST(LogScan, BugCategories)
{
	const char *lines[] = {
		"[    3.0] BUG: unable to handle page fault for address: 0000000000000008",
		"[    3.0] Oops: 0002 [#1] PREEMPT SMP NOPTI",
		"[    3.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100",
		"[    3.0] general protection fault, probably for non-canonical address",
		"[  243.0] INFO: task kworker/0:1:33 blocked for more than 120 seconds.",
		"[   50.0] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [insmod:212]",
		"[    3.0] UBSAN: array-index-out-of-bounds in lnet/lib-move.c:100:5",
		"[    3.0] BUG: sleeping function called from invalid context at mm/slab.h:712",
	};
	for (const char *line : lines) {
		auto c = classify_console_line(line);
		ASSERT_TRUE(c) << line;
		EXPECT_EQ(*c, Category::bug) << line;
	}
	EXPECT_FALSE(classify_console_line("[    3.0] Oopsie daisy"));
}

TEST(LogScan, LockdepVariants)
{
	for (const char *line : {"WARNING: possible recursive locking detected",
				 "WARNING: inconsistent lock state",
				 "[    9.9][    T1] WARNING: suspicious RCU usage"}) {
		auto c = classify_console_line(line);
		ASSERT_TRUE(c) << line;
		EXPECT_EQ(*c, Category::lockdep) << line;
	}
}

TEST(LogScan, KmemleakOnConsoleAndInReport)
{
	auto c = classify_console_line(
		"[   60.0] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)");
	ASSERT_TRUE(c);
	EXPECT_EQ(*c, Category::kmemleak);

	auto found = scan_kmemleak("unreferenced object 0xffff888004a6e000 (size 64):\n"
				   "  comm \"insmod\", pid 240, jiffies 4294937000 (age 12.5s)\n"
				   "  hex dump (first 32 bytes):\n"
				   "unreferenced object 0xffff888004a6e100 (size 64):\n");
	ASSERT_EQ(found.size(), 2u);
	EXPECT_EQ(found[0].category, Category::kmemleak);
	EXPECT_EQ(found[0].line, "unreferenced object 0xffff888004a6e000 (size 64):");
	EXPECT_TRUE(scan_kmemleak("").empty());
}

TEST(LogScan, MessageOfStripsTimestampAndCaller)
{
	EXPECT_EQ(message_of("[   12.5] hello"), "hello");
	EXPECT_EQ(message_of("[   12.5][  T42] hello\r"), "hello");
	EXPECT_EQ(message_of("plain"), "plain");
}

TEST(LogScan, CategoryNames)
{
	for (auto c : all_categories)
		EXPECT_EQ(category_from_string(to_string(c)), c);
	EXPECT_EQ(category_from_string("kunit-fail"), Category::kunit_fail);
	EXPECT_FALSE(category_from_string("panic"));
}

} // namespace
} // namespace vmtest
