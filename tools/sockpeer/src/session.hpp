// SPDX-License-Identifier: GPL-2.0
//
// The active side of socklnd as a test peer uses it: a connection request
// and a hello per connection, CONTROL + BULK_IN + BULK_OUT to the target
// like a Lustre node opens them, messages read from whichever connection
// has one, and an LNet ping over the session.
#ifndef LNET_SOCKPEER_SESSION_HPP
#define LNET_SOCKPEER_SESSION_HPP

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "net.hpp"
#include "wire.hpp"

namespace sockpeer {

// A message as read from a connection.
struct Msg {
	enum class Kind { noop, lnet, bad };

	Kind kind = Kind::bad;
	std::uint32_t ksock_type = 0;
	std::uint64_t c0 = 0;
	std::uint64_t c1 = 0;
	wire::LnetHeader lnet;	// Kind::lnet
	Bytes payload;

	bool is_lnet(std::uint32_t type) const { return kind == Kind::lnet && lnet.type == type; }
	std::string describe() const;
};

// One message from @s in @order, or nullopt if the connection closed (or
// went silent) in the middle of one.
std::optional<Msg> read_msg(const Socket &s, Clock::duration timeout = std::chrono::seconds(10),
			    wire::Order order = wire::Order::little);

// Connection request + hello in one write: what an active side sends.
Bytes handshake_bytes(std::uint64_t target_nid, const wire::Hello &hello);

// "v3 192.0.2.2@tcp->192.0.2.1@tcp pid 12345 inc 0x... type 1 nips 0"
std::string describe(const std::optional<wire::Hello> &h);

// Test pattern of the peer scenario: byte i of a buffer seeded @seed.
Bytes pattern(std::size_t n, unsigned int seed);

class Session {
public:
	struct Params {
		std::uint32_t target_ip = 0;
		std::uint64_t me = 0;			// our NID
		std::uint64_t incarnation = 1;
		std::uint32_t version = 3;
		wire::Order order = wire::Order::little;	// of our request, hello, headers
	};

	// Opens CONTROL, BULK_IN and BULK_OUT. Throws NetError.
	explicit Session(const Params &p);

	// One more connection of @type (hello with @inc, default the
	// session's), and the target's answer. Throws NetError.
	std::pair<Socket, std::optional<wire::Hello>>
	open(std::uint32_t type, std::optional<std::uint64_t> inc = std::nullopt,
	     const std::vector<std::uint16_t> &avoid = {}) const;

	bool send(std::uint32_t type, ByteView data);
	// The first message matching @pred from any live connection;
	// keepalives are skipped, other messages kept for later waits.
	std::optional<Msg> wait(const std::function<bool(const Msg &)> &pred,
				Clock::duration timeout = std::chrono::seconds(20));
	// True if every connection not known closed closes within @timeout.
	bool all_closed(Clock::duration timeout = std::chrono::seconds(15));

	// The target's answer to our hello on @type.
	const std::optional<wire::Hello> &reply(std::uint32_t type) const;
	bool all_replied() const;
	const Socket &sock(std::uint32_t type) const { return socks_.at(type); }
	// Takes the connection of @type out of the session.
	Socket take(std::uint32_t type);
	void put(std::uint32_t type, Socket s);

	std::uint64_t target_nid() const { return target_; }
	std::uint64_t me() const { return p_.me; }
	wire::Order order() const { return p_.order; }

	// GET of the target's ping info over @type; nullopt if the REPLY is
	// as Documentation/wire/routing-health-multirail.md, "Answering a
	// ping", says, else what is wrong.
	std::optional<std::string> ping(std::uint32_t type = wire::conn_control,
					wire::Wmd wmd = {0x1111, 0x2222});

private:
	Params p_;
	std::uint64_t target_;
	std::map<std::uint32_t, Socket> socks_;
	std::map<std::uint32_t, std::optional<wire::Hello>> replies_;
	std::set<std::uint32_t> closed_;
	std::deque<Msg> backlog_;
};

}  // namespace sockpeer

#endif  // LNET_SOCKPEER_SESSION_HPP
