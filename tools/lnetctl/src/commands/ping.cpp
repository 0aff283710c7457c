// SPDX-License-Identifier: GPL-2.0
// ping
#include "commands.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <cerrno>

#include "../parse.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {

Outcome ping(Kernel &k, const PingArgs &a)
{
	Outcome o;
	ErrorSite site{ "manage", "ping", o };
	constexpr std::int64_t max_timeout = LNET_IOCTL_PING_TIMEOUT_MAX_MS / 1000;
	std::int64_t timeout = a.timeout.value_or(default_ping_timeout);
	PingRequest req;
	yaml::Seq replies;
	std::vector<std::string> targets;

	if (!check_range(site, "timeout", timeout, 1, max_timeout))
		return o;
	req.timeout_ms = static_cast<std::int32_t>(timeout * 1000);
	if (!a.source.empty()) {
		auto src = check_nid(site, a.source);

		if (!src)
			return o;
		req.source = *src;
	}
	for (const auto &arg : a.targets)
		for (auto &word : split_list(arg))
			targets.push_back(std::move(word));
	if (targets.empty()) {
		site.fail(EINVAL, "no NID to ping");
		return o;
	}
	for (const auto &t : targets) {
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
	if (!replies.empty())
		yaml::add(o.out, "ping", yaml::seq(std::move(replies)));
	return o;
}

}  // namespace lnetctl
