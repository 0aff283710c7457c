// SPDX-License-Identifier: GPL-2.0
//
// Deadline-bounded socket I/O over loopback (unprivileged ports).
#include "net.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

namespace sockpeer {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t loopback = 0x7F000001;

struct Pair {
	Socket listener;
	Socket client;
	Socket server;
};

Pair connected_pair()
{
	Pair p;
	p.listener = listen_on(0, 4);
	ConnectOptions opt;
	opt.privileged = false;
	opt.port = p.listener.local_port();
	opt.timeout = 2s;
	p.client = connect_to(loopback, opt);
	auto a = accept_for(p.listener, 2s);
	EXPECT_TRUE(a);
	if (a) {
		EXPECT_EQ(a->peer_ip, loopback);
		EXPECT_EQ(a->peer_port, p.client.local_port());
		p.server = std::move(a->sock);
	}
	return p;
}

TEST(Net, SendAndReceiveExactly)
{
	Pair p = connected_pair();
	const Bytes data{1, 2, 3, 4, 5};
	ASSERT_TRUE(p.client.send_all(data));
	EXPECT_EQ(p.server.recv_exact(5, 2s), data);
}

TEST(Net, ShortReadWhenThePeerIsSilent)
{
	Pair p = connected_pair();
	ASSERT_TRUE(p.client.send_all(Bytes{9, 9, 9}));
	const auto t0 = Clock::now();
	const Bytes got = p.server.recv_exact(10, 200ms);
	EXPECT_EQ(got, (Bytes{9, 9, 9}));
	EXPECT_GE(Clock::now() - t0, 190ms);
	EXPECT_LT(Clock::now() - t0, 2s);
}

TEST(Net, ShortReadWhenThePeerCloses)
{
	Pair p = connected_pair();
	ASSERT_TRUE(p.client.send_all(Bytes{7}));
	p.client.reset();
	EXPECT_EQ(p.server.recv_exact(10, 5s), (Bytes{7}));
}

TEST(Net, Eof)
{
	{
		Pair p = connected_pair();
		p.client.reset();
		EXPECT_TRUE(p.server.eof(2s));
	}
	{
		Pair p = connected_pair();
		p.client.abort();			// a reset counts as closed
		EXPECT_TRUE(p.server.eof(2s));
	}
	{
		Pair p = connected_pair();
		ASSERT_TRUE(p.client.send_all(Bytes{1}));
		EXPECT_FALSE(p.server.eof(2s));		// data is not a close
	}
	{
		Pair p = connected_pair();
		const auto t0 = Clock::now();
		EXPECT_FALSE(p.server.eof(100ms));	// silence is not a close
		EXPECT_LT(Clock::now() - t0, 2s);
	}
}

TEST(Net, ShutdownWakesAReader)
{
	Pair p = connected_pair();
	Bytes got{1};
	std::thread reader([&] { got = p.server.recv_exact(4, std::chrono::hours(1)); });
	std::this_thread::sleep_for(50ms);
	p.server.shutdown();
	reader.join();
	EXPECT_TRUE(got.empty());
}

TEST(Net, AcceptTimesOut)
{
	const Socket l = listen_on(0, 4);
	const auto t0 = Clock::now();
	EXPECT_FALSE(accept_for(l, 100ms));
	EXPECT_LT(Clock::now() - t0, 2s);
}

TEST(Net, ConnectRefusedIsAnError)
{
	std::uint16_t port;
	{
		const Socket l = listen_on(0, 1);
		port = l.local_port();
	}
	ConnectOptions opt;
	opt.privileged = false;
	opt.port = port;
	try {
		connect_to(loopback, opt);
		FAIL() << "connected to a closed port";
	} catch (const NetError &e) {
		EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(port)),
			  std::string::npos)
			<< e.what();
	}
}

TEST(Net, DeadlinePollMs)
{
	EXPECT_EQ(Deadline(-1s).poll_ms(), 0);
	EXPECT_TRUE(Deadline(-1s).passed());
	const int ms = Deadline(1500ms).poll_ms();
	EXPECT_GT(ms, 1000);
	EXPECT_LE(ms, 1500);
	EXPECT_EQ(errno_message("connect to x", ECONNREFUSED), "connect to x: Connection refused");
}

}  // namespace
}  // namespace sockpeer
