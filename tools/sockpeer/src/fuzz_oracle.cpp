// SPDX-License-Identifier: GPL-2.0
//
// What the target may send back for a fuzz case, and the check of what it
// did send. The model is the protocol's (Documentation/wire/socklnd.md: "The
// acceptor", "Hello", "Handshake", "Framing") plus the choices
// Documentation/socklnd.md states for our
// node (a destination NID that is not ours is refused; V1, V4 and unknown
// versions get a V3 hello with type NONE).
#include <cstdio>

#include "fuzz.hpp"

namespace sockpeer::fuzz {
namespace {

using namespace wire;

constexpr std::uint32_t bswap32(std::uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xFF00) | ((v << 8) & 0xFF0000) | (v << 24);
}

Prediction expect(Expect e, std::string why)
{
	Prediction p;
	p.expect = e;
	p.why = std::move(why);
	return p;
}

std::string hexnum(std::uint64_t v)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "%#llx", static_cast<unsigned long long>(v));
	return buf;
}

}  // namespace

std::string_view to_string(Expect e)
{
	switch (e) {
	case Expect::nothing:
		return "nothing";
	case Expect::version_answer:
		return "version answer";
	case Expect::hello:
		return "hello";
	case Expect::unknown:
		return "anything well-formed";
	}
	return "?";
}

std::string_view to_string(Outcome o)
{
	switch (o) {
	case Outcome::closed:
		return "closed";
	case Outcome::reset:
		return "reset";
	case Outcome::quiet:
		return "quiet";
	case Outcome::deadline:
		return "deadline";
	case Outcome::no_connect:
		return "no connection";
	}
	return "?";
}

Prediction predict(const Context &ctx, const Case &c)
{
	const ByteView b = c.bytes;

	if (c.insecure)
		return expect(Expect::nothing, "a connection from an unprivileged port");
	if (b.size() < 4)
		return expect(Expect::nothing, "a request cut short");
	const std::uint32_t magic = get32(b, 0);
	if (magic == proto_magic || magic == bswap32(proto_magic))
		return expect(Expect::version_answer, "a hello without a request");
	Order order = Order::little;
	if (magic == bswap32(acceptor_magic))
		order = Order::big;
	else if (magic != acceptor_magic)
		return expect(Expect::nothing, "acceptor magic " + hexnum(magic));
	if (b.size() < 8)
		return expect(Expect::nothing, "a request cut short");
	const std::uint32_t version = get32(b, 4, order);
	std::size_t hello_at = 0;
	bool stray = false;
	if (version == acceptor_version) {
		if (b.size() < conn_request_size)
			return expect(Expect::nothing, "a request cut short");
		const std::uint64_t target = get64(b, 8, order);
		if (target != ctx.target_nid())
			return expect(Expect::nothing, "a request for " + nid_to_string(target));
		hello_at = conn_request_size;
	} else if (version == acceptor_version_16) {
		if (b.size() < conn_request_16_size)
			return expect(Expect::nothing, "a request cut short");
		Nid16 large;
		std::copy(b.begin() + 8, b.begin() + 28, large.begin());
		const auto nid = nid16_to_nid4(large);
		if (!nid)
			return expect(Expect::nothing, "a request for a large NID");
		if (*nid != ctx.target_nid())
			return expect(Expect::nothing, "a request for " + nid_to_string(*nid));
		for (std::size_t i = 8; i < 20; i++)
			stray |= large[i] != 0;
		hello_at = conn_request_16_size;
	} else {
		return expect(Expect::version_answer, "request version " + hexnum(version));
	}

	const ByteView rest = b.subspan(hello_at);
	const auto head = decode_hello_head(rest);
	if (!head)
		return expect(Expect::nothing, "a hello (" + std::string(to_string(head.error())) + ")");
	Prediction p;
	p.expect = stray ? Expect::unknown : Expect::hello;
	if (head->version != 2 && head->version != 3) {
		p.why = "a hello of version " + hexnum(head->version);
		p.must_be_none = true;
		return p;
	}
	const auto h = decode_hello(rest);
	if (!h)
		return expect(Expect::nothing, "a hello (" + std::string(to_string(h.error())) + ")");
	if (h->src_nid == nid_any)
		return expect(Expect::nothing, "a hello from NID ANY");
	if (h->dst_nid != ctx.target_nid())
		return expect(Expect::nothing, "a hello for " + nid_to_string(h->dst_nid));
	if (inverse_type(h->type) == conn_none)
		return expect(Expect::nothing, "a hello of type " + hexnum(h->type));
	p.why = "a good hello";
	p.version = h->version;
	p.type = h->type;
	p.src_nid = h->src_nid;
	p.dst_pid = h->dst_pid;
	p.dst_incarnation = h->dst_incarnation;
	return p;
}

Oracle::Oracle(const Context &ctx, Prediction p) : target_nid_(ctx.target_nid()), p_(std::move(p)) {}

void Oracle::fail(std::string why)
{
	if (!anomaly_)
		anomaly_ = std::move(why);
	stage_ = Stage::done;
}

void Oracle::feed(ByteView data)
{
	received_ += data.size();
	while (!data.empty() && stage_ != Stage::done) {
		if (stage_ == Stage::silent) {
			fail("bytes after " + silent_after_);
			return;
		}
		if (skip_) {
			const std::size_t n = std::min(skip_, data.size());
			skip_ -= n;
			data = data.subspan(n);
			continue;
		}
		pending_.push_back(data[0]);
		data = data.subspan(1);
		step();
	}
}

// pending_ grew by one byte: act once a structure is complete.
void Oracle::step()
{
	const bool answer_ok = p_.expect == Expect::version_answer || p_.expect == Expect::unknown;
	const bool hello_ok = p_.expect == Expect::hello || p_.expect == Expect::unknown;

	switch (stage_) {
	case Stage::start:
		if (p_.expect == Expect::nothing)
			return fail("the target sent bytes (" + hex(pending_) + "...) for " + p_.why);
		if (pending_.size() < 4)
			return;
		if (get32(pending_, 0) == acceptor_magic) {
			if (!answer_ok)
				return fail("a version answer to " + p_.why);
			stage_ = Stage::answer;
		} else if (get32(pending_, 0) == proto_magic) {
			if (!hello_ok)
				return fail("a hello for " + p_.why);
			stage_ = Stage::hello;
		} else {
			return fail("the target sent " + hex(pending_) + " for " + p_.why);
		}
		return;
	case Stage::answer:
		if (pending_.size() < conn_request_size)
			return;
		if (pending_ != version_answer())
			return fail("a version answer of " + hex(pending_));
		pending_.clear();
		stage_ = Stage::silent;
		silent_after_ = "the version answer";
		return;
	case Stage::hello: {
		if (pending_.size() < hello_size)
			return;
		const auto h = decode_hello(pending_);
		if (!h)
			return fail("a bad hello (" + std::string(to_string(h.error())) + "): " + hex(pending_));
		const std::string bad = "a hello " + hex(pending_, hello_size) + " for " + p_.why;
		if (h->order != Order::little || h->src_nid != target_nid_ || h->src_pid != lnet_pid ||
		    h->nips != 0 || !h->src_incarnation)
			return fail(bad);
		if (p_.expect == Expect::hello) {
			const std::uint32_t version = p_.must_be_none ? 3 : p_.version;
			if (h->version != version)
				return fail(bad + ": not version " + std::to_string(version));
			if (p_.must_be_none && h->type != conn_none)
				return fail(bad + ": not type NONE");
			if (h->type != conn_none && h->type != inverse_type(p_.type))
				return fail(bad + ": type neither NONE nor " +
					    std::to_string(inverse_type(p_.type)));
			if (h->type != conn_none &&
			    (h->dst_nid != p_.src_nid || h->dst_pid != p_.dst_pid ||
			     h->dst_incarnation != p_.dst_incarnation))
				return fail(bad + ": destination fields not ours");
		} else if ((h->version != 2 && h->version != 3) ||
			   (h->type != conn_none && inverse_type(h->type) == conn_none)) {
			return fail(bad);
		}
		pending_.clear();
		stage_ = h->type == conn_none ? Stage::silent : Stage::frames;
		silent_after_ = "a hello of type NONE";
		return;
	}
	case Stage::frames: {
		if (pending_.size() < ksock_header_size)
			return;
		const auto kh = decode_ksock_header(pending_);
		if (kh->csum || (kh->type != msg_noop && kh->type != msg_lnet))
			return fail("a bad socklnd header " + hex(pending_, ksock_header_size));
		if (kh->type == msg_noop) {
			pending_.clear();
			return;
		}
		if (pending_.size() < ksock_header_size + lnet_header_size)
			return;
		const auto lh = decode_lnet_header(ByteView(pending_).subspan(ksock_header_size));
		const std::string what = "an LNet header " + hex(ByteView(pending_).subspan(ksock_header_size), 32);
		if (lh->type != lnet_ack && lh->type != lnet_reply)
			return fail(what + ": neither ACK nor REPLY");
		if (lh->payload_length > lnet_mtu || (lh->type == lnet_ack && lh->payload_length))
			return fail(what + ": payload length");
		if (lh->src_nid != target_nid_ || lh->src_pid != lnet_pid)
			return fail(what + ": not from the target");
		skip_ = lh->payload_length;
		pending_.clear();
		return;
	}
	case Stage::silent:
	case Stage::done:
		return;
	}
}

void Oracle::finish(Outcome o, bool nid_shared)
{
	if (stage_ == Stage::start && !pending_.empty() && o != Outcome::reset)
		return fail("the target sent only " + hex(pending_) + " for " + p_.why);
	// Only a clean close (FIN) comes after everything the target wrote: a
	// socket closed with bytes of ours unread sends an RST instead, which
	// drops what was still queued, an answer too. And the target may close
	// in the middle of a message of its own: an error on what we sent ends
	// its sends too.
	if (stage_ == Stage::done || o != Outcome::closed)
		return;
	if (p_.expect == Expect::version_answer && stage_ != Stage::silent)
		fail("closed without a whole version answer to " + p_.why);
	else if (p_.expect == Expect::hello && (stage_ == Stage::start || stage_ == Stage::hello) &&
		 !nid_shared)
		fail("closed without a whole hello for " + p_.why);
	stage_ = Stage::done;
}

}  // namespace sockpeer::fuzz
