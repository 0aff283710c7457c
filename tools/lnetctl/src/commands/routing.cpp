// SPDX-License-Identifier: GPL-2.0
// routing show, set routing 0|1, set tiny_buffers|small_buffers|large_buffers
#include "commands.hpp"

#include <array>
#include <cerrno>
#include <limits>
#include <string_view>

#include "../parse.hpp"
#include "../yaml_render.hpp"

namespace lnetctl {

Outcome routing_show(Kernel &k, const RoutingShowArgs &)
{
	Outcome o;
	RoutingInfo routing;

	try {
		routing = k.get_routing();
	} catch (const KernelError &e) {
		o.fail("show", "routing", "cannot get the router buffers", e);
		return o;
	}
	yaml::add(o.out, "routing", render_routing(routing));
	yaml::add(o.out, "buffers", render_buffers(routing));
	return o;
}

Outcome set_routing(Kernel &k, const SetRoutingArgs &a)
{
	Outcome o;
	auto value = parse_int(a.value);

	if (!value || (*value != 0 && *value != 1)) {
		o.fail("add", "routing", EINVAL,
		       "invalid value '" + a.value + "' for routing: 0 or 1");
		return o;
	}
	try {
		k.set_routing(*value == 1);
	} catch (const KernelError &e) {
		o.fail("add", "routing",
		       *value ? "cannot enable forwarding" :
				"cannot disable forwarding", e);
	}
	return o;
}

// The index of @pool in RouterBufferTotals, or -1.
int router_pool_index(std::string_view pool)
{
	static constexpr std::array<std::string_view, 3> names = { "tiny", "small",
								    "large" };

	for (std::size_t i = 0; i < names.size(); i++)
		if (names[i] == pool)
			return static_cast<int>(i);
	return -1;
}

Outcome set_buffers(Kernel &k, const SetBuffersArgs &a)
{
	Outcome o;
	std::string what = a.pool + "_buffers";
	int index = router_pool_index(a.pool);
	auto value = parse_int(a.value);
	RouterBufferTotals totals{};

	if (index < 0) {
		o.fail("add", "buffers", EINVAL, "unknown router buffer pool '" + a.pool + "'");
		return o;
	}
	if (!value || *value < 1 || *value > std::numeric_limits<std::int32_t>::max()) {
		o.fail("add", "buffers", EINVAL,
		       "invalid value '" + a.value + "' for " + what +
			       ": a number of buffers over all CPTs, at least 1");
		return o;
	}
	totals[index] = static_cast<std::int32_t>(*value);
	try {
		k.set_router_buffers(totals);
	} catch (const KernelError &e) {
		o.fail("add", "buffers",
		       "cannot set " + what + " to " + std::to_string(*value), e);
	}
	return o;
}

}  // namespace lnetctl
