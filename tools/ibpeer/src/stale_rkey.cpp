// SPDX-License-Identifier: GPL-2.0
// "Writes after the message ended" (issue 15, item 2;
// Documentation/hardening.md, "Sinks live no longer than their message"):
// a sink the target registered for our PUT must not take RDMA writes once
// its message is over - the connection torn down before PUT_DONE, or the
// PUT completed - whatever QP they come from.
#include <thread>

#include "scenarios.hpp"

namespace ibpeer {
namespace {

struct Sink {
	std::uint64_t cookie = 0;	// the target's (for PUT_DONE)
	wire::RdmaDesc rd;
};

// PUT_REQ of @size bytes to @match; the PUT_ACK's sink, or why not.
std::optional<Sink> put_req(Conn &c, const Options &opt, std::uint64_t match, std::uint32_t size,
			    std::string &why, std::optional<wire::Msg> *answer = nullptr)
{
	auto m = c.make(wire::msg_put_req);
	m.lnet = wire::put(m.hdr.srcnid, m.hdr.dstnid, opt.portal, match, size);
	m.cookie = c.next_cookie();
	if (!c.send(m)) {
		why = "PUT_REQ not sent: " + c.why_dead();
		return std::nullopt;
	}
	const auto a = c.recv([&](const wire::Msg &r) {
		return (r.hdr.type == wire::msg_put_ack || r.hdr.type == wire::msg_put_nak) &&
		       r.cookie == m.cookie;
	});
	if (answer)
		*answer = a;
	if (!a) {
		why = c.dead() ? "connection lost: " + c.why_dead() : "no PUT_ACK/PUT_NAK in 10 s";
		return std::nullopt;
	}
	if (a->hdr.type != wire::msg_put_ack) {
		why = "PUT_NAK status " + std::to_string(a->status);
		return std::nullopt;
	}
	return Sink{a->dst_cookie, a->rd};
}

// Writes @size bytes over the sink's fragments; the first failure's
// status, or success.
std::optional<ibv_wc_status> write_sink(Conn &c, const Sink &s, std::uint32_t size)
{
	std::optional<ibv_wc_status> st = IBV_WC_SUCCESS;
	for (const auto &f : s.rd.frags) {
		if (!size)
			break;
		const std::uint32_t n = std::min(size, f.nob);
		st = c.rdma_write(f.addr, s.rd.key, n);
		if (!st || *st != IBV_WC_SUCCESS)
			return st;
		size -= n;
	}
	return st;
}

std::string status_text(const std::optional<ibv_wc_status> &st)
{
	return st ? ibv_wc_status_str(*st) : "no completion";
}

std::string desc_text(const Sink &s)
{
	char buf[96];
	std::snprintf(buf, sizeof(buf), "rkey %#x, %u frags, first %#llx+%u", s.rd.key, s.rd.nfrags,
		      s.rd.frags.empty() ? 0ULL : static_cast<unsigned long long>(s.rd.frags[0].addr),
		      s.rd.frags.empty() ? 0U : s.rd.frags[0].nob);
	return buf;
}

// A stale write must fail: an error completion (the target refuses the
// rkey: remote access error) or, at least, no success.
bool write_refused(const std::optional<ibv_wc_status> &st)
{
	return st && *st != IBV_WC_SUCCESS;
}

}  // namespace

int run_stale_rkey(const Options &opt, lnet::Reporter &rep)
{
	std::string why;

	// 1. a whole PUT by the book: our writer works, and we learn a sink
	// that is over once PUT_DONE went
	auto c1 = connect_retry(opt.id);
	if (!rep.check("connect", c1->established(), c1->outcome().describe()))
		return rep.failed();
	const auto done_sink = put_req(*c1, opt, opt.sink_match, opt.put_size, why);
	if (!rep.check("PUT_REQ of " + std::to_string(opt.put_size) + " B answered by PUT_ACK",
		       done_sink.has_value(), why))
		return rep.failed();
	rep.note("sink of the complete PUT: " + desc_text(*done_sink));
	const auto st = write_sink(*c1, *done_sink, opt.put_size);
	rep.check("RDMA write into the live sink succeeds", st && *st == IBV_WC_SUCCESS,
		  status_text(st));
	auto done = c1->make(wire::msg_put_done);
	done.cookie = done_sink->cookie;
	done.status = static_cast<std::int32_t>(opt.put_size);
	rep.check("PUT_DONE sent", c1->send(done), c1->why_dead());
	why = ping_over(*c1);
	rep.check("ping after the complete PUT", why.empty(), why);

	// 2. a PUT_ACK, then the connection torn down without PUT_DONE
	const auto torn_sink = put_req(*c1, opt, opt.sink_match, opt.put_size, why);
	if (!rep.check("second PUT_REQ answered by PUT_ACK", torn_sink.has_value(), why))
		return rep.failed();
	rep.note("sink of the PUT torn down: " + desc_text(*torn_sink));
	c1.reset();	// rdma_disconnect, QP destroyed
	// let the target see the disconnect and fail the message
	std::this_thread::sleep_for(2s);

	auto c2 = connect_retry(opt.id);
	if (!rep.check("reconnect", c2->established(), c2->outcome().describe()))
		return rep.failed();
	const auto st2 = write_sink(*c2, *torn_sink, opt.put_size);
	rep.check("RDMA write to the sink of a PUT torn down before PUT_DONE fails (new QP)",
		  write_refused(st2), "completion: " + status_text(st2));
	rep.note("write after teardown: " + status_text(st2));
	c2.reset();

	// 3. a PUT_REQ that the target NAKs (no MD matches), then a write
	// with the rkey of the completed PUT's PUT_ACK
	auto c3 = connect_retry(opt.id);
	if (!rep.check("reconnect for the NAK", c3->established(), c3->outcome().describe()))
		return rep.failed();
	std::optional<wire::Msg> answer;
	const auto nak_sink = put_req(*c3, opt, opt.no_match, opt.put_size, why, &answer);
	rep.check("PUT_REQ with no matching MD is NAKed",
		  !nak_sink && answer && answer->hdr.type == wire::msg_put_nak,
		  nak_sink ? "PUT_ACK for no MD: " + desc_text(*nak_sink) : why);
	if (answer && answer->hdr.type == wire::msg_put_nak)
		rep.note("PUT_NAK status " + std::to_string(answer->status));
	const auto st3 = write_sink(*c3, *done_sink, opt.put_size);
	rep.check("RDMA write with the rkey of the completed PUT's PUT_ACK fails after the NAK",
		  write_refused(st3), "completion: " + status_text(st3));
	c3.reset();

	// 4. and once more with the torn-down sink's key, now that the
	// target had plenty of time
	std::this_thread::sleep_for(1s);
	auto c4 = connect_retry(opt.id);
	if (rep.check("reconnect for a late write", c4->established(), c4->outcome().describe())) {
		const auto st4 = write_sink(*c4, *torn_sink, opt.put_size);
		rep.check("late RDMA write to the torn-down sink fails", write_refused(st4),
			  "completion: " + status_text(st4));
	}
	c4.reset();

	// the target is still there for a well-behaved peer
	auto c5 = connect_retry(opt.id);
	why = c5->established() ? ping_over(*c5) : c5->outcome().describe();
	rep.check("target responsive after the stale writes", why.empty(), why);
	return rep.failed();
}

}  // namespace ibpeer
