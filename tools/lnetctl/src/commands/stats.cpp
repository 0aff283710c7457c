// SPDX-License-Identifier: GPL-2.0
// stats show / reset
#include "commands.hpp"

#include "../yaml_render.hpp"

namespace lnetctl {

Outcome stats_show(Kernel &k, const StatsShowArgs &)
{
	Outcome o;

	try {
		yaml::add(o.out, "statistics", render_counters(k.get_stats()));
	} catch (const KernelError &e) {
		o.fail("show", "statistics", "cannot get statistics", e);
	}
	return o;
}

Outcome stats_reset(Kernel &k, const StatsResetArgs &)
{
	Outcome o;

	try {
		k.reset_stats();
	} catch (const KernelError &e) {
		o.fail("reset", "statistics", "cannot reset statistics", e);
	}
	return o;
}

}  // namespace lnetctl
