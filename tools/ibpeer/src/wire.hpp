// SPDX-License-Identifier: GPL-2.0
//
// The o2iblnd wire (Documentation/wire/o2iblnd.md): the 48-byte message
// header, the connection parameters of CONNREQ/CONNACK, the bodies of
// IMMEDIATE, PUT_REQ, PUT_ACK, GET_REQ and the completions, RDMA
// descriptors, the reject data and the checksum. No I/O.
//
// Messages travel in the sender's order (an Order, set from the magic by
// the decoder); the embedded LNet header is always little-endian and is
// sockpeer's (tools/sockpeer/src/wire.hpp), as are the ping info and the
// byte helpers.
#ifndef LNET_IBPEER_WIRE_HPP
#define LNET_IBPEER_WIRE_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../../sockpeer/src/wire.hpp"

namespace ibpeer::wire {

using sockpeer::wire::Bytes;
using sockpeer::wire::ByteView;
using sockpeer::wire::LnetHeader;
using sockpeer::wire::Order;

// ---- constants ---------------------------------------------------------------

inline constexpr std::uint32_t msg_magic = 0x0BE91B91;
inline constexpr std::uint32_t unified_magic = 0x45726963;	// LNET_PROTO_MAGIC
inline constexpr std::uint16_t version_1 = 0x11;
inline constexpr std::uint16_t version_2 = 0x12;

inline constexpr std::uint8_t msg_connreq = 0xC0;
inline constexpr std::uint8_t msg_connack = 0xC1;
inline constexpr std::uint8_t msg_noop = 0xD0;
inline constexpr std::uint8_t msg_immediate = 0xD1;
inline constexpr std::uint8_t msg_put_req = 0xD2;
inline constexpr std::uint8_t msg_put_nak = 0xD3;
inline constexpr std::uint8_t msg_put_ack = 0xD4;
inline constexpr std::uint8_t msg_put_done = 0xD5;
inline constexpr std::uint8_t msg_get_req = 0xD6;
inline constexpr std::uint8_t msg_get_done = 0xD7;

inline constexpr std::size_t header_size = 48;
inline constexpr std::size_t connparams_size = 56;	// header + 8
inline constexpr std::size_t immediate_hdr_size = 120;	// header + LNet header
inline constexpr std::size_t completion_size = 60;
inline constexpr std::size_t frag_size = 12;
inline constexpr std::size_t msg_size = 4096;		// every receive buffer
inline constexpr std::size_t immediate_max = msg_size - immediate_hdr_size;
inline constexpr std::uint32_t max_frags = 257;
inline constexpr std::uint16_t service = 987;		// rdma_cm port
inline constexpr std::size_t reject_size = 24;

// reject reasons ("Reject reasons")
inline constexpr std::uint8_t rej_conn_race = 1;
inline constexpr std::uint8_t rej_no_resources = 2;
inline constexpr std::uint8_t rej_fatal = 3;
inline constexpr std::uint8_t rej_conn_uncompat = 4;
inline constexpr std::uint8_t rej_conn_stale = 5;
inline constexpr std::uint8_t rej_rdma_frags = 6;
inline constexpr std::uint8_t rej_msg_queue_size = 7;
inline constexpr std::uint8_t rej_invalid_srv_id = 8;
inline constexpr std::uint8_t rej_early = 9;

inline constexpr std::uint32_t lnd_o2ib = 5;

// a.b.c.d@o2ib<net_number>
constexpr std::uint64_t o2ib_nid(std::uint32_t ipv4, std::uint32_t net_number = 0)
{
	return sockpeer::wire::make_nid((lnd_o2ib << 16) | net_number, ipv4);
}

// "192.0.2.1@o2ib", else sockpeer's form.
std::string nid_to_string(std::uint64_t nid);
std::string_view type_name(std::uint8_t type);
std::string_view reject_name(std::uint8_t reason);

// The size of a well-formed message of @type (with @nfrags fragments for
// PUT_ACK and GET_REQ; IMMEDIATE without payload); 0 for an unknown type.
std::size_t type_size(std::uint8_t type, std::uint32_t nfrags = 0);

// ---- messages ----------------------------------------------------------------

struct MsgHeader {
	Order order = Order::little;
	std::uint32_t magic = msg_magic;
	std::uint16_t version = version_2;
	std::uint8_t type = msg_noop;
	std::uint8_t credits = 0;
	std::uint32_t nob = 0;		// encode: 0 means "the real size"
	std::uint32_t cksum = 0;	// encode: written as it is (see Encode)
	std::uint64_t srcnid = 0;
	std::uint64_t srcstamp = 0;
	std::uint64_t dstnid = 0;
	std::uint64_t dststamp = 0;

	bool operator==(const MsgHeader &) const = default;
};

struct ConnParams {
	std::uint16_t queue_depth = 8;
	std::uint16_t max_frags = wire::max_frags;
	std::uint32_t max_msg_size = msg_size;

	bool operator==(const ConnParams &) const = default;
};

struct Frag {
	std::uint32_t nob = 0;
	std::uint64_t addr = 0;

	bool operator==(const Frag &) const = default;
};

struct RdmaDesc {
	std::uint32_t key = 0;
	std::uint32_t nfrags = 0;	// encode: written as it is
	std::vector<Frag> frags;

	bool operator==(const RdmaDesc &) const = default;
};

// One message; the fields used depend on hdr.type:
//   CONNREQ, CONNACK: params
//   IMMEDIATE: lnet, payload
//   PUT_REQ: lnet, cookie
//   PUT_ACK: cookie (the source's, echoed), dst_cookie, rd
//   GET_REQ: lnet, cookie, rd
//   PUT_NAK, PUT_DONE, GET_DONE: cookie, status
//   NOOP: nothing
struct Msg {
	MsgHeader hdr;
	ConnParams params;
	LnetHeader lnet;
	Bytes payload;
	std::uint64_t cookie = 0;
	std::uint64_t dst_cookie = 0;
	RdmaDesc rd;
	std::int32_t status = 0;

	bool operator==(const Msg &) const = default;
};

struct Encode {
	bool cksum = false;	// compute the checksum (else hdr.cksum as it is)
};

// The message in hdr.order; nob is the real size unless hdr.nob is set.
Bytes encode(const Msg &m, Encode how = {});

// The checksum of @msg (nob bytes with the cksum field already zero):
// rotate left 1, add the byte (unsigned); 0 becomes 1.
std::uint32_t cksum(ByteView msg);

enum class Error {
	truncated,	// shorter than the header or than nob / the type needs
	bad_magic,
	bad_version,
	bad_nob,	// nob beyond the bytes received, or below the header
	bad_cksum,
	bad_type,
	bad_frags,	// descriptor with 0 or more than 257 fragments, or beyond nob
	bad_nid,	// srcnid is ANY
};
std::string_view to_string(Error e);

template <typename T> using Decoded = sockpeer::wire::Decoded<T, Error>;

// Receive checks 1-8 of "Receive checks"; swaps a flipped message (the
// magic stays as received).
Decoded<Msg> decode(ByteView in);

// ---- reject data ("Reject data") ---------------------------------------------

struct Reject {
	Order order = Order::little;
	std::uint32_t magic = msg_magic;
	std::uint16_t version = version_2;
	std::uint8_t reason = 0;
	bool has_params = false;	// 24 bytes and a version above V1
	std::uint64_t incarnation = 0;
	std::uint16_t queue_depth = 0;
	std::uint16_t max_frags = 0;
	std::uint32_t max_msg_size = 0;

	bool operator==(const Reject &) const = default;
};
Bytes encode(const Reject &r);
// At least magic, version, reason; the magic o2iblnd's or the unified one.
Decoded<Reject> decode_reject(ByteView in);

// ---- LNet messages the peer sends --------------------------------------------

// A GET of the ping info (portal 0, match bits 0x8000000000000000, pid
// 12345) from @src to @dst, answered into @wmd, at most @sink_length bytes.
LnetHeader ping_get(std::uint64_t src, std::uint64_t dst, sockpeer::wire::Wmd wmd,
		    std::uint32_t sink_length);
// A PUT of @length bytes to @portal / @match_bits, no ACK.
LnetHeader put(std::uint64_t src, std::uint64_t dst, std::uint32_t portal,
	       std::uint64_t match_bits, std::uint32_t length);
// A GET of at most @sink_length bytes from @portal / @match_bits.
LnetHeader get(std::uint64_t src, std::uint64_t dst, std::uint32_t portal,
	       std::uint64_t match_bits, std::uint32_t sink_length, sockpeer::wire::Wmd wmd);

}  // namespace ibpeer::wire

#endif  // LNET_IBPEER_WIRE_HPP
