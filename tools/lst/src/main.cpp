// SPDX-License-Identifier: GPL-2.0
//
// lst: the lnet_selftest console (man lst).
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <unistd.h>

#include "devlnet.hpp"
#include "lst.hpp"

namespace {

volatile std::sig_atomic_t interrupted = 0;

void on_sigint(int)
{
	interrupted = 1;
}

bool sleep_ms(unsigned ms)
{
	for (unsigned left = ms; left && !interrupted; left -= std::min(left, 100U))
		std::this_thread::sleep_for(std::chrono::milliseconds(std::min(left, 100U)));
	return !interrupted;
}

double now_ms()
{
	using namespace std::chrono;
	return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char **argv)
{
	lst::DevLnet kernel;
	lst::Env env{kernel, std::cout, std::cerr};
	std::vector<std::string> args(argv + 1, argv + argc);

	std::signal(SIGINT, on_sigint);
	if (const char *key = std::getenv("LST_SESSION"))
		env.key = static_cast<std::int32_t>(std::strtol(key, nullptr, 10));
	env.pid = static_cast<int>(::getpid());
	env.sleep_ms = sleep_ms;
	env.now_ms = now_ms;
	try {
		return lst::run(env, args);
	} catch (const std::exception &e) {
		std::cerr << "lst: " << e.what() << "\n";
		return 1;
	}
}
