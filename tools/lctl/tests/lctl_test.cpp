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

// ---- peer_list, conn_list ------------------------------------------------------

const lnet_nid_t peer_nid = 0x00020000C0A80114ULL;	// 192.168.1.20@tcp
const std::uint32_t tcp0 = LNET_MKNET(LNET_LND_SOCK, 0);
const std::uint32_t o2ib0 = LNET_MKNET(LNET_LND_O2IB, 0);

// node() with a peer of three connections on tcp, one peer on o2ib.
FakeKernel lnd_node()
{
	FakeKernel k = node();
	lnetctl::NiConfig ib;
	lnetctl::SockPeer sp;
	lnetctl::SockConn sc;
	lnetctl::O2ibPeer op;
	lnetctl::O2ibConn oc;

	ib.nid = lnetctl::nid_from_interface(o2ib0);
	ib.interface = "ib0";
	k.add_ni(ib);
	sp.id = { peer_nid, 12345 };
	sp.local_ip = 0xC0A8010A;
	sp.peer_ip = 0xC0A80114;
	sp.peer_port = 988;
	sp.conns = 3;
	k.lnd_peer_table[tcp0] = { sp };
	sc.id = sp.id;
	sc.local_ip = sp.local_ip;
	sc.local_port = 1023;
	sc.peer_ip = sp.peer_ip;
	sc.peer_port = 988;
	sc.tx_buffer = 87040;
	sc.rx_buffer = 131072;
	for (auto t : { lnetctl::SockConnType::control, lnetctl::SockConnType::bulk_in,
			lnetctl::SockConnType::bulk_out }) {
		sc.type = t;
		k.lnd_conn_table[tcp0].push_back(sc);
		sc.local_port--;
		sc.scheduler++;
		sc.nagle = true;
	}
	op.nid = LNET_MKNID(o2ib0, 0x0A0A0A02);	// 10.10.10.2@o2ib
	op.refs = 2;
	op.state = lnetctl::O2ibState::established;
	op.conns = 1;
	op.credits = 8;
	op.queue_depth = 8;
	k.lnd_peer_table[o2ib0] = { op };
	oc.nid = op.nid;
	oc.mtu = 1024;
	oc.state = lnetctl::O2ibState::established;
	oc.credits = 7;
	oc.outstanding = 1;
	oc.queue_depth = 8;
	k.lnd_conn_table[o2ib0] = { oc };
	k.calls.clear();
	return k;
}

const std::string sock_peer_line =
	"12345-192.168.1.20@tcp [0]192.168.1.10->192.168.1.20:988 #3\n";
const std::string o2ib_peer_line =
	"10.10.10.2@o2ib      [2] established conns 1 credits 8 outstanding 0 queue_depth 8\n";

TEST(Lctl, PeerListSocklnd)
{
	FakeKernel k = lnd_node();
	Result r = lctl(k, { "--net", "tcp", "peer_list" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, sock_peer_line);
	EXPECT_TRUE(r.err.empty());
	// the verb's own --net, and tcp0 spelt out
	r = lctl(k, { "peer_list", "--net", "tcp0" });
	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, sock_peer_line);
}

TEST(Lctl, ConnListSocklnd)
{
	FakeKernel k = lnd_node();
	Result r = lctl(k, { "--net", "tcp", "conn_list" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out,
		  "12345-192.168.1.20@tcp C[0]192.168.1.10:1023->192.168.1.20:988 87040/131072 nonagle\n"
		  "12345-192.168.1.20@tcp I[1]192.168.1.10:1022->192.168.1.20:988 87040/131072 nagle\n"
		  "12345-192.168.1.20@tcp O[2]192.168.1.10:1021->192.168.1.20:988 87040/131072 nagle\n");
}

TEST(Lctl, PeerAndConnListO2iblnd)
{
	FakeKernel k = lnd_node();
	Result r = lctl(k, { "--net", "o2ib", "peer_list" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, o2ib_peer_line);
	r = lctl(k, { "--net", "o2ib0", "conn_list" });
	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, "10.10.10.2@o2ib mtu 1024 established credits 7 outstanding 1 "
			 "queue_depth 8\n");
}

// Without a net: every tcp and o2ib net of the node, in NI order.
TEST(Lctl, PeerListOfEveryNet)
{
	FakeKernel k = lnd_node();
	Result r = lctl(k, { "peer_list" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, sock_peer_line + o2ib_peer_line);

	FakeKernel lo_only;
	lo_only.configure(false, false);
	r = lctl(lo_only, { "conn_list" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "lctl conn_list: no tcp or o2ib net is up here (--net NET)\n");
}

TEST(Lctl, PeerListEmpty)
{
	FakeKernel k = lnd_node();

	k.lnd_peer_table.clear();
	k.lnd_conn_table.clear();
	Result r = lctl(k, { "--net", "tcp", "peer_list" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.out, "<no peers>\n");
	r = lctl(k, { "--net", "o2ib", "conn_list" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.out, "<no connections>\n");
}

TEST(Lctl, PeerListErrors)
{
	FakeKernel k = lnd_node();
	Result r = lctl(k, { "--net", "tcp%", "peer_list" });

	EXPECT_EQ(r.rc, 2);
	EXPECT_EQ(r.err, "lctl peer_list: can't parse net 'tcp%'\n");
	r = lctl(k, { "--net", "gni", "conn_list" });
	EXPECT_EQ(r.rc, 2);
	EXPECT_EQ(r.err, "lctl conn_list: net gni: only tcp and o2ib nets have one\n");
	EXPECT_TRUE(k.calls.empty());

	r = lctl(k, { "--net", "tcp1", "peer_list" });	// ENETDOWN
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "lctl peer_list: net tcp1 is not up on this node\n");
	EXPECT_TRUE(r.out.empty());

	k.lnd_loaded.erase(LNET_LND_O2IB);		// EINVAL: nobody answers
	r = lctl(k, { "--net", "o2ib", "conn_list" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "lctl conn_list: net o2ib: ko2iblnd is not loaded\n");

	k.fail["lnd_peers"] = EACCES;
	r = lctl(k, { "--net", "tcp", "peer_list" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "lctl peer_list: net tcp: Permission denied\n");
}

// ---- net_drop_*, net_delay_* ------------------------------------------------------

TEST(Lctl, NetDropAddListDelReset)
{
	FakeKernel k = node();
	Result r = lctl(k, { "net_drop_add", "-s", "*", "-d", "192.168.1.20@tcp", "-r", "2",
			     "-m", "GET", "-p", "4" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, "Added drop rule *->192.168.1.20@tcp (1/2)\n");
	ASSERT_EQ(k.faults[lnetctl::FaultKind::drop].size(), 1U);
	const auto &rule = k.faults[lnetctl::FaultKind::drop][0].rule;
	EXPECT_EQ(rule.src, LNET_NID_ANY);
	EXPECT_EQ(rule.dst, peer_nid);
	EXPECT_EQ(rule.rate, 2U);
	EXPECT_EQ(rule.msg_mask, 1U << 2);
	EXPECT_EQ(rule.ptl_mask, 1ULL << 4);

	k.faults[lnetctl::FaultKind::drop][0].stats = { 6, 0, 0, 3, 0, 3, 0 };
	r = lctl(k, { "net_drop_list" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(r.err, "LNet drop rules:\n");
	EXPECT_EQ(r.out, "*->192.168.1.20@tcp (1/2 | 0) ptl 0x10, msg 4, 3/6, PUT 0, ACK 0, "
			 "GET 3, REP 0\n");

	r = lctl(k, { "net_drop_reset" });
	EXPECT_EQ(r.rc, 0);
	EXPECT_EQ(k.faults[lnetctl::FaultKind::drop][0].stats.matched, 0U);

	r = lctl(k, { "net_drop_del", "-s", "*" });	// -d: any
	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, "Removed 1 drop rules\n");
	EXPECT_TRUE(k.faults[lnetctl::FaultKind::drop].empty());
}

TEST(Lctl, NetDelayAddAndList)
{
	FakeKernel k = node();
	Result r = lctl(k, { "net_delay_add", "--source", "*@tcp", "--dest", "*", "--interval",
			     "5", "--latency", "3" });

	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.out, "Added delay rule *@tcp->* (1/0)\n");
	r = lctl(k, { "net_delay_list" });
	EXPECT_EQ(r.out, "*@tcp->* (1/0 | 5, latency 3) ptl 0, msg 0, 0/0, PUT 0, ACK 0, "
			 "GET 0, REP 0\n");
	r = lctl(k, { "net_delay_del", "-a" });
	EXPECT_EQ(r.out, "Removed 1 delay rules\n");
}

TEST(Lctl, NetDropErrors)
{
	FakeKernel k = node();
	Result r = lctl(k, { "net_drop_add", "-d", "*", "-r", "2" });

	EXPECT_EQ(r.rc, 2);
	EXPECT_EQ(r.err, "lctl net_drop_add: --source is required ('*' for any NID)\n");
	r = lctl(k, { "net_drop_add", "-s", "*", "-d", "*" });
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("one of --rate N or --interval SECONDS is required"),
		  std::string::npos);
	r = lctl(k, { "net_delay_add", "-s", "*", "-d", "*", "-r", "1" });
	EXPECT_EQ(r.rc, 2);
	EXPECT_EQ(r.err, "lctl net_delay_add: --latency SECONDS is required\n");
	EXPECT_EQ(lctl(k, { "net_delay_add", "-s", "*", "-d", "*", "-r", "1", "-e",
			    "random" }).rc,
		  2);	// health errors are for drop rules
	EXPECT_EQ(lctl(k, { "net_drop_del" }).rc, 2);
	EXPECT_EQ(lctl(k, { "net_drop_del", "-a", "-s", "*" }).rc, 2);
	EXPECT_TRUE(k.calls.empty());

	k.fail["fault_add"] = ENETDOWN;
	r = lctl(k, { "net_drop_add", "-s", "*", "-d", "*", "-r", "1" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "add drop rule *->* failed: Network is down\n");
	k.fail["fault_reset"] = ENETDOWN;
	r = lctl(k, { "net_delay_reset" });
	EXPECT_EQ(r.rc, 1);
	EXPECT_EQ(r.err, "failed to reset delay stats: Network is down\n");
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
