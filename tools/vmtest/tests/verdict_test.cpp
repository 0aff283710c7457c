// SPDX-License-Identifier: GPL-2.0
#include "verdict.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;

const char *clean_console = "[    0.0] Linux version 6.1.0\r\n[    9.0] reboot: Restarting system\r\n";

GuestEvidence good_guest(std::string name)
{
	return GuestEvidence{
		.name = std::move(name),
		.exit = {.finished = true},
		.results = "ok ping\nok route\n",
		.ktap = {},
		.status = "0\n",
		.console = clean_console,
		.kmemleak = std::nullopt,
	};
}

const Result *find(const Verdict &v, std::string_view name)
{
	for (const auto &r : v.results)
		if (r.name == name)
			return &r;
	return nullptr;
}

TEST(Verdict, ResultsFile)
{
	auto rs = results_file("g0", "ok load modules\nnot ok ping g1 # no reply after 3 s\r\n\n"
				     "not ok bare\ngarbage here\n");
	ASSERT_EQ(rs.size(), 4u);
	EXPECT_EQ(rs[0].name, "g0: load modules");
	EXPECT_TRUE(rs[0].passed);
	EXPECT_EQ(rs[1].name, "g0: ping g1");
	EXPECT_FALSE(rs[1].passed);
	EXPECT_EQ(rs[1].reason, "no reply after 3 s");
	EXPECT_EQ(rs[2].name, "g0: bare");
	EXPECT_EQ(rs[2].reason, "not ok");
	EXPECT_EQ(rs[3].name, "g0: results line 5");
	EXPECT_FALSE(rs[3].passed);
	EXPECT_EQ(rs[3].reason, "malformed: garbage here");
}

TEST(Verdict, AllGoodTwoGuests)
{
	std::vector<GuestEvidence> guests{good_guest("g0"), good_guest("g1")};
	auto v = judge(guests);
	// 2 results lines + status + console, per guest.
	EXPECT_EQ(v.results.size(), 8u);
	EXPECT_EQ(count_failed(v.results), 0u);
	EXPECT_TRUE(v.detected.empty());
	EXPECT_EQ(summary_line("smoke", v.results), "suite smoke: 8 passed, 0 failed");
	ASSERT_TRUE(find(v, "g1: finished in time with status 0"));
	ASSERT_TRUE(find(v, "g1: console clean"));
}

TEST(Verdict, KunitCasesCounted)
{
	auto g = good_guest("g0");
	g.results.reset();
	g.ktap = {{"lnet_nid", "KTAP version 1\n1..1\n    # Subtest: lnet_nid\n    1..3\n"
			       "    ok 1 a\n    not ok 2 b\n    ok 3 c # SKIP no hw\nnot ok 1 lnet_nid\n"},
		  {"lnet_cut", "KTAP version 1\n1..1\n    # Subtest: lnet_cut\n    1..2\n    ok 1 a\n"}};
	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	// 3 cases + 1 case + truncated lnet_cut + status + console.
	EXPECT_EQ(v.results.size(), 7u);
	EXPECT_EQ(count_failed(v.results), 3u);
	ASSERT_TRUE(find(v, "g0: kunit lnet_nid.b"));
	EXPECT_FALSE(find(v, "g0: kunit lnet_nid.b")->passed);
	ASSERT_TRUE(find(v, "g0: kunit lnet_nid.c"));
	EXPECT_EQ(find(v, "g0: kunit lnet_nid.c")->reason, "skipped: no hw");
	ASSERT_TRUE(find(v, "g0: kunit lnet_cut"));
	EXPECT_EQ(find(v, "g0: kunit lnet_cut")->reason, "truncated: 1 of 2 results");
	EXPECT_TRUE(v.detected.contains(Category::kunit_fail));
}

TEST(Verdict, SkipAloneIsNotKunitFailDetection)
{
	auto g = good_guest("g0");
	g.ktap = {{"s", "1..1\n    # Subtest: s\n    1..1\n    ok 1 a # SKIP\nok 1 s # SKIP\n"}};
	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	EXPECT_EQ(count_failed(v.results), 1u);
	EXPECT_FALSE(v.detected.contains(Category::kunit_fail));
}

TEST(Verdict, StatusAndTimeout)
{
	auto missing = good_guest("g0");
	missing.status.reset();
	auto nonzero = good_guest("g1");
	nonzero.status = "3\n";
	auto late = good_guest("g2");
	late.exit = {.finished = false, .note = "timed out after 600 s"};
	std::vector<GuestEvidence> guests{missing, nonzero, late};
	auto v = judge(guests);
	EXPECT_EQ(find(v, "g0: finished in time with status 0")->reason,
		  "no status file (the test script did not finish)");
	EXPECT_EQ(find(v, "g1: finished in time with status 0")->reason, "status 3");
	EXPECT_EQ(find(v, "g2: finished in time with status 0")->reason, "timed out after 600 s");
	EXPECT_EQ(count_failed(v.results), 3u);
	EXPECT_EQ(v.unfinished, std::vector<std::string>{"g2: timed out after 600 s"});
}

TEST(Verdict, ConsoleFindings)
{
	auto g = good_guest("g0");
	g.console = std::string(clean_console) +
		    "[    5.0] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x10\r\n"
		    "[    6.0] BUG: KASAN: use-after-free in g+0x1/0x2\r\n";
	g.kmemleak = "unreferenced object 0xffff888000001000 (size 32):\n";
	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	const Result *clean = find(v, "g0: console clean");
	ASSERT_TRUE(clean);
	EXPECT_FALSE(clean->passed);
	EXPECT_EQ(clean->reason, "WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x10");
	EXPECT_EQ(format_result(*clean),
		  "FAIL g0: console clean: WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x10");
	EXPECT_EQ(v.detected, (std::set<Category>{Category::kasan, Category::kmemleak,
						  Category::warning}));
}

TEST(Verdict, EmptyConsoleIsNotClean)
{
	auto g = good_guest("g0");
	g.console.reset();
	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	EXPECT_EQ(find(v, "g0: console clean")->reason, "console.log missing or empty");
}

TEST(Verdict, ExpectMode)
{
	auto g = good_guest("g0");
	g.console = "[    1.0] WARNING: possible circular locking dependency detected\r\n";
	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	auto caught = expect_results(v, Category::lockdep);
	ASSERT_EQ(caught.size(), 2u);
	EXPECT_EQ(caught[0].name, "bench caught lockdep");
	EXPECT_TRUE(caught[0].passed);
	EXPECT_EQ(caught[1].name, "guest finished");
	EXPECT_TRUE(caught[1].passed);
	EXPECT_EQ(summary_line("selfcheck-lockdep", caught),
		  "suite selfcheck-lockdep: 2 passed, 0 failed");

	auto missed = expect_results(v, Category::kasan);
	EXPECT_FALSE(missed[0].passed);
	EXPECT_EQ(missed[0].reason, "not detected (detected: lockdep)");
	EXPECT_EQ(format_result(missed[1]), "PASS guest finished");
}

TEST(Verdict, ExpectModeGuestDidNotFinish)
{
	auto g = good_guest("g0");
	g.exit = {.finished = false, .note = "timed out after 60 s"};
	std::vector<GuestEvidence> guests{g};
	auto r = expect_results(judge(guests), Category::bug);
	EXPECT_FALSE(r[0].passed);
	EXPECT_EQ(r[0].reason, "not detected (detected: nothing)");
	EXPECT_FALSE(r[1].passed);
	EXPECT_EQ(r[1].reason, "g0: timed out after 60 s");
}

TEST(Verdict, LoadEvidenceFromDirectory)
{
	fs::path dir = fs::temp_directory_path() / ("vmtest-verdict-" + std::to_string(::getpid()));
	fs::remove_all(dir);
	fs::create_directories(dir / "kunit");
	auto put = [](const fs::path &p, const char *text) { std::ofstream(p) << text; };
	put(dir / "results", "ok a\n");
	put(dir / "status", "0\n");
	put(dir / "console.log", "[ 0.1] hello\r\n");
	put(dir / "kunit" / "b_suite.ktap", "1..0\n");
	put(dir / "kunit" / "a_suite.ktap", "1..1\nok 1 x\n");
	put(dir / "kunit" / "notes.txt", "ignored");

	auto g = load_evidence(dir, "g0", GuestExit{.finished = true});
	fs::remove_all(dir);
	EXPECT_EQ(g.results, "ok a\n");
	EXPECT_EQ(g.status, "0\n");
	EXPECT_FALSE(g.kmemleak);
	ASSERT_EQ(g.ktap.size(), 2u);
	EXPECT_EQ(g.ktap[0].first, "a_suite");
	EXPECT_EQ(g.ktap[1].first, "b_suite");

	std::vector<GuestEvidence> guests{g};
	auto v = judge(guests);
	EXPECT_EQ(summary_line("s", v.results), "suite s: 4 passed, 0 failed");
}

} // namespace
} // namespace vmtest
