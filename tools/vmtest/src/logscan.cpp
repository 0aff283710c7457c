// SPDX-License-Identifier: GPL-2.0
#include "logscan.hpp"

#include "text.hpp"

namespace vmtest {
namespace {

constexpr std::array<std::pair<Category, std::string_view>, 6> category_names{{
	{Category::kunit_fail, "kunit-fail"},
	{Category::lockdep, "lockdep"},
	{Category::kasan, "kasan"},
	{Category::kmemleak, "kmemleak"},
	{Category::warning, "warning"},
	{Category::bug, "bug"},
}};

struct Pattern {
	std::string_view text;
	Category category;
};

// Checked in order; the first match decides (a lockdep splat starts with
// "WARNING:", a KASAN report with "BUG:").
constexpr std::array<Pattern, 13> anywhere{{
	{"BUG: KASAN", Category::kasan},
	{"possible circular locking", Category::lockdep},
	{"possible recursive locking", Category::lockdep},
	{"inconsistent lock state", Category::lockdep},
	{"suspicious RCU usage", Category::lockdep},
	{"new suspected memory leaks", Category::kmemleak},
	{"UBSAN:", Category::bug},
	{"BUG:", Category::bug},
	{"Kernel panic", Category::bug},
	{"general protection fault", Category::bug},
	{"blocked for more than", Category::bug},
	{"soft lockup", Category::bug},
	{"Oops", Category::bug},
}};

bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// "Oops" as a word (the x86 "Oops: 0002 [#1]"), not inside another word.
bool contains_word(std::string_view line, std::string_view word)
{
	for (auto pos = line.find(word); pos != std::string_view::npos;
	     pos = line.find(word, pos + 1)) {
		bool left = pos == 0 || !is_alnum(line[pos - 1]);
		auto end = pos + word.size();
		bool right = end == line.size() || !is_alnum(line[end]);
		if (left && right)
			return true;
	}
	return false;
}

} // namespace

std::string_view to_string(Category c)
{
	for (const auto &[cat, name] : category_names)
		if (cat == c)
			return name;
	return "?";
}

std::optional<Category> category_from_string(std::string_view name)
{
	for (const auto &[cat, text] : category_names)
		if (text == name)
			return cat;
	return std::nullopt;
}

std::string_view message_of(std::string_view line)
{
	line = trim(line);
	while (line.starts_with("[")) {
		auto close = line.find(']');
		if (close == std::string_view::npos)
			break;
		line = trim(line.substr(close + 1));
	}
	return line;
}

std::optional<Category> classify_console_line(std::string_view line)
{
	auto message = message_of(line);
	for (const auto &p : anywhere) {
		bool hit = p.text == "Oops" ? contains_word(message, p.text) :
					      message.find(p.text) != std::string_view::npos;
		if (hit)
			return p.category;
	}
	if (message.starts_with("WARNING:"))
		return Category::warning;
	return std::nullopt;
}

std::vector<Finding> scan_console(std::string_view text)
{
	std::vector<Finding> found;
	for (auto line : split_lines(text))
		if (auto c = classify_console_line(line))
			found.push_back({*c, std::string(message_of(line))});
	return found;
}

std::vector<Finding> scan_kmemleak(std::string_view text)
{
	std::vector<Finding> found;
	for (auto line : split_lines(text))
		if (line.find("unreferenced object") != std::string_view::npos)
			found.push_back({Category::kmemleak, std::string(trim(line))});
	return found;
}

} // namespace vmtest
