// SPDX-License-Identifier: GPL-2.0
// lctl's network verbs against the fake kernel: Lustre's output lines,
// errors and exit statuses.
#include <gtest/gtest.h>

#include <sstream>

#include <lnet/nid.hpp>

#include "fake_kernel.hpp"
#include "lctl.hpp"

namespace lctl {
namespace {

using lnetctl::test::FakeKernel;

struct Result {
	int rc;
	std::string out, err;
};

Result lctl(FakeKernel &k, std::vector<std::string> args)
{
	std::ostringstream out, err;
	int rc = run(args, k, out, err);

	return { rc, out.str(), err.str() };
}

// A configured node: tcp on eth0 (192.168.1.10).
FakeKernel node()
{
	FakeKernel k;
	lnetctl::NiConfig tcp;

	k.configure(false, false);
	tcp.nid = lnetctl::nid_from_interface(LNET_MKNET(LNET_LND_SOCK, 0));
	tcp.interface = "eth0";
	k.add_ni(tcp);
	k.calls.clear();
	return k;
}

TEST(Lctl, NetworkUpAndDown)
{
	FakeKernel k;
	Result r = lctl(k, { "network", "up" });

	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.out, "LNET configured\n");
	EXPECT_TRUE(k.configured_all);	// the module parameters' networks
	r = lctl(k, { "network", "configure" });
	EXPECT_EQ(r.rc, 0);
	r = lctl(k, { "network", "down" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.out, "LNET ready to unload\n");
	EXPECT_FALSE(k.configured);
	EXPECT_EQ(lctl(k, { "network", "sideways" }).rc, 2);
}

// The closest NID: ours (0), then one on our net (1), then through a
// route (hops + 1); unreachable ones passed over.
TEST(Lctl, WhichNid)
{
	FakeKernel k = node();
	lnetctl::RouteInfo r;

	r.config.net = LNET_MKNET(LNET_LND_O2IB, 5);
	r.config.gateway = *lnet::parse_nid("192.168.1.1@tcp");
	r.config.hop = 2;
	k.routes.push_back(r);

	Result res = lctl(k, { "which_nid", "10.0.0.5@o2ib5", "192.168.1.20@tcp" });
	EXPECT_EQ(res.rc, 0) << res.err;
	EXPECT_EQ(res.out, "192.168.1.20@tcp\n");
	res = lctl(k, { "which_nid", "192.168.1.20@tcp", "192.168.1.10@tcp" });
	EXPECT_EQ(res.out, "192.168.1.10@tcp\n");
	res = lctl(k, { "which_nid", "10.1.1.1@tcp7", "10.0.0.5@o2ib5" });
	EXPECT_EQ(res.out, "10.0.0.5@o2ib5\n");
	// equals: the first given
	res = lctl(k, { "which_nid", "192.168.1.30@tcp", "192.168.1.20@tcp" });
	EXPECT_EQ(res.out, "192.168.1.30@tcp\n");

	res = lctl(k, { "which_nid", "10.1.1.1@tcp7" });
	EXPECT_EQ(res.rc, 1);
	EXPECT_EQ(res.err, "lctl which_nid: none of the NIDs is reachable\n");
	res = lctl(k, { "which_nid", "not-a-nid" });
	EXPECT_EQ(res.rc, 2);
	EXPECT_EQ(res.err, "lctl which_nid: can't parse NID 'not-a-nid'\n");
	EXPECT_EQ(lctl(k, { "which_nid" }).rc, 2);
}

TEST(Lctl, NetworkDownWhileBusy)
{
	FakeKernel k = node();
	k.fail["unconfigure"] = EBUSY;
	Result r = lctl(k, { "network", "unconfigure" });

	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "LNET busy\n");
	EXPECT_TRUE(r.out.empty());
}

TEST(Lctl, ListNids)
{
	FakeKernel k = node();

	EXPECT_EQ(lctl(k, { "list_nids" }).out, "192.168.1.10@tcp\n");
	EXPECT_EQ(lctl(k, { "list_nids", "all" }).out, "0@lo\n192.168.1.10@tcp\n");
	EXPECT_EQ(lctl(k, { "list_nids", "some" }).rc, 2);

	FakeKernel down;
	down.fail["get_nis"] = ENETDOWN;
	Result r = lctl(down, { "list_nids" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_NE(r.err.find("lctl list_nids: cannot list the local NIs"), std::string::npos);
}

TEST(Lctl, Ping)
{
	FakeKernel k = node();
	const lnet_nid_t peer = 0x000200000A00000BULL;	// 10.0.0.11@tcp
	lnetctl::PingReply reply;

	reply.ids = { { LNET_NID_LO_0, 12345 }, { peer, 12345 } };
	k.ping_replies[peer] = reply;
	Result r = lctl(k, { "ping", "10.0.0.11@tcp" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.out, "12345-0@lo\n12345-10.0.0.11@tcp\n");
	ASSERT_EQ(k.pings.size(), 1U);
	EXPECT_EQ(k.pings[0].timeout_ms, 1000);	// Lustre's default: 1 s
	EXPECT_EQ(k.pings[0].target.pid, LNET_PID_ANY);

	r = lctl(k, { "ping", "12345-10.0.0.11@tcp", "30" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(k.pings[1].timeout_ms, 30000);
	EXPECT_EQ(k.pings[1].target.pid, 12345U);

	r = lctl(k, { "ping", "10.0.0.99@tcp" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "failed to ping 10.0.0.99@tcp: Connection timed out\n");

	EXPECT_EQ(lctl(k, { "ping", "10.0.0.11@tcq" }).rc, 2);
	EXPECT_EQ(lctl(k, { "ping", "10.0.0.11@tcp", "121" }).rc, 2);
	EXPECT_EQ(lctl(k, { "ping" }).rc, 2);
}

TEST(Lctl, RouteList)
{
	FakeKernel k = node();
	lnetctl::RouteConfig r;

	r.net = LNET_MKNET(LNET_LND_O2IB, 1);
	r.gateway = 0x0002000001020304ULL;	// 1.2.3.4@tcp
	r.hop = 2;
	r.priority = 3;
	k.add_route(r);
	k.routes[0].alive = true;
	Result res = lctl(k, { "route_list" });
	EXPECT_EQ(res.rc, 0);
	// "net %18s hops %d gw %32s %s pri %u"
	EXPECT_EQ(res.out, "net " + std::string(18 - 5, ' ') + "o2ib1 hops 2 gw " +
				   std::string(32 - 11, ' ') + "1.2.3.4@tcp up pri 3\n");
}

TEST(Lctl, NoCommandIsAUsageError)
{
	FakeKernel k;

	EXPECT_EQ(lctl(k, {}).rc, 2);
	EXPECT_EQ(lctl(k, { "frobnicate" }).rc, 2);
	EXPECT_TRUE(k.calls.empty());
}

}  // namespace
}  // namespace lctl
