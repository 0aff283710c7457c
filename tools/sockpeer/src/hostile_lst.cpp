// SPDX-License-Identifier: GPL-2.0
//
// `lnet-sockpeer hostile lst TARGET MY_IP`: a selftest console that
// misbehaves (Documentation/wire/selftest.md, Documentation/hardening.md
// "Selftest"). The target runs lnet_selftest with its default limits
// (max_tests 256 unless --max-tests says otherwise). Fake peers of MY_IP's
// subnet, each with its own socklnd session, send framework RPCs one at a
// time (the framework portal is lazy and capped):
//   1. MAKE_SESSION with force, alternately from two NIDs, 200 times: each
//      answered with the new session;
//   2. client-role TESTs whose units or brw buffers exceed the limits
//      (87296 x 1024 x 1 MiB, ...): each refused with E2BIG before the
//      node fetches a destination list (we never answer that GET);
//   3. server-role TESTs over 16 batches up to max_tests, all accepted,
//      and a few more, each refused with E2BIG; then the full session is
//      stolen;
//   4. malformed requests: truncated, oversize, bad magic, bad type (no
//      reply), bad version and unknown features (EPROTO), absurd counts
//      (EINVAL), byte-swapped oversize TEST (E2BIG), ...;
//   5. a well-behaved peer's ping is answered throughout and after, and a
//      fresh session without force works and may add a test.
#include <chrono>
#include <optional>
#include <string>

#include "hostile.hpp"
#include "lst_wire.hpp"
#include "report.hpp"
#include "scenarios.hpp"

namespace sockpeer {

using namespace wire;
using namespace std::chrono_literals;

namespace {

constexpr unsigned churn = 200;
constexpr std::uint32_t nbatches = 16;
constexpr auto answer_time = 10s;
constexpr auto drop_grace = 1s;

std::string status_text(const std::optional<lst::Reply> &r)
{
	return r ? "status " + std::to_string(r->status) : "no reply";
}

// A console speaking the selftest protocol over its own socklnd session.
class Console {
public:
	Console(std::uint32_t target_ip, std::uint64_t me)
		: sess_({target_ip, me, 1}), sid_{me, 0}
	{
	}

	std::uint64_t me() const { return sess_.me(); }
	Session &session() { return sess_; }
	const lst::Sid &sid() const { return sid_; }
	void set_sid(const lst::Sid &sid) { sid_ = sid; }
	std::uint64_t next_id() { return ++ids_ | (me() << 24); }

	// PUTs @msg (any length) to the target's @portal, match bits @svc.
	void send(std::uint32_t svc, ByteView msg, std::uint32_t portal = lst::framework_portal)
	{
		LnetHeader lh;
		lh.dest_nid = sess_.target_nid();
		lh.src_nid = me();
		lh.type = lnet_put;
		lh.payload_length = static_cast<std::uint32_t>(msg.size());
		lh.body = encode_body(PutBody{wmd_none, svc, 0, portal, 0});
		sess_.send(conn_control, lnet_message(KsockHeader{}, lh, msg));
	}

	// The reply PUT with match bits @rpy_id (portal 52), decoded.
	std::optional<lst::Reply> reply(std::uint64_t rpy_id,
					Clock::duration timeout = answer_time)
	{
		const auto m = sess_.wait(
			[rpy_id](const Msg &m) {
				if (!m.is_lnet(lnet_put))
					return false;
				const auto p = decode_put(m.lnet.body);
				return p.match_bits == rpy_id && p.portal == lst::rdma_portal;
			},
			timeout);
		if (!m)
			return std::nullopt;
		const auto r = lst::decode_reply(m->payload);
		if (!r)
			return std::nullopt;
		return *r;
	}

	template <typename Req>
	std::optional<lst::Reply> call(std::uint32_t svc, Req req, lst::Header h = {})
	{
		req.rpy_id = next_id();
		send(svc, lst::encode(req, h));
		return reply(req.rpy_id);
	}

	std::optional<lst::Reply> make_session(std::uint32_t force, lst::Header h = {})
	{
		lst::Sid sid{me(), ++stamp_};
		auto r = call(lst::svc_make_session, lst::MksnReq{0, sid, force, "hostile"}, h);
		if (r && r->status == lst::st_ok)
			sid_ = sid;
		return r;
	}

	std::optional<lst::Reply> test(lst::TestReq t, lst::Header h = {})
	{
		t.sid = sid_;
		t.bulk_id = next_id();
		return call(lst::svc_test, t, h);
	}

	// A DEBUG of the session is answered (the probe behind a request that
	// must be dropped).
	bool alive()
	{
		const auto r = call(lst::svc_debug, lst::DebugReq{0, sid_, 0});
		return r.has_value();
	}

private:
	Session sess_;
	lst::Sid sid_;
	std::uint64_t ids_ = 0;
	std::int64_t stamp_ = 1000;
};

lst::TestReq client_test(std::uint32_t service, std::uint32_t ndest, std::uint32_t concur,
			 std::uint32_t len)
{
	lst::TestReq t;
	t.bid = 1;
	t.service = service;
	t.loop = 1;
	t.concur = concur;
	t.is_client = 1;
	t.ndest = ndest;
	t.param = service == lst::svc_brw ?
			  lst::brw_param(lst::brw_write, lst::brw_check_none, len, 0) :
			  lst::ping_param(0, 0);
	return t;
}

void step_churn(Reporter &rep, Console &a, Console &b)
{
	auto r = a.make_session(0);
	rep.check("lst: a first session made", r && r->status == lst::st_ok, status_text(r));
	r = b.make_session(0);
	rep.check("lst: another NID's session without force refused with EBUSY",
		  r && r->status == lst::st_ebusy && r->sid == a.sid(), status_text(r));

	unsigned answered = 0, made = 0;
	std::string first;
	for (unsigned i = 0; i < churn; i++) {
		Console &c = i % 2 ? a : b;
		r = c.make_session(1);
		answered += r.has_value();
		const bool good = r && r->status == lst::st_ok && r->sid == c.sid();
		made += good;
		if (!good && first.empty())
			first = "#" + std::to_string(i) + ": " + status_text(r);
	}
	rep.check("lst: " + std::to_string(churn) + " forced MAKE_SESSIONs answered, each a new session",
		  answered == churn && made == churn,
		  std::to_string(answered) + " answered, " + std::to_string(made) +
			  " made; first bad " + first);
}

void step_oversize(Reporter &rep, Console &c)
{
	struct Case {
		const char *name;
		lst::TestReq t;
		std::uint32_t want;
	};
	const Case cases[] = {
		{"brw 87296 x 1024 x 1 MiB", client_test(lst::svc_brw, lst::max_ndest, 1024, 1 << 20),
		 lst::st_e2big},
		{"ping 87296 x 1", client_test(lst::svc_ping, lst::max_ndest, 1, 0), lst::st_e2big},
		{"ping 16384 x 2", client_test(lst::svc_ping, 16384, 2, 0), lst::st_e2big},
		{"brw 16 x 1024 x 1 MiB", client_test(lst::svc_brw, 16, 1024, 1 << 20),
		 lst::st_e2big},
		{"ping 87297 x 1 (over the wire's limit)",
		 client_test(lst::svc_ping, lst::max_ndest + 1, 1, 0), lst::st_einval},
		{"ping 1 x 1025 (over the wire's limit)", client_test(lst::svc_ping, 1, 1025, 0),
		 lst::st_einval},
	};
	for (const auto &k : cases) {
		for (int i = 0; i < 5; i++) {
			const auto r = c.test(k.t);
			if (!r || r->status != k.want || r->sid != c.sid()) {
				rep.not_ok(std::string("lst: TEST ") + k.name + " refused",
					   "try " + std::to_string(i) + ": " + status_text(r) +
						   ", want " + std::to_string(k.want));
				goto next;
			}
		}
		rep.ok(std::string("lst: TEST ") + k.name + " refused (5 times, status " +
		       std::to_string(k.want) + ")");
next:;
	}
}

void step_many(Reporter &rep, Console &c, Console &thief, std::uint32_t max_tests)
{
	unsigned ok = 0;
	std::string first;
	for (std::uint32_t i = 0; i < max_tests; i++) {
		lst::TestReq t;
		t.bid = 1 + i % nbatches;
		t.service = i % 2 ? lst::svc_brw : lst::svc_ping;
		// a server role allocates nothing, whatever its counts say
		t.loop = i ? 1 : 0xFFFFFFFF;
		t.concur = i ? 1 : 1024;
		t.param = i % 2 ? lst::brw_param(lst::brw_read, lst::brw_check_none, 1 << 20, 0) :
				  lst::ping_param(0, 0);
		const auto r = c.test(t);
		const bool good = r && r->status == lst::st_ok;
		ok += good;
		if (!good && first.empty())
			first = "#" + std::to_string(i) + ": " + status_text(r);
	}
	rep.check("lst: " + std::to_string(max_tests) + " server-role TESTs in " +
			  std::to_string(nbatches) + " batches accepted",
		  ok == max_tests, std::to_string(ok) + " accepted; first bad " + first);
	unsigned refused = 0;
	for (std::uint32_t i = 0; i < 4; i++) {
		lst::TestReq t;
		t.bid = 100 + i;	// a new batch each: not made either
		const auto r = c.test(t);
		refused += r && r->status == lst::st_e2big;
	}
	rep.check("lst: TESTs over max_tests refused with E2BIG", refused == 4,
		  std::to_string(refused) + " of 4 refused");
	const auto q = c.call(lst::svc_batch, lst::BatchReq{0, c.sid(), 1, lst::batch_query, 0, 0});
	rep.check("lst: a full session answers a batch query", q && q->status == lst::st_ok,
		  status_text(q));
	const auto r = thief.make_session(1);
	rep.check("lst: the full session stolen with force",
		  r && r->status == lst::st_ok && r->sid == thief.sid(), status_text(r));
}

// @bytes PUT to service @svc must be dropped: no reply to @rpy_id, and the
// node still answers a DEBUG behind it.
void expect_drop(Reporter &rep, Console &c, const std::string &name, std::uint32_t svc,
		 ByteView bytes, std::uint64_t rpy_id)
{
	c.send(svc, bytes);
	const bool alive = c.alive();
	const auto r = c.reply(rpy_id, drop_grace);
	rep.check("lst: " + name + " dropped", alive && !r,
		  alive ? "answered: " + status_text(r) : "the node no longer answers");
}

void expect_status(Reporter &rep, const std::string &name, const std::optional<lst::Reply> &r,
		   std::uint32_t want)
{
	rep.check("lst: " + name + " refused with " + std::to_string(want),
		  r && r->status == want, status_text(r));
}

void step_malformed(Reporter &rep, Console &c)
{
	const lst::DebugReq dbg{0, c.sid(), 0};
	auto id = c.next_id();
	Bytes m = lst::encode(lst::DebugReq{id, c.sid(), 0});
	m.resize(100);
	expect_drop(rep, c, "truncated request (100 bytes)", lst::svc_debug, m, id);

	id = c.next_id();
	m = lst::encode(lst::DebugReq{id, c.sid(), 0});
	m.resize(4096, 0xA5);
	expect_drop(rep, c, "oversize request (4096 bytes)", lst::svc_debug, m, id);

	id = c.next_id();
	lst::Header h;
	h.magic = 0xDEADBEEF;
	expect_drop(rep, c, "bad magic", lst::svc_debug, lst::encode(lst::DebugReq{id, c.sid(), 0}, h),
		    id);

	// a TEST body where the MAKE_SESSION service expects its own type
	id = c.next_id();
	lst::TestReq t = client_test(lst::svc_brw, lst::max_ndest, 1024, 1 << 20);
	t.rpy_id = id;
	t.sid = c.sid();
	expect_drop(rep, c, "TEST to the MAKE_SESSION service", lst::svc_make_session,
		    lst::encode(t), id);

	id = c.next_id();
	expect_drop(rep, c, "empty request", lst::svc_test, {}, id);

	h = {};
	h.version = 2;
	expect_status(rep, "version 2", c.call(lst::svc_debug, dbg, h), lst::st_eproto);
	h = {};
	h.feats = 0x80000001;
	expect_status(rep, "MAKE_SESSION with unknown features", c.make_session(1, h),
		      lst::st_eproto);
	expect_status(rep, "TEST with unknown features", c.test(client_test(lst::svc_ping, 1, 1, 0), h),
		      lst::st_eproto);

	t = client_test(lst::svc_brw, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF);
	expect_status(rep, "TEST ndest and concurrency 2^32-1", c.test(t), lst::st_einval);
	t = client_test(lst::svc_ping, 1, 1, 0);
	t.loop = 0;
	expect_status(rep, "TEST loop 0", c.test(t), lst::st_einval);
	t = client_test(lst::svc_ping, 1, 1, 0);
	t.service = 0xFFFF;
	expect_status(rep, "TEST of service 65535", c.test(t), lst::st_einval);
	t = client_test(lst::svc_ping, 0, 1, 0);
	expect_status(rep, "client TEST without destinations", c.test(t), lst::st_einval);
	t = client_test(lst::svc_brw, 1, 1, 0xFFFFFFFF);
	expect_status(rep, "brw TEST of 4 GiB", c.test(t), lst::st_einval);
	t = client_test(lst::svc_brw, 1, 1, 4096);
	t.param = lst::brw_param(lst::brw_write, 0xFFFF, 4096, 7);
	expect_status(rep, "brw TEST with bad flags and offset", c.test(t), lst::st_einval);
	// the swapped path checks the swapped counts
	h = {};
	h.order = Order::big;
	t = client_test(lst::svc_brw, lst::max_ndest, 1024, 1 << 20);
	t.param = lst::brw_param(lst::brw_write, lst::brw_check_none, 1 << 20, 0, Order::big);
	expect_status(rep, "byte-swapped TEST 87296 x 1024 x 1 MiB", c.test(t, h), lst::st_e2big);

	expect_status(rep, "TEST of another session",
		      c.call(lst::svc_test, lst::TestReq{0, 0, {c.me(), 1}, 1}), lst::st_enoent);
	expect_status(rep, "MAKE_SESSION for NID ANY",
		      c.call(lst::svc_make_session, lst::MksnReq{0, {}, 1, "any"}), lst::st_einval);
	const auto b = c.call(lst::svc_batch, lst::BatchReq{0, c.sid(), 12345, 99, ~0U, ~0U});
	rep.check("lst: BATCH opcode 99 of an unknown batch refused", b && b->status != lst::st_ok,
		  status_text(b));
	const auto rm = c.call(lst::svc_remove_session, lst::RmsnReq{0, {c.me(), 1}});
	rep.check("lst: REMOVE_SESSION of another session refused", rm && rm->status != lst::st_ok,
		  status_text(rm));
	// another id without force: EBUSY, with the session's own name
	const auto nm = c.call(lst::svc_make_session,
			       lst::MksnReq{0, {c.me(), 77}, 0, std::string(64, 'A')});
	rep.check("lst: MAKE_SESSION with an unterminated name answered", nm.has_value(),
		  "no reply");
	rep.check("lst: the node answers after the malformed requests", c.alive(), "no reply");
}

void step_after(Reporter &rep, Console &old, std::uint32_t target_ip, std::uint64_t nid)
{
	Console fresh(target_ip, nid);
	auto why = fresh.session().ping();
	rep.check("lst: a ping answered after the abuse", !why, why.value_or(""));
	const auto rm = old.call(lst::svc_remove_session, lst::RmsnReq{0, old.sid()});
	rep.check("lst: the session removed", rm && rm->status == lst::st_ok, status_text(rm));
	const auto r = fresh.make_session(0);
	rep.check("lst: a fresh session without force made",
		  r && r->status == lst::st_ok && r->sid == fresh.sid(), status_text(r));
	lst::TestReq t;
	t.bid = 1;
	const auto tr = fresh.test(t);
	rep.check("lst: the fresh session adds a test", tr && tr->status == lst::st_ok,
		  status_text(tr));
	const auto rm2 = fresh.call(lst::svc_remove_session, lst::RmsnReq{0, fresh.sid()});
	rep.check("lst: the fresh session removed", rm2 && rm2->status == lst::st_ok,
		  status_text(rm2));
}

}  // namespace

int run_hostile_lst(std::uint32_t target_ip, std::uint32_t my_ip, std::uint32_t max_tests,
		    std::ostream &out)
{
	Reporter rep(out);

	try {
		hostile::Pinger good(target_ip, hostile::fake_nid(my_ip, 252));
		Console a(target_ip, hostile::fake_nid(my_ip, 210));
		Console b(target_ip, hostile::fake_nid(my_ip, 211));

		good.start();
		step_churn(rep, a, b);
		// the churn ends with a's session
		step_oversize(rep, a);
		step_many(rep, a, b, max_tests);
		step_malformed(rep, b);
		good.stop();
		rep.check("lst: pings answered throughout", good.answered() > 0 && !good.failed(),
			  std::to_string(good.answered()) + " answered, " +
				  std::to_string(good.failed()) + " not: " + good.first_error());
		step_after(rep, b, target_ip, hostile::fake_nid(my_ip, 212));
	} catch (const NetError &e) {
		rep.not_ok("lst", e.what());
	}
	return rep.failed() ? 1 : 0;
}

}  // namespace sockpeer
