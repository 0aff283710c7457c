// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <fcntl.h>
#include <type_traits>
#include <unistd.h>

#include "lnet/unique_fd.hpp"

namespace lnet {
namespace {

bool is_open(int fd)
{
	return ::fcntl(fd, F_GETFD) != -1;
}

int open_null()
{
	int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);

	EXPECT_GE(fd, 0);
	return fd;
}

static_assert(!std::is_copy_constructible_v<UniqueFd>);
static_assert(!std::is_copy_assignable_v<UniqueFd>);
static_assert(std::is_nothrow_move_constructible_v<UniqueFd>);
static_assert(std::is_nothrow_move_assignable_v<UniqueFd>);
static_assert(!std::is_convertible_v<UniqueFd, bool>);

TEST(UniqueFd, EmptyByDefaultAndForNegativeValues)
{
	UniqueFd none, failed(-1), other(-5);

	EXPECT_FALSE(none);
	EXPECT_EQ(none.get(), -1);
	EXPECT_FALSE(failed);
	EXPECT_FALSE(other);
	EXPECT_EQ(other.get(), -1);
}

TEST(UniqueFd, ClosesOnDestruction)
{
	int fd = open_null();
	{
		UniqueFd owner(fd);

		EXPECT_TRUE(owner);
		EXPECT_EQ(owner.get(), fd);
	}
	EXPECT_FALSE(is_open(fd));
}

TEST(UniqueFd, MoveTransfersOwnership)
{
	int fd = open_null();
	UniqueFd a(fd);
	UniqueFd b(std::move(a));

	EXPECT_FALSE(a);	// NOLINT(bugprone-use-after-move): the point
	EXPECT_EQ(b.get(), fd);

	int fd2 = open_null();
	UniqueFd c(fd2);

	c = std::move(b);	// closes fd2, takes fd
	EXPECT_FALSE(is_open(fd2));
	EXPECT_EQ(c.get(), fd);
	EXPECT_TRUE(is_open(fd));

	auto &self = c;
	c = std::move(self);
	EXPECT_EQ(c.get(), fd);
	EXPECT_TRUE(is_open(fd));
}

TEST(UniqueFd, ReleaseGivesUpWithoutClosing)
{
	int fd = open_null();
	{
		UniqueFd owner(fd);

		EXPECT_EQ(owner.release(), fd);
		EXPECT_FALSE(owner);
	}
	EXPECT_TRUE(is_open(fd));
	::close(fd);
}

TEST(UniqueFd, ResetClosesAndTakesTheNewOne)
{
	int fd = open_null(), fd2 = open_null();
	UniqueFd owner(fd);

	owner.reset(fd2);
	EXPECT_FALSE(is_open(fd));
	EXPECT_EQ(owner.get(), fd2);
	owner.reset(fd2);	// the same one: kept open
	EXPECT_TRUE(is_open(fd2));
	owner.reset();
	EXPECT_FALSE(owner);
	EXPECT_FALSE(is_open(fd2));
}

}  // namespace
}  // namespace lnet
