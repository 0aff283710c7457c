// SPDX-License-Identifier: GPL-2.0
// A client for a guest's qemu human monitor (HMP) on its monitor_socket() (qemu.hpp).
#pragma once

#include "unixsock.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace vmtest {

inline constexpr std::string_view hmp_prompt = "(qemu) ";

// What qemu sent after a command line up to (and including) its next
// prompt - the echo of the typed line with cursor escapes, CRLF, the
// command's output, the prompt - reduced to the command's output: escape
// sequences and CRs removed, trimmed. Empty for a command that printed
// nothing, which for set_link means it worked.
std::string hmp_output(std::string_view raw);

// Connects to the monitor at socket, waits for its prompt, runs one
// command line and returns hmp_output() of the answer. Throws
// std::runtime_error if the monitor cannot be reached or does not answer
// by deadline (qemu's monitor serves one client at a time: a second one
// waits).
std::string hmp_run(const std::filesystem::path &socket, std::string_view command,
		    SteadyClock::time_point deadline);

} // namespace vmtest
