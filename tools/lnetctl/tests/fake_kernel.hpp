// SPDX-License-Identifier: GPL-2.0
//
// An in-memory Kernel for the unit tests: behaves like a small node with
// interfaces eth0/eth1/ib0, keeps NIs, routes and module parameters, and
// can be told to fail any operation with a given errno.
#ifndef LNETCTL_TESTS_FAKE_KERNEL_HPP
#define LNETCTL_TESTS_FAKE_KERNEL_HPP

#include <algorithm>
#include <cstring>
#include <cerrno>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <linux/lnet/lnet-ioctl.h>

#include "kernel.hpp"

namespace lnetctl::test {

class FakeKernel : public Kernel {
public:
	FakeKernel()
	{
		for (const auto &[name, value] : default_lnet_params)
			params["lnet/" + name] = value;
	}

	// Interface name -> IPv4 address (host order).
	std::map<std::string, std::uint32_t> interfaces{
		{ "eth0", 0xC0A8010A },		// 192.168.1.10
		{ "eth1", 0x0A00000A },		// 10.0.0.10
		{ "ib0", 0x0A0A0A01 },		// 10.10.10.1
	};
	std::set<std::string> down;		// interfaces reported down
	bool configured = false;
	bool configured_all = false;
	bool configured_large = false;
	std::vector<NiInfo> nis;
	std::vector<NiConfig> added;	// every add_ni request, as received
	std::vector<RouteInfo> routes;
	RoutingInfo routing{ false, { {} } };	// one CPT, no pools yet
	std::vector<PeerInfo> peers;
	std::vector<PeerConfig> peer_adds;	// every add_peer request
	std::vector<PeerConfig> peer_dels;	// every del_peer request
	// The ping info of the node each NID belongs to (0@lo first), keyed
	// by one of its NIDs; ping and discover of a NID that none has time
	// out.
	std::map<lnet_nid_t, PingReply> ping_replies;
	std::vector<std::pair<lnet_nid_t, bool>> discovers;	// nid, force
	std::vector<PingRequest> pings;
	std::vector<RouterBufferTotals> buffer_totals_set;
	RouterBufferTotals buffer_totals{ 2048, 16384, 1024 };
	std::map<lnet_nid_t, MsgStats> ni_stats;
	std::map<lnet_nid_t, NiHealth> ni_health;
	std::map<HealthOf, RecoveryQueue> recovery;
	Counters counters{};
	// Fault rules per kind, newest first, as the kernel keeps them.
	std::map<FaultKind, std::vector<FaultInfo>> faults;
	std::uint64_t next_seed = 0x5eed0001;	// handed out for seed 0
	// GET_PEER / GET_CONN answers per net; lnd_loaded: the LND types
	// that answer at all (lnet.ko says EINVAL for the others).
	std::map<std::uint32_t, std::vector<LndPeer>> lnd_peer_table;
	std::map<std::uint32_t, std::vector<LndConn>> lnd_conn_table;
	std::set<std::uint32_t> lnd_loaded{ LNET_LND_SOCK, LNET_LND_O2IB };
	std::map<std::string, std::string> params;	// "module/name"
	std::map<std::string, int> fail;		// operation -> errno
	std::vector<std::string> calls;

	void configure(bool all, bool large) override
	{
		enter("configure");
		configured_all = all;
		configured_large = large;
		if (configured)
			return;
		configured = true;
		NiInfo lo;
		lo.config.nid = LNET_NID_LO_0;
		lo.config.tunables = CommonTunables{ 0, 0, 0, 0 };
		lo.config.cpts = { 0 };
		lo.up = true;
		nis.insert(nis.begin(), lo);
	}

	void unconfigure() override
	{
		enter("unconfigure");
		configured = false;
		nis.clear();
		routes.clear();
	}

	void add_ni(const NiConfig &ni) override
	{
		enter("add_ni");
		added.push_back(ni);
		need_configured();
		std::uint32_t net = LNET_NIDNET(ni.nid);
		if (!ni.ip2net.empty())
			throw KernelError(EOPNOTSUPP, "Operation not supported");
		if (LNET_NETTYP(net) == LNET_LND_LO)
			throw KernelError(EINVAL, "Invalid argument");
		NiInfo info;
		info.config = ni;
		info.config.ip2net.clear();
		if (LNET_NIDADDR(ni.nid) == any_addr) {
			auto it = interfaces.find(ni.interface);
			if (it == interfaces.end())
				throw KernelError(ENODEV, "No such device");
			info.config.nid = LNET_MKNID(net, it->second);
		}
		for (const auto &n : nis)
			if (n.config.nid == info.config.nid)
				throw KernelError(EEXIST, "File exists");
		resolve_defaults(info.config);
		info.up = true;
		nis.push_back(info);
		if (LNET_NETTYP(net) == LNET_LND_SOCK)
			params.try_emplace("ksocklnd/sock_timeout", "50");
	}

	void del_ni(lnet_nid_t nid) override
	{
		enter("del_ni");
		need_configured();
		auto it = std::find_if(nis.begin(), nis.end(), [&](const NiInfo &n) {
			return n.config.nid == nid;
		});
		if (it == nis.end())
			throw KernelError(ENOENT, "No such file or directory");
		nis.erase(it);
	}

	void del_net(std::uint32_t net) override
	{
		enter("del_net");
		need_configured();
		auto n = std::erase_if(nis, [&](const NiInfo &ni) {
			return LNET_NIDNET(ni.config.nid) == net;
		});
		if (n == 0)
			throw KernelError(ENOENT, "No such file or directory");
	}

	std::vector<NiInfo> get_nis() override
	{
		enter("get_nis");
		need_configured();
		return nis;
	}

	MsgStats get_ni_stats(lnet_nid_t nid) override
	{
		enter("get_ni_stats");
		need_ni(nid);
		return ni_stats[nid];
	}

	NiHealth get_ni_health(lnet_nid_t nid) override
	{
		enter("get_ni_health");
		need_ni(nid);
		return ni_health[nid];
	}

	void set_health(HealthOf what, std::optional<lnet_nid_t> nid,
			std::int32_t value) override
	{
		enter("set_health");
		need_configured();
		if (what == HealthOf::local_ni) {
			for (const auto &ni : nis)
				if (!nid || ni.config.nid == *nid)
					ni_health[ni.config.nid].health_value = value;
			if (nid)
				need_ni(*nid);
			return;
		}
		bool found = !nid;

		for (auto &p : peers)
			for (auto &pni : p.nis)
				if (!nid || pni.nid == *nid) {
					pni.health_value = value;
					found = true;
				}
		if (!found)
			throw KernelError(ENOENT, "No such file or directory");
	}

	std::vector<PeerInfo> get_peers() override
	{
		enter("get_peers");
		return peers;
	}

	// As lnet.ko's ADD_PEER_NI (lnet-ioctl.h): the peer itself, made
	// Multi-Rail unless non_mr, or a NID joining a configured peer.
	void add_peer(const PeerConfig &add) override
	{
		lnet_nid_t primary = add.primary;

		enter("add_peer");
		need_configured();
		peer_adds.push_back(add);
		if (add.nid != LNET_NID_ANY && add.nid != primary) {
			join_peer(add);
			return;
		}
		bool on_our_net = false;

		for (const auto &n : nis) {
			if (n.config.nid == primary)
				throw KernelError(EINVAL, "Invalid argument");
			if (LNET_NIDNET(n.config.nid) == LNET_NIDNET(primary))
				on_our_net = true;
		}
		if (!on_our_net)
			throw KernelError(EHOSTUNREACH, "No route to host");
		if (PeerInfo *p = peer_of(primary)) {
			if (p->primary_nid != primary)
				throw KernelError(EINVAL, "Invalid argument");
			if (p->configured)
				throw KernelError(EEXIST, "File exists");
			p->configured = true;
			set_peer_flags(*p, add);
			return;
		}
		PeerInfo p;
		p.primary_nid = primary;
		p.configured = true;
		set_peer_flags(p, add);
		PeerNiInfo ni;

		ni.nid = primary;
		p.nis.push_back(ni);
		peers.push_back(p);
	}

	// As DEL_PEER_NI: the whole peer (EPERM for a locked primary without
	// force), or one of its NIDs.
	void del_peer(const PeerConfig &del) override
	{
		enter("del_peer");
		need_configured();
		peer_dels.push_back(del);
		auto it = std::find_if(peers.begin(), peers.end(), [&](const PeerInfo &p) {
			return p.primary_nid == del.primary;
		});
		if (it == peers.end())
			throw KernelError(ENOENT, "No such file or directory");
		if (del.nid == LNET_NID_ANY || del.nid == del.primary) {
			if (it->lock_prim && !del.force)
				throw KernelError(EPERM, "Operation not permitted");
			peers.erase(it);
			return;
		}
		if (!std::erase_if(it->nis, [&](const PeerNiInfo &ni) {
			    return ni.nid == del.nid;
		    }))
			throw KernelError(ENOENT, "No such file or directory");
	}

	// Discovery as lnet.ko runs it against a node whose ping info is
	// ping_replies[@nid] or has @nid in its ping info (none: no answer,
	// ETIMEDOUT): a new peer takes
	// the node's first NID as its primary; a Multi-Rail peer learns the
	// node's NIDs (at most LNET_IOCTL_PEER_MAX_NIDS) and forgets none.
	PingReply discover(lnet_nid_t nid, bool force) override
	{
		enter("discover");
		need_configured();
		discovers.emplace_back(nid, force);
		const PingReply *found = ping_info_of(nid);
		if (!found)
			throw KernelError(ETIMEDOUT, "Connection timed out");
		const PingReply &info = *found;
		std::vector<lnet_nid_t> remote;

		for (const auto &id : info.ids)
			if (LNET_NETTYP(LNET_NIDNET(id.nid)) != LNET_LND_LO)
				remote.push_back(id.nid);
		PeerInfo *p = peer_of(nid);
		if (!p) {
			PeerInfo fresh;
			PeerNiInfo ni;

			fresh.primary_nid = remote.empty() ? nid : remote.front();
			fresh.multi_rail = info.multi_rail;
			ni.nid = fresh.primary_nid;
			fresh.nis.push_back(ni);
			if (nid != fresh.primary_nid) {
				ni.nid = nid;
				fresh.nis.push_back(ni);
			}
			peers.push_back(fresh);
			p = &peers.back();
		}
		if (p->multi_rail && info.multi_rail) {
			for (lnet_nid_t r : remote) {
				if (has_nid(*p, r) || p->nis.size() >= LNET_IOCTL_PEER_MAX_NIDS)
					continue;
				PeerNiInfo ni;

				ni.nid = r;
				p->nis.push_back(ni);
			}
		}
		p->discovered = true;
		PingReply reply;

		reply.primary_nid = p->primary_nid;
		reply.multi_rail = p->multi_rail;
		reply.features = info.features;
		for (const auto &ni : p->nis)
			reply.ids.push_back({ ni.nid, LNET_PID_LUSTRE });
		return reply;
	}

	void set_conns_per_peer(std::optional<lnet_nid_t> nid,
				std::uint32_t value) override
	{
		enter("set_conns_per_peer");
		need_configured();
		if (value > max_conns_per_peer)
			throw KernelError(EINVAL, "Invalid argument");
		int err = ENOENT;

		for (auto &n : nis) {
			if (nid && n.config.nid != *nid)
				continue;
			auto *sock = std::get_if<SockTunables>(&n.config.lnd);
			if (!sock) {
				if (nid)
					err = EOPNOTSUPP;
				continue;
			}
			sock->conns_per_peer = value ? value : 1;
			err = 0;
		}
		if (err)
			throw KernelError(err, std::strerror(err));
	}

	RecoveryQueue get_recovery_queue(HealthOf what) override
	{
		enter("get_recovery_queue");
		need_configured();
		return recovery[what];
	}

	void add_route(const RouteConfig &route) override
	{
		enter("add_route");
		need_configured();
		bool reachable = std::any_of(nis.begin(), nis.end(), [&](const NiInfo &n) {
			return LNET_NIDNET(n.config.nid) == LNET_NIDNET(route.gateway);
		});
		if (!reachable)
			throw KernelError(EHOSTUNREACH, "No route to host");
		for (const auto &r : routes)
			if (r.config.net == route.net && r.config.gateway == route.gateway)
				throw KernelError(EEXIST, "File exists");
		RouteInfo info;
		info.config = route;
		if (info.config.sensitivity == 0)
			info.config.sensitivity = 1;
		info.alive = true;
		info.multi_hop = route.hop > 1;
		routes.push_back(info);
	}

	void del_route(std::uint32_t net, lnet_nid_t gateway) override
	{
		enter("del_route");
		auto n = std::erase_if(routes, [&](const RouteInfo &r) {
			return r.config.net == net && r.config.gateway == gateway;
		});
		if (n == 0)
			throw KernelError(ENOENT, "No such file or directory");
	}

	std::vector<RouteInfo> get_routes() override
	{
		enter("get_routes");
		need_configured();
		return routes;
	}

	RoutingInfo get_routing() override
	{
		enter("get_routing");
		need_configured();
		return routing;
	}

	// As lnet.ko: pools made (the totals, at first tiny 2048, small 16384,
	// large 1024) the first time forwarding goes on, kept after.
	void set_routing(bool enable) override
	{
		enter("set_routing");
		need_configured();
		if (enable && routing.cpts[0][2].nbuffers == 0) {
			static constexpr std::array<std::int32_t, 3> npages = { 0, 1, 256 };

			for (std::size_t i = 0; i < npages.size(); i++) {
				std::int32_t n = buffer_totals[i];

				routing.cpts[0][i] = RouterPool{ npages[i], n, n, n };
			}
		}
		routing.enabled = enable;
	}

	// As lnet.ko with one CPT: pools that exist get the new sizes
	// (nothing in use), the totals are kept for later ones.
	void set_router_buffers(const RouterBufferTotals &totals) override
	{
		enter("set_router_buffers");
		need_configured();
		buffer_totals_set.push_back(totals);
		for (std::size_t i = 0; i < totals.size(); i++) {
			if (totals[i] < 0)
				throw KernelError(EINVAL, "Invalid argument");
			if (!totals[i])
				continue;
			buffer_totals[i] = totals[i];
			if (routing.cpts[0][i].nbuffers == 0)
				continue;
			routing.cpts[0][i].nbuffers = totals[i];
			routing.cpts[0][i].credits = totals[i];
		}
	}

	// The ping info of the target's node (see ping_info_of()); the primary
	// NID and Multi-Rail from the peer table when a peer has the target's
	// NID.
	PingReply ping(const PingRequest &request) override
	{
		enter("ping");
		pings.push_back(request);
		const PingReply *info = ping_info_of(request.target.nid);
		if (!info)
			throw KernelError(ETIMEDOUT, "Connection timed out");
		PingReply reply = *info;
		if (const PeerInfo *p = peer_of(request.target.nid)) {
			reply.primary_nid = p->primary_nid;
			reply.multi_rail = p->multi_rail;
		}
		return reply;
	}

	// As lnet.ko: a NID of an NI, the first NI on its net, the fewest
	// hops of the routes to its net (unspecified: 1).
	Distance distance(lnet_nid_t nid) override
	{
		enter("distance");
		std::uint32_t order = 0;
		std::optional<Distance> local;

		for (const auto &ni : nis) {
			if (ni.config.nid == nid)
				return Distance{ 0, order, nid };
			if (!local && ni.config.nid != LNET_NID_LO_0 &&
			    LNET_NIDNET(ni.config.nid) == LNET_NIDNET(nid))
				local = Distance{ 1, order, ni.config.nid };
			order++;
		}
		if (local)
			return *local;
		std::optional<std::uint32_t> hops;
		for (const auto &r : routes) {
			if (r.config.net != LNET_NIDNET(nid))
				continue;
			std::uint32_t h = r.config.hop > 0 ? static_cast<std::uint32_t>(r.config.hop) : 1;
			hops = hops ? std::min(*hops, h) : h;
		}
		if (!hops)
			throw KernelError(EHOSTUNREACH, "No route to host");
		return Distance{ *hops + 1, 0, LNET_NID_ANY };
	}

	Counters get_stats() override
	{
		enter("get_stats");
		return counters;
	}

	void reset_stats() override
	{
		enter("reset_stats");
		counters.fill(0);
	}

	FaultRule fault_add(FaultKind kind, const FaultRule &rule) override
	{
		enter("fault_add");
		need_configured();
		if ((rule.rate == 0) == (rule.interval == 0))
			throw KernelError(EINVAL, "Invalid argument");
		if (kind == FaultKind::delay && rule.latency == 0)
			throw KernelError(EINVAL, "Invalid argument");
		FaultInfo info;
		info.rule = rule;
		if (info.rule.seed == 0)
			info.rule.seed = next_seed++;
		auto &rules = faults[kind];
		rules.insert(rules.begin(), info);
		return info.rule;
	}

	std::uint32_t fault_del(FaultKind kind, lnet_nid_t src,
				lnet_nid_t dst) override
	{
		enter("fault_del");
		need_configured();
		auto n = std::erase_if(faults[kind], [&](const FaultInfo &f) {
			return (src == LNET_NID_ANY || f.rule.src == src) &&
			       (dst == LNET_NID_ANY || f.rule.dst == dst);
		});
		return static_cast<std::uint32_t>(n);
	}

	void fault_reset(FaultKind kind) override
	{
		enter("fault_reset");
		need_configured();
		for (auto &f : faults[kind])
			f.stats = FaultStats{};
	}

	std::vector<FaultInfo> fault_list(FaultKind kind) override
	{
		enter("fault_list");
		need_configured();
		return faults[kind];
	}

	std::vector<LndPeer> lnd_peers(std::uint32_t net) override
	{
		enter("lnd_peers");
		need_lnd_net(net);
		return lnd_peer_table[net];
	}

	std::vector<LndConn> lnd_conns(std::uint32_t net) override
	{
		enter("lnd_conns");
		need_lnd_net(net);
		return lnd_conn_table[net];
	}

	std::optional<std::string> read_param(std::string_view module,
					      std::string_view name) override
	{
		enter("read_param");
		if (key(module, name) == "lnet/lnet_lnd_timeout")
			return derived_lnd_timeout();
		auto it = params.find(key(module, name));
		if (it == params.end())
			return std::nullopt;
		return it->second;
	}

	void write_param(std::string_view module, std::string_view name,
			 std::string_view value) override
	{
		enter("write_param");
		auto it = params.find(key(module, name));
		if (it == params.end())
			throw KernelError(ENOENT, "cannot write /sys/module/" +
						  key(module, name) + ": no such parameter",
					  true);
		it->second = std::string(value);
		calls.push_back("wrote " + key(module, name) + "=" + std::string(value));
	}

	// lo, then @interfaces (up unless in @down)
	std::vector<Ipv4Interface> ipv4_interfaces() override
	{
		std::vector<Ipv4Interface> out = { { "lo", 0x7F000001, true } };

		enter("ipv4_interfaces");
		for (const auto &[name, addr] : interfaces)
			out.push_back({ name, addr, !down.contains(name) });
		return out;
	}

	static inline const std::map<std::string, std::string> default_lnet_params = {
		{ "lnet_numa_range", "0" },
		{ "lnet_interfaces_max", "4096" },
		{ "lnet_peer_discovery_disabled", "0" },
		{ "lnet_drop_asym_route", "0" },
		{ "lnet_retry_count", "2" },
		{ "lnet_transaction_timeout", "150" },
		{ "lnet_health_sensitivity", "100" },
		{ "lnet_recovery_interval", "1" },
		{ "router_sensitivity_percentage", "100" },
		{ "lnet_response_tracking", "3" },
		{ "lnet_recovery_limit", "0" },
		{ "lnet_max_recovery_ping_interval", "900" },
	};

private:
	// As lnet.ko computes it: (transaction_timeout - 1) / (retry_count + 1).
	std::optional<std::string> derived_lnd_timeout() const
	{
		auto tt = params.find("lnet/lnet_transaction_timeout");
		auto rc = params.find("lnet/lnet_retry_count");

		if (tt == params.end() || rc == params.end())
			return std::nullopt;
		return std::to_string(std::max((std::stoi(tt->second) - 1) /
						       (std::stoi(rc->second) + 1),
					       1));
	}

	static std::string key(std::string_view module, std::string_view name)
	{
		return std::string(module) + "/" + std::string(name);
	}

	void enter(const std::string &op)
	{
		calls.push_back(op);
		auto it = fail.find(op);
		if (it != fail.end())
			throw KernelError(it->second, std::strerror(it->second));
	}

	void need_configured() const
	{
		if (!configured)
			throw KernelError(ENETDOWN, "Network is down");
	}

	// As a loaded LND answers: EINVAL if none takes the type, ENETDOWN
	// without an NI on the net.
	void need_lnd_net(std::uint32_t net) const
	{
		if (!lnd_loaded.contains(LNET_NETTYP(net)))
			throw KernelError(EINVAL, "Invalid argument");
		for (const auto &n : nis)
			if (LNET_NIDNET(n.config.nid) == net)
				return;
		throw KernelError(ENETDOWN, "Network is down");
	}

	const PingReply *ping_info_of(lnet_nid_t nid) const
	{
		if (auto it = ping_replies.find(nid); it != ping_replies.end())
			return &it->second;
		for (const auto &[key, info] : ping_replies)
			for (const auto &id : info.ids)
				if (id.nid == nid)
					return &info;
		return nullptr;
	}

	static bool has_nid(const PeerInfo &p, lnet_nid_t nid)
	{
		return std::any_of(p.nis.begin(), p.nis.end(),
				   [&](const PeerNiInfo &ni) { return ni.nid == nid; });
	}

	// The peer that has @nid (any of its NIDs).
	PeerInfo *peer_of(lnet_nid_t nid)
	{
		for (auto &p : peers)
			if (has_nid(p, nid))
				return &p;
		return nullptr;
	}

	static void set_peer_flags(PeerInfo &p, const PeerConfig &add)
	{
		p.multi_rail = !add.non_mr;
		p.no_discovery = add.non_mr;
		p.lock_prim = add.lock_prim;
	}

	// ADD_PEER_NI of a NID other than the primary.
	void join_peer(const PeerConfig &add)
	{
		auto it = std::find_if(peers.begin(), peers.end(), [&](const PeerInfo &p) {
			return p.primary_nid == add.primary && p.configured;
		});
		for (const auto &n : nis)
			if (n.config.nid == add.nid)
				throw KernelError(EINVAL, "Invalid argument");
		if (it == peers.end())
			throw KernelError(ENOENT, "No such file or directory");
		if (!it->multi_rail)
			throw KernelError(EINVAL, "Invalid argument");
		if (has_nid(*it, add.nid))
			throw KernelError(EEXIST, "File exists");
		if (peer_of(add.nid))
			throw KernelError(EINVAL, "Invalid argument");
		if (it->nis.size() >= LNET_IOCTL_PEER_MAX_NIDS)
			throw KernelError(ENOSPC, "No space left on device");
		PeerNiInfo ni;

		ni.nid = add.nid;
		it->nis.push_back(ni);
	}

	void need_ni(lnet_nid_t nid) const
	{
		for (const auto &n : nis)
			if (n.config.nid == nid)
				return;
		throw KernelError(ENOENT, "No such file or directory");
	}

	// What the kernel reports back: module defaults in place of -1/0.
	static void resolve_defaults(NiConfig &c)
	{
		auto def = [](std::int32_t &v, std::int32_t d) {
			if (v < 0)
				v = d;
		};
		def(c.tunables.peer_timeout, 180);
		def(c.tunables.peer_credits, 8);
		def(c.tunables.peer_buffer_credits, 0);
		def(c.tunables.credits, 256);
		if (c.cpts.empty())
			c.cpts = { 0 };
		std::uint32_t type = LNET_NETTYP(LNET_NIDNET(c.nid));
		if (type == LNET_LND_SOCK) {
			SockTunables s;
			if (auto *given = std::get_if<SockTunables>(&c.lnd))
				s = *given;
			// ksocklnd: conns_per_peer from the link speed; the
			// timeout is the NI's own, 0 while sock_timeout applies
			if (s.conns_per_peer == 0)
				s.conns_per_peer = 1;
			c.lnd = s;
		} else if (type == LNET_LND_O2IB) {
			O2ibTunables o;
			if (auto *given = std::get_if<O2ibTunables>(&c.lnd))
				o = *given;
			// ko2iblnd with peer_credits 8: 0 is the module's value
			auto or_def = [](auto &v, auto d) {
				if (v == 0)
					v = d;
			};
			or_def(o.peercredits_hiw, 4U);
			or_def(o.concurrent_sends, 8U);
			or_def(o.map_on_demand, 1U);
			or_def(o.fmr_pool_size, 512U);
			or_def(o.fmr_flush_trigger, 384U);
			or_def(o.fmr_cache, 1U);
			or_def(o.ntx, std::uint16_t{ 512 });
			or_def(o.conns_per_peer, std::uint16_t{ 1 });
			// the timeout is the NI's own, as ksocklnd's
			c.lnd = o;
		}
	}
};

}  // namespace lnetctl::test

#endif  // LNETCTL_TESTS_FAKE_KERNEL_HPP
