// SPDX-License-Identifier: GPL-2.0
//
// Net/NID/process-id strings: the examples of Documentation/wire/nid.md
// ("Worked examples", "Text forms") and the same bad inputs as the kernel's
// lnet_nidstr suite.
#include <lnet/nid.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr std::uint32_t tcp(std::uint32_t num)
{
	return LNET_MKNET(LNET_LND_SOCK, num);
}

constexpr std::uint32_t o2ib(std::uint32_t num)
{
	return LNET_MKNET(LNET_LND_O2IB, num);
}

// gtest parameter names allow only [A-Za-z0-9_].
std::string param_name(const std::string &s)
{
	std::string out;

	for (unsigned char ch : s) {
		if (std::isalnum(ch)) {
			out += static_cast<char>(ch);
		} else {
			static const char hex[] = "0123456789abcdef";
			out += '_';
			out += hex[ch >> 4];
			out += hex[ch & 15];
		}
	}
	return out.empty() ? "empty" : out;
}

struct nid_example {
	const char *str;
	std::uint32_t net;
	lnet_nid_t nid;
	std::uint8_t le[8];
};

// Documentation/wire/nid.md, "Worked examples".
const nid_example examples[] = {
	{ "192.0.2.1@tcp", 0x00020000, 0x00020000C0000201ULL,
	  { 0x01, 0x02, 0x00, 0xC0, 0x00, 0x00, 0x02, 0x00 } },
	{ "192.0.2.1@tcp1", 0x00020001, 0x00020001C0000201ULL,
	  { 0x01, 0x02, 0x00, 0xC0, 0x01, 0x00, 0x02, 0x00 } },
	{ "10.0.0.1@o2ib2", 0x00050002, 0x000500020A000001ULL,
	  { 0x01, 0x00, 0x00, 0x0A, 0x02, 0x00, 0x05, 0x00 } },
	{ "0@lo", 0x00090000, 0x0009000000000000ULL,
	  { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00 } },
	{ "17@gni", 0x000D0000, 0x000D000000000011ULL,
	  { 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0D, 0x00 } },
};

class WorkedExample : public testing::TestWithParam<nid_example> {};

TEST_P(WorkedExample, Parses)
{
	const nid_example &e = GetParam();
	const auto nid = lnet::parse_nid(e.str);

	ASSERT_TRUE(nid.has_value());
	EXPECT_EQ(*nid, e.nid);
	EXPECT_EQ(LNET_NIDNET(*nid), e.net);
	// The documented little-endian wire bytes, independent of host order.
	for (int i = 0; i < 8; i++)
		EXPECT_EQ(static_cast<std::uint8_t>(*nid >> (8 * i)), e.le[i]);
}

TEST_P(WorkedExample, Formats)
{
	EXPECT_EQ(lnet::nid_to_string(GetParam().nid), GetParam().str);
}

INSTANTIATE_TEST_SUITE_P(Spec, WorkedExample, testing::ValuesIn(examples),
			 [](const auto &info) { return param_name(info.param.str); });

struct net_case {
	const char *str;
	std::uint32_t net;
};

const net_case canonical_nets[] = {
	{ "tcp", tcp(0) },
	{ "tcp1", tcp(1) },
	{ "tcp65535", tcp(65535) },
	{ "o2ib", o2ib(0) },
	{ "o2ib2", o2ib(2) },
	{ "lo", LNET_MKNET(LNET_LND_LO, 0) },
	{ "gni3", LNET_MKNET(13, 3) },
	{ "gip", LNET_MKNET(14, 0) },
	{ "ptlf1", LNET_MKNET(15, 1) },
	{ "kfi", LNET_MKNET(16, 0) },
	{ "efa7", LNET_MKNET(18, 7) },
	{ "bxi3f", LNET_MKNET(19, 0) },
};

class CanonicalNet : public testing::TestWithParam<net_case> {};

TEST_P(CanonicalNet, BothWays)
{
	EXPECT_EQ(lnet::parse_net(GetParam().str), GetParam().net);
	EXPECT_EQ(lnet::net_to_string(GetParam().net), GetParam().str);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalNet, testing::ValuesIn(canonical_nets),
			 [](const auto &info) { return param_name(info.param.str); });

TEST(Net, NumberZeroIsTheSameNet)
{
	EXPECT_EQ(lnet::parse_net("tcp0"), tcp(0));
	EXPECT_EQ(lnet::parse_net("o2ib0"), o2ib(0));
	EXPECT_EQ(lnet::parse_net("tcp007"), tcp(7));
}

const char *const bad_nets[] = {
	"", "t", "tc", "tcpx", "tcp-1", "tcp+1", "tcp 1", " tcp", "tcp ",
	"tcp65536", "tcp4294967296", "tcp99999999999999999999", "TCP", "Tcp",
	"tccp0", "o2ib0x1", "lo0", "lo1", "loo", "<17:0>", "17", "tcp1.",
	"tcp\t", "@tcp",
};

class BadNet : public testing::TestWithParam<const char *> {};

TEST_P(BadNet, Rejected)
{
	EXPECT_FALSE(lnet::parse_net(GetParam()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Strict, BadNet, testing::ValuesIn(bad_nets),
			 [](const auto &info) { return param_name(info.param); });

TEST(Net, EmbeddedNulIsJunk)
{
	EXPECT_FALSE(lnet::parse_net(std::string_view("tcp\0", 4)).has_value());
	EXPECT_FALSE(lnet::parse_nid(std::string_view("0@lo\0", 5)).has_value());
}

TEST(Net, LoopbackNeverCarriesANumber)
{
	EXPECT_EQ(lnet::parse_net("lo"), LNET_MKNET(LNET_LND_LO, 0));
	for (const char *s : { "lo0", "lo1", "lo65535" })
		EXPECT_FALSE(lnet::parse_net(s).has_value()) << s;
	// A loopback net with a number can exist as a value; it prints but
	// does not parse back.
	EXPECT_EQ(lnet::net_to_string(LNET_MKNET(LNET_LND_LO, 1)), "lo1");
}

TEST(Net, EveryNumberRoundTrips)
{
	for (std::uint32_t num = 0; num <= 0xffff; num++) {
		for (std::uint32_t type : { LNET_LND_SOCK, LNET_LND_O2IB }) {
			const std::uint32_t net = LNET_MKNET(type, num);

			ASSERT_EQ(lnet::parse_net(lnet::net_to_string(net)), net);
		}
	}
}

TEST(Net, UnknownTypesPrintNumerically)
{
	EXPECT_EQ(lnet::net_to_string(LNET_MKNET(17, 0)), "<17:0>");
	EXPECT_EQ(lnet::net_to_string(LNET_MKNET(1, 65535)), "<1:65535>");
	EXPECT_EQ(lnet::net_to_string(LNET_MKNET(255, 3)), "<255:3>");
	EXPECT_EQ(lnet::net_to_string(0x01020003), "<258:3>");
	EXPECT_EQ(lnet::net_to_string(LNET_NET_ANY), "<?>");
}

struct nid_case {
	const char *str;
	lnet_nid_t nid;
};

const nid_case canonical_nids[] = {
	{ "0.0.0.0@tcp", LNET_MKNID(tcp(0), 0) },
	{ "255.255.255.255@tcp", LNET_MKNID(tcp(0), 0xffffffff) },
	{ "10.1.2.3@tcp65535", LNET_MKNID(tcp(65535), 0x0a010203) },
	{ "192.168.1.2@o2ib", LNET_MKNID(o2ib(0), 0xc0a80102) },
	{ "4294967295@gni", LNET_MKNID(LNET_MKNET(13, 0), 0xffffffff) },
	{ "0@kfi2", LNET_MKNID(LNET_MKNET(16, 2), 0) },
	{ "1.2.3.4@efa", LNET_MKNID(LNET_MKNET(18, 0), 0x01020304) },
	{ "<?>", LNET_NID_ANY },
};

class CanonicalNid : public testing::TestWithParam<nid_case> {};

TEST_P(CanonicalNid, BothWays)
{
	EXPECT_EQ(lnet::parse_nid(GetParam().str), GetParam().nid);
	EXPECT_EQ(lnet::nid_to_string(GetParam().nid), GetParam().str);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalNid, testing::ValuesIn(canonical_nids),
			 [](const auto &info) { return param_name(info.param.str); });

const nid_case nid_aliases[] = {
	{ "192.0.2.1", LNET_MKNID(tcp(0), 0xc0000201) },
	{ "192.0.2.1@tcp0", LNET_MKNID(tcp(0), 0xc0000201) },
	{ "010.001.000.009@tcp", LNET_MKNID(tcp(0), 0x0a010009) },
	{ "0x11@gni", LNET_MKNID(LNET_MKNET(13, 0), 17) },
	{ "0X1f@gni", LNET_MKNID(LNET_MKNET(13, 0), 31) },
	{ "0xFFFFFFFF@ptlf", LNET_MKNID(LNET_MKNET(15, 0), 0xffffffff) },
	{ "00017@gni", LNET_MKNID(LNET_MKNET(13, 0), 17) },
	{ "7@lo", LNET_NID_LO_0 },
	{ "00@lo", LNET_NID_LO_0 },
	{ "99999999999999999999@lo", LNET_NID_LO_0 },
};

class NidAlias : public testing::TestWithParam<nid_case> {};

TEST_P(NidAlias, Parses)
{
	EXPECT_EQ(lnet::parse_nid(GetParam().str), GetParam().nid);
}

INSTANTIATE_TEST_SUITE_P(Input, NidAlias, testing::ValuesIn(nid_aliases),
			 [](const auto &info) { return param_name(info.param.str); });

const char *const bad_nids[] = {
	"", "@tcp", "1.2.3@tcp", "1.2.3.4.5@tcp", "1.2.3.@tcp", ".1.2.3@tcp",
	"1..2.3@tcp", "256.0.0.1@tcp", "1.2.3.256@tcp", "1.2.3.4444@tcp",
	"-1.2.3.4@tcp", "+1.2.3.4@tcp", "1.+2.3.4@tcp", "1.2.3.-4@tcp",
	" 1.2.3.4@tcp", "1.2.3.4 @tcp", "1.2.3.4@ tcp", "1.2.3.4@tcp ",
	"1.2.3.4x@tcp", "0x1.2.3.4@tcp", "1.2.3.4\n", "a.b.c.d@tcp",
	"localhost@tcp", "1.2.3.4@", "1.2.3.4@@tcp", "1.2.3.4@tcp@tcp",
	"99999999999.1.2.3@tcp", "1.2.3.4@o2ib@", "17", "1.2.3", "<?",
	"<?>@tcp", "1.2.3.4@tcp65536", "1.2.3.4@tccp", "1.2.3.4@TCP",
	"1.2.3.4@<?>", "1.2.3.4@<17:0>", "11@<17:0>", "0@lo1", "0@lo0", "@lo",
	"x@lo", "-0@lo", "0x0@lo", " 0@lo", "1.2.3.4@lo", "4294967296@gni",
	"0x100000000@gni", "0x@gni", "0xg@gni", "-1@gni", "+1@gni",
	"1.2.3.4@gni", "@gni", "17 @gni",
};

class BadNid : public testing::TestWithParam<const char *> {};

TEST_P(BadNid, Rejected)
{
	EXPECT_FALSE(lnet::parse_nid(GetParam()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Strict, BadNid, testing::ValuesIn(bad_nids),
			 [](const auto &info) { return param_name(info.param); });

TEST(Nid, MissingNetIsTcp0)
{
	const auto nid = lnet::parse_nid("192.0.2.1");

	ASSERT_TRUE(nid.has_value());
	EXPECT_EQ(LNET_NIDNET(*nid), tcp(0));
	EXPECT_EQ(LNET_NIDADDR(*nid), 0xc0000201U);
}

TEST(Nid, UnknownTypesPrintHexAddress)
{
	EXPECT_EQ(lnet::nid_to_string(LNET_MKNID(LNET_MKNET(17, 0), 17)),
		  "11@<17:0>");
	EXPECT_EQ(lnet::nid_to_string(LNET_MKNID(LNET_MKNET(200, 9), 0xc0000201)),
		  "c0000201@<200:9>");
	EXPECT_EQ(lnet::nid_to_string(0x00ffffffffffffffULL),
		  "ffffffff@<255:65535>");
	EXPECT_EQ(lnet::nid_to_string(0xfffffffe00000001ULL), "1@<65535:65534>");
}

TEST(Nid, LoopbackAddressIsAlwaysZero)
{
	EXPECT_EQ(lnet::parse_nid("0@lo"), LNET_NID_LO_0);
	EXPECT_EQ(lnet::parse_nid("12345@lo"), LNET_NID_LO_0);
	EXPECT_EQ(lnet::nid_to_string(LNET_NID_LO_0), "0@lo");
	EXPECT_FALSE(lnet::parse_nid("0x1@lo").has_value());
}

TEST(Nid, EveryOctetValue)
{
	for (std::uint32_t v = 0; v < 256; v++) {
		const std::uint32_t addr = v << 24 | v << 16 | (255 - v) << 8 | v;
		const lnet_nid_t nid = LNET_MKNID(o2ib(v), addr);

		ASSERT_EQ(lnet::parse_nid(lnet::nid_to_string(nid)), nid);
	}
	EXPECT_FALSE(lnet::parse_nid("1.2.3.256@tcp").has_value());
	EXPECT_FALSE(lnet::parse_nid("1.2.3.1000@tcp").has_value());
}

TEST(Nid, AnyBothWays)
{
	EXPECT_EQ(lnet::nid_to_string(LNET_NID_ANY), "<?>");
	EXPECT_EQ(lnet::parse_nid("<?>"), LNET_NID_ANY);
	EXPECT_EQ(lnet::parse_net("<?>"), LNET_NET_ANY);
}

TEST(Nid, LongestStringsFitTheKernelBuffers)
{
	EXPECT_LT(lnet::nid_to_string(LNET_MKNID(o2ib(65535), 0xffffffff)).size(),
		  static_cast<std::size_t>(LNET_NIDSTR_SIZE));
	EXPECT_LT(lnet::nid_to_string(0xfffffffeffffffffULL).size(),
		  static_cast<std::size_t>(LNET_NIDSTR_SIZE));
	lnet_process_id id{ LNET_MKNID(o2ib(65535), 0xffffffff),
			    LNET_PID_USERFLAG | 0x7ffffffe };
	EXPECT_LT(lnet::process_id_to_string(id).size(),
		  static_cast<std::size_t>(LNET_IDSTR_SIZE));
}

// A pseudo-random walk over nets and addresses of the string-able types.
TEST(Nid, RoundTrip)
{
	const std::uint32_t types[] = { LNET_LND_SOCK, LNET_LND_O2IB, 13, 16 };
	std::uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		lnet_nid_t nid = LNET_MKNID(LNET_MKNET(types[(x >> 60) % 4],
						       (x >> 40) & 0xffff),
					    x & 0xffffffff);
		if (i % 7 == 0)
			nid = LNET_MKNID(LNET_NIDNET(nid) & ~0xffffU,
					 LNET_NIDADDR(nid));
		const std::string s = lnet::nid_to_string(nid);
		ASSERT_EQ(lnet::parse_nid(s), nid) << s;
	}
}

TEST(Lnd, Names)
{
	EXPECT_EQ(lnet::lnd_type_name(LNET_LND_SOCK), "tcp");
	EXPECT_EQ(lnet::lnd_type_name(LNET_LND_O2IB), "o2ib");
	EXPECT_EQ(lnet::lnd_type_name(LNET_LND_LO), "lo");
	EXPECT_EQ(lnet::lnd_type_name(13), "gni");
	EXPECT_FALSE(lnet::lnd_type_name(0).has_value());
	EXPECT_FALSE(lnet::lnd_type_name(17).has_value());
	EXPECT_FALSE(lnet::lnd_type_name(0x102).has_value());
	EXPECT_EQ(lnet::lnd_type_from_name("tcp"), LNET_LND_SOCK);
	EXPECT_EQ(lnet::lnd_type_from_name("o2ib"), LNET_LND_O2IB);
	EXPECT_FALSE(lnet::lnd_type_from_name("o2ib0").has_value());
	EXPECT_FALSE(lnet::lnd_type_from_name("o2i").has_value());
	EXPECT_FALSE(lnet::lnd_type_from_name("").has_value());
	EXPECT_FALSE(lnet::lnd_type_from_name("TCP").has_value());
}

struct id_case {
	lnet_pid_t pid;
	lnet_nid_t nid;
	const char *str;
};

const id_case canonical_ids[] = {
	{ 12345, 0x00020000C0000201ULL, "12345-192.0.2.1@tcp" },
	{ 0, LNET_NID_LO_0, "0-0@lo" },
	{ LNET_PID_USERFLAG | 1023, 0x00020000C0000207ULL, "U1023-192.0.2.7@tcp" },
	{ LNET_PID_USERFLAG, 0x000500020A000001ULL, "U0-10.0.0.1@o2ib2" },
	{ 0x7fffffff, 0x00020000C0000201ULL, "2147483647-192.0.2.1@tcp" },
	{ LNET_PID_ANY, 0x00020000C0000201ULL, "LNET_PID_ANY-192.0.2.1@tcp" },
	{ LNET_PID_ANY, LNET_NID_ANY, "LNET_PID_ANY-<?>" },
	{ 0xfffffffe, 0x00020000C0000201ULL, "U2147483646-192.0.2.1@tcp" },
};

class CanonicalId : public testing::TestWithParam<id_case> {};

TEST_P(CanonicalId, BothWays)
{
	const id_case &c = GetParam();
	const auto id = lnet::parse_process_id(c.str);

	EXPECT_EQ(lnet::process_id_to_string({ c.nid, c.pid }), c.str);
	ASSERT_TRUE(id.has_value());
	EXPECT_EQ(id->pid, c.pid);
	EXPECT_EQ(id->nid, c.nid);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalId, testing::ValuesIn(canonical_ids),
			 [](const auto &info) { return param_name(info.param.str); });

TEST(ProcessId, NidAloneMeansAnyPid)
{
	const auto id = lnet::parse_process_id("192.0.2.1@tcp");

	ASSERT_TRUE(id.has_value());
	EXPECT_EQ(id->pid, LNET_PID_ANY);
	EXPECT_EQ(id->nid, 0x00020000C0000201ULL);

	const auto bare = lnet::parse_process_id("10.0.0.1");
	ASSERT_TRUE(bare.has_value());
	EXPECT_EQ(bare->nid, LNET_MKNID(tcp(0), 0x0a000001));
}

TEST(ProcessId, UserFlagRoundTrips)
{
	for (lnet_pid_t pid : { 0U, 1U, 1023U, 12345U, 0x7ffffffeU }) {
		const lnet_process_id id{ 0x00020000C0000201ULL,
					  pid | LNET_PID_USERFLAG };
		const std::string s = lnet::process_id_to_string(id);
		const auto back = lnet::parse_process_id(s);

		EXPECT_EQ(s.front(), 'U') << s;
		ASSERT_TRUE(back.has_value()) << s;
		EXPECT_EQ(back->pid, id.pid);
		EXPECT_EQ(back->nid, id.nid);
	}
}

const char *const bad_ids[] = {
	"", "-", "-192.0.2.1@tcp", "12345-", "12345", "x-192.0.2.1@tcp",
	"U-192.0.2.1@tcp", "u1-192.0.2.1@tcp", "UU1-192.0.2.1@tcp",
	"+1-192.0.2.1@tcp", " 1-192.0.2.1@tcp", "1 -192.0.2.1@tcp",
	"1- 192.0.2.1@tcp", "2147483648-192.0.2.1@tcp",
	"4294967295-192.0.2.1@tcp", "U2147483648-192.0.2.1@tcp",
	"1-2-192.0.2.1@tcp", "LNET_PID_ANY", "LNET_PID_ANY-",
	"lnet_pid_any-192.0.2.1@tcp", "12345-192.0.2.1@tccp",
	"12345-256.0.2.1@tcp",
};

class BadId : public testing::TestWithParam<const char *> {};

TEST_P(BadId, Rejected)
{
	EXPECT_FALSE(lnet::parse_process_id(GetParam()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Strict, BadId, testing::ValuesIn(bad_ids),
			 [](const auto &info) { return param_name(info.param); });

}  // namespace
