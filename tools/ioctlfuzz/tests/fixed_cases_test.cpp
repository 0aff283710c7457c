// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>

#include "fixed_cases.hpp"

using namespace ioctlfuzz;

namespace {

std::size_t count(Who who)
{
	std::size_t n = 0;
	for (const FixedCase &k : fixed_cases())
		n += k.who == who;
	return n;
}

}  // namespace

TEST(FixedCases, NamesUnique)
{
	std::set<std::string_view> seen;
	for (const FixedCase &k : fixed_cases()) {
		EXPECT_FALSE(k.name.empty());
		EXPECT_TRUE(seen.insert(k.name).second) << "twice: " << k.name;
	}
}

// The lines the guest scenario counts: a dropped case must show here.
TEST(FixedCases, EveryCheckOfBothModes)
{
	EXPECT_EQ(count(Who::root), 86U);
	EXPECT_EQ(count(Who::user), 12U);
}

TEST(FixedCases, EachIsACallOrACheck)
{
	for (const FixedCase &k : fixed_cases()) {
		EXPECT_NE(k.call == nullptr, k.check == nullptr) << k.name;
		if (k.check) {
			EXPECT_EQ(k.want, 0) << k.name;
		}
	}
}

// A call has an expected answer, 0 or a real errno, and a name that ends
// in ": ENAME" or ": 0" says the same answer.
TEST(FixedCases, CallsExpectARealErrnoTheirNameStates)
{
	std::size_t calls = 0, stated = 0;
	for (const FixedCase &k : fixed_cases()) {
		if (!k.call)
			continue;
		ASSERT_GE(k.want, 0) << k.name;
		if (k.want) {
			ASSERT_NE(strerrorname_np(k.want), nullptr) << k.name;
		}
		calls++;
		const auto colon = k.name.rfind(": ");
		if (colon == std::string_view::npos)
			continue;
		const std::string_view said = k.name.substr(colon + 2);
		if (said == "0") {
			EXPECT_EQ(k.want, 0) << k.name;
			stated++;
		} else if (said.starts_with("E")) {
			EXPECT_EQ(said, k.want ? strerrorname_np(k.want) : "0") << k.name;
			stated++;
		}
	}
	// all but "after the fuzz GET_LOCAL_NI 0 still works"
	EXPECT_EQ(stated, calls - 1);
}

// Each mode starts with a call: a check reads what a call before it got.
TEST(FixedCases, ChecksFollowACallOfTheirMode)
{
	for (const Who who : { Who::root, Who::user }) {
		bool called = false;
		for (const FixedCase &k : fixed_cases()) {
			if (k.who != who)
				continue;
			EXPECT_TRUE(called || k.call) << k.name;
			called = true;
		}
		EXPECT_TRUE(called);
	}
}

TEST(FixedCases, UserCasesSaySo)
{
	for (const FixedCase &k : fixed_cases())
		EXPECT_EQ(k.name.starts_with("user: "), k.who == Who::user) << k.name;
}

// Without CAP_NET_ADMIN everything but the reads is refused.
TEST(FixedCases, UserRefusalsAreEacces)
{
	std::size_t refused = 0;
	for (const FixedCase &k : fixed_cases())
		refused += k.who == Who::user && k.want == EACCES;
	EXPECT_EQ(refused, 8U);
}
