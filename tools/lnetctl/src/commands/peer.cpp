// SPDX-License-Identifier: GPL-2.0
// peer show
#include "commands.hpp"

#include <lnet/nid.hpp>

#include <algorithm>
#include <cerrno>

#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {

Outcome peer_show(Kernel &k, const PeerShowArgs &a)
{
	Outcome o;
	ErrorSite site{ "show", "peer", o };
	std::optional<lnet_nid_t> filter;
	std::vector<PeerInfo> peers;

	if (!a.nid.empty() && !(filter = check_nid(site, a.nid)))
		return o;
	try {
		peers = k.get_peers();
	} catch (const KernelError &e) {
		site.fail("cannot get peers", e);
		return o;
	}
	if (filter) {
		std::erase_if(peers, [&](const PeerInfo &p) {
			return p.primary_nid != *filter &&
			       std::none_of(p.nis.begin(), p.nis.end(),
					    [&](const PeerNiInfo &ni) {
						    return ni.nid == *filter;
					    });
		});
		if (peers.empty()) {
			site.fail(ENOENT, "no peer has NID " +
						  lnet::nid_to_string(*filter));
			return o;
		}
	}
	if (!peers.empty())
		yaml::add(o.out, "peer", render_peers(peers, a.verbose > 0));
	return o;
}

}  // namespace lnetctl
