// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include "text.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <poll.h>
#include <sys/socket.h>

namespace vmtest {
namespace {

constexpr std::size_t max_answer = 64 * 1024;

bool ends_with_prompt(std::string_view s)
{
	return s.size() >= hmp_prompt.size() && s.substr(s.size() - hmp_prompt.size()) == hmp_prompt;
}

// Reads into buf until it ends with the prompt.
void read_to_prompt(int fd, std::string &buf, SteadyClock::time_point deadline,
		    const std::filesystem::path &socket)
{
	char chunk[4096];
	while (!ends_with_prompt(buf)) {
		if (SteadyClock::now() >= deadline)
			throw std::runtime_error(socket.string() + ": no prompt in time");
		if (!wait_fd(fd, POLLIN, deadline))
			continue;
		const ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
		if (n == 0)
			throw std::runtime_error(socket.string() + ": monitor closed the connection");
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			throw std::runtime_error(socket.string() + ": " + std::strerror(errno));
		}
		buf.append(chunk, static_cast<std::size_t>(n));
		if (buf.size() > max_answer)
			throw std::runtime_error(socket.string() + ": answer too long");
	}
}

void write_all(int fd, std::string_view data, SteadyClock::time_point deadline,
	       const std::filesystem::path &socket)
{
	while (!data.empty()) {
		if (SteadyClock::now() >= deadline)
			throw std::runtime_error(socket.string() + ": cannot send in time");
		if (!wait_fd(fd, POLLOUT, deadline))
			continue;
		const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			throw std::runtime_error(socket.string() + ": " + std::strerror(errno));
		}
		data.remove_prefix(static_cast<std::size_t>(n));
	}
}

} // namespace

std::string hmp_output(std::string_view raw)
{
	if (ends_with_prompt(raw))
		raw.remove_suffix(hmp_prompt.size());
	// The echo of the command line ends at the first line end.
	const auto eol = raw.find('\n');
	raw = eol == std::string_view::npos ? std::string_view{} : raw.substr(eol + 1);
	std::string out;
	for (std::size_t i = 0; i < raw.size(); i++) {
		const char c = raw[i];
		if (c == '\x1b') {
			// CSI: ESC [ parameters... final byte in @..~
			if (i + 1 < raw.size() && raw[i + 1] == '[') {
				i += 2;
				while (i < raw.size() && !(raw[i] >= '@' && raw[i] <= '~'))
					i++;
			} else {
				i++;
			}
			continue;
		}
		if (c != '\r')
			out += c;
	}
	return std::string(trim(out));
}

std::string hmp_run(const std::filesystem::path &socket, std::string_view command,
		    SteadyClock::time_point deadline)
{
	Fd fd = connect_unix(socket);
	std::string buf;
	read_to_prompt(fd.get(), buf, deadline, socket); // the banner
	write_all(fd.get(), std::string(command) + "\n", deadline, socket);
	buf.clear();
	read_to_prompt(fd.get(), buf, deadline, socket);
	return hmp_output(buf);
}

} // namespace vmtest
