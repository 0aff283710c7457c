// SPDX-License-Identifier: GPL-2.0
//
// ip2nets address patterns: the vectors of
// tests/vectors/ipv4_pattern_vectors.h, which the kernel's KUnit suite
// lnet_ioctl checks against its own matcher.
#include <lnet/nid.hpp>

#include <linux/types.h>

#include <gtest/gtest.h>

#include "ipv4_pattern_vectors.h"

namespace {

TEST(Ipv4Pattern, SharedVectors)
{
	for (const auto &v : ipv4_pattern_vectors) {
		const auto got = lnet::ipv4_pattern_match(v.pattern, v.addr);

		if (v.result == VEC_MALFORMED)
			EXPECT_EQ(got, std::nullopt) << "pattern \"" << v.pattern << "\"";
		else
			EXPECT_EQ(got, v.result == VEC_MATCH)
				<< "pattern \"" << v.pattern << "\", address " << std::hex
				<< v.addr;
	}
}

// what only a pattern on its own is: the kernel's rules read white space
// as the pattern's end
TEST(Ipv4Pattern, WholeStringOnly)
{
	for (const char *bad : { "", "*.*.*.* ", " 1.2.3.4", "1.2.3.4;" })
		EXPECT_EQ(lnet::ipv4_pattern_match(bad, 0), std::nullopt)
			<< "pattern \"" << bad << "\"";
}

}  // namespace
