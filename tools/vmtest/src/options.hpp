// SPDX-License-Identifier: GPL-2.0
// lnet-vmtest's command line.
#pragma once

#include "logscan.hpp"
#include "topology.hpp"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

enum class Kernel { stock, debug };

std::string_view to_string(Kernel k);

struct Options {
	std::string suite{};
	Kernel kernel = Kernel::stock;
	std::filesystem::path script{};  // absolute
	std::vector<std::string> args{}; // GUEST_ARGS words
	int guests = 2;
	std::vector<Link> links{}; // resolved: the chain when none was given
	int timeout_s = 600;
	int mem_mb = 1024;
	int smp = 1;
	std::vector<std::string> kernel_args{}; // appended to the command line
	std::filesystem::path run_dir{}; // absolute
	std::optional<Category> expect{};
	std::filesystem::path top{}; // absolute
	std::vector<std::string> env{}; // "NAME=VALUE" for the guest's env file
	std::vector<std::filesystem::path> shares{}; // absolute; more host paths to show
	bool verbose = false;
};

struct ParsedOptions {
	std::optional<Options> options{}; // empty: exit with exit_code
	int exit_code = 0;              // 0 after --help, 2 on a usage error
};

// env_top is $LNET_TOP (null when unset); relative paths are taken from
// cwd. Help and usage errors are printed to out/err.
ParsedOptions parse_options(std::span<const char *const> argv, const char *env_top,
			    const std::filesystem::path &cwd, std::ostream &out,
			    std::ostream &err);

} // namespace vmtest
