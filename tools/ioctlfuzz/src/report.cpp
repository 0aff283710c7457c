// SPDX-License-Identifier: GPL-2.0
#include "report.hpp"

#include <cstring>

namespace ioctlfuzz {

void Report::result(bool ok, std::string_view name, std::string_view why)
{
	if (ok) {
		out_ << "ok " << name << "\n";
		return;
	}
	out_ << "not ok " << name << " # " << why << "\n";
	failures_++;
}

void Report::expect(std::string_view name, int got, int want)
{
	result(got == want, name, "got " + errno_label(got) + ", want " + errno_label(want));
}

std::string errno_label(int err)
{
	if (!err)
		return "success";
	const char *name = strerrordesc_np(err);
	return std::to_string(err) + " " + (name ? name : "?");
}

}  // namespace ioctlfuzz
