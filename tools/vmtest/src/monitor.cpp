// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include <cerrno>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>

namespace vmtest {

QmpClient::QmpClient(Fd fd, std::string peer, SteadyClock::time_point deadline)
	: fd_(std::move(fd)), peer_(std::move(peer))
{
	auto first = next(deadline);
	auto *greeting = std::get_if<QmpGreeting>(&first);
	if (!greeting)
		fail("the monitor did not start with a QMP greeting");
	greeting_ = std::move(*greeting);
	// Until then qemu accepts no other command.
	execute("qmp_capabilities", Json::object(), deadline);
}

QmpClient QmpClient::connect(const std::filesystem::path &socket,
			     SteadyClock::time_point deadline)
{
	return QmpClient(connect_unix(socket), socket.string(), deadline);
}

void QmpClient::fail(std::string_view why) const
{
	throw std::runtime_error(peer_ + ": " + std::string(why));
}

QmpMessage QmpClient::next(SteadyClock::time_point deadline)
{
	char chunk[4096];
	while (ready_.empty()) {
		if (SteadyClock::now() >= deadline)
			fail("no answer in time");
		if (!wait_fd(fd_.get(), POLLIN, deadline))
			continue;
		const ssize_t n = ::recv(fd_.get(), chunk, sizeof(chunk), 0);
		if (n == 0)
			fail("monitor closed the connection");
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fail(std::strerror(errno));
		}
		try {
			for (auto &j : framer_.feed(std::string_view(chunk, static_cast<std::size_t>(n))))
				ready_.push_back(std::move(j));
		} catch (const std::runtime_error &e) {
			fail(e.what());
		}
	}
	const Json j = std::move(ready_.front());
	ready_.pop_front();
	try {
		return qmp_classify(j);
	} catch (const std::runtime_error &e) {
		fail(e.what());
	}
}

void QmpClient::send(std::string_view data, SteadyClock::time_point deadline)
{
	while (!data.empty()) {
		if (SteadyClock::now() >= deadline)
			fail("cannot send in time");
		if (!wait_fd(fd_.get(), POLLOUT, deadline))
			continue;
		const ssize_t n = ::send(fd_.get(), data.data(), data.size(), MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fail(std::strerror(errno));
		}
		data.remove_prefix(static_cast<std::size_t>(n));
	}
}

Json QmpClient::execute(std::string_view command, const Json &arguments,
			SteadyClock::time_point deadline)
{
	const Json id = next_id_++;
	send(qmp_command(command, arguments, id), deadline);
	for (;;) {
		auto m = next(deadline);
		if (auto *ev = std::get_if<QmpEvent>(&m)) {
			events_.push_back(std::move(*ev));
		} else if (auto *ret = std::get_if<QmpReturn>(&m)) {
			// Another id: the late answer to a command that timed out.
			if (ret->id == id)
				return std::move(ret->value);
		} else if (auto *err = std::get_if<QmpError>(&m)) {
			// No id: qemu could not even parse the command.
			if (err->id == id || err->id.is_null())
				throw QmpCommandError(std::move(err->error_class),
						      std::move(err->desc));
		} else {
			fail("a second QMP greeting in one session");
		}
	}
}

std::string qmp_run(const std::filesystem::path &socket, std::string_view command,
		    const Json &arguments, SteadyClock::time_point deadline)
{
	QmpClient client = QmpClient::connect(socket, deadline);
	try {
		client.execute(command, arguments, deadline);
	} catch (const QmpCommandError &e) {
		return std::string("Error: ") + e.what();
	}
	return {};
}

} // namespace vmtest
