// SPDX-License-Identifier: GPL-2.0
//
// Text forms of LNet nets, NIDs and process ids for the user-space tools,
// with the same strictness and output as the kernel's lnet/nidstr.c, plus a
// parser for the lnet "networks=" module parameter syntax (lnet/config.c).
// Forms: Documentation/wire/nid.md, "Text forms".
#ifndef LNET_TOOLS_NID_HPP
#define LNET_TOOLS_NID_HPP

#include <linux/lnet/lnet-nid.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lnet {

// Name of an LND type ("tcp", "o2ib", "lo", ...), or nullopt if unknown.
std::optional<std::string_view> lnd_type_name(std::uint32_t lnd_type);
// LND type for an exact name ("o2ib" -> LNET_LND_O2IB), or nullopt.
std::optional<std::uint32_t> lnd_type_from_name(std::string_view name);

// "tcp", "tcp1", "o2ib2", "lo"; "<?>" is LNET_NET_ANY. No blanks, no
// trailing text, net number <= 65535, "lo" never carries a number.
std::optional<std::uint32_t> parse_net(std::string_view text);
// "192.0.2.1@tcp", "0@lo", "17@gni" (0x hex accepted for numeric LNDs),
// "192.0.2.1" (tcp net 0), "<?>" (LNET_NID_ANY).
std::optional<lnet_nid_t> parse_nid(std::string_view text);
// "nid" (pid LNET_PID_ANY), "12345-nid", "U1023-nid" (user flag set),
// "LNET_PID_ANY-nid". Plain and U pids must be below 0x80000000.
std::optional<lnet_process_id> parse_process_id(std::string_view text);

std::string net_to_string(std::uint32_t net);
std::string nid_to_string(lnet_nid_t nid);
std::string process_id_to_string(lnet_process_id id);

// Limits of the networks= syntax; they match the kernel's config.h.
inline constexpr std::size_t max_net_interfaces = 16;
inline constexpr std::size_t max_interface_name = 15;	// IFNAMSIZ - 1
inline constexpr std::size_t max_config_cpts = 64;
inline constexpr std::uint32_t max_config_cpt = 65535;

struct net_config {
	std::uint32_t net = 0;
	std::vector<std::string> interfaces;
	std::vector<std::uint32_t> cpts;	// empty: all partitions

	bool operator==(const net_config &) const = default;
};

struct networks_result {
	std::vector<net_config> nets;	// empty when error is set
	std::string error;		// e.g. "networks: unknown network 'x' at offset 0"

	bool ok() const noexcept { return error.empty(); }
	explicit operator bool() const noexcept { return ok(); }
};

// `net[(iface[,iface...])][[cpt-list]]` items separated by commas, blanks
// allowed around items and list elements; '#' comments are not supported.
// Errors carry the same messages as the kernel parser.
networks_result parse_networks(std::string_view text);

// An ip2nets address pattern "a.b.c.d", each octet "*", "n", "n-m",
// "n-m/stride" or a bracketed list of those ("[1,5-7,10-20/2]"), as the
// kernel's ip2nets rules take it. nullopt: malformed; else whether @addr (host order) matches.
std::optional<bool> ipv4_pattern_match(std::string_view pattern,
				       std::uint32_t addr);

}  // namespace lnet

#endif  // LNET_TOOLS_NID_HPP
