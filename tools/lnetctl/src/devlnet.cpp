// SPDX-License-Identifier: GPL-2.0
#include "devlnet.hpp"

#include "ioctl_pack.hpp"
#include "parse.hpp"

#include <cerrno>
#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <functional>
#include <memory>

namespace lnetctl {
namespace {

// Upper bound on GET_* iterations, against a kernel that never says ENOENT.
constexpr std::uint32_t max_entries = 1U << 20;
// Ping reply capacity: the default lnet_interfaces_max.
constexpr std::size_t ping_capacity = 4096;

// Entries 0, 1, ... of a GET command until ENOENT: @pack(i) makes the
// argument of entry i, @unpack reads the answer; @ioctl returns an errno.
template <typename T, typename Ioctl, typename Pack, typename Unpack>
std::vector<T> walk(Ioctl ioctl, unsigned long cmd, Pack pack, Unpack unpack)
{
	std::vector<T> out;

	for (std::uint32_t i = 0; i < max_entries; i++) {
		auto arg = pack(i);
		int err = ioctl(cmd, &arg);

		if (err == ENOENT)
			break;
		if (err)
			throw KernelError(err, lnet::ioctl_error_text(err));
		out.push_back(unpack(arg));
	}
	return out;
}

}  // namespace

DevLnet::DevLnet(std::string device, std::string sysfs_modules)
	: dev_(std::move(device)), sysfs_(std::move(sysfs_modules))
{
}

// Failures of the device keep their errno; a failed open says all there
// is to say about itself.
int DevLnet::try_ioctl(unsigned long cmd, void *arg)
{
	try {
		return dev_.try_ioctl(cmd, arg);
	} catch (const lnet::DevLnetError &e) {
		throw KernelError(e.error(), e.what(), e.open_failed());
	}
}

std::function<int(unsigned long, void *)> DevLnet::ioctl_fn()
{
	return [this](unsigned long cmd, void *arg) { return try_ioctl(cmd, arg); };
}

void DevLnet::do_ioctl(unsigned long cmd, void *arg)
{
	int err = try_ioctl(cmd, arg);

	if (err)
		throw KernelError(err, lnet::ioctl_error_text(err));
}

void DevLnet::configure(bool all, bool large)
{
	auto d = pack_configure(all, large);

	do_ioctl(LNET_IOC_CONFIGURE, &d);
}

void DevLnet::unconfigure()
{
	auto d = pack_unconfigure();

	do_ioctl(LNET_IOC_UNCONFIGURE, &d);
}

Distance DevLnet::distance(lnet_nid_t nid)
{
	auto d = pack_dist(nid);

	do_ioctl(LNET_IOC_LNET_DIST, &d);
	return unpack_dist(d);
}

void DevLnet::add_ni(const NiConfig &ni)
{
	auto s = pack_add_ni(ni);

	do_ioctl(LNET_IOC_ADD_LOCAL_NI, &s);
}

void DevLnet::del_ni(lnet_nid_t nid)
{
	auto s = pack_del_ni(nid);

	do_ioctl(LNET_IOC_DEL_LOCAL_NI, &s);
}

void DevLnet::del_net(std::uint32_t net)
{
	auto d = pack_del_net(net);

	do_ioctl(LNET_IOC_DEL_NET, &d);
}

std::vector<NiInfo> DevLnet::get_nis()
{
	return walk<NiInfo>(ioctl_fn(), LNET_IOC_GET_LOCAL_NI, pack_get_ni, unpack_ni);
}

MsgStats DevLnet::get_ni_stats(lnet_nid_t nid)
{
	auto s = pack_get_ni_stats(nid);

	do_ioctl(LNET_IOC_GET_LOCAL_NI_MSG_STATS, &s);
	return unpack_msg_stats(s.lns_stats);
}

NiHealth DevLnet::get_ni_health(lnet_nid_t nid)
{
	auto s = pack_get_ni_health(nid);

	do_ioctl(LNET_IOC_GET_LOCAL_HSTATS, &s);
	return unpack_ni_health(s);
}

void DevLnet::set_health(HealthOf what, std::optional<lnet_nid_t> nid,
			 std::int32_t value)
{
	auto s = pack_set_health(what, nid, value);

	do_ioctl(LNET_IOC_SET_HEALTHV, &s);
}

void DevLnet::add_peer(const PeerConfig &peer)
{
	auto s = pack_peer_cfg(peer);

	do_ioctl(LNET_IOC_ADD_PEER_NI, &s);
}

void DevLnet::del_peer(const PeerConfig &peer)
{
	auto s = pack_peer_cfg(peer);

	do_ioctl(LNET_IOC_DEL_PEER_NI, &s);
}

void DevLnet::set_conns_per_peer(std::optional<lnet_nid_t> nid,
				 std::uint32_t value)
{
	auto s = pack_conns_per_peer(nid, value);

	do_ioctl(LNET_IOC_SET_CONNS_PER_PEER, &s);
}

std::vector<PeerInfo> DevLnet::get_peers()
{
	std::vector<PeerInfo> peers;

	for (std::uint32_t i = 0; i < max_entries; i++) {
		auto s = pack_get_peer_ni(i);
		int err = try_ioctl(LNET_IOC_GET_PEER_NI, &s);

		if (err == ENOENT)
			break;
		if (err)
			throw KernelError(err, lnet::ioctl_error_text(err));
		if (peers.empty() || peers.back().primary_nid != s.pni_primary_nid)
			peers.push_back(unpack_peer(s));
		peers.back().nis.push_back(unpack_peer_ni(s));
	}
	return peers;
}

RecoveryQueue DevLnet::get_recovery_queue(HealthOf what)
{
	auto s = pack_get_recovery_queue(what);

	do_ioctl(LNET_IOC_GET_RECOVERY_QUEUE, &s);
	return unpack_recovery_queue(s);
}

void DevLnet::add_route(const RouteConfig &route)
{
	auto d = pack_add_route(route);

	do_ioctl(LNET_IOC_ADD_ROUTE, &d);
}

void DevLnet::del_route(std::uint32_t net, lnet_nid_t gateway)
{
	auto d = pack_del_route(net, gateway);

	do_ioctl(LNET_IOC_DEL_ROUTE, &d);
}

std::vector<RouteInfo> DevLnet::get_routes()
{
	return walk<RouteInfo>(ioctl_fn(), LNET_IOC_GET_ROUTE, pack_get_route, unpack_route);
}

// The answers are read as the LND of the net's type writes them.
std::vector<LndPeer> DevLnet::lnd_peers(std::uint32_t net)
{
	auto pack = [net](std::uint32_t i) { return pack_lnd_get(net, i); };

	if (LNET_NETTYP(net) == LNET_LND_O2IB)
		return walk<LndPeer>(ioctl_fn(), LNET_IOC_GET_PEER, pack, unpack_o2ib_peer);
	return walk<LndPeer>(ioctl_fn(), LNET_IOC_GET_PEER, pack, unpack_sock_peer);
}

std::vector<LndConn> DevLnet::lnd_conns(std::uint32_t net)
{
	auto pack = [net](std::uint32_t i) { return pack_lnd_get(net, i); };

	if (LNET_NETTYP(net) == LNET_LND_O2IB)
		return walk<LndConn>(ioctl_fn(), LNET_IOC_GET_CONN, pack, unpack_o2ib_conn);
	return walk<LndConn>(ioctl_fn(), LNET_IOC_GET_CONN, pack, unpack_sock_conn);
}

RoutingInfo DevLnet::get_routing()
{
	RoutingInfo info;

	for (std::uint32_t cpt = 0; cpt < max_entries; cpt++) {
		auto d = pack_get_buf(cpt);
		int err = try_ioctl(LNET_IOC_GET_BUF, &d);

		if (err == ENOENT)
			break;
		if (err)
			throw KernelError(err, lnet::ioctl_error_text(err));
		info.cpts.push_back(unpack_buf(d, info.enabled));
	}
	return info;
}

void DevLnet::set_routing(bool enable)
{
	auto d = pack_config_rtr(enable);

	do_ioctl(LNET_IOC_CONFIG_RTR, &d);
}

void DevLnet::set_router_buffers(const RouterBufferTotals &totals)
{
	auto d = pack_add_buf(totals);

	do_ioctl(LNET_IOC_ADD_BUF, &d);
}

PingReply DevLnet::ping(const PingRequest &request)
{
	std::vector<lnet_process_id> ids(ping_capacity);
	auto p = pack_ping(request, ids);

	do_ioctl(LNET_IOC_PING_PEER, &p);
	return unpack_ping(p, ids);
}

PingReply DevLnet::discover(lnet_nid_t nid, bool force)
{
	std::vector<lnet_process_id> ids(LNET_IOCTL_PEER_MAX_NIDS);
	auto p = pack_discover(nid, force, ids);

	do_ioctl(LNET_IOC_DISCOVER, &p);
	return unpack_ping(p, ids);
}

Counters DevLnet::get_stats()
{
	auto s = pack_get_stats();

	do_ioctl(LNET_IOC_GET_LNET_STATS, &s);
	return unpack_stats(s);
}

void DevLnet::reset_stats()
{
	auto h = pack_reset_stats();

	do_ioctl(LNET_IOC_RESET_LNET_STATS, &h);
}

FaultRule DevLnet::fault_add(FaultKind kind, const FaultRule &rule)
{
	auto f = pack_fault_add(kind, rule);

	do_ioctl(LNET_IOC_LNET_FAULT, &f);
	return unpack_fault_rule(f.lfi_attr);
}

std::uint32_t DevLnet::fault_del(FaultKind kind, lnet_nid_t src, lnet_nid_t dst)
{
	auto f = pack_fault_del(kind, src, dst);

	do_ioctl(LNET_IOC_LNET_FAULT, &f);
	return f.lfi_count;
}

void DevLnet::fault_reset(FaultKind kind)
{
	auto f = pack_fault_reset(kind);

	do_ioctl(LNET_IOC_LNET_FAULT, &f);
}

std::vector<FaultInfo> DevLnet::fault_list(FaultKind kind)
{
	std::vector<FaultInfo> rules;

	for (std::uint32_t i = 0; i < max_entries; i++) {
		auto f = pack_fault_list(kind, i);
		int err = try_ioctl(LNET_IOC_LNET_FAULT, &f);

		if (err == ENOENT)
			break;
		if (err)
			throw KernelError(err, lnet::ioctl_error_text(err));
		rules.push_back(unpack_fault(f));
	}
	return rules;
}

std::string DevLnet::param_path(std::string_view module,
				std::string_view name) const
{
	std::string path = sysfs_;

	path += '/';
	path += module;
	path += "/parameters/";
	path += name;
	return path;
}

std::optional<std::string> DevLnet::read_param(std::string_view module,
					       std::string_view name)
{
	std::string path = param_path(module, name);
	lnet::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
	std::string value;
	std::array<char, 256> buf;

	if (!fd) {
		int err = errno;

		if (err == ENOENT)
			return std::nullopt;
		throw KernelError(err, "cannot read " + path + ": " +
					       errno_text(err), true);
	}
	for (;;) {
		ssize_t n = ::read(fd.get(), buf.data(), buf.size());

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			throw KernelError(err, "cannot read " + path + ": " +
						       errno_text(err), true);
		}
		if (n == 0)
			break;
		value.append(buf.data(), static_cast<std::size_t>(n));
	}
	while (!value.empty() && (value.back() == '\n' || value.back() == ' '))
		value.pop_back();
	return value;
}

void DevLnet::write_param(std::string_view module, std::string_view name,
			  std::string_view value)
{
	std::string path = param_path(module, name);
	lnet::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
	std::string text = std::string(value) + "\n";

	if (!fd) {
		int err = errno;
		std::string msg = "cannot write " + path + ": " + errno_text(err);
		struct stat st;

		if (err == ENOENT) {
			std::string dir = sysfs_ + "/" + std::string(module);

			if (::stat(dir.c_str(), &st) == 0)
				msg += " (this " + std::string(module) +
				       ".ko has no such parameter)";
			else
				msg += " (is " + std::string(module) +
				       ".ko loaded?)";
		} else if (err == EACCES || err == EPERM) {
			msg += " (run as root; the parameter may be read-only)";
		}
		throw KernelError(err, msg, true);
	}
	for (;;) {
		ssize_t n = ::write(fd.get(), text.data(), text.size());

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			std::string msg = "cannot set " + path + " to " +
					  std::string(value) + ": " +
					  errno_text(err);

			throw KernelError(err, msg, true);
		}
		break;
	}
}

std::vector<Ipv4Interface> DevLnet::ipv4_interfaces()
{
	struct ifaddrs *list = nullptr;
	std::vector<Ipv4Interface> out;

	if (::getifaddrs(&list) < 0) {
		int err = errno;

		throw KernelError(err, "cannot list this node's interfaces: " +
					       errno_text(err), true);
	}
	std::unique_ptr<struct ifaddrs, decltype(&::freeifaddrs)> owner(list,
									  ::freeifaddrs);
	for (const struct ifaddrs *i = list; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		const auto *sin = reinterpret_cast<const struct sockaddr_in *>(i->ifa_addr);

		out.push_back({ i->ifa_name, ntohl(sin->sin_addr.s_addr),
				(i->ifa_flags & IFF_UP) != 0 });
	}
	return out;
}

}  // namespace lnetctl
