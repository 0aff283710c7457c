// SPDX-License-Identifier: GPL-2.0
#include "session.hpp"

#include <cstdio>
#include <vector>

#include <poll.h>

namespace sockpeer {

using namespace wire;

std::string Msg::describe() const
{
	char buf[160];

	switch (kind) {
	case Kind::noop:
		std::snprintf(buf, sizeof(buf), "NOOP(c0=%#llx c1=%#llx)",
			      static_cast<unsigned long long>(c0),
			      static_cast<unsigned long long>(c1));
		break;
	case Kind::lnet:
		std::snprintf(buf, sizeof(buf), "LNET(c0=%#llx c1=%#llx type=%u len=%u)",
			      static_cast<unsigned long long>(c0),
			      static_cast<unsigned long long>(c1), lnet.type,
			      lnet.payload_length);
		break;
	case Kind::bad:
		std::snprintf(buf, sizeof(buf), "bad socklnd type %#x", ksock_type);
		break;
	}
	return buf;
}

std::optional<Msg> read_msg(const Socket &s, Clock::duration timeout, Order order)
{
	const Bytes h = s.recv_exact(ksock_header_size, timeout);
	const auto kh = decode_ksock_header(h, order);
	if (!kh)
		return std::nullopt;
	Msg m;
	m.ksock_type = kh->type;
	m.c0 = kh->cookie0;
	m.c1 = kh->cookie1;
	if (kh->type == msg_noop) {
		m.kind = Msg::Kind::noop;
		return m;
	}
	if (kh->type != msg_lnet)
		return m;			// Kind::bad
	const auto lh = decode_lnet_header(s.recv_exact(lnet_header_size, timeout));
	if (!lh)
		return std::nullopt;
	m.kind = Msg::Kind::lnet;
	m.lnet = *lh;
	if (lh->payload_length) {
		m.payload = s.recv_exact(lh->payload_length, timeout);
		if (m.payload.size() < lh->payload_length)
			return std::nullopt;
	}
	return m;
}

Bytes handshake_bytes(std::uint64_t target_nid, const Hello &hello)
{
	Bytes out = encode(ConnRequest{hello.order, acceptor_magic, acceptor_version, target_nid});

	append(out, encode(hello));
	return out;
}

std::string describe(const std::optional<Hello> &h)
{
	if (!h)
		return "no hello";
	char buf[200];
	std::snprintf(buf, sizeof(buf), "v%u %s->%s pid %u/%u inc %#llx/%#llx type %d nips %u%s",
		      h->version, nid_to_string(h->src_nid).c_str(),
		      nid_to_string(h->dst_nid).c_str(), h->src_pid, h->dst_pid,
		      static_cast<unsigned long long>(h->src_incarnation),
		      static_cast<unsigned long long>(h->dst_incarnation),
		      static_cast<int>(h->type), h->nips,
		      h->order == Order::big ? " (big-endian)" : "");
	return buf;
}

Bytes pattern(std::size_t n, unsigned int seed)
{
	Bytes out(n);
	for (std::size_t i = 0; i < n; i++)
		out[i] = static_cast<std::uint8_t>(i * 7 + seed + (i >> 8));
	return out;
}

Session::Session(const Params &p) : p_(p), target_(tcp_nid(p.target_ip))
{
	for (const auto type : {conn_control, conn_bulk_in, conn_bulk_out}) {
		auto [s, r] = open(type);
		socks_[type] = std::move(s);
		replies_[type] = std::move(r);
	}
}

std::pair<Socket, std::optional<Hello>>
Session::open(std::uint32_t type, std::optional<std::uint64_t> inc,
	      const std::vector<std::uint16_t> &avoid) const
{
	ConnectOptions opt;
	opt.avoid = avoid;
	Socket s = connect_to(p_.target_ip, opt);
	Hello h;
	h.order = p_.order;
	h.version = p_.version;
	h.src_nid = p_.me;
	h.dst_nid = target_;
	h.src_incarnation = inc.value_or(p_.incarnation);
	h.type = type;
	s.send_all(handshake_bytes(target_, h));
	const auto r = decode_hello(s.recv_exact(hello_size));
	std::optional<Hello> reply;
	if (r)
		reply = *r;
	return {std::move(s), std::move(reply)};
}

bool Session::send(std::uint32_t type, ByteView data)
{
	return socks_.at(type).send_all(data);
}

std::optional<Msg> Session::wait(const std::function<bool(const Msg &)> &pred,
				 Clock::duration timeout)
{
	for (auto it = backlog_.begin(); it != backlog_.end(); ++it) {
		if (pred(*it)) {
			Msg m = std::move(*it);
			backlog_.erase(it);
			return m;
		}
	}
	const Deadline deadline(timeout);
	while (!deadline.passed()) {
		std::vector<pollfd> fds;
		std::vector<std::uint32_t> types;
		for (const auto &[type, s] : socks_) {
			if (closed_.count(type))
				continue;
			fds.push_back({s.fd(), POLLIN, 0});
			types.push_back(type);
		}
		if (fds.empty())
			return std::nullopt;
		if (::poll(fds.data(), fds.size(), deadline.poll_ms()) <= 0)
			continue;
		for (std::size_t i = 0; i < fds.size(); i++) {
			if (!fds[i].revents)
				continue;
			// the target writes in its own byte order whatever ours is
			auto m = read_msg(socks_.at(types[i]));
			if (!m) {
				closed_.insert(types[i]);
				continue;
			}
			if (m->kind == Msg::Kind::noop && m->c0 == 0 && m->c1 == keepalive_cookie)
				continue;
			if (pred(*m))
				return m;
			backlog_.push_back(std::move(*m));
		}
	}
	return std::nullopt;
}

bool Session::all_closed(Clock::duration timeout)
{
	const Deadline deadline(timeout);

	for (const auto &[type, s] : socks_) {
		if (closed_.count(type))
			continue;
		const auto left = std::max(deadline.at() - Clock::now(),
					   Clock::duration(std::chrono::milliseconds(100)));
		if (!s.eof(left))
			return false;
	}
	return true;
}

const std::optional<Hello> &Session::reply(std::uint32_t type) const
{
	static const std::optional<Hello> none;
	const auto it = replies_.find(type);
	return it == replies_.end() ? none : it->second;
}

bool Session::all_replied() const
{
	for (const auto &[type, r] : replies_)
		if (!r)
			return false;
	return true;
}

Socket Session::take(std::uint32_t type)
{
	Socket s = std::move(socks_.at(type));
	socks_.erase(type);
	closed_.erase(type);
	return s;
}

void Session::put(std::uint32_t type, Socket s)
{
	socks_[type] = std::move(s);
	closed_.erase(type);
}

std::optional<std::string> Session::ping(std::uint32_t type, Wmd wmd)
{
	LnetHeader lh;
	lh.dest_nid = target_;
	lh.src_nid = p_.me;
	lh.type = lnet_get;
	lh.body = encode_body(GetBody{wmd, ping_match_bits, 0, 0, 272});
	send(type, lnet_message(KsockHeader{p_.order}, lh));

	const auto m = wait([](const Msg &m) { return m.is_lnet(lnet_reply); });
	if (!m)
		return "no REPLY";
	const auto rw = decode_reply(m->lnet.body).dst_wmd;
	char buf[200];
	if (rw != wmd) {
		std::snprintf(buf, sizeof(buf), "REPLY handle %#llx:%#llx",
			      static_cast<unsigned long long>(rw.interface_cookie),
			      static_cast<unsigned long long>(rw.object_cookie));
		return buf;
	}
	if (m->lnet.dest_nid != p_.me || m->lnet.src_nid != target_)
		return "REPLY for " + nid_to_string(m->lnet.dest_nid) + " from " +
		       nid_to_string(m->lnet.src_nid);
	if (m->payload.size() < 48)
		return "ping info of " + std::to_string(m->payload.size()) + " bytes";
	const auto info = decode_ping_info(m->payload);
	if (!info || info->order != Order::little || !(info->features & ping_feat_ni_status) ||
	    info->pid != lnet_pid || info->nnis < 2) {
		std::snprintf(buf, sizeof(buf), "ping info %s features %#x pid %u nnis %u",
			      info ? "" : "with a bad magic", info ? info->features : 0,
			      info ? info->pid : 0, info ? info->nnis : 0);
		return buf;
	}
	bool listed = false;
	for (std::size_t i = 1; i < info->entries.size(); i++)
		listed |= info->entries[i].nid == target_ && info->entries[i].status == ni_status_up;
	if (info->entries[0].nid != lo_nid || !listed) {
		std::string s = "ping entries";
		for (const auto &e : info->entries) {
			std::snprintf(buf, sizeof(buf), " %s/%#x", nid_to_string(e.nid).c_str(),
				      e.status);
			s += buf;
		}
		return s;
	}
	return std::nullopt;
}

}  // namespace sockpeer
