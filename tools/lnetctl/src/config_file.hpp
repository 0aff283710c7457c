// SPDX-License-Identifier: GPL-2.0
//
// Reading an exported configuration (YAML, the shapes of net/route/global
// show) into the list of operations that recreate it.
#ifndef LNETCTL_CONFIG_FILE_HPP
#define LNETCTL_CONFIG_FILE_HPP

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands/common.hpp"
#include "kernel.hpp"
#include "outcome.hpp"
#include "tunables.hpp"

namespace lnetctl {

struct PlannedNi {
	std::uint32_t net = LNET_NET_ANY;
	// nid is nid_from_interface(net) when interface is set, else the NID
	// given in the file
	NiConfig config;
	// The net had no "local NI(s)": all of it (meaningful for --del only).
	bool whole_net = false;
};

struct PlannedGlobal {
	const GlobalTunable *tunable = nullptr;
	std::int64_t value = 0;
};

// One entry of the ip2nets section: the NIs of @net on the interfaces
// of this node that the rule chooses (ip2nets_choose()), each with
// @config's tunables and CPTs.
struct PlannedIp2nets {
	std::uint32_t net = LNET_NET_ANY;
	std::vector<std::string> interfaces;	// none: by address
	std::vector<std::string> ip_ranges;	// well-formed patterns
	NiConfig config;
};

struct ConfigPlan {
	std::vector<PlannedNi> nis;		// lo left out
	std::vector<PlannedIp2nets> ip2nets;
	std::vector<RouteConfig> routes;
	std::vector<PlannedGlobal> globals;
	std::optional<bool> routing;		// routing: enable: 0|1
	std::optional<RouterBufferTotals> buffers;	// buffers: tiny, small, large
	// Well-formed, non-empty sections this lnetctl does not configure
	// (udsp, ...): the import fails, nothing of the file applied.
	std::vector<std::string> unsupported;
	// Peers of the peer section, each with all its NIDs: peer add of the
	// primary, then of each other NID.
	std::vector<PeerNids> peers;

	bool empty() const
	{
		return nis.empty() && ip2nets.empty() && routes.empty() &&
		       peers.empty() && globals.empty() && !routing && !buffers;
	}
};

// The interfaces of @ifs that @rule brings its network up on, as
// Lustre's lnetctl chooses them: the named interfaces, each of which must
// be up with an address in one of the ranges (if any); without names,
// every interface that is up with an address in a range; with neither,
// the first interface that is up (not lo). An error text if none or a
// named one does not qualify.
struct Ip2netsChoice {
	std::vector<std::string> interfaces;
	std::string error;
};
Ip2netsChoice ip2nets_choose(const PlannedIp2nets &rule,
			     std::span<const Ipv4Interface> ifs);

// Every malformed part of the document becomes an error item under
// @command; the plan holds the items that were understood.
ConfigPlan parse_config(std::string_view text, std::string_view command,
			Outcome &o);

}  // namespace lnetctl

#endif  // LNETCTL_CONFIG_FILE_HPP
