// SPDX-License-Identifier: GPL-2.0
//
// The lst verbs. Each parses its arguments, sends one or more
// LNET_IOC_LNETST commands and prints what users expect from Lustre's lst.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <ostream>
#include <set>

#include "lst.hpp"

namespace lst {
namespace {

constexpr int exit_ok = 0, exit_fail = 1, exit_usage = 2;

// ---- arguments --------------------------------------------------------------

struct Args {
	std::map<std::string, std::string, std::less<>> opts;
	std::vector<std::string> pos;
	std::string error;

	bool has(std::string_view k) const { return opts.find(k) != opts.end(); }
	std::string get(std::string_view k, std::string def = "") const
	{
		auto it = opts.find(k);
		return it == opts.end() ? def : it->second;
	}
};

// @valued: options taking a value; @flags: options without one. Options
// may come anywhere before the positional arguments of a test ("ping",
// "brw"), after which everything is positional.
Args parse_args(std::span<const std::string> in, std::set<std::string_view> valued,
		std::set<std::string_view> flags, bool stop_at_test = false)
{
	Args a;

	for (std::size_t i = 0; i < in.size(); i++) {
		const std::string &s = in[i];
		if (stop_at_test && (s == "ping" || s == "brw")) {
			a.pos.insert(a.pos.end(), in.begin() + static_cast<long>(i), in.end());
			break;
		}
		if (s.size() < 3 || s.rfind("--", 0) != 0) {
			a.pos.push_back(s);
			continue;
		}
		std::string name = s.substr(2), value;
		auto eq = name.find('=');
		bool inline_value = eq != std::string::npos;
		if (inline_value) {
			value = name.substr(eq + 1);
			name.resize(eq);
		}
		if (flags.count(name) && !inline_value) {
			a.opts[name] = "1";
		} else if (valued.count(name)) {
			if (!inline_value) {
				if (i + 1 >= in.size()) {
					a.error = "option --" + name + " needs a value";
					return a;
				}
				value = in[++i];
			}
			a.opts[name] = value;
		} else {
			a.error = "unknown option --" + name;
			return a;
		}
	}
	return a;
}

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

int usage(Env &env, std::string_view msg)
{
	env.err << "lst: " << msg << " (lst help lists the verbs)\n";
	return exit_usage;
}

int call(Env &env, Request &req)
{
	req.hdr().lh_key = env.key;
	return env.kernel.lnetst(req.bytes());
}

// ---- session -------------------------------------------------------------------

int cmd_new_session(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"timeout"}, {"force"});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.size() > 1)
		return usage(env, "new_session takes one name");
	std::string name = a.pos.empty() ? "lst-" + std::to_string(env.pid) : a.pos[0];
	if (name.empty() || name.size() >= LST_NAME_SIZE)
		return usage(env, "session name must be 1 to 31 characters");
	auto timeout = to_u32(a.get("timeout", "0"));
	if (!timeout)
		return usage(env, "--timeout needs a number of seconds");

	Request req(LSTIO_SESSION_NEW, sizeof(lstio_session_new), 0, 0, 0);
	auto &s = req.as<lstio_session_new>();
	s.sn_timeout = *timeout;
	s.sn_force = a.has("force");
	set_name(s.sn_name, name);
	if (int rc = call(env, req))
		return rc == EEXIST ? fail(env, rc, "a session exists already (end_session, or --force)")
				    : fail(env, rc, "new_session");
	env.out << "SESSION: " << name << " FEATURES: " << 1
		<< " TIMEOUT: " << (*timeout ? *timeout : LST_DEFAULT_TIMEOUT)
		<< " FORCE: " << (a.has("force") ? "Yes" : "No") << "\n";
	return exit_ok;
}

int cmd_end_session(Env &env, std::span<const std::string> in)
{
	if (!in.empty())
		return usage(env, "end_session takes no argument");
	Request req(LSTIO_SESSION_END, sizeof(lstio_hdr), 0, 0, 0);
	if (int rc = call(env, req))
		return fail(env, rc, "end_session");
	env.out << "session is ended\n";
	return exit_ok;
}

int cmd_show_session(Env &env, std::span<const std::string> in)
{
	if (!in.empty())
		return usage(env, "show_session takes no argument");
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

int cmd_add_group(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"timeout"}, {});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.size() < 2)
		return usage(env, "add_group NAME NID [NID...]");
	if (!name_ok(a.pos[0]))
		return usage(env, "group name must be 1 to 31 characters, no '@'");
	NidList nl = expand_nids(std::span(a.pos).subspan(1));
	if (!nl.error.empty())
		return usage(env, nl.error);
	Request req = group_request(LSTIO_GROUP_ADD, a.pos[0], nl.nids, sizeof(lstio_node_rpc));
	req.hdr().lh_timeout = to_u32(a.get("timeout", "0")).value_or(0);
	if (int rc = call(env, req))
		return fail(env, rc, "add_group " + a.pos[0]);
	auto recs = req.records<lstio_node_rpc>();
	unsigned bad = print_problems(env, recs);
	if (bad) {
		env.err << "Group " << a.pos[0] << " created, " << bad << " of " << recs.size()
			<< " nodes not active\n";
		return exit_fail;
	}
	return exit_ok;
}

int cmd_del_group(Env &env, std::span<const std::string> in)
{
	if (in.size() != 1)
		return usage(env, "del_group NAME");
	Request req = group_request(LSTIO_GROUP_DEL, in[0], {}, sizeof(lstio_node_rpc));
	if (int rc = call(env, req)) {
		if (rc == EBUSY)
			return fail(env, rc, "group " + in[0] + " is used by a test");
		if (rc == ENOENT)
			return fail(env, rc, "group " + in[0] + " not found");
		return fail(env, rc, "del_group");
	}
	return exit_ok;
}

int cmd_list_group(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {}, {"active", "busy", "down", "unknown", "all"});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.size() > 1)
		return usage(env, "list_group [NAME] [--active|--busy|--down|--unknown|--all]");
	if (a.pos.empty()) {
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
	Request req = group_request(LSTIO_GROUP_INFO, a.pos[0], {}, sizeof(lstio_node_rpc));
	if (int rc = call(env, req))
		return rc == ENOENT ? fail(env, rc, "group " + a.pos[0] + " not found")
				    : fail(env, rc, "list_group");
	auto recs = req.records<lstio_node_rpc>();
	unsigned count[4] = {};
	for (const auto &r : recs)
		count[r.nr_state < 4 ? r.nr_state : 0]++;
	env.out << "ACTIVE\tBUSY\tDOWN\tUNKNOWN\tTOTAL\n"
		<< count[LST_NODE_ACTIVE] << "\t" << count[LST_NODE_BUSY] << "\t"
		<< count[LST_NODE_DOWN] << "\t" << count[LST_NODE_UNKNOWN] << "\t" << recs.size() << "\n";
	for (const auto &r : recs) {
		bool show = a.has("all") || (a.has("active") && r.nr_state == LST_NODE_ACTIVE) ||
			    (a.has("busy") && r.nr_state == LST_NODE_BUSY) ||
			    (a.has("down") && r.nr_state == LST_NODE_DOWN) ||
			    (a.has("unknown") && r.nr_state == LST_NODE_UNKNOWN);
		if (show)
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

int cmd_add_batch(Env &env, std::span<const std::string> in)
{
	if (in.size() != 1 || !name_ok(in[0]))
		return usage(env, "add_batch NAME (1 to 31 characters)");
	std::vector<lstio_node_rpc> recs;
	if (int rc = batch_call(env, LSTIO_BATCH_ADD, in[0], 0, 0, 0, recs))
		return batch_fail(env, rc, in[0], "add_batch");
	return exit_ok;
}

int cmd_list_batch(Env &env, std::span<const std::string> in)
{
	if (in.size() > 1)
		return usage(env, "list_batch [NAME]");
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
		if (in.empty()) {
			env.out << i + 1 << ") " << name << "\n";
		} else if (name == in[0]) {
			env.out << name << ": " << b.ba_ntests << " test" << (b.ba_ntests == 1 ? "" : "s")
				<< ", " << (b.ba_running ? "started" : "idle") << "\n";
			found = true;
		}
	}
	if (in.empty())
		env.out << "Total " << i << " batches\n";
	else if (!found)
		return fail(env, ENOENT, "batch " + in[0] + " not found");
	return exit_ok;
}

int cmd_run_stop(Env &env, std::span<const std::string> in, bool run)
{
	Args a = parse_args(in, {"timeout"}, {"force"});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.size() > 1 || (run && a.has("force")))
		return usage(env, run ? "run [BATCH]" : "stop [--force] [BATCH]");
	std::string name = a.pos.empty() ? "batch" : a.pos[0];
	std::vector<lstio_node_rpc> recs;
	int rc = batch_call(env, run ? LSTIO_BATCH_START : LSTIO_BATCH_STOP, name,
			    run ? 0 : a.has("force"), 0, to_u32(a.get("timeout", "0")).value_or(0), recs);
	if (rc)
		return batch_fail(env, rc, name, run ? "run" : "stop");
	if (print_problems(env, recs))
		return exit_fail;
	env.out << name << (run ? " is running now\n" : " is stopped now\n");
	return exit_ok;
}

int cmd_query(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"test", "timeout", "loop", "delay"}, {"all"});
	if (!a.error.empty())
		return usage(env, a.error);
	auto test = to_u32(a.get("test", "0"));
	auto loops = to_u32(a.get("loop", "1"));
	auto delay = to_u32(a.get("delay", "1"));
	if (a.pos.size() > 1 || !test || !loops || !delay || !*loops)
		return usage(env, "query [BATCH] [--test N] [--loop N] [--delay S] [--all]");
	std::string name = a.pos.empty() ? "batch" : a.pos[0];
	for (std::uint32_t i = 0; i < *loops; i++) {
		if (i && env.sleep_ms && !env.sleep_ms(*delay * 1000))
			break;
		std::vector<lstio_node_rpc> recs;
		int rc = batch_call(env, LSTIO_BATCH_QUERY, name, 0, *test,
				    to_u32(a.get("timeout", "0")).value_or(0), recs);
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
			if (a.has("all") || r.nr_rpc_errno || r.nr_status)
				env.out << "\t" << node_name(r.nr_nid, r.nr_pid) << "\t"
					<< (node_ok(r) ? (r.nr_u32[0] ? "Running" : "Idle") : node_problem(r))
					<< "\n";
	}
	return exit_ok;
}

int cmd_add_test(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"batch", "loop", "concurrency", "distribute", "from", "to", "timeout"},
			    {"stop-on-error"}, true);
	if (!a.error.empty())
		return usage(env, a.error);
	// servers and clients, as many as fit in the largest ioctl buffer
	Request req(LSTIO_TEST_ADD, sizeof(lstio_test), 0, sizeof(lstio_node_rpc),
		    static_cast<std::uint32_t>(std::min<std::size_t>(
			    2 * LST_MAX_NODES,
			    (LNET_IOCTL_MAX_LEN - sizeof(lstio_test)) / sizeof(lstio_node_rpc))));
	auto &t = req.as<lstio_test>();
	std::string batch = a.get("batch", "batch");
	if (!a.has("from") || !a.has("to") || a.pos.empty())
		return usage(env, "add_test [--batch B] [--loop N] [--concurrency N] [--distribute S:D] "
				  "--from G --to G ping | brw read|write [size=N] [check=...] [off=N]");
	set_name(t.lt_batch, batch);
	set_name(t.lt_from, a.get("from"));
	set_name(t.lt_to, a.get("to"));
	std::string loop = a.get("loop", "-1");
	auto l = loop == "-1" ? std::optional<std::uint32_t>(0xffffffffU) : to_u32(loop);
	auto c = to_u32(a.get("concurrency", "1"));
	if (!l || !*l)
		return usage(env, "--loop must be a positive count, or -1 (until stopped)");
	if (!c || !*c || *c > LST_MAX_CONCUR)
		return usage(env, "--concurrency must be 1 to " + std::to_string(LST_MAX_CONCUR));
	std::string dist = a.get("distribute", "1:1");
	auto colon = dist.find(':');
	auto d = to_u32(dist.substr(0, colon));
	auto sp = colon == std::string::npos ? std::nullopt : to_u32(dist.substr(colon + 1));
	if (!d || !sp || !*d || !*sp)
		return usage(env, "--distribute needs SOURCES:SINKS, e.g. 1:1");
	t.lt_loop = *l;
	t.lt_concur = *c;
	t.lt_dist = *d;
	t.lt_span = *sp;
	t.lt_stop_onerr = a.has("stop-on-error");
	t.lt_brw_size = 4096;
	t.lt_brw_check = LST_CHECK_NONE;

	std::size_t p = 1;
	if (a.pos[0] == "ping") {
		t.lt_type = LST_TEST_PING;
	} else if (a.pos[0] == "brw") {
		t.lt_type = LST_TEST_BRW;
		if (a.pos.size() < 2 || (a.pos[1] != "read" && a.pos[1] != "write"))
			return usage(env, "brw needs read or write");
		t.lt_brw_rw = a.pos[1] == "read" ? LST_BRW_RW_READ : LST_BRW_RW_WRITE;
		p = 2;
	} else {
		return usage(env, "unknown test '" + a.pos[0] + "' (ping or brw)");
	}
	for (; p < a.pos.size(); p++) {
		const std::string &kv = a.pos[p];
		auto eq = kv.find('=');
		std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
		if (t.lt_type == LST_TEST_BRW && k == "size") {
			auto s = to_size(v);
			if (!s || !*s || *s > (1U << 20))
				return usage(env, "size must be 1 byte to 1M");
			t.lt_brw_size = *s;
		} else if (t.lt_type == LST_TEST_BRW && k == "check") {
			if (v == "none")
				t.lt_brw_check = LST_CHECK_NONE;
			else if (v == "simple")
				t.lt_brw_check = LST_CHECK_SIMPLE;
			else if (v == "full")
				t.lt_brw_check = LST_CHECK_FULL;
			else
				return usage(env, "check must be none, simple or full");
		} else if (t.lt_type == LST_TEST_BRW && k == "off") {
			auto o = to_u32(v);
			if (!o || *o % 8 || *o >= 4096)
				return usage(env, "off must be a multiple of 8 below 4096");
			t.lt_brw_offset = *o;
		} else {
			return usage(env, "unknown test parameter '" + kv + "'");
		}
	}
	req.hdr().lh_timeout = to_u32(a.get("timeout", "0")).value_or(0);
	if (int rc = call(env, req)) {
		if (rc == ENOENT)
			return fail(env, rc, "batch " + batch + " or group " + a.get("from") + "/" +
					     a.get("to") + " not found");
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

int cmd_stat(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"count", "delay", "timeout"}, {"bw", "rate", "json", "csv"});
	if (!a.error.empty())
		return usage(env, a.error);
	auto count = to_u32(a.get("count", "0"));
	auto delay = to_u32(a.get("delay", "5"));
	if (a.pos.empty() || !count || !delay || !*delay || (a.has("json") && a.has("csv")))
		return usage(env, "stat [--bw] [--rate] [--count N] [--delay S] [--json|--csv] GROUP|NID ...");
	StatShow show = a.has("bw") && !a.has("rate") ? StatShow::bw :
			a.has("rate") && !a.has("bw") ? StatShow::rate : StatShow::both;
	std::uint32_t timeout = to_u32(a.get("timeout", "0")).value_or(0);
	std::vector<Target> targets;
	for (const auto &p : a.pos) {
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
	if (a.has("csv"))
		env.out << csv_header() << "\n";
	for (unsigned n = 1; !*count || n <= *count; n++) {
		if (env.sleep_ms && !env.sleep_ms(*delay * 1000))
			break;
		if (!sample(cur))
			return exit_fail;
		double t1 = env.now_ms ? env.now_ms() : t0 + *delay * 1000.0;
		for (std::size_t i = 0; i < targets.size(); i++) {
			StatSummary s = summarize(targets[i].label, prev[i], cur[i], t1 - t0);
			if (a.has("csv"))
				env.out << csv_row(n, s) << "\n";
			else if (a.has("json"))
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

int cmd_show_error(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"timeout"}, {"session"});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.empty())
		return usage(env, "show_error [--session] GROUP|NID ...");
	int status = exit_ok;
	for (const auto &p : a.pos) {
		auto t = parse_target(env, p);
		if (!t)
			return exit_usage;
		Request req(0, sizeof(lstio_hdr), 0, 0, 0);
		if (target_call(env, LSTIO_STAT_QUERY, *t, to_u32(a.get("timeout", "0")).value_or(0),
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
			bool rpc = !a.has("session") &&
				   (s.ns_rpc_errors || s.ns_rpcs_dropped || s.ns_rpcs_expired);
			if (!s.ns_brw_errors && !s.ns_ping_errors && !rpc)
				continue;
			bad++;
			env.out << who << ": [Session: " << s.ns_brw_errors << " brw errors, "
				<< s.ns_ping_errors << " ping errors]";
			if (!a.has("session"))
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

int cmd_ping(Env &env, std::span<const std::string> in)
{
	Args a = parse_args(in, {"timeout"}, {"nodes"});
	if (!a.error.empty())
		return usage(env, a.error);
	if (a.pos.empty() || (!a.has("nodes") && a.pos.size() != 1))
		return usage(env, "ping [--timeout S] GROUP | --nodes NID ...");
	Target t;
	if (a.has("nodes")) {
		NidList nl = expand_nids(a.pos);
		if (!nl.error.empty())
			return usage(env, nl.error);
		t = {"nodes", "", nl.nids};
	} else {
		t = {a.pos[0], a.pos[0], {}};
	}
	Request req(0, sizeof(lstio_hdr), 0, 0, 0);
	if (target_call(env, LSTIO_DEBUG, t, to_u32(a.get("timeout", "0")).value_or(0),
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

int cmd_help(Env &env, std::span<const std::string>)
{
	env.out << "usage: lst VERB [options]\n"
		   "  new_session [--timeout S] [--force] [NAME]\n"
		   "  end_session | show_session\n"
		   "  add_group NAME NID [NID...]   (NIDs may hold ranges: 10.0.0.[1-4]@tcp)\n"
		   "  del_group NAME | list_group [NAME] [--active|--busy|--down|--unknown|--all]\n"
		   "  add_batch NAME | list_batch [NAME]\n"
		   "  add_test [--batch B] [--loop N] [--concurrency N] [--distribute S:D]\n"
		   "           [--stop-on-error] --from G --to G\n"
		   "           ping | brw read|write [size=N[k|M]] [check=none|simple|full] [off=N]\n"
		   "  run [B] | stop [--force] [B] | query [B] [--test N] [--loop N] [--delay S] [--all]\n"
		   "  stat [--bw] [--rate] [--count N] [--delay S] [--json|--csv] GROUP|NID ...\n"
		   "  show_error [--session] GROUP|NID ...\n"
		   "  ping [--timeout S] GROUP | --nodes NID ...\n"
		   "Commands that reach nodes take --timeout S (3..30). The environment\n"
		   "variable LST_SESSION is the session key.\n";
	return exit_ok;
}

}  // namespace

int run(Env &env, std::span<const std::string> args)
{
	static const std::map<std::string_view, int (*)(Env &, std::span<const std::string>)> verbs = {
		{"new_session", cmd_new_session}, {"end_session", cmd_end_session},
		{"show_session", cmd_show_session}, {"add_group", cmd_add_group},
		{"del_group", cmd_del_group}, {"list_group", cmd_list_group},
		{"add_batch", cmd_add_batch}, {"list_batch", cmd_list_batch},
		{"add_test", cmd_add_test},
		{"run", [](Env &e, std::span<const std::string> a) { return cmd_run_stop(e, a, true); }},
		{"stop", [](Env &e, std::span<const std::string> a) { return cmd_run_stop(e, a, false); }},
		{"query", cmd_query}, {"stat", cmd_stat}, {"show_error", cmd_show_error},
		{"ping", cmd_ping}, {"help", cmd_help}, {"--help", cmd_help}, {"-h", cmd_help},
	};

	if (args.empty()) {
		cmd_help(env, {});
		return exit_usage;
	}
	auto it = verbs.find(args[0]);
	if (it == verbs.end())
		return usage(env, "unknown verb '" + args[0] + "'");
	return it->second(env, args.subspan(1));
}

}  // namespace lst
