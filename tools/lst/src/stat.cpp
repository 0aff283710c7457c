// SPDX-License-Identifier: GPL-2.0
//
// lst stat: rates and bandwidth over one interval, and their forms (the
// table users know, CSV, JSON lines).
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "lst.hpp"

namespace lst {
namespace {

constexpr double mib = 1024.0 * 1024.0;

struct Acc {
	bool any = false;
	MinAvgMax v;
	double sum = 0;
	unsigned n = 0;

	void add(double x)
	{
		v.min = any ? std::min(v.min, x) : x;
		v.max = any ? std::max(v.max, x) : x;
		any = true;
		sum += x;
		n++;
		v.avg = sum / n;
	}
};

bool answered(const lstio_node_stat &s)
{
	return s.ns_rpc.nr_rpc_errno == 0 && s.ns_rpc.nr_status == 0;
}

// counters are u32 and u64 that may wrap; a restart (smaller) counts 0
template <typename T> double delta(T after, T before)
{
	return after >= before ? static_cast<double>(after - before) : 0.0;
}

std::string fixed(double v, int prec)
{
	char buf[64];

	std::snprintf(buf, sizeof(buf), "%.*f", prec, v);
	return buf;
}

}  // namespace

StatSummary summarize(std::string_view target,
		      std::span<const lstio_node_stat> before,
		      std::span<const lstio_node_stat> after, double wall_ms)
{
	StatSummary s;
	Acc rr, wr, rb, wb;

	s.target = target;
	s.nodes = static_cast<unsigned>(after.size());
	for (std::size_t i = 0; i < after.size(); i++) {
		const auto &a = after[i];
		if (i >= before.size() || !answered(a) || !answered(before[i]) ||
		    a.ns_rpc.nr_nid != before[i].ns_rpc.nr_nid)
			continue;
		const auto &b = before[i];
		double ms = delta(a.ns_running_ms, b.ns_running_ms);
		if (ms <= 0)
			ms = wall_ms;
		if (ms <= 0)
			continue;
		double secs = ms / 1000.0;
		s.answered++;
		rr.add(delta(a.ns_recv_count, b.ns_recv_count) / secs);
		wr.add(delta(a.ns_send_count, b.ns_send_count) / secs);
		rb.add(delta(a.ns_recv_length, b.ns_recv_length) / mib / secs);
		wb.add(delta(a.ns_send_length, b.ns_send_length) / mib / secs);
		s.rpc_errors += static_cast<std::uint64_t>(delta(a.ns_rpc_errors, b.ns_rpc_errors));
		s.brw_errors += static_cast<std::uint64_t>(delta(a.ns_brw_errors, b.ns_brw_errors));
		s.ping_errors += static_cast<std::uint64_t>(delta(a.ns_ping_errors, b.ns_ping_errors));
	}
	s.r_rpc = rr.v;
	s.w_rpc = wr.v;
	s.r_mib = rb.v;
	s.w_mib = wb.v;
	return s;
}

void print_table(std::ostream &out, const StatSummary &s, StatShow show)
{
	auto line = [&out](const char *dir, const MinAvgMax &m, int prec, const char *unit) {
		char buf[160];
		std::snprintf(buf, sizeof(buf), "[%s] Avg: %-8s %s Min: %-8s %s Max: %-8s %s\n", dir,
			      fixed(m.avg, prec).c_str(), unit, fixed(m.min, prec).c_str(), unit,
			      fixed(m.max, prec).c_str(), unit);
		out << buf;
	};

	if (show != StatShow::bw) {
		out << "[LNet Rates of " << s.target << "]\n";
		line("R", s.r_rpc, 0, "RPC/s");
		line("W", s.w_rpc, 0, "RPC/s");
	}
	if (show != StatShow::rate) {
		out << "[LNet Bandwidth of " << s.target << "]\n";
		line("R", s.r_mib, 2, "MiB/s");
		line("W", s.w_mib, 2, "MiB/s");
	}
	if (s.answered < s.nodes)
		out << s.nodes - s.answered << " node" << (s.nodes - s.answered == 1 ? "" : "s")
		    << " did not answer\n";
}

std::string csv_header()
{
	return "sample,target,nodes,answered,r_rpc_avg,r_rpc_min,r_rpc_max,"
	       "w_rpc_avg,w_rpc_min,w_rpc_max,r_mib_avg,r_mib_min,r_mib_max,"
	       "w_mib_avg,w_mib_min,w_mib_max,rpc_errors,brw_errors,ping_errors";
}

std::string csv_row(unsigned sample, const StatSummary &s)
{
	std::string r = std::to_string(sample) + "," + s.target + "," +
			std::to_string(s.nodes) + "," + std::to_string(s.answered);
	for (const auto *m : {&s.r_rpc, &s.w_rpc})
		r += "," + fixed(m->avg, 0) + "," + fixed(m->min, 0) + "," + fixed(m->max, 0);
	for (const auto *m : {&s.r_mib, &s.w_mib})
		r += "," + fixed(m->avg, 2) + "," + fixed(m->min, 2) + "," + fixed(m->max, 2);
	r += "," + std::to_string(s.rpc_errors) + "," + std::to_string(s.brw_errors) + "," +
	     std::to_string(s.ping_errors);
	return r;
}

std::string json_row(unsigned sample, const StatSummary &s)
{
	std::string r = "{\"sample\":" + std::to_string(sample) + ",\"target\":\"";
	for (char c : s.target) {
		if (c == '"' || c == '\\')
			r += '\\';
		r += c;
	}
	r += "\",\"nodes\":" + std::to_string(s.nodes) +
	     ",\"answered\":" + std::to_string(s.answered);
	auto add = [&r](const char *name, const MinAvgMax &m, int prec) {
		r += std::string(",\"") + name + "_avg\":" + fixed(m.avg, prec);
		r += std::string(",\"") + name + "_min\":" + fixed(m.min, prec);
		r += std::string(",\"") + name + "_max\":" + fixed(m.max, prec);
	};
	add("r_rpc", s.r_rpc, 0);
	add("w_rpc", s.w_rpc, 0);
	add("r_mib", s.r_mib, 2);
	add("w_mib", s.w_mib, 2);
	r += ",\"rpc_errors\":" + std::to_string(s.rpc_errors) +
	     ",\"brw_errors\":" + std::to_string(s.brw_errors) +
	     ",\"ping_errors\":" + std::to_string(s.ping_errors) + "}";
	return r;
}

}  // namespace lst
