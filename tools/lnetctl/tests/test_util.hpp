// SPDX-License-Identifier: GPL-2.0
//
// Helpers shared by the lnetctl unit tests: parsing a command line,
// running one against a Kernel, reading ioctl structures byte by byte.
#ifndef LNETCTL_TESTS_TEST_UTIL_HPP
#define LNETCTL_TESTS_TEST_UTIL_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace lnetctl::test {

inline CommandLine parse(std::initializer_list<const char *> words)
{
	std::vector<std::string> args(words.begin(), words.end());
	return parse_command_line(args);
}

// The arguments of the verb @words select, which must be a T.
template <typename T>
T parsed(std::initializer_list<const char *> words)
{
	CommandLine cl = parse(words);

	EXPECT_TRUE(cl.command.has_value()) << cl.err;
	if (!cl.command || !std::holds_alternative<T>(*cl.command)) {
		ADD_FAILURE() << "wrong command type";
		return T{};
	}
	return std::get<T>(*cl.command);
}

inline void expect_usage_error(std::initializer_list<const char *> words,
			       const std::string &fragment)
{
	CommandLine cl = parse(words);

	EXPECT_FALSE(cl.command.has_value());
	EXPECT_EQ(cl.exit_code, exit_usage);
	EXPECT_NE(cl.err.find(fragment), std::string::npos) << cl.err;
}

struct Result {
	int status;
	std::string out;
	std::string err;
};

inline Result run_words(Kernel &k, std::vector<std::string> words)
{
	std::ostringstream out, err;
	int status = run(words, k, out, err);
	return Result{ status, out.str(), err.str() };
}

template <typename V, typename T>
V value_at(const T &s, std::size_t off)
{
	V v;
	std::memcpy(&v, reinterpret_cast<const unsigned char *>(&s) + off, sizeof(v));
	return v;
}

template <typename T>
std::uint16_t u16_at(const T &s, std::size_t off)
{
	return value_at<std::uint16_t>(s, off);
}

template <typename T>
std::uint32_t u32_at(const T &s, std::size_t off)
{
	return value_at<std::uint32_t>(s, off);
}

template <typename T>
std::int32_t s32_at(const T &s, std::size_t off)
{
	return value_at<std::int32_t>(s, off);
}

template <typename T>
std::uint64_t u64_at(const T &s, std::size_t off)
{
	return value_at<std::uint64_t>(s, off);
}

}  // namespace lnetctl::test

#endif  // LNETCTL_TESTS_TEST_UTIL_HPP
