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

// --nid NID or --all: @nid is set to the NID, or to nullopt for all.
static bool check_which(const ErrorSite &site, const HealthSetArgs &a,
			std::optional<lnet_nid_t> &nid)
{
	if (a.all == !a.nid.empty()) {
		site.fail(EINVAL, "give --nid or --all (one of them)");
		return false;
	}
	nid.reset();
	if (a.all)
		return true;
	nid = check_nid(site, a.nid);
	return nid.has_value();
}

static bool check_health(const ErrorSite &site, const HealthSetArgs &a)
{
	if (!a.health) {
		site.fail(EINVAL, "nothing to set: give --health");
		return false;
	}
	return check_range(site, "health", *a.health, 0, 1000).has_value();
}

static std::string of_which(std::string_view what, const HealthSetArgs &a)
{
	return a.all ? std::string(what) : "the " + std::string(what) + " of " + a.nid;
}

static Outcome set_health(Kernel &k, HealthOf what, const HealthSetArgs &a)
{
	Outcome o;
	std::string_view entity = what == HealthOf::local_ni ? "net" : "peer";
	ErrorSite site{ "set", entity, o };
	std::optional<lnet_nid_t> nid;

	if (!check_health(site, a) || !check_which(site, a, nid))
		return o;
	try {
		k.set_health(what, nid, static_cast<std::int32_t>(*a.health));
	} catch (const KernelError &e) {
		site.fail("cannot set " + of_which("health", a), e);
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

// net set: --health and --conns-per-peer of the NI --nid (or of every NI,
// --all), --lnd-timeout of the LND of --net. Everything is checked before
// anything is set.
Outcome net_set(Kernel &k, const NetSetArgs &a)
{
	Outcome o;
	ErrorSite site{ "set", "net", o };
	std::optional<std::pair<std::string_view, std::string_view>> target;
	std::optional<lnet_nid_t> nid;
	bool per_ni = a.health || a.conns_per_peer;

	if (!a.lnd_timeout && !a.net.empty()) {
		site.fail(EINVAL, "--net only goes with --lnd-timeout");
		return o;
	}
	if (!per_ni && !a.lnd_timeout) {
		site.fail(EINVAL, "nothing to set: give --health, --conns-per-peer or --lnd-timeout");
		return o;
	}
	if (!per_ni && (a.all || !a.nid.empty())) {
		site.fail(EINVAL, "--nid and --all go with --health or --conns-per-peer");
		return o;
	}
	if (per_ni && !check_which(site, a, nid))
		return o;
	if (a.health && !check_health(site, a))
		return o;
	if (a.conns_per_peer &&
	    !check_range(site, "conns-per-peer", *a.conns_per_peer, 0,
			 max_conns_per_peer))
		return o;
	if (a.lnd_timeout && !(target = lnd_timeout_target(k, a, site)))
		return o;

	std::string what;
	try {
		if (a.health) {
			what = of_which("health", a);
			k.set_health(HealthOf::local_ni, nid,
				     static_cast<std::int32_t>(*a.health));
		}
		if (a.conns_per_peer) {
			what = of_which("connections per peer", a);
			k.set_conns_per_peer(nid, static_cast<std::uint32_t>(*a.conns_per_peer));
		}
		if (target) {
			what = "the LND timeout of " + a.net;
			k.write_param(target->first, target->second,
				      std::to_string(*a.lnd_timeout));
		}
	} catch (const KernelError &e) {
		if (e.error() == EOPNOTSUPP && a.conns_per_peer && !a.all)
			site.fail(EOPNOTSUPP, "cannot set " + what +
						      ": its LND has one connection per peer");
		else
			site.fail("cannot set " + what, e);
	}
	return o;
}

Outcome peer_set(Kernel &k, const PeerSetArgs &a)
{
	return set_health(k, HealthOf::peer_ni, a);
}

}  // namespace lnetctl
