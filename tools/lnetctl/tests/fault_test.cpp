// SPDX-License-Identifier: GPL-2.0
// lnetctl fault: option parsing, the checks made before anything reaches
// the kernel, the LNET_FAULT bytes, and the YAML of add / show.
#include <gtest/gtest.h>

#include <cstring>

#include "cli.hpp"
#include "fake_kernel.hpp"
#include "fault_text.hpp"
#include "ioctl_pack.hpp"
#include "test_util.hpp"
#include "yaml_render.hpp"

namespace lnetctl {
namespace {

using namespace test;

constexpr lnet_nid_t g0_nid = 0x00020000C0A80102ULL;	// 192.168.1.2@tcp
constexpr lnet_nid_t g1_nid = 0x00020000C0A80103ULL;	// 192.168.1.3@tcp
constexpr lnet_nid_t eth0_nid = 0x00020000C0A8010AULL;	// 192.168.1.10@tcp
constexpr lnet_nid_t all_tcp1 = 0x00020001FFFFFFFFULL;	// *@tcp1

FakeKernel node()
{
	FakeKernel k;
	k.configure(false, false);
	k.calls.clear();
	return k;
}

// ---- parsing --------------------------------------------------------------

TEST(FaultCli, DropAddAllOptions)
{
	FaultAddArgs want;
	want.kind = FaultKind::drop;
	want.source = "192.168.1.2@tcp";
	want.dest = "*";
	want.local_nid = "192.168.1.10@tcp";
	want.interval = 5;
	want.portals = { "4", "12" };
	want.messages = { "PUT", "get" };
	want.health_errors = { "local_error", "remote_dropped" };
	want.random = true;
	want.drop_all = true;
	want.seed = "0x2a";
	EXPECT_EQ(parsed<FaultAddArgs>({ "fault", "drop", "add", "--source",
					 "192.168.1.2@tcp", "--dest", "*", "--interval",
					 "5", "--portal", "4", "--portal", "12",
					 "--message", "PUT", "--message", "get",
					 "--health_error", "local_error",
					 "--health_error", "remote_dropped", "--random",
					 "--local_nid", "192.168.1.10@tcp", "--drop_all",
					 "--seed", "0x2a" }),
		  want);
	// lctl's short options
	EXPECT_EQ(parsed<FaultAddArgs>({ "fault", "drop", "add", "-s",
					 "192.168.1.2@tcp", "-d", "*", "-i", "5", "-p",
					 "4", "-p", "12", "-m", "PUT", "-m", "get", "-e",
					 "local_error", "-e", "remote_dropped", "-n", "-o",
					 "192.168.1.10@tcp", "-x", "--seed", "0x2a" }),
		  want);
}

TEST(FaultCli, DelayAddDelResetShow)
{
	FaultAddArgs want;
	want.kind = FaultKind::delay;
	want.source = "*@tcp";
	want.dest = "192.168.1.3@tcp";
	want.rate = 3;
	want.latency = 7;
	want.messages = { "GET" };
	EXPECT_EQ(parsed<FaultAddArgs>({ "fault", "delay", "add", "--source", "*@tcp",
					 "--dest", "192.168.1.3@tcp", "--rate", "3",
					 "--latency", "7", "--message", "GET" }),
		  want);
	EXPECT_EQ(parsed<FaultDelArgs>({ "fault", "delay", "del", "--all" }),
		  (FaultDelArgs{ FaultKind::delay, true, "", "" }));
	EXPECT_EQ(parsed<FaultDelArgs>({ "fault", "drop", "del", "-s", "*", "-d",
					 "1.2.3.4@tcp" }),
		  (FaultDelArgs{ FaultKind::drop, false, "*", "1.2.3.4@tcp" }));
	EXPECT_EQ(parsed<FaultResetArgs>({ "fault", "delay", "reset" }).kind,
		  FaultKind::delay);
	EXPECT_EQ(parsed<FaultShowArgs>({ "fault", "drop", "show" }).kind,
		  FaultKind::drop);
}

TEST(FaultCli, OptionsOfTheOtherKindAreRefused)
{
	expect_usage_error({ "fault", "drop", "add", "-s", "*", "-d", "*", "-r", "1",
			     "--latency", "3" }, "--latency");
	expect_usage_error({ "fault", "delay", "add", "-s", "*", "-d", "*", "-r", "1",
			     "-l", "3", "--health_error", "local_error" },
			   "--health_error");
	expect_usage_error({ "fault", "delay", "add", "-s", "*", "-d", "*", "-r", "1",
			     "-l", "3", "--drop_all" }, "--drop_all");
	expect_usage_error({ "fault", "drop", "add", "-s", "*", "-d", "*", "--rate",
			     "two" }, "--rate");
	expect_usage_error({ "fault", "drop" }, "one of: add, del, reset, show");
	expect_usage_error({ "fault" }, "one of: drop, delay");
}

// ---- text forms -------------------------------------------------------------

TEST(FaultText, NidsAndNames)
{
	EXPECT_EQ(parse_fault_nid("*"), LNET_NID_ANY);
	EXPECT_EQ(parse_fault_nid("*@tcp1"), all_tcp1);
	EXPECT_EQ(parse_fault_nid("192.168.1.2@tcp"), g0_nid);
	EXPECT_FALSE(parse_fault_nid("*@"));
	EXPECT_FALSE(parse_fault_nid("*@nonet"));
	EXPECT_FALSE(parse_fault_nid("1.2.3@tcp"));
	EXPECT_EQ(fault_nid_to_string(LNET_NID_ANY), "*");
	EXPECT_EQ(fault_nid_to_string(all_tcp1), "*@tcp1");
	EXPECT_EQ(fault_nid_to_string(g0_nid), "192.168.1.2@tcp");

	EXPECT_EQ(parse_fault_msg("ACK"), 0U);
	EXPECT_EQ(parse_fault_msg("put"), 1U);
	EXPECT_EQ(parse_fault_msg("Get"), 2U);
	EXPECT_EQ(parse_fault_msg("REPLY"), 3U);
	EXPECT_FALSE(parse_fault_msg("HELLO"));

	EXPECT_EQ(parse_health_kind("local_interrupt"), 1U << 1);
	EXPECT_EQ(parse_health_kind("local_error"), 1U << 5);
	EXPECT_EQ(parse_health_kind("remote_dropped"), 1U << 8);
	EXPECT_EQ(parse_health_kind("network_timeout"), 1U << 10);
	EXPECT_EQ(parse_health_kind("random"), LNET_FAULT_HEALTH_RANDOM);
	EXPECT_FALSE(parse_health_kind("ok"));
	EXPECT_FALSE(parse_health_kind("LOCAL_ERROR"));

	EXPECT_EQ(parse_seed("42"), 42U);
	EXPECT_EQ(parse_seed("0xdeadBEEF"), 0xdeadbeefU);
	EXPECT_EQ(parse_seed("0xffffffffffffffff"), ~0ULL);
	EXPECT_FALSE(parse_seed("0x1ffffffffffffffff"));
	EXPECT_FALSE(parse_seed("-1"));
	EXPECT_FALSE(parse_seed("0x"));
	EXPECT_FALSE(parse_seed("12z"));
	EXPECT_EQ(format_seed(0xdeadbeef), "0xdeadbeef");
}

// ---- packing ------------------------------------------------------------------

TEST(FaultPack, AddBytes)
{
	FaultRule r;
	r.src = g0_nid;
	r.dst = all_tcp1;
	r.local_nid = eth0_nid;
	r.ptl_mask = (1ULL << 4) | (1ULL << 63);
	r.msg_mask = 1U << 2;
	r.rate = 2;
	r.interval = 0;
	r.latency = 9;
	r.health_mask = 1U << 5;
	r.flags = LNET_FAULT_F_DROP_ALL;
	r.seed = 0x0123456789abcdefULL;

	lnet_ioctl_fault f = pack_fault_add(FaultKind::drop, r);
	EXPECT_EQ(u32_at(f, 0), 152U);
	EXPECT_EQ(u32_at(f, 4), LNET_IOCTL_VERSION2);
	EXPECT_EQ(u32_at(f, 8), 0U);		// LNET_FAULT_DROP_ADD
	EXPECT_EQ(u64_at(f, 24 + 0), g0_nid);
	EXPECT_EQ(u64_at(f, 24 + 8), all_tcp1);
	EXPECT_EQ(u64_at(f, 24 + 16), eth0_nid);
	EXPECT_EQ(u64_at(f, 24 + 24), r.ptl_mask);
	EXPECT_EQ(u32_at(f, 24 + 32), 4U);
	EXPECT_EQ(u32_at(f, 24 + 36), 2U);
	EXPECT_EQ(u32_at(f, 24 + 40), 0U);
	EXPECT_EQ(u32_at(f, 24 + 44), 9U);
	EXPECT_EQ(u32_at(f, 24 + 48), 32U);
	EXPECT_EQ(u32_at(f, 24 + 52), LNET_FAULT_F_DROP_ALL);
	EXPECT_EQ(u64_at(f, 24 + 56), r.seed);
	EXPECT_EQ(unpack_fault_rule(f.lfi_attr), r);

	EXPECT_EQ(u32_at(pack_fault_add(FaultKind::delay, r), 8), 4U);
}

TEST(FaultPack, OpcodesAndList)
{
	EXPECT_EQ(fault_opcode(FaultKind::drop, FaultOp::add), 0U);
	EXPECT_EQ(fault_opcode(FaultKind::drop, FaultOp::del), 1U);
	EXPECT_EQ(fault_opcode(FaultKind::drop, FaultOp::reset), 2U);
	EXPECT_EQ(fault_opcode(FaultKind::drop, FaultOp::list), 3U);
	EXPECT_EQ(fault_opcode(FaultKind::delay, FaultOp::add), 4U);
	EXPECT_EQ(fault_opcode(FaultKind::delay, FaultOp::del), 5U);
	EXPECT_EQ(fault_opcode(FaultKind::delay, FaultOp::reset), 6U);
	EXPECT_EQ(fault_opcode(FaultKind::delay, FaultOp::list), 7U);

	lnet_ioctl_fault d = pack_fault_del(FaultKind::delay, g0_nid, LNET_NID_ANY);
	EXPECT_EQ(u32_at(d, 8), 5U);
	EXPECT_EQ(u64_at(d, 24), g0_nid);
	EXPECT_EQ(u64_at(d, 32), LNET_NID_ANY);

	lnet_ioctl_fault z = pack_fault_reset(FaultKind::drop);
	EXPECT_EQ(u32_at(z, 0), 152U);
	EXPECT_EQ(u32_at(z, 8), 2U);

	lnet_ioctl_fault l = pack_fault_list(FaultKind::drop, 3);
	EXPECT_EQ(u32_at(l, 8), 3U);
	EXPECT_EQ(u32_at(l, 12), 3U);
	// the kernel's answer
	l.lfi_attr.fa_src = g1_nid;
	l.lfi_attr.fa_rate = 5;
	std::uint64_t stat[8] = { 10, 1, 2, 3, 4, 10, 6, 0 };
	std::memcpy(reinterpret_cast<unsigned char *>(&l) + 88, stat, sizeof(stat));
	FaultInfo info = unpack_fault(l);
	EXPECT_EQ(info.rule.src, g1_nid);
	EXPECT_EQ(info.rule.rate, 5U);
	EXPECT_EQ(info.stats, (FaultStats{ 10, 1, 2, 3, 4, 10, 6 }));
}

// ---- rendering ------------------------------------------------------------

TEST(FaultRender, DropRules)
{
	const std::string zero_stats = "      statistics:\n"
				       "          matched: 0\n"
				       "          dropped: 0\n"
				       "          put: 0\n"
				       "          ack: 0\n"
				       "          get: 0\n"
				       "          reply: 0\n";
	FaultInfo a;
	a.rule.src = g0_nid;
	a.rule.rate = 2;
	a.rule.msg_mask = (1U << 2) | (1U << 1);
	a.rule.seed = 0x2a;
	a.stats = FaultStats{ 4, 0, 0, 2, 0, 2, 0 };
	FaultInfo b;
	b.rule.dst = all_tcp1;
	b.rule.local_nid = eth0_nid;
	b.rule.interval = 10;
	b.rule.ptl_mask = (1ULL << 4) | (1ULL << 63);
	b.rule.health_mask = (1U << 5) | (1U << 10);
	b.rule.flags = LNET_FAULT_F_RANDOM;
	b.rule.seed = 0xfeed;
	FaultInfo c;
	c.rule.rate = 1;
	c.rule.health_mask = LNET_FAULT_HEALTH_RANDOM;
	c.rule.flags = LNET_FAULT_F_DROP_ALL;
	c.rule.seed = 1;
	std::vector<FaultInfo> rules{ a, b, c };
	yaml::Map root;
	yaml::add(root, "fault drop", render_fault_rules(FaultKind::drop, rules, true));
	EXPECT_EQ(yaml::render(root),
		  "fault drop:\n"
		  "    - source: 192.168.1.2@tcp\n"
		  "      dest: \"*\"\n"
		  "      rate: 2\n"
		  "      message:\n"
		  "        - PUT\n"
		  "        - GET\n"
		  "      random: False\n"
		  "      drop_all: False\n"
		  "      seed: 0x2a\n"
		  "      statistics:\n"
		  "          matched: 4\n"
		  "          dropped: 2\n"
		  "          put: 0\n"
		  "          ack: 0\n"
		  "          get: 2\n"
		  "          reply: 0\n"
		  "    - source: \"*\"\n"
		  "      dest: \"*@tcp1\"\n"
		  "      local_nid: 192.168.1.10@tcp\n"
		  "      interval: 10\n"
		  "      portal:\n"
		  "        - 4\n"
		  "        - 63\n"
		  "      health_error:\n"
		  "        - local_error\n"
		  "        - network_timeout\n"
		  "      random: True\n"
		  "      drop_all: False\n"
		  "      seed: 0xfeed\n" +
			  zero_stats +
		  "    - source: \"*\"\n"
		  "      dest: \"*\"\n"
		  "      rate: 1\n"
		  "      health_error:\n"
		  "        - random\n"
		  "      random: False\n"
		  "      drop_all: True\n"
		  "      seed: 0x1\n" +
			  zero_stats);
}

TEST(FaultRender, DelayRuleWithoutStatistics)
{
	FaultInfo d;
	d.rule.src = g0_nid;
	d.rule.dst = g1_nid;
	d.rule.interval = 4;
	d.rule.latency = 3;
	d.rule.health_mask = 1U << 5;	// not a delay attribute: not shown
	d.rule.seed = 0xabc;
	d.stats.held = 1;
	yaml::Map root;
	yaml::add(root, "fault delay",
		  render_fault_rules(FaultKind::delay, std::span(&d, 1), false));
	EXPECT_EQ(yaml::render(root),
		  "fault delay:\n"
		  "    - source: 192.168.1.2@tcp\n"
		  "      dest: 192.168.1.3@tcp\n"
		  "      interval: 4\n"
		  "      latency: 3\n"
		  "      seed: 0xabc\n");
	yaml::Map with_stats;
	yaml::add(with_stats, "fault delay",
		  render_fault_rules(FaultKind::delay, std::span(&d, 1), true));
	EXPECT_NE(yaml::render(with_stats).find("          delayed: 0\n"
						"          held: 1\n"),
		  std::string::npos);
}

// ---- the verbs against the fake kernel ----------------------------------------

TEST(FaultCommands, AddSendsTheRuleAndPrintsTheSeed)
{
	FakeKernel k = node();
	Result r = run_words(k, { "fault", "drop", "add", "--source", "192.168.1.2@tcp",
				  "--dest", "*", "--rate", "1", "--message", "GET" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, "fault drop:\n"
			 "    - source: 192.168.1.2@tcp\n"
			 "      dest: \"*\"\n"
			 "      rate: 1\n"
			 "      message:\n"
			 "        - GET\n"
			 "      random: False\n"
			 "      drop_all: False\n"
			 "      seed: 0x5eed0001\n");
	ASSERT_EQ(k.faults[FaultKind::drop].size(), 1U);
	const FaultRule &got = k.faults[FaultKind::drop][0].rule;
	EXPECT_EQ(got.src, g0_nid);
	EXPECT_EQ(got.dst, LNET_NID_ANY);
	EXPECT_EQ(got.local_nid, LNET_NID_ANY);
	EXPECT_EQ(got.msg_mask, 1U << 2);
	EXPECT_EQ(got.rate, 1U);
	EXPECT_EQ(got.interval, 0U);
	EXPECT_EQ(got.health_mask, 0U);
	EXPECT_EQ(got.flags, 0U);
}

TEST(FaultCommands, AddPassesEveryAttribute)
{
	FakeKernel k = node();
	Result r = run_words(k, { "fault", "drop", "add", "-s", "*@tcp1", "-d",
				  "192.168.1.3@tcp", "-i", "6", "-n", "-x", "-p", "0",
				  "-p", "5,63", "-m", "put", "-e", "local_error", "-e",
				  "network_timeout", "-o", "192.168.1.10@tcp",
				  "--seed", "12345" });
	EXPECT_EQ(r.status, 0) << r.err;
	const FaultRule &got = k.faults[FaultKind::drop].at(0).rule;
	EXPECT_EQ(got.src, all_tcp1);
	EXPECT_EQ(got.dst, g1_nid);
	EXPECT_EQ(got.local_nid, eth0_nid);
	EXPECT_EQ(got.interval, 6U);
	EXPECT_EQ(got.rate, 0U);
	EXPECT_EQ(got.ptl_mask, 1ULL | (1ULL << 5) | (1ULL << 63));
	EXPECT_EQ(got.msg_mask, 1U << 1);
	EXPECT_EQ(got.health_mask, (1U << 5) | (1U << 10));
	EXPECT_EQ(got.flags, LNET_FAULT_F_RANDOM | LNET_FAULT_F_DROP_ALL);
	EXPECT_EQ(got.seed, 12345U);
	EXPECT_NE(r.out.find("seed: 0x3039\n"), std::string::npos) << r.out;

	r = run_words(k, { "fault", "drop", "add", "-s", "*", "-d", "*", "-r", "1",
			   "-e", "random" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.faults[FaultKind::drop].at(0).rule.health_mask,
		  LNET_FAULT_HEALTH_RANDOM);

	r = run_words(k, { "fault", "delay", "add", "-s", "*", "-d", "*", "-r", "4",
			   "-l", "3" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(k.faults[FaultKind::delay].at(0).rule.latency, 3U);
	EXPECT_EQ(k.faults[FaultKind::delay].at(0).rule.rate, 4U);
	EXPECT_NE(r.out.find("fault delay:\n"), std::string::npos) << r.out;
}

// "fault KIND add -s * -d *" and then @rest.
std::vector<std::string> add_any(const char *kind,
				 std::initializer_list<const char *> rest)
{
	std::vector<std::string> words{ "fault", kind, "add", "-s", "*", "-d", "*" };

	words.insert(words.end(), rest.begin(), rest.end());
	return words;
}

TEST(FaultCommands, BadInputIsRefusedBeforeTheKernel)
{
	const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
		{ add_any("drop", { "--rate", "2", "--interval", "5" }),
		  "--rate 2 and --interval 5 exclude each other" },
		{ add_any("drop", {}),
		  "one of --rate N or --interval SECONDS is required" },
		{ add_any("drop", { "--rate", "2", "--random" }),
		  "--random needs --interval" },
		{ add_any("drop", { "-r", "1", "--health_error", "local_oops" }),
		  "--health_error 'local_oops': unknown health error (one of: "
		  "local_interrupt, " },
		{ add_any("delay", { "-r", "1", "--latency", "0" }),
		  "--latency 0: must be 1..86400 seconds" },
		{ add_any("delay", { "-r", "1", "--latency", "86401" }),
		  "--latency 86401: must be 1..86400 seconds" },
		{ add_any("delay", { "-r", "1", "-l", "2", "--local_nid",
				     "192.168.1.10@tcp" }),
		  "--local_nid 192.168.1.10@tcp: only drop rules can select the "
		  "receiving NI" },
		{ add_any("delay", { "-r", "1" }), "--latency SECONDS is required" },
		{ add_any("drop", { "-r", "1", "--portal", "64" }),
		  "--portal '64': must be a portal 0..63" },
		{ add_any("drop", { "-r", "1", "--portal", "-1" }), "--portal '-1'" },
		{ add_any("drop", { "--rate", "0" }), "--rate 0: must be 1..4294967295" },
		{ add_any("drop", { "--interval", "-3" }),
		  "--interval -3: must be 1..86400 seconds" },
		{ add_any("drop", { "-r", "1", "--message", "HELLO" }),
		  "--message 'HELLO': unknown message type" },
		{ add_any("drop", { "-r", "1", "--portal", "4", "--message", "ACK" }),
		  "--portal applies to PUT and GET messages only" },
		{ { "fault", "drop", "add", "-s", "1.2.3@tcp", "-d", "*", "-r", "1" },
		  "--source '1.2.3@tcp': not a NID, '*' or '*@NET'" },
		{ { "fault", "drop", "add", "-s", "*", "-r", "1" }, "--dest is required" },
		{ { "fault", "drop", "add", "-s", "*", "-d", "*@nonet", "-r", "1" },
		  "--dest '*@nonet'" },
		{ add_any("drop", { "-r", "1", "--local_nid", "*" }), "invalid NID '*'" },
		{ add_any("drop", { "-r", "1", "--seed", "0" }),
		  "--seed '0': must be a non-zero 64-bit number" },
		{ add_any("drop", { "-r", "1", "--seed", "banana" }), "--seed 'banana'" },
		{ { "fault", "drop", "del" }, "--source is required" },
		{ { "fault", "drop", "del", "--all", "-s", "*" },
		  "--all excludes --source and --dest" },
	};

	// exit status 1, a message naming the option and the value, and no
	// call reaches the kernel
	for (const auto &[words, fragment] : cases) {
		FakeKernel k = node();
		Result r = run_words(k, words);

		EXPECT_EQ(r.status, 1) << fragment;
		EXPECT_EQ(r.out, "");
		EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
		EXPECT_TRUE(k.calls.empty()) << k.calls.front();
	}
}

TEST(FaultCommands, ErrorShape)
{
	FakeKernel k = node();
	Result r = run_words(k, { "fault", "drop", "add", "-s", "*", "-d", "*",
				  "--rate", "1", "--interval", "2" });
	EXPECT_EQ(r.err, "add:\n"
			 "    - drop rule:\n"
			 "          errno: -22\n"
			 "          descr: \"--rate 1 and --interval 2 exclude each "
			 "other: give one\"\n");
}

TEST(FaultCommands, KernelErrorsAreReported)
{
	FakeKernel k = node();
	k.fail["fault_add"] = EPERM;
	Result r = run_words(k, { "fault", "drop", "add", "-s", "192.168.1.2@tcp",
				  "-d", "*", "--rate", "1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "");
	EXPECT_NE(r.err.find("errno: -1\n"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("cannot add drop rule 192.168.1.2@tcp -> *: "),
		  std::string::npos) << r.err;

	k.fail["fault_add"] = ENOSPC;
	r = run_words(k, { "fault", "delay", "add", "-s", "*", "-d", "*", "--rate", "1",
			   "--latency", "1" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot add delay rule * -> *: No space left on device "
			     "(lnet.ko holds at most 256 rules, drop and delay together)"),
		  std::string::npos) << r.err;
	k.fail["fault_add"] = EINVAL;
	r = run_words(k, { "fault", "drop", "add", "-s", "*", "-d", "*", "--rate", "1" });
	EXPECT_NE(r.err.find("Invalid argument (lnet.ko refused the rule)"),
		  std::string::npos) << r.err;

	FakeKernel down;	// LNet not configured
	r = run_words(down, { "fault", "delay", "show" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("show:\n    - delay rule:\n          errno: -100\n"),
		  std::string::npos) << r.err;
	r = run_words(down, { "fault", "delay", "reset" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot reset delay rules"), std::string::npos) << r.err;
	r = run_words(down, { "fault", "drop", "del", "--all" });
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot delete drop rules"), std::string::npos) << r.err;
}

TEST(FaultCommands, ShowDelReset)
{
	FakeKernel k = node();
	EXPECT_EQ(run_words(k, { "fault", "drop", "show" }).out, "fault drop: []\n");
	ASSERT_EQ(run_words(k, { "fault", "drop", "add", "-s", "192.168.1.2@tcp", "-d",
				 "*", "-r", "2", "--seed", "7" }).status, 0);
	ASSERT_EQ(run_words(k, { "fault", "drop", "add", "-s", "192.168.1.3@tcp", "-d",
				 "*", "-r", "3", "--seed", "8" }).status, 0);
	ASSERT_EQ(run_words(k, { "fault", "delay", "add", "-s", "*", "-d", "*", "-r",
				 "1", "-l", "3" }).status, 0);
	k.faults[FaultKind::drop][1].stats = FaultStats{ 6, 0, 3, 0, 0, 3, 0 };

	Result r = run_words(k, { "fault", "drop", "show" });
	EXPECT_EQ(r.status, 0);
	// newest first
	auto newer = r.out.find("source: 192.168.1.3@tcp");
	auto older = r.out.find("source: 192.168.1.2@tcp");
	ASSERT_NE(newer, std::string::npos) << r.out;
	ASSERT_NE(older, std::string::npos) << r.out;
	EXPECT_LT(newer, older);
	EXPECT_NE(r.out.find("      seed: 0x7\n"
			     "      statistics:\n"
			     "          matched: 6\n"
			     "          dropped: 3\n"
			     "          put: 3\n"),
		  std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("latency"), std::string::npos) << r.out;

	r = run_words(k, { "fault", "drop", "reset" });
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(k.faults[FaultKind::drop][1].stats, FaultStats{});
	EXPECT_EQ(k.faults[FaultKind::drop].size(), 2U);

	r = run_words(k, { "fault", "drop", "del", "--source", "192.168.1.2@tcp",
			   "--dest", "*" });
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "fault drop:\n    deleted: 1\n");
	ASSERT_EQ(k.faults[FaultKind::drop].size(), 1U);
	EXPECT_EQ(k.faults[FaultKind::drop][0].rule.src, g1_nid);

	r = run_words(k, { "fault", "drop", "del", "--all" });
	EXPECT_EQ(r.out, "fault drop:\n    deleted: 1\n");
	EXPECT_TRUE(k.faults[FaultKind::drop].empty());
	// the delay table is separate
	EXPECT_EQ(k.faults[FaultKind::delay].size(), 1U);
}

}  // namespace
}  // namespace lnetctl
