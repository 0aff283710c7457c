// SPDX-License-Identifier: GPL-2.0
#include "lnet/report.hpp"

#include <string>

namespace lnet {
namespace {

// A result line must stay one line, and "#" separates the reason.
std::string one_line(std::string_view s)
{
	std::string out(s);
	for (auto &c : out)
		if (c == '\n' || c == '\r')
			c = ' ';
	return out;
}

}  // namespace

void Reporter::ok(std::string_view name)
{
	const std::lock_guard guard(lock_);
	out_ << "ok " << one_line(name) << std::endl;
}

void Reporter::not_ok(std::string_view name, std::string_view why)
{
	const std::lock_guard guard(lock_);
	failed_++;
	out_ << "not ok " << one_line(name) << " # " << one_line(why) << std::endl;
}

bool Reporter::check(std::string_view name, bool cond, std::string_view why)
{
	if (cond)
		ok(name);
	else
		not_ok(name, why);
	return cond;
}

void Reporter::note(std::string_view line)
{
	const std::lock_guard guard(lock_);
	out_ << one_line(line) << std::endl;
}

int Reporter::failed() const
{
	const std::lock_guard guard(lock_);
	return failed_;
}

}  // namespace lnet
