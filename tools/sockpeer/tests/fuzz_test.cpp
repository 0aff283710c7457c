// SPDX-License-Identifier: GPL-2.0
//
// The fuzzer: cases are reproducible and stay within their limits, the
// oracle's model of the target, and runs against a local listener that
// closes, stays silent or talks nonsense: every case ends in time.
#include "fuzz.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <sstream>
#include <thread>

namespace sockpeer::fuzz {
namespace {

using namespace wire;
using namespace std::chrono_literals;

constexpr std::uint32_t target_ip = 0xC0000202;	// 192.0.2.2
constexpr std::uint32_t my_ip = 0xC0000201;		// 192.0.2.1

Context ctx()
{
	return Context{target_ip, my_ip};
}

TEST(Rng, SameSeedSameSequence)
{
	Rng a(42), b(42), c(43);
	bool differs = false;
	for (int i = 0; i < 100; i++) {
		const auto x = a.next();
		EXPECT_EQ(x, b.next());
		differs |= x != c.next();
	}
	EXPECT_TRUE(differs);
	// the generator is splitmix64: fixed output for a fixed seed
	EXPECT_EQ(Rng(0).next(), 0xE220A8397B1DCDAFULL);
}

TEST(Cases, Reproducible)
{
	for (std::uint64_t id = 0; id < 500; id++)
		EXPECT_EQ(make_case(ctx(), 7, id), make_case(ctx(), 7, id)) << id;
	// a case does not depend on the cases generated before it
	const Case late = make_case(ctx(), 7, 499);
	EXPECT_EQ(make_case(ctx(), 7, 499), late);
}

TEST(Cases, SeedMatters)
{
	int same = 0;
	for (std::uint64_t id = 0; id < 200; id++)
		same += make_case(ctx(), 1, id).bytes == make_case(ctx(), 2, id).bytes;
	EXPECT_LT(same, 5);
}

TEST(Cases, AllFamiliesAndOutcomesOccur)
{
	std::map<std::string, int> families;
	std::map<Expect, int> expects;
	int splits = 0, insecure = 0;
	for (std::uint64_t id = 0; id < 3000; id++) {
		const Case c = make_case(ctx(), 1, id);
		families[c.family]++;
		expects[predict(ctx(), c).expect]++;
		splits += !c.splits.empty();
		insecure += c.insecure;
		EXPECT_FALSE(c.what.empty()) << id;
		for (auto at : c.splits) {
			EXPECT_GT(at, 0U) << id;
			EXPECT_LT(at, c.bytes.size()) << id;
		}
	}
	for (const char *f : {"request", "hello", "frames", "random", "bitflip"})
		EXPECT_GT(families[f], 100) << f;
	EXPECT_GT(expects[Expect::nothing], 300);
	EXPECT_GT(expects[Expect::version_answer], 30);
	EXPECT_GT(expects[Expect::hello], 1000);
	EXPECT_GT(splits, 200);
	EXPECT_GT(insecure, 10);
}

// Walks request + hello + frames of a case that has them whole, calling
// @on_lnet for each LNet header.
template <typename F>
void walk(const Case &c, F on_lnet)
{
	const ByteView b = c.bytes;
	const auto req = decode_conn_request(b);
	if (!req || req->version != 1)
		return;
	const auto h = decode_hello(b.subspan(conn_request_size));
	if (!h)
		return;
	ByteView rest = b.subspan(conn_request_size + wire_size(*h));
	while (rest.size() >= ksock_header_size) {
		const auto kh = decode_ksock_header(rest, h->order);
		rest = rest.subspan(ksock_header_size);
		if (kh->type == msg_noop)
			continue;
		if (kh->type != msg_lnet || rest.size() < lnet_header_size)
			return;
		const auto lh = decode_lnet_header(rest);
		on_lnet(*h, *lh);
		rest = rest.subspan(lnet_header_size);
		if (lh->payload_length > rest.size())
			return;
		rest = rest.subspan(lh->payload_length);
	}
}

TEST(Cases, NeverUseTheRealPeersNidOrItsMds)
{
	int messages = 0;
	for (std::uint64_t seed : {1ULL, 2ULL, 99ULL}) {
		for (std::uint64_t id = 0; id < 3000; id++) {
			const Case c = make_case(ctx(), seed, id);
			const auto req = decode_conn_request(c.bytes);
			if (req && req->version == 1) {
				const auto h = decode_hello(ByteView(c.bytes).subspan(conn_request_size));
				if (h) {
					EXPECT_NE(h->src_nid, ctx().my_nid()) << seed << "/" << id;
				}
			}
			walk(c, [&](const Hello &, const LnetHeader &lh) {
				messages++;
				EXPECT_NE(lh.src_nid, ctx().my_nid()) << seed << "/" << id;
				if (lh.type != lnet_put)
					return;
				const PutBody p = decode_put(lh.body);
				if (p.portal == 42) {
					EXPECT_TRUE(p.match_bits != 0x200 && p.match_bits != 0x201 &&
						    p.match_bits != 0x300)
						<< seed << "/" << id << ": " << c.what;
				}
			});
		}
	}
	EXPECT_GT(messages, 3000);
}

// ---- predictions ------------------------------------------------------------------

Hello good_hello()
{
	Hello h;
	h.src_nid = ctx().fake_nid(3);
	h.dst_nid = ctx().target_nid();
	h.src_incarnation = 5;
	h.type = conn_bulk_in;
	h.dst_pid = 77;
	h.dst_incarnation = 88;
	return h;
}

Bytes request(Order o = Order::little, std::uint32_t version = 1, std::uint64_t target = 0)
{
	return encode(ConnRequest{o, acceptor_magic, version, target ? target : ctx().target_nid()});
}

Case with(Bytes b)
{
	Case c;
	c.bytes = std::move(b);
	return c;
}

Case with(Bytes a, const Bytes &b)
{
	append(a, b);
	return with(std::move(a));
}

TEST(Predict, Acceptor)
{
	EXPECT_EQ(predict(ctx(), with(Bytes{0x00, 0x71})).expect, Expect::nothing);
	Case insecure = with(request(), encode(good_hello()));
	insecure.insecure = true;
	EXPECT_EQ(predict(ctx(), insecure).expect, Expect::nothing);
	Hello h = good_hello();
	EXPECT_EQ(predict(ctx(), with(encode(h))).expect, Expect::version_answer);
	h.order = Order::big;
	EXPECT_EQ(predict(ctx(), with(encode(h))).expect, Expect::version_answer);
	EXPECT_EQ(predict(ctx(), with(request(Order::little, 7))).expect, Expect::version_answer);
	EXPECT_EQ(predict(ctx(), with(request(Order::big, 0))).expect, Expect::version_answer);
	EXPECT_EQ(predict(ctx(), with(Bytes{0x47, 0x45, 0x54, 0x20, 0x2F})).expect, Expect::nothing);
	EXPECT_EQ(predict(ctx(), with(request(Order::little, 1, ctx().fake_nid(1)), encode(good_hello())))
			  .expect,
		  Expect::nothing);
	Bytes cut = request();
	cut.resize(12);
	EXPECT_EQ(predict(ctx(), with(cut)).expect, Expect::nothing);
}

TEST(Predict, LargeNidRequest)
{
	const Nid16 target = nid4_to_nid16(ctx().target_nid());
	const Prediction p = predict(ctx(), with(encode_conn_request_16(target), encode(good_hello())));
	EXPECT_EQ(p.expect, Expect::hello);
	Nid16 v6 = target;
	v6[0] = 12;
	EXPECT_EQ(predict(ctx(), with(encode_conn_request_16(v6), encode(good_hello()))).expect,
		  Expect::nothing);
	Nid16 stray = target;
	stray[10] = 1;
	EXPECT_EQ(predict(ctx(), with(encode_conn_request_16(stray), encode(good_hello()))).expect,
		  Expect::unknown);
}

TEST(Predict, Hellos)
{
	const Prediction good = predict(ctx(), with(request(), encode(good_hello())));
	EXPECT_EQ(good.expect, Expect::hello);
	EXPECT_FALSE(good.must_be_none);
	EXPECT_EQ(good.version, 3U);
	EXPECT_EQ(good.type, conn_bulk_in);
	EXPECT_EQ(good.src_nid, ctx().fake_nid(3));
	EXPECT_EQ(good.dst_pid, 77U);
	EXPECT_EQ(good.dst_incarnation, 88U);
	// a byte-swapped request and hello are fine
	Hello big = good_hello();
	big.order = Order::big;
	EXPECT_EQ(predict(ctx(), with(request(Order::big), encode(big))).expect, Expect::hello);

	Hello h = good_hello();
	h.version = 4;
	const Prediction v4 = predict(ctx(), with(request(), encode(h)));
	EXPECT_EQ(v4.expect, Expect::hello);
	EXPECT_TRUE(v4.must_be_none);
	EXPECT_TRUE(predict(ctx(), with(request(), encode(HelloV1{}))).must_be_none);

	const auto closes = [](Hello bad) {
		return predict(ctx(), with(request(), encode(bad))).expect == Expect::nothing;
	};
	h = good_hello();
	h.src_nid = nid_any;
	EXPECT_TRUE(closes(h));
	h = good_hello();
	h.dst_nid = ctx().fake_nid(9);
	EXPECT_TRUE(closes(h));
	h = good_hello();
	h.type = 7;
	EXPECT_TRUE(closes(h));
	h = good_hello();
	h.nips = 17;
	h.ips.assign(17, 1);
	EXPECT_TRUE(closes(h));
	h = good_hello();
	h.nips = 2;
	h.ips = {1};					// cut short: the target waits
	EXPECT_TRUE(closes(h));
	h = good_hello();
	h.magic = 0x12345678;
	EXPECT_TRUE(closes(h));
}

// ---- the oracle -------------------------------------------------------------------

Hello answer(std::uint32_t type, std::uint32_t version = 3)
{
	Hello h;
	h.version = version;
	h.src_nid = ctx().target_nid();
	h.dst_nid = ctx().fake_nid(3);
	h.src_incarnation = 0x1234;
	h.dst_pid = 77;
	h.dst_incarnation = 88;
	h.type = type;
	return h;
}

std::optional<std::string> check(const Case &c, const Bytes &reply, Outcome o = Outcome::closed,
				 bool byte_by_byte = false)
{
	Oracle oracle(ctx(), predict(ctx(), c));
	if (byte_by_byte) {
		for (auto byte : reply)
			oracle.feed(ByteView(&byte, 1));
	} else {
		oracle.feed(reply);
	}
	oracle.finish(o);
	return oracle.anomaly();
}

TEST(Oracle, VersionAnswer)
{
	const Case c = with(request(Order::little, 7));
	EXPECT_FALSE(check(c, version_answer()));
	EXPECT_TRUE(check(c, {}));				// closed without it
	EXPECT_FALSE(check(c, {}, Outcome::quiet));		// we gave up first
	EXPECT_FALSE(check(c, {}, Outcome::reset));		// the RST dropped it
	Bytes more = version_answer();
	more.push_back(0);
	EXPECT_TRUE(check(c, more));
	Bytes wrong = version_answer();
	wrong[8] = 1;
	EXPECT_TRUE(check(c, wrong));
	// a version answer where none is due
	EXPECT_TRUE(check(with(request(), encode(good_hello())), version_answer()));
}

TEST(Oracle, NothingExpected)
{
	const Case c = with(Bytes{1, 2, 3, 4, 5, 6, 7, 8});
	EXPECT_FALSE(check(c, {}));
	EXPECT_FALSE(check(c, {}, Outcome::reset));
	EXPECT_TRUE(check(c, encode(answer(conn_none))));
	EXPECT_TRUE(check(c, Bytes{0}, Outcome::quiet));
}

TEST(Oracle, HelloAnswers)
{
	const Case c = with(request(), encode(good_hello()));
	EXPECT_FALSE(check(c, encode(answer(conn_bulk_out))));
	EXPECT_FALSE(check(c, encode(answer(conn_bulk_out)), Outcome::closed, true));
	EXPECT_FALSE(check(c, encode(answer(conn_none))));
	EXPECT_TRUE(check(c, encode(answer(conn_bulk_in))));		// not the inverse
	EXPECT_TRUE(check(c, encode(answer(conn_bulk_out, 2))));	// not our version
	Hello h = answer(conn_bulk_out);
	h.dst_incarnation = 0;						// not echoed
	EXPECT_TRUE(check(c, encode(h)));
	h = answer(conn_bulk_out);
	h.src_nid = ctx().fake_nid(1);
	EXPECT_TRUE(check(c, encode(h)));
	h = answer(conn_bulk_out);
	h.order = Order::big;
	EXPECT_TRUE(check(c, encode(h)));
	// the target must answer before it closes, unless another connection
	// from the same NID raced ours (a restart closes it)
	EXPECT_TRUE(check(c, {}));
	{
		Oracle o(ctx(), predict(ctx(), c));
		o.finish(Outcome::closed, true);
		EXPECT_FALSE(o.anomaly());
	}
	Bytes cut = encode(answer(conn_bulk_out));
	cut.resize(30);
	EXPECT_TRUE(check(c, cut));
	EXPECT_FALSE(check(c, cut, Outcome::quiet));
	// nothing after a NONE
	Bytes none = encode(answer(conn_none));
	append(none, noop(0, 1));
	EXPECT_TRUE(check(c, none));

	// V1/V4: a V3 hello of type NONE
	Hello v4 = good_hello();
	v4.version = 4;
	const Case c4 = with(request(), encode(v4));
	Hello reply = answer(conn_none);
	reply.dst_nid = nid_any;
	EXPECT_FALSE(check(c4, encode(reply)));
	EXPECT_TRUE(check(c4, encode(answer(conn_bulk_out))));
	reply.version = 2;
	EXPECT_TRUE(check(c4, encode(reply)));
}

TEST(Oracle, Frames)
{
	const Case c = with(request(), encode(good_hello()));
	Bytes stream = encode(answer(conn_bulk_out));
	append(stream, noop(0, 5));
	LnetHeader lh;
	lh.dest_nid = ctx().fake_nid(3);
	lh.src_nid = ctx().target_nid();
	lh.type = lnet_reply;
	lh.payload_length = 3000;
	append(stream, lnet_message(KsockHeader{}, lh, Bytes(3000, 0xEE)));
	lh.type = lnet_ack;
	lh.payload_length = 0;
	append(stream, lnet_message(KsockHeader{}, lh));
	EXPECT_FALSE(check(c, stream));
	EXPECT_FALSE(check(c, stream, Outcome::closed, true));
	// a message cut short by the close is fine
	Bytes cut = stream;
	cut.resize(cut.size() - 10);
	EXPECT_FALSE(check(c, cut));

	const auto with_frame = [&](const Bytes &frame) {
		Bytes s = encode(answer(conn_bulk_out));
		append(s, frame);
		return s;
	};
	lh.type = lnet_get;
	EXPECT_TRUE(check(c, with_frame(lnet_message(KsockHeader{}, lh))));
	lh.type = lnet_ack;
	lh.payload_length = 1;
	EXPECT_TRUE(check(c, with_frame(lnet_message(KsockHeader{}, lh, Bytes{1}))));
	lh.type = lnet_reply;
	lh.payload_length = lnet_mtu + 1;
	EXPECT_TRUE(check(c, with_frame(lnet_message(KsockHeader{}, lh))));
	lh.payload_length = 0;
	lh.src_nid = ctx().fake_nid(2);
	EXPECT_TRUE(check(c, with_frame(lnet_message(KsockHeader{}, lh))));
	EXPECT_TRUE(check(c, with_frame(encode(KsockHeader{Order::little, 0xC2}))));
	EXPECT_TRUE(check(c, with_frame(encode(KsockHeader{Order::little, msg_noop, 1}))));
}

// ---- runs against a local listener ----------------------------------------------

// Accepts on a loopback port and treats every connection alike.
class Listener {
public:
	enum class Mode { close, silent, babble };

	explicit Listener(Mode mode) : sock_(listen_on(0, 64)), mode_(mode)
	{
		thread_ = std::jthread([this](std::stop_token stop) { loop(stop); });
	}
	std::uint16_t port() const { return sock_.local_port(); }
	int accepted() const { return accepted_; }

private:
	void loop(std::stop_token stop)
	{
		std::vector<Socket> held;
		while (!stop.stop_requested()) {
			auto a = accept_for(sock_, 20ms);
			if (!a)
				continue;
			accepted_++;
			switch (mode_) {
			case Mode::close:
				a->sock.recv_exact(4, 10ms);
				break;
			case Mode::silent:
				held.push_back(std::move(a->sock));	// never read, never close
				break;
			case Mode::babble:
				a->sock.send_all(Bytes(100, 0x42));
				held.push_back(std::move(a->sock));
				break;
			}
		}
	}

	Socket sock_;
	Mode mode_;
	std::atomic<int> accepted_{0};
	std::jthread thread_;
};

Options local_options(std::uint16_t port, std::uint64_t cases)
{
	Options opt;
	opt.seed = 5;
	opt.cases = cases;
	opt.parallel = 4;
	opt.quiet = 50ms;
	opt.max_case = 500ms;
	opt.connect_timeout = 1s;
	opt.port = port;
	opt.privileged = false;
	opt.health = false;
	return opt;
}

Context local_ctx()
{
	return Context{0x7F000001, 0x7F000002};
}

TEST(Run, EveryCaseEndsWhenTheTargetCloses)
{
	Listener l(Listener::Mode::close);
	std::ostringstream log;
	const auto t0 = Clock::now();
	Options opt = local_options(l.port(), 60);
	opt.quiet = 1s;				// time enough for the listener to close
	const Summary s = run(local_ctx(), opt, log);
	EXPECT_EQ(s.run, 60U);
	EXPECT_TRUE(s.failures.empty());
	EXPECT_EQ(s.outcomes.count(Outcome::quiet) ? s.outcomes.at(Outcome::quiet) : 0, 0U)
		<< log.str();
	EXPECT_LT(Clock::now() - t0, 20s);
	EXPECT_EQ(l.accepted(), 60);
	// one line per case
	std::istringstream lines(log.str());
	int n = 0;
	for (std::string line; std::getline(lines, line);)
		n += line.rfind("case ", 0) == 0;
	EXPECT_EQ(n, 60);
}

TEST(Run, ASilentTargetDoesNotHangTheFuzzer)
{
	Listener l(Listener::Mode::silent);
	std::ostringstream log;
	const auto t0 = Clock::now();
	const Summary s = run(local_ctx(), local_options(l.port(), 40), log);
	EXPECT_EQ(s.run, 40U);
	EXPECT_TRUE(s.failures.empty());
	std::uint64_t ended = 0;
	for (auto o : {Outcome::quiet, Outcome::deadline})
		ended += s.outcomes.count(o) ? s.outcomes.at(o) : 0;
	EXPECT_EQ(ended, 40U);
	// 40 cases, 4 at a time, each at most 500 ms
	EXPECT_LT(Clock::now() - t0, 10s);
}

TEST(Run, NonsenseFromTheTargetIsAnAnomaly)
{
	Listener l(Listener::Mode::babble);
	std::ostringstream log;
	const Summary s = run(local_ctx(), local_options(l.port(), 20), log);
	EXPECT_EQ(s.run, 20U);
	EXPECT_EQ(s.anomalies.size(), 20U);
	EXPECT_NE(log.str().find("ANOMALY"), std::string::npos);
}

TEST(Run, NoTargetIsAFailureNotAHang)
{
	std::uint16_t port;
	{
		const Socket l = listen_on(0, 1);
		port = l.local_port();
	}
	std::ostringstream log;
	const Summary s = run(local_ctx(), local_options(port, 8), log);
	EXPECT_EQ(s.run, 8U);
	EXPECT_EQ(s.failures.size(), 8U);
}

TEST(Run, OnlyOneCaseWithItsBytes)
{
	Listener l(Listener::Mode::close);
	Options opt = local_options(l.port(), 100);
	opt.only = 17;
	std::ostringstream out;
	EXPECT_EQ(run_fuzz(local_ctx(), opt, out, nullptr), 0) << out.str();
	const Case c = make_case(local_ctx(), opt.seed, 17);
	EXPECT_NE(out.str().find(hex(c.bytes, c.bytes.size())), std::string::npos) << out.str();
	EXPECT_NE(out.str().find("ok fuzz: seed 5 case 17"), std::string::npos) << out.str();
	EXPECT_EQ(l.accepted(), 1);
}

}  // namespace
}  // namespace sockpeer::fuzz
