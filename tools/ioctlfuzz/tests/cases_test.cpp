// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <set>

#include <linux/lnet/lnet-ioctl.h>

#include "arena.hpp"
#include "cases.hpp"

using namespace ioctlfuzz;

TEST(Cases, SameSeedAndIndexSameBytes)
{
	Options o;
	o.seed = 42;
	for (std::uint64_t i = 0; i < 200; i++) {
		const Case a = make_case(o, i), b = make_case(o, i);
		EXPECT_EQ(a.cmd, b.cmd) << i;
		EXPECT_EQ(a.arg, b.arg) << i;
		EXPECT_EQ(a.mapped, b.mapped) << i;
		EXPECT_EQ(a.scratch_pointers, b.scratch_pointers) << i;
	}
}

TEST(Cases, SeedsDiffer)
{
	Options a, b;
	a.seed = 1;
	b.seed = 2;
	int same = 0;
	for (std::uint64_t i = 0; i < 200; i++)
		same += make_case(a, i).arg == make_case(b, i).arg;
	EXPECT_LT(same, 20);
}

TEST(Cases, CoverEveryCoreCommandAndEveryKindOfWrong)
{
	Options o;
	o.seed = 7;
	std::set<unsigned int> nrs;
	int bad_type = 0, out_of_range = 0, short_map = 0, short_len = 0, huge_len = 0,
	    wrong_version = 0;
	for (std::uint64_t i = 0; i < 20000; i++) {
		const Case k = make_case(o, i);
		const unsigned int nr = _IOC_NR(k.cmd);
		if (_IOC_TYPE(k.cmd) != LNET_IOC_TYPE)
			bad_type++;
		else if (nr < LNET_IOC_MIN_NR || nr > LNET_IOC_MAX_NR)
			out_of_range++;
		else
			nrs.insert(nr);
		short_map += k.mapped < k.arg.size();
		short_len += k.ioc_len() < LNET_IOCTL_MIN_LEN;
		huge_len += k.ioc_len() > LNET_IOCTL_MAX_LEN;
		wrong_version += k.ioc_version() != LNET_IOCTL_VERSION &&
				 k.ioc_version() != LNET_IOCTL_VERSION2;
		EXPECT_LE(k.arg.size(), Arena::max_arg) << k.describe();
		EXPECT_LE(k.mapped, k.arg.size()) << k.describe();
	}
	for (const Command &c : commands())
		if (c.core) {
			EXPECT_TRUE(nrs.count(c.nr)) << c.name;
		}
	EXPECT_GT(bad_type, 100);
	EXPECT_GT(out_of_range, 100);
	EXPECT_GT(short_map, 100);
	EXPECT_GT(short_len, 100);
	EXPECT_GT(huge_len, 100);
	EXPECT_GT(wrong_version, 100);
}

TEST(Cases, NoChangesMeansNoReconfiguringCommand)
{
	Options o;
	o.seed = 3;
	o.changes = false;
	const std::set<unsigned int> forbidden{ 56, 59, 63, 64, 81, 82, 85, 95, 96 };
	for (std::uint64_t i = 0; i < 20000; i++) {
		const Case k = make_case(o, i);
		if (_IOC_TYPE(k.cmd) == LNET_IOC_TYPE) {
			EXPECT_FALSE(forbidden.count(_IOC_NR(k.cmd))) << k.describe();
		}
	}
}

TEST(Cases, RootNeverSendsSelftestArguments)
{
	Options o;
	o.seed = 5;
	for (std::uint64_t i = 0; i < 20000; i++) {
		const Case k = make_case(o, i);
		if (_IOC_TYPE(k.cmd) == LNET_IOC_TYPE) {
			EXPECT_NE(_IOC_NR(k.cmd), 63U) << k.describe();
		}
	}
}

TEST(Cases, PingWaitsBriefly)
{
	Options o;
	o.seed = 11;
	int pings = 0;
	for (std::uint64_t i = 0; i < 20000; i++) {
		const Case k = make_case(o, i);
		if (k.cmd != LNET_IOC_PING_PEER || k.arg.size() < sizeof(lnet_ioctl_ping_data))
			continue;
		const auto *p = reinterpret_cast<const lnet_ioctl_ping_data *>(k.arg.data());
		EXPECT_GE(p->ping_param, 1) << k.describe();
		EXPECT_LE(p->ping_param, 300) << k.describe();
		pings++;
	}
	EXPECT_GT(pings, 50);
}

TEST(Arena, BytesEndAtTheGuardPage)
{
	Arena arena;
	Case k;
	k.arg.assign(100, 0xab);
	k.mapped = 60;
	auto *p = static_cast<std::uint8_t *>(arena.place(k));
	for (int i = 0; i < 60; i++)
		EXPECT_EQ(p[i], 0xab);
	// the next byte is the guard page: not touched here (it would fault)
	EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p + 60) % 4096, 0U);
}
