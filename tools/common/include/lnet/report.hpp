// SPDX-License-Identifier: GPL-2.0
//
// Check results in the guest bench's format: "ok NAME" or
// "not ok NAME # reason", one line each, flushed at once; any other line is
// a note (scripts/guest/lib.sh, t_results_from). Thread-safe: a peer may
// report from several threads.
#ifndef LNET_REPORT_HPP
#define LNET_REPORT_HPP

#include <mutex>
#include <ostream>
#include <string_view>

namespace lnet {

class Reporter {
public:
	explicit Reporter(std::ostream &out) : out_(out) {}

	void ok(std::string_view name);
	void not_ok(std::string_view name, std::string_view why);
	// ok or not ok; returns @cond.
	bool check(std::string_view name, bool cond, std::string_view why = "check failed");
	void note(std::string_view line);
	int failed() const;

private:
	std::ostream &out_;
	mutable std::mutex lock_;
	int failed_ = 0;
};

}  // namespace lnet

#endif  // LNET_REPORT_HPP
