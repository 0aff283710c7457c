// SPDX-License-Identifier: GPL-2.0
//
// lnet-ioctlfuzz --fixed: a fixed list of malformed and hostile /dev/lnet
// calls, each of which must fail with its documented errno (lnet/ioctl.c)
// and never hurt the kernel (the debug guest's KASAN, lockdep and kmemleak
// watch the run).
//
//   --as root   with LNet configured ("lnetctl lnet configure"), no
//               network but 0@lo needed
//   --as user   without CAP_NET_ADMIN: changes refused, reads open
#ifndef LNET_IOCTLFUZZ_FIXED_CASES_HPP
#define LNET_IOCTLFUZZ_FIXED_CASES_HPP

#include <span>
#include <string>
#include <string_view>

#include "lnet/dev_lnet.hpp"
#include "report.hpp"

namespace ioctlfuzz {

enum class Who { root, user };

// What the cases of one run share: the device, and the answers of calls
// that later checks look at.
struct FixedContext;

// One result line. A call makes one ioctl, whose errno (0: success) must
// be want. A check looks at what the calls before it left in the context
// (or makes calls of its own) and answers why it does not hold, or "".
struct FixedCase {
	std::string_view name;
	Who who;
	int want;				// calls only
	int (*call)(FixedContext &);		// the errno, 0 on success
	std::string (*check)(FixedContext &);	// empty: it holds
};

// Every case, each mode's in the order they run.
std::span<const FixedCase> fixed_cases();

// Runs @who's cases on @dev (open already), one line each into @report.
void run_fixed(lnet::LnetDevice &dev, Who who, Report &report);

}  // namespace ioctlfuzz

#endif  // LNET_IOCTLFUZZ_FIXED_CASES_HPP
