// SPDX-License-Identifier: GPL-2.0
// net add / del / show
#include "commands.hpp"

#include <lnet/nid.hpp>

#include <cerrno>
#include <limits>

#include "../parse.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {
namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

// Fills @t from the options; false (with an error recorded) on a bad value.
bool tunables_from_args(const ErrorSite &site, const NetAddArgs &a,
			CommonTunables &t)
{
	const struct {
		const char *name;
		const std::optional<std::int64_t> &value;
		std::int32_t &field;
	} opts[] = {
		{ "peer-timeout", a.peer_timeout, t.peer_timeout },
		{ "peer-credits", a.peer_credits, t.peer_credits },
		{ "peer-buffer-credits", a.peer_buffer_credits, t.peer_buffer_credits },
		{ "credits", a.credits, t.credits },
	};

	for (const auto &opt : opts) {
		if (!opt.value)
			continue;
		auto v = check_range(site, opt.name, *opt.value, -1, int32_max);
		if (!v)
			return false;
		opt.field = static_cast<std::int32_t>(*v);
	}
	return true;
}

bool lnd_from_args(const ErrorSite &site, const NetAddArgs &a,
		   std::uint32_t net, LndTunables &lnd)
{
	std::optional<std::int64_t> cpp, tos;

	if (a.conns_per_peer &&
	    !(cpp = check_range(site, "conns-per-peer", *a.conns_per_peer, 0,
				std::numeric_limits<std::uint16_t>::max())))
		return false;
	if (a.tos && !(tos = check_range(site, "tos", *a.tos, -1, 255)))
		return false;
	if (!cpp && !tos)
		return true;
	switch (LNET_NETTYP(net)) {
	case LNET_LND_SOCK: {
		SockTunables s;

		if (cpp)
			s.conns_per_peer = static_cast<std::uint16_t>(*cpp);
		if (tos)
			s.tos = static_cast<std::int16_t>(*tos);
		lnd = s;
		return true;
	}
	case LNET_LND_O2IB: {
		O2ibTunables o;

		if (cpp)
			o.conns_per_peer = static_cast<std::uint16_t>(*cpp);
		if (tos)
			o.tos = static_cast<std::int16_t>(*tos);
		lnd = o;
		return true;
	}
	default:
		site.fail(EINVAL, "--conns-per-peer and --tos apply to tcp and "
				  "o2ib networks only");
		return false;
	}
}

}  // namespace

Outcome net_add(Kernel &k, const NetAddArgs &a)
{
	Outcome o;
	ErrorSite site{ "add", "net", o };
	NiConfig base;
	std::vector<NiConfig> nis;

	if (!tunables_from_args(site, a, base.tunables))
		return o;
	if (!a.cpt.empty()) {
		auto cpts = check_cpts(site, a.cpt);

		if (!cpts)
			return o;
		base.cpts = *cpts;
	}

	if (!a.ip2net.empty()) {
		if (!a.net.empty() || !a.interfaces.empty() || !a.nid.empty()) {
			site.fail(EINVAL, "--ip2net cannot be combined with "
					  "--net, --if or --nid");
			return o;
		}
		base.ip2net = a.ip2net;
		nis.push_back(base);
	} else {
		auto net = check_net(site, a.net, false);

		if (!net || !lnd_from_args(site, a, *net, base.lnd))
			return o;
		if (!a.nid.empty()) {
			auto nid = check_nid(site, a.nid);

			if (!nid)
				return o;
			if (LNET_NIDNET(*nid) != *net) {
				site.fail(EINVAL, "NID " + a.nid + " is not on network " +
							  lnet::net_to_string(*net));
				return o;
			}
			base.nid = *nid;
		} else {
			base.nid = nid_from_interface(*net);
		}
		if (a.interfaces.empty() && a.nid.empty()) {
			site.fail(EINVAL, "no interface given for network " +
						  lnet::net_to_string(*net) + " (use --if)");
			return o;
		}
		if (a.interfaces.empty()) {
			nis.push_back(base);
		} else {
			auto names = split_list(a.interfaces);

			if (!a.nid.empty() && names.size() > 1) {
				site.fail(EINVAL, "--nid names one NI: give one interface");
				return o;
			}
			for (const auto &name : names) {
				if (!check_interface(site, name))
					return o;
				nis.push_back(base);
				nis.back().interface = name;
			}
		}
	}

	for (const auto &ni : nis) {
		try {
			k.add_ni(ni);
		} catch (const KernelError &e) {
			site.fail("cannot add network " + describe_ni(ni), e);
		}
	}
	return o;
}

Outcome net_del(Kernel &k, const NetDelArgs &a)
{
	Outcome o;
	ErrorSite site{ "del", "net", o };
	auto net = check_net(site, a.net, false);
	std::string net_str;

	if (!net)
		return o;
	net_str = lnet::net_to_string(*net);
	if (!a.interface.empty() && !a.nid.empty()) {
		site.fail(EINVAL, "give --if or --nid, not both");
		return o;
	}
	try {
		if (!a.nid.empty()) {
			auto nid = check_nid(site, a.nid);

			if (!nid)
				return o;
			if (LNET_NIDNET(*nid) != *net) {
				site.fail(EINVAL, "NID " + a.nid + " is not on network " +
							  net_str);
				return o;
			}
			k.del_ni(*nid);
		} else if (!a.interface.empty()) {
			bool found = false;

			if (!check_interface(site, a.interface))
				return o;
			for (const auto &ni : k.get_nis()) {
				if (LNET_NIDNET(ni.config.nid) != *net ||
				    ni.config.interface != a.interface)
					continue;
				found = true;
				k.del_ni(ni.config.nid);
			}
			if (!found)
				site.fail(ENOENT, "network " + net_str +
							  " has no NI on interface " +
							  a.interface);
		} else {
			k.del_net(*net);
		}
	} catch (const KernelError &e) {
		site.fail("cannot delete network " + net_str, e);
	}
	return o;
}

Outcome net_show(Kernel &k, const NetShowArgs &a)
{
	Outcome o;
	ErrorSite site{ "show", "net", o };
	std::optional<std::uint32_t> filter;
	std::vector<NiView> views;
	NetFields fields;

	if (!a.net.empty() && !(filter = check_net(site, a.net, true)))
		return o;
	try {
		for (auto &ni : k.get_nis())
			if (!filter || LNET_NIDNET(ni.config.nid) == *filter)
				views.push_back(NiView{ std::move(ni), {}, {} });
	} catch (const KernelError &e) {
		site.fail("cannot get networks", e);
		return o;
	}
	if (filter && views.empty()) {
		site.fail(ENOENT, "network " + lnet::net_to_string(*filter) +
					  " is not configured");
		return o;
	}
	if (a.verbose > 0) {
		fields.statistics = true;
		fields.config = true;
		for (auto &v : views) {
			lnet_nid_t nid = v.info.config.nid;

			try {
				v.stats = k.get_ni_stats(nid);
				v.health = k.get_ni_health(nid);
			} catch (const KernelError &e) {
				site.fail("cannot get statistics of " +
						  lnet::nid_to_string(nid), e);
			}
		}
	}
	if (!views.empty())
		yaml::add(o.out, "net", render_nets(views, fields));
	return o;
}

}  // namespace lnetctl
