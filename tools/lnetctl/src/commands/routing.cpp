// SPDX-License-Identifier: GPL-2.0
// routing show, set routing 0|1
#include "commands.hpp"

#include <cerrno>

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

}  // namespace lnetctl
