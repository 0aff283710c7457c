// SPDX-License-Identifier: GPL-2.0
//
// Strict parsers for values given on the command line or in YAML files.
#ifndef LNETCTL_PARSE_HPP
#define LNETCTL_PARSE_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <lnet/errno_text.hpp>

namespace lnetctl {

// Decimal integer with an optional leading '-', nothing else.
std::optional<std::int64_t> parse_int(std::string_view text);

// "[0,1,4-6]", "0,1" or "[]": CPT numbers, ranges expanded, duplicates and
// order kept as given. nullopt on any syntax error or a value > 65535.
std::optional<std::vector<std::uint32_t>> parse_cpt_list(std::string_view text);

// Comma-separated words with blanks trimmed; empty words are kept so the
// caller can reject them.
std::vector<std::string> split_list(std::string_view text);

using lnet::errno_text;

}  // namespace lnetctl

#endif  // LNETCTL_PARSE_HPP
