// SPDX-License-Identifier: GPL-2.0
//
// ip2nets address patterns: the grammar of the kernel's ip2nets rules
// (its KUnit suite lnet_ioctl checks the same forms on the kernel side).
#include <lnet/nid.hpp>

#include <gtest/gtest.h>

namespace {

constexpr std::uint32_t addr(std::uint32_t a, std::uint32_t b, std::uint32_t c,
			     std::uint32_t d)
{
	return a << 24 | b << 16 | c << 8 | d;
}

TEST(Ipv4Pattern, Matches)
{
	const std::uint32_t a = addr(192, 0, 2, 17);

	EXPECT_EQ(lnet::ipv4_pattern_match("*.*.*.*", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.17", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.*", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.10-20", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.[1,5-7,17]", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("[10,192].0.[0-2].*", a), true);
	EXPECT_EQ(lnet::ipv4_pattern_match("0-255.0.2.17", a), true);
}

TEST(Ipv4Pattern, DoesNotMatch)
{
	const std::uint32_t a = addr(192, 0, 2, 17);

	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.18", a), false);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.3.*", a), false);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.0-16", a), false);
	EXPECT_EQ(lnet::ipv4_pattern_match("192.0.2.[1,5-7]", a), false);
	EXPECT_EQ(lnet::ipv4_pattern_match("10.*.*.*", a), false);
}

TEST(Ipv4Pattern, Malformed)
{
	for (const char *bad : { "", "1.2.3", "1.2.3.256", "1.2.3.4.5", "1.2.3.[4",
				 "1.2.3.5-4", "1.2.3.4x", "1.2.3.[]", "1.2.3.-4",
				 "1..2.3", "*.*.*.* ", "1.2.3.[4,]", "a.b.c.d" })
		EXPECT_EQ(lnet::ipv4_pattern_match(bad, 0), std::nullopt)
			<< "pattern \"" << bad << "\"";
}

}  // namespace
