// SPDX-License-Identifier: GPL-2.0
// export / import: the whole configuration as one YAML document
#include "commands.hpp"

#include <lnet/nid.hpp>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <iterator>

#include "../config_file.hpp"
#include "../parse.hpp"
#include "../tunables.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {
namespace {

std::string command_of(ImportMode mode)
{
	switch (mode) {
	case ImportMode::add:
		return "add";
	case ImportMode::del:
		return "del";
	default:
		return "show";
	}
}

template <typename T, typename U>
bool contains(const std::vector<T> &v, const U &x)
{
	return std::find(v.begin(), v.end(), x) != v.end();
}

// import --show: the current state of what the file names.
Outcome show_planned(Kernel &k, const ConfigPlan &plan)
{
	ConfigFilter f;

	for (const auto &ni : plan.nis)
		f.nets.push_back(ni.net);
	for (const auto &rule : plan.ip2nets)
		f.nets.push_back(rule.net);
	f.routes = plan.routes;
	for (const auto &p : plan.peers)
		f.peers.push_back(p.peer.primary);
	for (const auto &g : plan.globals)
		f.globals.emplace_back(g.tunable->name);
	f.routing = plan.routing || plan.buffers;
	return collect_config(k, false, &f);
}

void apply_add(Kernel &k, const ConfigPlan &plan, Outcome &o)
{
	if (!plan.nis.empty() || !plan.routes.empty() || !plan.peers.empty()) {
		try {
			k.configure(false, false);
		} catch (const KernelError &e) {
			if (e.error() != EALREADY) {
				o.fail("add", "lnet", "cannot start LNet", e);
				return;
			}
		}
	}
	for (const auto &p : plan.nis) {
		ErrorSite site{ "add", "net", o };

		if (p.whole_net) {
			site.fail(EINVAL, "network " + lnet::net_to_string(p.net) +
						  " has no local NI(s) to add");
			continue;
		}
		try {
			k.add_ni(p.config);
		} catch (const KernelError &e) {
			site.fail("cannot add network " + describe_ni(p.config), e);
		}
	}
	for (const auto &r : plan.routes) {
		try {
			k.add_route(r);
		} catch (const KernelError &e) {
			o.fail("add", "route",
			       "cannot add route to " + lnet::net_to_string(r.net) +
				       " via " + lnet::nid_to_string(r.gateway), e);
		}
	}
	// A peer behind a router (no NI on its net: EHOSTUNREACH) has nothing
	// to configure here, and one configured already stays so (its NIDs
	// join it). A file exported by a node this one talked to lists this
	// node too: a peer with one of our NIDs.
	std::vector<NiInfo> ours;

	if (!plan.peers.empty()) {
		try {
			ours = k.get_nis();
		} catch (const KernelError &e) {
			o.fail("add", "peer", "cannot get networks", e);
		}
	}
	for (const auto &p : plan.peers) {
		auto is_ours = [&](lnet_nid_t nid) {
			return std::any_of(ours.begin(), ours.end(), [&](const NiInfo &ni) {
				return ni.config.nid == nid;
			});
		};

		if (is_ours(p.peer.primary) ||
		    std::any_of(p.nids.begin(), p.nids.end(), is_ours))
			continue;
		add_peer_nids(k, ErrorSite{ "add", "peer", o }, p, true);
	}
	if (plan.buffers) {
		try {
			k.set_router_buffers(*plan.buffers);
		} catch (const KernelError &e) {
			o.fail("add", "buffers", "cannot set the router buffers", e);
		}
	}
	if (plan.routing) {
		try {
			k.set_routing(*plan.routing);
		} catch (const KernelError &e) {
			o.fail("add", "routing",
			       *plan.routing ? "cannot enable forwarding" :
					       "cannot disable forwarding", e);
		}
	}
	for (const auto &g : plan.globals) {
		try {
			write_global(k, *g.tunable, g.value);
		} catch (const KernelError &e) {
			o.fail("add", g.tunable->name,
			       "cannot set " + std::string(g.tunable->name) + " to " +
				       std::to_string(g.value), e);
		}
	}
}

void apply_del(Kernel &k, const ConfigPlan &plan, Outcome &o)
{
	std::optional<std::vector<NiInfo>> current;

	// the whole peer, all its NIDs; one that is gone already (ENOENT:
	// deleted, or freed when idle) is what --del asks for. A peer whose
	// primary is locked stays (EPERM): peer del --force removes it.
	for (const auto &p : plan.peers) {
		try {
			k.del_peer(PeerConfig{ .primary = p.peer.primary });
		} catch (const KernelError &e) {
			if (e.error() != ENOENT)
				o.fail("del", "peer",
				       "cannot delete peer " +
					       lnet::nid_to_string(p.peer.primary), e);
		}
	}

	for (const auto &r : plan.routes) {
		try {
			k.del_route(r.net, r.gateway);
		} catch (const KernelError &e) {
			o.fail("del", "route",
			       "cannot delete route to " + lnet::net_to_string(r.net) +
				       " via " + lnet::nid_to_string(r.gateway), e);
		}
	}
	for (const auto &p : plan.nis) {
		ErrorSite site{ "del", "net", o };
		std::string what = p.whole_net ? lnet::net_to_string(p.net) :
						 describe_ni(p.config);

		try {
			if (p.whole_net) {
				k.del_net(p.net);
			} else if (p.config.interface.empty()) {
				k.del_ni(p.config.nid);
			} else {
				bool found = false;

				if (!current)
					current = k.get_nis();
				for (const auto &ni : *current) {
					if (LNET_NIDNET(ni.config.nid) != p.net ||
					    ni.config.interface != p.config.interface)
						continue;
					found = true;
					k.del_ni(ni.config.nid);
				}
				if (!found)
					site.fail(ENOENT, "no NI " + what);
			}
		} catch (const KernelError &e) {
			site.fail("cannot delete network " + what, e);
		}
	}
}

}  // namespace

Outcome collect_config(Kernel &k, bool backup, const ConfigFilter *filter)
{
	Outcome o;
	std::vector<NiView> nis;
	std::vector<RouteInfo> routes;
	std::vector<PeerInfo> peers;
	RoutingInfo routing;
	yaml::Map globals;
	NetFields net_fields;

	try {
		for (auto &ni : k.get_nis())
			nis.push_back(NiView{ std::move(ni), {}, {} });
	} catch (const KernelError &e) {
		o.fail("show", "net", "cannot get networks", e);
	}
	try {
		routes = k.get_routes();
	} catch (const KernelError &e) {
		o.fail("show", "route", "cannot get routes", e);
	}
	try {
		// only what peer add made: the others come and go with traffic
		peers = k.get_peers();
		std::erase_if(peers, [&](const PeerInfo &p) {
			return filter ? !contains(filter->peers, p.primary_nid) :
					!p.configured;
		});
	} catch (const KernelError &e) {
		o.fail("show", "peer", "cannot get peers", e);
	}
	try {
		routing = k.get_routing();
	} catch (const KernelError &e) {
		o.fail("show", "routing", "cannot get the router buffers", e);
	}
	for (const auto &t : global_tunables()) {
		if (filter && !contains(filter->globals, t.name))
			continue;
		try {
			auto v = read_global(k, t);
			auto n = v ? parse_int(*v) : std::nullopt;

			if (n)
				yaml::add(globals, std::string(t.name), yaml::num(*n));
		} catch (const KernelError &e) {
			o.fail("show", "global", "cannot read " + std::string(t.name), e);
		}
	}
	if (!o.ok())
		return o;
	if (filter) {
		std::erase_if(nis, [&](const NiView &v) {
			return !contains(filter->nets, LNET_NIDNET(v.info.config.nid));
		});
		std::erase_if(routes, [&](const RouteInfo &r) {
			return std::none_of(filter->routes.begin(), filter->routes.end(),
					    [&](const RouteConfig &c) {
						    return c.net == r.config.net &&
							   c.gateway == r.config.gateway;
					    });
		});
		routing.enabled = routing.enabled && filter->routing;
	}

	net_fields.status = !backup;
	net_fields.config = true;
	net_fields.dev_cpt = !backup;
	net_fields.backup = backup;
	if (!nis.empty())
		yaml::add(o.out, "net", render_nets(nis, net_fields));
	if (!routes.empty())
		yaml::add(o.out, "route",
			  render_routes(routes, RouteFields{ true, !backup, true }));
	// as Lustre's lnetctl: on a router, routing's pools in full or only
	// whether it forwards (--backup), and the buffer totals in both; on
	// another node, neither section (Lustre 2.17.0 writes none there)
	if (routing.enabled) {
		yaml::Map enable;

		yaml::add(enable, "enable", yaml::num(1));
		yaml::add(o.out, "routing", backup ? yaml::map(std::move(enable)) :
						     render_routing(routing));
		yaml::add(o.out, "buffers", render_buffers(routing));
	}
	if (!peers.empty())
		yaml::add(o.out, "peer", render_config_peers(peers));
	if (!globals.empty())
		yaml::add(o.out, "global", yaml::map(std::move(globals)));
	return o;
}

Outcome export_config(Kernel &k, const ExportArgs &a)
{
	Outcome o = collect_config(k, a.backup);

	o.layout = yaml::Layout::exported;
	if (!o.ok() || a.file.empty() || a.file == "-")
		return o;
	{
		std::ofstream f(a.file, std::ios::out | std::ios::trunc);

		if (f)
			f << yaml::render(o.out, o.layout);
		if (f)
			f.close();
		if (!f) {
			int err = errno ? errno : EIO;

			o.fail("export", "file", err, "cannot write " + a.file +
							       ": " + errno_text(err));
		}
	}
	o.out.clear();
	return o;
}

Outcome import_config(Kernel &k, const ImportArgs &a)
{
	Outcome o;
	std::string text;

	errno = 0;
	if (a.file == "-") {
		text.assign(std::istreambuf_iterator<char>(std::cin), {});
	} else {
		std::ifstream f(a.file, std::ios::in | std::ios::binary);

		if (f)
			text.assign(std::istreambuf_iterator<char>(f), {});
		if (!f.is_open() || f.bad()) {
			int err = errno ? errno : EIO;

			o.fail(command_of(a.mode), "yaml", err,
			       "cannot read " + a.file + ": " + errno_text(err));
			return o;
		}
	}
	return apply_config(k, text, a.mode);
}

Outcome apply_config(Kernel &k, std::string_view text, ImportMode mode)
{
	Outcome o;
	ConfigPlan plan = parse_config(text, command_of(mode), o);

	// A file with mistakes is not applied at all, nor one with a section
	// this LNet cannot configure.
	if (!o.ok())
		return o;
	if (mode == ImportMode::show)
		return show_planned(k, plan);
	for (const auto &section : plan.unsupported)
		o.fail(command_of(mode), section, EOPNOTSUPP,
		       "section '" + section + "' is not supported by this "
		       "lnetctl: nothing of the file was applied");
	if (!o.ok())
		return o;
	// ip2nets rules become NIs on this node's interfaces now; one that
	// chooses none fails the whole import, before anything is applied.
	// Removing (--del) takes NIs by 'net', as Lustre's lnetctl does.
	if (mode == ImportMode::add && !plan.ip2nets.empty()) {
		std::vector<Ipv4Interface> ifs;

		try {
			ifs = k.ipv4_interfaces();
		} catch (const KernelError &e) {
			o.fail("add", "ip2nets", "cannot choose the ip2nets NIs", e);
			return o;
		}
		for (const auto &rule : plan.ip2nets) {
			const Ip2netsChoice c = ip2nets_choose(rule, ifs);

			if (!c.error.empty()) {
				o.fail("add", "ip2nets", ENODEV,
				       "ip2nets rule for " + lnet::net_to_string(rule.net) +
					       ": " + c.error);
				continue;
			}
			for (const auto &name : c.interfaces) {
				PlannedNi ni;

				ni.net = rule.net;
				ni.config = rule.config;
				ni.config.interface = name;
				plan.nis.push_back(std::move(ni));
			}
		}
		if (!o.ok())
			return o;
	}
	if (mode == ImportMode::add)
		apply_add(k, plan, o);
	else
		apply_del(k, plan, o);
	return o;
}

}  // namespace lnetctl
