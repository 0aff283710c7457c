// SPDX-License-Identifier: GPL-2.0
#include "conn.hpp"

#include <algorithm>
#include <cstring>
#include <poll.h>

namespace ibpeer {
namespace {

constexpr std::size_t slot_size = wire::msg_size;
constexpr std::size_t send_slots = 64;
constexpr std::size_t rdma_size = 1U << 20;
constexpr std::uint64_t recv_flag = 1ULL << 63;
constexpr std::int32_t enodata = -61;

bool takes_credit(std::uint8_t type)
{
	return type == wire::msg_immediate || type == wire::msg_put_req ||
	       type == wire::msg_get_req;
}

}  // namespace

wire::Msg connreq(const Identity &id, std::uint64_t dststamp)
{
	wire::Msg m;
	m.hdr.type = wire::msg_connreq;
	m.hdr.srcnid = id.my_nid;
	m.hdr.srcstamp = id.my_stamp;
	m.hdr.dstnid = id.target_nid;
	m.hdr.dststamp = dststamp;
	m.params.queue_depth = id.queue_depth;
	return m;
}

std::string Outcome::describe() const
{
	switch (kind) {
	case Kind::established:
		return "established";
	case Kind::rejected:
		if (reject)
			return "rejected " + std::string(wire::reject_name(reject->reason));
		return "rejected (IB CM reason " + std::to_string(cm_status) + ", no o2iblnd data)";
	case Kind::bad_connack:
		return "bad CONNACK: " + detail;
	case Kind::unreachable:
		return "unreachable: " + detail;
	case Kind::error:
		return "error: " + detail;
	case Kind::timeout:
		return "no answer";
	}
	return "?";
}

Conn::Conn(const Identity &id, const std::vector<std::uint8_t> &private_data, Ms timeout)
	: id_(id)
{
	connect(private_data, timeout);
}

Conn::Conn(const Identity &id, Ms timeout)
	: Conn(id, wire::encode(connreq(id)), timeout)
{
}

Conn::~Conn()
{
	disconnect();
}

std::size_t Conn::rdma_buffer_size() const
{
	return rdma_size;
}

bool Conn::connect(const std::vector<std::uint8_t> &private_data, Ms timeout)
{
	auto wait_for = [&](rdma_cm_event_type want, Ms t) -> bool {
		const auto ev = verbs::next_event(channel_.get(), t);
		if (!ev) {
			outcome_.kind = Outcome::Kind::timeout;
			return false;
		}
		if (ev->type == want)
			return true;
		outcome_.kind = Outcome::Kind::unreachable;
		outcome_.detail = verbs::event_name(ev->type) + " status " + std::to_string(ev->status);
		return false;
	};

	channel_ = verbs::make_channel();
	cm_ = verbs::make_id(channel_.get());
	auto src = verbs::inet(id_.my_ip, 0);
	auto dst = verbs::inet(id_.target_ip, id_.port);
	if (rdma_resolve_addr(cm_.get(), reinterpret_cast<sockaddr *>(&src),
			      reinterpret_cast<sockaddr *>(&dst), 5000)) {
		outcome_ = {Outcome::Kind::error, 0, {}, std::string("rdma_resolve_addr: ") + std::strerror(errno)};
		return false;
	}
	if (!wait_for(RDMA_CM_EVENT_ADDR_RESOLVED, 6s))
		return false;
	if (rdma_resolve_route(cm_.get(), 5000)) {
		outcome_ = {Outcome::Kind::error, 0, {}, std::string("rdma_resolve_route: ") + std::strerror(errno)};
		return false;
	}
	if (!wait_for(RDMA_CM_EVENT_ROUTE_RESOLVED, 6s))
		return false;

	const std::size_t nrecv = 2 * std::size_t{id_.queue_depth} + 2;
	pd_ = verbs::make_pd(cm_->verbs);
	cq_ = verbs::make_cq(cm_->verbs, static_cast<int>(nrecv + send_slots + 8));
	buf_.assign(nrecv * slot_size + send_slots * slot_size + rdma_size, 0);
	// the RDMA source holds a recognisable pattern
	for (std::size_t i = 0; i < rdma_size; i++)
		buf_[buf_.size() - rdma_size + i] = static_cast<std::uint8_t>(0x5a ^ i);
	mr_ = verbs::make_mr(pd_.get(), buf_.data(), buf_.size(),
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	qp_ = verbs::make_qp(cm_.get(), pd_.get(), cq_.get(), send_slots + 4,
			     static_cast<std::uint32_t>(nrecv));
	for (std::size_t i = 0; i < nrecv; i++)
		if (!post_recv(i)) {
			outcome_ = {Outcome::Kind::error, 0, {}, "ibv_post_recv"};
			return false;
		}

	rdma_conn_param param{};
	param.private_data = private_data.data();
	param.private_data_len = static_cast<std::uint8_t>(std::min<std::size_t>(private_data.size(), 255));
	param.responder_resources = 0;
	param.initiator_depth = 0;
	param.flow_control = 1;
	param.retry_count = 5;
	param.rnr_retry_count = 6;
	if (rdma_connect(cm_.get(), &param)) {
		outcome_ = {Outcome::Kind::error, 0, {}, std::string("rdma_connect: ") + std::strerror(errno)};
		return false;
	}
	const auto ev = verbs::next_event(channel_.get(), timeout);
	if (!ev) {
		outcome_.kind = Outcome::Kind::timeout;
		return false;
	}
	if (ev->type == RDMA_CM_EVENT_REJECTED) {
		outcome_.kind = Outcome::Kind::rejected;
		outcome_.cm_status = ev->status;
		if (const auto r = wire::decode_reject(ev->private_data))
			outcome_.reject = *r;
		return false;
	}
	if (ev->type != RDMA_CM_EVENT_ESTABLISHED) {
		outcome_.kind = Outcome::Kind::unreachable;
		outcome_.detail = verbs::event_name(ev->type) + " status " + std::to_string(ev->status);
		return false;
	}

	// "Active side" step 3
	const auto ack = wire::decode(ev->private_data);
	std::string bad;
	if (!ack)
		bad = std::string(wire::to_string(ack.error()));
	else if (ack->hdr.type != wire::msg_connack)
		bad = "type " + std::string(wire::type_name(ack->hdr.type));
	else if (ack->hdr.version != wire::version_2)
		bad = "version " + std::to_string(ack->hdr.version);
	else if (!ack->params.queue_depth || ack->params.queue_depth > id_.queue_depth)
		bad = "queue depth " + std::to_string(ack->params.queue_depth);
	else if (!ack->params.max_frags || ack->params.max_frags > wire::max_frags)
		bad = "max frags " + std::to_string(ack->params.max_frags);
	else if (ack->hdr.dstnid != id_.my_nid || ack->hdr.dststamp != id_.my_stamp)
		bad = "addressed to " + wire::nid_to_string(ack->hdr.dstnid) + " stamp " +
		      std::to_string(ack->hdr.dststamp);
	else if (ack->hdr.srcnid != id_.target_nid)
		bad = "from " + wire::nid_to_string(ack->hdr.srcnid);
	if (!bad.empty()) {
		outcome_.kind = Outcome::Kind::bad_connack;
		outcome_.detail = bad;
		rdma_disconnect(cm_.get());
		dead_ = true;
		return false;
	}
	connack_ = *ack;
	q_ = ack->params.queue_depth;
	credits_ = q_;
	peer_stamp_ = ack->hdr.srcstamp;
	outcome_.kind = Outcome::Kind::established;
	return true;
}

bool Conn::post_recv(std::size_t slot)
{
	ibv_sge sge{};
	sge.addr = reinterpret_cast<std::uintptr_t>(buf_.data() + slot * slot_size);
	sge.length = slot_size;
	sge.lkey = mr_->lkey;
	ibv_recv_wr wr{};
	wr.wr_id = recv_flag | slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	return ibv_post_recv(qp_.get(), &wr, &bad) == 0;
}

void Conn::kill(const std::string &why)
{
	if (!dead_)
		why_dead_ = why;
	dead_ = true;
}

bool Conn::progress(Ms wait)
{
	if (!qp_)
		return false;
	ibv_wc wc[16];
	const int n = ibv_poll_cq(cq_.get(), 16, wc);
	for (int i = 0; i < n; i++) {
		if (wc[i].wr_id & recv_flag) {
			const std::size_t slot = wc[i].wr_id & ~recv_flag;
			if (wc[i].status != IBV_WC_SUCCESS) {
				kill(std::string("receive completion: ") + ibv_wc_status_str(wc[i].status));
				continue;
			}
			const wire::ByteView bytes(buf_.data() + slot * slot_size, wc[i].byte_len);
			auto m = wire::decode(bytes);
			if (!post_recv(slot))
				kill("ibv_post_recv");
			if (!m) {
				kill("the target sent a bad message: " + std::string(wire::to_string(m.error())));
				continue;
			}
			wire::Msg msg = *m;
			handle(msg);
			continue;
		}
		if (wc[i].status != IBV_WC_SUCCESS) {
			failed_wrs_.emplace_back(wc[i].wr_id, wc[i].status);
			kill(std::string("send completion: ") + ibv_wc_status_str(wc[i].status));
		} else {
			done_wrs_.push_back(wc[i].wr_id);
		}
	}
	while (const auto ev = verbs::next_event(channel_.get(), 0ms)) {
		if (ev->type == RDMA_CM_EVENT_DISCONNECTED) {
			cm_gone_ = true;
			kill("disconnected by the target");
		}
		else if (ev->type == RDMA_CM_EVENT_DEVICE_REMOVAL)
			kill("device removed");
	}
	if (n == 0 && wait.count() > 0) {
		pollfd pfd{channel_->fd, POLLIN, 0};
		poll(&pfd, 1, static_cast<int>(std::min<long>(wait.count(), 2)));
	}
	return !dead_;
}

void Conn::handle(wire::Msg &m)
{
	credits_ += m.hdr.credits;
	if (takes_credit(m.hdr.type))
		owed_++;
	inbox_.push_back(std::move(m));
}

wire::Msg Conn::make(std::uint8_t type) const
{
	wire::Msg m;
	m.hdr.type = type;
	m.hdr.srcnid = id_.my_nid;
	m.hdr.srcstamp = id_.my_stamp;
	m.hdr.dstnid = id_.target_nid;
	m.hdr.dststamp = peer_stamp_;
	return m;
}

bool Conn::post_send(const std::vector<std::uint8_t> &bytes, std::uint64_t wr_id,
		     std::size_t slot)
{
	const std::size_t nrecv = 2 * std::size_t{id_.queue_depth} + 2;
	std::uint8_t *p = buf_.data() + (nrecv + slot % send_slots) * slot_size;
	const std::size_t len = std::min(bytes.size(), slot_size);
	std::memcpy(p, bytes.data(), len);
	ibv_sge sge{};
	sge.addr = reinterpret_cast<std::uintptr_t>(p);
	sge.length = static_cast<std::uint32_t>(len);
	sge.lkey = mr_->lkey;
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	ibv_send_wr *bad = nullptr;
	if (ibv_post_send(qp_.get(), &wr, &bad)) {
		kill("ibv_post_send");
		return false;
	}
	return true;
}

bool Conn::wait_send(std::uint64_t wr_id, Ms timeout)
{
	const auto end = std::chrono::steady_clock::now() + timeout;
	for (;;) {
		if (std::find(done_wrs_.begin(), done_wrs_.end(), wr_id) != done_wrs_.end())
			return true;
		for (const auto &f : failed_wrs_)
			if (f.first == wr_id)
				return false;
		if (std::chrono::steady_clock::now() > end)
			return false;
		if (!progress(1ms) && std::none_of(done_wrs_.begin(), done_wrs_.end(),
						  [&](std::uint64_t w) { return w == wr_id; }))
			return false;
	}
}

bool Conn::send_raw(const std::vector<std::uint8_t> &bytes, Ms timeout)
{
	if (dead_ || !qp_)
		return false;
	const std::uint64_t wr = next_wr_++;
	return post_send(bytes, wr, wr) && wait_send(wr, timeout);
}

bool Conn::send_burst(const std::vector<std::vector<std::uint8_t>> &msgs, Ms timeout)
{
	if (dead_ || !qp_)
		return false;
	std::vector<std::uint64_t> wrs;
	for (const auto &b : msgs) {
		if (wrs.size() >= send_slots)
			break;
		const std::uint64_t wr = next_wr_++;
		if (!post_send(b, wr, wr))
			return false;
		wrs.push_back(wr);
	}
	bool ok = true;
	for (const auto wr : wrs)
		ok = wait_send(wr, timeout) && ok;
	return ok && wrs.size() == msgs.size();
}

bool Conn::send(wire::Msg m, Ms timeout)
{
	if (dead_ || !qp_)
		return false;
	if (takes_credit(m.hdr.type)) {
		const auto end = std::chrono::steady_clock::now() + timeout;
		while (credits_ <= 0) {
			if (!progress(1ms) || std::chrono::steady_clock::now() > end)
				return false;
		}
		credits_--;
	}
	m.hdr.credits = static_cast<std::uint8_t>(owed_);
	owed_ = 0;
	return send_raw(wire::encode(m), timeout);
}

bool Conn::return_credits()
{
	if (!owed_)
		return true;
	return send(make(wire::msg_noop));
}

std::optional<wire::Msg> Conn::recv(const std::function<bool(const wire::Msg &)> &want,
				    Ms timeout)
{
	const auto end = std::chrono::steady_clock::now() + timeout;
	for (;;) {
		while (!inbox_.empty()) {
			wire::Msg m = std::move(inbox_.front());
			inbox_.pop_front();
			if (want(m))
				return m;
			// requests the target makes of us: we have nothing for them
			if (m.hdr.type == wire::msg_put_req) {
				auto nak = make(wire::msg_put_nak);
				nak.cookie = m.cookie;
				nak.status = enodata;
				send(nak);
			} else if (m.hdr.type == wire::msg_get_req) {
				auto done = make(wire::msg_get_done);
				done.cookie = m.cookie;
				done.status = enodata;
				send(done);
			}
		}
		// the high-water mark of "Credits": half the queue depth
		if (q_ && owed_ >= std::max(1, q_ / 2))
			return_credits();
		if (std::chrono::steady_clock::now() > end)
			return std::nullopt;
		if (!progress(1ms) && inbox_.empty())
			return std::nullopt;
	}
}

std::optional<ibv_wc_status> Conn::rdma_write(std::uint64_t addr, std::uint32_t rkey,
					      std::uint32_t len, Ms timeout)
{
	if (!qp_ || dead_)
		return std::nullopt;
	ibv_sge sge{};
	sge.addr = reinterpret_cast<std::uintptr_t>(buf_.data() + buf_.size() - rdma_size);
	sge.length = std::min<std::uint32_t>(len, rdma_size);
	sge.lkey = mr_->lkey;
	ibv_send_wr wr{};
	wr.wr_id = next_wr_++;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = addr;
	wr.wr.rdma.rkey = rkey;
	ibv_send_wr *bad = nullptr;
	if (ibv_post_send(qp_.get(), &wr, &bad))
		return std::nullopt;
	const auto end = std::chrono::steady_clock::now() + timeout;
	for (;;) {
		if (std::find(done_wrs_.begin(), done_wrs_.end(), wr.wr_id) != done_wrs_.end())
			return IBV_WC_SUCCESS;
		for (const auto &f : failed_wrs_)
			if (f.first == wr.wr_id)
				return f.second;
		if (std::chrono::steady_clock::now() > end)
			return std::nullopt;
		progress(1ms);
	}
}

bool Conn::wait_closed(Ms timeout)
{
	const auto end = std::chrono::steady_clock::now() + timeout;
	while (!dead_ && std::chrono::steady_clock::now() < end)
		progress(1ms);
	return dead_;
}

void Conn::disconnect()
{
	if (!cm_ || outcome_.kind != Outcome::Kind::established)
		return;
	outcome_.kind = Outcome::Kind::error;
	outcome_.detail = "disconnected by us";
	rdma_disconnect(cm_.get());
	// let the CM finish (DISCONNECTED) before the id goes
	const auto end = std::chrono::steady_clock::now() + 2s;
	while (!cm_gone_ && std::chrono::steady_clock::now() < end) {
		const auto ev = verbs::next_event(channel_.get(), 100ms);
		if (ev && ev->type == RDMA_CM_EVENT_DISCONNECTED)
			break;
	}
	dead_ = true;
}

}  // namespace ibpeer
