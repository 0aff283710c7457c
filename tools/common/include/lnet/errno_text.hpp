// SPDX-License-Identifier: GPL-2.0
//
// The words for an errno value, as the tools print them.
#ifndef LNET_ERRNO_TEXT_HPP
#define LNET_ERRNO_TEXT_HPP

#include <string>

namespace lnet {

// "No such file or directory" for ENOENT (or -ENOENT: kernel answers carry
// negative values); "error N" for a number the C library does not know.
std::string errno_text(int err);

}  // namespace lnet

#endif  // LNET_ERRNO_TEXT_HPP
