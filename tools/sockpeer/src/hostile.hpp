// SPDX-License-Identifier: GPL-2.0
//
// What the hostile peers (`lnet-sockpeer hostile MODE`) share: fake NIDs,
// a PUT's bytes, whether the target closed a connection, and a
// well-behaved peer that pings the target while a hostile one floods it.
#ifndef LNET_SOCKPEER_HOSTILE_HPP
#define LNET_SOCKPEER_HOSTILE_HPP

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "net.hpp"
#include "session.hpp"

namespace sockpeer::hostile {

// A NID next to @my_ip that no node has: a.b.c.@k@tcp.
std::uint64_t fake_nid(std::uint32_t my_ip, std::uint32_t k);

// A whole LNET message: a 0-byte PUT from @src to @dst's @portal,
// asking for no ACK; cookie 0 of its socklnd header is @zc_cookie.
Bytes put_bytes(std::uint64_t dst, std::uint64_t src, std::uint32_t portal,
		std::uint64_t match_bits, std::uint64_t zc_cookie = 0);

// The target closed (FIN or RST) connection @s (TCP_INFO state).
bool peer_closed(const Socket &s);

// Reads and drops at most @n bytes of @s without blocking.
void sip(const Socket &s, std::size_t n);

// A well-behaved peer with NID @me: its own session, an LNet ping every
// two seconds from start() to stop().
class Pinger {
public:
	Pinger(std::uint32_t target_ip, std::uint64_t me);
	~Pinger();
	Pinger(const Pinger &) = delete;
	Pinger &operator=(const Pinger &) = delete;

	void start();
	void stop();
	int answered() const { return ok_; }
	int failed() const { return failed_; }
	const std::string &first_error() const { return error_; }

private:
	void loop();

	Session sess_;
	std::atomic<bool> stop_{false};
	std::atomic<int> ok_{0};
	std::atomic<int> failed_{0};
	std::string error_;		// the loop's until stop()
	std::thread thread_;
};

}  // namespace sockpeer::hostile

#endif  // LNET_SOCKPEER_HOSTILE_HPP
