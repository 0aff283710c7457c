// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer fuzz`: malformed connection requests, hellos and frames
// against a node's acceptor (TCP 988).
//
// Case N of seed S is a pure function of (S, N, target and own address):
// the same seed gives the same bytes, so a failure is replayed with
// --only N. Each case is one TCP connection from a privileged port; the
// bytes go out in one write or a few (a pause between them, to split
// headers across segments); then we read until the target closes, or it
// has been quiet for a while (we reset the connection: no TIME_WAIT), or
// the case's deadline passes. The target closing is the expected outcome.
//
// Everything the target sends is checked against what the protocol says it may
// send for what it received (the Oracle): a version answer only for a
// hello without a request or an unknown request version; a hello only for
// a request naming its NID and a hello it may accept (then of the right
// version, type NONE or the inverse of ours, its own NID); after an
// accepted hello only well-formed NOOPs, ACKs and REPLYs.
//
// Source NIDs of the hellos and messages come from a pool of addresses no
// node has (10.254.0.1..64@tcp by default, so replies to them fail fast
// with no route) or are deliberately bad; never the fuzzing node's own
// NID, so a real LNet peer on the same node is left alone. PUTs never
// target lnet_lndtest's sink and done MDs (portal 42, match bits 0x200,
// 0x201, 0x300), which a real client may be using.
#ifndef LNET_SOCKPEER_FUZZ_HPP
#define LNET_SOCKPEER_FUZZ_HPP

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "net.hpp"
#include "wire.hpp"

namespace sockpeer::fuzz {

// splitmix64: tiny, and the same sequence everywhere (std::*_distribution
// are not specified bit for bit).
class Rng {
public:
	explicit Rng(std::uint64_t seed) : state_(seed) {}
	std::uint64_t next();
	// uniform-ish in [0, n); n > 0
	std::uint64_t below(std::uint64_t n) { return next() % n; }
	std::uint32_t u32() { return static_cast<std::uint32_t>(next() >> 32); }
	// true with probability percent / 100
	bool chance(unsigned int percent) { return below(100) < percent; }
	template <typename T, std::size_t N>
	const T &pick(const T (&items)[N])
	{
		return items[below(N)];
	}
	Bytes bytes(std::size_t n);

private:
	std::uint64_t state_;
};

// The seed of case @id's own generator.
std::uint64_t case_seed(std::uint64_t seed, std::uint64_t id);

struct Context {
	std::uint32_t target_ip = 0;
	std::uint32_t my_ip = 0;
	// first address of the fake NID pool, and its size
	std::uint32_t fake_base = 0x0AFE0000;	// 10.254.0.0
	std::uint32_t fake_count = 64;

	std::uint64_t target_nid() const { return wire::tcp_nid(target_ip); }
	std::uint64_t my_nid() const { return wire::tcp_nid(my_ip); }
	std::uint64_t fake_nid(std::uint32_t k) const
	{
		return wire::tcp_nid(fake_base + 1 + k % fake_count);
	}
};

struct Case {
	std::uint64_t id = 0;
	std::string family;	// request, hello, frames, random, bitflip
	std::string what;	// the mutations, for the log
	Bytes bytes;
	std::vector<std::size_t> splits;	// write boundaries, ascending, inside bytes
	bool insecure = false;			// from an unprivileged port

	bool operator==(const Case &) const = default;
};

Case make_case(const Context &ctx, std::uint64_t seed, std::uint64_t id);

// ---- what the target may answer ----------------------------------------------

enum class Expect {
	nothing,	// the target closes (or waits for more) without a byte
	version_answer,	// the acceptor's 16-byte "version 1, NID 0"
	hello,		// a socklnd hello, then frames if not NONE
	unknown,	// beyond the model (large-NID request): anything well-formed
};
std::string_view to_string(Expect e);

struct Prediction {
	Expect expect = Expect::nothing;
	std::string why;			// "bad acceptor magic", ...
	// Expect::hello
	std::uint32_t version = 3;		// of the target's hello
	bool must_be_none = false;		// version we do not speak
	std::uint32_t type = wire::conn_none;	// ours; the answer is NONE or inverse
	std::uint64_t src_nid = 0;		// ours; the answer's destination
	std::uint32_t dst_pid = 0;		// ours, echoed
	std::uint64_t dst_incarnation = 0;	// ours, echoed
};

// What the target may send back for @c (our socklnd and acceptor, and the
// protocol: Documentation/wire/socklnd.md, "The acceptor", "Handshake").
Prediction predict(const Context &ctx, const Case &c);

enum class Outcome {
	closed,		// the target closed (FIN)
	reset,		// the target reset the connection
	quiet,		// nothing more came for a while: we reset
	deadline,	// the case's time ran out: we reset
	no_connect,	// could not connect
};
std::string_view to_string(Outcome o);

// Checks the target's bytes against a Prediction as they stream in.
class Oracle {
public:
	Oracle(const Context &ctx, Prediction p);
	void feed(wire::ByteView data);
	// The connection ended so. @nid_shared: another connection claimed
	// the same source NID meanwhile; as a restart or a duplicate of that
	// peer it may have closed ours before our hello was answered.
	void finish(Outcome o, bool nid_shared = false);
	const std::optional<std::string> &anomaly() const { return anomaly_; }
	std::size_t received() const { return received_; }
	const Prediction &prediction() const { return p_; }

private:
	enum class Stage { start, answer, hello, frames, silent, done };
	void fail(std::string why);
	void step();

	std::uint64_t target_nid_;
	Prediction p_;
	Stage stage_ = Stage::start;
	Bytes pending_;			// bytes of the structure being read
	std::size_t skip_ = 0;		// payload bytes still to pass over
	std::size_t received_ = 0;
	std::string silent_after_;	// Stage::silent: after what
	std::optional<std::string> anomaly_;
};

// ---- running -------------------------------------------------------------------

struct Options {
	std::uint64_t seed = 1;
	std::uint64_t cases = 3000;
	std::optional<std::uint64_t> only;
	unsigned int parallel = 4;
	std::chrono::milliseconds quiet{300};
	std::chrono::milliseconds max_case{5000};
	std::chrono::milliseconds connect_timeout{10000};
	std::chrono::milliseconds split_pause{3};
	std::uint16_t port = acceptor_port;
	bool privileged = true;		// false: tests on a local port
	bool health = true;		// ping the target before and after
	std::uint64_t health_every = 1000;	// and after every so many cases (0: never)
};

struct CaseResult {
	std::uint64_t id = 0;
	Outcome outcome = Outcome::no_connect;
	std::size_t sent = 0;
	std::size_t received = 0;
	std::chrono::milliseconds elapsed{0};
	std::optional<std::string> anomaly;	// the target broke the rules
	bool nid_shared = false;		// raced a case claiming the same NID
	std::string error;			// no_connect: why
};

struct Summary {
	std::uint64_t run = 0;
	std::map<Outcome, std::uint64_t> outcomes;
	std::vector<CaseResult> anomalies;
	std::vector<CaseResult> failures;	// no_connect
	std::vector<std::string> health_failures;
	unsigned int health_checks = 0;
	std::chrono::milliseconds elapsed{0};
};

// Runs the cases (or --only one); @log gets one line per case. Throws
// NetError if nothing can be done at all.
Summary run(const Context &ctx, const Options &opt, std::ostream &log);

// One case alone, with its bytes and what came back, for a replay.
CaseResult run_one(const Context &ctx, const Options &opt, const Case &c, std::ostream &log);

// `lnet-sockpeer fuzz`: prints the results (ok / not ok lines) on @out.
int run_fuzz(const Context &ctx, const Options &opt, std::ostream &out, std::ostream *log);

}  // namespace sockpeer::fuzz

#endif  // LNET_SOCKPEER_FUZZ_HPP
