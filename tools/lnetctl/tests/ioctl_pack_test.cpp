// SPDX-License-Identifier: GPL-2.0
// The ioctl structures: sizes, command values and the bytes lnetctl sends.
#include <gtest/gtest.h>

#include <cstring>

#include "ioctl_pack.hpp"
#include "test_util.hpp"

namespace lnetctl {
namespace {

using namespace test;

template <typename T>
std::string str_at(const T &s, std::size_t off)
{
	return reinterpret_cast<const char *>(&s) + off;
}

constexpr std::uint32_t tcp1 = LNET_MKNET(LNET_LND_SOCK, 1);
constexpr lnet_nid_t gw_nid = 0x00020000C0000201ULL;	// 192.0.2.1@tcp

TEST(IoctlPack, StructSizes)
{
	EXPECT_EQ(sizeof(lnet_ioctl_hdr), 8U);
	EXPECT_EQ(sizeof(lnet_ioctl_data), 128U);
	EXPECT_EQ(sizeof(lnet_ioctl_config_data), 184U);
	EXPECT_EQ(sizeof(lnet_ioctl_ping_data), 56U);
	EXPECT_EQ(sizeof(lnet_ioctl_config_ni), 808U);
	EXPECT_EQ(sizeof(lnet_ioctl_tunables_common), 20U);
	EXPECT_EQ(sizeof(lnet_ioctl_tunables_socklnd), 16U);
	EXPECT_EQ(sizeof(lnet_ioctl_tunables_o2iblnd), 40U);
	EXPECT_EQ(sizeof(lnet_ioctl_lnd_tunables), 60U);
	EXPECT_EQ(ni_ioctl_len, 868U);
	EXPECT_EQ(sizeof(lnet_ioctl_recovery_entry), 24U);
	EXPECT_EQ(sizeof(lnet_ioctl_recovery_list), 1560U);
}

TEST(IoctlPack, CommandValues)
{
	EXPECT_EQ(LNET_IOC_CLEAR_DEBUG, 0xC008651FUL);
	EXPECT_EQ(LNET_IOC_MARK_DEBUG, 0xC0086520UL);
	EXPECT_EQ(LNET_IOC_GET_NI, 0xC0086532UL);
	EXPECT_EQ(LNET_IOC_UNCONFIGURE, 0xC0086538UL);
	EXPECT_EQ(LNET_IOC_CONFIGURE, 0xC008653BUL);
	EXPECT_EQ(LNET_IOC_PING_PEER, 0xC008653EUL);
	EXPECT_EQ(LNET_IOC_LNETST, 0xC008653FUL);
	EXPECT_EQ(LNET_IOC_DISCOVER, 0xC008654DUL);
	EXPECT_EQ(LNET_IOC_ADD_ROUTE, 0xC0B86551UL);
	EXPECT_EQ(LNET_IOC_DEL_ROUTE, 0xC0B86552UL);
	EXPECT_EQ(LNET_IOC_GET_ROUTE, 0xC0B86553UL);
	EXPECT_EQ(LNET_IOC_DEL_NET, 0xC0B86555UL);
	EXPECT_EQ(LNET_IOC_GET_LNET_STATS, 0xC0B8655BUL);
	EXPECT_EQ(LNET_IOC_GET_PEER_NI, 0xC0B8655EUL);
	EXPECT_EQ(LNET_IOC_ADD_LOCAL_NI, 0xC0B8655FUL);
	EXPECT_EQ(LNET_IOC_DEL_LOCAL_NI, 0xC0B86560UL);
	EXPECT_EQ(LNET_IOC_GET_LOCAL_NI, 0xC0B86561UL);
	EXPECT_EQ(LNET_IOC_GET_LOCAL_NI_MSG_STATS, 0xC0B86565UL);
	EXPECT_EQ(LNET_IOC_GET_LOCAL_HSTATS, 0xC0B86567UL);
	EXPECT_EQ(LNET_IOC_GET_RECOVERY_QUEUE, 0xC0B86568UL);
	EXPECT_EQ(LNET_IOC_RESET_LNET_STATS, 0xC0B8656EUL);
	EXPECT_EQ(LNET_IOC_SET_PEER, 0xC0B86570UL);
	EXPECT_EQ(_IOC_NR(LNET_IOC_CLEAR_DEBUG) - 1, LNET_IOC_MIN_NR);
	EXPECT_EQ(_IOC_NR(LNET_IOC_SET_PEER), LNET_IOC_MAX_NR);
}

TEST(IoctlPack, ConfigureIsGenericBlock)
{
	lnet_ioctl_data d = pack_configure(true, false);
	EXPECT_EQ(u32_at(d, 0), 128U);
	EXPECT_EQ(u32_at(d, 4), 0x0001000AU);
	EXPECT_EQ(u32_at(d, 24), 1U);	// flags: bring up networks=
	for (std::size_t off = 64; off < 128; off += 4)
		EXPECT_EQ(u32_at(d, off), 0U) << off;	// no inline/user buffers

	EXPECT_EQ(u32_at(pack_configure(false, true), 24), 2U);
	EXPECT_EQ(u32_at(pack_unconfigure(), 24), 0U);
}

TEST(IoctlPack, NetAddBytesAtSpecOffsets)
{
	NiConfig ni;
	ni.nid = nid_from_interface(tcp1);
	ni.interface = "eth0";
	ni.cpts = { 0, 3 };
	ni.tunables = CommonTunables{ 90, 16, -1, 512 };
	ni.lnd = SockTunables{ 4, 0, 96 };
	NiIoctl s = pack_add_ni(ni);

	EXPECT_EQ(u32_at(s, 0), 868U);			// ioc_len
	EXPECT_EQ(u32_at(s, 4), 0x0001000BU);		// version 2
	EXPECT_EQ(u64_at(s, 8), 0x00020001FFFFFFFFULL);	// tcp1, address from the interface
	EXPECT_EQ(str_at(s, 16), "eth0");
	EXPECT_EQ(str_at(s, 144), "");			// no ip2nets
	EXPECT_EQ(u32_at(s, 272), 0U);			// cpts
	EXPECT_EQ(u32_at(s, 276), 3U);
	EXPECT_EQ(u32_at(s, 784), 2U);			// cpt count
	EXPECT_EQ(s32_at(s, 796), -1);			// dev cpt
	// common tunables at 808
	EXPECT_EQ(u32_at(s, 808), LNET_IOCTL_TUNABLES_VERSION);
	EXPECT_EQ(s32_at(s, 812), 90);			// peer_timeout
	EXPECT_EQ(s32_at(s, 816), 16);			// peer tx credits
	EXPECT_EQ(s32_at(s, 820), -1);			// peer router credits
	EXPECT_EQ(s32_at(s, 824), 512);			// max tx credits
	// socklnd tunables at 828
	EXPECT_EQ(u32_at(s, 828), LNET_IOCTL_TUNABLES_VERSION);
	EXPECT_EQ(u16_at(s, 832), 4U);			// conns_per_peer
	EXPECT_EQ(u32_at(s, 836), 0U);			// timeout: default
	EXPECT_EQ(static_cast<std::int16_t>(u16_at(s, 840)), 96);	// tos
}

TEST(IoctlPack, NetAddDefaultsGetAnLndBlock)
{
	NiConfig ni;
	ni.nid = nid_from_interface(tcp1);
	ni.interface = "eth1";
	NiIoctl s = pack_add_ni(ni);

	EXPECT_EQ(s32_at(s, 812), -1);
	EXPECT_EQ(s32_at(s, 824), -1);
	EXPECT_EQ(u32_at(s, 828), LNET_IOCTL_TUNABLES_VERSION);
	EXPECT_EQ(u16_at(s, 832), 0U);
	EXPECT_EQ(static_cast<std::int16_t>(u16_at(s, 840)), -1);
	EXPECT_EQ(u32_at(s, 784), 0U);			// all CPTs
}

TEST(IoctlPack, NetAddO2ibBlock)
{
	NiConfig ni;
	ni.nid = nid_from_interface(LNET_MKNET(LNET_LND_O2IB, 0));
	ni.interface = "ib0";
	ni.lnd = O2ibTunables{ 4, 1, 8, 512, 384, 1, 1024, 2, 30, 106 };
	NiIoctl s = pack_add_ni(ni);

	EXPECT_EQ(u32_at(s, 828), LNET_IOCTL_TUNABLES_VERSION);
	EXPECT_EQ(u32_at(s, 832), 4U);			// peercredits_hiw
	EXPECT_EQ(u32_at(s, 836), 1U);			// map_on_demand
	EXPECT_EQ(u32_at(s, 840), 8U);			// concurrent_sends
	EXPECT_EQ(u32_at(s, 844), 512U);		// fmr_pool_size
	EXPECT_EQ(u32_at(s, 848), 384U);		// fmr_flush_trigger
	EXPECT_EQ(u32_at(s, 852), 1U);			// fmr_cache
	EXPECT_EQ(u16_at(s, 856), 2U);			// conns_per_peer
	EXPECT_EQ(u16_at(s, 858), 1024U);		// ntx
	EXPECT_EQ(u32_at(s, 860), 30U);			// timeout
	EXPECT_EQ(u16_at(s, 864), 106U);		// tos
}

TEST(IoctlPack, NetAddRejectsOversizeStrings)
{
	NiConfig ni;
	ni.nid = nid_from_interface(tcp1);
	ni.interface = std::string(128, 'x');
	EXPECT_THROW(pack_add_ni(ni), KernelError);
	ni.interface = std::string(127, 'x');
	EXPECT_NO_THROW(pack_add_ni(ni));
	ni.cpts.assign(129, 0);
	EXPECT_THROW(pack_add_ni(ni), KernelError);
}

TEST(IoctlPack, DelAndGetNi)
{
	NiIoctl d = pack_del_ni(gw_nid);
	EXPECT_EQ(u32_at(d, 0), 868U);
	EXPECT_EQ(u64_at(d, 8), gw_nid);
	NiIoctl g = pack_get_ni(3);
	EXPECT_EQ(u32_at(g, 792), 3U);
	EXPECT_EQ(u32_at(g, 4), LNET_IOCTL_VERSION2);
}

TEST(IoctlPack, UnpackNi)
{
	NiIoctl r{};
	r.ni.lic_nid = gw_nid;
	std::strcpy(r.ni.lic_ni_intf, "eth3");
	r.ni.lic_status = LNET_IOCTL_NI_STATUS_UP;
	r.ni.lic_ncpts = 2;
	r.ni.lic_cpts[0] = 1;
	r.ni.lic_cpts[1] = 2;
	r.ni.lic_dev_cpt = 1;
	r.tunables.lt_cmn = { 1, 180, 8, 0, 256 };
	r.tunables.lt_lnd.sock.lnd_conns_per_peer = 3;
	r.tunables.lt_lnd.sock.lnd_timeout = 50;
	r.tunables.lt_lnd.sock.lnd_tos = -1;

	NiInfo info = unpack_ni(r);
	EXPECT_EQ(info.config.nid, gw_nid);
	EXPECT_EQ(info.config.interface, "eth3");
	EXPECT_TRUE(info.up);
	EXPECT_EQ(info.dev_cpt, 1);
	EXPECT_EQ(info.config.cpts, (std::vector<std::uint32_t>{ 1, 2 }));
	EXPECT_EQ(info.config.tunables, (CommonTunables{ 180, 8, 0, 256 }));
	EXPECT_EQ(info.config.lnd, LndTunables(SockTunables{ 3, 50, -1 }));

	r.ni.lic_status = LNET_IOCTL_NI_STATUS_DOWN;
	r.ni.lic_nid = LNET_NID_LO_0;
	info = unpack_ni(r);
	EXPECT_FALSE(info.up);
	EXPECT_TRUE(std::holds_alternative<std::monostate>(info.config.lnd));
}

TEST(IoctlPack, RouteBytes)
{
	lnet_ioctl_config_data d =
		pack_add_route(RouteConfig{ LNET_MKNET(LNET_LND_O2IB, 1), gw_nid, 2, 7, 9 });
	EXPECT_EQ(u32_at(d, 0), 184U);
	EXPECT_EQ(u32_at(d, 4), 0x0001000BU);
	EXPECT_EQ(u32_at(d, 8), 0x00050001U);		// remote net
	EXPECT_EQ(u64_at(d, 16), gw_nid);		// gateway
	EXPECT_EQ(s32_at(d, 28), 2);			// hop
	EXPECT_EQ(u32_at(d, 32), 7U);			// priority
	EXPECT_EQ(u32_at(d, 36), 0U);			// flags
	EXPECT_EQ(u32_at(d, 40), 9U);			// sensitivity

	lnet_ioctl_config_data any = pack_add_route(RouteConfig{ tcp1, gw_nid });
	EXPECT_EQ(s32_at(any, 28), -1);

	lnet_ioctl_config_data del = pack_del_route(tcp1, gw_nid);
	EXPECT_EQ(u32_at(del, 8), tcp1);
	EXPECT_EQ(u64_at(del, 16), gw_nid);
	EXPECT_EQ(u32_at(pack_get_route(5), 12), 5U);
	EXPECT_EQ(u32_at(pack_del_net(tcp1), 8), tcp1);
}

TEST(IoctlPack, UnpackRoute)
{
	lnet_ioctl_config_data d = pack_add_route(RouteConfig{ tcp1, gw_nid, 3, 1, 1 });
	d.cfg_u.route.flags = LNET_IOCTL_ROUTE_ALIVE | LNET_IOCTL_ROUTE_MULTI_HOP;
	RouteInfo r = unpack_route(d);
	EXPECT_EQ(r.config, (RouteConfig{ tcp1, gw_nid, 3, 1, 1 }));
	EXPECT_TRUE(r.alive);
	EXPECT_TRUE(r.multi_hop);
}

TEST(IoctlPack, RoutingBytes)
{
	lnet_ioctl_config_data on = pack_config_rtr(true);
	EXPECT_EQ(u32_at(on, 0), 184U);
	EXPECT_EQ(s32_at(on, 28), 1);			// buffers.enable
	EXPECT_EQ(s32_at(pack_config_rtr(false), 28), 0);
	EXPECT_EQ(u32_at(pack_get_buf(3), 12), 3U);	// the CPT
	lnet_ioctl_config_data add = pack_add_buf({ 7, 0, 9 });
	EXPECT_EQ(u32_at(add, 0), 184U);
	EXPECT_EQ(s32_at(add, 28), 0);			// buffers.enable
	EXPECT_EQ(s32_at(add, 32), 7);			// buffers.tiny
	EXPECT_EQ(s32_at(add, 36), 0);			// buffers.small
	EXPECT_EQ(s32_at(add, 40), 9);			// buffers.large

	lnet_ioctl_config_data d = pack_get_buf(0);
	d.cfg_u.pools.enable = 1;
	d.cfg_u.pools.pool[2].npages = 256;
	d.cfg_u.pools.pool[2].nbuffers = 8;
	d.cfg_u.pools.pool[2].credits = -3;
	d.cfg_u.pools.pool[2].mincredits = -5;
	EXPECT_EQ(s32_at(d, 68), 256);			// pool[2].npages
	EXPECT_EQ(s32_at(d, 80), -5);			// pool[2].mincredits
	bool enabled = false;
	auto pools = unpack_buf(d, enabled);
	EXPECT_TRUE(enabled);
	EXPECT_EQ(pools[2], (RouterPool{ 256, 8, -3, -5 }));
	EXPECT_EQ(pools[0], RouterPool{});
}

TEST(IoctlPack, PingBytes)
{
	std::vector<lnet_process_id> ids(16);
	PingRequest req;
	req.target = { gw_nid, LNET_PID_ANY };
	req.source = LNET_NID_ANY;
	req.timeout_ms = 3000;
	lnet_ioctl_ping_data p = pack_ping(req, ids);

	EXPECT_EQ(u32_at(p, 0), 56U);
	EXPECT_EQ(u32_at(p, 4), 0x0001000BU);
	EXPECT_EQ(s32_at(p, 8), 3000);
	EXPECT_EQ(u32_at(p, 12), 16U);
	EXPECT_EQ(u32_at(p, 16), 0U);
	EXPECT_EQ(u64_at(p, 24), gw_nid);
	EXPECT_EQ(u32_at(p, 32), 0xFFFFFFFFU);
	EXPECT_EQ(u64_at(p, 40), reinterpret_cast<std::uintptr_t>(ids.data()));
	EXPECT_EQ(u64_at(p, 48), 0xFFFFFFFFFFFFFFFFULL);
}

TEST(IoctlPack, UnpackPingClampsCount)
{
	std::vector<lnet_process_id> ids = { { LNET_NID_LO_0, 12345 }, { gw_nid, 12345 } };
	lnet_ioctl_ping_data p{};
	p.ping_target_nid = gw_nid + 1;
	p.ping_mr = 1;
	p.ping_count = 9;

	PingReply r = unpack_ping(p, ids);
	EXPECT_EQ(r.primary_nid, gw_nid + 1);
	EXPECT_TRUE(r.multi_rail);
	ASSERT_EQ(r.ids.size(), 2U);
	EXPECT_EQ(r.ids[1].nid, gw_nid);
}

// DISCOVER: PING_PEER's ping data (bytes above) but for ping_param, the
// force flag; any pid, any source.
TEST(IoctlPack, DiscoverBytes)
{
	std::vector<lnet_process_id> ids(LNET_IOCTL_PEER_MAX_NIDS);
	lnet_ioctl_ping_data p = pack_discover(gw_nid, true, ids);
	lnet_ioctl_ping_data want =
		pack_ping(PingRequest{ .target = { gw_nid, LNET_PID_ANY } }, ids);

	EXPECT_EQ(s32_at(p, 8), 1);
	EXPECT_EQ(u64_at(p, 24), gw_nid);
	EXPECT_EQ(u32_at(p, 32), 0xFFFFFFFFU);
	EXPECT_EQ(u64_at(p, 48), 0xFFFFFFFFFFFFFFFFULL);
	want.ping_param = 1;
	EXPECT_EQ(std::memcmp(&p, &want, sizeof(p)), 0);
	EXPECT_EQ(s32_at(pack_discover(gw_nid, false, ids), 8), 0);
}

// The reply of either: primary NID, Multi-Rail and the feature bits.
TEST(IoctlPack, UnpackDiscoverReply)
{
	std::vector<lnet_process_id> ids = { { gw_nid + 1, 12345 }, { gw_nid, 12345 } };
	lnet_ioctl_ping_data p{};
	p.ping_target_nid = gw_nid + 1;
	p.ping_mr = 1;
	p.ping_flags = 0x1b;
	p.ping_count = 2;

	PingReply r = unpack_ping(p, ids);
	EXPECT_EQ(r.primary_nid, gw_nid + 1);
	EXPECT_TRUE(r.multi_rail);
	EXPECT_EQ(r.features, 0x1bU);
	EXPECT_EQ(r.ids.size(), 2U);
	p.ping_mr = 0;
	EXPECT_FALSE(unpack_ping(p, ids).multi_rail);
}

// GET_PEER_NI: the peer's flags.
TEST(IoctlPack, UnpackPeerFlags)
{
	lnet_ioctl_peer_ni p = pack_get_peer_ni(0);
	p.pni_primary_nid = gw_nid;
	p.pni_peer_state = 0x42;
	p.pni_flags = LNET_IOCTL_PEER_MULTI_RAIL | LNET_IOCTL_PEER_LOCK_PRIM |
		      LNET_IOCTL_PEER_DISCOVERED;
	PeerInfo peer = unpack_peer(p);

	EXPECT_EQ(peer.primary_nid, gw_nid);
	EXPECT_EQ(peer.state, 0x42U);
	EXPECT_TRUE(peer.multi_rail);
	EXPECT_FALSE(peer.configured);
	EXPECT_TRUE(peer.lock_prim);
	EXPECT_TRUE(peer.discovered);
	EXPECT_FALSE(peer.no_discovery);
	EXPECT_TRUE(peer.nis.empty());
	p.pni_flags = LNET_IOCTL_PEER_CONFIGURED | LNET_IOCTL_PEER_NO_DISCOVERY;
	peer = unpack_peer(p);
	EXPECT_FALSE(peer.multi_rail);
	EXPECT_TRUE(peer.configured);
	EXPECT_FALSE(peer.lock_prim);
	EXPECT_FALSE(peer.discovered);
	EXPECT_TRUE(peer.no_discovery);
}

TEST(IoctlPack, StatsInOrder)
{
	lnet_ioctl_lnet_stats s = pack_get_stats();
	EXPECT_EQ(u32_at(s, 0), 216U);
	for (std::size_t i = 0; i < counter_names.size(); i++)
		std::memcpy(reinterpret_cast<unsigned char *>(&s) + 8 + 8 * i, &i, 8);
	Counters c = unpack_stats(s);
	for (std::size_t i = 0; i < c.size(); i++)
		EXPECT_EQ(c[i], i) << counter_names[i];
	EXPECT_EQ(pack_reset_stats().ioc_len, 8U);
}

TEST(IoctlPack, PeerNiAndNiStats)
{
	lnet_ioctl_peer_ni p = pack_get_peer_ni(4);
	EXPECT_EQ(u32_at(p, 0), 264U);
	EXPECT_EQ(u32_at(p, 8), 4U);
	p.pni_nid = gw_nid;
	p.pni_ni_state = LNET_IOCTL_PEER_NI_DOWN;
	p.pni_min_tx_credits = -3;
	p.pni_stats.ms_sent[LNET_IOCTL_MSG_GET] = 11;
	p.pni_hs_next_ping = 30;
	PeerNiInfo ni = unpack_peer_ni(p);
	EXPECT_EQ(ni.nid, gw_nid);
	EXPECT_EQ(ni.state, PeerNiState::down);
	EXPECT_EQ(ni.min_tx_credits, -3);
	EXPECT_EQ(ni.stats.sent[1], 11U);
	EXPECT_EQ(ni.hs_next_ping, 30);

	lnet_ioctl_ni_msg_stats m = pack_get_ni_stats(gw_nid);
	EXPECT_EQ(u32_at(m, 0), 160U);
	EXPECT_EQ(u64_at(m, 8), gw_nid);
	lnet_ioctl_ni_health h = pack_get_ni_health(gw_nid);
	EXPECT_EQ(u32_at(h, 0), 88U);
	EXPECT_EQ(u64_at(h, 8), gw_nid);
	h.lnh_health_value = 900;
	h.lnh_fatal_error = 1;
	EXPECT_EQ(unpack_ni_health(h).health_value, 900);
	EXPECT_TRUE(unpack_ni_health(h).fatal_error);

	lnet_ioctl_set_health sh = pack_set_health(HealthOf::peer_ni, gw_nid, 300);
	EXPECT_EQ(u32_at(sh, 0), 32U);
	EXPECT_EQ(u64_at(sh, 8), gw_nid);
	EXPECT_EQ(u32_at(sh, 16), std::uint32_t{ LNET_HEALTH_PEER_NI });
	EXPECT_EQ(u32_at(sh, 20), 300U);
	EXPECT_EQ(u32_at(sh, 24), 0U);
	sh = pack_set_health(HealthOf::local_ni, std::nullopt, 0);
	EXPECT_EQ(u64_at(sh, 8), LNET_NID_ANY);
	EXPECT_EQ(u32_at(sh, 16), std::uint32_t{ LNET_HEALTH_LOCAL_NI });
	EXPECT_EQ(u32_at(sh, 24), 1U);
}

TEST(IoctlPack, PeerConfigAndConnsPerPeerBytes)
{
	const lnet_nid_t nid = 0x00020000c0000263ULL;	// 192.0.2.99@tcp

	lnet_ioctl_peer_cfg pc = pack_peer_cfg(PeerConfig{ .primary = nid, .non_mr = true,
							   .lock_prim = true });
	EXPECT_EQ(u32_at(pc, 0), 32U);
	EXPECT_EQ(u32_at(pc, 4), LNET_IOCTL_VERSION2);
	EXPECT_EQ(u64_at(pc, 8), nid);
	EXPECT_EQ(u64_at(pc, 16), LNET_NID_ANY);
	EXPECT_EQ(u32_at(pc, 24), LNET_IOCTL_PEER_CFG_NON_MR | LNET_IOCTL_PEER_CFG_LOCK_PRIM);
	EXPECT_EQ(u32_at(pc, 28), 0U);
	EXPECT_EQ(u32_at(pack_peer_cfg(PeerConfig{ .primary = nid }), 24), 0U);
	// a NID joining or leaving the peer; del --force
	pc = pack_peer_cfg(PeerConfig{ .primary = nid, .nid = gw_nid, .force = true });
	EXPECT_EQ(u64_at(pc, 8), nid);
	EXPECT_EQ(u64_at(pc, 16), gw_nid);
	EXPECT_EQ(u32_at(pc, 24), LNET_IOCTL_PEER_CFG_FORCE);
	EXPECT_EQ(LNET_IOCTL_PEER_CFG_FORCE, 0x4U);

	lnet_ioctl_conns_per_peer c = pack_conns_per_peer(nid, 3);
	EXPECT_EQ(u32_at(c, 0), 24U);
	EXPECT_EQ(u64_at(c, 8), nid);
	EXPECT_EQ(u32_at(c, 16), 0U);
	EXPECT_EQ(u32_at(c, 20), 3U);
	c = pack_conns_per_peer(std::nullopt, 0);
	EXPECT_EQ(u64_at(c, 8), LNET_NID_ANY);
	EXPECT_EQ(u32_at(c, 16), 1U);
}

TEST(IoctlPack, RecoveryQueueBytes)
{
	lnet_ioctl_recovery_list l = pack_get_recovery_queue(HealthOf::peer_ni);
	EXPECT_EQ(u32_at(l, 0), 1560U);
	EXPECT_EQ(u32_at(l, 4), LNET_IOCTL_VERSION2);
	EXPECT_EQ(u32_at(l, 8), std::uint32_t{ LNET_HEALTH_PEER_NI });
	EXPECT_EQ(u32_at(l, 12), 0U);
	EXPECT_EQ(u32_at(l, 16), 0U);
	EXPECT_EQ(u32_at(l, 20), 0U);	// rl_pad
	l = pack_get_recovery_queue(HealthOf::local_ni);
	EXPECT_EQ(u32_at(l, 8), std::uint32_t{ LNET_HEALTH_LOCAL_NI });

	l.rl_count = 2;
	l.rl_total = 7;
	l.rl_entries[0] = { gw_nid, 300, 4, 12 };
	l.rl_entries[1] = { gw_nid + 1, 0, 9, -1 };
	l.rl_entries[2] = { gw_nid + 2, 1, 1, 1 };	// past rl_count
	EXPECT_EQ(u64_at(l, 24), gw_nid);
	EXPECT_EQ(s32_at(l, 32), 300);
	EXPECT_EQ(u32_at(l, 36), 4U);
	EXPECT_EQ(value_at<std::int64_t>(l, 40), 12);
	EXPECT_EQ(value_at<std::int64_t>(l, 24 + 24 + 16), -1);
	RecoveryQueue q = unpack_recovery_queue(l);
	EXPECT_EQ(q, (RecoveryQueue{ { { gw_nid, 300, 4, 12 },
				       { gw_nid + 1, 0, 9, recovery_ping_pending } },
				     7 }));
}

TEST(IoctlPack, UnpackRecoveryQueueClampsCount)
{
	lnet_ioctl_recovery_list l = pack_get_recovery_queue(HealthOf::local_ni);
	l.rl_count = LNET_RECOVERY_LIST_MAX + 10;
	l.rl_total = 3;
	RecoveryQueue q = unpack_recovery_queue(l);
	EXPECT_EQ(q.entries.size(), std::size_t{ LNET_RECOVERY_LIST_MAX });
	EXPECT_EQ(q.total, std::uint32_t{ LNET_RECOVERY_LIST_MAX });
	l.rl_count = 0;
	l.rl_total = 0;
	EXPECT_EQ(unpack_recovery_queue(l), RecoveryQueue{});
}

// GET_PEER / GET_CONN: net and index in, the LND's fields out, where the
// uapi header puts them.
TEST(IoctlPack, LndListing)
{
	lnet_ioctl_data d = pack_lnd_get(LNET_MKNET(LNET_LND_SOCK, 1), 7);

	EXPECT_EQ(d.ioc_hdr.ioc_len, sizeof(d));
	EXPECT_EQ(d.ioc_hdr.ioc_version, LNET_IOCTL_VERSION);
	EXPECT_EQ(d.ioc_net, LNET_MKNET(LNET_LND_SOCK, 1));
	EXPECT_EQ(d.ioc_count, 7U);

	d.ioc_nid = 0x0002000001020304ULL;
	d.ioc_u64[0] = 12345;
	for (std::uint32_t i = 0; i < 7; i++)
		d.ioc_u32[i] = 100 + i;
	d.ioc_u32[4] = LNET_IOCTL_SOCK_CONN_BULK_OUT;
	d.ioc_flags = LNET_IOCTL_SOCK_CONN_NAGLE | (3U << LNET_IOCTL_SOCK_CONN_SCHED_SHIFT);
	SockConn c = unpack_sock_conn(d);
	EXPECT_EQ(c.id.nid, d.ioc_nid);
	EXPECT_EQ(c.id.pid, 12345U);
	EXPECT_EQ(c.local_ip, 100U);
	EXPECT_EQ(c.local_port, 101U);
	EXPECT_EQ(c.peer_ip, 102U);
	EXPECT_EQ(c.peer_port, 103U);
	EXPECT_EQ(c.type, SockConnType::bulk_out);
	EXPECT_EQ(c.tx_buffer, 105U);
	EXPECT_EQ(c.rx_buffer, 106U);
	EXPECT_TRUE(c.nagle);
	EXPECT_EQ(c.scheduler, 3U);

	d.ioc_flags = LNET_IOCTL_SOCK_PEER_CONNECTING;
	SockPeer p = unpack_sock_peer(d);
	EXPECT_EQ(p.local_ip, 100U);
	EXPECT_EQ(p.peer_ip, 101U);
	EXPECT_EQ(p.peer_port, 102U);
	EXPECT_EQ(p.conns, 103U);
	EXPECT_EQ(p.waiting, 3U);
	EXPECT_TRUE(p.connecting);

	d.ioc_u32[1] = LNET_IOCTL_O2IB_STATE_ESTABLISHED;
	d.ioc_u32[2] = static_cast<std::uint32_t>(-1);	// credits may go negative
	d.ioc_flags = LNET_IOCTL_O2IB_CONN_ACTIVE;
	O2ibConn oc = unpack_o2ib_conn(d);
	EXPECT_EQ(oc.mtu, 100U);
	EXPECT_EQ(oc.state, O2ibState::established);
	EXPECT_EQ(oc.credits, -1);
	EXPECT_EQ(oc.outstanding, 103);
	EXPECT_EQ(oc.queue_depth, 3U);
	EXPECT_EQ(oc.version, 105U);
	EXPECT_EQ(oc.queued, 106U);
	EXPECT_TRUE(oc.active);
	O2ibPeer op = unpack_o2ib_peer(d);
	EXPECT_EQ(op.conns, 100U);
	EXPECT_EQ(op.waiting, 105U);
	EXPECT_EQ(op.refs, 106U);
	d.ioc_u32[1] = 9;
	EXPECT_EQ(unpack_o2ib_peer(d).state, O2ibState::unknown);
}

}  // namespace
}  // namespace lnetctl
