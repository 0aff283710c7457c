// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "report.hpp"

using namespace ioctlfuzz;

TEST(Report, OkLinesAreNotFailures)
{
	std::ostringstream out;
	Report r(out);
	r.result(true, "open /dev/lnet", "ignored");
	r.expect("ioc_len 0: EINVAL", EINVAL, EINVAL);
	EXPECT_EQ(out.str(), "ok open /dev/lnet\nok ioc_len 0: EINVAL\n");
	EXPECT_EQ(r.failures(), 0);
	EXPECT_EQ(r.exit_status(), 0);
}

TEST(Report, NotOkLinesSayWhyAndFail)
{
	std::ostringstream out;
	Report r(out);
	r.result(false, "GET_LOCAL_NI 0 is 0@lo", "first NI is not 0@lo");
	r.expect("PING 0@lo: 0", EINVAL, 0);
	EXPECT_EQ(out.str(), "not ok GET_LOCAL_NI 0 is 0@lo # first NI is not 0@lo\n"
			     "not ok PING 0@lo: 0 # got 22 Invalid argument, want success\n");
	EXPECT_EQ(r.failures(), 2);
	EXPECT_EQ(r.exit_status(), 1);
}

TEST(Report, ErrnoLabel)
{
	EXPECT_EQ(errno_label(0), "success");
	EXPECT_EQ(errno_label(ENOENT), "2 No such file or directory");
}
