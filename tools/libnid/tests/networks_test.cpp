// SPDX-License-Identifier: GPL-2.0
//
// networks= parsing: the same accepted forms, bad inputs and messages as
// the kernel's lnet_config suite.
#include <lnet/nid.hpp>

#include <gtest/gtest.h>

#include <cctype>
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

std::string param_name(const std::string &s)
{
	static const char hex[] = "0123456789abcdef";
	std::string out;

	for (unsigned char ch : s) {
		if (std::isalnum(ch)) {
			out += static_cast<char>(ch);
		} else {
			out += '_';
			out += hex[ch >> 4];
			out += hex[ch & 15];
		}
	}
	return out.empty() ? "empty" : out;
}

struct networks_ok {
	const char *str;
	std::vector<lnet::net_config> nets;
};

const networks_ok accepted[] = {
	{ "tcp", { { tcp(0), {}, {} } } },
	{ "tcp0(eth0),o2ib0(ib0)[0,1]",
	  { { tcp(0), { "eth0" }, {} }, { o2ib(0), { "ib0" }, { 0, 1 } } } },
	{ "tcp(eth0, eth1)", { { tcp(0), { "eth0", "eth1" }, {} } } },
	{ " tcp1 ( eth0 ) , o2ib3 [ 2 , 0-1 ] ",
	  { { tcp(1), { "eth0" }, {} }, { o2ib(3), {}, { 2, 0, 1 } } } },
	{ "tcp[0-3]", { { tcp(0), {}, { 0, 1, 2, 3 } } } },
	{ "o2ib(ib0:1)", { { o2ib(0), { "ib0:1" }, {} } } },
	{ "tcp1,tcp2,o2ib",
	  { { tcp(1), {}, {} }, { tcp(2), {}, {} }, { o2ib(0), {}, {} } } },
	{ "tcp(a,b,c)[5,3-4]", { { tcp(0), { "a", "b", "c" }, { 5, 3, 4 } } } },
	{ "\ttcp(eth0)[7]\n", { { tcp(0), { "eth0" }, { 7 } } } },
	{ "tcp(0123456789abcde)", { { tcp(0), { "0123456789abcde" }, {} } } },
	{ "tcp[65535]", { { tcp(0), {}, { 65535 } } } },
	{ "o2ib65535(ib1)", { { o2ib(65535), { "ib1" }, {} } } },
	{ "", {} },
	{ " \t\n ", {} },
};

class NetworksAccepted : public testing::TestWithParam<networks_ok> {};

TEST_P(NetworksAccepted, Parses)
{
	const auto res = lnet::parse_networks(GetParam().str);

	ASSERT_TRUE(res.ok()) << res.error;
	EXPECT_TRUE(static_cast<bool>(res));
	EXPECT_EQ(res.nets, GetParam().nets);
}

INSTANTIATE_TEST_SUITE_P(Syntax, NetworksAccepted, testing::ValuesIn(accepted),
			 [](const auto &info) { return param_name(info.param.str); });

struct networks_bad {
	const char *str;
	const char *msg;
};

const networks_bad rejected[] = {
	{ "tccp0", "networks: unknown network 'tccp0' at offset 0" },
	{ "tcp,tccp1", "networks: unknown network 'tccp1' at offset 4" },
	{ "TCP", "networks: unknown network 'TCP' at offset 0" },
	{ "tcp65536", "networks: unknown network 'tcp65536' at offset 0" },
	{ "lo0", "networks: unknown network 'lo0' at offset 0" },
	{ "<?>", "networks: unknown network '<?>' at offset 0" },
	{ "tcp-1", "networks: unknown network 'tcp-1' at offset 0" },
	{ "lo", "networks: network 'lo' cannot be configured (it always exists) at offset 0" },
	{ "tcp, lo(eth0)", "networks: network 'lo' cannot be configured (it always exists) at offset 5" },
	{ "tcp,tcp0", "networks: duplicate network 'tcp0' at offset 4" },
	{ "o2ib1,tcp,o2ib1", "networks: duplicate network 'o2ib1' at offset 10" },
	{ "tcp()", "networks: empty interface name at offset 4" },
	{ "tcp(eth0,)", "networks: empty interface name at offset 9" },
	{ "tcp(,eth0)", "networks: empty interface name at offset 4" },
	{ "tcp( )", "networks: empty interface name at offset 5" },
	{ "tcp(eth0", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0,eth1", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0, ", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0))", "networks: unbalanced ')' at offset 9" },
	{ "tcp)", "networks: unbalanced ')' at offset 3" },
	{ "tcp]", "networks: unbalanced ']' at offset 3" },
	{ ")", "networks: unbalanced ')' at offset 0" },
	{ "tcp[0", "networks: unbalanced '[' at offset 3" },
	{ "tcp[0,1", "networks: unbalanced '[' at offset 3" },
	{ "tcp[", "networks: unbalanced '[' at offset 3" },
	{ "tcp[a]", "networks: CPT 'a' is not a number at offset 4" },
	{ "tcp[-1]", "networks: CPT '-' is not a number at offset 4" },
	{ "tcp[]", "networks: empty CPT at offset 4" },
	{ "tcp[0,]", "networks: empty CPT at offset 6" },
	{ "tcp[3-1]", "networks: reversed CPT range 3-1 at offset 4" },
	{ "tcp[0-]", "networks: CPT range without an end at offset 6" },
	{ "tcp[0-a]", "networks: CPT range without an end at offset 6" },
	{ "tcp[0,0]", "networks: duplicate CPT 0 at offset 6" },
	{ "tcp[0-2,1]", "networks: duplicate CPT 1 at offset 8" },
	{ "tcp[65536]", "networks: CPT number larger than 65535 at offset 4" },
	{ "tcp[0 1]", "networks: unexpected '1' in CPT list at offset 6" },
	{ "tcp[0;1]", "networks: unexpected ';' in CPT list at offset 5" },
	{ "tcp(eth0) x", "networks: unexpected 'x' at offset 10" },
	{ "tcp x", "networks: unexpected 'x' at offset 4" },
	{ "tcp;o2ib", "networks: unknown network 'tcp;o2ib' at offset 0" },
	{ "tcp ;o2ib", "networks: unexpected ';' at offset 4" },
	{ "tcp,", "networks: empty network at offset 4" },
	{ ",tcp", "networks: empty network at offset 0" },
	{ "tcp, ,o2ib", "networks: empty network at offset 5" },
	{ "tcp(eth0)(eth1)", "networks: unexpected '(' at offset 9" },
	{ "tcp[0](eth0)", "networks: unexpected '(' at offset 6" },
	{ "tcp[0][1]", "networks: unexpected '[' at offset 6" },
	{ "(eth0)", "networks: missing network name before '(' at offset 0" },
	{ "tcp,[0]", "networks: missing network name before '[' at offset 4" },
	{ "tcp(eth 0)", "networks: unexpected '0' in interface list at offset 8" },
	{ "tcp(eth0 eth1)", "networks: unexpected 'e' in interface list at offset 9" },
	{ "tcp(e[0])", "networks: unexpected '[' in interface list at offset 5" },
	{ "tcp(0123456789abcdef)", "networks: interface name '0123456789abcdef' longer than 15 characters at offset 4" },
	{ "tcp(eth0,eth1,eth0)", "networks: duplicate interface 'eth0' at offset 14" },
	{ "tcp # comment", "networks: unexpected '#' at offset 4" },
	{ "tcp[0-63,100]", "networks: more than 64 CPTs at offset 9" },
	{ "tcp[1000-2000]", "networks: more than 64 CPTs at offset 4" },
};

class NetworksRejected : public testing::TestWithParam<networks_bad> {};

TEST_P(NetworksRejected, SaysWhatAndWhere)
{
	const auto res = lnet::parse_networks(GetParam().str);

	EXPECT_FALSE(res.ok());
	EXPECT_FALSE(static_cast<bool>(res));
	EXPECT_EQ(res.error, GetParam().msg);
	EXPECT_TRUE(res.nets.empty());
}

INSTANTIATE_TEST_SUITE_P(Syntax, NetworksRejected, testing::ValuesIn(rejected),
			 [](const auto &info) { return param_name(info.param.str); });

std::string ifaces_str(int n)
{
	std::string s = "tcp(";

	for (int i = 0; i < n; i++)
		s += (i ? ",e" : "e") + std::to_string(i);
	return s + ")";
}

TEST(Networks, InterfaceLimit)
{
	const auto ok = lnet::parse_networks(ifaces_str(16));

	ASSERT_TRUE(ok.ok()) << ok.error;
	ASSERT_EQ(ok.nets.size(), 1u);
	EXPECT_EQ(ok.nets[0].interfaces.size(), lnet::max_net_interfaces);
	EXPECT_EQ(ok.nets[0].interfaces.back(), "e15");

	const auto bad = lnet::parse_networks(ifaces_str(17));
	EXPECT_EQ(bad.error, "networks: more than 16 interfaces at offset 58");
}

TEST(Networks, CptLimit)
{
	const auto res = lnet::parse_networks("tcp[0-63]");

	ASSERT_TRUE(res.ok()) << res.error;
	ASSERT_EQ(res.nets.size(), 1u);
	ASSERT_EQ(res.nets[0].cpts.size(), lnet::max_config_cpts);
	for (std::uint32_t i = 0; i < 64; i++)
		EXPECT_EQ(res.nets[0].cpts[i], i);
}

TEST(Networks, LimitsMatchTheKernel)
{
	static_assert(lnet::max_net_interfaces == 16);
	static_assert(lnet::max_interface_name == 15);
	static_assert(lnet::max_config_cpts == 64);
	EXPECT_TRUE(lnet::parse_networks("tcp(" + std::string(15, 'i') + ")").ok());
	EXPECT_FALSE(lnet::parse_networks("tcp(" + std::string(16, 'i') + ")").ok());
}

TEST(Networks, EveryKnownNetExceptLoopback)
{
	for (const char *name : { "tcp", "o2ib", "gni", "gip", "ptlf", "kfi", "efa", "bxi3f" }) {
		const auto res = lnet::parse_networks(std::string(name) + "7(if0)");

		ASSERT_TRUE(res.ok()) << name << ": " << res.error;
		ASSERT_EQ(res.nets.size(), 1u);
		EXPECT_EQ(lnet::net_to_string(res.nets[0].net),
			  std::string(name) + "7");
	}
	EXPECT_FALSE(lnet::parse_networks("lo").ok());
}

TEST(Networks, EmbeddedNulIsAnError)
{
	const auto res = lnet::parse_networks(std::string_view("tcp\0,o2ib", 9));

	EXPECT_EQ(res.error, "networks: unexpected NUL at offset 3");
	EXPECT_TRUE(res.nets.empty());
}

TEST(Networks, ErrorKeepsNothing)
{
	const auto res = lnet::parse_networks("tcp(eth0),o2ib1(ib0)[0],x");

	EXPECT_EQ(res.error, "networks: unknown network 'x' at offset 24");
	EXPECT_TRUE(res.nets.empty());
}

}  // namespace
