// SPDX-License-Identifier: GPL-2.0
//
// The lst verbs. Each declares its command line to CLI11, sends one or more
// LNET_IOC_LNETST commands and prints what users expect from Lustre's lst.
#include <algorithm>
#include <charconv>
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>

#include "lst.hpp"

namespace lst {
namespace {

constexpr int exit_ok = 0, exit_fail = 1, exit_usage = 2;

// ---- command lines ----------------------------------------------------------

// Numbers are decimal: no hex, and no octal for a leading 0 either (CLI11
// reads C literals), so the zeros go before CLI11 converts the text.
const CLI::Validator decimal(
	[](std::string &text) -> std::string {
		const std::size_t sign = text.starts_with('-') ? 1 : 0;

		if (text.size() == sign ||
		    text.find_first_not_of("0123456789", sign) != std::string::npos)
			return "not a decimal number: '" + text + "'";
		const auto first = text.find_first_not_of('0', sign);
		text.erase(sign, (first == std::string::npos ? text.size() - 1 : first) - sign);
		return {};
	},
	"");

// For counts that cannot be 0.
const CLI::Validator positive(
	[](std::string &text) -> std::string {
		return text == "0" ? "must be 1 or more" : "";
	},
	"");

// Prints @syntax after @prefix, its later lines lined up under the first.
void print_syntax(std::ostream &out, std::string_view prefix, std::string_view syntax)
{
	out << prefix;
	for (std::size_t nl; (nl = syntax.find('\n')) != std::string_view::npos;) {
		out << syntax.substr(0, nl) << "\n" << std::string(prefix.size(), ' ');
		syntax.remove_prefix(nl + 1);
	}
	out << syntax << "\n";
}

// One verb's command line: CLI11 fills its options, and usage errors name
// the verb and show its syntax.
class Line {
public:
	Line(Env &env, std::string_view verb, std::string_view summary, std::string_view syntax)
		: app(std::string(summary), "lst " + std::string(verb)), env_(env), syntax_(syntax)
	{
	}

	// nullopt: parsed, the verb goes on; else the exit status (--help
	// shown, or a usage error reported).
	std::optional<int> parse(std::span<const std::string> in)
	{
		// CLI11 takes the words last-first.
		std::vector<std::string> words(in.rbegin(), in.rend());

		try {
			app.parse(words);
		} catch (const CLI::CallForHelp &) {
			env_.out << app.help();
			return exit_ok;
		} catch (const CLI::ParseError &e) {
			return usage(e.what());
		}
		return std::nullopt;
	}

	int usage(std::string_view msg) const
	{
		env_.err << app.get_name() << ": " << msg << "\n";
		print_syntax(env_.err, "usage: " + app.get_name() + (syntax_.empty() ? "" : " "),
			     syntax_);
		return exit_usage;
	}

	// --timeout S, for the commands that reach nodes
	void add_timeout(std::uint32_t &timeout)
	{
		app.add_option("--timeout", timeout,
			       "seconds to wait for the nodes (3..30; 0: the default)")
			->type_name("S")
			->transform(decimal);
	}

	CLI::App app;

private:
	Env &env_;
	std::string_view syntax_;
};

std::optional<std::uint32_t> to_u32(std::string_view s)
{
	std::uint32_t v = 0;
	auto r = std::from_chars(s.data(), s.data() + s.size(), v);
	if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
		return std::nullopt;
	return v;
}

// "4096", "4k", "1M"
std::optional<std::uint32_t> to_size(std::string_view s)
{
	std::uint64_t mult = 1;
	if (!s.empty()) {
		switch (s.back()) {
		case 'k': case 'K': mult = 1024; break;
		case 'm': case 'M': mult = 1024 * 1024; break;
		}
		if (mult != 1)
			s.remove_suffix(1);
	}
	auto v = to_u32(s);
	if (!v || *v * mult > 0xffffffffULL)
		return std::nullopt;
	return static_cast<std::uint32_t>(*v * mult);
}

// ---- results -----------------------------------------------------------------

const char *state_name(std::uint32_t st)
{
	switch (st) {
	case LST_NODE_ACTIVE: return "Active";
	case LST_NODE_BUSY: return "Busy";
	case LST_NODE_DOWN: return "Down";
	}
	return "Unknown";
}

bool node_ok(const lstio_node_rpc &r)
{
	return r.nr_rpc_errno == 0 && r.nr_status == 0 && r.nr_state == LST_NODE_ACTIVE;
}

std::string node_problem(const lstio_node_rpc &r)
{
	std::string name = get_name(r.nr_name);

	if (r.nr_rpc_errno)
		return std::string("Down (") + errno_text(-r.nr_rpc_errno) + ")";
	if (r.nr_state == LST_NODE_BUSY)
		return "Busy (session " + name + ")";
	if (r.nr_status)
		return errno_text(static_cast<int>(r.nr_status));
	return state_name(r.nr_state);
}

// One line per node that is not fine; the number of them.
unsigned print_problems(Env &env, const std::vector<lstio_node_rpc> &recs)
{
	unsigned bad = 0;

	for (const auto &r : recs) {
		if (node_ok(r))
			continue;
		bad++;
		env.err << node_name(r.nr_nid, r.nr_pid) << ": " << node_problem(r) << "\n";
	}
	return bad;
}

int fail(Env &env, int err, std::string_view what = {})
{
	std::string msg;

	switch (err) {
	case ESRCH:
		msg = "no session (run lst new_session first)";
		break;
	case EPERM:
		msg = "session key mismatch: set LST_SESSION to the session's key";
		break;
	case EACCES:
		msg = "permission denied: lst needs root (CAP_NET_ADMIN)";
		break;
	case EINVAL:
		msg = env.kernel.selftest_loaded() ? "invalid argument" :
		      "the lnet_selftest module is not loaded";
		break;
	default:
		msg = errno_text(err);
	}
	if (!what.empty() && err != ESRCH && err != EPERM &&
	    err != EACCES && !(err == EINVAL && !env.kernel.selftest_loaded()))
		msg = std::string(what) + ": " + msg;
	env.err << "lst: " << msg << "\n";
	return exit_fail;
}

int call(Env &env, Request &req)
{
	req.hdr().lh_key = env.key;
	return env.kernel.lnetst(req.bytes());
}

// ---- session -------------------------------------------------------------------

int cmd_new_session(Env &env, Line &line, std::span<const std::string> in)
{
	std::uint32_t timeout = 0;
	bool force = false;
	std::string name = "lst-" + std::to_string(env.pid);

	line.app.add_option("--timeout", timeout,
			    "end the session after S seconds without a command (0: 300)")
		->type_name("S")
		->transform(decimal);
	line.app.add_flag("--force", force, "end an existing session first");
	line.app.add_option("name", name, "the session's name (default lst-PID)");
	if (auto rc = line.parse(in))
		return *rc;
	if (name.empty() || name.size() >= LST_NAME_SIZE)
		return line.usage("session name must be 1 to 31 characters");

	Request req(LSTIO_SESSION_NEW, sizeof(lstio_session_new), 0, 0, 0);
	auto &s = req.as<lstio_session_new>();
	s.sn_timeout = timeout;
	s.sn_force = force;
	set_name(s.sn_name, name);
	if (int rc = call(env, req))
		return rc == EEXIST ? fail(env, rc, "a session exists already (end_session, or --force)")
				    : fail(env, rc, "new_session");
	env.out << "SESSION: " << name << " FEATURES: " << 1
		<< " TIMEOUT: " << (timeout ? timeout : LST_DEFAULT_TIMEOUT)
		<< " FORCE: " << (force ? "Yes" : "No") << "\n";
	return exit_ok;
}

int cmd_end_session(Env &env, Line &line, std::span<const std::string> in)
{
	if (auto rc = line.parse(in))
		return *rc;
	Request req(LSTIO_SESSION_END, sizeof(lstio_hdr), 0, 0, 0);
	if (int rc = call(env, req))
		return fail(env, rc, "end_session");
	env.out << "session is ended\n";
	return exit_ok;
}

int cmd_show_session(Env &env, Line &line, std::span<const std::string> in)
{
	if (auto rc = line.parse(in))
		return *rc;
	Request req(LSTIO_SESSION_INFO, sizeof(lstio_session_info), 0, 0, 0);
	if (int rc = call(env, req))
		return fail(env, rc, "show_session");
	const auto &s = req.as<lstio_session_info>();
	env.out << get_name(s.si_name) << " ID: " << node_name(s.si_sid_nid) << "/"
		<< s.si_sid_stamp << " KEY: " << s.si_key << " FEATURES: " << s.si_features
		<< " TIMEOUT: " << s.si_timeout << " GROUPS: " << s.si_ngroups
		<< " BATCHES: " << s.si_nbatches << " NODES: " << s.si_nnodes << "\n";
	return exit_ok;
}

// ---- groups ---------------------------------------------------------------------

bool name_ok(std::string_view n)
{
	return !n.empty() && n.size() < LST_NAME_SIZE && n.find('@') == std::string_view::npos;
}

// A command on a group (by name) or on NIDs; node records of size @recsize.
Request group_request(std::uint32_t opc, std::string_view group,
		      const std::vector<lnet_nid_t> &nids, std::size_t recsize)
{
	std::size_t fixed = sizeof(lstio_group) + nids.size() * sizeof(__u64);
	std::size_t room = (LNET_IOCTL_MAX_LEN - fixed) / recsize;
	Request req(opc, sizeof(lstio_group), nids.size(), recsize,
		    static_cast<std::uint32_t>(std::min<std::size_t>(room, LST_MAX_NODES)));
	auto &g = req.as<lstio_group>();
	g.gn_nnids = static_cast<__u32>(nids.size());
	set_name(g.gn_name, group);
	auto *dst = reinterpret_cast<__u64 *>(req.bytes().data() + sizeof(lstio_group));
	std::copy(nids.begin(), nids.end(), dst);
	return req;
}

int cmd_add_group(Env &env, Line &line, std::span<const std::string> in)
{
	std::string name;
	std::vector<std::string> nids;
	std::uint32_t timeout = 0;

	line.add_timeout(timeout);
	line.app.add_option("name", name, "the group (1 to 31 characters, no '@')");
	line.app.add_option("nids", nids, "its nodes; ranges in the address: 10.0.0.[1-4]@tcp")
		->type_name("NID");
	if (auto rc = line.parse(in))
		return *rc;
	if (nids.empty())
		return line.usage("a group name and at least one NID are needed");
	if (!name_ok(name))
		return line.usage("group name must be 1 to 31 characters, no '@'");
	NidList nl = expand_nids(nids);
	if (!nl.error.empty())
		return line.usage(nl.error);
	Request req = group_request(LSTIO_GROUP_ADD, name, nl.nids, sizeof(lstio_node_rpc));
	req.hdr().lh_timeout = timeout;
	if (int rc = call(env, req))
		return fail(env, rc, "add_group " + name);
	auto recs = req.records<lstio_node_rpc>();
	unsigned bad = print_problems(env, recs);
	if (bad) {
		env.err << "Group " << name << " created, " << bad << " of " << recs.size()
			<< " nodes not active\n";
		return exit_fail;
	}
	return exit_ok;
}

int cmd_del_group(Env &env, Line &line, std::span<const std::string> in)
{
	std::string name;

	line.app.add_option("name", name, "the group")->required();
	if (auto rc = line.parse(in))
		return *rc;
	Request req = group_request(LSTIO_GROUP_DEL, name, {}, sizeof(lstio_node_rpc));
	if (int rc = call(env, req)) {
		if (rc == EBUSY)
			return fail(env, rc, "group " + name + " is used by a test");
		if (rc == ENOENT)
			return fail(env, rc, "group " + name + " not found");
		return fail(env, rc, "del_group");
	}
	return exit_ok;
}

int cmd_list_group(Env &env, Line &line, std::span<const std::string> in)
{
	std::optional<std::string> name;
	bool all = false;
	// which nodes of the group to list, by state
	bool shown[4] = {};

	line.app.add_option("name", name, "the group to show (default: list the groups)");
	line.app.add_flag("--active", shown[LST_NODE_ACTIVE], "list its active nodes");
	line.app.add_flag("--busy", shown[LST_NODE_BUSY], "list its nodes busy with another console");
	line.app.add_flag("--down", shown[LST_NODE_DOWN], "list its nodes that are down");
	line.app.add_flag("--unknown", shown[LST_NODE_UNKNOWN], "list its nodes in an unknown state");
	line.app.add_flag("--all", all, "list all its nodes");
	if (auto rc = line.parse(in))
		return *rc;
	if (!name) {
		unsigned i = 0;
		for (;; i++) {
			Request req(LSTIO_GROUP_LIST, sizeof(lstio_group_list), 0, 0, 0);
			req.as<lstio_group_list>().gl_index = i;
			int rc = call(env, req);
			if (rc == ENOENT)
				break;
			if (rc)
				return fail(env, rc, "list_group");
			env.out << i + 1 << ") " << get_name(req.as<lstio_group_list>().gl_name) << "\n";
		}
		env.out << "Total " << i << " groups\n";
		return exit_ok;
	}
	Request req = group_request(LSTIO_GROUP_INFO, *name, {}, sizeof(lstio_node_rpc));
	if (int rc = call(env, req))
		return rc == ENOENT ? fail(env, rc, "group " + *name + " not found")
				    : fail(env, rc, "list_group");
	auto recs = req.records<lstio_node_rpc>();
	unsigned count[4] = {};
	for (const auto &r : recs)
		count[r.nr_state < 4 ? r.nr_state : 0]++;
	env.out << "ACTIVE\tBUSY\tDOWN\tUNKNOWN\tTOTAL\n"
		<< count[LST_NODE_ACTIVE] << "\t" << count[LST_NODE_BUSY] << "\t"
		<< count[LST_NODE_DOWN] << "\t" << count[LST_NODE_UNKNOWN] << "\t" << recs.size() << "\n";
	for (const auto &r : recs) {
		if (all || (r.nr_state < 4 && shown[r.nr_state]))
			env.out << "\t" << node_name(r.nr_nid, r.nr_pid) << "\t" << state_name(r.nr_state) << "\n";
	}
	return exit_ok;
}

// ---- batches and tests ----------------------------------------------------------

int batch_call(Env &env, std::uint32_t opc, const std::string &name, std::uint32_t arg,
	       std::uint32_t test, std::uint32_t timeout, std::vector<lstio_node_rpc> &recs)
{
	Request req(opc, sizeof(lstio_batch), 0, sizeof(lstio_node_rpc), LST_MAX_NODES);
	auto &b = req.as<lstio_batch>();
	set_name(b.ba_name, name);
	b.ba_arg = arg;
	b.ba_test = test;
	req.hdr().lh_timeout = timeout;
	int rc = call(env, req);
	if (!rc)
		recs = req.records<lstio_node_rpc>();
	return rc;
}

int batch_fail(Env &env, int rc, const std::string &name, std::string_view verb)
{
	if (rc == ENOENT)
		return fail(env, rc, "batch " + name + " not found");
	if (rc == EEXIST)
		return fail(env, rc, "batch " + name + " already exists");
	if (rc == EBUSY)
		return fail(env, rc, "batch " + name + " is running");
	return fail(env, rc, verb);
}

int cmd_add_batch(Env &env, Line &line, std::span<const std::string> in)
{
	std::string name;

	line.app.add_option("name", name, "the batch (1 to 31 characters)")->required();
	if (auto rc = line.parse(in))
		return *rc;
	if (!name_ok(name))
		return line.usage("batch name must be 1 to 31 characters, no '@'");
	std::vector<lstio_node_rpc> recs;
	if (int rc = batch_call(env, LSTIO_BATCH_ADD, name, 0, 0, 0, recs))
		return batch_fail(env, rc, name, "add_batch");
	return exit_ok;
}

int cmd_list_batch(Env &env, Line &line, std::span<const std::string> in)
{
	std::optional<std::string> wanted;

	line.app.add_option("name", wanted, "the batch to show (default: list the batches)");
	if (auto rc = line.parse(in))
		return *rc;
	unsigned i = 0;
	bool found = false;
	for (;; i++) {
		Request req(LSTIO_BATCH_LIST, sizeof(lstio_batch), 0, 0, 0);
		req.as<lstio_batch>().ba_index = i;
		int rc = call(env, req);
		if (rc == ENOENT)
			break;
		if (rc)
			return fail(env, rc, "list_batch");
		const auto &b = req.as<lstio_batch>();
		std::string name = get_name(b.ba_name);
		if (!wanted) {
			env.out << i + 1 << ") " << name << "\n";
		} else if (name == *wanted) {
			env.out << name << ": " << b.ba_ntests << " test" << (b.ba_ntests == 1 ? "" : "s")
				<< ", " << (b.ba_running ? "started" : "idle") << "\n";
			found = true;
		}
	}
	if (!wanted)
		env.out << "Total " << i << " batches\n";
	else if (!found)
		return fail(env, ENOENT, "batch " + *wanted + " not found");
	return exit_ok;
}

int cmd_run_stop(Env &env, Line &line, std::span<const std::string> in, bool run)
{
	std::string name = "batch";
	std::uint32_t timeout = 0;
	bool force = false;

	line.add_timeout(timeout);
	line.app.add_option("batch", name, "the batch (default \"batch\")");
	if (!run)
		line.app.add_flag("--force", force, "abort the RPCs in flight");
	if (auto rc = line.parse(in))
		return *rc;
	std::vector<lstio_node_rpc> recs;
	int rc = batch_call(env, run ? LSTIO_BATCH_START : LSTIO_BATCH_STOP, name, force, 0,
			    timeout, recs);
	if (rc)
		return batch_fail(env, rc, name, run ? "run" : "stop");
	if (print_problems(env, recs))
		return exit_fail;
	env.out << name << (run ? " is running now\n" : " is stopped now\n");
	return exit_ok;
}

int cmd_query(Env &env, Line &line, std::span<const std::string> in)
{
	std::string name = "batch";
	std::uint32_t test = 0, timeout = 0, loops = 1, delay = 1;
	bool all = false;

	line.add_timeout(timeout);
	line.app.add_option("batch", name, "the batch (default \"batch\")");
	line.app.add_option("--test", test, "only this test of the batch (1..; 0: all)")
		->type_name("N")->transform(decimal);
	line.app.add_option("--loop", loops, "ask N times")
		->type_name("N")->transform(decimal)->check(positive);
	line.app.add_option("--delay", delay, "seconds between two of them (default 1)")
		->type_name("S")->transform(decimal);
	line.app.add_flag("--all", all, "list every node, not only those that did not answer");
	if (auto rc = line.parse(in))
		return *rc;
	for (std::uint32_t i = 0; i < loops; i++) {
		if (i && env.sleep_ms && !env.sleep_ms(delay * 1000))
			break;
		std::vector<lstio_node_rpc> recs;
		int rc = batch_call(env, LSTIO_BATCH_QUERY, name, 0, test, timeout, recs);
		if (rc)
			return batch_fail(env, rc, name, "query");
		unsigned active = 0, lost = 0;
		for (const auto &r : recs) {
			if (r.nr_rpc_errno || r.nr_status)
				lost++;
			else if (r.nr_u32[0])
				active++;
		}
		if (active)
			env.out << "Batch is running (" << active << " of " << recs.size() << " nodes active)\n";
		else if (!lost)
			env.out << "Batch is idle (" << recs.size() << " nodes)\n";
		else
			env.out << "Batch state unknown (" << lost << " of " << recs.size()
				<< " nodes did not answer)\n";
		for (const auto &r : recs)
			if (all || r.nr_rpc_errno || r.nr_status)
				env.out << "\t" << node_name(r.nr_nid, r.nr_pid) << "\t"
					<< (node_ok(r) ? (r.nr_u32[0] ? "Running" : "Idle") : node_problem(r))
					<< "\n";
	}
	return exit_ok;
}

int cmd_add_test(Env &env, Line &line, std::span<const std::string> in)
{
	std::string batch = "batch", from, to, dist = "1:1";
	std::int64_t loop = -1;
	std::uint32_t concur = 1, timeout = 0;
	bool stop_on_error = false;
	std::vector<std::string> words;

	line.add_timeout(timeout);
	line.app.add_option("--batch", batch, "the batch (default \"batch\")")->type_name("B");
	line.app.add_option("--loop", loop, "RPCs per client and server (-1: until stopped)")
		->type_name("N")->transform(decimal);
	line.app.add_option("--concurrency", concur, "RPCs in flight per server, 1..1024 (default 1)")
		->type_name("N")
		->transform(decimal)
		->check(CLI::Range(1U, static_cast<unsigned>(LST_MAX_CONCUR)).description(""));
	line.app.add_option("--distribute", dist, "each S clients get D servers (default 1:1)")
		->type_name("S:D");
	line.app.add_flag("--stop-on-error", stop_on_error, "stop the test at its first error");
	line.app.add_option("--from", from, "the client group")->type_name("G")->required();
	line.app.add_option("--to", to, "the server group")->type_name("G")->required();
	line.app.add_option("test", words, "ping | brw read|write [size=N[k|M]] "
			    "[check=none|simple|full] [off=N]")->type_name("WORD");
	if (auto rc = line.parse(in))
		return *rc;
	if (words.empty())
		return line.usage("which test: ping or brw");
	if (loop == 0 || loop < -1 || loop > 0xffffffffLL)
		return line.usage("--loop must be a positive count, or -1 (until stopped)");
	auto colon = dist.find(':');
	auto d = to_u32(dist.substr(0, colon));
	auto sp = colon == std::string::npos ? std::nullopt : to_u32(dist.substr(colon + 1));
	if (!d || !sp || !*d || !*sp)
		return line.usage("--distribute needs SOURCES:SINKS, e.g. 1:1");

	// servers and clients, as many as fit in the largest ioctl buffer
	Request req(LSTIO_TEST_ADD, sizeof(lstio_test), 0, sizeof(lstio_node_rpc),
		    static_cast<std::uint32_t>(std::min<std::size_t>(
			    2 * LST_MAX_NODES,
			    (LNET_IOCTL_MAX_LEN - sizeof(lstio_test)) / sizeof(lstio_node_rpc))));
	auto &t = req.as<lstio_test>();
	set_name(t.lt_batch, batch);
	set_name(t.lt_from, from);
	set_name(t.lt_to, to);
	t.lt_loop = loop == -1 ? 0xffffffffU : static_cast<std::uint32_t>(loop);
	t.lt_concur = concur;
	t.lt_dist = *d;
	t.lt_span = *sp;
	t.lt_stop_onerr = stop_on_error;
	t.lt_brw_size = 4096;
	t.lt_brw_check = LST_CHECK_NONE;

	std::size_t p = 1;
	if (words[0] == "ping") {
		t.lt_type = LST_TEST_PING;
	} else if (words[0] == "brw") {
		t.lt_type = LST_TEST_BRW;
		if (words.size() < 2 || (words[1] != "read" && words[1] != "write"))
			return line.usage("brw needs read or write");
		t.lt_brw_rw = words[1] == "read" ? LST_BRW_RW_READ : LST_BRW_RW_WRITE;
		p = 2;
	} else {
		return line.usage("unknown test '" + words[0] + "' (ping or brw)");
	}
	for (; p < words.size(); p++) {
		const std::string &kv = words[p];
		auto eq = kv.find('=');
		std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
		if (t.lt_type == LST_TEST_BRW && k == "size") {
			auto s = to_size(v);
			if (!s || !*s || *s > (1U << 20))
				return line.usage("size must be 1 byte to 1M");
			t.lt_brw_size = *s;
		} else if (t.lt_type == LST_TEST_BRW && k == "check") {
			if (v == "none")
				t.lt_brw_check = LST_CHECK_NONE;
			else if (v == "simple")
				t.lt_brw_check = LST_CHECK_SIMPLE;
			else if (v == "full")
				t.lt_brw_check = LST_CHECK_FULL;
			else
				return line.usage("check must be none, simple or full");
		} else if (t.lt_type == LST_TEST_BRW && k == "off") {
			auto o = to_u32(v);
			if (!o || *o % 8 || *o >= 4096)
				return line.usage("off must be a multiple of 8 below 4096");
			t.lt_brw_offset = *o;
		} else {
			return line.usage("unknown test parameter '" + kv + "'");
		}
	}
	req.hdr().lh_timeout = timeout;
	if (int rc = call(env, req)) {
		if (rc == ENOENT)
			return fail(env, rc, "batch " + batch + " or group " + from + "/" +
					     to + " not found");
		return batch_fail(env, rc, batch, "add_test");
	}
	if (print_problems(env, req.records<lstio_node_rpc>())) {
		env.err << "Test " << t.lt_index << " added to " << batch << ", but not on every node\n";
		return exit_fail;
	}
	env.out << "Test was added successfully\n";
	return exit_ok;
}

// ---- stat, show_error, ping -------------------------------------------------

struct Target {
	std::string label;
	std::string group;
	std::vector<lnet_nid_t> nids;
};

std::optional<Target> parse_target(Env &env, const std::string &arg)
{
	if (arg.find('@') == std::string::npos)
		return Target{arg, arg, {}};
	std::string one[1] = {arg};
	NidList nl = expand_nids(one);
	if (!nl.error.empty()) {
		env.err << "lst: " << nl.error << "\n";
		return std::nullopt;
	}
	return Target{arg, "", nl.nids};
}

int target_call(Env &env, std::uint32_t opc, const Target &t, std::uint32_t timeout,
		std::size_t recsize, Request &out)
{
	out = group_request(opc, t.group, t.nids, recsize);
	out.hdr().lh_timeout = timeout;
	int rc = call(env, out);
	if (rc == ENOENT)
		return fail(env, rc, t.group.empty() ? "node " + t.label + " is not in any group"
						     : "group " + t.group + " not found"), rc;
	if (rc)
		fail(env, rc, t.label);
	return rc;
}

int cmd_stat(Env &env, Line &line, std::span<const std::string> in)
{
	std::vector<std::string> names;
	std::uint32_t count = 0, delay = 5, timeout = 0;
	bool bw = false, rate = false, json = false, csv = false;

	line.add_timeout(timeout);
	line.app.add_option("targets", names, "groups, or NIDs (ranges allowed)")
		->type_name("GROUP|NID");
	line.app.add_flag("--bw", bw, "bandwidth only");
	line.app.add_flag("--rate", rate, "RPC rates only");
	line.app.add_option("--count", count, "samples to show (0: until interrupted)")
		->type_name("N")->transform(decimal);
	line.app.add_option("--delay", delay, "seconds per sample (default 5)")
		->type_name("S")->transform(decimal)->check(positive);
	auto *json_flag = line.app.add_flag("--json", json, "one JSON object per target and sample");
	line.app.add_flag("--csv", csv, "CSV: a header, then a row per target and sample")
		->excludes(json_flag);
	if (auto rc = line.parse(in))
		return *rc;
	if (names.empty())
		return line.usage("a group or NID to watch is needed");
	StatShow show = bw && !rate ? StatShow::bw : rate && !bw ? StatShow::rate : StatShow::both;
	std::vector<Target> targets;
	for (const auto &p : names) {
		auto t = parse_target(env, p);
		if (!t)
			return exit_usage;
		targets.push_back(*t);
	}

	auto sample = [&](std::vector<std::vector<lstio_node_stat>> &out) {
		out.clear();
		for (const auto &t : targets) {
			Request req(0, sizeof(lstio_hdr), 0, 0, 0);
			if (target_call(env, LSTIO_STAT_QUERY, t, timeout, sizeof(lstio_node_stat), req))
				return false;
			out.push_back(req.records<lstio_node_stat>());
		}
		return true;
	};
	std::vector<std::vector<lstio_node_stat>> prev, cur;
	if (!sample(prev))
		return exit_fail;
	double t0 = env.now_ms ? env.now_ms() : 0;
	if (csv)
		env.out << csv_header() << "\n";
	for (unsigned n = 1; !count || n <= count; n++) {
		if (env.sleep_ms && !env.sleep_ms(delay * 1000))
			break;
		if (!sample(cur))
			return exit_fail;
		double t1 = env.now_ms ? env.now_ms() : t0 + delay * 1000.0;
		for (std::size_t i = 0; i < targets.size(); i++) {
			StatSummary s = summarize(targets[i].label, prev[i], cur[i], t1 - t0);
			if (csv)
				env.out << csv_row(n, s) << "\n";
			else if (json)
				env.out << json_row(n, s) << "\n";
			else
				print_table(env.out, s, show);
		}
		env.out.flush();
		prev.swap(cur);
		t0 = t1;
	}
	return exit_ok;
}

int cmd_show_error(Env &env, Line &line, std::span<const std::string> in)
{
	std::vector<std::string> names;
	std::uint32_t timeout = 0;
	bool session = false;

	line.add_timeout(timeout);
	line.app.add_option("targets", names, "groups, or NIDs (ranges allowed)")
		->type_name("GROUP|NID");
	line.app.add_flag("--session", session, "only the test errors of this session, not RPC errors");
	if (auto rc = line.parse(in))
		return *rc;
	if (names.empty())
		return line.usage("a group or NID to check is needed");
	int status = exit_ok;
	for (const auto &p : names) {
		auto t = parse_target(env, p);
		if (!t)
			return exit_usage;
		Request req(0, sizeof(lstio_hdr), 0, 0, 0);
		if (target_call(env, LSTIO_STAT_QUERY, *t, timeout,
				sizeof(lstio_node_stat), req))
			return exit_fail;
		unsigned bad = 0;
		for (const auto &s : req.records<lstio_node_stat>()) {
			const auto &r = s.ns_rpc;
			std::string who = node_name(r.nr_nid, r.nr_pid);
			if (r.nr_rpc_errno || r.nr_status) {
				env.out << who << ": " << node_problem(r) << "\n";
				bad++;
				continue;
			}
			bool rpc = !session &&
				   (s.ns_rpc_errors || s.ns_rpcs_dropped || s.ns_rpcs_expired);
			if (!s.ns_brw_errors && !s.ns_ping_errors && !rpc)
				continue;
			bad++;
			env.out << who << ": [Session: " << s.ns_brw_errors << " brw errors, "
				<< s.ns_ping_errors << " ping errors]";
			if (!session)
				env.out << " [RPC: " << s.ns_rpc_errors << " errors, " << s.ns_rpcs_dropped
					<< " dropped, " << s.ns_rpcs_expired << " expired]";
			env.out << "\n";
		}
		env.out << "Total " << bad << " error nodes in " << t->label << "\n";
		if (bad)
			status = exit_fail;
	}
	return status;
}

int cmd_ping(Env &env, Line &line, std::span<const std::string> in)
{
	std::vector<std::string> names;
	std::uint32_t timeout = 0;
	bool nodes = false;

	line.add_timeout(timeout);
	line.app.add_option("targets", names, "the group, or with --nodes the NIDs")
		->type_name("GROUP|NID");
	line.app.add_flag("--nodes", nodes, "ping NIDs (ranges allowed) instead of a group");
	if (auto rc = line.parse(in))
		return *rc;
	if (names.empty() || (!nodes && names.size() != 1))
		return line.usage(nodes ? "NIDs to ping are needed" : "one group to ping is needed");
	Target t;
	if (nodes) {
		NidList nl = expand_nids(names);
		if (!nl.error.empty())
			return line.usage(nl.error);
		t = {"nodes", "", nl.nids};
	} else {
		t = {names[0], names[0], {}};
	}
	Request req(0, sizeof(lstio_hdr), 0, 0, 0);
	if (target_call(env, LSTIO_DEBUG, t, timeout,
			sizeof(lstio_node_rpc), req))
		return exit_fail;
	int status = exit_ok;
	for (const auto &r : req.records<lstio_node_rpc>()) {
		env.out << node_name(r.nr_nid, r.nr_pid) << "\t";
		if (node_ok(r)) {
			env.out << "Active\t[session: " << get_name(r.nr_name) << " timeout: "
				<< r.nr_u32[0] << "]\n";
			continue;
		}
		status = exit_fail;
		env.out << node_problem(r) << "\n";
	}
	return status;
}

// ---- the verbs ----------------------------------------------------------------

struct Verb {
	std::string_view name;
	std::string_view summary;
	std::string_view syntax;
	int (*run)(Env &, Line &, std::span<const std::string>);
};

int cmd_run(Env &env, Line &line, std::span<const std::string> in)
{
	return cmd_run_stop(env, line, in, true);
}

int cmd_stop(Env &env, Line &line, std::span<const std::string> in)
{
	return cmd_run_stop(env, line, in, false);
}

constexpr Verb verbs[] = {
	{"new_session", "open the console session", "[--timeout S] [--force] [NAME]",
	 cmd_new_session},
	{"end_session", "end the session on the console and every node", "", cmd_end_session},
	{"show_session", "show the session", "", cmd_show_session},
	{"add_group", "add nodes to a group and join them to the session",
	 "[--timeout S] NAME NID [NID...]   (ranges: 10.0.0.[1-4]@tcp)", cmd_add_group},
	{"del_group", "delete a group no test uses", "NAME", cmd_del_group},
	{"list_group", "list the groups, or one group's nodes",
	 "[NAME] [--active|--busy|--down|--unknown|--all]", cmd_list_group},
	{"add_batch", "create a batch of tests", "NAME", cmd_add_batch},
	{"list_batch", "list the batches, or show one", "[NAME]", cmd_list_batch},
	{"add_test", "add a test to a batch",
	 "[--batch B] [--loop N] [--concurrency N] [--distribute S:D]\n"
	 "[--stop-on-error] [--timeout S] --from G --to G\n"
	 "ping | brw read|write [size=N[k|M]] [check=none|simple|full] [off=N]",
	 cmd_add_test},
	{"run", "start a batch", "[--timeout S] [BATCH]", cmd_run},
	{"stop", "stop a batch", "[--timeout S] [--force] [BATCH]", cmd_stop},
	{"query", "whether a batch's tests run",
	 "[--timeout S] [BATCH] [--test N] [--loop N] [--delay S] [--all]", cmd_query},
	{"stat", "LNet rates and bandwidth of groups or nodes",
	 "[--bw] [--rate] [--count N] [--delay S] [--json|--csv] [--timeout S]\n"
	 "GROUP|NID ...", cmd_stat},
	{"show_error", "the nodes with errors",
	 "[--session] [--timeout S] GROUP|NID ...", cmd_show_error},
	{"ping", "ping a group's nodes, or NIDs", "[--timeout S] GROUP | --nodes NID ...",
	 cmd_ping},
};

void print_help(Env &env)
{
	env.out << "usage: lst VERB [options]\n";
	for (const auto &v : verbs)
		print_syntax(env.out, "  " + std::string(v.name) + (v.syntax.empty() ? "" : " "),
			     v.syntax);
	env.out << "lst VERB --help describes a verb's options. Commands that reach\n"
		   "nodes take --timeout S (3..30). The environment variable\n"
		   "LST_SESSION is the session key.\n";
}

}  // namespace

int run(Env &env, std::span<const std::string> args)
{
	if (args.empty()) {
		print_help(env);
		return exit_usage;
	}
	if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		print_help(env);
		return exit_ok;
	}
	for (const auto &v : verbs) {
		if (v.name != args[0])
			continue;
		Line line(env, v.name, v.summary, v.syntax);

		return v.run(env, line, args.subspan(1));
	}
	env.err << "lst: unknown verb '" << args[0] << "' (lst help lists the verbs)\n";
	return exit_usage;
}

}  // namespace lst
