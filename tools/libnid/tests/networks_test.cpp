// SPDX-License-Identifier: GPL-2.0
//
// networks= parsing: the accepted forms, bad inputs and messages of
// tests/vectors/networks_vectors.h, which the kernel's lnet_config suite
// reads too.
#include <lnet/nid.hpp>

#include "networks_vectors.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

namespace {

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

// The table's nets as libnid returns them.
std::vector<lnet::net_config> expected_nets(const networks_ok_vector &v)
{
	std::vector<lnet::net_config> nets;

	for (int i = 0; i < v.n; i++) {
		const networks_vector_net &w = v.nets[i];
		lnet::net_config net{ w.net, {}, {} };

		for (const char *iface : w.ifaces)
			if (iface)
				net.interfaces.emplace_back(iface);
		net.cpts.assign(w.cpts, w.cpts + w.ncpts);
		nets.push_back(std::move(net));
	}
	return nets;
}

class NetworksAccepted : public testing::TestWithParam<networks_ok_vector> {};

TEST_P(NetworksAccepted, Parses)
{
	const auto res = lnet::parse_networks(GetParam().str);

	ASSERT_TRUE(res.ok()) << res.error;
	EXPECT_TRUE(static_cast<bool>(res));
	EXPECT_EQ(res.nets, expected_nets(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Syntax, NetworksAccepted, testing::ValuesIn(networks_ok_vectors),
			 [](const auto &info) { return param_name(info.param.str); });

class NetworksRejected : public testing::TestWithParam<networks_bad_vector> {};

TEST_P(NetworksRejected, SaysWhatAndWhere)
{
	const auto res = lnet::parse_networks(GetParam().str);

	EXPECT_FALSE(res.ok());
	EXPECT_FALSE(static_cast<bool>(res));
	EXPECT_EQ(res.error, GetParam().msg);
	EXPECT_TRUE(res.nets.empty());
}

INSTANTIATE_TEST_SUITE_P(Syntax, NetworksRejected, testing::ValuesIn(networks_bad_vectors),
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
