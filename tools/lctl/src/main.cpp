// SPDX-License-Identifier: GPL-2.0
// lctl: LNet's network verbs (man lctl).
#include <iostream>
#include <string>
#include <vector>

#include "devlnet.hpp"
#include "lctl.hpp"

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	lnetctl::DevLnet kernel;

	return lctl::run(args, kernel, std::cout, std::cerr);
}
