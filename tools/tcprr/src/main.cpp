// SPDX-License-Identifier: GPL-2.0
// lnet-tcprr server [--bind ADDR] [--port P] [--size N] [--quickack]
// lnet-tcprr client --connect ADDR [--port P] [--size N] [--inflight N]
//                   [--time 5s] [--nagle] [--quickack]
// The server answers one connection at a time, forever; the client prints
// one "tcprr: ..." line.
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <sys/socket.h>

#include "rr.hpp"

namespace {

constexpr std::uint16_t default_port = 5202;

unsigned long to_number(std::string_view opt, std::string_view text)
{
	std::size_t used = 0;
	unsigned long v = std::stoul(std::string(text), &used);

	if (used != text.size())
		throw std::invalid_argument(std::string(opt) + ": not a number: \"" +
					    std::string(text) + "\"");
	return v;
}

int usage()
{
	std::fputs("usage: lnet-tcprr server [--bind ADDR] [--port P] [--size N] [--quickack]\n"
		   "       lnet-tcprr client --connect ADDR [--port P] [--size N]"
		   " [--inflight N] [--time 5s] [--nagle] [--quickack]\n", stderr);
	return 2;
}

int run(std::span<char *> args)
{
	if (args.size() < 2)
		return usage();
	std::string_view mode = args[1], connect, bind = "0.0.0.0";
	std::uint16_t port = default_port;
	tcprr::Options opts;

	for (std::size_t i = 2; i < args.size(); i++) {
		std::string_view opt = args[i];

		if (opt == "--nagle") {
			opts.nodelay = false;
			continue;
		}
		if (opt == "--quickack") {
			opts.quickack = true;
			continue;
		}
		if (i + 1 >= args.size()) {
			std::fprintf(stderr, "lnet-tcprr: %.*s needs a value\n",
				     static_cast<int>(opt.size()), opt.data());
			return 2;
		}
		std::string_view val = args[++i];
		if (opt == "--connect")
			connect = val;
		else if (opt == "--bind")
			bind = val;
		else if (opt == "--port")
			port = static_cast<std::uint16_t>(to_number(opt, val));
		else if (opt == "--size")
			opts.size = to_number(opt, val);
		else if (opt == "--inflight")
			opts.inflight = static_cast<unsigned int>(to_number(opt, val));
		else if (opt == "--time")
			opts.duration = tcprr::parse_duration(val);
		else
			return usage();
	}
	if (mode == "server") {
		tcprr::UniqueFd lsock = tcprr::listen_on(bind, port);

		for (;;) {
			tcprr::UniqueFd conn(::accept4(lsock.get(), nullptr, nullptr, SOCK_CLOEXEC));

			if (conn)
				tcprr::serve(conn, opts);
		}
	}
	if (mode != "client" || connect.empty())
		return usage();
	tcprr::UniqueFd conn = tcprr::connect_to(connect, port, opts.nodelay);
	tcprr::Result r = tcprr::run_client(conn, opts);
	std::puts(tcprr::format_result(opts, r).c_str());
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		return run(std::span<char *>(argv, static_cast<std::size_t>(argc)));
	} catch (const std::exception &e) {
		std::fprintf(stderr, "lnet-tcprr: %s\n", e.what());
		return 1;
	}
}
