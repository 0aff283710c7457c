// SPDX-License-Identifier: GPL-2.0
//
// What /dev/lnet must answer to a case, from the checks lnet/ioctl.c
// documents at its top (command, permission, header, argument bytes): an
// exact errno where those checks decide, otherwise only that the answer is
// a real errno (no kernel-internal value such as ENOIOCTLCMD leaks out).
#ifndef LNET_IOCTLFUZZ_ORACLE_HPP
#define LNET_IOCTLFUZZ_ORACLE_HPP

#include <optional>
#include <string>
#include <vector>

#include "cases.hpp"

namespace ioctlfuzz {

struct Expectation {
	std::optional<int> exact;	// the errno (0: success) that must come back
	bool refused = false;		// user: must not succeed
	bool enomem_ok = false;		// allocations are being failed on purpose
	std::vector<int> one_of;	// not empty: the answer is one of these
};

Expectation expect(const Case &k, bool privileged);

// Empty if @err (0 or a positive errno) meets @e, else why not.
std::string judge(const Case &k, const Expectation &e, int err);

}  // namespace ioctlfuzz

#endif  // LNET_IOCTLFUZZ_ORACLE_HPP
