// SPDX-License-Identifier: GPL-2.0
#include "fault_text.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lnetctl {
namespace {

bool equal_nocase(std::string_view a, std::string_view b)
{
	return std::equal(a.begin(), a.end(), b.begin(), b.end(),
			  [](char x, char y) {
				  return std::toupper(static_cast<unsigned char>(x)) ==
					 std::toupper(static_cast<unsigned char>(y));
			  });
}

}  // namespace

std::string_view fault_kind_name(FaultKind kind)
{
	return kind == FaultKind::drop ? "drop" : "delay";
}

std::optional<lnet_nid_t> parse_fault_nid(std::string_view text)
{
	if (text == "*")
		return LNET_NID_ANY;
	if (text.starts_with("*@")) {
		auto net = lnet::parse_net(text.substr(2));

		if (!net || *net == LNET_NET_ANY)
			return std::nullopt;
		return LNET_MKNID(*net, any_addr);
	}
	return lnet::parse_nid(text);
}

std::string fault_nid_to_string(lnet_nid_t nid)
{
	if (nid == LNET_NID_ANY)
		return "*";
	if (LNET_NIDADDR(nid) == any_addr)
		return "*@" + lnet::net_to_string(LNET_NIDNET(nid));
	return lnet::nid_to_string(nid);
}

std::optional<std::uint32_t> parse_fault_msg(std::string_view text)
{
	for (std::uint32_t i = 0; i < fault_msg_names.size(); i++)
		if (equal_nocase(text, fault_msg_names[i]))
			return i;
	return std::nullopt;
}

std::optional<std::uint32_t> parse_health_kind(std::string_view text)
{
	if (text == health_random_name)
		return LNET_FAULT_HEALTH_RANDOM;
	for (std::uint32_t i = 1; i < health_status_names.size(); i++)
		if (text == health_status_names[i])
			return 1U << i;
	return std::nullopt;
}

std::optional<std::uint64_t> parse_seed(std::string_view text)
{
	int base = 10;
	std::uint64_t v = 0;

	if (text.starts_with("0x") || text.starts_with("0X")) {
		base = 16;
		text.remove_prefix(2);
	}
	if (text.empty())
		return std::nullopt;
	const char *end = text.data() + text.size();
	auto [ptr, ec] = std::from_chars(text.data(), end, v, base);
	if (ec != std::errc() || ptr != end)
		return std::nullopt;
	return v;
}

std::string format_seed(std::uint64_t seed)
{
	std::array<char, 20> buf;
	auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), seed, 16);

	return "0x" + std::string(buf.data(), ptr);
}

}  // namespace lnetctl
