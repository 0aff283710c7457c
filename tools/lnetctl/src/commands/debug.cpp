// SPDX-License-Identifier: GPL-2.0
// debug recovery
#include "commands.hpp"

#include <cerrno>

#include "../yaml_render.hpp"

namespace lnetctl {

Outcome debug_recovery(Kernel &k, const DebugRecoveryArgs &a)
{
	Outcome o;
	std::string_view heading = a.local ? "local NI recovery" :
					     "peer NI recovery";
	RecoveryQueue queue;

	if (a.local == a.peer) {
		o.fail("show", "recovery", EINVAL, std::string(debug_recovery_choice));
		return o;
	}
	try {
		queue = k.get_recovery_queue(a.local ? HealthOf::local_ni :
						       HealthOf::peer_ni);
	} catch (const KernelError &e) {
		o.fail("show", heading,
		       "cannot get the " + std::string(heading) + " queue", e);
		return o;
	}
	yaml::add(o.out, std::string(heading), render_recovery_queue(queue));
	return o;
}

}  // namespace lnetctl
