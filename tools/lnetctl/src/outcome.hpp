// SPDX-License-Identifier: GPL-2.0
//
// What a command produced: the YAML document for stdout and the failed
// items for stderr. Any failed item makes the exit status non-zero.
#ifndef LNETCTL_OUTCOME_HPP
#define LNETCTL_OUTCOME_HPP

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel.hpp"
#include "yaml_out.hpp"

namespace lnetctl {

// Printed as
//   <command>:
//       - <entity>:
//             errno: -<err>
//             descr: <descr>
struct ErrorItem {
	std::string command;	// "add", "del", "show", "manage", ...
	std::string entity;	// "net", "route", "ping", a tunable name, ...
	int err = 0;		// positive errno
	std::string descr;

	bool operator==(const ErrorItem &) const = default;
};

struct Outcome {
	yaml::Map out;
	yaml::Layout layout = yaml::Layout::show;	// of @out
	std::vector<ErrorItem> errors;

	void fail(std::string_view command, std::string_view entity, int err,
		  std::string descr);
	// "<context>: <kernel message>", or the kernel message alone when it
	// names its own context (e.g. /dev/lnet cannot be opened).
	void fail(std::string_view command, std::string_view entity,
		  std::string_view context, const KernelError &e);
	bool ok() const noexcept { return errors.empty(); }
	int exit_code() const noexcept { return ok() ? 0 : 1; }
};

// Errors grouped by command in order of first appearance.
yaml::Map render_errors(std::span<const ErrorItem> errors);

}  // namespace lnetctl

#endif  // LNETCTL_OUTCOME_HPP
