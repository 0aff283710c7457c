// SPDX-License-Identifier: GPL-2.0
#include "ioctl_pack.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lnetctl {
namespace {

// The header gives these layouts in comments only; lnet.ko reads them at
// exactly these offsets.
static_assert(sizeof(lnet_fault_attr) == 64);
static_assert(offsetof(lnet_fault_attr, fa_dst) == 8);
static_assert(offsetof(lnet_fault_attr, fa_local_nid) == 16);
static_assert(offsetof(lnet_fault_attr, fa_ptl_mask) == 24);
static_assert(offsetof(lnet_fault_attr, fa_msg_mask) == 32);
static_assert(offsetof(lnet_fault_attr, fa_rate) == 36);
static_assert(offsetof(lnet_fault_attr, fa_interval) == 40);
static_assert(offsetof(lnet_fault_attr, fa_latency) == 44);
static_assert(offsetof(lnet_fault_attr, fa_health_mask) == 48);
static_assert(offsetof(lnet_fault_attr, fa_flags) == 52);
static_assert(offsetof(lnet_fault_attr, fa_seed) == 56);
static_assert(sizeof(lnet_fault_stat) == 64);
static_assert(offsetof(lnet_fault_stat, fs_ack) == 8);
static_assert(offsetof(lnet_fault_stat, fs_put) == 16);
static_assert(offsetof(lnet_fault_stat, fs_get) == 24);
static_assert(offsetof(lnet_fault_stat, fs_reply) == 32);
static_assert(offsetof(lnet_fault_stat, fs_total) == 40);
static_assert(offsetof(lnet_fault_stat, fs_held) == 48);
static_assert(sizeof(lnet_ioctl_fault) == 152);
static_assert(offsetof(lnet_ioctl_fault, lfi_opc) == 8);
static_assert(offsetof(lnet_ioctl_fault, lfi_index) == 12);
static_assert(offsetof(lnet_ioctl_fault, lfi_count) == 16);
static_assert(offsetof(lnet_ioctl_fault, lfi_attr) == 24);
static_assert(offsetof(lnet_ioctl_fault, lfi_stat) == 88);

void set_hdr(lnet_ioctl_hdr &hdr, std::size_t len, std::uint32_t version)
{
	hdr.ioc_len = static_cast<std::uint32_t>(len);
	hdr.ioc_version = version;
}

// Value-initialised (all-zero) structure with its header filled in.
template <typename T>
T v2_struct(lnet_ioctl_hdr T::*hdr)
{
	T s{};

	set_hdr(s.*hdr, sizeof(T), LNET_IOCTL_VERSION2);
	return s;
}

template <std::size_t N>
void copy_string(char (&dst)[N], std::string_view src, std::string_view what)
{
	if (src.size() >= N)
		throw KernelError(EINVAL, std::string(what) + " is longer than " +
					  std::to_string(N - 1) + " characters");
	std::copy(src.begin(), src.end(), dst);
	dst[src.size()] = '\0';
}

template <std::size_t N>
std::string read_string(const char (&src)[N])
{
	return std::string(src, strnlen(src, N));
}

// SET_HEALTHV's sh_type, GET_RECOVERY_QUEUE's rl_type
std::uint32_t health_type(HealthOf what)
{
	return what == HealthOf::local_ni ? LNET_HEALTH_LOCAL_NI :
					    LNET_HEALTH_PEER_NI;
}

lnet_ioctl_config_data config_data()
{
	return v2_struct(&lnet_ioctl_config_data::cfg_hdr);
}

NiIoctl ni_ioctl()
{
	NiIoctl s{};

	set_hdr(s.ni.lic_hdr, ni_ioctl_len, LNET_IOCTL_VERSION2);
	return s;
}

std::uint32_t lnd_of(lnet_nid_t nid)
{
	return LNET_NETTYP(LNET_NIDNET(nid));
}

void pack_lnd(const LndTunables &lnd, lnet_ioctl_lnd_tunables &t)
{
	if (const auto *sock = std::get_if<SockTunables>(&lnd)) {
		auto &s = t.lt_lnd.sock;

		s.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		s.lnd_conns_per_peer = sock->conns_per_peer;
		s.lnd_timeout = sock->timeout;
		s.lnd_tos = sock->tos;
	} else if (const auto *ib = std::get_if<O2ibTunables>(&lnd)) {
		auto &o = t.lt_lnd.o2ib;

		o.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		o.lnd_peercredits_hiw = ib->peercredits_hiw;
		o.lnd_map_on_demand = ib->map_on_demand;
		o.lnd_concurrent_sends = ib->concurrent_sends;
		o.lnd_fmr_pool_size = ib->fmr_pool_size;
		o.lnd_fmr_flush_trigger = ib->fmr_flush_trigger;
		o.lnd_fmr_cache = ib->fmr_cache;
		o.lnd_conns_per_peer = ib->conns_per_peer;
		o.lnd_ntx = ib->ntx;
		o.lnd_timeout = ib->timeout;
		o.lnd_tos = ib->tos;
	}
}

LndTunables unpack_lnd(std::uint32_t lnd_type, const lnet_ioctl_lnd_tunables &t)
{
	if (lnd_type == LNET_LND_SOCK) {
		const auto &s = t.lt_lnd.sock;
		SockTunables sock;

		sock.conns_per_peer = s.lnd_conns_per_peer;
		sock.timeout = s.lnd_timeout;
		sock.tos = s.lnd_tos;
		return sock;
	}
	if (lnd_type == LNET_LND_O2IB) {
		const auto &o = t.lt_lnd.o2ib;
		O2ibTunables ib;

		ib.peercredits_hiw = o.lnd_peercredits_hiw;
		ib.map_on_demand = o.lnd_map_on_demand;
		ib.concurrent_sends = o.lnd_concurrent_sends;
		ib.fmr_pool_size = o.lnd_fmr_pool_size;
		ib.fmr_flush_trigger = o.lnd_fmr_flush_trigger;
		ib.fmr_cache = o.lnd_fmr_cache;
		ib.conns_per_peer = o.lnd_conns_per_peer;
		ib.ntx = o.lnd_ntx;
		ib.timeout = o.lnd_timeout;
		ib.tos = o.lnd_tos;
		return ib;
	}
	return std::monostate{};
}

MsgStats unpack_counts(const lnet_ioctl_msg_stats &s)
{
	MsgStats m;

	m.send_count = s.ms_send_count;
	m.recv_count = s.ms_recv_count;
	m.drop_count = s.ms_drop_count;
	std::copy(std::begin(s.ms_sent), std::end(s.ms_sent), m.sent.begin());
	std::copy(std::begin(s.ms_received), std::end(s.ms_received),
		  m.received.begin());
	std::copy(std::begin(s.ms_dropped), std::end(s.ms_dropped),
		  m.dropped.begin());
	return m;
}

lnet_ioctl_fault fault_ioctl(FaultKind kind, FaultOp op)
{
	auto f = v2_struct(&lnet_ioctl_fault::lfi_hdr);

	f.lfi_opc = fault_opcode(kind, op);
	return f;
}

}  // namespace

lnet_ioctl_data pack_configure(bool all, bool large)
{
	lnet_ioctl_data d{};

	set_hdr(d.ioc_hdr, sizeof(d), LNET_IOCTL_VERSION);
	d.ioc_flags = (all ? LNET_IOCTL_CONFIGURE_ALL : 0) |
		      (large ? LNET_IOCTL_CONFIGURE_LARGE : 0);
	return d;
}

lnet_ioctl_data pack_unconfigure()
{
	lnet_ioctl_data d{};

	set_hdr(d.ioc_hdr, sizeof(d), LNET_IOCTL_VERSION);
	return d;
}

lnet_ioctl_data pack_dist(lnet_nid_t nid)
{
	lnet_ioctl_data d{};

	set_hdr(d.ioc_hdr, sizeof(d), LNET_IOCTL_VERSION);
	d.ioc_nid = nid;
	return d;
}

Distance unpack_dist(const lnet_ioctl_data &reply)
{
	return Distance{ reply.ioc_u32[0], reply.ioc_u32[1], reply.ioc_nid };
}

lnet_ioctl_data pack_lnd_get(std::uint32_t net, std::uint32_t index)
{
	lnet_ioctl_data d{};

	set_hdr(d.ioc_hdr, sizeof(d), LNET_IOCTL_VERSION);
	d.ioc_net = net;
	d.ioc_count = index;
	return d;
}

namespace {

lnet_process_id reply_id(const lnet_ioctl_data &d)
{
	return { d.ioc_nid, static_cast<lnet_pid_t>(d.ioc_u64[0]) };
}

SockConnType sock_conn_type(std::uint32_t t)
{
	switch (t) {
	case LNET_IOCTL_SOCK_CONN_ANY:
		return SockConnType::any;
	case LNET_IOCTL_SOCK_CONN_CONTROL:
		return SockConnType::control;
	case LNET_IOCTL_SOCK_CONN_BULK_IN:
		return SockConnType::bulk_in;
	case LNET_IOCTL_SOCK_CONN_BULK_OUT:
		return SockConnType::bulk_out;
	default:
		return SockConnType::unknown;
	}
}

O2ibState o2ib_state(std::uint32_t s)
{
	switch (s) {
	case LNET_IOCTL_O2IB_STATE_NONE:
		return O2ibState::none;
	case LNET_IOCTL_O2IB_STATE_CONNECTING:
		return O2ibState::connecting;
	case LNET_IOCTL_O2IB_STATE_ESTABLISHED:
		return O2ibState::established;
	case LNET_IOCTL_O2IB_STATE_CLOSING:
		return O2ibState::closing;
	default:
		return O2ibState::unknown;
	}
}

}  // namespace

SockPeer unpack_sock_peer(const lnet_ioctl_data &d)
{
	SockPeer p;

	p.id = reply_id(d);
	p.local_ip = d.ioc_u32[0];
	p.peer_ip = d.ioc_u32[1];
	p.peer_port = d.ioc_u32[2];
	p.conns = d.ioc_u32[3];
	p.waiting = d.ioc_u32[4];
	p.connecting = d.ioc_flags & LNET_IOCTL_SOCK_PEER_CONNECTING;
	return p;
}

SockConn unpack_sock_conn(const lnet_ioctl_data &d)
{
	SockConn c;

	c.id = reply_id(d);
	c.local_ip = d.ioc_u32[0];
	c.local_port = d.ioc_u32[1];
	c.peer_ip = d.ioc_u32[2];
	c.peer_port = d.ioc_u32[3];
	c.type = sock_conn_type(d.ioc_u32[4]);
	c.tx_buffer = d.ioc_u32[5];
	c.rx_buffer = d.ioc_u32[6];
	c.nagle = d.ioc_flags & LNET_IOCTL_SOCK_CONN_NAGLE;
	c.scheduler = LNET_IOCTL_SOCK_CONN_SCHED(d.ioc_flags);
	return c;
}

O2ibPeer unpack_o2ib_peer(const lnet_ioctl_data &d)
{
	O2ibPeer p;

	p.nid = d.ioc_nid;
	p.conns = d.ioc_u32[0];
	p.state = o2ib_state(d.ioc_u32[1]);
	p.credits = static_cast<std::int32_t>(d.ioc_u32[2]);
	p.outstanding = static_cast<std::int32_t>(d.ioc_u32[3]);
	p.queue_depth = d.ioc_u32[4];
	p.waiting = d.ioc_u32[5];
	p.refs = d.ioc_u32[6];
	return p;
}

O2ibConn unpack_o2ib_conn(const lnet_ioctl_data &d)
{
	O2ibConn c;

	c.nid = d.ioc_nid;
	c.mtu = d.ioc_u32[0];
	c.state = o2ib_state(d.ioc_u32[1]);
	c.credits = static_cast<std::int32_t>(d.ioc_u32[2]);
	c.outstanding = static_cast<std::int32_t>(d.ioc_u32[3]);
	c.queue_depth = d.ioc_u32[4];
	c.version = d.ioc_u32[5];
	c.queued = d.ioc_u32[6];
	c.active = d.ioc_flags & LNET_IOCTL_O2IB_CONN_ACTIVE;
	return c;
}

NiIoctl pack_add_ni(const NiConfig &ni)
{
	NiIoctl s = ni_ioctl();
	auto &cmn = s.tunables.lt_cmn;

	if (ni.cpts.size() > LNET_IOCTL_MAX_CPTS)
		throw KernelError(EINVAL, "more than " +
				  std::to_string(LNET_IOCTL_MAX_CPTS) + " CPTs");
	s.ni.lic_nid = ni.nid;
	copy_string(s.ni.lic_ni_intf, ni.interface, "interface name");
	copy_string(s.ni.lic_legacy_ip2nets, ni.ip2net, "ip2net rule");
	std::copy(ni.cpts.begin(), ni.cpts.end(), s.ni.lic_cpts);
	s.ni.lic_ncpts = static_cast<std::uint32_t>(ni.cpts.size());
	s.ni.lic_dev_cpt = -1;

	cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	cmn.lct_peer_timeout = ni.tunables.peer_timeout;
	cmn.lct_peer_tx_credits = ni.tunables.peer_credits;
	cmn.lct_peer_rtr_credits = ni.tunables.peer_buffer_credits;
	cmn.lct_max_tx_credits = ni.tunables.credits;
	// An LND block must be there for the kernel to find its defaults.
	if (std::holds_alternative<std::monostate>(ni.lnd)) {
		if (lnd_of(ni.nid) == LNET_LND_SOCK)
			pack_lnd(SockTunables{}, s.tunables);
		else if (lnd_of(ni.nid) == LNET_LND_O2IB)
			pack_lnd(O2ibTunables{}, s.tunables);
	} else {
		pack_lnd(ni.lnd, s.tunables);
	}
	return s;
}

NiIoctl pack_del_ni(lnet_nid_t nid)
{
	NiIoctl s = ni_ioctl();

	s.ni.lic_nid = nid;
	return s;
}

NiIoctl pack_get_ni(std::uint32_t index)
{
	NiIoctl s = ni_ioctl();

	s.ni.lic_idx = index;
	return s;
}

NiInfo unpack_ni(const NiIoctl &reply)
{
	const auto &r = reply.ni;
	const auto &cmn = reply.tunables.lt_cmn;
	std::uint32_t ncpts = std::min<std::uint32_t>(r.lic_ncpts,
						      LNET_IOCTL_MAX_CPTS);
	NiInfo info;

	info.config.nid = r.lic_nid;
	info.config.interface = read_string(r.lic_ni_intf);
	info.config.cpts.assign(r.lic_cpts, r.lic_cpts + ncpts);
	info.config.tunables.peer_timeout = cmn.lct_peer_timeout;
	info.config.tunables.peer_credits = cmn.lct_peer_tx_credits;
	info.config.tunables.peer_buffer_credits = cmn.lct_peer_rtr_credits;
	info.config.tunables.credits = cmn.lct_max_tx_credits;
	info.config.lnd = unpack_lnd(lnd_of(r.lic_nid), reply.tunables);
	info.up = r.lic_status == LNET_IOCTL_NI_STATUS_UP;
	info.dev_cpt = r.lic_dev_cpt;
	return info;
}

lnet_ioctl_config_data pack_del_net(std::uint32_t net)
{
	auto d = config_data();

	d.cfg_net = net;
	return d;
}

lnet_ioctl_ni_msg_stats pack_get_ni_stats(lnet_nid_t nid)
{
	auto s = v2_struct(&lnet_ioctl_ni_msg_stats::lns_hdr);

	s.lns_nid = nid;
	return s;
}

MsgStats unpack_msg_stats(const lnet_ioctl_msg_stats &stats)
{
	return unpack_counts(stats);
}

lnet_ioctl_ni_health pack_get_ni_health(lnet_nid_t nid)
{
	auto s = v2_struct(&lnet_ioctl_ni_health::lnh_hdr);

	s.lnh_nid = nid;
	return s;
}

static_assert(max_conns_per_peer == LNET_IOCTL_CONNS_PER_PEER_MAX);

lnet_ioctl_peer_cfg pack_peer_cfg(const PeerConfig &peer)
{
	auto s = v2_struct(&lnet_ioctl_peer_cfg::pc_hdr);

	s.pc_prim_nid = peer.primary;
	s.pc_nid = peer.nid;
	s.pc_flags = (peer.non_mr ? LNET_IOCTL_PEER_CFG_NON_MR : 0) |
		     (peer.lock_prim ? LNET_IOCTL_PEER_CFG_LOCK_PRIM : 0) |
		     (peer.force ? LNET_IOCTL_PEER_CFG_FORCE : 0);
	return s;
}

lnet_ioctl_conns_per_peer pack_conns_per_peer(std::optional<lnet_nid_t> nid,
					      std::uint32_t value)
{
	auto s = v2_struct(&lnet_ioctl_conns_per_peer::cpp_hdr);

	s.cpp_nid = nid.value_or(LNET_NID_ANY);
	s.cpp_all = !nid;
	s.cpp_value = value;
	return s;
}

lnet_ioctl_set_health pack_set_health(HealthOf what,
				      std::optional<lnet_nid_t> nid,
				      std::int32_t value)
{
	auto s = v2_struct(&lnet_ioctl_set_health::sh_hdr);

	s.sh_type = health_type(what);
	s.sh_nid = nid.value_or(LNET_NID_ANY);
	s.sh_all = !nid;
	s.sh_value = value;
	return s;
}

lnet_ioctl_recovery_list pack_get_recovery_queue(HealthOf what)
{
	auto s = v2_struct(&lnet_ioctl_recovery_list::rl_hdr);

	s.rl_type = health_type(what);
	return s;
}

RecoveryQueue unpack_recovery_queue(const lnet_ioctl_recovery_list &r)
{
	std::uint32_t n = std::min<std::uint32_t>(r.rl_count, LNET_RECOVERY_LIST_MAX);
	RecoveryQueue q;

	q.total = std::max(r.rl_total, n);
	for (std::uint32_t i = 0; i < n; i++) {
		const lnet_ioctl_recovery_entry &e = r.rl_entries[i];

		q.entries.push_back(RecoveryEntry{ e.re_nid, e.re_health_value,
						   e.re_ping_count, e.re_next_ping });
	}
	return q;
}

NiHealth unpack_ni_health(const lnet_ioctl_ni_health &r)
{
	NiHealth h;

	h.health_value = r.lnh_health_value;
	h.fatal_error = r.lnh_fatal_error != 0;
	h.interrupts = r.lnh_interrupts;
	h.dropped = r.lnh_dropped;
	h.aborted = r.lnh_aborted;
	h.no_route = r.lnh_no_route;
	h.timeouts = r.lnh_timeouts;
	h.error = r.lnh_error;
	h.ping_count = r.lnh_ping_count;
	h.next_ping = r.lnh_next_ping;
	return h;
}

lnet_ioctl_peer_ni pack_get_peer_ni(std::uint32_t index)
{
	auto s = v2_struct(&lnet_ioctl_peer_ni::pni_hdr);

	s.pni_index = index;
	return s;
}

PeerInfo unpack_peer(const lnet_ioctl_peer_ni &r)
{
	PeerInfo p;

	p.primary_nid = r.pni_primary_nid;
	p.multi_rail = (r.pni_flags & LNET_IOCTL_PEER_MULTI_RAIL) != 0;
	p.configured = (r.pni_flags & LNET_IOCTL_PEER_CONFIGURED) != 0;
	p.lock_prim = (r.pni_flags & LNET_IOCTL_PEER_LOCK_PRIM) != 0;
	p.discovered = (r.pni_flags & LNET_IOCTL_PEER_DISCOVERED) != 0;
	p.no_discovery = (r.pni_flags & LNET_IOCTL_PEER_NO_DISCOVERY) != 0;
	p.state = r.pni_peer_state;
	return p;
}

PeerNiInfo unpack_peer_ni(const lnet_ioctl_peer_ni &r)
{
	PeerNiInfo p;

	p.nid = r.pni_nid;
	switch (r.pni_ni_state) {
	case LNET_IOCTL_PEER_NI_UP:
		p.state = PeerNiState::up;
		break;
	case LNET_IOCTL_PEER_NI_DOWN:
		p.state = PeerNiState::down;
		break;
	default:
		p.state = PeerNiState::na;
		break;
	}
	p.max_tx_credits = r.pni_max_tx_credits;
	p.available_tx_credits = r.pni_available_tx_credits;
	p.min_tx_credits = r.pni_min_tx_credits;
	p.tx_q_num_of_buf = r.pni_tx_q_num_of_buf;
	p.available_rtr_credits = r.pni_available_rtr_credits;
	p.min_rtr_credits = r.pni_min_rtr_credits;
	p.refcount = r.pni_refcount;
	p.stats = unpack_counts(r.pni_stats);
	p.health_value = r.pni_health_value;
	p.hs_dropped = r.pni_hs_dropped;
	p.hs_timeout = r.pni_hs_timeout;
	p.hs_error = r.pni_hs_error;
	p.hs_network_timeout = r.pni_hs_network_timeout;
	p.hs_ping_count = r.pni_hs_ping_count;
	p.hs_next_ping = r.pni_hs_next_ping;
	return p;
}

lnet_ioctl_config_data pack_add_route(const RouteConfig &route)
{
	auto d = config_data();

	d.cfg_net = route.net;
	d.cfg_nid = route.gateway;
	d.cfg_u.route.hop = route.hop;
	d.cfg_u.route.priority = route.priority;
	d.cfg_u.route.sensitivity = route.sensitivity;
	return d;
}

lnet_ioctl_config_data pack_del_route(std::uint32_t net, lnet_nid_t gateway)
{
	auto d = config_data();

	d.cfg_net = net;
	d.cfg_nid = gateway;
	return d;
}

lnet_ioctl_config_data pack_get_route(std::uint32_t index)
{
	auto d = config_data();

	d.cfg_count = index;
	return d;
}

RouteInfo unpack_route(const lnet_ioctl_config_data &r)
{
	RouteInfo info;

	info.config.net = r.cfg_net;
	info.config.gateway = r.cfg_nid;
	info.config.hop = r.cfg_u.route.hop;
	info.config.priority = r.cfg_u.route.priority;
	info.config.sensitivity = r.cfg_u.route.sensitivity;
	info.alive = (r.cfg_u.route.flags & LNET_IOCTL_ROUTE_ALIVE) != 0;
	info.multi_hop = (r.cfg_u.route.flags & LNET_IOCTL_ROUTE_MULTI_HOP) != 0;
	return info;
}

lnet_ioctl_config_data pack_config_rtr(bool enable)
{
	auto d = config_data();

	d.cfg_u.buffers.enable = enable ? 1 : 0;
	return d;
}

lnet_ioctl_config_data pack_add_buf(const RouterBufferTotals &totals)
{
	auto d = config_data();

	d.cfg_u.buffers.tiny = totals[0];
	d.cfg_u.buffers.small = totals[1];
	d.cfg_u.buffers.large = totals[2];
	return d;
}

lnet_ioctl_config_data pack_get_buf(std::uint32_t cpt)
{
	auto d = config_data();

	d.cfg_count = cpt;
	return d;
}

std::array<RouterPool, 3> unpack_buf(const lnet_ioctl_config_data &r,
				     bool &enabled)
{
	static_assert(LNET_IOCTL_RTR_POOLS == 3);
	std::array<RouterPool, 3> pools{};

	enabled = r.cfg_u.pools.enable != 0;
	for (std::size_t i = 0; i < pools.size(); i++) {
		const auto &p = r.cfg_u.pools.pool[i];

		pools[i] = RouterPool{ p.npages, p.nbuffers, p.credits,
				       p.mincredits };
	}
	return pools;
}

lnet_ioctl_ping_data pack_ping(const PingRequest &request,
			       std::span<lnet_process_id> ids)
{
	auto p = v2_struct(&lnet_ioctl_ping_data::ping_hdr);

	p.ping_param = request.timeout_ms;
	p.ping_count = static_cast<std::uint32_t>(ids.size());
	p.ping_target_nid = request.target.nid;
	p.ping_target_pid = request.target.pid;
	p.ping_ids = reinterpret_cast<std::uintptr_t>(ids.data());
	p.ping_src = request.source;
	return p;
}

lnet_ioctl_ping_data pack_discover(lnet_nid_t nid, bool force,
				   std::span<lnet_process_id> ids)
{
	auto p = pack_ping(PingRequest{ .target = { nid, LNET_PID_ANY } }, ids);

	p.ping_param = force ? 1 : 0;
	return p;
}

PingReply unpack_ping(const lnet_ioctl_ping_data &reply,
		      std::span<const lnet_process_id> ids)
{
	PingReply r;
	std::size_t n = std::min<std::size_t>(reply.ping_count, ids.size());

	r.primary_nid = reply.ping_target_nid;
	r.multi_rail = reply.ping_mr != 0;
	r.ids.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n));
	r.features = reply.ping_flags;
	return r;
}

lnet_ioctl_lnet_stats pack_get_stats()
{
	return v2_struct(&lnet_ioctl_lnet_stats::st_hdr);
}

Counters unpack_stats(const lnet_ioctl_lnet_stats &r)
{
	return {
		r.st_msgs_alloc, r.st_msgs_max, r.st_rst_alloc, r.st_errors,
		r.st_send_count, r.st_resend_count, r.st_response_timeout_count,
		r.st_local_interrupt_count, r.st_local_dropped_count,
		r.st_local_aborted_count, r.st_local_no_route_count,
		r.st_local_timeout_count, r.st_local_error_count,
		r.st_remote_dropped_count, r.st_remote_error_count,
		r.st_remote_timeout_count, r.st_network_timeout_count,
		r.st_failed_resends, r.st_successful_resends, r.st_recv_count,
		r.st_route_count, r.st_drop_count, r.st_send_length,
		r.st_recv_length, r.st_route_length, r.st_drop_length,
	};
}

lnet_ioctl_hdr pack_reset_stats()
{
	lnet_ioctl_hdr h{};

	set_hdr(h, sizeof(h), LNET_IOCTL_VERSION2);
	return h;
}

std::uint32_t fault_opcode(FaultKind kind, FaultOp op)
{
	std::uint32_t base = kind == FaultKind::drop ? LNET_FAULT_DROP_ADD :
						       LNET_FAULT_DELAY_ADD;

	switch (op) {
	case FaultOp::add:
		return base;
	case FaultOp::del:
		return base + (LNET_FAULT_DROP_DEL - LNET_FAULT_DROP_ADD);
	case FaultOp::reset:
		return base + (LNET_FAULT_DROP_RESET - LNET_FAULT_DROP_ADD);
	case FaultOp::list:
		break;
	}
	return base + (LNET_FAULT_DROP_LIST - LNET_FAULT_DROP_ADD);
}

lnet_ioctl_fault pack_fault_add(FaultKind kind, const FaultRule &rule)
{
	auto f = fault_ioctl(kind, FaultOp::add);
	auto &a = f.lfi_attr;

	a.fa_src = rule.src;
	a.fa_dst = rule.dst;
	a.fa_local_nid = rule.local_nid;
	a.fa_ptl_mask = rule.ptl_mask;
	a.fa_msg_mask = rule.msg_mask;
	a.fa_rate = rule.rate;
	a.fa_interval = rule.interval;
	a.fa_latency = rule.latency;
	a.fa_health_mask = rule.health_mask;
	a.fa_flags = rule.flags;
	a.fa_seed = rule.seed;
	return f;
}

lnet_ioctl_fault pack_fault_del(FaultKind kind, lnet_nid_t src, lnet_nid_t dst)
{
	auto f = fault_ioctl(kind, FaultOp::del);

	f.lfi_attr.fa_src = src;
	f.lfi_attr.fa_dst = dst;
	return f;
}

lnet_ioctl_fault pack_fault_reset(FaultKind kind)
{
	return fault_ioctl(kind, FaultOp::reset);
}

lnet_ioctl_fault pack_fault_list(FaultKind kind, std::uint32_t index)
{
	auto f = fault_ioctl(kind, FaultOp::list);

	f.lfi_index = index;
	return f;
}

FaultRule unpack_fault_rule(const lnet_fault_attr &a)
{
	FaultRule r;

	r.src = a.fa_src;
	r.dst = a.fa_dst;
	r.local_nid = a.fa_local_nid;
	r.ptl_mask = a.fa_ptl_mask;
	r.msg_mask = a.fa_msg_mask;
	r.rate = a.fa_rate;
	r.interval = a.fa_interval;
	r.latency = a.fa_latency;
	r.health_mask = a.fa_health_mask;
	r.flags = a.fa_flags;
	r.seed = a.fa_seed;
	return r;
}

FaultInfo unpack_fault(const lnet_ioctl_fault &reply)
{
	const auto &s = reply.lfi_stat;
	FaultInfo info;

	info.rule = unpack_fault_rule(reply.lfi_attr);
	info.stats.matched = s.fs_count;
	info.stats.ack = s.fs_ack;
	info.stats.put = s.fs_put;
	info.stats.get = s.fs_get;
	info.stats.reply = s.fs_reply;
	info.stats.total = s.fs_total;
	info.stats.held = s.fs_held;
	return info;
}

}  // namespace lnetctl
