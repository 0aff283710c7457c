// SPDX-License-Identifier: GPL-2.0
// net set / peer set --health
#include "commands.hpp"

#include <cerrno>

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

Outcome net_set(Kernel &k, const NetSetArgs &a)
{
	return set_health(k, HealthOf::local_ni, a);
}

Outcome peer_set(Kernel &k, const PeerSetArgs &a)
{
	return set_health(k, HealthOf::peer_ni, a);
}

}  // namespace lnetctl
