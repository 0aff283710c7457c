// SPDX-License-Identifier: GPL-2.0
//
// Net/NID/process-id strings: the vectors of tests/vectors/nidstr_vectors.h
// (Documentation/wire/nid.md), which the kernel's lnet_nidstr
// suite reads too, and libnid's own cases.
#include <lnet/nid.hpp>

#include "nidstr_vectors.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace {

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

// Documentation/wire/nid.md, "Worked examples".
class WorkedExample : public testing::TestWithParam<nidstr_example_vector> {};

TEST_P(WorkedExample, Parses)
{
	const nidstr_example_vector &e = GetParam();
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

INSTANTIATE_TEST_SUITE_P(Spec, WorkedExample, testing::ValuesIn(nidstr_example_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class CanonicalNet : public testing::TestWithParam<nidstr_net_vector> {};

TEST_P(CanonicalNet, BothWays)
{
	EXPECT_EQ(lnet::parse_net(GetParam().str), GetParam().net);
	EXPECT_EQ(lnet::net_to_string(GetParam().net), GetParam().str);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalNet, testing::ValuesIn(nidstr_net_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class NetAlias : public testing::TestWithParam<nidstr_net_vector> {};

TEST_P(NetAlias, Parses)
{
	EXPECT_EQ(lnet::parse_net(GetParam().str), GetParam().net);
}

INSTANTIATE_TEST_SUITE_P(Input, NetAlias, testing::ValuesIn(nidstr_net_alias_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class BadNet : public testing::TestWithParam<const char *> {};

TEST_P(BadNet, Rejected)
{
	EXPECT_FALSE(lnet::parse_net(GetParam()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Strict, BadNet, testing::ValuesIn(nidstr_bad_net_vectors),
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

class CanonicalNid : public testing::TestWithParam<nidstr_nid_vector> {};

TEST_P(CanonicalNid, BothWays)
{
	EXPECT_EQ(lnet::parse_nid(GetParam().str), GetParam().nid);
	EXPECT_EQ(lnet::nid_to_string(GetParam().nid), GetParam().str);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalNid, testing::ValuesIn(nidstr_nid_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class NidAlias : public testing::TestWithParam<nidstr_nid_vector> {};

TEST_P(NidAlias, Parses)
{
	EXPECT_EQ(lnet::parse_nid(GetParam().str), GetParam().nid);
}

INSTANTIATE_TEST_SUITE_P(Input, NidAlias, testing::ValuesIn(nidstr_nid_alias_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class BadNid : public testing::TestWithParam<const char *> {};

TEST_P(BadNid, Rejected)
{
	EXPECT_FALSE(lnet::parse_nid(GetParam()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Strict, BadNid, testing::ValuesIn(nidstr_bad_nid_vectors),
			 [](const auto &info) { return param_name(info.param); });

TEST(Nid, MissingNetIsTcp0)
{
	const auto nid = lnet::parse_nid("192.0.2.1");

	ASSERT_TRUE(nid.has_value());
	EXPECT_EQ(LNET_NIDNET(*nid), VEC_TCP(0));
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
		const lnet_nid_t nid = LNET_MKNID(VEC_O2IB(v), addr);

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
	EXPECT_LT(lnet::nid_to_string(LNET_MKNID(VEC_O2IB(65535), 0xffffffff)).size(),
		  static_cast<std::size_t>(LNET_NIDSTR_SIZE));
	EXPECT_LT(lnet::nid_to_string(0xfffffffeffffffffULL).size(),
		  static_cast<std::size_t>(LNET_NIDSTR_SIZE));
	lnet_process_id id{ LNET_MKNID(VEC_O2IB(65535), 0xffffffff),
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

class CanonicalId : public testing::TestWithParam<nidstr_id_vector> {};

TEST_P(CanonicalId, BothWays)
{
	const nidstr_id_vector &c = GetParam();
	const auto id = lnet::parse_process_id(c.str);

	EXPECT_EQ(lnet::process_id_to_string({ c.nid, c.pid }), c.str);
	ASSERT_TRUE(id.has_value());
	EXPECT_EQ(id->pid, c.pid);
	EXPECT_EQ(id->nid, c.nid);
}

INSTANTIATE_TEST_SUITE_P(Spec, CanonicalId, testing::ValuesIn(nidstr_id_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

TEST(ProcessId, NidAloneMeansAnyPid)
{
	const auto id = lnet::parse_process_id("192.0.2.1@tcp");

	ASSERT_TRUE(id.has_value());
	EXPECT_EQ(id->pid, LNET_PID_ANY);
	EXPECT_EQ(id->nid, 0x00020000C0000201ULL);

	const auto bare = lnet::parse_process_id("10.0.0.1");
	ASSERT_TRUE(bare.has_value());
	EXPECT_EQ(bare->nid, LNET_MKNID(VEC_TCP(0), 0x0a000001));
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
