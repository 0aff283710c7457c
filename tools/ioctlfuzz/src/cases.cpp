// SPDX-License-Identifier: GPL-2.0
#include "cases.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>

#include <linux/lnet/lnet-ioctl.h>

namespace ioctlfuzz {
namespace {

constexpr std::uint32_t v1 = LNET_IOCTL_VERSION;
constexpr std::uint32_t v2 = LNET_IOCTL_VERSION2;
constexpr std::uint32_t gen = sizeof(struct lnet_ioctl_data);
constexpr std::uint32_t cfg = sizeof(struct lnet_ioctl_config_data);
constexpr std::uint32_t ping = sizeof(struct lnet_ioctl_ping_data);
constexpr std::uint32_t ni = sizeof(struct lnet_ioctl_config_ni);

// Commands lnet.ko does not handle itself go to the modules that register
// for them (LNDs: GET_PEER and GET_CONN; selftest) or fail with EINVAL;
// their sizes here are the group's declared structure, which is all the
// fuzzer needs.
constexpr Command table[] = {
	{ 31, "CLEAR_DEBUG", v1, gen, false, false },
	{ 32, "MARK_DEBUG", v1, gen, false, false },
	{ 50, "GET_NI", v1, gen, false, false },
	{ 51, "FAIL_NID", v1, gen, false, false },
	{ 55, "NOTIFY_ROUTER", v1, gen, false, false },
	{ 56, "UNCONFIGURE", v1, gen, false, true },
	{ 58, "LNET_DIST", v1, gen, true, true },
	{ 59, "CONFIGURE", v1, gen, false, true },
	{ 60, "TESTPROTOCOMPAT", v1, gen, false, false },
	{ 62, "PING_PEER", v2, ping, false, true },
	{ 63, "LNETST", v1, gen, false, false },
	{ 64, "LNET_FAULT", v2, sizeof(struct lnet_ioctl_fault), false, true },
	{ 70, "REGISTER_MYNID", v1, gen, false, false },
	{ 71, "CLOSE_CONNECTION", v1, gen, false, false },
	{ 72, "PUSH_CONNECTION", v1, gen, false, false },
	{ 73, "GET_CONN", v1, gen, false, false },
	{ 74, "DEL_PEER", v1, gen, false, false },
	{ 75, "ADD_PEER", v1, gen, false, false },
	{ 76, "GET_PEER", v1, gen, false, false },
	{ 77, "DISCOVER", v2, ping, false, true },
	{ 78, "ADD_INTERFACE", v1, gen, false, false },
	{ 79, "DEL_INTERFACE", v1, gen, false, false },
	{ 80, "GET_INTERFACE", v1, gen, false, false },
	{ 81, "ADD_ROUTE", v2, cfg, false, true },
	{ 82, "DEL_ROUTE", v2, cfg, false, true },
	{ 83, "GET_ROUTE", v2, cfg, true, true },
	{ 84, "ADD_NET", v2, cfg, false, false },
	{ 85, "DEL_NET", v2, cfg, false, true },
	{ 86, "GET_NET", v2, cfg, false, false },
	{ 87, "CONFIG_RTR", v2, cfg, false, true },
	{ 88, "ADD_BUF", v2, cfg, false, true },
	{ 89, "GET_BUF", v2, cfg, true, true },
	{ 90, "GET_PEER_INFO", v2, cfg, false, false },
	{ 91, "GET_LNET_STATS", v2, sizeof(struct lnet_ioctl_lnet_stats), true, true },
	{ 92, "ADD_PEER_NI", v2, sizeof(struct lnet_ioctl_peer_cfg), false, true },
	{ 93, "DEL_PEER_NI", v2, sizeof(struct lnet_ioctl_peer_cfg), false, true },
	{ 94, "GET_PEER_NI", v2, sizeof(struct lnet_ioctl_peer_ni), true, true },
	{ 95, "ADD_LOCAL_NI", v2, ni, false, true },
	{ 96, "DEL_LOCAL_NI", v2, ni, false, true },
	{ 97, "GET_LOCAL_NI", v2, ni, true, true },
	{ 98, "SET_NUMA_RANGE", v2, cfg, false, false },
	{ 99, "GET_NUMA_RANGE", v2, cfg, false, false },
	{ 100, "GET_PEER_LIST", v2, cfg, false, false },
	{ 101, "GET_LOCAL_NI_MSG_STATS", v2, sizeof(struct lnet_ioctl_ni_msg_stats), true, true },
	{ 102, "SET_HEALTHV", v2, sizeof(struct lnet_ioctl_set_health), false, true },
	{ 103, "GET_LOCAL_HSTATS", v2, sizeof(struct lnet_ioctl_ni_health), true, true },
	{ 104, "GET_RECOVERY_QUEUE", v2, sizeof(struct lnet_ioctl_recovery_list), true, true },
	{ 105, "ADD_UDSP", v2, cfg, false, false },
	{ 106, "DEL_UDSP", v2, cfg, false, false },
	{ 107, "GET_UDSP_SIZE", v2, cfg, false, false },
	{ 108, "GET_UDSP", v2, cfg, false, false },
	{ 109, "GET_CONST_UDSP_INFO", v2, cfg, false, false },
	{ 110, "RESET_LNET_STATS", v2, sizeof(struct lnet_ioctl_hdr), false, true },
	{ 111, "SET_CONNS_PER_PEER", v2, sizeof(struct lnet_ioctl_conns_per_peer), false, true },
	{ 112, "SET_PEER", v2, cfg, false, false },
};

// Commands that tear down or rebuild the configuration, (LNET_FAULT)
// drop and delay traffic until LNet is unconfigured, forget the peers
// traffic is using (DEL_PEER_NI, with ADD_PEER_NI to keep the pair), or
// (SET_CONNS_PER_PEER) could give every peer 127 connections a way: only
// with Options::changes. PING_PEER and DISCOVER may wait for a reply: their
// timeout and pointer are tamed rather than left out. LNETST's argument
// holds user pointers in layouts this fuzzer does not model: as root its
// random bytes could make the kernel write into the fuzzer itself, so it
// is fuzzed only where it is refused first (no privilege).
bool reconfigures(unsigned int nr)
{
	return nr == 56 || nr == 59 || nr == 64 || nr == 81 || nr == 82 || nr == 85 ||
	       nr == 87 || nr == 92 || nr == 93 || nr == 95 || nr == 96 || nr == 111;
}

// Values that have found bugs in parsers: boundaries, the NIDs a node
// has, counts and indexes around what exists.
constexpr std::uint64_t interesting[] = {
	0,
	1,
	2,
	7,
	8,
	0x7f,
	0x80,
	0xff,
	0x100,
	4095,
	4096,
	65535,
	0x7fffffff,
	0x80000000,
	0xffffffff,
	0x100000000ULL,
	0x7fffffffffffffffULL,
	0xffffffffffffffffULL,
	LNET_NID_ANY,
	LNET_NID_LO_0,
	LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0), 0x0a000001),	// 10.0.0.1@tcp
	LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0), 0xffffffff),
	LNET_MKNID(LNET_MKNET(LNET_LND_O2IB, 0), 0x0a000002),
	LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0xffff), 1),
	LNET_MKNET(LNET_LND_SOCK, 0),
	LNET_MKNET(LNET_LND_O2IB, 0),
	LNET_MKNET(LNET_LND_LO, 0),
	LNET_MKNET(0xffff, 0xffff),
	LNET_IOCTL_VERSION,
	LNET_IOCTL_VERSION2,
	LNET_IOCTL_TUNABLES_VERSION,
};

template <typename T> void put(std::vector<std::uint8_t> &b, std::size_t off, T v)
{
	if (off + sizeof(v) <= b.size())
		std::memcpy(b.data() + off, &v, sizeof(v));
}

// One generator per case: a case is reproducible alone.
std::mt19937_64 rng_for(std::uint64_t seed, std::uint64_t index)
{
	std::seed_seq seq{ static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
			   static_cast<std::uint32_t>(index),
			   static_cast<std::uint32_t>(index >> 32) };
	return std::mt19937_64(seq);
}

struct Gen {
	std::mt19937_64 rng;

	std::uint64_t below(std::uint64_t n) { return n ? rng() % n : 0; }
	bool chance(unsigned int percent) { return below(100) < percent; }
	std::uint64_t value()
	{
		if (chance(60))
			return interesting[below(std::size(interesting))];
		return rng();
	}
};

const Command &pick_command(Gen &g, const Options &opt)
{
	for (;;) {
		const Command &c = table[g.below(std::size(table))];
		if (opt.privileged && c.nr == 63)
			continue;
		if (opt.privileged && !opt.changes && reconfigures(c.nr))
			continue;
		// the core's own commands get most of the cases
		if (!c.core && g.chance(60))
			continue;
		return c;
	}
}

// The argument length: mostly right, often just wrong, sometimes absurd.
std::uint32_t pick_len(Gen &g, const Command &c)
{
	const auto r = g.below(100);
	if (r < 40)
		return c.min_len;
	if (r < 55)
		return c.min_len + static_cast<std::uint32_t>(g.below(257));
	if (r < 65)
		return static_cast<std::uint32_t>(g.below(c.min_len));
	if (r < 72)
		return static_cast<std::uint32_t>(g.below(LNET_IOCTL_MIN_LEN));
	if (r < 78)
		return LNET_IOCTL_MAX_LEN + static_cast<std::uint32_t>(g.below(2)) *
						    static_cast<std::uint32_t>(g.below(1U << 31));
	if (r < 95)
		return static_cast<std::uint32_t>(g.below(4097));
	return static_cast<std::uint32_t>(g.below(LNET_IOCTL_MAX_LEN + 1));
}

// A pointer field: null, the runner's scratch area, or an address no
// caller owns (kernel space, the zero page, unaligned).
void pick_pointer(Gen &g, Case &k, std::uint32_t off)
{
	const auto r = g.below(4);
	if (r == 0)
		put<std::uint64_t>(k.arg, off, 0);
	else if (r == 1)
		put<std::uint64_t>(k.arg, off, 0xffff888000000000ULL + g.below(1U << 20));
	else if (r == 2)
		put<std::uint64_t>(k.arg, off, 0x1000 + g.below(4096));
	else if (off + 8 <= k.arg.size())
		k.scratch_pointers.push_back(off);
}

// A generic block whose inline lengths agree with ioc_len half the time,
// so lnet_ioctl_check_data() lets the command itself run.
void shape_generic(Gen &g, Case &k)
{
	if (k.arg.size() < sizeof(struct lnet_ioctl_data))
		return;
	auto *d = reinterpret_cast<struct lnet_ioctl_data *>(k.arg.data());
	if (g.chance(50)) {
		const std::uint32_t l1 = static_cast<std::uint32_t>(g.below(40));
		const std::uint32_t l2 = g.chance(30) ? static_cast<std::uint32_t>(g.below(40)) : 0;
		const std::uint32_t len = sizeof(*d) + ((l1 + 7) & ~7U) + ((l2 + 7) & ~7U);
		k.arg.resize(len);
		d = reinterpret_cast<struct lnet_ioctl_data *>(k.arg.data());
		d->ioc_hdr.ioc_len = len;
		d->ioc_inline1_len = l1;
		d->ioc_inline1 = l1 ? 1 : 0;	// ignored by the kernel, must be set
		d->ioc_inline2_len = l2;
		d->ioc_inline2 = l2 ? 1 : 0;
		auto *inl = reinterpret_cast<char *>(d + 1);
		for (std::uint32_t i = 0; i + 1 < l1; i++)
			inl[i] = static_cast<char>('a' + g.below(26));
		if (l1)
			inl[l1 - 1] = 0;
		if (l2)
			inl[((l1 + 7) & ~7U) + l2 - 1] = 0;
		d->ioc_user1_len = 0;
		d->ioc_user2_len = 0;
	}
	// user buffers: never a random pointer into this process
	const auto off1 = offsetof(struct lnet_ioctl_data, ioc_user1);
	const auto off2 = offsetof(struct lnet_ioctl_data, ioc_user2);
	pick_pointer(g, k, off1);
	pick_pointer(g, k, off2);
	if (g.chance(80)) {
		d->ioc_user1_len = d->ioc_user1 || std::ranges::count(k.scratch_pointers, off1) ?
					   static_cast<std::uint32_t>(g.below(8192)) :
					   0;
		d->ioc_user2_len = d->ioc_user2 || std::ranges::count(k.scratch_pointers, off2) ?
					   static_cast<std::uint32_t>(g.below(8192)) :
					   0;
	}
}

// PING_PEER / DISCOVER: a short timeout, a tamed id array.
void shape_ping(Gen &g, Case &k)
{
	if (k.arg.size() < sizeof(struct lnet_ioctl_ping_data))
		return;
	auto *p = reinterpret_cast<struct lnet_ioctl_ping_data *>(k.arg.data());
	p->ping_param = static_cast<std::int32_t>(1 + g.below(300));
	p->ping_count = static_cast<std::uint32_t>(g.below(20));
	if (g.chance(70))
		p->ping_target_nid = g.chance(50) ? LNET_NID_LO_0 : g.value();
	pick_pointer(g, k, offsetof(struct lnet_ioctl_ping_data, ping_ids));
}

}  // namespace

bool lnd_listing(unsigned int nr)
{
	return nr == _IOC_NR(LNET_IOC_GET_PEER) || nr == _IOC_NR(LNET_IOC_GET_CONN);
}

std::span<const Command> commands()
{
	return table;
}

const Command *find_command(unsigned int nr)
{
	const auto *it = std::ranges::find(table, nr, &Command::nr);
	return it == std::end(table) ? nullptr : it;
}

std::uint32_t Case::ioc_len() const
{
	struct lnet_ioctl_hdr h {};
	std::memcpy(&h, arg.data(), std::min(arg.size(), sizeof(h)));
	return h.ioc_len;
}

std::uint32_t Case::ioc_version() const
{
	struct lnet_ioctl_hdr h {};
	std::memcpy(&h, arg.data(), std::min(arg.size(), sizeof(h)));
	return h.ioc_version;
}

std::string Case::describe() const
{
	std::ostringstream s;
	s << "case " << index << ": type '" << static_cast<char>(_IOC_TYPE(cmd)) << "' nr "
	  << _IOC_NR(cmd);
	if (const auto *c = find_command(_IOC_NR(cmd)); c && _IOC_TYPE(cmd) == LNET_IOC_TYPE)
		s << " (" << c->name << ")";
	s << " ioc_len " << ioc_len() << " version 0x" << std::hex << ioc_version() << std::dec
	  << " bytes " << arg.size() << " mapped " << mapped;
	return s.str();
}

Case make_case(const Options &opt, std::uint64_t index)
{
	Gen g{ rng_for(opt.seed, index) };
	Case k;
	k.index = index;

	const Command &c = pick_command(g, opt);
	unsigned int type = LNET_IOC_TYPE;
	unsigned int nr = c.nr;
	const auto odd = g.below(100);
	if (odd < 3)
		type = static_cast<unsigned int>(g.below(256));
	else if (odd < 8)
		nr = static_cast<unsigned int>(g.below(256));
	else if (odd < 10)
		nr = LNET_IOC_MIN_NR - 1 + static_cast<unsigned int>(g.below(2)) *
						   (LNET_IOC_MAX_NR - LNET_IOC_MIN_NR + 2);
	// the size bits are not checked: vary them too
	const unsigned int size = g.chance(80) ? _IOC_SIZE(LNET_IOC_GRP1(nr))
					       : static_cast<unsigned int>(g.below(1U << 14));
	k.cmd = _IOC(_IOC_READ | _IOC_WRITE, type, nr, size);
	if (type == LNET_IOC_TYPE && nr != c.nr) {
		// a random number that is a real command: keep it consistent
		// with the privilege filter above
		const Command *other = find_command(nr);
		if (other && ((opt.privileged && nr == 63) ||
			      (opt.privileged && !opt.changes && reconfigures(nr))))
			k.cmd = LNET_IOC_GRP1(LNET_IOC_MAX_NR + 1);
	}

	const std::uint32_t len = pick_len(g, c);
	std::uint32_t version = c.version;
	const auto vr = g.below(100);
	if (vr < 8)
		version = c.version == v1 ? v2 : v1;
	else if (vr < 14)
		version = static_cast<std::uint32_t>(g.value());

	// what is really there: ioc_len bytes, capped so that absurd lengths
	// stay absurd claims rather than large allocations here
	const std::size_t have = std::min<std::size_t>(std::max<std::uint32_t>(len, 8), 8192);
	k.arg.assign(have, 0);
	if (g.chance(40)) {
		for (auto &b : k.arg)
			b = static_cast<std::uint8_t>(g.rng());
	} else {
		const auto n = g.below(12);
		for (std::uint64_t i = 0; i < n && have > 8; i++) {
			const std::size_t off = 8 + 4 * g.below((have - 8) / 4);
			if (g.chance(50))
				put<std::uint32_t>(k.arg, off, static_cast<std::uint32_t>(g.value()));
			else
				put<std::uint64_t>(k.arg, off, g.value());
		}
	}
	put<std::uint32_t>(k.arg, 0, len);
	put<std::uint32_t>(k.arg, 4, version);
	if (version == v1)
		shape_generic(g, k);
	// shaped by the command really sent, which the odd numbers above
	// may have changed
	const unsigned int sent = _IOC_TYPE(k.cmd) == LNET_IOC_TYPE ? _IOC_NR(k.cmd) : 0;
	if (sent == 62 || sent == 77)
		shape_ping(g, k);
	// an LND listing: mostly a net an LND has, an index around its peers
	if (lnd_listing(sent) && version == v1 && k.arg.size() >= gen && g.chance(70)) {
		auto *d = reinterpret_cast<struct lnet_ioctl_data *>(k.arg.data());
		const std::uint32_t nets[] = { LNET_MKNET(LNET_LND_SOCK, 0),
					       LNET_MKNET(LNET_LND_O2IB, 0),
					       LNET_MKNET(LNET_LND_SOCK, 9),
					       static_cast<std::uint32_t>(g.value()) };
		d->ioc_net = nets[g.below(std::size(nets))];
		d->ioc_count = static_cast<std::uint32_t>(g.below(8));
	}
	// the index of a GET walks around what exists
	if (sent == 83 || sent == 97 || sent == 94) {
		const std::size_t off = sent == 83 ? offsetof(struct lnet_ioctl_config_data, cfg_count)
				      : sent == 97 ? offsetof(struct lnet_ioctl_config_ni, lic_idx)
						   : offsetof(struct lnet_ioctl_peer_ni, pni_index);
		if (g.chance(70))
			put<std::uint32_t>(k.arg, off, static_cast<std::uint32_t>(g.below(6)));
	}
	k.mapped = k.arg.size();
	// a buffer that runs into unmapped memory, inside the header or after
	if (g.chance(8))
		k.mapped = static_cast<std::size_t>(g.below(k.arg.size() + 1));
	return k;
}

}  // namespace ioctlfuzz
