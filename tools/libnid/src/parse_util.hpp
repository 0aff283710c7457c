// SPDX-License-Identifier: GPL-2.0
//
// Character classes and number parsing shared by the libnid parsers. They
// are locale-independent on purpose: the kernel parsers they mirror only
// know ASCII.
#ifndef LNET_TOOLS_PARSE_UTIL_HPP
#define LNET_TOOLS_PARSE_UTIL_HPP

#include <cstdint>
#include <optional>
#include <string_view>

namespace lnet::detail {

constexpr bool is_digit(char ch) noexcept
{
	return ch >= '0' && ch <= '9';
}

constexpr bool is_space(char ch) noexcept
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

// All of @s as unsigned decimal not above @max: no sign, no blanks.
constexpr std::optional<std::uint32_t> parse_decimal(std::string_view s,
						     std::uint32_t max) noexcept
{
	std::uint64_t v = 0;

	if (s.empty())
		return std::nullopt;
	for (char ch : s) {
		if (!is_digit(ch))
			return std::nullopt;
		v = v * 10 + static_cast<unsigned>(ch - '0');
		if (v > max)
			return std::nullopt;
	}
	return static_cast<std::uint32_t>(v);
}

}  // namespace lnet::detail

#endif  // LNET_TOOLS_PARSE_UTIL_HPP
