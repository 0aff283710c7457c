// SPDX-License-Identifier: GPL-2.0
//
// NID arguments: plain NIDs and ranges in the address ("10.0.0.[1-4,7]@tcp").
#include <charconv>
#include <string>

#include <lnet/nid.hpp>

#include "lst.hpp"

namespace lst {
namespace {

// "[1-3,7]" -> {1,2,3,7}; "12" -> {12}. Empty on a syntax error.
std::vector<std::string> expand_field(std::string_view f, std::string &error)
{
	std::vector<std::string> out;

	if (f.empty() || f.front() != '[') {
		if (f.find_first_of("[]") != std::string_view::npos)
			error = "bad range '" + std::string(f) + "'";
		else
			out.emplace_back(f);
		return out;
	}
	if (f.size() < 3 || f.back() != ']') {
		error = "bad range '" + std::string(f) + "'";
		return {};
	}
	std::string_view list = f.substr(1, f.size() - 2);
	while (!list.empty()) {
		auto comma = list.find(',');
		std::string_view item = list.substr(0, comma);
		list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
		auto dash = item.find('-');
		std::string_view lo_s = item.substr(0, dash);
		std::string_view hi_s = dash == std::string_view::npos ? lo_s : item.substr(dash + 1);
		unsigned long lo = 0, hi = 0;
		auto r1 = std::from_chars(lo_s.data(), lo_s.data() + lo_s.size(), lo);
		auto r2 = std::from_chars(hi_s.data(), hi_s.data() + hi_s.size(), hi);
		if (lo_s.empty() || hi_s.empty() || r1.ec != std::errc() ||
		    r2.ec != std::errc() || r1.ptr != lo_s.data() + lo_s.size() ||
		    r2.ptr != hi_s.data() + hi_s.size() || lo > hi) {
			error = "bad range '" + std::string(f) + "'";
			return {};
		}
		if (hi - lo >= LST_MAX_NODES) {
			error = "range '" + std::string(f) + "' has more than " +
				std::to_string(LST_MAX_NODES) + " nodes";
			return {};
		}
		for (unsigned long v = lo; v <= hi; v++)
			out.push_back(std::to_string(v));
	}
	return out;
}

}  // namespace

NidList expand_nids(std::span<const std::string> args)
{
	NidList res;

	for (const std::string &arg : args) {
		auto at = arg.rfind('@');
		std::string_view addr(arg.data(), at == std::string::npos ? arg.size() : at);
		std::string_view suffix = at == std::string::npos ? "" : std::string_view(arg).substr(at);
		std::vector<std::string> partial{""};

		for (std::size_t pos = 0;;) {
			auto dot = addr.find('.', pos);
			auto field = addr.substr(pos, dot == std::string_view::npos ? addr.npos : dot - pos);
			auto values = expand_field(field, res.error);
			if (!res.error.empty())
				return {{}, res.error + " in '" + arg + "'"};
			std::vector<std::string> next;
			for (const auto &p : partial)
				for (const auto &v : values) {
					next.push_back(p + (pos ? "." : "") + v);
					if (next.size() > LST_MAX_NODES)
						return {{}, "'" + arg + "' has more than " +
							std::to_string(LST_MAX_NODES) + " nodes"};
				}
			partial = std::move(next);
			if (dot == std::string_view::npos)
				break;
			pos = dot + 1;
		}
		for (const auto &p : partial) {
			auto nid = lnet::parse_nid(p + std::string(suffix));
			if (!nid || *nid == LNET_NID_ANY)
				return {{}, "invalid NID '" + p + std::string(suffix) + "'"};
			res.nids.push_back(*nid);
			if (res.nids.size() > LST_MAX_NODES)
				return {{}, "more than " + std::to_string(LST_MAX_NODES) + " nodes"};
		}
	}
	return res;
}

std::string node_name(lnet_nid_t nid, std::uint32_t pid)
{
	return lnet::process_id_to_string({nid, pid});
}

}  // namespace lst
