// SPDX-License-Identifier: GPL-2.0
// route add / del / show
#include "commands.hpp"

#include <lnet/nid.hpp>

#include <cerrno>
#include <limits>

#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {
namespace {

constexpr std::int64_t uint32_max = std::numeric_limits<std::uint32_t>::max();

std::optional<lnet_nid_t> check_gateway(const ErrorSite &site,
					std::string_view text)
{
	auto gw = check_nid(site, text);

	if (gw && LNET_NETTYP(LNET_NIDNET(*gw)) == LNET_LND_LO) {
		site.fail(EINVAL, "a loopback NID cannot be a gateway");
		return std::nullopt;
	}
	return gw;
}

std::string describe_route(std::uint32_t net, lnet_nid_t gw)
{
	return lnet::net_to_string(net) + " via " + lnet::nid_to_string(gw);
}

}  // namespace

Outcome route_add(Kernel &k, const RouteAddArgs &a)
{
	Outcome o;
	ErrorSite site{ "add", "route", o };
	RouteConfig r;
	auto net = check_net(site, a.net, false);
	std::optional<lnet_nid_t> gw;

	if (!net || !(gw = check_gateway(site, a.gateway)))
		return o;
	r.net = *net;
	r.gateway = *gw;
	if (a.hop) {
		if (*a.hop != -1 && !check_range(site, "hop", *a.hop, 1, max_hop))
			return o;
		r.hop = static_cast<std::int32_t>(*a.hop);
	}
	if (a.priority) {
		if (!check_range(site, "priority", *a.priority, 0, uint32_max))
			return o;
		r.priority = static_cast<std::uint32_t>(*a.priority);
	}
	if (a.health_sensitivity) {
		if (!check_range(site, "health_sensitivity", *a.health_sensitivity,
				 0, uint32_max))
			return o;
		r.sensitivity = static_cast<std::uint32_t>(*a.health_sensitivity);
	}
	try {
		k.add_route(r);
	} catch (const KernelError &e) {
		site.fail("cannot add route to " + describe_route(r.net, r.gateway), e);
	}
	return o;
}

Outcome route_del(Kernel &k, const RouteDelArgs &a)
{
	Outcome o;
	ErrorSite site{ "del", "route", o };
	auto net = check_net(site, a.net, false);
	std::optional<lnet_nid_t> gw;

	if (!net || !(gw = check_gateway(site, a.gateway)))
		return o;
	try {
		k.del_route(*net, *gw);
	} catch (const KernelError &e) {
		site.fail("cannot delete route to " + describe_route(*net, *gw), e);
	}
	return o;
}

Outcome route_show(Kernel &k, const RouteShowArgs &a)
{
	Outcome o;
	ErrorSite site{ "show", "route", o };
	std::optional<std::uint32_t> net;
	std::optional<lnet_nid_t> gw;
	std::vector<RouteInfo> routes;

	if (!a.net.empty() && !(net = check_net(site, a.net, false)))
		return o;
	if (!a.gateway.empty() && !(gw = check_gateway(site, a.gateway)))
		return o;
	try {
		routes = k.get_routes();
	} catch (const KernelError &e) {
		site.fail("cannot get routes", e);
		return o;
	}
	std::erase_if(routes, [&](const RouteInfo &r) {
		return (net && r.config.net != *net) ||
		       (gw && r.config.gateway != *gw);
	});
	if (!routes.empty())
		yaml::add(o.out, "route",
			  render_routes(routes, RouteFields{ a.verbose > 0,
							     a.verbose > 0 }));
	return o;
}

}  // namespace lnetctl
