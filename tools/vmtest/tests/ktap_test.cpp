// SPDX-License-Identifier: GPL-2.0
#include "ktap.hpp"

#include <gtest/gtest.h>

namespace vmtest {
namespace {

// The shape of /sys/kernel/debug/kunit/<suite>/results on Linux 6.1:
// a one-suite document, cases indented, parameters one level deeper,
// result lines without the dash.
constexpr const char *debugfs_61 = R"(KTAP version 1
1..1
    KTAP version 1
    # Subtest: lnet_nid
    1..4
    ok 1 nid_parse_tcp
        KTAP version 1

        # Subtest: nid_roundtrip
        ok 1 tcp0
        ok 2 o2ib1
    # nid_roundtrip: pass:2 fail:0 skip:0 total:2
    ok 2 nid_roundtrip
    # nid_bad_net: EXPECTATION FAILED at lnet/nid_kunit.c:88
    Expected rc == -EINVAL, but
        rc == 0
    not ok 3 nid_bad_net
    ok 4 nid_ipv6 # SKIP no ipv6 support
# lnet_nid: pass:2 fail:1 skip:1 total:4
# Totals: pass:3 fail:1 skip:1 total:5
not ok 1 lnet_nid
)";

TEST(Ktap, Debugfs61SuiteCountsEachCaseOnce)
{
	auto suites = parse_ktap(debugfs_61, "file-stem");
	ASSERT_EQ(suites.size(), 1u);
	const auto &s = suites[0];
	EXPECT_EQ(s.name, "lnet_nid");
	EXPECT_FALSE(s.problem) << *s.problem;
	EXPECT_TRUE(s.suite_failed);
	ASSERT_EQ(s.cases.size(), 4u);
	EXPECT_EQ(s.cases[0].name, "nid_parse_tcp");
	EXPECT_EQ(s.cases[0].status, CaseStatus::pass);
	// The parameterised case counts once, by its own line.
	EXPECT_EQ(s.cases[1].name, "nid_roundtrip");
	EXPECT_EQ(s.cases[1].status, CaseStatus::pass);
	EXPECT_EQ(s.cases[2].name, "nid_bad_net");
	EXPECT_EQ(s.cases[2].status, CaseStatus::fail);
	EXPECT_EQ(s.cases[2].reason, "nid_bad_net: EXPECTATION FAILED at lnet/nid_kunit.c:88");
	EXPECT_EQ(s.cases[3].name, "nid_ipv6");
	EXPECT_EQ(s.cases[3].status, CaseStatus::skip);
	EXPECT_EQ(s.cases[3].reason, "skipped: no ipv6 support");
}

TEST(Ktap, DashedResultsAndCrLf)
{
	auto suites = parse_ktap("KTAP version 1\r\n1..1\r\n    # Subtest: s\r\n    1..2\r\n"
				 "    ok 1 - a\r\n    not ok 2 - b\r\nnot ok 1 - s\r\n",
				 "x");
	ASSERT_EQ(suites.size(), 1u);
	ASSERT_EQ(suites[0].cases.size(), 2u);
	EXPECT_EQ(suites[0].cases[0].name, "a");
	EXPECT_EQ(suites[0].cases[1].name, "b");
	EXPECT_EQ(suites[0].cases[1].status, CaseStatus::fail);
	EXPECT_EQ(suites[0].cases[1].reason, "not ok");
	EXPECT_FALSE(suites[0].problem);
}

TEST(Ktap, FlatDocumentCasesAtTopLevel)
{
	auto suites = parse_ktap("KTAP version 1\n1..3\nok 1 - first\nnot ok 2 - second # "
				 "broken\nok 3 - third # SKIP\n",
				 "flat_suite");
	ASSERT_EQ(suites.size(), 1u);
	const auto &s = suites[0];
	EXPECT_EQ(s.name, "flat_suite");
	EXPECT_FALSE(s.problem);
	EXPECT_FALSE(s.suite_failed);
	ASSERT_EQ(s.cases.size(), 3u);
	EXPECT_EQ(s.cases[0].status, CaseStatus::pass);
	EXPECT_EQ(s.cases[1].status, CaseStatus::fail);
	EXPECT_EQ(s.cases[2].status, CaseStatus::skip);
	EXPECT_EQ(s.cases[2].reason, "skipped");
}

TEST(Ktap, FlatDocumentWithParameterisedCase)
{
	auto suites = parse_ktap("1..2\n    # Subtest: p\n    ok 1 x\n    not ok 2 y\nnot ok 1 p\n"
				 "ok 2 q\n",
				 "s");
	ASSERT_EQ(suites.size(), 1u);
	ASSERT_EQ(suites[0].cases.size(), 2u);
	EXPECT_EQ(suites[0].cases[0].status, CaseStatus::fail);
	EXPECT_EQ(suites[0].cases[0].reason, "parameter y failed");
	EXPECT_FALSE(suites[0].problem);
}

TEST(Ktap, TruncatedInsideTheSuite)
{
	auto suites = parse_ktap("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: s\n"
				 "    1..3\n    ok 1 a\n    ok 2 b\n",
				 "s");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_EQ(suites[0].name, "s");
	EXPECT_EQ(suites[0].cases.size(), 2u);
	ASSERT_TRUE(suites[0].problem);
	EXPECT_EQ(*suites[0].problem, "truncated: 2 of 3 results");
}

TEST(Ktap, TruncatedBeforeTheSuiteLine)
{
	auto suites = parse_ktap("KTAP version 1\n1..1\n    # Subtest: s\n    1..1\n    ok 1 a\n",
				 "s");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_EQ(suites[0].cases.size(), 1u);
	ASSERT_TRUE(suites[0].problem);
	EXPECT_EQ(*suites[0].problem, "truncated: no result line for the suite");
}

TEST(Ktap, CaseLineLostToTheLogLimit)
{
	// 6.1 keeps 512 bytes of log per case; a long failure message can
	// push the case's own result line out.
	auto suites = parse_ktap("KTAP version 1\n1..1\n    # Subtest: s\n    1..2\n    ok 1 a\n"
				 "    # b: EXPECTATION FAILED at x.c:1\n    Expected ...\n"
				 "not ok 1 s\n",
				 "s");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_TRUE(suites[0].suite_failed);
	ASSERT_TRUE(suites[0].problem);
	EXPECT_EQ(*suites[0].problem, "truncated: 1 of 2 results");
}

TEST(Ktap, MissingPlan)
{
	auto suites = parse_ktap("    # Subtest: s\n    ok 1 a\nok 1 s\n", "s");
	ASSERT_EQ(suites.size(), 1u);
	ASSERT_TRUE(suites[0].problem);
	EXPECT_EQ(*suites[0].problem, "no KTAP plan line");
}

TEST(Ktap, EmptyFile)
{
	auto suites = parse_ktap("", "lnet_empty");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_EQ(suites[0].name, "lnet_empty");
	EXPECT_TRUE(suites[0].cases.empty());
	ASSERT_TRUE(suites[0].problem);
}

TEST(Ktap, MoreResultsThanPlanned)
{
	auto suites = parse_ktap("1..1\nok 1 a\nok 2 b\n", "s");
	ASSERT_EQ(suites.size(), 1u);
	ASSERT_TRUE(suites[0].problem);
	EXPECT_EQ(*suites[0].problem, "2 results but the plan is 1..1");
}

TEST(Ktap, SuiteNotOkWithPassingCases)
{
	auto suites = parse_ktap("1..1\n    # Subtest: s\n    1..1\n    ok 1 a\nnot ok 1 s\n", "s");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_TRUE(suites[0].suite_failed);
	EXPECT_FALSE(suites[0].problem);
}

TEST(Ktap, SkippedSuiteIsNotAFailedSuite)
{
	auto suites = parse_ktap("1..1\n    # Subtest: s\n    1..1\n    ok 1 a # SKIP x\n"
				 "ok 1 s # SKIP\n",
				 "s");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_FALSE(suites[0].suite_failed);
	EXPECT_EQ(suites[0].cases[0].status, CaseStatus::skip);
}

TEST(Ktap, ConsoleStyleSeveralSuites)
{
	auto suites = parse_ktap("KTAP version 1\n1..3\n"
				 "    KTAP version 1\n    # Subtest: one\n    1..1\n    ok 1 a\nok 1 one\n"
				 "    KTAP version 1\n    # Subtest: two\n    1..2\n    ok 1 b\n"
				 "    ok 2 c\nok 2 two\n",
				 "f");
	ASSERT_EQ(suites.size(), 3u);
	EXPECT_EQ(suites[0].name, "one");
	EXPECT_EQ(suites[0].cases.size(), 1u);
	EXPECT_FALSE(suites[0].problem);
	EXPECT_EQ(suites[1].name, "two");
	EXPECT_EQ(suites[1].cases.size(), 2u);
	EXPECT_FALSE(suites[1].problem);
	// The third announced suite never came.
	ASSERT_TRUE(suites[2].problem);
	EXPECT_EQ(*suites[2].problem, "truncated: 2 of 3 suites");
}

TEST(Ktap, TwoDocumentsConcatenated)
{
	std::string twice = std::string(debugfs_61) + debugfs_61;
	auto suites = parse_ktap(twice, "f");
	ASSERT_EQ(suites.size(), 2u);
	EXPECT_EQ(suites[1].cases.size(), 4u);
	EXPECT_FALSE(suites[1].problem);
}

TEST(Ktap, TabIndentedSubtests)
{
	auto suites = parse_ktap("TAP version 14\n1..1\n\t# Subtest: s\n\t1..2\n\tok 1 - a\n"
				 "\tok 2 - b\nok 1 - s\n",
				 "f");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_EQ(suites[0].name, "s");
	EXPECT_EQ(suites[0].cases.size(), 2u);
	EXPECT_FALSE(suites[0].problem);
}

TEST(Ktap, ZeroCaseSuite)
{
	auto suites = parse_ktap("KTAP version 1\n1..0\n", "none");
	ASSERT_EQ(suites.size(), 1u);
	EXPECT_TRUE(suites[0].cases.empty());
	EXPECT_FALSE(suites[0].problem);
}

} // namespace
} // namespace vmtest
