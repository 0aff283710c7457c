// SPDX-License-Identifier: GPL-2.0
// KTAP as the guest saves it: the text of a KUnit debugfs results file
// (Linux 6.1: a "1..1" document wrapping one suite, cases indented one
// level, parameters of a case one level deeper), or a flat document whose
// top-level results are the cases themselves.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

enum class CaseStatus { pass, fail, skip };

struct KtapCase {
	std::string name{};
	CaseStatus status = CaseStatus::pass;
	std::string reason{}; // why it failed or was skipped; empty on pass
};

struct KtapSuite {
	std::string name{};
	std::vector<KtapCase> cases{};
	// The suite's own result line said "not ok" (e.g. its init failed).
	bool suite_failed = false;
	// Set when the suite's KTAP is incomplete: no plan, fewer (or more)
	// results than planned, or no closing suite result line.
	std::optional<std::string> problem{};
};

// Parses one KTAP file. fallback_name names a suite that carries no
// "# Subtest:" header (normally the file's stem). Never throws on bad
// input: anything unparsable ends up as a suite problem.
std::vector<KtapSuite> parse_ktap(std::string_view text, std::string_view fallback_name);

} // namespace vmtest
