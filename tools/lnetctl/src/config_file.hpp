// SPDX-License-Identifier: GPL-2.0
//
// Reading an exported configuration (YAML, the shapes of net/route/global
// show) into the list of operations that recreate it.
#ifndef LNETCTL_CONFIG_FILE_HPP
#define LNETCTL_CONFIG_FILE_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

struct ConfigPlan {
	std::vector<PlannedNi> nis;		// lo left out
	std::vector<RouteConfig> routes;
	std::vector<PlannedGlobal> globals;
	// Well-formed, non-empty sections this lnetctl does not configure
	// (peer, udsp, routing, ...): reported, not applied.
	std::vector<std::string> unsupported;

	bool empty() const { return nis.empty() && routes.empty() && globals.empty(); }
};

// Every malformed part of the document becomes an error item under
// @command; the plan holds the items that were understood.
ConfigPlan parse_config(std::string_view text, std::string_view command,
			Outcome &o);

}  // namespace lnetctl

#endif  // LNETCTL_CONFIG_FILE_HPP
