// SPDX-License-Identifier: GPL-2.0
//
// One o2iblnd connection from user space: rdma_cm active side (resolve,
// QP, 2Q+2 receives, CONNREQ as private data, CONNACK check), then
// messages with o2iblnd's credit rules ("Credits" in
// Documentation/wire/o2iblnd.md) and RDMA WRITEs from a local buffer.
#ifndef LNET_IBPEER_CONN_HPP
#define LNET_IBPEER_CONN_HPP

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "verbs.hpp"
#include "wire.hpp"

namespace ibpeer {

using namespace std::chrono_literals;
using Ms = std::chrono::milliseconds;

// Who we are and whom we talk to.
struct Identity {
	std::uint32_t my_ip = 0;		// host order
	std::uint32_t target_ip = 0;
	std::uint64_t my_nid = 0;		// my_ip@o2ib by default
	std::uint64_t target_nid = 0;
	std::uint64_t my_stamp = 0;		// our incarnation
	std::uint16_t queue_depth = 8;		// proposed
	std::uint16_t port = wire::service;
};

// The CONNREQ @id would send.
wire::Msg connreq(const Identity &id, std::uint64_t dststamp = 0);

// How a connection attempt ended.
struct Outcome {
	enum class Kind { established, rejected, bad_connack, unreachable, error, timeout };
	Kind kind = Kind::timeout;
	int cm_status = 0;			// REJECTED: the IB CM reason (28: consumer)
	std::optional<wire::Reject> reject;	// REJECTED with o2iblnd reject data
	std::string detail;

	std::string describe() const;
};

class Conn {
public:
	// Connects with @private_data (a CONNREQ, well-formed or not).
	// Check outcome() before using the connection.
	Conn(const Identity &id, const std::vector<std::uint8_t> &private_data, Ms timeout = 15s);
	// The usual CONNREQ of @id.
	explicit Conn(const Identity &id, Ms timeout = 15s);
	Conn(const Conn &) = delete;
	Conn &operator=(const Conn &) = delete;
	~Conn();

	const Outcome &outcome() const { return outcome_; }
	bool established() const { return outcome_.kind == Outcome::Kind::established && !dead_; }
	const wire::Msg &connack() const { return connack_; }
	std::uint16_t queue_depth() const { return q_; }
	std::uint64_t peer_stamp() const { return peer_stamp_; }
	int send_credits() const { return credits_; }

	// A message with our header filled in (src/dst NIDs and stamps,
	// version); the caller fills the type and body.
	wire::Msg make(std::uint8_t type) const;

	// Sends @m (credits: the ones we owe, unless @raw). A credit-consuming
	// type takes a send credit and waits for one (receiving meanwhile) at
	// most @timeout. false if the connection died or no credit came.
	bool send(wire::Msg m, Ms timeout = 10s);
	// Posts @bytes as they are (no credit accounting); waits for the send
	// completion. false if it failed.
	bool send_raw(const std::vector<std::uint8_t> &bytes, Ms timeout = 10s);
	// Posts all of @msgs at once, without waiting for credits; true if
	// every send completed.
	bool send_burst(const std::vector<std::vector<std::uint8_t>> &msgs, Ms timeout = 10s);

	// The next received message that @want accepts (others are handled:
	// credits returned, requests the target makes of us refused); nullopt
	// on timeout or when the connection dies.
	std::optional<wire::Msg> recv(const std::function<bool(const wire::Msg &)> &want,
				      Ms timeout = 10s);

	// RDMA WRITE of @len bytes of our buffer to @addr/@rkey, signalled;
	// the completion's status (IBV_WC_SUCCESS or the error), or nullopt if
	// none came in @timeout.
	std::optional<ibv_wc_status> rdma_write(std::uint64_t addr, std::uint32_t rkey,
						std::uint32_t len, Ms timeout = 20s);

	// Sends a NOOP if credits are owed.
	bool return_credits();

	// true once the target closed the connection (DISCONNECTED) or a
	// completion failed; waits at most @timeout for it.
	bool wait_closed(Ms timeout);
	bool dead() const { return dead_; }
	std::string why_dead() const { return why_dead_; }

	// rdma_disconnect() (the id, QP and buffers go with the object).
	void disconnect();

	std::uint64_t next_cookie() { return ++cookie_; }
	std::size_t rdma_buffer_size() const;

private:
	bool connect(const std::vector<std::uint8_t> &private_data, Ms timeout);
	bool post_recv(std::size_t slot);
	// Polls the CQ and the CM channel once; false if the connection died.
	bool progress(Ms wait);
	void handle(wire::Msg &m);
	void kill(const std::string &why);
	bool post_send(const std::vector<std::uint8_t> &bytes, std::uint64_t wr_id,
		       std::size_t slot);
	bool wait_send(std::uint64_t wr_id, Ms timeout);

	Identity id_;
	Outcome outcome_;
	wire::Msg connack_;
	std::uint16_t q_ = 0;
	std::uint64_t peer_stamp_ = 0;
	int credits_ = 0;		// send credits
	int owed_ = 0;			// credits to return
	bool dead_ = false;
	bool cm_gone_ = false;	// DISCONNECTED seen
	std::string why_dead_;
	std::uint64_t cookie_ = 0x1b0000;
	std::uint64_t next_wr_ = 1;
	std::vector<std::uint64_t> done_wrs_;
	std::vector<std::pair<std::uint64_t, ibv_wc_status>> failed_wrs_;
	std::deque<wire::Msg> inbox_;

	// declared in construction order: destroyed in reverse
	verbs::Channel channel_;
	verbs::CmId cm_;
	verbs::Pd pd_;
	verbs::Cq cq_;
	std::vector<std::uint8_t> buf_;	// receive slots, send slots, RDMA source
	verbs::Mr mr_;
	verbs::Qp qp_;
};

}  // namespace ibpeer

#endif  // LNET_IBPEER_CONN_HPP
