// SPDX-License-Identifier: GPL-2.0
//
// Checks shared by the verbs and by import: each returns the value, or
// records an EINVAL error item naming the bad text and returns nullopt;
// and configuring a peer, which peer add and import share.
#ifndef LNETCTL_COMMANDS_COMMON_HPP
#define LNETCTL_COMMANDS_COMMON_HPP

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../kernel.hpp"
#include "../outcome.hpp"

namespace lnetctl {

// Where an error item goes: "<command>: - <entity>: ...".
struct ErrorSite {
	std::string_view command;
	std::string_view entity;
	Outcome &outcome;

	void fail(int err, std::string descr) const
	{
		outcome.fail(command, entity, err, std::move(descr));
	}
	void fail(std::string_view context, const KernelError &e) const
	{
		outcome.fail(command, entity, context, e);
	}
	// As above, with "(<hint>)" after the kernel's message unless @hint
	// is empty.
	void fail(std::string_view context, const KernelError &e,
		  std::string_view hint) const
	{
		if (hint.empty() || e.standalone()) {
			fail(context, e);
			return;
		}
		fail(e.error(), std::string(context) + ": " + e.what() + " (" +
					std::string(hint) + ")");
	}
};

// A net; @allow_lo false rejects "lo".
std::optional<std::uint32_t> check_net(const ErrorSite &site,
				       std::string_view text, bool allow_lo);
// A NID of a real NI (not <?>).
std::optional<lnet_nid_t> check_nid(const ErrorSite &site, std::string_view text);
// @name must be within [lo, hi].
std::optional<std::int64_t> check_range(const ErrorSite &site,
					std::string_view name, std::int64_t value,
					std::int64_t lo, std::int64_t hi);
// An interface name (1..15 characters, no '/', blanks or ':').
bool check_interface(const ErrorSite &site, std::string_view name);
std::optional<std::vector<std::uint32_t>> check_cpts(const ErrorSite &site,
						     std::string_view text);

// "a,b,...": each NID once, in the order given.
std::optional<std::vector<lnet_nid_t>> check_nid_list(const ErrorSite &site,
						      std::string_view text);

// A peer to configure: the peer itself (nid LNET_NID_ANY, with peer add's
// flags) and its other NIDs, each once.
struct PeerNids {
	PeerConfig peer;
	std::vector<lnet_nid_t> nids;

	bool operator==(const PeerNids &) const = default;
};

// @primary and @nids (which may hold the primary) as a PeerNids, if LNet
// can keep that peer: at most LNET_IOCTL_PEER_MAX_NIDS NIDs, and a
// --non_mr peer only its primary.
std::optional<PeerNids> check_peer_nids(const ErrorSite &site,
					PeerConfig peer,
					std::span<const lnet_nid_t> nids);

// peer add of the peer, then of each of its other NIDs. The peer being
// configured already is no error when NIDs follow (they join it). For
// import (@import): nor is any EEXIST, and a peer on a net with no local
// NI is skipped (nothing to configure here).
void add_peer_nids(Kernel &k, const ErrorSite &site, const PeerNids &p,
		   bool import);

// Route fields: hop -1 or 1..255, priority and sensitivity >= 0.
inline constexpr std::int64_t max_hop = 255;

// "tcp on eth0", "tcp1 NID 192.0.2.1@tcp1"
std::string describe_ni(const NiConfig &ni);

}  // namespace lnetctl

#endif  // LNETCTL_COMMANDS_COMMON_HPP
