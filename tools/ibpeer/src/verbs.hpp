// SPDX-License-Identifier: GPL-2.0
//
// Owners of librdmacm / libibverbs objects (event channels, rdma_cm ids,
// protection domains, completion queues, queue pairs, memory regions) and
// a CM event copied out of the channel, so that every early return and
// exception releases what was made, in the right order.
#ifndef LNET_IBPEER_VERBS_HPP
#define LNET_IBPEER_VERBS_HPP

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>

namespace ibpeer::verbs {

struct ChannelDeleter {
	void operator()(rdma_event_channel *ch) const noexcept { rdma_destroy_event_channel(ch); }
};
using Channel = std::unique_ptr<rdma_event_channel, ChannelDeleter>;

struct IdDeleter {
	void operator()(rdma_cm_id *id) const noexcept { rdma_destroy_id(id); }
};
using CmId = std::unique_ptr<rdma_cm_id, IdDeleter>;

struct PdDeleter {
	void operator()(ibv_pd *pd) const noexcept { ibv_dealloc_pd(pd); }
};
using Pd = std::unique_ptr<ibv_pd, PdDeleter>;

struct CqDeleter {
	void operator()(ibv_cq *cq) const noexcept { ibv_destroy_cq(cq); }
};
using Cq = std::unique_ptr<ibv_cq, CqDeleter>;

struct MrDeleter {
	void operator()(ibv_mr *mr) const noexcept { ibv_dereg_mr(mr); }
};
using Mr = std::unique_ptr<ibv_mr, MrDeleter>;

// A QP made by rdma_create_qp() belongs to its id: rdma_destroy_qp(id).
struct QpDeleter {
	rdma_cm_id *id = nullptr;
	void operator()(ibv_qp *) const noexcept { rdma_destroy_qp(id); }
};
using Qp = std::unique_ptr<ibv_qp, QpDeleter>;

// An IPv4 socket address from a host-order address and port.
sockaddr_in inet(std::uint32_t ip, std::uint16_t port);

// A new channel whose fd does not block (events are waited for with poll).
Channel make_channel();
CmId make_id(rdma_event_channel *ch, void *context = nullptr);
Pd make_pd(ibv_context *ctx);
Cq make_cq(ibv_context *ctx, int depth);
Mr make_mr(ibv_pd *pd, void *addr, std::size_t len, int access);
Qp make_qp(rdma_cm_id *id, ibv_pd *pd, ibv_cq *cq, std::uint32_t send_wr,
	   std::uint32_t recv_wr);

// What we keep of a CM event (the event itself is acked at once).
struct Event {
	rdma_cm_event_type type = RDMA_CM_EVENT_ADDR_ERROR;
	int status = 0;
	rdma_cm_id *id = nullptr;
	std::vector<std::uint8_t> private_data;
};

// The next event of @ch, or nullopt after @timeout.
std::optional<Event> next_event(rdma_event_channel *ch, std::chrono::milliseconds timeout);

// "RDMA_CM_EVENT_REJECTED" and the like.
std::string event_name(rdma_cm_event_type type);

// Throws std::runtime_error("WHAT: strerror(errno)").
[[noreturn]] void fail(const std::string &what);

}  // namespace ibpeer::verbs

#endif  // LNET_IBPEER_VERBS_HPP
