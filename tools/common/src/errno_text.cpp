// SPDX-License-Identifier: GPL-2.0
#include "lnet/errno_text.hpp"

#include <cstring>

namespace lnet {

std::string errno_text(int err)
{
	if (err < 0)
		err = -err;
	// strerrordesc_np: thread-safe, untranslated, NULL when unknown
	const char *s = ::strerrordesc_np(err);

	return s ? s : "error " + std::to_string(err);
}

}  // namespace lnet
