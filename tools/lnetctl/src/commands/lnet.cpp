// SPDX-License-Identifier: GPL-2.0
// lnet configure / unconfigure
#include "commands.hpp"

namespace lnetctl {

Outcome lnet_configure(Kernel &k, const LnetConfigureArgs &a)
{
	Outcome o;

	try {
		k.configure(a.all, a.large);
	} catch (const KernelError &e) {
		o.fail("configure", "lnet", "LNet configure error", e);
	}
	return o;
}

Outcome lnet_unconfigure(Kernel &k, const LnetUnconfigureArgs &)
{
	Outcome o;

	try {
		k.unconfigure();
	} catch (const KernelError &e) {
		o.fail("unconfigure", "lnet", "LNet unconfigure error", e);
	}
	return o;
}

}  // namespace lnetctl
