// SPDX-License-Identifier: GPL-2.0
//
// An owned file descriptor: closed when the owner goes, moved but never
// copied, so that every early return and exception closes it.
#ifndef LNET_UNIQUE_FD_HPP
#define LNET_UNIQUE_FD_HPP

#include <utility>

namespace lnet {

class UniqueFd {
public:
	UniqueFd() = default;
	// Takes @fd over; a negative value (a failed open(2)) owns nothing.
	explicit UniqueFd(int fd) noexcept : fd_(fd < 0 ? -1 : fd) {}
	UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
	UniqueFd &operator=(UniqueFd &&other) noexcept
	{
		if (this != &other)
			reset(other.release());
		return *this;
	}
	UniqueFd(const UniqueFd &) = delete;
	UniqueFd &operator=(const UniqueFd &) = delete;
	~UniqueFd() { reset(); }

	int get() const noexcept { return fd_; }
	explicit operator bool() const noexcept { return fd_ >= 0; }

	// Gives the descriptor up without closing it.
	[[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }
	// Closes the current descriptor (if any) and owns @fd instead.
	void reset(int fd = -1) noexcept;

private:
	int fd_ = -1;
};

}  // namespace lnet

#endif  // LNET_UNIQUE_FD_HPP
