// SPDX-License-Identifier: GPL-2.0
//
// Text forms of fault injection rules (lnetctl fault): rule NIDs with their
// wildcards, message types, health error kinds and seeds.
#ifndef LNETCTL_FAULT_TEXT_HPP
#define LNETCTL_FAULT_TEXT_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kernel.hpp"

namespace lnetctl {

// "drop", "delay"
std::string_view fault_kind_name(FaultKind kind);

// Message types by LNET_MSG_* value (the bit in fa_msg_mask).
inline constexpr std::array<std::string_view, 4> fault_msg_names = {
	"ACK", "PUT", "GET", "REPLY",
};
inline constexpr std::uint32_t fault_msg_ack = 0;
inline constexpr std::uint32_t fault_msg_put = 1;
inline constexpr std::uint32_t fault_msg_get = 2;

// Message health statuses 1..10 by value (the bit in fa_health_mask);
// entry 0 (OK) is never a fault.
inline constexpr std::array<std::string_view, 11> health_status_names = {
	"ok", "local_interrupt", "local_dropped", "local_aborted",
	"local_no_route", "local_error", "local_timeout", "remote_error",
	"remote_dropped", "remote_timeout", "network_timeout",
};
inline constexpr std::string_view health_random_name = "random";

// "*" (LNET_NID_ANY), "*@net" (every NID of the net: address any_addr),
// or a NID.
std::optional<lnet_nid_t> parse_fault_nid(std::string_view text);
std::string fault_nid_to_string(lnet_nid_t nid);

// A message type name, any case: its LNET_MSG_* value.
std::optional<std::uint32_t> parse_fault_msg(std::string_view text);
// A health error kind: its mask bits (LNET_FAULT_HEALTH_RANDOM for random).
std::optional<std::uint32_t> parse_health_kind(std::string_view text);

// Decimal or 0x hexadecimal, 64 bits.
std::optional<std::uint64_t> parse_seed(std::string_view text);
std::string format_seed(std::uint64_t seed);

}  // namespace lnetctl

#endif  // LNETCTL_FAULT_TEXT_HPP
