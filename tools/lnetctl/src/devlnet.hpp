// SPDX-License-Identifier: GPL-2.0
//
// The real kernel: ioctls on /dev/lnet (opened on first use) and module
// parameters under /sys/module.
#ifndef LNETCTL_DEVLNET_HPP
#define LNETCTL_DEVLNET_HPP

#include <functional>
#include <string>
#include <string_view>

#include <lnet/dev_lnet.hpp>

#include "kernel.hpp"

namespace lnetctl {

class DevLnet final : public Kernel {
public:
	explicit DevLnet(std::string device = "/dev/lnet",
			 std::string sysfs_modules = "/sys/module");

	void configure(bool all, bool large) override;
	void unconfigure() override;
	void add_ni(const NiConfig &ni) override;
	void del_ni(lnet_nid_t nid) override;
	void del_net(std::uint32_t net) override;
	std::vector<NiInfo> get_nis() override;
	MsgStats get_ni_stats(lnet_nid_t nid) override;
	NiHealth get_ni_health(lnet_nid_t nid) override;
	void add_peer(const PeerConfig &peer) override;
	void del_peer(const PeerConfig &peer) override;
	void set_conns_per_peer(std::optional<lnet_nid_t> nid,
				std::uint32_t value) override;
	void set_health(HealthOf what, std::optional<lnet_nid_t> nid,
			std::int32_t value) override;
	std::vector<PeerInfo> get_peers() override;
	RecoveryQueue get_recovery_queue(HealthOf what) override;
	void add_route(const RouteConfig &route) override;
	void del_route(std::uint32_t net, lnet_nid_t gateway) override;
	std::vector<RouteInfo> get_routes() override;
	RoutingInfo get_routing() override;
	void set_routing(bool enable) override;
	void set_router_buffers(const RouterBufferTotals &totals) override;
	PingReply ping(const PingRequest &request) override;
	PingReply discover(lnet_nid_t nid, bool force) override;
	Distance distance(lnet_nid_t nid) override;
	Counters get_stats() override;
	void reset_stats() override;
	FaultRule fault_add(FaultKind kind, const FaultRule &rule) override;
	std::uint32_t fault_del(FaultKind kind, lnet_nid_t src,
				lnet_nid_t dst) override;
	void fault_reset(FaultKind kind) override;
	std::vector<FaultInfo> fault_list(FaultKind kind) override;
	std::vector<LndPeer> lnd_peers(std::uint32_t net) override;
	std::vector<LndConn> lnd_conns(std::uint32_t net) override;
	std::optional<std::string> read_param(std::string_view module,
					      std::string_view name) override;
	void write_param(std::string_view module, std::string_view name,
			 std::string_view value) override;
	std::vector<Ipv4Interface> ipv4_interfaces() override;

private:
	// Returns 0 or the errno of a failed ioctl; never throws for the
	// ioctl itself (the caller decides what ENOENT means).
	int try_ioctl(unsigned long cmd, void *arg);
	void do_ioctl(unsigned long cmd, void *arg);
	// try_ioctl() for the GET walks
	std::function<int(unsigned long, void *)> ioctl_fn();
	std::string param_path(std::string_view module, std::string_view name) const;

	lnet::LnetDevice dev_;
	std::string sysfs_;
};

}  // namespace lnetctl

#endif  // LNETCTL_DEVLNET_HPP
