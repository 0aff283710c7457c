// SPDX-License-Identifier: GPL-2.0
//
// Memory for one case's argument: the bytes end exactly where an
// inaccessible guard page begins, so a kernel that reads or writes past
// what the case mapped gets EFAULT instead of this process's heap. A
// second area, also guarded, is what pointer fields point at.
#ifndef LNET_IOCTLFUZZ_ARENA_HPP
#define LNET_IOCTLFUZZ_ARENA_HPP

#include <cstddef>
#include <cstdint>
#include <span>

#include "cases.hpp"

namespace ioctlfuzz {

class Mapping {
public:
	// @bytes usable, followed by one PROT_NONE page
	explicit Mapping(std::size_t bytes);
	~Mapping();
	Mapping(const Mapping &) = delete;
	Mapping &operator=(const Mapping &) = delete;

	std::uint8_t *end() const noexcept { return base_ + usable_; }
	std::size_t usable() const noexcept { return usable_; }

private:
	std::uint8_t *base_ = nullptr;
	std::size_t usable_ = 0;
	std::size_t total_ = 0;
};

class Arena {
public:
	static constexpr std::size_t max_arg = 16384;
	static constexpr std::size_t scratch_bytes = 16384;

	Arena() : arg_(max_arg), scratch_(scratch_bytes) {}

	// Copies @k's mapped bytes so that they end at the guard page, points
	// its scratch pointer fields at the scratch area; the address to pass
	// to ioctl(2).
	void *place(const Case &k);

private:
	Mapping arg_;
	Mapping scratch_;
};

}  // namespace ioctlfuzz

#endif  // LNET_IOCTLFUZZ_ARENA_HPP
