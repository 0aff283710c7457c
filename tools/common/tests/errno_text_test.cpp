// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>

#include "lnet/errno_text.hpp"

namespace lnet {
namespace {

TEST(ErrnoText, PositiveAndNegative)
{
	EXPECT_EQ(errno_text(ENOENT), "No such file or directory");
	EXPECT_EQ(errno_text(-ETIMEDOUT), "Connection timed out");
}

TEST(ErrnoText, UnknownNumber)
{
	EXPECT_EQ(errno_text(100000), "error 100000");
}

}  // namespace
}  // namespace lnet
