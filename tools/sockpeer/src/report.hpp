// SPDX-License-Identifier: GPL-2.0
//
// The check reporter is shared with the other test peers (tools/common).
#ifndef LNET_SOCKPEER_REPORT_HPP
#define LNET_SOCKPEER_REPORT_HPP

#include "lnet/report.hpp"

namespace sockpeer {

using lnet::Reporter;

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_REPORT_HPP
