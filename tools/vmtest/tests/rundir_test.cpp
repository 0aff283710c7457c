// SPDX-License-Identifier: GPL-2.0
#include "rundir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace vmtest {
namespace {

namespace fs = std::filesystem;

struct RunDir : ::testing::Test {
	fs::path base = fs::temp_directory_path() / ("vmtest-rundir-" + std::to_string(::getpid()));
	fs::path run = base / "build/vmtest/smoke";
	void SetUp() override { fs::remove_all(base); }
	void TearDown() override { fs::remove_all(base); }
};

TEST_F(RunDir, CreatesGuestDirectories)
{
	prepare_run_dir(run, base, 3);
	EXPECT_TRUE(fs::is_directory(run / "g0"));
	EXPECT_TRUE(fs::is_directory(run / "g2"));
	EXPECT_FALSE(fs::exists(run / "g3"));
}

TEST_F(RunDir, WipesAnEarlierRun)
{
	prepare_run_dir(run, base, 3);
	std::ofstream(run / "g1" / "console.log") << "old";
	prepare_run_dir(run, base, 2);
	EXPECT_TRUE(fs::is_directory(run / "g1"));
	EXPECT_FALSE(fs::exists(run / "g1" / "console.log"));
	EXPECT_FALSE(fs::exists(run / "g2"));
}

TEST_F(RunDir, RefusesForeignContent)
{
	fs::create_directories(run / "g0");
	std::ofstream(run / "precious.txt") << "keep me";
	EXPECT_THROW(prepare_run_dir(run, base, 1), std::runtime_error);
	EXPECT_TRUE(fs::exists(run / "precious.txt"));

	fs::remove(run / "precious.txt");
	fs::create_directories(run / "src");
	EXPECT_THROW(prepare_run_dir(run, base, 1), std::runtime_error);
	EXPECT_TRUE(fs::exists(run / "src"));
}

TEST_F(RunDir, RefusesTheWorkTreeOrAnAncestor)
{
	fs::create_directories(base);
	EXPECT_THROW(prepare_run_dir(base, base, 1), std::runtime_error);
	EXPECT_THROW(prepare_run_dir(base.parent_path(), base, 1), std::runtime_error);
	EXPECT_THROW(prepare_run_dir("/", base, 1), std::runtime_error);
}

TEST_F(RunDir, RefusesAFile)
{
	fs::create_directories(run.parent_path());
	std::ofstream(run) << "not a directory";
	EXPECT_THROW(prepare_run_dir(run, base, 1), std::runtime_error);
}

} // namespace
} // namespace vmtest
