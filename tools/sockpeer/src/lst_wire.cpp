// SPDX-License-Identifier: GPL-2.0
#include "lst_wire.hpp"

#include <algorithm>

namespace sockpeer::lst {

using namespace wire;

namespace {

// Each of @v in @o, by its own size.
template <typename... T>
void put(Bytes &out, Order o, T... v)
{
	const auto one = [&out, o](auto x) {
		if constexpr (sizeof(x) == 8)
			put64(out, static_cast<std::uint64_t>(x), o);
		else if constexpr (sizeof(x) == 4)
			put32(out, x, o);
		else if constexpr (sizeof(x) == 2)
			put16(out, x, o);
		else
			out.push_back(x);
	};
	(one(v), ...);
}

Sid get_sid(ByteView in, std::size_t off, Order o)
{
	return {get64(in, off, o), static_cast<std::int64_t>(get64(in, off + 8, o))};
}

Bytes message(Header h, std::uint32_t type, const Bytes &body)
{
	h.type = type;
	return encode_raw(h, body);
}

// What every framework request but TEST starts with.
Bytes head(const Request &r, Order o)
{
	Bytes b;

	put(b, o, r.rpy_id, r.sid.nid, r.sid.stamp);
	return b;
}

TestParam param(const Bytes &b)
{
	TestParam p{};

	std::copy(b.begin(), b.end(), p.begin());
	return p;
}

}  // namespace

TestParam brw_param(std::uint16_t opcode, std::uint16_t flags, std::uint32_t len,
		    std::uint32_t offset, Order order)
{
	Bytes b;

	put(b, order, opcode, flags, len, offset);
	return param(b);
}

TestParam ping_param(std::uint32_t size, std::uint32_t flags, Order order)
{
	Bytes b;

	put(b, order, size, flags);
	return param(b);
}

Bytes encode_raw(const Header &h, ByteView body)
{
	Bytes out;

	put(out, h.order, h.magic, h.version, h.type, 0U, 0U, h.feats);
	append(out, body.first(std::min(body.size(), msg_size - header_size)));
	out.resize(msg_size, 0);
	return out;
}

Bytes encode(const MksnReq &r, Header h)
{
	Bytes b = head(r, h.order);
	Bytes name(name_len, 0);

	put(b, h.order, r.force);
	std::copy_n(r.name.begin(), std::min(r.name.size(), name_len), name.begin());
	append(b, name);
	return message(h, mksn_request, b);
}

Bytes encode(const RmsnReq &r, Header h)
{
	return message(h, rmsn_request, head(r, h.order));
}

Bytes encode(const DebugReq &r, Header h)
{
	Bytes b = head(r, h.order);

	put(b, h.order, r.flags);
	return message(h, debug_request, b);
}

Bytes encode(const BatchReq &r, Header h)
{
	Bytes b = head(r, h.order);

	put(b, h.order, r.bid, r.opcode, r.test_index, r.arg);
	return message(h, batch_request, b);
}

Bytes encode(const TestReq &r, Header h)
{
	Bytes b;

	put(b, h.order, r.rpy_id, r.bulk_id, r.sid.nid, r.sid.stamp, r.bid, r.service, r.loop,
	    r.concur, r.is_client, r.stop_onerr, r.ndest);
	append(b, r.param);
	return message(h, test_request, b);
}

Decoded<Reply> decode_reply(ByteView in)
{
	if (in.size() < 4)
		return Error::truncated;
	Reply r;
	Order o = Order::little;
	if (get32(in, 0, Order::big) == msg_magic)
		o = Order::big;
	else if (get32(in, 0) != msg_magic)
		return Error::bad_magic;
	if (in.size() != msg_size)
		return Error::truncated;
	r.header = {o, msg_magic, get32(in, 4, o), get32(in, 8, o), get32(in, 20, o)};
	const ByteView body = in.subspan(header_size);
	r.status = get32(body, 0, o);
	r.sid = get_sid(body, 4, o);
	r.timeout = get32(body, 20, o);
	const std::size_t name_at = r.header.type == debug_request + 1 ? 28 : 24;
	if (r.header.type == mksn_request + 1 || r.header.type == debug_request + 1) {
		const auto *p = reinterpret_cast<const char *>(body.data() + name_at);
		r.name.assign(p, std::find(p, p + name_len, '\0'));
	} else {
		r.timeout = 0;
	}
	return r;
}

}  // namespace sockpeer::lst
