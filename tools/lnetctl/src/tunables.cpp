// SPDX-License-Identifier: GPL-2.0
#include "tunables.hpp"

#include <array>
#include <cerrno>
#include <limits>

#include "parse.hpp"

namespace lnetctl {
namespace {

constexpr std::int64_t int_max = std::numeric_limits<std::int32_t>::max();

constexpr std::array<GlobalTunable, 13> table{ {
	{ "numa_range", "lnet_numa_range", false, 0, int_max, true,
	  "NUMA distance within which NIs count as equally close" },
	{ "max_interfaces", "lnet_interfaces_max", false, 16, int_max, true,
	  "largest number of NIs accepted in a peer's ping reply" },
	{ "discovery", "lnet_peer_discovery_disabled", true, 0, 1, true,
	  "1: discover peers' NIs automatically, 0: do not" },
	{ "drop_asym_route", "lnet_drop_asym_route", false, 0, 1, true,
	  "1: drop messages from a remote net through a gateway none of our routes to it uses" },
	{ "retry_count", "lnet_retry_count", false, 0, int_max, true,
	  "times a failed message is resent" },
	{ "transaction_timeout", "lnet_transaction_timeout", false, 1, int_max,
	  true, "seconds before a message without response is failed" },
	{ "health_sensitivity", "lnet_health_sensitivity", false, 0, 1000, true,
	  "health value lost by an NI per failure (0 disables health)" },
	{ "recovery_interval", "lnet_recovery_interval", false, 1, int_max, true,
	  "seconds between recovery pings of unhealthy NIs (deprecated)" },
	{ "router_sensitivity", "router_sensitivity_percentage", false, 0, 100,
	  true, "percentage of health at which a gateway counts as up" },
	{ "lnd_timeout", "lnet_lnd_timeout", false, 0, int_max, false,
	  "timeout of an LND whose own (sock_timeout, timeout) is 0: derived from transaction_timeout and retry_count" },
	{ "response_tracking", "lnet_response_tracking", false, 0, 3, true,
	  "ACK/REPLY timeouts: 0 only MDs that ask, 1 REPLYs to GETs, 2 ACKs to PUTs, 3 both" },
	{ "recovery_limit", "lnet_recovery_limit", false, 0, int_max, true,
	  "seconds to keep recovering an NI, 0: forever" },
	{ "max_recovery_ping_interval", "lnet_max_recovery_ping_interval",
	  false, 1, int_max, true,
	  "longest interval in seconds between recovery pings" },
} };

constexpr std::string_view lnet_module = "lnet";

}  // namespace

std::span<const GlobalTunable> global_tunables()
{
	return table;
}

const GlobalTunable *find_global_tunable(std::string_view name)
{
	for (const auto &t : table)
		if (t.name == name)
			return &t;
	return nullptr;
}

std::optional<std::string> read_global(Kernel &kernel, const GlobalTunable &t)
{
	auto v = kernel.read_param(lnet_module, t.param);
	if (v && t.inverted) {
		auto n = parse_int(*v);

		if (n)
			return *n ? "0" : "1";
	}
	return v;
}

std::string check_global(const GlobalTunable &t, std::int64_t value)
{
	if (value < t.min || value > t.max)
		return std::string(t.name) + " must be between " +
		       std::to_string(t.min) + " and " + std::to_string(t.max);
	return "";
}

void write_global(Kernel &kernel, const GlobalTunable &t, std::int64_t value)
{
	std::string reason = check_global(t, value);

	if (!reason.empty())
		throw KernelError(EINVAL, reason, true);
	if (t.inverted)
		value = value ? 0 : 1;
	if (!t.settable)
		throw KernelError(EPERM, std::string(t.name) + " is derived, not set",
				  true);
	kernel.write_param(lnet_module, t.param, std::to_string(value));
}

}  // namespace lnetctl
