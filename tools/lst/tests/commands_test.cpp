// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "devlnet.hpp"
#include "fake_kernel.hpp"

using namespace lst;
using namespace lst::test;

TEST(Commands, NoVerbPrintsHelpAndIsAUsageError)
{
	Harness h;
	EXPECT_EQ(h.run({}), 2);
	EXPECT_NE(h.out.str().find("add_test"), std::string::npos);
}

TEST(Commands, UnknownVerb)
{
	Harness h;
	EXPECT_EQ(h.run({"frobnicate"}), 2);
	EXPECT_NE(h.err.str().find("unknown verb 'frobnicate'"), std::string::npos);
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Commands, NewSessionPacksNameTimeoutForceAndKey)
{
	Harness h;
	h.env.key = 99;
	EXPECT_EQ(h.run({"new_session", "--timeout", "120", "--force", "demo"}), 0);
	auto s = h.kernel.call_as<lstio_session_new>(0);
	EXPECT_EQ(s.sn_hdr.lh_opc, (unsigned)LSTIO_SESSION_NEW);
	EXPECT_EQ(s.sn_hdr.lh_key, 99);
	EXPECT_EQ(s.sn_timeout, 120u);
	EXPECT_EQ(s.sn_force, 1u);
	EXPECT_EQ(get_name(s.sn_name), "demo");
	EXPECT_EQ(h.out.str(), "SESSION: demo FEATURES: 1 TIMEOUT: 120 FORCE: Yes\n");
}

TEST(Commands, NewSessionDefaultName)
{
	Harness h;
	EXPECT_EQ(h.run({"new_session"}), 0);
	EXPECT_EQ(get_name(h.kernel.call_as<lstio_session_new>(0).sn_name), "lst-4242");
	EXPECT_NE(h.out.str().find("TIMEOUT: 300 FORCE: No"), std::string::npos);
}

TEST(Commands, NewSessionWhenOneExists)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return EEXIST; };
	EXPECT_EQ(h.run({"new_session", "x"}), 1);
	EXPECT_NE(h.err.str().find("a session exists already"), std::string::npos);
}

TEST(Commands, NewSessionBadArguments)
{
	Harness h;
	EXPECT_EQ(h.run({"new_session", "--timeout"}), 2);
	EXPECT_EQ(h.run({"new_session", "--timeout", "ten", "x"}), 2);
	EXPECT_EQ(h.run({"new_session", "--bogus", "x"}), 2);
	EXPECT_EQ(h.run({"new_session", std::string(32, 'n')}), 2);
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Commands, NoSessionMessage)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return ESRCH; };
	EXPECT_EQ(h.run({"show_session"}), 1);
	EXPECT_EQ(h.err.str(), "lst: no session (run lst new_session first)\n");
}

TEST(Commands, ModuleNotLoaded)
{
	Harness h;
	h.kernel.loaded = false;
	h.kernel.answer = [](std::span<std::byte>) { return EINVAL; };
	EXPECT_EQ(h.run({"end_session"}), 1);
	EXPECT_EQ(h.err.str(), "lst: the lnet_selftest module is not loaded\n");
}

TEST(Commands, NoDevLnet)
{
	DevLnet kernel("/nonexistent/lnet");
	std::ostringstream out, err;
	Env env{kernel, out, err};
	std::vector<std::string> args{"end_session"};

	try {
		run(env, args);
		FAIL() << "no error";
	} catch (const lnet::DevLnetError &e) {
		EXPECT_NE(std::string(e.what()).find("is lnet.ko loaded?"), std::string::npos);
	}
}

TEST(Commands, KeyMismatchAndPermission)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return EPERM; };
	EXPECT_EQ(h.run({"end_session"}), 1);
	EXPECT_NE(h.err.str().find("LST_SESSION"), std::string::npos);
	Harness h2;
	h2.kernel.answer = [](std::span<std::byte>) { return EACCES; };
	EXPECT_EQ(h2.run({"end_session"}), 1);
	EXPECT_NE(h2.err.str().find("root"), std::string::npos);
}

TEST(Commands, EndSession)
{
	Harness h;
	EXPECT_EQ(h.run({"end_session"}), 0);
	EXPECT_EQ(h.kernel.opc(0), (unsigned)LSTIO_SESSION_END);
	EXPECT_EQ(h.out.str(), "session is ended\n");
	EXPECT_EQ(h.run({"end_session", "extra"}), 2);
}

TEST(Commands, ShowSession)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		auto *s = reinterpret_cast<lstio_session_info *>(b.data());
		s->si_sid_nid = nid_a;
		s->si_sid_stamp = 1234;
		s->si_key = 7;
		s->si_features = 1;
		s->si_timeout = 300;
		s->si_ngroups = 2;
		s->si_nbatches = 1;
		s->si_nnodes = 3;
		set_name(s->si_name, "demo");
		return 0;
	};
	EXPECT_EQ(h.run({"show_session"}), 0);
	EXPECT_EQ(h.out.str(), "demo ID: 12345-192.0.2.1@tcp/1234 KEY: 7 FEATURES: 1 TIMEOUT: 300 "
			       "GROUPS: 2 BATCHES: 1 NODES: 3\n");
}

TEST(Commands, AddGroupSendsExpandedNids)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		put_records(b, sizeof(lstio_group) + 2 * 8,
			    std::vector<lstio_node_rpc>{node(nid_a), node(nid_b)});
		return 0;
	};
	EXPECT_EQ(h.run({"add_group", "servers", "192.0.2.[1-2]@tcp"}), 0);
	const auto &raw = h.kernel.calls.at(0);
	auto g = h.kernel.call_as<lstio_group>(0);
	EXPECT_EQ(g.gn_hdr.lh_opc, (unsigned)LSTIO_GROUP_ADD);
	EXPECT_EQ(g.gn_nnids, 2u);
	EXPECT_EQ(get_name(g.gn_name), "servers");
	__u64 n[2];
	std::memcpy(n, raw.data() + 80, sizeof(n));
	EXPECT_EQ(n[0], nid_a);
	EXPECT_EQ(n[1], nid_b);
	EXPECT_GE(g.gn_hdr.lh_nres_max, 2u);
	EXPECT_EQ(raw.size(), g.gn_hdr.lh_ioc.ioc_len);
	EXPECT_TRUE(h.err.str().empty());
}

TEST(Commands, AddGroupReportsNodesNotActive)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		auto busy = node(nid_b, LST_NODE_BUSY, 0, EBUSY);
		set_name(busy.nr_name, "other");
		put_records(b, sizeof(lstio_group) + 3 * 8,
			    std::vector<lstio_node_rpc>{node(nid_a), busy,
							node(nid_b + 1, LST_NODE_DOWN, -ETIMEDOUT)});
		return 0;
	};
	EXPECT_EQ(h.run({"add_group", "g", "192.0.2.[1-3]@tcp"}), 1);
	EXPECT_NE(h.err.str().find("12345-192.0.2.2@tcp: Busy (session other)"), std::string::npos)
		<< h.err.str();
	EXPECT_NE(h.err.str().find("12345-192.0.2.3@tcp: Down (Connection timed out)"), std::string::npos)
		<< h.err.str();
	EXPECT_NE(h.err.str().find("Group g created, 2 of 3 nodes not active"), std::string::npos);
}

TEST(Commands, AddGroupUsage)
{
	Harness h;
	EXPECT_EQ(h.run({"add_group", "g"}), 2);
	EXPECT_EQ(h.run({"add_group", "a@b", "192.0.2.1@tcp"}), 2);
	EXPECT_EQ(h.run({"add_group", "g", "192.0.2.[9-1]@tcp"}), 2);
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Commands, DelGroupInUse)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return EBUSY; };
	EXPECT_EQ(h.run({"del_group", "servers"}), 1);
	EXPECT_NE(h.err.str().find("group servers is used by a test"), std::string::npos);
}

TEST(Commands, ListGroupsUntilEnoent)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		auto *l = reinterpret_cast<lstio_group_list *>(b.data());
		if (l->gl_index >= 2)
			return ENOENT;
		set_name(l->gl_name, l->gl_index ? "servers" : "clients");
		return 0;
	};
	EXPECT_EQ(h.run({"list_group"}), 0);
	EXPECT_EQ(h.out.str(), "1) clients\n2) servers\nTotal 2 groups\n");
}

TEST(Commands, ListOneGroupWithStates)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		put_records(b, sizeof(lstio_group),
			    std::vector<lstio_node_rpc>{node(nid_a), node(nid_b, LST_NODE_DOWN)});
		return 0;
	};
	EXPECT_EQ(h.run({"list_group", "g", "--down"}), 0);
	EXPECT_EQ(h.kernel.opc(0), (unsigned)LSTIO_GROUP_INFO);
	EXPECT_NE(h.out.str().find("1\t0\t1\t0\t2\n"), std::string::npos) << h.out.str();
	EXPECT_NE(h.out.str().find("12345-192.0.2.2@tcp\tDown"), std::string::npos);
	EXPECT_EQ(h.out.str().find("192.0.2.1@tcp"), std::string::npos);
}

TEST(Commands, AddBatchExists)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return EEXIST; };
	EXPECT_EQ(h.run({"add_batch", "b"}), 1);
	EXPECT_NE(h.err.str().find("batch b already exists"), std::string::npos);
	EXPECT_EQ(h.run({"add_batch"}), 2);
}

TEST(Commands, AddTestBrwPacksEveryField)
{
	Harness h;
	EXPECT_EQ(h.run({"add_test", "--batch", "bulk", "--loop", "100", "--concurrency", "8",
			 "--distribute", "1:2", "--stop-on-error", "--from", "c", "--to", "s", "brw",
			 "write", "size=1M", "check=full", "off=8"}),
		  0);
	auto t = h.kernel.call_as<lstio_test>(0);
	EXPECT_EQ(t.lt_hdr.lh_opc, (unsigned)LSTIO_TEST_ADD);
	EXPECT_EQ(get_name(t.lt_batch), "bulk");
	EXPECT_EQ(get_name(t.lt_from), "c");
	EXPECT_EQ(get_name(t.lt_to), "s");
	EXPECT_EQ(t.lt_type, (unsigned)LST_TEST_BRW);
	EXPECT_EQ(t.lt_loop, 100u);
	EXPECT_EQ(t.lt_concur, 8u);
	EXPECT_EQ(t.lt_dist, 1u);
	EXPECT_EQ(t.lt_span, 2u);
	EXPECT_EQ(t.lt_stop_onerr, 1u);
	EXPECT_EQ(t.lt_brw_rw, (unsigned)LST_BRW_RW_WRITE);
	EXPECT_EQ(t.lt_brw_size, 1048576u);
	EXPECT_EQ(t.lt_brw_check, (unsigned)LST_CHECK_FULL);
	EXPECT_EQ(t.lt_brw_offset, 8u);
	EXPECT_EQ(h.out.str(), "Test was added successfully\n");
}

TEST(Commands, AddTestDefaults)
{
	Harness h;
	EXPECT_EQ(h.run({"add_test", "--from", "c", "--to", "s", "ping"}), 0);
	auto t = h.kernel.call_as<lstio_test>(0);
	EXPECT_EQ(get_name(t.lt_batch), "batch");
	EXPECT_EQ(t.lt_type, (unsigned)LST_TEST_PING);
	EXPECT_EQ(t.lt_loop, 0xffffffffu);
	EXPECT_EQ(t.lt_concur, 1u);
	EXPECT_EQ(t.lt_dist, 1u);
	EXPECT_EQ(t.lt_span, 1u);
}

TEST(Commands, AddTestBrwReadDefaults)
{
	Harness h;
	EXPECT_EQ(h.run({"add_test", "--from", "c", "--to", "s", "brw", "read"}), 0);
	auto t = h.kernel.call_as<lstio_test>(0);
	EXPECT_EQ(t.lt_brw_rw, (unsigned)LST_BRW_RW_READ);
	EXPECT_EQ(t.lt_brw_size, 4096u);
	EXPECT_EQ(t.lt_brw_check, (unsigned)LST_CHECK_NONE);
}

TEST(Commands, AddTestValidation)
{
	Harness h;
	std::vector<std::string> base{"add_test", "--from", "c", "--to", "s"};
	auto with = [&](std::vector<std::string> tail) {
		auto v = base;
		v.insert(v.end(), tail.begin(), tail.end());
		return h.run(v);
	};
	EXPECT_EQ(with({"brw", "write", "size=2M"}), 2);
	EXPECT_NE(h.err.str().find("size must be"), std::string::npos);
	EXPECT_EQ(with({"brw", "write", "size=0"}), 2);
	EXPECT_EQ(with({"brw", "write", "check=most"}), 2);
	EXPECT_EQ(with({"brw", "write", "off=4"}), 2);
	EXPECT_EQ(with({"brw", "write", "off=4096"}), 2);
	EXPECT_EQ(with({"brw"}), 2);
	EXPECT_EQ(with({"brw", "sideways"}), 2);
	EXPECT_EQ(with({"dance"}), 2);
	EXPECT_EQ(with({"ping", "size=1"}), 2);
	EXPECT_EQ(h.run({"add_test", "--concurrency", "0", "--from", "c", "--to", "s", "ping"}), 2);
	EXPECT_EQ(h.run({"add_test", "--concurrency", "1025", "--from", "c", "--to", "s", "ping"}), 2);
	EXPECT_EQ(h.run({"add_test", "--loop", "0", "--from", "c", "--to", "s", "ping"}), 2);
	EXPECT_EQ(h.run({"add_test", "--distribute", "1", "--from", "c", "--to", "s", "ping"}), 2);
	EXPECT_EQ(h.run({"add_test", "--to", "s", "ping"}), 2);
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Commands, AddTestToRunningBatch)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return EBUSY; };
	EXPECT_EQ(h.run({"add_test", "--batch", "b", "--from", "c", "--to", "s", "ping"}), 1);
	EXPECT_NE(h.err.str().find("batch b is running"), std::string::npos);
}

TEST(Commands, AddTestMissingBatch)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return ENOENT; };
	EXPECT_EQ(h.run({"add_test", "--batch", "nosuch", "--from", "c", "--to", "s", "ping"}), 1);
	EXPECT_NE(h.err.str().find("not found"), std::string::npos);
}

TEST(Commands, RunAndStop)
{
	Harness h;
	EXPECT_EQ(h.run({"run", "bulk"}), 0);
	EXPECT_EQ(h.out.str(), "bulk is running now\n");
	EXPECT_EQ(h.kernel.opc(0), (unsigned)LSTIO_BATCH_START);
	EXPECT_EQ(h.run({"stop", "--force"}), 0);
	auto b = h.kernel.call_as<lstio_batch>(1);
	EXPECT_EQ(b.ba_hdr.lh_opc, (unsigned)LSTIO_BATCH_STOP);
	EXPECT_EQ(get_name(b.ba_name), "batch");
	EXPECT_EQ(b.ba_arg, 1u);
	EXPECT_EQ(h.run({"run", "--force", "b"}), 2);
}

TEST(Commands, RunReportsNodesThatFailed)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		put_records(b, sizeof(lstio_batch),
			    std::vector<lstio_node_rpc>{node(nid_a, LST_NODE_DOWN, -EHOSTUNREACH)});
		return 0;
	};
	EXPECT_EQ(h.run({"run", "b"}), 1);
	EXPECT_NE(h.err.str().find("12345-192.0.2.1@tcp: Down (No route to host)"), std::string::npos)
		<< h.err.str();
}

TEST(Commands, QueryRunningAndIdle)
{
	Harness h;
	std::uint32_t active = 3;
	h.kernel.answer = [&active](std::span<std::byte> b) {
		auto r = node(nid_a);
		r.nr_u32[0] = active;
		put_records(b, sizeof(lstio_batch), std::vector<lstio_node_rpc>{r, node(nid_b)});
		return 0;
	};
	EXPECT_EQ(h.run({"query", "b", "--test", "2"}), 0);
	EXPECT_EQ(h.out.str(), "Batch is running (1 of 2 nodes active)\n");
	EXPECT_EQ(h.kernel.call_as<lstio_batch>(0).ba_test, 2u);
	active = 0;
	h.out.str("");
	EXPECT_EQ(h.run({"query", "b", "--all"}), 0);
	EXPECT_NE(h.out.str().find("Batch is idle (2 nodes)"), std::string::npos);
	EXPECT_NE(h.out.str().find("192.0.2.2@tcp\tIdle"), std::string::npos);
}

TEST(Commands, QueryLoops)
{
	Harness h;
	EXPECT_EQ(h.run({"query", "b", "--loop", "3", "--delay", "1"}), 0);
	EXPECT_EQ(h.kernel.calls.size(), 3u);
}

TEST(Commands, QueryUnknownWhenANodeIsDown)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		put_records(b, sizeof(lstio_batch),
			    std::vector<lstio_node_rpc>{node(nid_a, LST_NODE_DOWN, -ETIMEDOUT)});
		return 0;
	};
	EXPECT_EQ(h.run({"query", "b"}), 0);
	EXPECT_NE(h.out.str().find("unknown"), std::string::npos);
	EXPECT_EQ(h.out.str().find("idle"), std::string::npos);
}

// A kernel answering STAT_QUERY with counters that grow by @step per call.
static void stat_kernel(Harness &h, std::uint32_t nodes)
{
	h.kernel.answer = [nodes, n = 0u](std::span<std::byte> b) mutable {
		auto &g = *reinterpret_cast<lstio_group *>(b.data());
		std::vector<lstio_node_stat> recs;
		for (std::uint32_t i = 0; i < nodes; i++) {
			lstio_node_stat s{};
			s.ns_rpc = node(nid_a + i);
			s.ns_running_ms = 1000 * n;
			s.ns_send_count = 100 * n;
			s.ns_recv_count = 50 * n;
			s.ns_send_length = (std::uint64_t)n << 20;
			recs.push_back(s);
		}
		n++;
		put_records(b, sizeof(lstio_group) + g.gn_nnids * 8, recs);
		return 0;
	};
}

TEST(Commands, StatTable)
{
	Harness h;
	stat_kernel(h, 1);
	EXPECT_EQ(h.run({"stat", "--count", "2", "--delay", "1", "servers"}), 0);
	EXPECT_EQ(h.kernel.calls.size(), 3u);
	EXPECT_EQ(h.kernel.opc(0), (unsigned)LSTIO_STAT_QUERY);
	EXPECT_EQ(get_name(h.kernel.call_as<lstio_group>(0).gn_name), "servers");
	auto o = h.out.str();
	EXPECT_NE(o.find("[LNet Rates of servers]\n[R] Avg: 50 "), std::string::npos) << o;
	EXPECT_NE(o.find("[W] Avg: 100 "), std::string::npos) << o;
	EXPECT_NE(o.find("[W] Avg: 1.00     MiB/s"), std::string::npos) << o;
}

TEST(Commands, StatCsvAndNids)
{
	Harness h;
	stat_kernel(h, 2);
	EXPECT_EQ(h.run({"stat", "--csv", "--count", "1", "192.0.2.[1-2]@tcp"}), 0);
	auto g = h.kernel.call_as<lstio_group>(0);
	EXPECT_EQ(g.gn_nnids, 2u);
	EXPECT_EQ(get_name(g.gn_name), "");
	auto o = h.out.str();
	EXPECT_EQ(o.rfind(csv_header() + "\n", 0), 0u);
	EXPECT_NE(o.find("\n1,192.0.2.[1-2]@tcp,2,2,50,50,50,100,100,100,"), std::string::npos) << o;
}

TEST(Commands, StatJsonAndBwOnly)
{
	Harness h;
	stat_kernel(h, 1);
	EXPECT_EQ(h.run({"stat", "--json", "--count", "1", "g"}), 0);
	EXPECT_NE(h.out.str().find("{\"sample\":1,\"target\":\"g\""), std::string::npos);
	Harness h2;
	stat_kernel(h2, 1);
	EXPECT_EQ(h2.run({"stat", "--bw", "--count", "1", "g"}), 0);
	EXPECT_EQ(h2.out.str().find("Rates"), std::string::npos);
}

TEST(Commands, StatUsage)
{
	Harness h;
	EXPECT_EQ(h.run({"stat"}), 2);
	EXPECT_EQ(h.run({"stat", "--json", "--csv", "g"}), 2);
	EXPECT_EQ(h.run({"stat", "--delay", "0", "g"}), 2);
	EXPECT_TRUE(h.kernel.calls.empty());
}

TEST(Commands, StatStopsWhenInterrupted)
{
	Harness h;
	stat_kernel(h, 1);
	h.env.sleep_ms = [](unsigned) { return false; };
	EXPECT_EQ(h.run({"stat", "g"}), 0);
	EXPECT_EQ(h.kernel.calls.size(), 1u);
}

TEST(Commands, StatUnknownGroup)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte>) { return ENOENT; };
	EXPECT_EQ(h.run({"stat", "--count", "1", "nosuch"}), 1);
	EXPECT_NE(h.err.str().find("group nosuch not found"), std::string::npos);
}

TEST(Commands, ShowError)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		lstio_node_stat good{}, bad{};
		good.ns_rpc = node(nid_a);
		bad.ns_rpc = node(nid_b);
		bad.ns_brw_errors = 2;
		bad.ns_rpcs_expired = 1;
		put_records(b, sizeof(lstio_group), std::vector<lstio_node_stat>{good, bad});
		return 0;
	};
	EXPECT_EQ(h.run({"show_error", "servers"}), 1);
	EXPECT_EQ(h.out.str(), "12345-192.0.2.2@tcp: [Session: 2 brw errors, 0 ping errors] "
			       "[RPC: 0 errors, 0 dropped, 1 expired]\nTotal 1 error nodes in servers\n");
}

TEST(Commands, ShowErrorClean)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		lstio_node_stat good{};
		good.ns_rpc = node(nid_a);
		good.ns_rpcs_dropped = 3;
		put_records(b, sizeof(lstio_group), std::vector<lstio_node_stat>{good});
		return 0;
	};
	EXPECT_EQ(h.run({"show_error", "--session", "g"}), 0);
	EXPECT_EQ(h.out.str(), "Total 0 error nodes in g\n");
}

TEST(Commands, Ping)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		auto a = node(nid_a);
		set_name(a.nr_name, "demo");
		a.nr_u32[0] = 100;
		put_records(b, sizeof(lstio_group),
			    std::vector<lstio_node_rpc>{a, node(nid_b, LST_NODE_UNKNOWN)});
		return 0;
	};
	EXPECT_EQ(h.run({"ping", "servers"}), 1);
	EXPECT_EQ(h.kernel.opc(0), (unsigned)LSTIO_DEBUG);
	EXPECT_EQ(h.out.str(), "12345-192.0.2.1@tcp\tActive\t[session: demo timeout: 100]\n"
			       "12345-192.0.2.2@tcp\tUnknown\n");
}

TEST(Commands, PingNodes)
{
	Harness h;
	EXPECT_EQ(h.run({"ping", "--nodes", "192.0.2.1@tcp", "192.0.2.2@tcp"}), 0);
	EXPECT_EQ(h.kernel.call_as<lstio_group>(0).gn_nnids, 2u);
	EXPECT_EQ(h.run({"ping"}), 2);
	EXPECT_EQ(h.run({"ping", "a", "b"}), 2);
}

TEST(Commands, ListBatches)
{
	Harness h;
	h.kernel.answer = [](std::span<std::byte> b) {
		auto *l = reinterpret_cast<lstio_batch *>(b.data());
		if (l->ba_index >= 2)
			return ENOENT;
		set_name(l->ba_name, l->ba_index ? "read" : "write");
		l->ba_ntests = 2;
		l->ba_running = l->ba_index;
		return 0;
	};
	EXPECT_EQ(h.run({"list_batch"}), 0);
	EXPECT_EQ(h.out.str(), "1) write\n2) read\nTotal 2 batches\n");
	h.out.str("");
	EXPECT_EQ(h.run({"list_batch", "read"}), 0);
	EXPECT_EQ(h.out.str(), "read: 2 tests, started\n");
	EXPECT_EQ(h.run({"list_batch", "nosuch"}), 1);
	EXPECT_NE(h.err.str().find("batch nosuch not found"), std::string::npos);
}
