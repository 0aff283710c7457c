// SPDX-License-Identifier: GPL-2.0
#include "common.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <algorithm>
#include <cerrno>

#include "../parse.hpp"

namespace lnetctl {

std::optional<std::uint32_t> check_net(const ErrorSite &site,
				       std::string_view text, bool allow_lo)
{
	auto net = lnet::parse_net(text);

	if (text.empty()) {
		site.fail(EINVAL, "no network given");
		return std::nullopt;
	}
	if (!net || *net == LNET_NET_ANY) {
		site.fail(EINVAL, "invalid network '" + std::string(text) + "'");
		return std::nullopt;
	}
	if (!allow_lo && LNET_NETTYP(*net) == LNET_LND_LO) {
		site.fail(EINVAL, "the loopback network 'lo' cannot be used here");
		return std::nullopt;
	}
	return net;
}

std::optional<lnet_nid_t> check_nid(const ErrorSite &site, std::string_view text)
{
	auto nid = lnet::parse_nid(text);

	if (!nid || *nid == LNET_NID_ANY) {
		site.fail(EINVAL, "invalid NID '" + std::string(text) + "'");
		return std::nullopt;
	}
	return nid;
}

std::optional<std::vector<lnet_nid_t>> check_nid_list(const ErrorSite &site,
						      std::string_view text)
{
	std::vector<lnet_nid_t> nids;

	if (text.empty())
		return nids;
	for (const auto &word : split_list(text)) {
		auto nid = check_nid(site, word);

		if (!nid)
			return std::nullopt;
		if (std::find(nids.begin(), nids.end(), *nid) == nids.end())
			nids.push_back(*nid);
	}
	return nids;
}

std::optional<PeerNids> check_peer_nids(const ErrorSite &site,
					PeerConfig peer,
					std::span<const lnet_nid_t> nids)
{
	PeerNids p{ peer, {} };
	std::string prim = lnet::nid_to_string(peer.primary);

	p.peer.nid = LNET_NID_ANY;
	for (lnet_nid_t nid : nids)
		if (nid != peer.primary &&
		    std::find(p.nids.begin(), p.nids.end(), nid) == p.nids.end())
			p.nids.push_back(nid);
	if (peer.non_mr && !p.nids.empty()) {
		site.fail(EINVAL, "peer " + prim + " is not Multi-Rail (--non_mr): " +
					  "it has one NID, its primary, so " +
					  lnet::nid_to_string(p.nids[0]) +
					  " cannot join it");
		return std::nullopt;
	}
	if (1 + p.nids.size() > LNET_IOCTL_PEER_MAX_NIDS) {
		site.fail(EINVAL, "peer " + prim + ": " +
					  std::to_string(1 + p.nids.size()) +
					  " NIDs given, a peer has at most " +
					  std::to_string(LNET_IOCTL_PEER_MAX_NIDS));
		return std::nullopt;
	}
	return p;
}

namespace {

// What ADD_PEER_NI's errno means where the errno alone does not say it
// (@joining: a NID joining the peer, else the peer itself).
std::string peer_add_hint(int err, bool joining)
{
	switch (err) {
	case EINVAL:
		return joining ? "the peer is not Multi-Rail, or the NID is this "
				 "node's or another peer's" :
				 "a NID of this node, or of another peer";
	case ENOENT:
		return joining ? "no configured peer has that primary NID" : "";
	case ENOSPC:
		return "a peer has at most " +
		       std::to_string(LNET_IOCTL_PEER_MAX_NIDS) + " NIDs";
	default:
		return "";
	}
}

}  // namespace

void add_peer_nids(Kernel &k, const ErrorSite &site, const PeerNids &p,
		   bool import)
{
	std::string prim = lnet::nid_to_string(p.peer.primary);

	try {
		k.add_peer(p.peer);
	} catch (const KernelError &e) {
		if (e.error() == EHOSTUNREACH) {
			if (!import)
				site.fail(EHOSTUNREACH,
					  "cannot add peer " + prim +
						  ": no local NI on its net (a node behind a router is reached through its gateway's peer)");
			return;
		}
		// configured already: the NIDs that follow join it
		if (e.error() != EEXIST || (!import && p.nids.empty())) {
			site.fail("cannot add peer " + prim, e,
				  peer_add_hint(e.error(), false));
			return;
		}
	}
	for (lnet_nid_t nid : p.nids) {
		try {
			k.add_peer(PeerConfig{ .primary = p.peer.primary, .nid = nid });
		} catch (const KernelError &e) {
			if (!import || e.error() != EEXIST)
				site.fail("cannot add NID " + lnet::nid_to_string(nid) +
						  " to peer " + prim,
					  e, peer_add_hint(e.error(), true));
		}
	}
}

std::optional<std::int64_t> check_range(const ErrorSite &site,
					std::string_view name, std::int64_t value,
					std::int64_t lo, std::int64_t hi)
{
	if (value < lo || value > hi) {
		site.fail(EINVAL, std::string(name) + " " + std::to_string(value) +
					  " is out of range " + std::to_string(lo) +
					  ".." + std::to_string(hi));
		return std::nullopt;
	}
	return value;
}

bool check_interface(const ErrorSite &site, std::string_view name)
{
	if (name.empty() || name.size() > lnet::max_interface_name ||
	    name.find_first_of("/: \t") != std::string_view::npos) {
		site.fail(EINVAL, "invalid interface name '" + std::string(name) + "'");
		return false;
	}
	return true;
}

std::optional<std::vector<std::uint32_t>> check_cpts(const ErrorSite &site,
						     std::string_view text)
{
	auto cpts = parse_cpt_list(text);

	if (!cpts || cpts->size() > LNET_IOCTL_MAX_CPTS) {
		site.fail(EINVAL, "invalid CPT list '" + std::string(text) + "'");
		return std::nullopt;
	}
	return cpts;
}

std::string describe_ni(const NiConfig &ni)
{
	std::string net = lnet::net_to_string(LNET_NIDNET(ni.nid));

	if (!ni.ip2net.empty())
		return "ip2net '" + ni.ip2net + "'";
	if (!ni.interface.empty())
		return net + " on " + ni.interface;
	return net + " NID " + lnet::nid_to_string(ni.nid);
}

}  // namespace lnetctl
