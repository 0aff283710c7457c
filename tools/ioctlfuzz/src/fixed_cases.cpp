// SPDX-License-Identifier: GPL-2.0
#include "fixed_cases.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/lnet/lnet-ioctl.h>

#include "arena.hpp"

namespace ioctlfuzz {

namespace {

constexpr std::uint32_t tcp(std::uint32_t num) { return LNET_MKNET(LNET_LND_SOCK, num); }
constexpr std::uint32_t o2ib(std::uint32_t num) { return LNET_MKNET(LNET_LND_O2IB, num); }
constexpr std::uint32_t gni(std::uint32_t num) { return LNET_MKNET(LNET_LND_GNI, num); }
constexpr std::uint32_t lo_net = LNET_MKNET(LNET_LND_LO, 0);
// a NID on a net this node has not got
constexpr std::uint64_t far_nid = LNET_MKNID(tcp(9), 0x0a000001);

// ---- argument builders --------------------------------------------------

// A generic block with room for inline data (which it points into: built
// in place, never copied).
struct GenBuf {
	lnet_ioctl_data d;
	char inl[64];
};

std::uint32_t round8(std::uint32_t len) { return (len + 7) & ~7U; }

void gen(GenBuf &b, std::uint32_t len1 = 0, std::uint32_t len2 = 0)
{
	b = GenBuf{};
	b.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION;
	b.d.ioc_inline1_len = len1;
	b.d.ioc_inline1 = len1 ? reinterpret_cast<std::uintptr_t>(b.inl) : 0;
	b.d.ioc_inline2_len = len2;
	b.d.ioc_inline2 = len2 ? reinterpret_cast<std::uintptr_t>(b.inl) + round8(len1) : 0;
	b.d.ioc_hdr.ioc_len = sizeof(b.d) + round8(len1) + round8(len2);
}

// An NI block with its tunables, all "module default".
struct NiBuf {
	lnet_ioctl_config_ni ni;
	lnet_ioctl_lnd_tunables t;
};

NiBuf ni(std::uint64_t nid, const char *ifname = "")
{
	NiBuf b{};
	b.ni.lic_hdr.ioc_len = sizeof(b);
	b.ni.lic_hdr.ioc_version = LNET_IOCTL_VERSION2;
	b.ni.lic_nid = nid;
	std::snprintf(b.ni.lic_ni_intf, sizeof(b.ni.lic_ni_intf), "%s", ifname);
	b.ni.lic_dev_cpt = -1;
	b.t.lt_cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	b.t.lt_cmn.lct_peer_timeout = -1;
	b.t.lt_cmn.lct_peer_tx_credits = -1;
	b.t.lt_cmn.lct_peer_rtr_credits = -1;
	b.t.lt_cmn.lct_max_tx_credits = -1;
	b.t.lt_lnd.sock.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
	b.t.lt_lnd.sock.lnd_tos = -1;
	return b;
}

lnet_ioctl_config_data cfg(std::uint32_t net, std::uint64_t nid)
{
	lnet_ioctl_config_data d{};
	d.cfg_hdr.ioc_len = sizeof(d);
	d.cfg_hdr.ioc_version = LNET_IOCTL_VERSION2;
	d.cfg_net = net;
	d.cfg_nid = nid;
	d.cfg_u.route.hop = -1;
	return d;
}

lnet_ioctl_peer_cfg peer_cfg(std::uint64_t prim, std::uint64_t nid = LNET_NID_ANY)
{
	lnet_ioctl_peer_cfg pc{};
	pc.pc_hdr = { sizeof(pc), LNET_IOCTL_VERSION2 };
	pc.pc_prim_nid = prim;
	pc.pc_nid = nid;
	return pc;
}

lnet_ioctl_conns_per_peer conns(std::uint64_t nid, std::uint32_t value,
				std::uint32_t all = 0)
{
	lnet_ioctl_conns_per_peer c{};
	c.cpp_hdr = { sizeof(c), LNET_IOCTL_VERSION2 };
	c.cpp_nid = nid;
	c.cpp_value = value;
	c.cpp_all = all;
	return c;
}

lnet_ioctl_hdr hdr(std::uint32_t len, std::uint32_t version = LNET_IOCTL_VERSION2)
{
	return { len, version };
}

// A command that takes no more than the header.
lnet_ioctl_hdr hdr_only()
{
	return hdr(sizeof(lnet_ioctl_hdr));
}

lnet_ioctl_lnet_stats stats(std::uint32_t len, std::uint32_t version = LNET_IOCTL_VERSION2)
{
	lnet_ioctl_lnet_stats st{};
	st.st_hdr = hdr(len, version);
	return st;
}

// A fault-rule call: drop every GET from anyone, one in @rate, @interval s.
lnet_ioctl_fault fault(std::uint32_t opc, std::uint32_t rate = 1, std::uint32_t interval = 0)
{
	lnet_ioctl_fault f{};
	f.lfi_hdr = hdr(sizeof(f));
	f.lfi_opc = opc;
	f.lfi_attr.fa_src = LNET_NID_ANY;
	f.lfi_attr.fa_dst = LNET_NID_ANY;
	f.lfi_attr.fa_local_nid = LNET_NID_ANY;
	f.lfi_attr.fa_msg_mask = 1U << 2;	// LNET_MSG_GET
	f.lfi_attr.fa_rate = rate;
	f.lfi_attr.fa_interval = interval;
	return f;
}

// GET_RECOVERY_QUEUE of the local NIs, as @edit leaves the request.
template <typename Edit>
lnet_ioctl_recovery_list recovery(Edit edit)
{
	lnet_ioctl_recovery_list l{};
	l.rl_hdr = hdr(sizeof(l));
	l.rl_type = LNET_HEALTH_LOCAL_NI;
	edit(l);
	return l;
}

lnet_ioctl_ping_data ping(std::uint64_t ids)
{
	lnet_ioctl_ping_data p{};
	p.ping_hdr = hdr(sizeof(p));
	p.ping_param = 2000;
	p.ping_count = 16;
	p.ping_target_nid = LNET_NID_LO_0;
	p.ping_target_pid = LNET_PID_ANY;
	p.ping_src = LNET_NID_ANY;
	p.ping_ids = ids;
	return p;
}

}  // namespace

struct FixedContext {
	explicit FixedContext(lnet::LnetDevice &device) : dev(device) {}

	lnet::LnetDevice &dev;
	GenBuf configured{};			// CONFIGURE with inline data
	std::vector<std::uint8_t> big;		// GET_LOCAL_NI, largest ioc_len
	lnet_ioctl_ping_data ping{};		// PING 0@lo
	std::array<lnet_process_id, 16> ids{};
	lnet_ioctl_ni_health health{};		// GET_LOCAL_HSTATS 0@lo
	lnet_ioctl_recovery_list recovery{};	// GET_RECOVERY_QUEUE local

	int ioctl(unsigned long cmd, void *arg) { return dev.try_ioctl(cmd, arg); }
	// on a copy of @arg (a structure)
	template <typename T>
		requires(!std::is_pointer_v<T> && !std::is_null_pointer_v<T>)
	int ioctl(unsigned long cmd, T arg)
	{
		return ioctl(cmd, static_cast<void *>(&arg));
	}

	// the NI block at the start of the largest GET_LOCAL_NI answer
	NiBuf big_ni() const
	{
		NiBuf n;
		std::memcpy(&n, big.data(), sizeof(n));
		return n;
	}
};

namespace {

// GET_LOCAL_NI of a whole NI block whose header starts @bytes_left before
// an inaccessible page.
int at_mapping_end(FixedContext &c, std::size_t bytes_left)
{
	const Mapping m(sizeof(NiBuf));
	const lnet_ioctl_hdr h = hdr(sizeof(NiBuf));
	std::uint8_t *at = m.end() - bytes_left;
	std::memcpy(at, &h, std::min(bytes_left, sizeof(h)));
	return c.ioctl(LNET_IOC_GET_LOCAL_NI, static_cast<void *>(at));
}

// an edit that leaves the block as gen() built it
const auto as_built = [](auto &) {};

// @cmd with a generic block of @len1 and @len2 inline bytes as @edit
// leaves it.
template <typename Edit>
int generic(FixedContext &c, unsigned long cmd, Edit edit, std::uint32_t len1 = 0,
	    std::uint32_t len2 = 0)
{
	GenBuf g;
	gen(g, len1, len2);
	edit(g);
	return c.ioctl(cmd, static_cast<void *>(&g));
}

// ADD_LOCAL_NI of an NI on @net that takes its address from @ifname, as
// @edit leaves the block.
template <typename Edit = decltype(as_built)>
int add_ni(FixedContext &c, std::uint32_t net, const char *ifname, Edit edit = as_built)
{
	NiBuf n = ni(LNET_MKNID(net, 0xffffffffU), ifname);
	edit(n);
	return c.ioctl(LNET_IOC_ADD_LOCAL_NI, n);
}

// ADD_LOCAL_NI of the NIs the ip2nets @rule chooses.
int add_ip2nets(FixedContext &c, const char *rule)
{
	NiBuf n = ni(LNET_NID_ANY);
	std::snprintf(n.ni.lic_legacy_ip2nets, sizeof(n.ni.lic_legacy_ip2nets), "%s", rule);
	return c.ioctl(LNET_IOC_ADD_LOCAL_NI, n);
}


// Random argument bytes on random commands; the header is made valid half
// of the time so the commands' own checks run too. PING_PEER (could wait
// minutes), UNCONFIGURE and the commands that change the configuration or
// (LNET_FAULT) the traffic are left out; what is left must fail or succeed cleanly.
std::string fuzz(FixedContext &c)
{
	static constexpr std::array<unsigned int, 10> skip{
		_IOC_NR(LNET_IOC_UNCONFIGURE),	 _IOC_NR(LNET_IOC_CONFIGURE),
		_IOC_NR(LNET_IOC_LNET_FAULT),
		_IOC_NR(LNET_IOC_PING_PEER),	 _IOC_NR(LNET_IOC_ADD_ROUTE),
		_IOC_NR(LNET_IOC_DEL_ROUTE),	 _IOC_NR(LNET_IOC_DEL_NET),
		_IOC_NR(LNET_IOC_ADD_LOCAL_NI),	 _IOC_NR(LNET_IOC_DEL_LOCAL_NI),
		_IOC_NR(LNET_IOC_RESET_LNET_STATS),
	};
	std::mt19937 rng(12345);
	std::array<std::uint8_t, 1024> buf;
	unsigned int bad = 0;

	for (int i = 0; i < 3000; i++) {
		const unsigned int nr =
			LNET_IOC_MIN_NR - 2 + rng() % (LNET_IOC_MAX_NR - LNET_IOC_MIN_NR + 5);
		if (std::ranges::find(skip, nr) != skip.end())
			continue;
		for (auto &b : buf)
			b = static_cast<std::uint8_t>(rng());
		if (rng() & 1) {
			const lnet_ioctl_hdr h =
				hdr(8 + rng() % (buf.size() - 8),
				    rng() & 1 ? LNET_IOCTL_VERSION : LNET_IOCTL_VERSION2);
			std::memcpy(buf.data(), &h, sizeof(h));
		}
		lnet_ioctl_hdr h;
		std::memcpy(&h, buf.data(), sizeof(h));
		if (c.ioctl(_IOWR(LNET_IOC_TYPE, nr, long), static_cast<void *>(buf.data())) ==
			    EFAULT &&
		    h.ioc_len <= buf.size())
			bad++;
	}
	return bad ? "EFAULT seen" : "";
}

constexpr Who R = Who::root;
constexpr Who U = Who::user;

constexpr FixedCase call(std::string_view name, Who who, int want, int (*fn)(FixedContext &))
{
	return { name, who, want, fn, nullptr };
}

constexpr FixedCase check(std::string_view name, Who who, std::string (*fn)(FixedContext &))
{
	return { name, who, 0, nullptr, fn };
}

std::string unless(bool holds, const char *why) { return holds ? "" : why; }

const FixedCase cases[] = {
	// ---- command numbers
	call("nr 29 below the range: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(_IOWR(LNET_IOC_TYPE, 29, long), hdr_only()); }),
	call("nr 113 above the range: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(_IOWR(LNET_IOC_TYPE, 113, long), hdr_only()); }),
	call("type letter 'f': EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(_IOWR('f', 59, long), hdr_only()); }),
	call("unknown nr 100 (no handler): EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_PEER_LIST, hdr_only()); }),
	call("NULL argument: EFAULT", R, EFAULT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LNET_STATS, nullptr); }),

	// ---- the header
	call("ioc_len 4: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(4)); }),
	call("ioc_len 0: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(0)); }),
	call("ioc_len 131073: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(LNET_IOCTL_MAX_LEN + 1));
	     }),
	call("ioc_len 0xffffffff: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(0xffffffffU)); }),
	call("GET_LNET_STATS with a 100-byte buffer: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(100)); }),
	call("GET_LOCAL_NI with an 807-byte buffer: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     NiBuf n = ni(LNET_NID_ANY);
		     n.ni.lic_hdr.ioc_len = sizeof(n.ni) - 1;
		     return c.ioctl(LNET_IOC_GET_LOCAL_NI, n);
	     }),
	call("GET_LNET_STATS with the generic version: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_LNET_STATS,
				    stats(sizeof(lnet_ioctl_lnet_stats), LNET_IOCTL_VERSION));
	     }),
	call("unknown version: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_LNET_STATS,
				    stats(sizeof(lnet_ioctl_lnet_stats), 0x12345678));
	     }),
	call("CONFIGURE with version 2: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION2;
		     });
	     }),

	// ---- the generic block
	call("generic: ioc_len beyond the inline buffers: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_hdr.ioc_len = 136;
		     });
	     }),
	call("generic: ioc_len below 128: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_hdr.ioc_len = 120;
		     });
	     }),
	call("generic: inline 1 length without pointer: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     std::memcpy(g.inl, "abcdefg", 8);
			     g.d.ioc_inline1 = 0;
		     }, 8);
	     }),
	call("generic: inline 2 pointer without length: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_inline2 = reinterpret_cast<std::uintptr_t>(g.inl);
		     });
	     }),
	call("generic: user 1 pointer without length: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_user1 = reinterpret_cast<std::uintptr_t>(&g);
		     });
	     }),
	call("generic: inline 1 without NUL: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     std::memcpy(g.inl, "abcdefgh", 8);
		     }, 8);
	     }),
	call("generic: inline lengths that wrap 32 bits: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_hdr.ioc_len = 144;
		     }, 0xfffffff8U, 16);
	     }),
	call("CONFIGURE with an unknown flag: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) { g.d.ioc_flags = 0x4; });
	     }),
	call("CONFIGURE --large: EOPNOTSUPP", R, EOPNOTSUPP,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_CONFIGURE, [](GenBuf &g) {
			     g.d.ioc_flags = LNET_IOCTL_CONFIGURE_LARGE;
		     });
	     }),
	call("CONFIGURE (valid, inline data, configured already): 0", R, 0,
	     [](FixedContext &c) {
		     gen(c.configured, 5);
		     std::memcpy(c.configured.inl, "tcp0", 5);
		     return c.ioctl(LNET_IOC_CONFIGURE, &c.configured);
	     }),
	check("CONFIGURE: the caller's inline pointer comes back unchanged", R,
	      [](FixedContext &c) {
		      return unless(c.configured.d.ioc_inline1 ==
					    reinterpret_cast<std::uintptr_t>(c.configured.inl),
				    "pointer changed");
	      }),

	// ---- arguments that run into unmapped memory
	call("ioc_len runs past the mapping: EFAULT", R, EFAULT,
	     [](FixedContext &c) { return at_mapping_end(c, sizeof(lnet_ioctl_hdr)); }),
	call("header runs past the mapping: EFAULT", R, EFAULT,
	     [](FixedContext &c) { return at_mapping_end(c, 4); }),

	// ---- the largest argument
	call("GET_LOCAL_NI with ioc_len 131072: 0", R, 0,
	     [](FixedContext &c) {
		     c.big.assign(LNET_IOCTL_MAX_LEN, 0xa5);
		     NiBuf n = ni(LNET_NID_ANY);
		     n.ni.lic_hdr.ioc_len = LNET_IOCTL_MAX_LEN;
		     n.ni.lic_idx = 0;
		     std::memcpy(c.big.data(), &n, sizeof(n));
		     return c.ioctl(LNET_IOC_GET_LOCAL_NI, static_cast<void *>(c.big.data()));
	     }),
	check("GET_LOCAL_NI 0 is 0@lo", R,
	      [](FixedContext &c) {
		      return unless(c.big_ni().ni.lic_nid == LNET_NID_LO_0,
				    "first NI is not 0@lo");
	      }),
	check("GET_LOCAL_NI 0@lo is up", R,
	      [](FixedContext &c) {
		      return unless(c.big_ni().ni.lic_status == LNET_IOCTL_NI_STATUS_UP,
				    "status not up");
	      }),
	check("GET_LOCAL_NI leaves the bytes past the structure alone", R,
	      [](FixedContext &c) {
		      const auto tail = std::span(c.big).subspan(sizeof(NiBuf));
		      return unless(std::ranges::all_of(tail, [](auto b) { return b == 0xa5; }),
				    "tail changed");
	      }),
	call("GET_LOCAL_NI past the last NI: ENOENT", R, ENOENT,
	     [](FixedContext &c) {
		     NiBuf n = ni(LNET_NID_ANY);
		     n.ni.lic_idx = 100000;
		     return c.ioctl(LNET_IOC_GET_LOCAL_NI, n);
	     }),

	// ---- ping
	call("PING with entries but no array: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_PING_PEER, ping(0)); }),
	call("PING with a bad array pointer: EFAULT", R, EFAULT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_PING_PEER, ping(1)); }),
	call("PING 0@lo: 0", R, 0,
	     [](FixedContext &c) {
		     c.ids = {};
		     c.ping = ping(reinterpret_cast<std::uintptr_t>(c.ids.data()));
		     return c.ioctl(LNET_IOC_PING_PEER, &c.ping);
	     }),
	check("PING 0@lo: entry 0 is 0@lo", R,
	      [](FixedContext &c) {
		      return unless(c.ping.ping_count >= 1 && c.ids[0].nid == LNET_NID_LO_0 &&
					    c.ids[0].pid == LNET_PID_LUSTRE,
				    "bad entries");
	      }),
	call("PING LNET_NID_ANY: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     lnet_ioctl_ping_data p = c.ping;
		     p.ping_target_nid = LNET_NID_ANY;
		     return c.ioctl(LNET_IOC_PING_PEER, p);
	     }),

	// ---- configuration commands
	call("DEL_LOCAL_NI 0@lo: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_DEL_LOCAL_NI, ni(LNET_NID_LO_0)); }),
	call("DEL_LOCAL_NI of an unknown NID: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_DEL_LOCAL_NI, ni(far_nid)); }),
	call("DEL_NET of a net that is not up: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_DEL_NET, cfg(tcp(9), 0)); }),
	call("ADD_ROUTE via a gateway on no local net: EHOSTUNREACH", R, EHOSTUNREACH,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_ADD_ROUTE, cfg(o2ib(5), far_nid)); }),
	call("ADD_ROUTE with hop 0: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     lnet_ioctl_config_data d = cfg(o2ib(5), far_nid);
		     d.cfg_u.route.hop = 0;
		     return c.ioctl(LNET_IOC_ADD_ROUTE, d);
	     }),
	call("ADD_ROUTE to the loopback net: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_ADD_ROUTE, cfg(lo_net, far_nid)); }),
	call("DEL_ROUTE of an unknown route: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_DEL_ROUTE, cfg(o2ib(5), far_nid)); }),
	call("ADD_PEER_NI on no local net: EHOSTUNREACH", R, EHOSTUNREACH,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_ADD_PEER_NI, peer_cfg(far_nid)); }),
	call("ADD_PEER_NI: a second NID for a peer nobody added: ENOENT", R, ENOENT,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_ADD_PEER_NI, peer_cfg(far_nid, far_nid + 1));
	     }),
	call("ADD_PEER_NI with the FORCE flag (DEL's): EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     lnet_ioctl_peer_cfg pc = peer_cfg(far_nid);
		     pc.pc_flags = LNET_IOCTL_PEER_CFG_FORCE;
		     return c.ioctl(LNET_IOC_ADD_PEER_NI, pc);
	     }),
	call("ADD_PEER_NI of LNET_NID_ANY: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_ADD_PEER_NI, peer_cfg(LNET_NID_ANY)); }),
	call("ADD_PEER_NI of our own 0@lo: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_ADD_PEER_NI, peer_cfg(LNET_NID_LO_0)); }),
	call("ADD_PEER_NI with unknown flags: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     lnet_ioctl_peer_cfg pc = peer_cfg(far_nid);
		     pc.pc_flags = 0x80;
		     return c.ioctl(LNET_IOC_ADD_PEER_NI, pc);
	     }),
	call("DEL_PEER_NI of an unknown peer: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_DEL_PEER_NI, peer_cfg(far_nid)); }),
	call("SET_CONNS_PER_PEER 128: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_SET_CONNS_PER_PEER, conns(LNET_NID_ANY, 128, 1));
	     }),
	call("SET_CONNS_PER_PEER with all 2: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_SET_CONNS_PER_PEER, conns(LNET_NID_ANY, 1, 2));
	     }),
	call("SET_CONNS_PER_PEER of an unknown NI: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_SET_CONNS_PER_PEER, conns(far_nid, 1)); }),
	call("GET_ROUTE past the last route: ENOENT", R, ENOENT,
	     [](FixedContext &c) {
		     lnet_ioctl_config_data d = cfg(0, 0);
		     d.cfg_count = 100000;
		     return c.ioctl(LNET_IOC_GET_ROUTE, d);
	     }),
	call("ADD_LOCAL_NI on the loopback net: EEXIST", R, EEXIST,
	     [](FixedContext &c) { return add_ni(c, lo_net, ""); }),
	call("ADD_LOCAL_NI of a net type without LND: ENODEV", R, ENODEV,
	     [](FixedContext &c) { return add_ni(c, gni(0), "ipogif0"); }),
	call("ADD_LOCAL_NI, interface name without NUL: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0", [](NiBuf &n) {
			     std::memset(n.ni.lic_ni_intf, 'a', sizeof(n.ni.lic_ni_intf));
		     });
	     }),
	call("ADD_LOCAL_NI with CPT 9999: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0", [](NiBuf &n) {
			     n.ni.lic_ncpts = 1;
			     n.ni.lic_cpts[0] = 9999;
		     });
	     }),
	call("ADD_LOCAL_NI with 100000 CPTs: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0", [](NiBuf &n) { n.ni.lic_ncpts = 100000; });
	     }),
	call("ADD_LOCAL_NI with tunables version 7: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0", [](NiBuf &n) { n.t.lt_cmn.lct_version = 7; });
	     }),
	call("ADD_LOCAL_NI with conns_per_peer 200 (ksocklnd takes 127): EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0",
				   [](NiBuf &n) { n.t.lt_lnd.sock.lnd_conns_per_peer = 200; });
	     }),
	call("ADD_LOCAL_NI with peer_timeout 60 (peers judged by health): EOPNOTSUPP", R,
	     EOPNOTSUPP,
	     [](FixedContext &c) {
		     return add_ni(c, tcp(3), "eth0",
				   [](NiBuf &n) { n.t.lt_cmn.lct_peer_timeout = 60; });
	     }),
	call("ADD_LOCAL_NI, ip2nets rule matching no address: EADDRNOTAVAIL", R, EADDRNOTAVAIL,
	     [](FixedContext &c) { return add_ip2nets(c, "tcp9 10.255.255.*"); }),
	call("ADD_LOCAL_NI, malformed ip2nets rule: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return add_ip2nets(c, "tcp9 10.300.1.*"); }),
	call("ADD_LOCAL_NI, LNET_NID_ANY without a rule: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return add_ip2nets(c, ""); }),
	call("GET_LOCAL_HSTATS of an unknown NID: ENOENT", R, ENOENT,
	     [](FixedContext &c) {
		     lnet_ioctl_ni_health h{};
		     h.lnh_hdr = hdr(sizeof(h));
		     h.lnh_nid = LNET_MKNID(tcp(9), 1);
		     return c.ioctl(LNET_IOC_GET_LOCAL_HSTATS, h);
	     }),
	call("GET_LOCAL_HSTATS 0@lo: 0", R, 0,
	     [](FixedContext &c) {
		     c.health = {};
		     c.health.lnh_hdr = hdr(sizeof(c.health));
		     c.health.lnh_nid = LNET_NID_LO_0;
		     return c.ioctl(LNET_IOC_GET_LOCAL_HSTATS, &c.health);
	     }),
	check("GET_LOCAL_HSTATS 0@lo: health 1000", R,
	      [](FixedContext &c) {
		      return unless(c.health.lnh_health_value == 1000 && !c.health.lnh_fatal_error,
				    "unhealthy");
	      }),
	call("GET_RECOVERY_QUEUE of the local NIs: 0", R, 0,
	     [](FixedContext &c) {
		     c.recovery = recovery([](lnet_ioctl_recovery_list &l) {
			     l.rl_count = 0xa5a5a5a5U;	// out only
			     l.rl_total = 0xa5a5a5a5U;
		     });
		     return c.ioctl(LNET_IOC_GET_RECOVERY_QUEUE, &c.recovery);
	     }),
	check("GET_RECOVERY_QUEUE: rl_count <= rl_total, rl_count <= 64", R,
	      [](FixedContext &c) {
		      return unless(c.recovery.rl_count <= c.recovery.rl_total &&
					    c.recovery.rl_count <= LNET_RECOVERY_LIST_MAX,
				    "bad counts");
	      }),
	call("GET_RECOVERY_QUEUE with rl_type 7: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_RECOVERY_QUEUE,
				    recovery([](lnet_ioctl_recovery_list &l) { l.rl_type = 7; }));
	     }),
	call("GET_RECOVERY_QUEUE with rl_pad 1: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_RECOVERY_QUEUE,
				    recovery([](lnet_ioctl_recovery_list &l) { l.rl_pad = 1; }));
	     }),
	call("RESET_LNET_STATS (header only): 0", R, 0,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_RESET_LNET_STATS, hdr_only()); }),

	// ---- fault rules (none installed: the table starts empty)
	call("FAULT DROP_LIST of no rule: ENOENT", R, ENOENT,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_LNET_FAULT, fault(LNET_FAULT_DROP_LIST)); }),
	call("FAULT with an unknown opcode: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_LNET_FAULT, fault(8)); }),
	call("FAULT DROP_ADD with a rate and an interval: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_LNET_FAULT, fault(LNET_FAULT_DROP_ADD, 2, 2));
	     }),
	call("FAULT DELAY_ADD without a latency: EINVAL", R, EINVAL,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_LNET_FAULT, fault(LNET_FAULT_DELAY_ADD)); }),
	call("FAULT shorter than its structure: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     lnet_ioctl_fault f = fault(LNET_FAULT_DROP_LIST);
		     f.lfi_hdr.ioc_len = sizeof(f) - 8;
		     return c.ioctl(LNET_IOC_LNET_FAULT, f);
	     }),
	call("FAULT DROP_ADD of a rule on an unused portal: 0", R, 0,
	     [](FixedContext &c) {
		     lnet_ioctl_fault f = fault(LNET_FAULT_DROP_ADD);
		     f.lfi_attr.fa_ptl_mask = 1ULL << 63;
		     return c.ioctl(LNET_IOC_LNET_FAULT, f);
	     }),
	call("FAULT DROP_DEL of every rule: 0", R, 0,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_LNET_FAULT, fault(LNET_FAULT_DROP_DEL)); }),

	// ---- LND listings (GET_PEER, GET_CONN: an LND's, else nobody's)
	call("GET_PEER with version 2: EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_GET_PEER, [](GenBuf &g) {
			     g.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION2;
			     g.d.ioc_net = tcp(0);
		     });
	     }),
	call("GET_CONN of a gni net (no LND answers): EINVAL", R, EINVAL,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_GET_CONN, [](GenBuf &g) { g.d.ioc_net = gni(0); });
	     }),
	check("GET_PEER of tcp9: ENETDOWN (ksocklnd loaded) or EINVAL (not)", R,
	      [](FixedContext &c) {
		      const bool sock = access("/sys/module/ksocklnd", F_OK) == 0;
		      const int rc = generic(c, LNET_IOC_GET_PEER, [](GenBuf &g) {
			      g.d.ioc_net = tcp(9);
			      g.d.ioc_count = 0;
		      });
		      return unless(rc == (sock ? ENETDOWN : EINVAL), "wrong errno");
	      }),

	// ---- random bytes
	check("fuzz: no EFAULT for in-bounds buffers", R, fuzz),
	call("after the fuzz GET_LOCAL_NI 0 still works", R, 0,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LOCAL_NI, ni(LNET_NID_ANY)); }),

	// ---- without CAP_NET_ADMIN
	call("user: CONFIGURE: EACCES", U, EACCES,
	     [](FixedContext &c) { return generic(c, LNET_IOC_CONFIGURE, as_built); }),
	call("user: UNCONFIGURE: EACCES", U, EACCES,
	     [](FixedContext &c) { return generic(c, LNET_IOC_UNCONFIGURE, as_built); }),
	call("user: ADD_LOCAL_NI: EACCES", U, EACCES,
	     [](FixedContext &c) { return add_ni(c, tcp(0), "eth0"); }),
	call("user: PING_PEER: EACCES", U, EACCES,
	     [](FixedContext &c) {
		     lnet_ioctl_ping_data p{};
		     p.ping_hdr = hdr(sizeof(p));
		     p.ping_target_nid = LNET_NID_LO_0;
		     return c.ioctl(LNET_IOC_PING_PEER, p);
	     }),
	call("user: FAULT DROP_LIST: EACCES", U, EACCES,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_LNET_FAULT, fault(LNET_FAULT_DROP_LIST)); }),
	call("user: RESET_LNET_STATS: EACCES", U, EACCES,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_RESET_LNET_STATS, hdr_only()); }),
	call("user: GET_CONN (an LND's): EACCES", U, EACCES,
	     [](FixedContext &c) {
		     return generic(c, LNET_IOC_GET_CONN, [](GenBuf &g) { g.d.ioc_net = tcp(0); });
	     }),
	call("user: unknown command: EACCES", U, EACCES,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_PEER_LIST, hdr_only()); }),
	call("user: GET_LOCAL_NI: 0", U, 0,
	     [](FixedContext &c) { return c.ioctl(LNET_IOC_GET_LOCAL_NI, ni(LNET_NID_ANY)); }),
	call("user: GET_LNET_STATS: 0", U, 0,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_LNET_STATS, stats(sizeof(lnet_ioctl_lnet_stats)));
	     }),
	call("user: GET_RECOVERY_QUEUE: 0", U, 0,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_RECOVERY_QUEUE, recovery(as_built));
	     }),
	call("user: GET_LNET_STATS, bad version: EINVAL", U, EINVAL,
	     [](FixedContext &c) {
		     return c.ioctl(LNET_IOC_GET_LNET_STATS,
				    stats(sizeof(lnet_ioctl_lnet_stats), LNET_IOCTL_VERSION));
	     }),
};

}  // namespace

std::span<const FixedCase> fixed_cases()
{
	return cases;
}

void run_fixed(lnet::LnetDevice &dev, Who who, Report &report)
{
	FixedContext c(dev);
	for (const FixedCase &k : cases) {
		if (k.who != who)
			continue;
		if (k.call) {
			report.expect(k.name, k.call(c), k.want);
			continue;
		}
		const std::string why = k.check(c);
		report.result(why.empty(), k.name, why);
	}
}

}  // namespace ioctlfuzz
