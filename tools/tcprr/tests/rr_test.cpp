// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <thread>

#include "rr.hpp"

using namespace std::chrono_literals;

namespace {

// A client run against a served connection on loopback.
struct Loopback {
	tcprr::UniqueFd lsock = tcprr::listen_on("127.0.0.1", 0);
	std::uint64_t served = 0;

	tcprr::Result run(const tcprr::Options &opts)
	{
		std::jthread server([&] {
			tcprr::UniqueFd conn(::accept(lsock.get(), nullptr, nullptr));

			served = tcprr::serve(conn, opts);
		});
		tcprr::Result r;
		{
			tcprr::UniqueFd conn = tcprr::connect_to("127.0.0.1",
							   tcprr::local_port(lsock),
							   opts.nodelay);
			r = tcprr::run_client(conn, opts);
		}	// closing the connection ends serve()
		server.join();
		return r;
	}
};

} // namespace

TEST(TcpRr, EveryRequestIsAnsweredAndCounted)
{
	Loopback lo;
	tcprr::Options opts;

	opts.duration = 200ms;
	tcprr::Result r = lo.run(opts);
	EXPECT_GT(r.exchanges, 0u);
	EXPECT_EQ(r.exchanges, lo.served);
	EXPECT_GE(r.elapsed, 200ms);
	EXPECT_GT(r.per_second(), 0.0);
}

TEST(TcpRr, AtLeastInflightExchangesEvenWithNoTime)
{
	Loopback lo;
	tcprr::Options opts;

	opts.inflight = 5;
	opts.size = 4000;
	opts.duration = 0ms;
	tcprr::Result r = lo.run(opts);
	EXPECT_EQ(r.exchanges, 5u);
	EXPECT_EQ(lo.served, 5u);
}

TEST(TcpRr, QuickackExchanges)
{
	Loopback lo;
	tcprr::Options opts;

	opts.quickack = true;
	opts.duration = 100ms;
	tcprr::Result r = lo.run(opts);
	EXPECT_GT(r.exchanges, 0u);
	EXPECT_EQ(r.exchanges, lo.served);
}

TEST(TcpRr, ZeroSizeIsRefused)
{
	Loopback lo;
	tcprr::Options opts;

	opts.size = 0;
	tcprr::UniqueFd conn = tcprr::connect_to("127.0.0.1", tcprr::local_port(lo.lsock), true);
	EXPECT_THROW(tcprr::run_client(conn, opts), std::invalid_argument);
}

TEST(TcpRr, Durations)
{
	EXPECT_EQ(tcprr::parse_duration("5s"), 5000ms);
	EXPECT_EQ(tcprr::parse_duration("250ms"), 250ms);
	EXPECT_EQ(tcprr::parse_duration("2"), 2000ms);
	EXPECT_THROW(tcprr::parse_duration(""), std::invalid_argument);
	EXPECT_THROW(tcprr::parse_duration("5m"), std::invalid_argument);
	EXPECT_THROW(tcprr::parse_duration("x5s"), std::invalid_argument);
}

TEST(TcpRr, BadAddressSaysWhat)
{
	try {
		tcprr::connect_to("not-an-ip", 1, true);
		FAIL() << "no exception";
	} catch (const std::invalid_argument &e) {
		EXPECT_NE(std::string(e.what()).find("not-an-ip"), std::string::npos);
	}
}

TEST(TcpRr, ResultLineHasTheFigures)
{
	tcprr::Options opts;
	tcprr::Result r{.exchanges = 1000, .elapsed = 500ms};

	EXPECT_EQ(tcprr::format_result(opts, r),
		  "tcprr: size=96 inflight=8 quickack=0 ns=500000000 exchanges=1000 per_sec=2000");
}
