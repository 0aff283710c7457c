// SPDX-License-Identifier: GPL-2.0
// global show, set <tunable> <value>
#include "commands.hpp"

#include <cerrno>

#include "../parse.hpp"
#include "../tunables.hpp"

namespace lnetctl {

Outcome global_show(Kernel &k, const GlobalShowArgs &)
{
	Outcome o;
	yaml::Map values;

	for (const auto &t : global_tunables()) {
		std::optional<std::string> v;

		try {
			v = read_global(k, t);
		} catch (const KernelError &e) {
			o.fail("show", "global", "cannot read " + std::string(t.name), e);
			continue;
		}
		if (!v)
			continue;
		if (auto n = parse_int(*v))
			yaml::add(values, std::string(t.name), yaml::num(*n));
		else
			yaml::add(values, std::string(t.name), yaml::str(*v));
	}
	if (values.empty() && o.ok()) {
		o.fail("show", "global", ENOENT,
		       "no LNet module parameters found under "
		       "/sys/module/lnet/parameters (is lnet.ko loaded?)");
		return o;
	}
	if (!values.empty())
		yaml::add(o.out, "global", yaml::map(std::move(values)));
	return o;
}

Outcome set_tunable(Kernel &k, const SetArgs &a)
{
	Outcome o;
	const GlobalTunable *t = find_global_tunable(a.name);
	std::optional<std::int64_t> value;

	if (!t || !t->settable) {
		o.fail("add", a.name, EINVAL, "unknown tunable '" + a.name + "'");
		return o;
	}
	value = parse_int(a.value);
	if (!value) {
		o.fail("add", a.name, EINVAL,
		       "invalid value '" + a.value + "' for " + a.name +
			       ": an integer is required");
		return o;
	}
	if (auto reason = check_global(*t, *value); !reason.empty()) {
		o.fail("add", a.name, EINVAL, reason);
		return o;
	}
	try {
		write_global(k, *t, *value);
	} catch (const KernelError &e) {
		o.fail("add", a.name, "cannot set " + a.name + " to " + a.value, e);
	}
	return o;
}

}  // namespace lnetctl
