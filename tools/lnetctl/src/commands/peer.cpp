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

// The primary NID, after checking that --nid names no other NID: a peer
// of several NIDs is Multi-Rail, which this LNet cannot configure yet.
static std::optional<lnet_nid_t> peer_primary(const ErrorSite &site,
					      std::string_view prim_text,
					      std::string_view nids)
{
	std::optional<lnet_nid_t> primary = check_nid(site, prim_text);

	if (!primary || nids.empty())
		return primary;
	for (const auto &word : split_list(nids)) {
		std::optional<lnet_nid_t> nid = check_nid(site, word);

		if (!nid)
			return std::nullopt;
		if (*nid != *primary) {
			site.fail(EOPNOTSUPP, "peer " + std::string(prim_text) +
						      ": a second NID (" + word +
						      ") makes a Multi-Rail peer, which this LNet cannot configure yet");
			return std::nullopt;
		}
	}
	return primary;
}

Outcome peer_add(Kernel &k, const PeerAddArgs &a)
{
	Outcome o;
	ErrorSite site{ "add", "peer", o };
	auto primary = peer_primary(site, a.prim_nid, a.nids);

	if (!primary)
		return o;
	try {
		k.add_peer(PeerAdd{ .primary = *primary,
				    .non_mr = a.non_mr,
				    .lock_prim = a.lock_prim });
	} catch (const KernelError &e) {
		if (e.error() == EHOSTUNREACH)
			site.fail(EHOSTUNREACH,
				  "cannot add peer " + a.prim_nid +
					  ": no local NI on its net (a node behind a router is reached through its gateway's peer)");
		else
			site.fail("cannot add peer " + a.prim_nid, e);
	}
	return o;
}

Outcome peer_del(Kernel &k, const PeerDelArgs &a)
{
	Outcome o;
	ErrorSite site{ "del", "peer", o };
	auto primary = peer_primary(site, a.prim_nid, a.nids);

	if (!primary)
		return o;
	try {
		k.del_peer(*primary);
	} catch (const KernelError &e) {
		site.fail("cannot delete peer " + a.prim_nid, e);
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
