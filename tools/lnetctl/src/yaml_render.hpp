// SPDX-License-Identifier: GPL-2.0
//
// The YAML shapes of lnetctl's output (net, peer, route, ping, statistics),
// with the key spelling of Lustre's lnetctl.
#ifndef LNETCTL_YAML_RENDER_HPP
#define LNETCTL_YAML_RENDER_HPP

#include <optional>
#include <span>
#include <string>

#include "kernel.hpp"
#include "yaml_out.hpp"

namespace lnetctl {

// Which keys of a local NI to print.
struct NetFields {
	bool status = true;	// status: up/down
	bool statistics = false;	// statistics, *_stats, health stats
	bool config = false;	// tunables, lnd tunables, CPT
	bool dev_cpt = true;	// dev cpt (with config)
	// export --backup, as Lustre's lnetctl writes it: no lo net, no nid
	// where interfaces say it, no socklnd timeout
	bool backup = false;
};

struct NiView {
	NiInfo info;
	std::optional<MsgStats> stats;
	std::optional<NiHealth> health;
};

struct RouteFields {
	bool detail = false;	// hop, priority, health_sensitivity
	bool state = false;	// state, type
	// export: health_sensitivity only when not the default (Lustre
	// 2.17.0's lnetctl neither writes nor takes it)
	bool exported = false;
};

// "[0,1,2]"
std::string format_cpts(std::span<const std::uint32_t> cpts);

// The value of "net:": one item per net, its NIs under "local NI(s)";
// nets in order of first appearance except that lo comes first.
yaml::Node render_nets(std::span<const NiView> nis, const NetFields &fields);
// The value of "peer:".
yaml::Node render_peers(std::span<const PeerInfo> peers, bool verbose);
// The peer section of export: what peer add needs, in Lustre's keys.
yaml::Node render_config_peers(std::span<const PeerInfo> peers);
// The value of "routing:" (per-CPT pools, then enable), and of "buffers:"
// (each pool's buffers over all CPTs).
yaml::Node render_routing(const RoutingInfo &routing);
yaml::Node render_buffers(const RoutingInfo &routing);
// The value of "route:".
yaml::Node render_routes(std::span<const RouteInfo> routes,
			 const RouteFields &fields);
// One item of "ping:" (loopback entries are left out).
yaml::Node render_ping(const PingReply &reply);
// The value of "statistics:".
yaml::Node render_counters(const Counters &counters);
// The value of "fault drop:" / "fault delay:": one item per rule in the
// order given, with its statistics if @statistics.
yaml::Node render_fault_rules(FaultKind kind, std::span<const FaultInfo> rules,
			      bool statistics);
// The value of "local NI recovery:" / "peer NI recovery:": one item per
// entry, then "# N more not listed" if the queue holds more.
yaml::Node render_recovery_queue(const RecoveryQueue &queue);
// The "lnd tunables" mapping (empty for an LND without tunables).
yaml::Map render_lnd_tunables(const LndTunables &lnd, bool backup = false);

}  // namespace lnetctl

#endif  // LNETCTL_YAML_RENDER_HPP
