// SPDX-License-Identifier: GPL-2.0
//
// What lnetctl needs from the kernel, as an abstract interface: DevLnet
// implements it with /dev/lnet ioctls and /sys/module parameters, the unit
// tests with an in-memory fake. Every operation throws KernelError on
// failure.
#ifndef LNETCTL_KERNEL_HPP
#define LNETCTL_KERNEL_HPP

#include <linux/lnet/lnet-nid.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lnetctl {

class KernelError : public std::runtime_error {
public:
	// @err: positive errno. @standalone: the message already says what
	// failed and why (e.g. "cannot open /dev/lnet: ..."), so callers print
	// it as is instead of prefixing their own context.
	KernelError(int err, const std::string &message, bool standalone = false)
		: std::runtime_error(message), err_(err), standalone_(standalone)
	{
	}

	int error() const noexcept { return err_; }
	bool standalone() const noexcept { return standalone_; }

private:
	int err_;
	bool standalone_;
};

// Per-NI tunables common to every LND; -1 = module default.
struct CommonTunables {
	std::int32_t peer_timeout = -1;
	std::int32_t peer_credits = -1;
	std::int32_t peer_buffer_credits = -1;
	std::int32_t credits = -1;

	bool operator==(const CommonTunables &) const = default;
};

// 0 = module default, except tos where -1 is the default.
struct SockTunables {
	std::uint16_t conns_per_peer = 0;
	std::uint32_t timeout = 0;
	std::int16_t tos = -1;

	bool operator==(const SockTunables &) const = default;
};

struct O2ibTunables {
	std::uint32_t peercredits_hiw = 0;
	std::uint32_t map_on_demand = 0;
	std::uint32_t concurrent_sends = 0;
	std::uint32_t fmr_pool_size = 0;
	std::uint32_t fmr_flush_trigger = 0;
	std::uint32_t fmr_cache = 0;
	std::uint16_t ntx = 0;
	std::uint16_t conns_per_peer = 0;
	std::uint32_t timeout = 0;
	std::int16_t tos = -1;

	bool operator==(const O2ibTunables &) const = default;
};

using LndTunables = std::variant<std::monostate, SockTunables, O2ibTunables>;

// Address part meaning "take the address from the interface".
inline constexpr std::uint32_t any_addr = 0xffffffffU;

inline lnet_nid_t nid_from_interface(std::uint32_t net)
{
	return LNET_MKNID(net, any_addr);
}

// A local NI as configured (net add) or reported (net show).
struct NiConfig {
	// add: a complete NID, or nid_from_interface(net); report: the NID
	lnet_nid_t nid = LNET_NID_ANY;
	std::string interface;			// "" for none
	std::string ip2net;			// add only
	std::vector<std::uint32_t> cpts;	// empty: all partitions
	CommonTunables tunables;
	LndTunables lnd;

	bool operator==(const NiConfig &) const = default;
};

struct NiInfo {
	NiConfig config;
	bool up = false;
	std::int32_t dev_cpt = -1;

	bool operator==(const NiInfo &) const = default;
};

// Message types in the order of the per-type counters.
inline constexpr std::array<std::string_view, 5> msg_type_names = {
	"put", "get", "reply", "ack", "hello",
};

struct MsgStats {
	std::uint64_t send_count = 0;
	std::uint64_t recv_count = 0;
	std::uint64_t drop_count = 0;
	std::array<std::uint64_t, msg_type_names.size()> sent{};
	std::array<std::uint64_t, msg_type_names.size()> received{};
	std::array<std::uint64_t, msg_type_names.size()> dropped{};

	bool operator==(const MsgStats &) const = default;
};

enum class HealthOf { local_ni, peer_ni };

struct NiHealth {
	std::int32_t health_value = 1000;
	bool fatal_error = false;
	std::uint64_t interrupts = 0;
	std::uint64_t dropped = 0;
	std::uint64_t aborted = 0;
	std::uint64_t no_route = 0;
	std::uint64_t timeouts = 0;
	std::uint64_t error = 0;
	std::uint64_t ping_count = 0;
	std::int64_t next_ping = 0;

	bool operator==(const NiHealth &) const = default;
};

// One NI on a recovery queue (GET_RECOVERY_QUEUE).
struct RecoveryEntry {
	lnet_nid_t nid = LNET_NID_ANY;
	std::int32_t health_value = 0;
	std::uint32_t ping_count = 0;	// pings since last heard from
	std::int64_t next_ping = 0;	// s; recovery_ping_pending: awaiting REPLY

	bool operator==(const RecoveryEntry &) const = default;
};

// next_ping of an NI whose recovery ping waits for its reply.
inline constexpr std::int64_t recovery_ping_pending = -1;

struct RecoveryQueue {
	std::vector<RecoveryEntry> entries;	// oldest first
	std::uint32_t total = 0;		// queued: may exceed entries.size()

	bool operator==(const RecoveryQueue &) const = default;
};

struct RouteConfig {
	std::uint32_t net = LNET_NET_ANY;	// remote net
	lnet_nid_t gateway = LNET_NID_ANY;
	std::int32_t hop = -1;			// -1: unspecified
	std::uint32_t priority = 0;
	std::uint32_t sensitivity = 0;		// 0: default

	bool operator==(const RouteConfig &) const = default;
};

// 0 a NID of this node, 1 on a local net, hops + 1 through gateways; the
// order and NID of the local NI it is reached from (LNET_NID_ANY through
// a gateway).
struct Distance {
	std::uint32_t distance = 0;
	std::uint32_t order = 0;
	lnet_nid_t source = LNET_NID_ANY;

	bool operator==(const Distance &) const = default;
};

struct RouteInfo {
	RouteConfig config;
	bool alive = false;
	bool multi_hop = false;

	bool operator==(const RouteInfo &) const = default;
};

enum class PeerNiState { na, up, down };

struct PeerNiInfo {
	lnet_nid_t nid = LNET_NID_ANY;
	PeerNiState state = PeerNiState::na;
	std::int32_t max_tx_credits = 0;
	std::int32_t available_tx_credits = 0;
	std::int32_t min_tx_credits = 0;
	std::uint32_t tx_q_num_of_buf = 0;
	std::int32_t available_rtr_credits = 0;
	std::int32_t min_rtr_credits = 0;
	std::uint32_t refcount = 0;
	MsgStats stats;
	std::int32_t health_value = 1000;
	std::uint64_t hs_dropped = 0;
	std::uint64_t hs_timeout = 0;
	std::uint64_t hs_error = 0;
	std::uint64_t hs_network_timeout = 0;
	std::uint64_t hs_ping_count = 0;
	std::int64_t hs_next_ping = 0;

	bool operator==(const PeerNiInfo &) const = default;
};

struct PeerInfo {
	lnet_nid_t primary_nid = LNET_NID_ANY;
	bool multi_rail = false;
	bool configured = false;	// peer add: kept until peer del
	bool lock_prim = false;		// discovery keeps its primary NID
	bool discovered = false;	// discovery ran to its end
	bool no_discovery = false;	// it does no discovery, or --non_mr
	std::uint32_t state = 0;
	std::vector<PeerNiInfo> nis;	// the primary NID's first

	bool operator==(const PeerInfo &) const = default;
};

// One peer add / peer del request (ADD_PEER_NI / DEL_PEER_NI). @nid
// LNET_NID_ANY (or @primary) stands for the peer itself: add makes it or
// marks it configured, del forgets it with all its NIDs; another NID joins
// or leaves the configured peer @primary.
struct PeerConfig {
	lnet_nid_t primary = LNET_NID_ANY;
	lnet_nid_t nid = LNET_NID_ANY;
	bool non_mr = false;	// add of the peer: not Multi-Rail
	bool lock_prim = false;	// add of the peer: discovery keeps the primary
	bool force = false;	// del: also a peer whose primary is locked

	bool operator==(const PeerConfig &) const = default;
};

// The most connections per peer net set may give an NI.
inline constexpr std::uint32_t max_conns_per_peer = 127;

// One router buffer pool of one CPT ("routing show").
struct RouterPool {
	std::int32_t npages = 0;	// per buffer
	std::int32_t nbuffers = 0;
	std::int32_t credits = 0;	// below zero: messages waiting
	std::int32_t mincredits = 0;

	bool operator==(const RouterPool &) const = default;
};

// Forwarding and the router buffer pools, tiny / small / large per CPT
// (all zero on a node that never forwarded).
// tiny, small, large
using RouterBufferTotals = std::array<std::int32_t, 3>;

struct RoutingInfo {
	bool enabled = false;
	std::vector<std::array<RouterPool, 3>> cpts;

	bool operator==(const RoutingInfo &) const = default;
};

struct PingRequest {
	lnet_process_id target{ LNET_NID_ANY, LNET_PID_ANY };
	lnet_nid_t source = LNET_NID_ANY;
	std::int32_t timeout_ms = 1000;
};

// PING_PEER and DISCOVER: the primary NID and Multi-Rail as the peer table
// has them.
struct PingReply {
	lnet_nid_t primary_nid = LNET_NID_ANY;
	bool multi_rail = false;
	// ping: the ping info, 0@lo first; discover: the peer's NIDs, its
	// primary first
	std::vector<lnet_process_id> ids;
	std::uint32_t features = 0;	// of the (last) ping info
};

// Global counters in the order "stats show" prints them.
inline constexpr std::array<std::string_view, 26> counter_names = {
	"msgs_alloc", "msgs_max", "rst_alloc", "errors", "send_count",
	"resend_count", "response_timeout_count", "local_interrupt_count",
	"local_dropped_count", "local_aborted_count", "local_no_route_count",
	"local_timeout_count", "local_error_count", "remote_dropped_count",
	"remote_error_count", "remote_timeout_count", "network_timeout_count",
	"failed_resends", "successful_resends", "recv_count", "route_count",
	"drop_count", "send_length", "recv_length", "route_length",
	"drop_length",
};

using Counters = std::array<std::uint64_t, counter_names.size()>;

// Fault injection (lnetctl fault): which rule table.
enum class FaultKind { drop, delay };

// The fields of struct lnet_fault_attr. A NID whose address is any_addr
// stands for every NID of its net, LNET_NID_ANY for every NID.
struct FaultRule {
	lnet_nid_t src = LNET_NID_ANY;
	lnet_nid_t dst = LNET_NID_ANY;
	lnet_nid_t local_nid = LNET_NID_ANY;	// LNET_NID_ANY: any NI
	std::uint64_t ptl_mask = 0;		// 1 << portal; 0: any
	std::uint32_t msg_mask = 0;		// 1 << LNET_MSG_*; 0: any
	std::uint32_t rate = 0;
	std::uint32_t interval = 0;		// s
	std::uint32_t latency = 0;		// s, delay rules
	std::uint32_t health_mask = 0;		// 1 << health status
	std::uint32_t flags = 0;		// LNET_FAULT_F_*
	std::uint64_t seed = 0;			// 0 on add: the kernel picks

	bool operator==(const FaultRule &) const = default;
};

struct FaultStats {
	std::uint64_t matched = 0;
	std::uint64_t ack = 0;	// dropped or delayed, by message type
	std::uint64_t put = 0;
	std::uint64_t get = 0;
	std::uint64_t reply = 0;
	std::uint64_t total = 0;	// dropped or delayed
	std::uint64_t held = 0;		// delay rules: held now

	bool operator==(const FaultStats &) const = default;
};

struct FaultInfo {
	FaultRule rule;
	FaultStats stats;

	bool operator==(const FaultInfo &) const = default;
};

// An LND's own view of its peers and connections (GET_PEER, GET_CONN;
// lnet-ioctl.h says what each LND fills in). Addresses IPv4, host order.
// ksocklnd's connection types; o2iblnd's connection states.
enum class SockConnType { any, control, bulk_in, bulk_out, unknown };
enum class O2ibState { none, connecting, established, closing, unknown };

struct SockPeer {
	lnet_process_id id{ LNET_NID_ANY, LNET_PID_ANY };
	std::uint32_t local_ip = 0;
	std::uint32_t peer_ip = 0;
	std::uint32_t peer_port = 0;	// of the first connection; 0: none
	std::uint32_t conns = 0;
	std::uint32_t waiting = 0;	// messages waiting for a connection
	bool connecting = false;

	bool operator==(const SockPeer &) const = default;
};

struct SockConn {
	lnet_process_id id{ LNET_NID_ANY, LNET_PID_ANY };
	std::uint32_t local_ip = 0;
	std::uint32_t local_port = 0;
	std::uint32_t peer_ip = 0;
	std::uint32_t peer_port = 0;
	SockConnType type = SockConnType::any;
	std::uint32_t tx_buffer = 0;	// socket buffer sizes, bytes
	std::uint32_t rx_buffer = 0;
	bool nagle = false;
	std::uint32_t scheduler = 0;

	bool operator==(const SockConn &) const = default;
};

struct O2ibPeer {
	lnet_nid_t nid = LNET_NID_ANY;
	std::uint32_t conns = 0;	// established
	O2ibState state = O2ibState::none;	// of its best connection
	std::int32_t credits = 0;
	std::int32_t outstanding = 0;	// credits owed to the peer
	std::uint32_t queue_depth = 0;
	std::uint32_t waiting = 0;	// messages waiting for a connection
	std::uint32_t refs = 0;

	bool operator==(const O2ibPeer &) const = default;
};

struct O2ibConn {
	lnet_nid_t nid = LNET_NID_ANY;
	std::uint32_t mtu = 0;		// path MTU, bytes; 0: unknown
	O2ibState state = O2ibState::none;
	std::int32_t credits = 0;
	std::int32_t outstanding = 0;
	std::uint32_t queue_depth = 0;
	std::uint32_t version = 0;	// o2iblnd protocol
	std::uint32_t queued = 0;	// messages queued on it
	bool active = false;		// this node connected

	bool operator==(const O2ibConn &) const = default;
};

using LndPeer = std::variant<SockPeer, O2ibPeer>;
using LndConn = std::variant<SockConn, O2ibConn>;

// One IPv4 address of one of this node's interfaces.
struct Ipv4Interface {
	std::string name;
	std::uint32_t addr = 0;		// host order
	bool up = false;

	bool operator==(const Ipv4Interface &) const = default;
};

class Kernel {
public:
	virtual ~Kernel() = default;

	virtual void configure(bool all, bool large) = 0;
	virtual void unconfigure() = 0;

	virtual void add_ni(const NiConfig &ni) = 0;
	virtual void del_ni(lnet_nid_t nid) = 0;
	virtual void del_net(std::uint32_t net) = 0;
	// Every local NI, 0@lo first.
	virtual std::vector<NiInfo> get_nis() = 0;
	virtual MsgStats get_ni_stats(lnet_nid_t nid) = 0;
	virtual NiHealth get_ni_health(lnet_nid_t nid) = 0;

	virtual std::vector<PeerInfo> get_peers() = 0;
	// One NID of a configured peer, or the peer itself (PeerConfig).
	virtual void add_peer(const PeerConfig &peer) = 0;
	virtual void del_peer(const PeerConfig &peer) = 0;
	// Connections per peer of one local NI (@nid) or of all (nullopt).
	virtual void set_conns_per_peer(std::optional<lnet_nid_t> nid,
					std::uint32_t value) = 0;

	// Health of one local NI or peer NI (@nid), or of all (nullopt).
	virtual void set_health(HealthOf what, std::optional<lnet_nid_t> nid,
				std::int32_t value) = 0;

	// The local NIs or peer NIs that recovery pings are bringing back to
	// health.
	virtual RecoveryQueue get_recovery_queue(HealthOf what) = 0;

	virtual void add_route(const RouteConfig &route) = 0;
	virtual void del_route(std::uint32_t net, lnet_nid_t gateway) = 0;
	virtual std::vector<RouteInfo> get_routes() = 0;

	virtual RoutingInfo get_routing() = 0;
	virtual void set_routing(bool enable) = 0;
	// New totals over all CPTs of the tiny, small and large router buffers
	// (0: that pool as it is); pools that exist are resized now.
	virtual void set_router_buffers(const RouterBufferTotals &totals) = 0;

	virtual PingReply ping(const PingRequest &request) = 0;
	// Discovery of the peer of @nid, waiting for it to end (@force: ping
	// and push even if the peer is up to date).
	virtual PingReply discover(lnet_nid_t nid, bool force) = 0;

	// How far @nid is (LNET_DIST); KernelError EHOSTUNREACH when nothing
	// leads there.
	virtual Distance distance(lnet_nid_t nid) = 0;

	virtual Counters get_stats() = 0;
	virtual void reset_stats() = 0;

	// Returns the rule as installed (with the seed the kernel used).
	virtual FaultRule fault_add(FaultKind kind, const FaultRule &rule) = 0;
	// Deletes the rules with these source and destination (LNET_NID_ANY:
	// any); returns how many.
	virtual std::uint32_t fault_del(FaultKind kind, lnet_nid_t src,
					lnet_nid_t dst) = 0;
	virtual void fault_reset(FaultKind kind) = 0;
	// Every rule, newest first.
	virtual std::vector<FaultInfo> fault_list(FaultKind kind) = 0;

	// The peers and connections the LND of @net (tcp: ksocklnd, o2ib:
	// ko2iblnd) has on that net. KernelError ENETDOWN: the LND has no NI
	// on it; EINVAL: no loaded LND answers for its type.
	virtual std::vector<LndPeer> lnd_peers(std::uint32_t net) = 0;
	virtual std::vector<LndConn> lnd_conns(std::uint32_t net) = 0;

	// /sys/module/<module>/parameters/<name>: the value without its
	// trailing newline, or nullopt if the parameter does not exist.
	virtual std::optional<std::string> read_param(std::string_view module,
						      std::string_view name) = 0;
	virtual void write_param(std::string_view module, std::string_view name,
				 std::string_view value) = 0;

	// This node's interfaces with an IPv4 address, in the order the
	// kernel lists them (one entry per address).
	virtual std::vector<Ipv4Interface> ipv4_interfaces() = 0;
};

}  // namespace lnetctl

#endif  // LNETCTL_KERNEL_HPP
