// SPDX-License-Identifier: GPL-2.0
//
// The verbs of lnetctl. Each takes its parsed arguments (still as text
// where the text needs checking: nets, NIDs, lists) and a Kernel, and
// returns the YAML to print plus any failed items.
#ifndef LNETCTL_COMMANDS_HPP
#define LNETCTL_COMMANDS_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../kernel.hpp"
#include "../outcome.hpp"

namespace lnetctl {

struct LnetConfigureArgs {
	bool all = false;
	bool large = false;

	bool operator==(const LnetConfigureArgs &) const = default;
};

struct LnetUnconfigureArgs {
	bool operator==(const LnetUnconfigureArgs &) const = default;
};

struct NetAddArgs {
	std::string net;
	std::string interfaces;		// "eth0" or "eth0,eth1"
	std::string nid;
	std::string cpt;		// "[0,1]"
	std::string ip2net;
	std::optional<std::int64_t> peer_timeout;
	std::optional<std::int64_t> peer_credits;
	std::optional<std::int64_t> peer_buffer_credits;
	std::optional<std::int64_t> credits;
	std::optional<std::int64_t> conns_per_peer;
	std::optional<std::int64_t> tos;
	bool skip_mr_route_setup = false;

	bool operator==(const NetAddArgs &) const = default;
};

struct NetDelArgs {
	std::string net;
	std::string interface;
	std::string nid;

	bool operator==(const NetDelArgs &) const = default;
};

struct NetShowArgs {
	std::string net;
	int verbose = 0;

	bool operator==(const NetShowArgs &) const = default;
};

// net set / peer set: the health of one NI (--nid) or of all (--all)
struct HealthSetArgs {
	std::string nid;
	bool all = false;
	std::optional<std::int64_t> health;

	bool operator==(const HealthSetArgs &) const = default;
};

// net set: an NI's health and/or connections per peer (--nid or --all),
// and/or the timeout of the LND behind --net
struct NetSetArgs : HealthSetArgs {
	std::string net;
	std::optional<std::int64_t> lnd_timeout;
	std::optional<std::int64_t> conns_per_peer;

	bool operator==(const NetSetArgs &) const = default;
};

struct PeerSetArgs : HealthSetArgs {
	bool operator==(const PeerSetArgs &) const = default;
};

// peer add / peer del: --prim_nid, and --nid's list of NIDs of the peer
// ("a,b"; the primary may be among them)
struct PeerAddArgs {
	std::string prim_nid;
	std::string nids;
	bool non_mr = false;
	bool lock_prim = false;

	bool operator==(const PeerAddArgs &) const = default;
};

struct PeerDelArgs {
	std::string prim_nid;
	std::string nids;
	bool force = false;	// also a peer whose primary is locked

	bool operator==(const PeerDelArgs &) const = default;
};

struct PeerShowArgs {
	std::string nid;
	int verbose = 0;

	bool operator==(const PeerShowArgs &) const = default;
};

struct RouteAddArgs {
	std::string net;
	std::string gateway;
	std::optional<std::int64_t> hop;
	std::optional<std::int64_t> priority;
	std::optional<std::int64_t> health_sensitivity;

	bool operator==(const RouteAddArgs &) const = default;
};

struct RouteDelArgs {
	std::string net;
	std::string gateway;

	bool operator==(const RouteDelArgs &) const = default;
};

struct RouteShowArgs {
	std::string net;
	std::string gateway;
	int verbose = 0;

	bool operator==(const RouteShowArgs &) const = default;
};

struct RoutingShowArgs {
	bool operator==(const RoutingShowArgs &) const = default;
};

// set routing 0|1
struct SetRoutingArgs {
	std::string value;

	bool operator==(const SetRoutingArgs &) const = default;
};

// set tiny_buffers|small_buffers|large_buffers N
struct SetBuffersArgs {
	std::string pool;	// "tiny", "small" or "large"
	std::string value;

	bool operator==(const SetBuffersArgs &) const = default;
};

struct PingArgs {
	std::vector<std::string> targets;	// each may be "a,b"
	std::optional<std::int64_t> timeout;	// seconds
	std::string source;

	bool operator==(const PingArgs &) const = default;
};

// discover [--force] NID[,NID...]
struct DiscoverArgs {
	std::vector<std::string> targets;	// each may be "a,b"
	bool force = false;

	bool operator==(const DiscoverArgs &) const = default;
};

struct StatsShowArgs {
	bool operator==(const StatsShowArgs &) const = default;
};

struct StatsResetArgs {
	bool operator==(const StatsResetArgs &) const = default;
};

struct GlobalShowArgs {
	bool operator==(const GlobalShowArgs &) const = default;
};

struct SetArgs {
	std::string name;
	std::string value;

	bool operator==(const SetArgs &) const = default;
};

struct ExportArgs {
	std::string file;	// "" or "-": standard output
	bool backup = false;

	bool operator==(const ExportArgs &) const = default;
};

// add and del apply the file; show prints what is configured now of what
// the file names (its nets, routes, peers and tunables)
enum class ImportMode { add, del, show };

struct ImportArgs {
	std::string file;	// "-": standard input
	ImportMode mode = ImportMode::add;

	bool operator==(const ImportArgs &) const = default;
};

// fault drop|delay add. Text where the text needs checking; options that
// may be repeated keep every occurrence (each may also be "a,b").
struct FaultAddArgs {
	FaultKind kind = FaultKind::drop;
	std::string source;
	std::string dest;
	std::string local_nid;
	std::optional<std::int64_t> rate;
	std::optional<std::int64_t> interval;
	std::optional<std::int64_t> latency;	// delay only
	std::vector<std::string> portals;
	std::vector<std::string> messages;
	std::vector<std::string> health_errors;	// drop only
	bool random = false;			// drop only
	bool drop_all = false;			// drop only
	std::string seed;

	bool operator==(const FaultAddArgs &) const = default;
};

struct FaultDelArgs {
	FaultKind kind = FaultKind::drop;
	bool all = false;
	std::string source;
	std::string dest;

	bool operator==(const FaultDelArgs &) const = default;
};

struct FaultResetArgs {
	FaultKind kind = FaultKind::drop;

	bool operator==(const FaultResetArgs &) const = default;
};

struct FaultShowArgs {
	FaultKind kind = FaultKind::drop;

	bool operator==(const FaultShowArgs &) const = default;
};

// debug recovery --local | --peer
struct DebugRecoveryArgs {
	bool local = false;
	bool peer = false;

	bool operator==(const DebugRecoveryArgs &) const = default;
};

// What debug recovery says when not given exactly one of its options.
inline constexpr std::string_view debug_recovery_choice =
	"give --local or --peer (one of them)";

// Default ping timeout, seconds.
inline constexpr std::int64_t default_ping_timeout = 1;

Outcome lnet_configure(Kernel &k, const LnetConfigureArgs &a);
Outcome lnet_unconfigure(Kernel &k, const LnetUnconfigureArgs &a);
Outcome net_add(Kernel &k, const NetAddArgs &a);
Outcome net_del(Kernel &k, const NetDelArgs &a);
Outcome net_show(Kernel &k, const NetShowArgs &a);
Outcome net_set(Kernel &k, const NetSetArgs &a);
Outcome peer_add(Kernel &k, const PeerAddArgs &a);
Outcome peer_del(Kernel &k, const PeerDelArgs &a);
Outcome peer_show(Kernel &k, const PeerShowArgs &a);
Outcome peer_set(Kernel &k, const PeerSetArgs &a);
Outcome route_add(Kernel &k, const RouteAddArgs &a);
Outcome route_del(Kernel &k, const RouteDelArgs &a);
Outcome route_show(Kernel &k, const RouteShowArgs &a);
Outcome routing_show(Kernel &k, const RoutingShowArgs &a);
Outcome set_routing(Kernel &k, const SetRoutingArgs &a);
Outcome set_buffers(Kernel &k, const SetBuffersArgs &a);
// 0, 1, 2 for "tiny", "small", "large" (RouterBufferTotals); -1 otherwise
int router_pool_index(std::string_view pool);
Outcome ping(Kernel &k, const PingArgs &a);
Outcome discover(Kernel &k, const DiscoverArgs &a);
Outcome stats_show(Kernel &k, const StatsShowArgs &a);
Outcome stats_reset(Kernel &k, const StatsResetArgs &a);
Outcome global_show(Kernel &k, const GlobalShowArgs &a);
Outcome set_tunable(Kernel &k, const SetArgs &a);
// The rule of @a, every option checked (lctl net_drop_add too); nullopt
// with the reason in @o.
std::optional<FaultRule> fault_rule(const FaultAddArgs &a, Outcome &o);
// Which rules del removes; nullopt with the reason in @o.
struct FaultNids {
	lnet_nid_t src = LNET_NID_ANY;	// LNET_NID_ANY: any
	lnet_nid_t dst = LNET_NID_ANY;
};
std::optional<FaultNids> fault_del_nids(const FaultDelArgs &a, Outcome &o);
Outcome fault_add(Kernel &k, const FaultAddArgs &a);
Outcome fault_del(Kernel &k, const FaultDelArgs &a);
Outcome fault_reset(Kernel &k, const FaultResetArgs &a);
Outcome fault_show(Kernel &k, const FaultShowArgs &a);
Outcome debug_recovery(Kernel &k, const DebugRecoveryArgs &a);
// Writes the file itself; with no file the document is the Outcome's out.
// Nothing is written unless every part of the configuration could be read.
Outcome export_config(Kernel &k, const ExportArgs &a);
// Reads the file ("-": standard input) and applies it.
Outcome import_config(Kernel &k, const ImportArgs &a);

// What of the configuration import --show prints: only these.
struct ConfigFilter {
	std::vector<std::uint32_t> nets;
	std::vector<RouteConfig> routes;	// by net and gateway
	std::vector<lnet_nid_t> peers;		// configured or not
	std::vector<std::string> globals;
	bool routing = false;			// routing or buffers named
};

// The whole configuration as export writes it, or (@filter) the part of
// it import --show asks for.
Outcome collect_config(Kernel &k, bool backup, const ConfigFilter *filter = nullptr);
// Apply a YAML configuration document (import's work, without file I/O).
Outcome apply_config(Kernel &k, std::string_view text, ImportMode mode);

}  // namespace lnetctl

#endif  // LNETCTL_COMMANDS_HPP
