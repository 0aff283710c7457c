// SPDX-License-Identifier: GPL-2.0
#include "parse.hpp"

#include <charconv>

namespace lnetctl {
namespace {

std::string_view trim(std::string_view s)
{
	while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
		s.remove_prefix(1);
	while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
		s.remove_suffix(1);
	return s;
}

constexpr std::int64_t max_cpt = 65535;

}  // namespace

std::optional<std::int64_t> parse_int(std::string_view text)
{
	std::int64_t v = 0;
	const char *end = text.data() + text.size();

	if (text.empty() || (text.size() > 1 && text[0] == '+'))
		return std::nullopt;
	auto [ptr, ec] = std::from_chars(text.data(), end, v, 10);
	if (ec != std::errc() || ptr != end)
		return std::nullopt;
	return v;
}

std::optional<std::vector<std::uint32_t>> parse_cpt_list(std::string_view text)
{
	std::vector<std::uint32_t> cpts;

	text = trim(text);
	if (!text.empty() && text.front() == '[') {
		if (text.back() != ']')
			return std::nullopt;
		text = trim(text.substr(1, text.size() - 2));
	}
	if (text.empty())
		return cpts;
	for (const auto &word : split_list(text)) {
		std::string_view w = word;
		auto dash = w.find('-');
		auto lo = parse_int(trim(w.substr(0, dash)));
		auto hi = dash == std::string_view::npos ? lo :
			  parse_int(trim(w.substr(dash + 1)));

		if (!lo || !hi || *lo < 0 || *hi > max_cpt || *lo > *hi)
			return std::nullopt;
		for (std::int64_t c = *lo; c <= *hi; c++)
			cpts.push_back(static_cast<std::uint32_t>(c));
	}
	return cpts;
}

std::vector<std::string> split_list(std::string_view text)
{
	std::vector<std::string> words;

	for (;;) {
		auto comma = text.find(',');

		words.emplace_back(trim(text.substr(0, comma)));
		if (comma == std::string_view::npos)
			break;
		text.remove_prefix(comma + 1);
	}
	return words;
}

}  // namespace lnetctl
