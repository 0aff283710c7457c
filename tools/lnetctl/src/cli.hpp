// SPDX-License-Identifier: GPL-2.0
//
// The command line: verbs and options (CLI11), and running a verb against a
// Kernel with lnetctl's output conventions (YAML on stdout, YAML errors on
// stderr, exit status 0 / 1 on failed items / 2 on usage errors).
#ifndef LNETCTL_CLI_HPP
#define LNETCTL_CLI_HPP

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <variant>

#include "commands/commands.hpp"
#include "kernel.hpp"
#include "outcome.hpp"

namespace CLI {
class App;
}

namespace lnetctl {

using Command = std::variant<LnetConfigureArgs, LnetUnconfigureArgs, NetAddArgs,
			     NetDelArgs, NetShowArgs, NetSetArgs, PeerAddArgs,
			     PeerDelArgs, PeerShowArgs, PeerSetArgs, RouteAddArgs,
			     RouteDelArgs, RouteShowArgs, RoutingShowArgs,
			     SetRoutingArgs, SetBuffersArgs, PingArgs, DiscoverArgs,
			     StatsShowArgs, StatsResetArgs, GlobalShowArgs, SetArgs,
			     ExportArgs, ImportArgs, FaultAddArgs, FaultDelArgs,
			     FaultResetArgs, FaultShowArgs, DebugRecoveryArgs>;

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_usage = 2;

struct CommandLine {
	std::optional<Command> command;	// set when there is a verb to run
	int exit_code = exit_ok;	// otherwise: 0 (help) or exit_usage
	std::string out;		// help text
	std::string err;		// usage error
};

// The options of "fault drop|delay add" (@drop: of a drop rule) and of
// "fault ... del", which lctl's net_drop_add / net_delay_del... take too.
void add_fault_add_options(CLI::App *add, FaultAddArgs &args, bool drop);
void add_fault_del_options(CLI::App *del, FaultDelArgs &args);

// @args: the arguments after the program name.
CommandLine parse_command_line(std::span<const std::string> args);

Outcome execute(Kernel &kernel, const Command &command);

// Parse, execute, print; returns the exit status.
int run(std::span<const std::string> args, Kernel &kernel, std::ostream &out,
	std::ostream &err);

}  // namespace lnetctl

#endif  // LNETCTL_CLI_HPP
