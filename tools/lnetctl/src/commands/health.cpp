// SPDX-License-Identifier: GPL-2.0
// net set / peer set --health, net set --lnd-timeout
#include "commands.hpp"

#include <cerrno>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "common.hpp"

namespace lnetctl {

static Outcome set_health(Kernel &k, HealthOf what, const HealthSetArgs &a)
{
	Outcome o;
	std::string_view entity = what == HealthOf::local_ni ? "net" : "peer";
	ErrorSite site{ "set", entity, o };
	std::optional<lnet_nid_t> nid;
	std::optional<std::int64_t> value;

	if (!a.health) {
		site.fail(EINVAL, "nothing to set: give --health");
		return o;
	}
	if (a.all == !a.nid.empty()) {
		site.fail(EINVAL, "give --nid or --all (one of them)");
		return o;
	}
	if (!(value = check_range(site, "health", *a.health, 0, 1000)))
		return o;
	if (!a.all && !(nid = check_nid(site, a.nid)))
		return o;
	try {
		k.set_health(what, nid, static_cast<std::int32_t>(*value));
	} catch (const KernelError &e) {
		site.fail(a.all ? std::string("cannot set health") :
				  "cannot set the health of " + a.nid, e);
	}
	return o;
}

// The module parameter that holds the timeout of @net's LND, if it has one.
static std::optional<std::pair<std::string_view, std::string_view>>
lnd_timeout_param(std::uint32_t net)
{
	switch (LNET_NETTYP(net)) {
	case LNET_LND_SOCK:
		return std::pair{ "ksocklnd", "sock_timeout" };
	case LNET_LND_O2IB:
		return std::pair{ "ko2iblnd", "timeout" };
	default:
		return std::nullopt;
	}
}

// The LND's own parameter for --lnd-timeout, checked before anything is
// set; it applies to every net of that LND, as in Lustre.
static std::optional<std::pair<std::string_view, std::string_view>>
lnd_timeout_target(Kernel &k, const NetSetArgs &a, const ErrorSite &site)
{
	std::optional<std::uint32_t> net;

	if (a.net.empty()) {
		site.fail(EINVAL, "--lnd-timeout needs --net");
		return std::nullopt;
	}
	if (!(net = check_net(site, a.net, false)))
		return std::nullopt;
	if (!check_range(site, "lnd-timeout", *a.lnd_timeout, 0,
			 std::numeric_limits<std::int32_t>::max()))
		return std::nullopt;
	auto param = lnd_timeout_param(*net);
	if (!param) {
		site.fail(EINVAL, "net " + a.net + " has no LND timeout");
		return std::nullopt;
	}
	if (!k.read_param(param->first, param->second)) {
		site.fail(ENOENT, std::string(param->first) + " is not loaded");
		return std::nullopt;
	}
	return param;
}

Outcome net_set(Kernel &k, const NetSetArgs &a)
{
	Outcome o;
	ErrorSite site{ "set", "net", o };

	if (!a.lnd_timeout) {
		if (!a.net.empty()) {
			site.fail(EINVAL, "--net only goes with --lnd-timeout");
			return o;
		}
		return set_health(k, HealthOf::local_ni, a);
	}
	auto target = lnd_timeout_target(k, a, site);
	if (!target)
		return o;
	if (a.health || a.all || !a.nid.empty()) {
		o = set_health(k, HealthOf::local_ni, a);
		if (!o.ok())
			return o;
	}
	try {
		k.write_param(target->first, target->second,
			      std::to_string(*a.lnd_timeout));
	} catch (const KernelError &e) {
		site.fail("cannot set the LND timeout of " + a.net, e);
	}
	return o;
}

Outcome peer_set(Kernel &k, const PeerSetArgs &a)
{
	return set_health(k, HealthOf::peer_ni, a);
}

}  // namespace lnetctl
