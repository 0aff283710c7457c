// SPDX-License-Identifier: GPL-2.0
#include "yaml_render.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <algorithm>
#include <array>

#include "fault_text.hpp"

namespace lnetctl {
namespace {

using yaml::add;
using yaml::num;
using yaml::str;

yaml::Node nid_node(lnet_nid_t nid)
{
	return str(lnet::nid_to_string(nid));
}

yaml::Node per_type(const std::array<std::uint64_t, msg_type_names.size()> &v)
{
	yaml::Map m;

	for (std::size_t i = 0; i < v.size(); i++)
		add(m, std::string(msg_type_names[i]), num(v[i]));
	return yaml::map(std::move(m));
}

// statistics, sent_stats, received_stats, dropped_stats
void add_msg_stats(yaml::Map &m, const MsgStats &s)
{
	yaml::Map totals;

	add(totals, "send_count", num(s.send_count));
	add(totals, "recv_count", num(s.recv_count));
	add(totals, "drop_count", num(s.drop_count));
	add(m, "statistics", yaml::map(std::move(totals)));
	add(m, "sent_stats", per_type(s.sent));
	add(m, "received_stats", per_type(s.received));
	add(m, "dropped_stats", per_type(s.dropped));
}

yaml::Node local_health(const NiHealth &h)
{
	yaml::Map m;

	add(m, "fatal_error", num(h.fatal_error ? 1 : 0));
	add(m, "health value", num(h.health_value));
	add(m, "interrupts", num(h.interrupts));
	add(m, "dropped", num(h.dropped));
	add(m, "aborted", num(h.aborted));
	add(m, "no route", num(h.no_route));
	add(m, "timeouts", num(h.timeouts));
	add(m, "error", num(h.error));
	add(m, "ping_count", num(h.ping_count));
	add(m, "next_ping", num(h.next_ping));
	return yaml::map(std::move(m));
}

yaml::Node common_tunables(const CommonTunables &t)
{
	yaml::Map m;

	add(m, "peer_timeout", num(t.peer_timeout));
	add(m, "peer_credits", num(t.peer_credits));
	add(m, "peer_buffer_credits", num(t.peer_buffer_credits));
	add(m, "credits", num(t.credits));
	return yaml::map(std::move(m));
}

yaml::Node local_ni(const NiView &v, const NetFields &f)
{
	const NiConfig &c = v.info.config;
	yaml::Map m;

	if (!f.backup || c.interface.empty())
		add(m, "nid", nid_node(c.nid));
	if (f.status)
		add(m, "status", str(v.info.up ? "up" : "down"));
	if (!c.interface.empty()) {
		yaml::Map ifs;

		add(ifs, "0", str(c.interface));
		add(m, "interfaces", yaml::map(std::move(ifs)));
	}
	if (f.statistics && v.stats)
		add_msg_stats(m, *v.stats);
	if (f.statistics && v.health)
		add(m, "health stats", local_health(*v.health));
	if (f.config) {
		yaml::Map lnd = render_lnd_tunables(c.lnd, f.backup);

		add(m, "tunables", common_tunables(c.tunables));
		if (!lnd.empty())
			add(m, "lnd tunables", yaml::map(std::move(lnd)));
		if (f.dev_cpt)
			add(m, "dev cpt", num(v.info.dev_cpt));
		if (!c.cpts.empty())
			add(m, "CPT", yaml::quoted(format_cpts(c.cpts)));
	}
	return yaml::map(std::move(m));
}

const char *peer_ni_state(PeerNiState s)
{
	switch (s) {
	case PeerNiState::up:
		return "up";
	case PeerNiState::down:
		return "down";
	case PeerNiState::na:
		break;
	}
	return "NA";
}

yaml::Node peer_ni(const PeerNiInfo &p, bool verbose)
{
	yaml::Map m;

	add(m, "nid", nid_node(p.nid));
	add(m, "state", str(peer_ni_state(p.state)));
	if (verbose) {
		yaml::Map h;

		add(m, "max_ni_tx_credits", num(p.max_tx_credits));
		add(m, "available_tx_credits", num(p.available_tx_credits));
		add(m, "min_tx_credits", num(p.min_tx_credits));
		add(m, "tx_q_num_of_buf", num(p.tx_q_num_of_buf));
		add(m, "available_rtr_credits", num(p.available_rtr_credits));
		add(m, "min_rtr_credits", num(p.min_rtr_credits));
		add(m, "refcount", num(p.refcount));
		add_msg_stats(m, p.stats);
		add(h, "health value", num(p.health_value));
		add(h, "dropped", num(p.hs_dropped));
		add(h, "timeout", num(p.hs_timeout));
		add(h, "error", num(p.hs_error));
		add(h, "network timeout", num(p.hs_network_timeout));
		add(h, "ping_count", num(p.hs_ping_count));
		add(h, "next_ping", num(p.hs_next_ping));
		add(m, "health stats", yaml::map(std::move(h)));
	}
	return yaml::map(std::move(m));
}

}  // namespace

std::string format_cpts(std::span<const std::uint32_t> cpts)
{
	std::string s = "[";

	for (std::size_t i = 0; i < cpts.size(); i++) {
		if (i)
			s += ',';
		s += std::to_string(cpts[i]);
	}
	s += ']';
	return s;
}

yaml::Map render_lnd_tunables(const LndTunables &lnd, bool backup)
{
	yaml::Map m;
	// both LNDs end with these; Lustre's --backup leaves the timeout out
	auto common = [&](const auto &t) {
		add(m, "conns_per_peer", num(t.conns_per_peer));
		if (!backup)
			add(m, "timeout", num(t.timeout));
		add(m, "tos", num(t.tos));
	};

	if (const auto *s = std::get_if<SockTunables>(&lnd)) {
		common(*s);
	} else if (const auto *o = std::get_if<O2ibTunables>(&lnd)) {
		// Lustre's order. Its export writes map_on_demand as a flag
		// ("true") that its own import refuses; a number both take.
		add(m, "peercredits_hiw", num(o->peercredits_hiw));
		add(m, "concurrent_sends", num(o->concurrent_sends));
		add(m, "map_on_demand", num(o->map_on_demand));
		add(m, "fmr_pool_size", num(o->fmr_pool_size));
		add(m, "fmr_flush_trigger", num(o->fmr_flush_trigger));
		add(m, "fmr_cache", num(o->fmr_cache));
		add(m, "ntx", num(o->ntx));
		common(*o);
	}
	return m;
}

yaml::Node render_nets(std::span<const NiView> nis, const NetFields &fields)
{
	std::vector<std::uint32_t> order;
	yaml::Seq nets;

	for (const auto &v : nis) {
		std::uint32_t net = LNET_NIDNET(v.info.config.nid);

		if (std::find(order.begin(), order.end(), net) == order.end())
			order.push_back(net);
	}
	std::stable_partition(order.begin(), order.end(), [](std::uint32_t net) {
		return LNET_NETTYP(net) == LNET_LND_LO;
	});
	for (std::uint32_t net : order) {
		yaml::Map item;
		yaml::Seq local;

		if (fields.backup && LNET_NETTYP(net) == LNET_LND_LO)
			continue;	// 0@lo is always there

		for (const auto &v : nis)
			if (LNET_NIDNET(v.info.config.nid) == net)
				local.push_back(local_ni(v, fields));
		add(item, "net type", str(lnet::net_to_string(net)));
		add(item, "local NI(s)", yaml::seq(std::move(local)));
		nets.push_back(yaml::map(std::move(item)));
	}
	return yaml::seq(std::move(nets));
}

namespace {

enum class PeerDetail { config, show, verbose };

// peer show's entries, or (config) only what peer add needs, as Lustre's
// export writes it (Multi-Rail in lower case, each NI its nid alone)
yaml::Node peers_node(std::span<const PeerInfo> peers, PeerDetail detail)
{
	yaml::Seq items;

	for (const auto &p : peers) {
		yaml::Map m;
		yaml::Seq nis;

		add(m, "primary nid", nid_node(p.primary_nid));
		add(m, "Multi-Rail", detail == PeerDetail::config ?
					     yaml::lower_boolean(p.multi_rail) :
					     yaml::boolean(p.multi_rail));
		if (detail == PeerDetail::verbose)
			add(m, "peer state", num(p.state));
		for (const auto &ni : p.nis) {
			yaml::Map n;

			if (detail != PeerDetail::config) {
				nis.push_back(peer_ni(ni, detail == PeerDetail::verbose));
				continue;
			}
			add(n, "nid", nid_node(ni.nid));
			nis.push_back(yaml::map(std::move(n)));
		}
		add(m, "peer ni", yaml::seq(std::move(nis)));
		items.push_back(yaml::map(std::move(m)));
	}
	return yaml::seq(std::move(items));
}

}  // namespace

yaml::Node render_peers(std::span<const PeerInfo> peers, bool verbose)
{
	return peers_node(peers, verbose ? PeerDetail::verbose : PeerDetail::show);
}

yaml::Node render_config_peers(std::span<const PeerInfo> peers)
{
	return peers_node(peers, PeerDetail::config);
}

yaml::Node render_routes(std::span<const RouteInfo> routes,
			 const RouteFields &fields)
{
	yaml::Seq items;

	for (const auto &r : routes) {
		yaml::Map m;

		add(m, "net", str(lnet::net_to_string(r.config.net)));
		add(m, "gateway", nid_node(r.config.gateway));
		if (fields.detail) {
			add(m, "hop", num(r.config.hop));
			add(m, "priority", num(r.config.priority));
			if (!fields.exported || r.config.sensitivity != 1)
				add(m, "health_sensitivity", num(r.config.sensitivity));
		}
		if (fields.state) {
			add(m, "state", str(r.alive ? "up" : "down"));
			add(m, "type", str(r.multi_hop ? "multi-hop" : "single-hop"));
		}
		items.push_back(yaml::map(std::move(m)));
	}
	return yaml::seq(std::move(items));
}

namespace {
constexpr std::array<std::string_view, 3> pool_names = { "tiny", "small",
							  "large" };
}  // namespace

yaml::Node render_routing(const RoutingInfo &routing)
{
	yaml::Seq items;

	for (std::size_t cpt = 0; cpt < routing.cpts.size(); cpt++) {
		yaml::Map pools;

		for (std::size_t i = 0; i < pool_names.size(); i++) {
			const auto &p = routing.cpts[cpt][i];
			yaml::Map m;

			add(m, "npages", num(p.npages));
			add(m, "nbuffers", num(p.nbuffers));
			add(m, "credits", num(p.credits));
			add(m, "mincredits", num(p.mincredits));
			add(pools, std::string(pool_names[i]), yaml::map(std::move(m)));
		}
		yaml::Map entry;
		add(entry, "cpt[" + std::to_string(cpt) + "]",
		    yaml::map(std::move(pools)));
		items.push_back(yaml::map(std::move(entry)));
	}
	yaml::Map enable;
	add(enable, "enable", num(routing.enabled ? 1 : 0));
	items.push_back(yaml::map(std::move(enable)));
	return yaml::seq(std::move(items));
}

yaml::Node render_buffers(const RoutingInfo &routing)
{
	yaml::Map m;

	for (std::size_t i = 0; i < pool_names.size(); i++) {
		std::int64_t total = 0;

		for (const auto &cpt : routing.cpts)
			total += cpt[i].nbuffers;
		add(m, std::string(pool_names[i]), num(total));
	}
	return yaml::map(std::move(m));
}

yaml::Node render_ping(const PingReply &reply)
{
	yaml::Map m;
	yaml::Seq nis;

	add(m, "primary nid", nid_node(reply.primary_nid));
	add(m, "Multi-Rail", yaml::boolean(reply.multi_rail));
	for (const auto &id : reply.ids) {
		yaml::Map ni;

		if (LNET_NETTYP(LNET_NIDNET(id.nid)) == LNET_LND_LO)
			continue;
		add(ni, "nid", nid_node(id.nid));
		nis.push_back(yaml::map(std::move(ni)));
	}
	add(m, "peer ni", yaml::seq(std::move(nis)));
	return yaml::map(std::move(m));
}

yaml::Node render_counters(const Counters &counters)
{
	yaml::Map m;

	for (std::size_t i = 0; i < counters.size(); i++)
		add(m, std::string(counter_names[i]), num(counters[i]));
	return yaml::map(std::move(m));
}

yaml::Node render_recovery_queue(const RecoveryQueue &queue)
{
	yaml::Seq items;

	for (const auto &e : queue.entries) {
		yaml::Map m;

		add(m, "nid", nid_node(e.nid));
		add(m, "health value", num(e.health_value));
		add(m, "ping count", num(e.ping_count));
		if (e.next_ping == recovery_ping_pending)
			add(m, "next ping", str("pending"));
		else
			add(m, "next ping", num(e.next_ping));
		items.push_back(yaml::map(std::move(m)));
	}
	if (queue.total > queue.entries.size())
		items.push_back(yaml::comment(
			std::to_string(queue.total - queue.entries.size()) +
			" more not listed"));
	return yaml::seq(std::move(items));
}

namespace {

yaml::Node render_fault_rule(FaultKind kind, const FaultInfo &f, bool statistics)
{
	const FaultRule &r = f.rule;
	bool drop = kind == FaultKind::drop;
	yaml::Map m;

	yaml::add(m, "source", yaml::str(fault_nid_to_string(r.src)));
	yaml::add(m, "dest", yaml::str(fault_nid_to_string(r.dst)));
	if (r.local_nid != LNET_NID_ANY)
		yaml::add(m, "local_nid", yaml::str(fault_nid_to_string(r.local_nid)));
	if (r.rate)
		yaml::add(m, "rate", yaml::num(r.rate));
	if (r.interval)
		yaml::add(m, "interval", yaml::num(r.interval));
	if (!drop)
		yaml::add(m, "latency", yaml::num(r.latency));
	if (r.ptl_mask) {
		yaml::Seq portals;

		for (unsigned p = 0; p < 64; p++)
			if (r.ptl_mask & (1ULL << p))
				portals.push_back(yaml::num(p));
		yaml::add(m, "portal", yaml::seq(std::move(portals)));
	}
	if (r.msg_mask) {
		yaml::Seq msgs;

		for (std::uint32_t t = 0; t < fault_msg_names.size(); t++)
			if (r.msg_mask & (1U << t))
				msgs.push_back(yaml::str(fault_msg_names[t]));
		yaml::add(m, "message", yaml::seq(std::move(msgs)));
	}
	if (drop && r.health_mask == LNET_FAULT_HEALTH_RANDOM) {
		yaml::add(m, "health_error",
			  yaml::seq({ yaml::str(health_random_name) }));
	} else if (drop && r.health_mask) {
		yaml::Seq kinds;

		for (std::uint32_t s = 1; s < health_status_names.size(); s++)
			if (r.health_mask & (1U << s))
				kinds.push_back(yaml::str(health_status_names[s]));
		yaml::add(m, "health_error", yaml::seq(std::move(kinds)));
	}
	if (drop) {
		yaml::add(m, "random", yaml::boolean(r.flags & LNET_FAULT_F_RANDOM));
		yaml::add(m, "drop_all",
			  yaml::boolean(r.flags & LNET_FAULT_F_DROP_ALL));
	}
	yaml::add(m, "seed", yaml::str(format_seed(r.seed)));
	if (statistics) {
		const FaultStats &s = f.stats;
		yaml::Map st;

		yaml::add(st, "matched", yaml::num(s.matched));
		yaml::add(st, drop ? "dropped" : "delayed", yaml::num(s.total));
		if (!drop)
			yaml::add(st, "held", yaml::num(s.held));
		yaml::add(st, "put", yaml::num(s.put));
		yaml::add(st, "ack", yaml::num(s.ack));
		yaml::add(st, "get", yaml::num(s.get));
		yaml::add(st, "reply", yaml::num(s.reply));
		yaml::add(m, "statistics", yaml::map(std::move(st)));
	}
	return yaml::map(std::move(m));
}

}  // namespace

yaml::Node render_fault_rules(FaultKind kind, std::span<const FaultInfo> rules,
			      bool statistics)
{
	yaml::Seq items;

	for (const auto &f : rules)
		items.push_back(render_fault_rule(kind, f, statistics));
	return yaml::seq(std::move(items));
}

}  // namespace lnetctl
