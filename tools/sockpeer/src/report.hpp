// SPDX-License-Identifier: GPL-2.0
//
// Check results in the guest bench's format: "ok NAME" or
// "not ok NAME # reason", one line each, flushed at once; any other line is
// a note. Thread-safe: the server reports from several threads.
#ifndef LNET_SOCKPEER_REPORT_HPP
#define LNET_SOCKPEER_REPORT_HPP

#include <mutex>
#include <ostream>
#include <string_view>

namespace sockpeer {

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

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_REPORT_HPP
