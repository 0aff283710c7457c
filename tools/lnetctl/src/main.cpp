// SPDX-License-Identifier: GPL-2.0
// lnetctl: configure and inspect LNet through /dev/lnet.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "devlnet.hpp"

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	lnetctl::DevLnet kernel;

	return lnetctl::run(args, kernel, std::cout, std::cerr);
}
