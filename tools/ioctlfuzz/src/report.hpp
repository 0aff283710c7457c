// SPDX-License-Identifier: GPL-2.0
//
// The result lines of lnet-ioctlfuzz, as the guest scenarios read them:
// "ok NAME" or "not ok NAME # why", one a check; the run fails if any
// check did.
#ifndef LNET_IOCTLFUZZ_REPORT_HPP
#define LNET_IOCTLFUZZ_REPORT_HPP

#include <ostream>
#include <string>
#include <string_view>

namespace ioctlfuzz {

class Report {
public:
	explicit Report(std::ostream &out) : out_(out) {}

	// One line; @why is printed only for a failure.
	void result(bool ok, std::string_view name, std::string_view why = {});
	// An ioctl's answer: "ok NAME" if @got (0 or an errno) is @want.
	void expect(std::string_view name, int got, int want);

	int failures() const noexcept { return failures_; }
	int exit_status() const noexcept { return failures_ ? 1 : 0; }

private:
	std::ostream &out_;
	int failures_ = 0;
};

// "success" for 0, else "22 Invalid argument".
std::string errno_label(int err);

}  // namespace ioctlfuzz

#endif  // LNET_IOCTLFUZZ_REPORT_HPP
