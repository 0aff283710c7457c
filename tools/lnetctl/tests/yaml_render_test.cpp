// SPDX-License-Identifier: GPL-2.0
// The output shapes, byte for byte.
#include <gtest/gtest.h>

#include "outcome.hpp"
#include "yaml_render.hpp"

namespace lnetctl {
namespace {

constexpr lnet_nid_t tcp_nid = 0x00020000C0A8010AULL;	// 192.168.1.10@tcp
constexpr lnet_nid_t tcp_nid2 = 0x000200000A00000AULL;	// 10.0.0.10@tcp
constexpr lnet_nid_t ib_nid = 0x000500010A0A0A01ULL;	// 10.10.10.1@o2ib1
constexpr lnet_nid_t peer_nid = 0x00020000C0A8010BULL;	// 192.168.1.11@tcp
constexpr lnet_nid_t peer_nid2 = 0x000200000A00000BULL;	// 10.0.0.11@tcp

NiView lo_view()
{
	NiView v;
	v.info.config.nid = LNET_NID_LO_0;
	v.info.config.tunables = CommonTunables{ 0, 0, 0, 0 };
	v.info.config.cpts = { 0 };
	v.info.up = true;
	return v;
}

NiView tcp_view(lnet_nid_t nid = tcp_nid, const char *ifname = "eth0")
{
	NiView v;
	v.info.config.nid = nid;
	v.info.config.interface = ifname;
	v.info.config.tunables = CommonTunables{ 180, 8, 0, 256 };
	v.info.config.lnd = SockTunables{ 1, 50, -1 };
	v.info.config.cpts = { 0, 1 };
	v.info.up = true;
	return v;
}

std::string doc(const char *key, yaml::Node value)
{
	yaml::Map root;
	yaml::add(root, key, std::move(value));
	return yaml::render(root);
}

TEST(YamlRender, NetShowBriefLoopbackFirst)
{
	std::vector<NiView> nis = { tcp_view(), lo_view() };

	EXPECT_EQ(doc("net", render_nets(nis, NetFields{})),
		  "net:\n"
		  "    - net type: lo\n"
		  "      local NI(s):\n"
		  "        - nid: 0@lo\n"
		  "          status: up\n"
		  "    - net type: tcp\n"
		  "      local NI(s):\n"
		  "        - nid: 192.168.1.10@tcp\n"
		  "          status: up\n"
		  "          interfaces:\n"
		  "              0: eth0\n");
}

TEST(YamlRender, NetShowGroupsNisOfOneNet)
{
	auto down = tcp_view(tcp_nid2, "eth1");
	down.info.up = false;
	std::vector<NiView> nis = { lo_view(), tcp_view(), down };

	EXPECT_EQ(doc("net", render_nets(nis, NetFields{})),
		  "net:\n"
		  "    - net type: lo\n"
		  "      local NI(s):\n"
		  "        - nid: 0@lo\n"
		  "          status: up\n"
		  "    - net type: tcp\n"
		  "      local NI(s):\n"
		  "        - nid: 192.168.1.10@tcp\n"
		  "          status: up\n"
		  "          interfaces:\n"
		  "              0: eth0\n"
		  "        - nid: 10.0.0.10@tcp\n"
		  "          status: down\n"
		  "          interfaces:\n"
		  "              0: eth1\n");
}

TEST(YamlRender, NetShowVerbose)
{
	NiView v = tcp_view();
	MsgStats s;
	s.send_count = 10;
	s.recv_count = 9;
	s.drop_count = 1;
	s.sent = { 1, 2, 3, 4, 0 };
	s.received = { 5, 0, 0, 4, 0 };
	s.dropped = { 0, 0, 1, 0, 0 };
	v.stats = s;
	v.health = NiHealth{};
	v.health->ping_count = 3;
	v.info.dev_cpt = -1;
	NetFields f;
	f.statistics = true;
	f.config = true;

	EXPECT_EQ(doc("net", render_nets(std::vector<NiView>{ v }, f)),
		  "net:\n"
		  "    - net type: tcp\n"
		  "      local NI(s):\n"
		  "        - nid: 192.168.1.10@tcp\n"
		  "          status: up\n"
		  "          interfaces:\n"
		  "              0: eth0\n"
		  "          statistics:\n"
		  "              send_count: 10\n"
		  "              recv_count: 9\n"
		  "              drop_count: 1\n"
		  "          sent_stats:\n"
		  "              put: 1\n"
		  "              get: 2\n"
		  "              reply: 3\n"
		  "              ack: 4\n"
		  "              hello: 0\n"
		  "          received_stats:\n"
		  "              put: 5\n"
		  "              get: 0\n"
		  "              reply: 0\n"
		  "              ack: 4\n"
		  "              hello: 0\n"
		  "          dropped_stats:\n"
		  "              put: 0\n"
		  "              get: 0\n"
		  "              reply: 1\n"
		  "              ack: 0\n"
		  "              hello: 0\n"
		  "          health stats:\n"
		  "              fatal_error: 0\n"
		  "              health value: 1000\n"
		  "              interrupts: 0\n"
		  "              dropped: 0\n"
		  "              aborted: 0\n"
		  "              no route: 0\n"
		  "              timeouts: 0\n"
		  "              error: 0\n"
		  "              ping_count: 3\n"
		  "              next_ping: 0\n"
		  "          tunables:\n"
		  "              peer_timeout: 180\n"
		  "              peer_credits: 8\n"
		  "              peer_buffer_credits: 0\n"
		  "              credits: 256\n"
		  "          lnd tunables:\n"
		  "              conns_per_peer: 1\n"
		  "              timeout: 50\n"
		  "              tos: -1\n"
		  "          dev cpt: -1\n"
		  "          CPT: \"[0,1]\"\n");
}

TEST(YamlRender, NetBackupFieldsAndO2ibTunables)
{
	NiView v;
	v.info.config.nid = ib_nid;
	v.info.config.interface = "ib0";
	v.info.config.tunables = CommonTunables{ 180, 8, 0, 256 };
	O2ibTunables o;
	o.peercredits_hiw = 4;
	o.concurrent_sends = 8;
	o.fmr_pool_size = 512;
	o.fmr_flush_trigger = 384;
	o.fmr_cache = 1;
	o.map_on_demand = 1;
	o.ntx = 512;
	o.conns_per_peer = 1;
	o.timeout = 50;
	o.tos = 106;
	v.info.config.lnd = o;
	v.info.config.cpts = { 0 };
	NetFields f;
	f.status = false;
	f.config = true;
	f.dev_cpt = false;

	EXPECT_EQ(doc("net", render_nets(std::vector<NiView>{ v }, f)),
		  "net:\n"
		  "    - net type: o2ib1\n"
		  "      local NI(s):\n"
		  "        - nid: 10.10.10.1@o2ib1\n"
		  "          interfaces:\n"
		  "              0: ib0\n"
		  "          tunables:\n"
		  "              peer_timeout: 180\n"
		  "              peer_credits: 8\n"
		  "              peer_buffer_credits: 0\n"
		  "              credits: 256\n"
		  "          lnd tunables:\n"
		  "              peercredits_hiw: 4\n"
		  "              concurrent_sends: 8\n"
		  "              map_on_demand: 1\n"
		  "              fmr_pool_size: 512\n"
		  "              fmr_flush_trigger: 384\n"
		  "              fmr_cache: 1\n"
		  "              ntx: 512\n"
		  "              conns_per_peer: 1\n"
		  "              timeout: 50\n"
		  "              tos: 106\n"
		  "          CPT: \"[0]\"\n");
}

TEST(YamlRender, LoopbackHasNoLndTunables)
{
	NetFields f;
	f.config = true;
	std::vector<NiView> nis = { lo_view() };

	EXPECT_EQ(doc("net", render_nets(nis, f)),
		  "net:\n"
		  "    - net type: lo\n"
		  "      local NI(s):\n"
		  "        - nid: 0@lo\n"
		  "          status: up\n"
		  "          tunables:\n"
		  "              peer_timeout: 0\n"
		  "              peer_credits: 0\n"
		  "              peer_buffer_credits: 0\n"
		  "              credits: 0\n"
		  "          dev cpt: -1\n"
		  "          CPT: \"[0]\"\n");
}

PeerInfo sample_peer()
{
	PeerInfo p;
	p.primary_nid = peer_nid;
	p.multi_rail = true;
	p.state = 273;
	PeerNiInfo a;
	a.nid = peer_nid;
	a.max_tx_credits = 8;
	a.available_tx_credits = 8;
	a.min_tx_credits = 7;
	a.available_rtr_credits = 8;
	a.min_rtr_credits = 8;
	a.refcount = 4;
	a.stats.send_count = 2;
	a.stats.recv_count = 2;
	a.stats.sent = { 0, 2, 0, 0, 0 };
	a.stats.received = { 0, 0, 2, 0, 0 };
	PeerNiInfo b;
	b.nid = peer_nid2;
	b.state = PeerNiState::down;
	p.nis = { a, b };
	return p;
}

TEST(YamlRender, PeerShowBrief)
{
	PeerInfo p = sample_peer();
	PeerInfo q;
	q.primary_nid = ib_nid;
	PeerNiInfo n;
	n.nid = ib_nid;
	n.state = PeerNiState::up;
	q.nis = { n };
	std::vector<PeerInfo> peers = { p, q };

	EXPECT_EQ(doc("peer", render_peers(peers, false)),
		  "peer:\n"
		  "    - primary nid: 192.168.1.11@tcp\n"
		  "      Multi-Rail: True\n"
		  "      peer ni:\n"
		  "        - nid: 192.168.1.11@tcp\n"
		  "          state: NA\n"
		  "        - nid: 10.0.0.11@tcp\n"
		  "          state: down\n"
		  "    - primary nid: 10.10.10.1@o2ib1\n"
		  "      Multi-Rail: False\n"
		  "      peer ni:\n"
		  "        - nid: 10.10.10.1@o2ib1\n"
		  "          state: up\n");
}

TEST(YamlRender, PeerShowVerbose)
{
	PeerInfo p = sample_peer();
	p.nis.resize(1);
	std::vector<PeerInfo> peers = { p };

	EXPECT_EQ(doc("peer", render_peers(peers, true)),
		  "peer:\n"
		  "    - primary nid: 192.168.1.11@tcp\n"
		  "      Multi-Rail: True\n"
		  "      peer state: 273\n"
		  "      peer ni:\n"
		  "        - nid: 192.168.1.11@tcp\n"
		  "          state: NA\n"
		  "          max_ni_tx_credits: 8\n"
		  "          available_tx_credits: 8\n"
		  "          min_tx_credits: 7\n"
		  "          tx_q_num_of_buf: 0\n"
		  "          available_rtr_credits: 8\n"
		  "          min_rtr_credits: 8\n"
		  "          refcount: 4\n"
		  "          statistics:\n"
		  "              send_count: 2\n"
		  "              recv_count: 2\n"
		  "              drop_count: 0\n"
		  "          sent_stats:\n"
		  "              put: 0\n"
		  "              get: 2\n"
		  "              reply: 0\n"
		  "              ack: 0\n"
		  "              hello: 0\n"
		  "          received_stats:\n"
		  "              put: 0\n"
		  "              get: 0\n"
		  "              reply: 2\n"
		  "              ack: 0\n"
		  "              hello: 0\n"
		  "          dropped_stats:\n"
		  "              put: 0\n"
		  "              get: 0\n"
		  "              reply: 0\n"
		  "              ack: 0\n"
		  "              hello: 0\n"
		  "          health stats:\n"
		  "              health value: 1000\n"
		  "              dropped: 0\n"
		  "              timeout: 0\n"
		  "              error: 0\n"
		  "              network timeout: 0\n"
		  "              ping_count: 0\n"
		  "              next_ping: 0\n");
}

std::vector<RouteInfo> sample_routes()
{
	RouteInfo a;
	a.config = RouteConfig{ LNET_MKNET(LNET_LND_O2IB, 1), peer_nid, -1, 0, 1 };
	a.alive = true;
	RouteInfo b;
	b.config = RouteConfig{ LNET_MKNET(LNET_LND_SOCK, 2), peer_nid2, 3, 2, 10 };
	b.multi_hop = true;
	return { a, b };
}

TEST(YamlRender, RouteShowBrief)
{
	EXPECT_EQ(doc("route", render_routes(sample_routes(), RouteFields{})),
		  "route:\n"
		  "    - net: o2ib1\n"
		  "      gateway: 192.168.1.11@tcp\n"
		  "    - net: tcp2\n"
		  "      gateway: 10.0.0.11@tcp\n");
}

TEST(YamlRender, RouteShowVerbose)
{
	EXPECT_EQ(doc("route", render_routes(sample_routes(), RouteFields{ true, true })),
		  "route:\n"
		  "    - net: o2ib1\n"
		  "      gateway: 192.168.1.11@tcp\n"
		  "      hop: -1\n"
		  "      priority: 0\n"
		  "      health_sensitivity: 1\n"
		  "      state: up\n"
		  "      type: single-hop\n"
		  "    - net: tcp2\n"
		  "      gateway: 10.0.0.11@tcp\n"
		  "      hop: 3\n"
		  "      priority: 2\n"
		  "      health_sensitivity: 10\n"
		  "      state: down\n"
		  "      type: multi-hop\n");
}

TEST(YamlRender, PingSkipsLoopbackEntries)
{
	PingReply r;
	r.primary_nid = peer_nid;
	r.multi_rail = true;
	r.ids = { { LNET_NID_LO_0, 12345 }, { peer_nid, 12345 }, { peer_nid2, 12345 } };

	EXPECT_EQ(doc("ping", yaml::seq({ render_ping(r) })),
		  "ping:\n"
		  "    - primary nid: 192.168.1.11@tcp\n"
		  "      Multi-Rail: True\n"
		  "      peer ni:\n"
		  "        - nid: 192.168.1.11@tcp\n"
		  "        - nid: 10.0.0.11@tcp\n");
}

TEST(YamlRender, StatisticsInSpecOrder)
{
	Counters c{};
	for (std::size_t i = 0; i < c.size(); i++)
		c[i] = i;

	EXPECT_EQ(doc("statistics", render_counters(c)),
		  "statistics:\n"
		  "    msgs_alloc: 0\n"
		  "    msgs_max: 1\n"
		  "    rst_alloc: 2\n"
		  "    errors: 3\n"
		  "    send_count: 4\n"
		  "    resend_count: 5\n"
		  "    response_timeout_count: 6\n"
		  "    local_interrupt_count: 7\n"
		  "    local_dropped_count: 8\n"
		  "    local_aborted_count: 9\n"
		  "    local_no_route_count: 10\n"
		  "    local_timeout_count: 11\n"
		  "    local_error_count: 12\n"
		  "    remote_dropped_count: 13\n"
		  "    remote_error_count: 14\n"
		  "    remote_timeout_count: 15\n"
		  "    network_timeout_count: 16\n"
		  "    failed_resends: 17\n"
		  "    successful_resends: 18\n"
		  "    recv_count: 19\n"
		  "    route_count: 20\n"
		  "    drop_count: 21\n"
		  "    send_length: 22\n"
		  "    recv_length: 23\n"
		  "    route_length: 24\n"
		  "    drop_length: 25\n");
}

TEST(YamlRender, ErrorShape)
{
	std::vector<ErrorItem> errors = {
		{ "add", "net", EINVAL, "cannot add network tcp on eth9: Invalid argument" },
	};

	EXPECT_EQ(yaml::render(render_errors(errors)),
		  "add:\n"
		  "    - net:\n"
		  "          errno: -22\n"
		  "          descr: \"cannot add network tcp on eth9: Invalid argument\"\n");
}

TEST(YamlRender, ErrorsGroupedByCommand)
{
	std::vector<ErrorItem> errors = {
		{ "add", "net", EEXIST, "dup" },
		{ "add", "route", EHOSTUNREACH, "far" },
		{ "del", "net", ENOENT, "gone" },
	};

	EXPECT_EQ(yaml::render(render_errors(errors)),
		  "add:\n"
		  "    - net:\n"
		  "          errno: -17\n"
		  "          descr: dup\n"
		  "    - route:\n"
		  "          errno: -113\n"
		  "          descr: far\n"
		  "del:\n"
		  "    - net:\n"
		  "          errno: -2\n"
		  "          descr: gone\n");
}

TEST(YamlRender, FormatCpts)
{
	EXPECT_EQ(format_cpts(std::vector<std::uint32_t>{}), "[]");
	EXPECT_EQ(format_cpts(std::vector<std::uint32_t>{ 3 }), "[3]");
	EXPECT_EQ(format_cpts(std::vector<std::uint32_t>{ 0, 1, 7 }), "[0,1,7]");
}

}  // namespace
}  // namespace lnetctl
