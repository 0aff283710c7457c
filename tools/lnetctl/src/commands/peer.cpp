// SPDX-License-Identifier: GPL-2.0
// peer add, peer del, peer show
#include "commands.hpp"

#include <lnet/nid.hpp>

#include <algorithm>
#include <cerrno>

#include "../parse.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {

Outcome peer_add(Kernel &k, const PeerAddArgs &a)
{
	Outcome o;
	ErrorSite site{ "add", "peer", o };
	auto primary = check_nid(site, a.prim_nid);
	auto nids = primary ? check_nid_list(site, a.nids) : std::nullopt;
	auto peer = nids ? check_peer_nids(site,
					   PeerConfig{ .primary = *primary,
						       .non_mr = a.non_mr,
						       .lock_prim = a.lock_prim },
					   *nids) :
			   std::nullopt;

	if (peer)
		add_peer_nids(k, site, *peer, false);
	return o;
}

namespace {

// What DEL_PEER_NI's errno means where the errno alone does not say it.
std::string_view peer_del_hint(int err, bool whole)
{
	switch (err) {
	case EPERM:
		return whole ? "its primary NID is locked (--lock_prim): use --force" :
			       "";
	case EBUSY:
		return "messages wait for its credits or its discovery";
	case ENOENT:
		return whole ? "no peer has that primary NID" :
			       "no peer has that primary NID, or the peer has no such NID";
	default:
		return "";
	}
}

}  // namespace

// Without --nid, or with the primary among its NIDs, the whole peer;
// else each NID leaves it.
Outcome peer_del(Kernel &k, const PeerDelArgs &a)
{
	Outcome o;
	ErrorSite site{ "del", "peer", o };
	auto primary = check_nid(site, a.prim_nid);
	auto nids = primary ? check_nid_list(site, a.nids) : std::nullopt;

	if (!nids)
		return o;
	std::string prim = lnet::nid_to_string(*primary);

	if (nids->empty() ||
	    std::find(nids->begin(), nids->end(), *primary) != nids->end()) {
		try {
			k.del_peer(PeerConfig{ .primary = *primary, .force = a.force });
		} catch (const KernelError &e) {
			site.fail("cannot delete peer " + prim, e,
				  peer_del_hint(e.error(), true));
		}
		return o;
	}
	for (lnet_nid_t nid : *nids) {
		try {
			k.del_peer(PeerConfig{ .primary = *primary, .nid = nid,
					       .force = a.force });
		} catch (const KernelError &e) {
			site.fail("cannot delete NID " + lnet::nid_to_string(nid) +
					  " of peer " + prim,
				  e, peer_del_hint(e.error(), false));
		}
	}
	return o;
}

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
