// SPDX-License-Identifier: GPL-2.0
// Small string helpers shared by the parsers.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

inline std::string_view trim(std::string_view s)
{
	while (!s.empty() && is_blank(s.front()))
		s.remove_prefix(1);
	while (!s.empty() && is_blank(s.back()))
		s.remove_suffix(1);
	return s;
}

// Splits text into lines; "\r\n" and a trailing "\r" are line ends too
// (qemu writes the serial console with CRLF).
inline std::vector<std::string_view> split_lines(std::string_view text)
{
	std::vector<std::string_view> lines;
	while (!text.empty()) {
		auto nl = text.find('\n');
		auto line = text.substr(0, nl);
		while (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		lines.push_back(line);
		if (nl == std::string_view::npos)
			break;
		text.remove_prefix(nl + 1);
	}
	return lines;
}

inline std::optional<long> parse_long(std::string_view s)
{
	long value = 0;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
	if (ec != std::errc() || end != s.data() + s.size())
		return std::nullopt;
	return value;
}

} // namespace vmtest
