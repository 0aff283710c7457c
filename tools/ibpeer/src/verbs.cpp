// SPDX-License-Identifier: GPL-2.0
#include "verbs.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>

namespace ibpeer::verbs {

void fail(const std::string &what)
{
	throw std::runtime_error(what + ": " + std::strerror(errno));
}

sockaddr_in inet(std::uint32_t ip, std::uint16_t port)
{
	sockaddr_in sa{};
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(ip);
	return sa;
}

Channel make_channel()
{
	Channel ch(rdma_create_event_channel());
	if (!ch)
		fail("rdma_create_event_channel (is rdma_ucm loaded?)");
	const int flags = fcntl(ch->fd, F_GETFL);
	if (flags < 0 || fcntl(ch->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		fail("event channel O_NONBLOCK");
	return ch;
}

CmId make_id(rdma_event_channel *ch, void *context)
{
	rdma_cm_id *id = nullptr;
	if (rdma_create_id(ch, &id, context, RDMA_PS_TCP))
		fail("rdma_create_id");
	return CmId(id);
}

Pd make_pd(ibv_context *ctx)
{
	Pd pd(ibv_alloc_pd(ctx));
	if (!pd)
		fail("ibv_alloc_pd");
	return pd;
}

Cq make_cq(ibv_context *ctx, int depth)
{
	Cq cq(ibv_create_cq(ctx, depth, nullptr, nullptr, 0));
	if (!cq)
		fail("ibv_create_cq");
	return cq;
}

Mr make_mr(ibv_pd *pd, void *addr, std::size_t len, int access)
{
	Mr mr(ibv_reg_mr(pd, addr, len, access));
	if (!mr)
		fail("ibv_reg_mr");
	return mr;
}

Qp make_qp(rdma_cm_id *id, ibv_pd *pd, ibv_cq *cq, std::uint32_t send_wr,
	   std::uint32_t recv_wr)
{
	ibv_qp_init_attr attr{};
	attr.send_cq = cq;
	attr.recv_cq = cq;
	attr.qp_type = IBV_QPT_RC;
	attr.cap.max_send_wr = send_wr;
	attr.cap.max_recv_wr = recv_wr;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_all = 0;
	if (rdma_create_qp(id, pd, &attr))
		fail("rdma_create_qp");
	return Qp(id->qp, QpDeleter{id});
}

std::optional<Event> next_event(rdma_event_channel *ch, std::chrono::milliseconds timeout)
{
	const auto end = std::chrono::steady_clock::now() + timeout;

	for (;;) {
		rdma_cm_event *ev = nullptr;
		if (rdma_get_cm_event(ch, &ev) == 0) {
			Event out;
			out.type = ev->event;
			out.status = ev->status;
			out.id = ev->id;
			// a listener's CONNECT_REQUEST carries a new id; we never listen
			const auto &conn = ev->param.conn;
			if (conn.private_data && conn.private_data_len) {
				const auto *p = static_cast<const std::uint8_t *>(conn.private_data);
				out.private_data.assign(p, p + conn.private_data_len);
			}
			rdma_ack_cm_event(ev);
			return out;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			fail("rdma_get_cm_event");
		const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
			end - std::chrono::steady_clock::now());
		if (left.count() <= 0)
			return std::nullopt;
		pollfd pfd{ch->fd, POLLIN, 0};
		if (poll(&pfd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR)
			fail("poll");
	}
}

std::string event_name(rdma_cm_event_type type)
{
	return rdma_event_str(type);
}

}  // namespace ibpeer::verbs
