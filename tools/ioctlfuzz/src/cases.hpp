// SPDX-License-Identifier: GPL-2.0
//
// The cases of lnet-ioctlfuzz: each one an ioctl command and the bytes of
// its argument, derived from (seed, index) alone, so that any case of a run
// can be generated again by itself (--first INDEX --cases 1).
#ifndef LNET_IOCTLFUZZ_CASES_HPP
#define LNET_IOCTLFUZZ_CASES_HPP

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ioctlfuzz {

// What the fuzzer knows of a /dev/lnet command (the uapi header's facts).
struct Command {
	unsigned int nr;
	const char *name;
	std::uint32_t version;		// LNET_IOCTL_VERSION or VERSION2
	std::uint32_t min_len;		// sizeof its structure
	bool open;			// allowed without CAP_NET_ADMIN
	bool core;			// handled by lnet.ko itself
};

// GET_PEER and GET_CONN: a listing that ksocklnd and ko2iblnd answer for
// a net of their type (generic block: ioc_net, ioc_count).
bool lnd_listing(unsigned int nr);

// The commands of the uapi header, in command-number order.
std::span<const Command> commands();
const Command *find_command(unsigned int nr);

// Where in the argument the fuzzer must not put arbitrary values: user
// pointers the kernel writes through. Each is set to null, to the
// scratch area or to an address that must fault.
struct PointerField {
	std::uint32_t offset;
};

struct Case {
	std::uint64_t index = 0;
	unsigned long cmd = 0;		// the full ioctl request number
	std::vector<std::uint8_t> arg;	// the bytes to pass (the header first)
	// bytes of the argument that are mapped: arg.size() normally; less
	// when the case tests a buffer that runs into unmapped memory
	std::size_t mapped = 0;
	// pointer fields of the argument to point at the scratch area
	// (offset), filled in by the runner
	std::vector<std::uint32_t> scratch_pointers;

	std::uint32_t ioc_len() const;
	std::uint32_t ioc_version() const;
	std::string describe() const;	// one line: "case 12: nr 91 ..."
};

struct Options {
	std::uint64_t seed = 1;
	bool privileged = true;		// commands that change state included
	bool changes = true;		// root: also commands that reconfigure
};

// Case @index of the run with @opt: the same bytes every time.
Case make_case(const Options &opt, std::uint64_t index);

}  // namespace ioctlfuzz

#endif  // LNET_IOCTLFUZZ_CASES_HPP
