// SPDX-License-Identifier: GPL-2.0
//
// ip2nets address patterns, with the grammar of the kernel's lnet/ip2nets.c
// (the ip2nets= parameter and `net add --ip2net` rules), for the rules that
// lnetctl resolves itself (the YAML ip2nets section).
#include <lnet/nid.hpp>

namespace lnet {
namespace {

// A decimal 0..255 at the front of @s (consumed).
std::optional<std::uint32_t> take_octet(std::string_view &s)
{
	std::uint32_t n = 0;
	std::size_t i = 0;

	if (s.empty() || s[0] < '0' || s[0] > '9')
		return std::nullopt;
	for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++) {
		n = n * 10 + static_cast<std::uint32_t>(s[i] - '0');
		if (n > 255)
			return std::nullopt;
	}
	s.remove_prefix(i);
	return n;
}

// "n", "n-m" or "n-m/stride" at the front of @s (consumed): does @octet
// fall in it?
std::optional<bool> take_range(std::string_view &s, std::uint32_t octet)
{
	auto lo = take_octet(s);
	auto hi = lo;
	std::optional<std::uint32_t> stride = 1;

	if (!lo)
		return std::nullopt;
	if (!s.empty() && s[0] == '-') {
		s.remove_prefix(1);
		hi = take_octet(s);
		if (!hi || *hi < *lo)
			return std::nullopt;
		if (!s.empty() && s[0] == '/') {
			s.remove_prefix(1);
			stride = take_octet(s);
			if (!stride || *stride == 0)
				return std::nullopt;
		}
	}
	return octet >= *lo && octet <= *hi && (octet - *lo) % *stride == 0;
}

}  // namespace

std::optional<bool> ipv4_pattern_match(std::string_view pattern,
				       std::uint32_t addr)
{
	std::string_view s = pattern;
	bool all = true;

	for (int i = 0; i < 4; i++) {
		const std::uint32_t octet = (addr >> (24 - 8 * i)) & 0xff;
		bool hit = false;

		if (i) {
			if (s.empty() || s[0] != '.')
				return std::nullopt;
			s.remove_prefix(1);
		}
		if (!s.empty() && s[0] == '*') {
			hit = true;
			s.remove_prefix(1);
		} else if (!s.empty() && s[0] == '[') {
			do {
				s.remove_prefix(1);
				auto h = take_range(s, octet);

				if (!h)
					return std::nullopt;
				hit |= *h;
			} while (!s.empty() && s[0] == ',');
			if (s.empty() || s[0] != ']')
				return std::nullopt;
			s.remove_prefix(1);
		} else {
			auto h = take_range(s, octet);

			if (!h)
				return std::nullopt;
			hit = *h;
		}
		all = all && hit;
	}
	if (!s.empty())
		return std::nullopt;
	return all;
}

}  // namespace lnet
