// SPDX-License-Identifier: GPL-2.0
// Guests, the virtual links between them, their addresses and the env file
// each guest's init sources (Documentation/testing.md, "Links" and "Guest
// protocol").
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmtest {

inline constexpr int max_guests = 253; // guest i is .(i+1) on a /24
inline constexpr int max_links = 256;  // link k is one MAC byte

// A link between two guests; a < b, guest a listens, guest b connects.
struct Link {
	int a = 0;
	int b = 0;
	bool operator==(const Link &) const = default;
};

// "A-B" with 0 <= A, B < guests and A != B; the lower index listens.
// Throws std::invalid_argument with a message for the user.
Link parse_link(std::string_view spec, int guests);

// The chain 0-1 1-2 ... used when no --link is given.
std::vector<Link> default_links(int guests);

// "192.0.2" for link 0, "198.51.100", "203.0.113", then "10.99.<k>".
std::string link_network(int link);

struct Nic {
	int link = 0;
	std::string ifname{};  // eth<n>, n counting this guest's links in order
	std::string address{}; // without the prefix length
	std::string mac{};
	bool listens = false; // guest is side A of the link
};

struct Peer {
	int guest = 0;
	std::string address{};
};

struct GuestPlan {
	int index = 0;
	std::vector<Nic> nics{};
	std::vector<Peer> peers{};
	std::string name() const { return "g" + std::to_string(index); }
};

std::vector<GuestPlan> plan_guests(int guests, std::span<const Link> links);

// Everything RUN/g<i>/env says besides the guest's own plan.
struct RunEnv {
	int guest_count = 0;
	std::filesystem::path script{};
	std::span<const std::string> args{};
	std::string_view kernel{}; // "stock" or "debug"
	std::filesystem::path top{};
	std::filesystem::path moddir{};
	std::string_view control{}; // the guest's control channel device
	std::filesystem::path cache{}; // LNET_CACHE: debug kernel, reference node builds
	std::span<const std::string> extra_env{}; // "NAME=VALUE" from --env
};

// A POSIX shell word that stands for s literally: 'it'\''s'.
std::string shell_quote(std::string_view s);

// The env file: one NAME='value' line per variable.
std::string render_env(const GuestPlan &guest, const RunEnv &run);

// The host directories the guest must see at their own paths although its
// init mounts a tmpfs over /tmp, /root and the like: the work tree, the
// shared directory beside it, the cache, the script's directory and any
// --share, without one that another already contains. One path a line
// (RUN/g<i>/host-paths; Documentation/testing.md, "Guest protocol").
std::string render_host_paths(std::span<const std::filesystem::path> paths);

} // namespace vmtest
