// SPDX-License-Identifier: GPL-2.0
// ping, discover
#include "commands.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <cerrno>
#include <span>

#include "../parse.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {
namespace {

// The words of @args, each of which may be a comma-separated list; an
// error item if there are none.
std::vector<std::string> targets_of(const ErrorSite &site,
				    std::span<const std::string> args,
				    std::string_view verb)
{
	std::vector<std::string> targets;

	for (const auto &arg : args)
		for (auto &word : split_list(arg))
			targets.push_back(std::move(word));
	if (targets.empty())
		site.fail(EINVAL, "no NID to " + std::string(verb));
	return targets;
}

// The replies under @key ("ping:", "discover:"), one item each.
void add_replies(Outcome &o, const std::string &key, yaml::Seq replies)
{
	if (!replies.empty())
		yaml::add(o.out, key, yaml::seq(std::move(replies)));
}

}  // namespace

Outcome ping(Kernel &k, const PingArgs &a)
{
	Outcome o;
	ErrorSite site{ "manage", "ping", o };
	constexpr std::int64_t max_timeout = LNET_IOCTL_PING_TIMEOUT_MAX_MS / 1000;
	std::int64_t timeout = a.timeout.value_or(default_ping_timeout);
	PingRequest req;
	yaml::Seq replies;

	if (!check_range(site, "timeout", timeout, 1, max_timeout))
		return o;
	req.timeout_ms = static_cast<std::int32_t>(timeout * 1000);
	if (!a.source.empty()) {
		auto src = check_nid(site, a.source);

		if (!src)
			return o;
		req.source = *src;
	}
	for (const auto &t : targets_of(site, a.targets, "ping")) {
		auto id = lnet::parse_process_id(t);

		if (!id || id->nid == LNET_NID_ANY) {
			site.fail(EINVAL, "invalid NID '" + t + "'");
			continue;
		}
		req.target = *id;
		try {
			replies.push_back(render_ping(k.ping(req)));
		} catch (const KernelError &e) {
			site.fail("failed to ping " + t, e);
		}
	}
	add_replies(o, "ping", std::move(replies));
	return o;
}

// One DISCOVER per NID; each reply in ping's shape (the peer's primary
// NID, Multi-Rail, its NIDs).
Outcome discover(Kernel &k, const DiscoverArgs &a)
{
	Outcome o;
	ErrorSite site{ "manage", "discover", o };
	yaml::Seq replies;

	for (const auto &t : targets_of(site, a.targets, "discover")) {
		auto nid = check_nid(site, t);

		if (!nid)
			continue;
		try {
			replies.push_back(render_ping(k.discover(*nid, a.force)));
		} catch (const KernelError &e) {
			site.fail("failed to discover " + t, e);
		}
	}
	add_replies(o, "discover", std::move(replies));
	return o;
}

}  // namespace lnetctl
