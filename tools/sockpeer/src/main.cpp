// SPDX-License-Identifier: GPL-2.0
// lnet-sockpeer: socklnd test peers (peer, server) and a fuzzer for the
// guest scenarios.
#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char **argv)
{
	const std::vector<std::string> args(argv + 1, argv + argc);
	const auto parsed = sockpeer::parse_args(args);

	std::signal(SIGPIPE, SIG_IGN);
	if (!parsed.command) {
		std::cerr << "lnet-sockpeer: " << parsed.error << "\n\n" << sockpeer::usage();
		return 2;
	}
	try {
		return sockpeer::run(*parsed.command, std::cout, std::cerr);
	} catch (const std::exception &e) {
		std::cerr << "lnet-sockpeer: " << e.what() << "\n";
		return 1;
	}
}
