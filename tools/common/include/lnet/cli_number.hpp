// SPDX-License-Identifier: GPL-2.0
//
// Numbers on the test peers' command lines as the scenario scripts write
// them: decimal or 0x hex, the whole text, no sign, no octal.
#ifndef LNET_CLI_NUMBER_HPP
#define LNET_CLI_NUMBER_HPP

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace lnet {

inline std::optional<std::uint64_t> parse_number(std::string_view text)
{
	int base = 10;
	if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		text.remove_prefix(2);
	}
	std::uint64_t v = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
	if (text.empty() || ec != std::errc() || end != text.data() + text.size())
		return std::nullopt;
	return v;
}

// A CLI11 transform: the number rewritten in decimal for CLI11.
inline const CLI::Validator cli_number(
	[](std::string &text) -> std::string {
		const auto v = parse_number(text);
		if (!v)
			return "not a number: '" + text + "'";
		text = std::to_string(*v);
		return {};
	},
	"N");

}  // namespace lnet

#endif  // LNET_CLI_NUMBER_HPP
