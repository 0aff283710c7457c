// SPDX-License-Identifier: GPL-2.0
// Finds kernel reports ("splats") in a guest's serial console and in its
// kmemleak report.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

// What the bench can detect; also the values of --expect.
enum class Category { kunit_fail, lockdep, kasan, kmemleak, warning, bug };

inline constexpr std::array all_categories{
	Category::kunit_fail, Category::lockdep, Category::kasan,
	Category::kmemleak,   Category::warning, Category::bug,
};

std::string_view to_string(Category c);
std::optional<Category> category_from_string(std::string_view name);

struct Finding {
	Category category;
	std::string line{}; // the matching line, without CR and the timestamp
};

// The category of one console line, if it starts or is part of a report:
//   kasan     "BUG: KASAN"
//   lockdep   possible circular/recursive locking, inconsistent lock
//             state, suspicious RCU usage
//   kmemleak  "new suspected memory leaks"
//   warning   "WARNING:" at the start of the message (what WARN() and
//             lockdep print); "RETBleed: WARNING: ..." style notices of a
//             subsystem are not reports
//   bug       any other "BUG:", "Oops", "Kernel panic", "general
//             protection fault", "blocked for more than", "soft lockup",
//             "UBSAN:"
std::optional<Category> classify_console_line(std::string_view line);

// Every report line of a console log (CRLF or LF), in order.
std::vector<Finding> scan_console(std::string_view text);

// The "unreferenced object" lines of a kmemleak report.
std::vector<Finding> scan_kmemleak(std::string_view text);

// The message of a console line: without the "[    1.234567]" timestamp
// and "[    T1]" caller id that printk may put in front.
std::string_view message_of(std::string_view line);

} // namespace vmtest
