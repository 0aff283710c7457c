// SPDX-License-Identifier: GPL-2.0
#include "arena.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>

#include <sys/mman.h>
#include <unistd.h>

namespace ioctlfuzz {

Mapping::Mapping(std::size_t bytes)
{
	const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
	usable_ = (bytes + page - 1) / page * page;
	total_ = usable_ + page;
	void *p = ::mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
	if (p == MAP_FAILED)
		throw std::system_error(errno, std::generic_category(), "mmap");
	base_ = static_cast<std::uint8_t *>(p);
	if (::mprotect(base_ + usable_, page, PROT_NONE)) {
		const int err = errno;
		::munmap(base_, total_);
		throw std::system_error(err, std::generic_category(), "mprotect");
	}
}

Mapping::~Mapping()
{
	if (base_)
		::munmap(base_, total_);
}

void *Arena::place(const Case &k)
{
	const std::size_t n = std::min(k.mapped, arg_.usable());
	std::uint8_t *start = arg_.end() - n;
	std::memcpy(start, k.arg.data(), n);
	const auto scratch = reinterpret_cast<std::uint64_t>(scratch_.end() - scratch_bytes);
	for (const std::uint32_t off : k.scratch_pointers)
		if (off + sizeof(scratch) <= n)
			std::memcpy(start + off, &scratch, sizeof(scratch));
	return start;
}

}  // namespace ioctlfuzz
