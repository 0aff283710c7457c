// SPDX-License-Identifier: GPL-2.0
//
// Conversions between lnetctl's types and the /dev/lnet ioctl structures of
// <linux/lnet/lnet-ioctl.h>. Pure functions, so the byte layout of every
// request can be unit-tested without a kernel.
#ifndef LNETCTL_IOCTL_PACK_HPP
#define LNETCTL_IOCTL_PACK_HPP

#include <linux/lnet/lnet-ioctl.h>

#include <cstddef>
#include <span>

#include "kernel.hpp"

namespace lnetctl {

// An NI configuration structure with its tunables block right behind it.
struct NiIoctl {
	lnet_ioctl_config_ni ni;
	lnet_ioctl_lnd_tunables tunables;
};
static_assert(offsetof(NiIoctl, tunables) == LNET_IOCTL_NI_TUNABLES_OFFSET);

// ioc_len of an NiIoctl: the NI structure plus the whole tunables block.
inline constexpr std::uint32_t ni_ioctl_len =
	LNET_IOCTL_NI_TUNABLES_OFFSET + sizeof(lnet_ioctl_lnd_tunables);

lnet_ioctl_data pack_configure(bool all, bool large);
lnet_ioctl_data pack_unconfigure();
lnet_ioctl_data pack_dist(lnet_nid_t nid);
Distance unpack_dist(const lnet_ioctl_data &reply);

// GET_PEER / GET_CONN of entry @index of @net; the answer read as the
// LND of @net's type fills it in.
lnet_ioctl_data pack_lnd_get(std::uint32_t net, std::uint32_t index);
SockPeer unpack_sock_peer(const lnet_ioctl_data &reply);
SockConn unpack_sock_conn(const lnet_ioctl_data &reply);
O2ibPeer unpack_o2ib_peer(const lnet_ioctl_data &reply);
O2ibConn unpack_o2ib_conn(const lnet_ioctl_data &reply);

// ADD_LOCAL_NI. Throws KernelError(EINVAL) if a string does not fit.
NiIoctl pack_add_ni(const NiConfig &ni);
NiIoctl pack_del_ni(lnet_nid_t nid);
NiIoctl pack_get_ni(std::uint32_t index);
NiInfo unpack_ni(const NiIoctl &reply);

lnet_ioctl_config_data pack_del_net(std::uint32_t net);

lnet_ioctl_ni_msg_stats pack_get_ni_stats(lnet_nid_t nid);
MsgStats unpack_msg_stats(const lnet_ioctl_msg_stats &stats);
lnet_ioctl_ni_health pack_get_ni_health(lnet_nid_t nid);
NiHealth unpack_ni_health(const lnet_ioctl_ni_health &reply);
// ADD_PEER_NI / DEL_PEER_NI.
lnet_ioctl_peer_cfg pack_peer_cfg(const PeerConfig &peer);
lnet_ioctl_conns_per_peer pack_conns_per_peer(std::optional<lnet_nid_t> nid,
					      std::uint32_t value);
lnet_ioctl_set_health pack_set_health(HealthOf what,
				      std::optional<lnet_nid_t> nid,
				      std::int32_t value);
// GET_RECOVERY_QUEUE. At most LNET_RECOVERY_LIST_MAX entries are read,
// whatever rl_count says; total is never below the number read.
lnet_ioctl_recovery_list pack_get_recovery_queue(HealthOf what);
RecoveryQueue unpack_recovery_queue(const lnet_ioctl_recovery_list &reply);

lnet_ioctl_peer_ni pack_get_peer_ni(std::uint32_t index);
PeerNiInfo unpack_peer_ni(const lnet_ioctl_peer_ni &reply);
// The peer a GET_PEER_NI answer's NI belongs to (without its NIs).
PeerInfo unpack_peer(const lnet_ioctl_peer_ni &reply);

lnet_ioctl_config_data pack_add_route(const RouteConfig &route);
lnet_ioctl_config_data pack_del_route(std::uint32_t net, lnet_nid_t gateway);
lnet_ioctl_config_data pack_get_route(std::uint32_t index);
RouteInfo unpack_route(const lnet_ioctl_config_data &reply);
lnet_ioctl_config_data pack_config_rtr(bool enable);
lnet_ioctl_config_data pack_add_buf(const RouterBufferTotals &totals);
lnet_ioctl_config_data pack_get_buf(std::uint32_t cpt);
// One CPT's pools (and whether the node forwards) of a GET_BUF reply.
std::array<RouterPool, 3> unpack_buf(const lnet_ioctl_config_data &reply,
				     bool &enabled);

// PING_PEER; @ids receives the target's ping info entries.
lnet_ioctl_ping_data pack_ping(const PingRequest &request,
			       std::span<lnet_process_id> ids);
// DISCOVER of @nid; @ids receives the peer's NIDs.
lnet_ioctl_ping_data pack_discover(lnet_nid_t nid, bool force,
				   std::span<lnet_process_id> ids);
// The reply of either; reads the first ping_count (at most ids.size())
// entries.
PingReply unpack_ping(const lnet_ioctl_ping_data &reply,
		      std::span<const lnet_process_id> ids);

lnet_ioctl_lnet_stats pack_get_stats();
Counters unpack_stats(const lnet_ioctl_lnet_stats &reply);
lnet_ioctl_hdr pack_reset_stats();

// LNET_FAULT: the opcode of an operation on a rule table.
enum class FaultOp { add, del, reset, list };
std::uint32_t fault_opcode(FaultKind kind, FaultOp op);
lnet_ioctl_fault pack_fault_add(FaultKind kind, const FaultRule &rule);
lnet_ioctl_fault pack_fault_del(FaultKind kind, lnet_nid_t src, lnet_nid_t dst);
lnet_ioctl_fault pack_fault_reset(FaultKind kind);
lnet_ioctl_fault pack_fault_list(FaultKind kind, std::uint32_t index);
FaultRule unpack_fault_rule(const lnet_fault_attr &attr);
FaultInfo unpack_fault(const lnet_ioctl_fault &reply);

}  // namespace lnetctl

#endif  // LNETCTL_IOCTL_PACK_HPP
