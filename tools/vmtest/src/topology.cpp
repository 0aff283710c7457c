// SPDX-License-Identifier: GPL-2.0
#include "topology.hpp"

#include "text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

namespace vmtest {
namespace {

std::string hex2(int v)
{
	std::array<char, 3> buf{};
	std::snprintf(buf.data(), buf.size(), "%02x", v & 0xff);
	return buf.data();
}

std::string join(const std::vector<std::string> &words)
{
	std::string out;
	for (const auto &w : words) {
		if (!out.empty())
			out += ' ';
		out += w;
	}
	return out;
}

} // namespace

Link parse_link(std::string_view spec, int guests)
{
	auto bad = [&](const std::string &why) {
		return std::invalid_argument("--link " + std::string(spec) + ": " + why);
	};
	auto dash = spec.find('-');
	if (dash == std::string_view::npos)
		throw bad("expected A-B (two guest indexes)");
	auto a = parse_long(spec.substr(0, dash));
	auto b = parse_long(spec.substr(dash + 1));
	if (!a || !b)
		throw bad("expected A-B (two guest indexes)");
	if (*a < 0 || *a >= guests || *b < 0 || *b >= guests)
		throw bad("guest index out of range 0.." + std::to_string(guests - 1));
	if (*a == *b)
		throw bad("a guest cannot link to itself");
	int lo = static_cast<int>(std::min(*a, *b));
	int hi = static_cast<int>(std::max(*a, *b));
	return Link{lo, hi};
}

std::vector<Link> default_links(int guests)
{
	std::vector<Link> links;
	for (int i = 0; i + 1 < guests; i++)
		links.push_back({i, i + 1});
	return links;
}

std::string link_network(int link)
{
	switch (link) {
	case 0:
		return "192.0.2";
	case 1:
		return "198.51.100";
	case 2:
		return "203.0.113";
	default:
		return "10.99." + std::to_string(link);
	}
}

std::vector<GuestPlan> plan_guests(int guests, std::span<const Link> links)
{
	std::vector<GuestPlan> plans(static_cast<size_t>(guests));
	for (int i = 0; i < guests; i++)
		plans[static_cast<size_t>(i)].index = i;
	for (size_t k = 0; k < links.size(); k++) {
		const int link = static_cast<int>(k);
		const auto net = link_network(link);
		const int ends[2] = {links[k].a, links[k].b};
		for (int side = 0; side < 2; side++) {
			const int self = ends[side], other = ends[1 - side];
			auto &plan = plans[static_cast<size_t>(self)];
			plan.nics.push_back(Nic{
				.link = link,
				.ifname = "eth" + std::to_string(plan.nics.size()),
				.address = net + "." + std::to_string(self + 1),
				.mac = "52:54:00:00:" + hex2(link) + ":" + hex2(self),
				.listens = side == 0,
			});
			plan.peers.push_back(Peer{other, net + "." + std::to_string(other + 1)});
		}
	}
	return plans;
}

std::string shell_quote(std::string_view s)
{
	std::string out = "'";
	for (char c : s) {
		if (c == '\'')
			out += "'\\''";
		else
			out += c;
	}
	return out + "'";
}

std::string render_env(const GuestPlan &guest, const RunEnv &run)
{
	std::vector<std::string> addrs, peers;
	for (const auto &nic : guest.nics)
		addrs.push_back(nic.ifname + "=" + nic.address + "/24");
	for (const auto &peer : guest.peers)
		peers.push_back("g" + std::to_string(peer.guest) + "=" + peer.address);
	std::vector<std::string> args(run.args.begin(), run.args.end());

	const std::pair<std::string_view, std::string> vars[] = {
		{"GUEST_INDEX", std::to_string(guest.index)},
		{"GUEST_NAME", guest.name()},
		{"GUEST_COUNT", std::to_string(run.guest_count)},
		{"GUEST_ADDRS", join(addrs)},
		{"GUEST_PEERS", join(peers)},
		{"GUEST_SCRIPT", run.script.string()},
		{"GUEST_ARGS", join(args)},
		{"GUEST_KERNEL", std::string(run.kernel)},
		{"LNET_TOP", run.top.string()},
		{"LNET_MODDIR", run.moddir.string()},
		{"GUEST_CONTROL", std::string(run.control)},
		{"LNET_CACHE", run.cache.string()},
	};
	std::string out = "# Written by lnet-vmtest for " + guest.name() + "; sourced by its init.\n";
	for (const auto &[name, value] : vars)
		out += std::string(name) + "=" + shell_quote(value) + "\n";
	for (const auto &kv : run.extra_env) {
		const auto eq = kv.find('=');
		out += kv.substr(0, eq) + "=" + shell_quote(kv.substr(eq + 1)) + "\n";
	}
	return out;
}

std::string render_host_paths(std::span<const std::filesystem::path> paths)
{
	auto inside = [](const std::filesystem::path &p, const std::filesystem::path &dir) {
		auto [d, q] = std::mismatch(dir.begin(), dir.end(), p.begin(), p.end());
		return d == dir.end();
	};
	auto normal = [](const std::filesystem::path &p) {
		auto n = p.lexically_normal();
		return n.has_filename() || n == n.root_path() ? n : n.parent_path();
	};
	std::string out;
	for (std::size_t i = 0; i < paths.size(); i++) {
		const auto p = normal(paths[i]);
		bool covered = false;
		for (std::size_t j = 0; j < paths.size() && !covered; j++) {
			const auto o = normal(paths[j]);
			// of two equal paths the first one stays
			covered = j != i && inside(p, o) && (p != o || j < i);
		}
		if (!covered)
			out += p.string() + "\n";
	}
	return out;
}

} // namespace vmtest
