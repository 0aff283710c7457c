// SPDX-License-Identifier: GPL-2.0
//
// The global tunables of "lnetctl global show" / "lnetctl set": which module
// parameter holds each one and which values it takes.
#ifndef LNETCTL_TUNABLES_HPP
#define LNETCTL_TUNABLES_HPP

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kernel.hpp"

namespace lnetctl {

struct GlobalTunable {
	std::string_view name;		// lnetctl's name
	std::string_view param;		// lnet module parameter
	bool inverted;			// param holds 1 - value (discovery)
	std::int64_t min;
	std::int64_t max;
	bool settable;			// accepted by "lnetctl set" and import
	std::string_view help;
};

// In "global show" order.
std::span<const GlobalTunable> global_tunables();
const GlobalTunable *find_global_tunable(std::string_view name);

// The value as "global show" prints it, nullopt if the parameter does not
// exist (module not loaded, or the kernel does not have that parameter).
std::optional<std::string> read_global(Kernel &kernel, const GlobalTunable &t);

// "" if @value is acceptable, else the reason.
std::string check_global(const GlobalTunable &t, std::int64_t value);

// Throws KernelError, also for a tunable that is not settable.
void write_global(Kernel &kernel, const GlobalTunable &t, std::int64_t value);

}  // namespace lnetctl

#endif  // LNETCTL_TUNABLES_HPP
