// SPDX-License-Identifier: GPL-2.0
// An owned file descriptor, closed on destruction: the tools' common one.
#pragma once

#include <lnet/unique_fd.hpp>

namespace vmtest {

using Fd = lnet::UniqueFd;

} // namespace vmtest
