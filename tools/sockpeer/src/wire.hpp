// SPDX-License-Identifier: GPL-2.0
//
// The socklnd wire formats (Documentation/wire/socklnd.md, lnet-header.md
// and routing-health-multirail.md, "Ping info"): the acceptor connection
// request, the V1 and V2/V3 hellos, the 24-byte socklnd message header, the
// 72-byte nid4 LNet header with its type-specific parts, and the ping info.
//
// Structures that travel "in the sender's byte order" carry an Order: the
// encoder writes in it, the decoder sets it from the magic. The LNet header
// is always little-endian.
#ifndef LNET_SOCKPEER_WIRE_HPP
#define LNET_SOCKPEER_WIRE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sockpeer::wire {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

enum class Order { little, big };

// ---- constants ---------------------------------------------------------------

inline constexpr std::uint32_t acceptor_magic = 0xACCE7100;
inline constexpr std::uint32_t acceptor_version = 1;	// nid4 target
inline constexpr std::uint32_t acceptor_version_16 = 2;	// large-NID target
inline constexpr std::uint32_t proto_magic = 0x45726963;
inline constexpr std::uint32_t tcp_magic = 0xEEBC0DED;	// V1 hello
inline constexpr std::uint32_t ping_magic = 0x70696E67;
inline constexpr std::uint32_t ping_feat_ni_status = 0x02;
inline constexpr std::uint32_t ni_status_up = 0x15AAC0DE;

inline constexpr std::uint32_t lnet_pid = 12345;
inline constexpr std::uint32_t lnet_mtu = 1U << 20;
inline constexpr std::uint64_t nid_any = ~0ULL;
inline constexpr std::uint64_t lo_nid = 0x0009000000000000ULL;	// 0@lo
inline constexpr std::uint64_t ping_match_bits = 0x8000000000000000ULL;
inline constexpr std::uint32_t lnd_sock = 2;

// socklnd connection types (Documentation/wire/socklnd.md)
inline constexpr std::uint32_t conn_none = 0xFFFFFFFF;
inline constexpr std::uint32_t conn_any = 0;
inline constexpr std::uint32_t conn_control = 1;
inline constexpr std::uint32_t conn_bulk_in = 2;
inline constexpr std::uint32_t conn_bulk_out = 3;

// socklnd message types ("Message header")
inline constexpr std::uint32_t msg_noop = 0xC0;
inline constexpr std::uint32_t msg_lnet = 0xC1;
inline constexpr std::uint64_t keepalive_cookie = 1;

// LNet message types (Documentation/wire/lnet-header.md)
inline constexpr std::uint32_t lnet_ack = 0;
inline constexpr std::uint32_t lnet_put = 1;
inline constexpr std::uint32_t lnet_get = 2;
inline constexpr std::uint32_t lnet_reply = 3;
inline constexpr std::uint32_t lnet_hello = 4;

inline constexpr std::size_t conn_request_size = 16;
inline constexpr std::size_t conn_request_16_size = 28;
inline constexpr std::size_t hello_size = 56;		// V2/V3, without IPs
inline constexpr std::size_t hello_v1_size = 72;	// without IPs
inline constexpr std::size_t hello_v4_size = 80;
inline constexpr std::size_t hello_max_ips = 16;
inline constexpr std::size_t ksock_header_size = 24;
inline constexpr std::size_t lnet_header_size = 72;
inline constexpr std::size_t lnet_body_size = 40;
inline constexpr std::size_t ping_header_size = 16;
inline constexpr std::size_t ping_entry_size = 16;

// The type the passive side sees for a connection the active side opened
// as @type; conn_none for a type that is not one.
std::uint32_t inverse_type(std::uint32_t type);

// ---- NIDs --------------------------------------------------------------------

constexpr std::uint64_t make_nid(std::uint32_t net, std::uint32_t addr)
{
	return (std::uint64_t{net} << 32) | addr;
}
constexpr std::uint32_t sock_net(std::uint32_t number)
{
	return (lnd_sock << 16) | number;
}
// a.b.c.d@tcp<net_number>
constexpr std::uint64_t tcp_nid(std::uint32_t ipv4, std::uint32_t net_number = 0)
{
	return make_nid(sock_net(net_number), ipv4);
}
// Dotted quad to a host-order address; nullopt unless exactly a.b.c.d.
std::optional<std::uint32_t> parse_ipv4(std::string_view text);
std::string ipv4_to_string(std::uint32_t ipv4);
// "192.0.2.1@tcp", "0@lo", "<?>", or "0x...": for messages.
std::string nid_to_string(std::uint64_t nid);

// ---- byte helpers ------------------------------------------------------------

void put16(Bytes &out, std::uint16_t v, Order order = Order::little);
void put32(Bytes &out, std::uint32_t v, Order order = Order::little);
void put64(Bytes &out, std::uint64_t v, Order order = Order::little);
// Precondition: off + size <= in.size().
std::uint16_t get16(ByteView in, std::size_t off, Order order = Order::little);
std::uint32_t get32(ByteView in, std::size_t off, Order order = Order::little);
std::uint64_t get64(ByteView in, std::size_t off, Order order = Order::little);
void append(Bytes &out, ByteView more);
// "45 72 69 63 ..." (at most @max bytes, then "...")
std::string hex(ByteView in, std::size_t max = 64);

// ---- decoding results --------------------------------------------------------

enum class Error {
	truncated,	// fewer bytes than the structure needs
	bad_magic,
	bad_version,
	too_many_ips,
	zero_ip,
};
std::string_view to_string(Error e);

// A decoded value or why not (@E: the decoder's errors; other wires, such
// as tools/ibpeer's, bring their own).
template <typename T, typename E = Error>
class Decoded {
public:
	Decoded(T value) : v_(std::move(value)) {}	// NOLINT: implicit by design
	Decoded(E error) : v_(error) {}			// NOLINT
	bool ok() const noexcept { return std::holds_alternative<T>(v_); }
	explicit operator bool() const noexcept { return ok(); }
	const T &operator*() const { return std::get<T>(v_); }
	const T *operator->() const { return &std::get<T>(v_); }
	E error() const { return std::get<E>(v_); }

private:
	std::variant<T, E> v_;
};

// ---- acceptor connection request (socklnd.md, "Connection request") ----------

struct ConnRequest {
	Order order = Order::little;
	std::uint32_t magic = acceptor_magic;
	std::uint32_t version = acceptor_version;
	std::uint64_t target = 0;

	bool operator==(const ConnRequest &) const = default;
};
// 16 bytes (the version 1 layout, whatever @version says).
Bytes encode(const ConnRequest &req);
// The first 16 bytes; order from the magic (bad_magic if it is not the
// acceptor's in either order). Any version is returned as it is.
Decoded<ConnRequest> decode_conn_request(ByteView in);
// The acceptor's "I speak version 1" answer: {magic, 1, NID 0}, LE.
Bytes version_answer();

// Large NIDs (Documentation/wire/nid.md), 20 bytes in network order.
using Nid16 = std::array<std::uint8_t, 20>;
Nid16 nid4_to_nid16(std::uint64_t nid);
// The nid4 a large NID stands for (ANY for the ANY form), or nullopt if
// its address is longer than 4 bytes.
std::optional<std::uint64_t> nid16_to_nid4(const Nid16 &nid);
// A version 2 request (28 bytes): magic and version in @order, the NID never
// swapped.
Bytes encode_conn_request_16(const Nid16 &target, Order order = Order::little);

// ---- hellos (Documentation/wire/socklnd.md, "Hello") -------------------------

// V2/V3 hello. @nips is written as it is; @ips follow it (an encoder of
// bad hellos may make them disagree).
struct Hello {
	Order order = Order::little;
	std::uint32_t magic = proto_magic;
	std::uint32_t version = 3;
	std::uint64_t src_nid = 0;
	std::uint64_t dst_nid = 0;
	std::uint32_t src_pid = lnet_pid;
	std::uint32_t dst_pid = 0;
	std::uint64_t src_incarnation = 0;
	std::uint64_t dst_incarnation = 0;
	std::uint32_t type = conn_control;
	std::uint32_t nips = 0;
	std::vector<std::uint32_t> ips;

	bool operator==(const Hello &) const = default;
};
Bytes encode(const Hello &h);

// What the first 8 bytes of a hello announce ("Reading the first 8 bytes").
struct HelloHead {
	Order order = Order::little;
	std::uint32_t version = 0;	// 1 for the V1 magic

	bool operator==(const HelloHead &) const = default;
};
Decoded<HelloHead> decode_hello_head(ByteView in);
// A whole V2/V3 hello: 56 bytes and nips IPs (each non-zero, at most 16).
// bad_version for V1, V4 and unknown versions.
Decoded<Hello> decode_hello(ByteView in);
// Bytes a decoded hello took: 56 + 4 * nips.
std::size_t wire_size(const Hello &h);

// V1 hello, always little-endian ("V1 hello").
struct HelloV1 {
	std::uint64_t src_nid = 0;
	std::uint32_t src_pid = lnet_pid;
	std::uint64_t incarnation = 0;
	std::uint32_t type = conn_control;
	std::vector<std::uint32_t> ips;
};
Bytes encode(const HelloV1 &h);

// ---- socklnd message header (socklnd.md, "Message header") -------------------

struct KsockHeader {
	Order order = Order::little;
	std::uint32_t type = msg_lnet;
	std::uint32_t csum = 0;
	std::uint64_t cookie0 = 0;	// LNET: zero-copy request; NOOP: ACK
	std::uint64_t cookie1 = 0;	// ZC-ACK; 1 = keepalive

	bool operator==(const KsockHeader &) const = default;
};
Bytes encode(const KsockHeader &h);
// @order is the connection's (from its hello).
Decoded<KsockHeader> decode_ksock_header(ByteView in, Order order = Order::little);

// ---- LNet header (Documentation/wire/lnet-header.md), little-endian ----------

struct Wmd {
	std::uint64_t interface_cookie = 0;
	std::uint64_t object_cookie = 0;

	bool operator==(const Wmd &) const = default;
};
inline constexpr Wmd wmd_none{~0ULL, ~0ULL};

struct PutBody {
	Wmd ack_wmd;
	std::uint64_t match_bits = 0;
	std::uint64_t hdr_data = 0;
	std::uint32_t portal = 0;
	std::uint32_t offset = 0;

	bool operator==(const PutBody &) const = default;
};
struct GetBody {
	Wmd return_wmd;
	std::uint64_t match_bits = 0;
	std::uint32_t portal = 0;
	std::uint32_t src_offset = 0;
	std::uint32_t sink_length = 0;

	bool operator==(const GetBody &) const = default;
};
struct AckBody {
	Wmd dst_wmd;
	std::uint64_t match_bits = 0;
	std::uint32_t mlength = 0;

	bool operator==(const AckBody &) const = default;
};
struct ReplyBody {
	Wmd dst_wmd;

	bool operator==(const ReplyBody &) const = default;
};

using Body = std::array<std::uint8_t, lnet_body_size>;
Body encode_body(const PutBody &b);
Body encode_body(const GetBody &b);
Body encode_body(const AckBody &b);
Body encode_body(const ReplyBody &b);
PutBody decode_put(const Body &b);
GetBody decode_get(const Body &b);
AckBody decode_ack(const Body &b);
ReplyBody decode_reply(const Body &b);

struct LnetHeader {
	std::uint64_t dest_nid = 0;
	std::uint64_t src_nid = 0;
	std::uint32_t dest_pid = lnet_pid;
	std::uint32_t src_pid = lnet_pid;
	std::uint32_t type = lnet_get;
	std::uint32_t payload_length = 0;
	Body body{};

	bool operator==(const LnetHeader &) const = default;
};
Bytes encode(const LnetHeader &h);
Decoded<LnetHeader> decode_lnet_header(ByteView in);

// A whole LNET message: socklnd header, LNet header, payload.
Bytes lnet_message(const KsockHeader &kh, const LnetHeader &lh, ByteView payload = {});
// A NOOP: socklnd header alone.
Bytes noop(std::uint64_t cookie0, std::uint64_t cookie1, Order order = Order::little);

// ---- ping info (routing-health-multirail.md), nid4 entries only --------------

struct PingEntry {
	std::uint64_t nid = 0;
	std::uint32_t status = 0;
	std::uint32_t msg_size = 0;

	bool operator==(const PingEntry &) const = default;
};
struct PingInfo {
	Order order = Order::little;
	std::uint32_t magic = ping_magic;
	std::uint32_t features = ping_feat_ni_status;
	std::uint32_t pid = lnet_pid;
	std::uint32_t nnis = 0;			// written as it is
	std::vector<PingEntry> entries;

	bool operator==(const PingInfo &) const = default;
};
Bytes encode(const PingInfo &p);
// Order from the magic (bad_magic if neither); entries: as many of nnis as
// the bytes hold (a short buffer is a truncated reply, not an error).
Decoded<PingInfo> decode_ping_info(ByteView in);

}  // namespace sockpeer::wire

#endif  // LNET_SOCKPEER_WIRE_HPP
