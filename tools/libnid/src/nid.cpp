// SPDX-License-Identifier: GPL-2.0
//
// Net/NID/process-id text forms; mirrors the kernel's lnet/nidstr.c so that
// tools and kernel logs agree on every string.
#include <lnet/nid.hpp>

#include <array>
#include <charconv>

#include "parse_util.hpp"

namespace lnet {
namespace {

enum class addr_syntax { ipv4, number, loopback };

struct lnd_desc {
	std::uint32_t type;
	std::string_view name;
	addr_syntax syntax;
};

// Every LND type with a protocol name, so peers' NIDs print as other nodes
// print them. No name is a prefix of another name followed by digits.
constexpr std::array<lnd_desc, 9> lnds{ {
	{ LNET_LND_SOCK, "tcp", addr_syntax::ipv4 },
	{ LNET_LND_O2IB, "o2ib", addr_syntax::ipv4 },
	{ LNET_LND_LO, "lo", addr_syntax::loopback },
	{ LNET_LND_GNI, "gni", addr_syntax::number },
	{ LNET_LND_GNIIP, "gip", addr_syntax::ipv4 },
	{ LNET_LND_PTL4, "ptlf", addr_syntax::number },
	{ LNET_LND_KFI, "kfi", addr_syntax::number },
	{ LNET_LND_EFA, "efa", addr_syntax::ipv4 },
	{ LNET_LND_BXI3, "bxi3f", addr_syntax::number },
} };

constexpr std::string_view any_str = "<?>";

const lnd_desc *lnd_by_type(std::uint32_t type)
{
	for (const auto &lnd : lnds)
		if (lnd.type == type)
			return &lnd;
	return nullptr;
}

// A net id with its top byte set is malformed (or LNET_NET_ANY).
const lnd_desc *lnd_of_net(std::uint32_t net)
{
	if (net >> 24)
		return nullptr;
	return lnd_by_type(LNET_NETTYP(net));
}

std::optional<std::uint32_t> parse_hex(std::string_view s)
{
	std::uint64_t v = 0;

	if (s.empty())
		return std::nullopt;
	for (char ch : s) {
		int d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return std::nullopt;
		v = (v << 4) | static_cast<unsigned>(d);
		if (v > UINT32_MAX)
			return std::nullopt;
	}
	return static_cast<std::uint32_t>(v);
}

std::optional<std::uint32_t> parse_ipv4(std::string_view s)
{
	std::uint32_t addr = 0;
	int octets = 0;

	for (;;) {
		const auto dot = s.find('.');
		const auto octet = detail::parse_decimal(s.substr(0, dot), 255);

		if (!octet || octets == 4)
			return std::nullopt;
		addr = (addr << 8) | *octet;
		octets++;
		if (dot == std::string_view::npos)
			break;
		s.remove_prefix(dot + 1);
	}
	if (octets != 4)
		return std::nullopt;
	return addr;
}

std::optional<std::uint32_t> parse_addr(const lnd_desc &lnd,
					std::string_view s)
{
	switch (lnd.syntax) {
	case addr_syntax::ipv4:
		return parse_ipv4(s);
	case addr_syntax::number:
		if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			return parse_hex(s.substr(2));
		return detail::parse_decimal(s, UINT32_MAX);
	case addr_syntax::loopback:
		// Only the syntax is checked: the loopback address is always 0.
		if (s.empty())
			return std::nullopt;
		for (char ch : s)
			if (!detail::is_digit(ch))
				return std::nullopt;
		return 0;
	}
	return std::nullopt;
}

std::string to_hex(std::uint32_t v)
{
	std::array<char, 8> buf{};
	auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v, 16);

	(void)ec;	// 8 digits always fit
	return std::string(buf.data(), end);
}

}  // namespace

std::optional<std::string_view> lnd_type_name(std::uint32_t lnd_type)
{
	const lnd_desc *lnd = lnd_by_type(lnd_type);

	if (!lnd)
		return std::nullopt;
	return lnd->name;
}

std::optional<std::uint32_t> lnd_type_from_name(std::string_view name)
{
	for (const auto &lnd : lnds)
		if (lnd.name == name)
			return lnd.type;
	return std::nullopt;
}

std::optional<std::uint32_t> parse_net(std::string_view text)
{
	if (text == any_str)
		return LNET_NET_ANY;

	for (const auto &lnd : lnds) {
		if (!text.starts_with(lnd.name))
			continue;
		const std::string_view rest = text.substr(lnd.name.size());
		std::uint32_t num = 0;

		if (!rest.empty()) {
			// There is only one loopback net.
			if (lnd.syntax == addr_syntax::loopback)
				return std::nullopt;
			const auto n = detail::parse_decimal(rest, 0xffff);
			if (!n)
				return std::nullopt;
			num = *n;
		}
		return LNET_MKNET(lnd.type, num);
	}
	return std::nullopt;
}

std::optional<lnet_nid_t> parse_nid(std::string_view text)
{
	std::uint32_t net = LNET_MKNET(LNET_LND_SOCK, 0);
	std::string_view addr = text;

	if (text == any_str)
		return LNET_NID_ANY;

	if (const auto at = text.find('@'); at != std::string_view::npos) {
		const auto n = parse_net(text.substr(at + 1));

		if (!n || *n == LNET_NET_ANY)
			return std::nullopt;
		net = *n;
		addr = text.substr(0, at);
	}

	const lnd_desc *lnd = lnd_of_net(net);
	if (!lnd)
		return std::nullopt;
	const auto a = parse_addr(*lnd, addr);
	if (!a)
		return std::nullopt;
	return LNET_MKNID(net, *a);
}

std::optional<lnet_process_id> parse_process_id(std::string_view text)
{
	constexpr std::string_view any_pid = "LNET_PID_ANY";
	const auto dash = text.find('-');
	lnet_process_id id{};

	if (dash == std::string_view::npos) {
		id.pid = LNET_PID_ANY;
	} else {
		std::string_view pid = text.substr(0, dash);

		if (pid == any_pid) {
			id.pid = LNET_PID_ANY;
		} else {
			const bool user = pid.starts_with('U');

			if (user)
				pid.remove_prefix(1);
			// The user flag is spelled "U", never as part of the number.
			const auto p = detail::parse_decimal(pid,
							     LNET_PID_USERFLAG - 1);
			if (!p)
				return std::nullopt;
			id.pid = *p | (user ? LNET_PID_USERFLAG : 0);
		}
		text.remove_prefix(dash + 1);
	}

	const auto nid = parse_nid(text);
	if (!nid)
		return std::nullopt;
	id.nid = *nid;
	return id;
}

std::string net_to_string(std::uint32_t net)
{
	const lnd_desc *lnd = lnd_of_net(net);
	const std::uint32_t num = LNET_NETNUM(net);

	if (net == LNET_NET_ANY)
		return std::string(any_str);
	if (!lnd)
		return "<" + std::to_string(net >> 16) + ":" +
		       std::to_string(num) + ">";
	if (!num)
		return std::string(lnd->name);
	return std::string(lnd->name) + std::to_string(num);
}

std::string nid_to_string(lnet_nid_t nid)
{
	const std::uint32_t net = LNET_NIDNET(nid);
	const std::uint32_t addr = LNET_NIDADDR(nid);
	const lnd_desc *lnd = lnd_of_net(net);

	if (nid == LNET_NID_ANY)
		return std::string(any_str);

	const std::string netstr = "@" + net_to_string(net);
	if (!lnd)
		return to_hex(addr) + netstr;
	if (lnd->syntax != addr_syntax::ipv4)
		return std::to_string(addr) + netstr;
	return std::to_string(addr >> 24) + "." +
	       std::to_string((addr >> 16) & 0xff) + "." +
	       std::to_string((addr >> 8) & 0xff) + "." +
	       std::to_string(addr & 0xff) + netstr;
}

std::string process_id_to_string(lnet_process_id id)
{
	const std::string nid = nid_to_string(id.nid);

	if (id.pid == LNET_PID_ANY)
		return "LNET_PID_ANY-" + nid;
	if (id.pid & LNET_PID_USERFLAG)
		return "U" + std::to_string(id.pid & ~LNET_PID_USERFLAG) + "-" +
		       nid;
	return std::to_string(id.pid) + "-" + nid;
}

}  // namespace lnet
