// SPDX-License-Identifier: GPL-2.0
//
// The lnet_selftest RPC messages (Documentation/wire/selftest.md): the
// 160-byte message with its 24-byte header, the framework request bodies a
// console sends and the framework replies a test node answers with. No I/O.
#ifndef LNET_SOCKPEER_LST_WIRE_HPP
#define LNET_SOCKPEER_LST_WIRE_HPP

#include <array>
#include <cstdint>
#include <string>

#include "wire.hpp"

namespace sockpeer::lst {

using wire::Bytes;
using wire::ByteView;
using wire::Order;

inline constexpr std::uint32_t msg_magic = 0xEEB0F00D;
inline constexpr std::uint32_t msg_version = 1;
inline constexpr std::size_t msg_size = 160;
inline constexpr std::size_t header_size = 24;
inline constexpr std::size_t name_len = 32;
inline constexpr std::uint32_t feat_bulk_len = 1;

inline constexpr std::uint32_t request_portal = 50;
inline constexpr std::uint32_t framework_portal = 51;
inline constexpr std::uint32_t rdma_portal = 52;

// service ids: the match bits of a request
inline constexpr std::uint32_t svc_debug = 0;
inline constexpr std::uint32_t svc_make_session = 1;
inline constexpr std::uint32_t svc_remove_session = 2;
inline constexpr std::uint32_t svc_batch = 3;
inline constexpr std::uint32_t svc_test = 4;
inline constexpr std::uint32_t svc_brw = 11;
inline constexpr std::uint32_t svc_ping = 12;

// request types (a reply's is one more)
inline constexpr std::uint32_t mksn_request = 0;
inline constexpr std::uint32_t rmsn_request = 2;
inline constexpr std::uint32_t batch_request = 4;
inline constexpr std::uint32_t test_request = 8;
inline constexpr std::uint32_t debug_request = 10;

inline constexpr std::uint32_t batch_run = 1;
inline constexpr std::uint32_t batch_stop = 2;
inline constexpr std::uint32_t batch_query = 3;

inline constexpr std::uint16_t brw_read = 1;
inline constexpr std::uint16_t brw_write = 2;
inline constexpr std::uint16_t brw_check_none = 1;

// destinations per page of the list, and the wire's limits on a TEST
inline constexpr std::uint32_t max_ndest = 256 * 341;
inline constexpr std::uint32_t max_concur = 1024;

// reply statuses (positive Linux errno values)
inline constexpr std::uint32_t st_ok = 0;
inline constexpr std::uint32_t st_enoent = 2;
inline constexpr std::uint32_t st_esrch = 3;
inline constexpr std::uint32_t st_e2big = 7;
inline constexpr std::uint32_t st_ebusy = 16;
inline constexpr std::uint32_t st_einval = 22;
inline constexpr std::uint32_t st_eproto = 71;

struct Sid {
	std::uint64_t nid = wire::nid_any;
	std::int64_t stamp = -1;
	bool operator==(const Sid &) const = default;
};

struct Header {
	Order order = Order::little;
	std::uint32_t magic = msg_magic;
	std::uint32_t version = msg_version;
	std::uint32_t type = 0;
	std::uint32_t feats = feat_bulk_len;
	bool operator==(const Header &) const = default;
};

// What every framework request but TEST starts with.
struct Request {
	std::uint64_t rpy_id = 0;
	Sid sid;
};

struct MksnReq : Request {
	std::uint32_t force = 0;
	std::string name;		// cut to 32 bytes, NUL-padded
};

struct RmsnReq : Request {};

struct DebugReq : Request {
	std::uint32_t flags = 0;
};

struct BatchReq : Request {
	std::uint64_t bid = 0;
	std::uint32_t opcode = batch_query;
	std::uint32_t test_index = 0;
	std::uint32_t arg = 0;
};

using TestParam = std::array<std::uint8_t, 12>;

struct TestReq {
	std::uint64_t rpy_id = 0;
	std::uint64_t bulk_id = 0;
	Sid sid;
	std::uint64_t bid = 0;
	std::uint32_t service = svc_ping;
	std::uint32_t loop = 1;
	std::uint32_t concur = 1;
	std::uint8_t is_client = 0;
	std::uint8_t stop_onerr = 0;
	std::uint32_t ndest = 0;
	TestParam param{};
};

// BRW parameters with LST_FEAT_BULK_LEN (v1), and PING's.
TestParam brw_param(std::uint16_t opcode, std::uint16_t flags, std::uint32_t len,
		    std::uint32_t offset, Order order = Order::little);
TestParam ping_param(std::uint32_t size, std::uint32_t flags, Order order = Order::little);

// Each a whole 160-byte message: @h (its type is the request's, whatever
// @h.type says) then the body in @h.order, zero-padded.
Bytes encode(const MksnReq &r, Header h = {});
Bytes encode(const RmsnReq &r, Header h = {});
Bytes encode(const DebugReq &r, Header h = {});
Bytes encode(const BatchReq &r, Header h = {});
Bytes encode(const TestReq &r, Header h = {});
// @body after @h, zero-padded (or cut) to 160 bytes: any type.
Bytes encode_raw(const Header &h, ByteView body);

// What every framework reply starts with; @timeout and @name are a
// MAKE_SESSION or DEBUG reply's.
struct Reply {
	Header header;
	std::uint32_t status = 0;
	Sid sid;
	std::uint32_t timeout = 0;
	std::string name;
};

// A 160-byte message: order from the magic (bad_magic if neither),
// truncated if it is not 160 bytes. The version is returned as it is.
wire::Decoded<Reply> decode_reply(ByteView in);

}  // namespace sockpeer::lst

#endif  // LNET_SOCKPEER_LST_WIRE_HPP
