// SPDX-License-Identifier: GPL-2.0
//
// lst, the lnet_selftest console: the pieces behind the verbs. The kernel
// side is include/uapi/linux/lnet/lnetst.h; Kernel is the one seam the
// tests replace (FakeKernel in tests/).
#ifndef LST_LST_HPP
#define LST_LST_HPP

#include <linux/lnet/lnetst.h>

#include <lnet/errno_text.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lst {

// ---- NIDs -----------------------------------------------------------------

struct NidList {
	std::vector<lnet_nid_t> nids;
	std::string error;	// empty on success
};

// "192.168.1.[2-5,9]@tcp" style ranges in the last address field (or in
// a numeric address); at most LST_MAX_NODES NIDs in all.
NidList expand_nids(std::span<const std::string> args);

std::string node_name(lnet_nid_t nid, std::uint32_t pid = LNET_PID_LUSTRE);

// ---- the kernel ----------------------------------------------------------

// One LNET_IOC_LNETST ioctl: 0, or the errno.
class Kernel {
public:
	virtual ~Kernel() = default;
	virtual int lnetst(std::span<std::byte> buf) = 0;
	// whether lnet_selftest.ko is loaded (for a clear error message)
	virtual bool selftest_loaded() = 0;
};

// A command buffer: the fixed part (struct T, header filled), optional
// NIDs after it, then room for node records of type R.
class Request {
public:
	Request(std::uint32_t opc, std::size_t fixed, std::size_t nids,
		std::size_t recsize, std::uint32_t nres);

	std::byte *data() { return reinterpret_cast<std::byte *>(storage_.data()); }
	const std::byte *data() const
	{
		return reinterpret_cast<const std::byte *>(storage_.data());
	}
	lstio_hdr &hdr() { return *reinterpret_cast<lstio_hdr *>(data()); }
	template <typename T> T &as() { return *reinterpret_cast<T *>(data()); }
	std::span<std::byte> bytes() { return {data(), size_}; }
	std::size_t records_offset() const { return records_; }
	// the node records the kernel filled (at most lh_nres_max)
	template <typename R> std::vector<R> records() const;
	std::uint32_t available() const;	// lh_nres

private:
	std::vector<std::uint64_t> storage_;	// 8-byte aligned, like the structs
	std::size_t size_ = 0;
	std::size_t records_ = 0;
};

void set_name(char (&dst)[LST_NAME_SIZE], std::string_view name);
std::string get_name(const char (&src)[LST_NAME_SIZE]);

// ---- stat -----------------------------------------------------------------

struct MinAvgMax {
	double avg = 0, min = 0, max = 0;
};

struct StatSummary {
	std::string target;
	unsigned nodes = 0, answered = 0;
	MinAvgMax r_rpc, w_rpc, r_mib, w_mib;
	std::uint64_t rpc_errors = 0, brw_errors = 0, ping_errors = 0;
};

// One interval: two STAT_QUERY answers of the same nodes (same order),
// @wall_ms the console's interval, used when a node's clock did not move.
StatSummary summarize(std::string_view target,
		      std::span<const lstio_node_stat> before,
		      std::span<const lstio_node_stat> after, double wall_ms);

enum class StatShow { both, bw, rate };
void print_table(std::ostream &out, const StatSummary &s, StatShow show);
std::string csv_header();
std::string csv_row(unsigned sample, const StatSummary &s);
std::string json_row(unsigned sample, const StatSummary &s);

// ---- commands -------------------------------------------------------------

struct Env {
	Kernel &kernel;
	std::ostream &out;
	std::ostream &err;
	std::int32_t key = 0;		// LST_SESSION
	int pid = 0;			// default session name
	// stat: wait between samples (tests make it a no-op); false: stop
	bool (*sleep_ms)(unsigned ms) = nullptr;
	double (*now_ms)() = nullptr;
};

// Run one command line (argv without the program name). Exit status: 0
// ok, 1 the command failed, 2 usage error.
int run(Env &env, std::span<const std::string> args);

using lnet::errno_text;

}  // namespace lst

#endif  // LST_LST_HPP
