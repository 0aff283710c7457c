// SPDX-License-Identifier: GPL-2.0
// The verdict of a run: one result per check (Documentation/testing.md,
// "Verdict"), and the report categories that were detected.
#pragma once

#include "logscan.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vmtest {

struct Result {
	std::string name{}; // "g0: console clean"
	bool passed = false;
	std::string reason{}; // why it failed
};

// How a guest's qemu ended, as the runner saw it.
struct GuestExit {
	bool finished = false; // exited on its own before the timeout
	std::string note{};      // "timed out after 600 s", "qemu exit status 1", ...
};

// What a guest left in RUN/g<i>.
struct GuestEvidence {
	std::string name{}; // g<i>
	GuestExit exit;
	std::optional<std::string> results{};
	std::vector<std::pair<std::string, std::string>> ktap{}; // file stem, text
	std::optional<std::string> status{};
	std::optional<std::string> console{};
	std::optional<std::string> kmemleak{};
};

GuestEvidence load_evidence(const std::filesystem::path &guest_dir, std::string name,
			    GuestExit exit);

struct Verdict {
	std::vector<Result> results{};
	std::set<Category> detected{};
	std::vector<std::string> unfinished{}; // "g1: timed out after 600 s"
};

// Results of one guest's results file ("ok NAME", "not ok NAME # reason").
std::vector<Result> results_file(std::string_view guest, std::string_view text);

Verdict judge(std::span<const GuestEvidence> guests);

// The two results of a --expect self-check.
std::vector<Result> expect_results(const Verdict &verdict, Category expected);

// "FAIL g0: console clean: <reason>" or "PASS g0: console clean".
std::string format_result(const Result &r);

// "suite NAME: N passed, N failed".
std::string summary_line(std::string_view suite, std::span<const Result> results);

size_t count_failed(std::span<const Result> results);

} // namespace vmtest
