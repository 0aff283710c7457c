// SPDX-License-Identifier: GPL-2.0
// lnet-ibpeer: an o2iblnd peer on librdmacm / libibverbs that speaks the
// o2iblnd wire and misbehaves, for tests/scenarios/o2iblnd-hostile.sh.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char **argv)
{
	const std::vector<std::string> args(argv + 1, argv + argc);
	if (args.empty() || args[0] == "-h" || args[0] == "--help") {
		std::cout << ibpeer::usage();
		return args.empty() ? 2 : 0;
	}
	const auto parsed = ibpeer::parse_args(args);
	if (!parsed.command) {
		std::cerr << "lnet-ibpeer: " << parsed.error << "\n\n" << ibpeer::usage();
		return 2;
	}
	try {
		return ibpeer::run(*parsed.command, std::cout);
	} catch (const std::exception &e) {
		std::cout << "not ok lnet-ibpeer ran # " << e.what() << std::endl;
		std::cerr << "lnet-ibpeer: " << e.what() << "\n";
		return 1;
	}
}
