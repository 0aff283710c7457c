// SPDX-License-Identifier: GPL-2.0
#include "options.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vmtest {
namespace {

struct Parse {
	ParsedOptions parsed;
	std::string out, err;
};

Parse parse(std::vector<const char *> args, const char *env_top = nullptr)
{
	args.insert(args.begin(), "lnet-vmtest");
	std::ostringstream out, err;
	Parse p{parse_options(args, env_top, "/cwd", out, err), {}, {}};
	p.out = out.str();
	p.err = err.str();
	return p;
}

TEST(Options, Defaults)
{
	auto p = parse({"--suite", "smoke", "--kernel", "stock", "--script", "/w/t.sh"});
	ASSERT_TRUE(p.parsed.options) << p.err;
	const auto &o = *p.parsed.options;
	EXPECT_EQ(o.suite, "smoke");
	EXPECT_EQ(o.kernel, Kernel::stock);
	EXPECT_EQ(o.script, "/w/t.sh");
	EXPECT_EQ(o.guests, 2);
	EXPECT_EQ(o.links, (std::vector<Link>{{0, 1}}));
	EXPECT_EQ(o.timeout_s, 600);
	EXPECT_EQ(o.mem_mb, 1024);
	EXPECT_EQ(o.top, "/cwd");
	EXPECT_EQ(o.run_dir, "/cwd/build/vmtest/smoke");
	EXPECT_FALSE(o.expect);
	EXPECT_FALSE(o.verbose);
	EXPECT_TRUE(o.args.empty());
	EXPECT_EQ(o.smp, 1);
	EXPECT_TRUE(o.kernel_args.empty());
}

TEST(Options, SmpAndKernelArgs)
{
	auto p = parse({"--suite", "k", "--kernel", "debug", "--script", "/t.sh", "--smp", "2",
			"--kernel-arg", "possible_cpus=8", "--kernel-arg", "x=1"});
	ASSERT_TRUE(p.parsed.options) << p.err;
	EXPECT_EQ(p.parsed.options->smp, 2);
	EXPECT_EQ(p.parsed.options->kernel_args,
		  (std::vector<std::string>{"possible_cpus=8", "x=1"}));
	EXPECT_FALSE(parse({"--suite", "k", "--script", "/t.sh", "--smp", "9"}).parsed.options);
}

TEST(Options, Everything)
{
	auto p = parse({"--suite", "route", "--kernel", "debug", "--script", "rel/t.sh", "--arg",
			"one", "--arg", "two", "--guests", "3", "--link", "0-1", "--link", "2-0",
			"--timeout", "30", "--mem", "512", "--run-dir", "out/", "--expect", "lockdep",
			"--top", "/w/", "--verbose"});
	ASSERT_TRUE(p.parsed.options) << p.err;
	const auto &o = *p.parsed.options;
	EXPECT_EQ(o.kernel, Kernel::debug);
	EXPECT_EQ(o.script, "/cwd/rel/t.sh");
	EXPECT_EQ(o.args, (std::vector<std::string>{"one", "two"}));
	EXPECT_EQ(o.guests, 3);
	EXPECT_EQ(o.links, (std::vector<Link>{{0, 1}, {0, 2}}));
	EXPECT_EQ(o.timeout_s, 30);
	EXPECT_EQ(o.mem_mb, 512);
	EXPECT_EQ(o.run_dir, "/cwd/out");
	EXPECT_EQ(o.expect, Category::lockdep);
	EXPECT_EQ(o.top, "/w");
	EXPECT_TRUE(o.verbose);
}

TEST(Options, TopFromEnvironment)
{
	auto p = parse({"--suite", "s", "--kernel", "stock", "--script", "/t.sh"}, "/env/top");
	ASSERT_TRUE(p.parsed.options);
	EXPECT_EQ(p.parsed.options->top, "/env/top");
	EXPECT_EQ(p.parsed.options->run_dir, "/env/top/build/vmtest/s");

	p = parse({"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--top", "/x"},
		  "/env/top");
	ASSERT_TRUE(p.parsed.options);
	EXPECT_EQ(p.parsed.options->top, "/x");
}

TEST(Options, OneGuestHasNoLinks)
{
	auto p = parse({"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--guests", "1"});
	ASSERT_TRUE(p.parsed.options);
	EXPECT_TRUE(p.parsed.options->links.empty());
}

TEST(Options, UsageErrors)
{
	const std::vector<std::vector<const char *>> bad{
		{"--kernel", "stock", "--script", "/t.sh"},
		{"--suite", "s", "--kernel", "vanilla", "--script", "/t.sh"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--guests", "0"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--link", "0-2"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--expect", "panic"},
		{"--suite", "../x", "--kernel", "stock", "--script", "/t.sh"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "NOEQUALS"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "=v"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "1X=v"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "A-B=v"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "LNET_TOP=/x"},
		{"--suite", "s", "--kernel", "stock", "--script", "/t.sh", "--env", "GUEST_INDEX=3"},
	};
	for (const auto &args : bad) {
		auto p = parse(args);
		EXPECT_FALSE(p.parsed.options);
		EXPECT_EQ(p.parsed.exit_code, 2);
		EXPECT_FALSE(p.err.empty());
	}
}

TEST(Options, EnvAndShares)
{
	auto p = parse({"--suite", "i", "--kernel", "stock", "--script", "/t.sh", "--env",
			"LUSTRE_DIR=/c/l x", "--env", "X_1=", "--share", "rel/d", "--share", "/abs/"});
	ASSERT_TRUE(p.parsed.options) << p.err;
	EXPECT_EQ(p.parsed.options->env, (std::vector<std::string>{"LUSTRE_DIR=/c/l x", "X_1="}));
	EXPECT_EQ(p.parsed.options->shares,
		  (std::vector<std::filesystem::path>{"/cwd/rel/d", "/abs"}));
}

TEST(Options, Help)
{
	auto p = parse({"--help"});
	EXPECT_FALSE(p.parsed.options);
	EXPECT_EQ(p.parsed.exit_code, 0);
	EXPECT_NE(p.out.find("--expect"), std::string::npos);
}

} // namespace
} // namespace vmtest
