// SPDX-License-Identifier: GPL-2.0
//
// lctl: the network verbs admins type on Lustre nodes (and the fault rules
// of net_drop_* / net_delay_*), with the output Lustre's lctl prints, over
// the same /dev/lnet client as lnetctl.
#ifndef LCTL_LCTL_HPP
#define LCTL_LCTL_HPP

#include <ostream>
#include <span>
#include <string>

#include "kernel.hpp"

namespace lctl {

// Runs one command line (without the program name). Returns the exit
// status: 0, 1 for a failed command, 2 for a bad command line.
int run(std::span<const std::string> args, lnetctl::Kernel &k,
	std::ostream &out, std::ostream &err);

}  // namespace lctl

#endif  // LCTL_LCTL_HPP
