// SPDX-License-Identifier: GPL-2.0
// lst's command lines: every form the scenario scripts use (tests/scenarios
// selftest.sh, run-demo.sh, bench-lst.sh, interop.sh) still parses, and
// usage errors say what is wrong and show the verb's syntax.
#include <gtest/gtest.h>

#include <regex>

#include "fake_kernel.hpp"

using namespace lst;
using namespace lst::test;

namespace {

// A kernel that accepts every command and has no groups or batches to list.
void quiet_kernel(Harness &h)
{
	h.kernel.answer = [](std::span<std::byte> b) {
		auto opc = hdr_of(b).lh_opc;
		return opc == LSTIO_GROUP_LIST || opc == LSTIO_BATCH_LIST ? ENOENT : 0;
	};
}

}  // namespace

TEST(Cli, ScenarioCommandLinesParse)
{
	const std::vector<std::vector<std::string>> lines = {
		{"show_session"},
		{"new_session", "--timeout", "120", "selftest"},
		{"new_session", "demo"},
		{"new_session", "--timeout", "600", "bench_ours-ours"},
		{"add_group", "servers", "192.0.2.2@tcp"},
		{"add_group", "clients", "192.0.2.1@tcp"},
		{"list_group"},
		{"list_group", "servers", "--all"},
		{"ping", "servers"},
		{"add_batch", "write"},
		{"add_test", "--batch", "nosuch", "--from", "clients", "--to", "servers", "ping"},
		{"add_test", "--batch", "write", "--loop", "200", "--concurrency", "2", "--from",
		 "clients", "--to", "servers", "brw", "write", "size=4k", "off=8", "check=full"},
		{"add_test", "--batch", "read", "--loop", "8", "--concurrency", "2", "--from",
		 "clients", "--to", "servers", "brw", "read", "size=1M", "check=simple"},
		{"add_test", "--batch", "read", "--loop", "500", "--concurrency", "8", "--from",
		 "servers", "--to", "clients", "ping"},
		{"add_test", "--batch", "bulk", "--concurrency", "8", "--from", "clients", "--to",
		 "servers", "brw", "write", "size=1M", "check=full"},
		{"add_test", "--batch", "forever", "--concurrency", "4", "--from", "clients", "--to",
		 "servers", "brw", "write", "size=64k", "check=simple"},
		// bench-lst.sh puts --concurrency after --from/--to
		{"add_test", "--batch", "b0", "--from", "clients", "--to", "servers",
		 "--concurrency", "8", "brw", "read", "size=4k"},
		{"add_test", "--batch", "b8", "--from", "clients", "--to", "servers",
		 "--concurrency", "8", "ping"},
		// interop.sh against a Lustre node: 4088 bytes
		{"add_test", "--batch", "b", "--loop", "64", "--concurrency", "2", "--from", "ours",
		 "--to", "lustre", "brw", "write", "size=4088", "off=8", "check=full"},
		{"run", "write"},
		{"stop", "forever"},
		{"query", "write"},
		{"stat", "--count", "1", "--delay", "2", "clients", "servers"},
		{"stat", "--csv", "--count", "1", "--delay", "1", "servers"},
		{"show_error", "clients", "servers"},
		{"show_error", "--session", "ours", "lustre"},
		{"del_group", "spare"},
		{"end_session"},
	};

	for (const auto &line : lines) {
		Harness h;
		std::string joined;

		quiet_kernel(h);
		for (const auto &w : line)
			joined += w + " ";
		EXPECT_EQ(h.run(line), 0) << joined << "\n" << h.err.str();
	}
}

TEST(Cli, ScenarioFailuresSayWhy)
{
	struct Case {
		std::vector<std::string> line;
		const char *want;	// the regex selftest.sh greps stderr for
	};
	const std::vector<Case> cases = {
		{{"add_group", "bad", "not-a-nid@@"}, "nid|invalid"},
		{{"add_test", "--batch", "write", "--from", "clients", "--to", "servers", "brw",
		  "write", "size=2M"}, "size"},
	};

	for (const auto &c : cases) {
		Harness h;

		quiet_kernel(h);
		EXPECT_NE(h.run(c.line), 0);
		EXPECT_TRUE(std::regex_search(h.err.str(),
					      std::regex(c.want, std::regex::icase)))
			<< h.err.str();
		EXPECT_TRUE(h.kernel.calls.empty());
	}
}

TEST(Cli, UsageErrorNamesTheVerbAndShowsItsSyntax)
{
	Harness h;

	EXPECT_EQ(h.run({"del_group"}), 2);
	EXPECT_EQ(h.err.str(), "lst del_group: name is required\nusage: lst del_group NAME\n");
}

TEST(Cli, BadNumbersAndRanges)
{
	Harness h;

	EXPECT_EQ(h.run({"query", "--loop", "0"}), 2);
	EXPECT_NE(h.err.str().find("--loop: must be 1 or more"), std::string::npos) << h.err.str();
	EXPECT_EQ(h.run({"query", "--delay", "soon"}), 2);
	EXPECT_NE(h.err.str().find("--delay: not a decimal number: 'soon'"), std::string::npos)
		<< h.err.str();
	EXPECT_EQ(h.run({"query", "--loop", "0x2"}), 2);
	EXPECT_EQ(h.run({"stat", "--delay", "000", "g"}), 2);
	EXPECT_EQ(h.run({"add_test", "--concurrency", "2000", "--from", "c", "--to", "s", "ping"}),
		  2);
	EXPECT_NE(h.err.str().find("--concurrency"), std::string::npos) << h.err.str();
	EXPECT_EQ(h.run({"stat", "--json", "--csv", "g"}), 2);
	EXPECT_NE(h.err.str().find("--json excludes --csv"), std::string::npos) << h.err.str();
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Cli, NumbersAreDecimal)
{
	Harness h;

	EXPECT_EQ(h.run({"add_test", "--loop", "010", "--concurrency", "08", "--from", "c", "--to",
			 "s", "ping"}), 0);
	auto t = h.kernel.call_as<lstio_test>(0);
	EXPECT_EQ(t.lt_loop, 10U);	// not octal
	EXPECT_EQ(t.lt_concur, 8U);
}

TEST(Cli, InlineValuesAndLoopUntilStopped)
{
	Harness h;

	EXPECT_EQ(h.run({"add_test", "--batch=b", "--loop", "-1", "--from=c", "--to", "s", "ping"}),
		  0);
	auto t = h.kernel.call_as<lstio_test>(0);
	EXPECT_EQ(get_name(t.lt_batch), "b");
	EXPECT_EQ(get_name(t.lt_from), "c");
	EXPECT_EQ(t.lt_loop, 0xffffffffU);
}

TEST(Cli, VerbHelp)
{
	Harness h;

	EXPECT_EQ(h.run({"add_test", "--help"}), 0);
	EXPECT_NE(h.out.str().find("--concurrency"), std::string::npos) << h.out.str();
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Cli, HelpListsEveryVerb)
{
	Harness h;

	EXPECT_EQ(h.run({"help"}), 0);
	for (const char *verb : {"new_session", "end_session", "show_session", "add_group",
				 "del_group", "list_group", "add_batch", "list_batch", "add_test",
				 "run", "stop", "query", "stat", "show_error", "ping"})
		EXPECT_NE(h.out.str().find(std::string("\n  ") + verb), std::string::npos) << verb;
}
