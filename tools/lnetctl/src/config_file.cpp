// SPDX-License-Identifier: GPL-2.0
#include "config_file.hpp"

#include <lnet/nid.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <limits>
#include <type_traits>

#include "commands/common.hpp"
#include "parse.hpp"

namespace lnetctl {
namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t uint32_max = std::numeric_limits<std::uint32_t>::max();
constexpr std::int64_t uint16_max = std::numeric_limits<std::uint16_t>::max();

// Sections of an lnetctl export that this lnetctl does not configure.
constexpr std::array<std::string_view, 7> unsupported_sections = {
	"peer", "udsp", "routing", "buffers", "numa", "discovery", "peer list",
};

// The text of a scalar node; nullopt for a missing key or a collection.
std::optional<std::string> scalar(const YAML::Node &n)
{
	if (!n || !n.IsScalar())
		return std::nullopt;
	return n.Scalar();
}

// The integer value of @n, or an error naming @what.
std::optional<std::int64_t> integer(const ErrorSite &site, const YAML::Node &n,
				    std::string_view what, std::int64_t lo,
				    std::int64_t hi)
{
	auto text = scalar(n);
	auto v = text ? parse_int(*text) : std::nullopt;

	if (!v) {
		site.fail(EINVAL, std::string(what) + ": an integer is required");
		return std::nullopt;
	}
	return check_range(site, what, *v, lo, hi);
}

class Parser {
public:
	Parser(std::string_view command, Outcome &o) : command_(command), o_(o) {}

	void document(const YAML::Node &root);

	ConfigPlan plan;

private:
	ErrorSite site(std::string_view entity) const
	{
		return ErrorSite{ command_, entity, o_ };
	}

	void nets(const YAML::Node &seq);
	void net(const YAML::Node &item);
	void local_ni(std::uint32_t net, const std::string &net_str,
		      const YAML::Node &ni);
	bool tunables(const ErrorSite &s, const YAML::Node &m, CommonTunables &t);
	bool lnd_tunables(const ErrorSite &s, std::uint32_t net,
			  const YAML::Node &m, LndTunables &lnd);
	void routes(const YAML::Node &seq);
	void route(const YAML::Node &item);
	void globals(const YAML::Node &map);

	std::string_view command_;
	Outcome &o_;
};

void Parser::document(const YAML::Node &root)
{
	if (!root.IsDefined() || root.IsNull()) {
		site("yaml").fail(EINVAL, "the file holds no configuration");
		return;
	}
	if (!root.IsMap()) {
		site("yaml").fail(EINVAL, "the file is not a YAML mapping of "
					  "sections (net, route, global)");
		return;
	}
	for (const auto &section : root) {
		std::string key = section.first.as<std::string>("");
		const YAML::Node &value = section.second;

		if (key == "net") {
			nets(value);
		} else if (key == "route") {
			routes(value);
		} else if (key == "global") {
			globals(value);
		} else if (std::find(unsupported_sections.begin(),
				     unsupported_sections.end(),
				     key) != unsupported_sections.end()) {
			if (value.IsScalar() || value.size() > 0)
				plan.unsupported.push_back(key);
		} else {
			site("yaml").fail(EINVAL, "unknown section '" + key + "'");
		}
	}
}

void Parser::nets(const YAML::Node &seq)
{
	if (seq.IsNull())
		return;
	if (!seq.IsSequence()) {
		site("net").fail(EINVAL, "'net' must be a sequence of networks");
		return;
	}
	for (const auto &item : seq)
		net(item);
}

void Parser::net(const YAML::Node &item)
{
	ErrorSite s = site("net");
	std::optional<std::string> type;
	std::optional<std::uint32_t> net;
	std::string net_str;

	if (!item.IsMap() || !(type = scalar(item["net type"]))) {
		s.fail(EINVAL, "a 'net' entry without 'net type'");
		return;
	}
	if (!(net = check_net(s, *type, true)))
		return;
	if (LNET_NETTYP(*net) == LNET_LND_LO)
		return;		// always present, never configured
	net_str = lnet::net_to_string(*net);
	const YAML::Node nis = item["local NI(s)"];
	if (!nis || nis.IsNull() || (nis.IsSequence() && nis.size() == 0)) {
		PlannedNi whole;

		whole.net = *net;
		whole.config.nid = nid_from_interface(*net);
		whole.whole_net = true;
		plan.nis.push_back(std::move(whole));
		return;
	}
	if (!nis.IsSequence()) {
		s.fail(EINVAL, "network " + net_str +
				       ": 'local NI(s)' must be a sequence");
		return;
	}
	for (const auto &ni : nis)
		local_ni(*net, net_str, ni);
}

void Parser::local_ni(std::uint32_t net, const std::string &net_str,
		      const YAML::Node &ni)
{
	ErrorSite s = site("net");
	std::vector<std::string> interfaces;
	PlannedNi base;

	if (!ni.IsMap()) {
		s.fail(EINVAL, "network " + net_str + ": a local NI must be a mapping");
		return;
	}
	base.net = net;
	base.config.nid = nid_from_interface(net);

	if (const YAML::Node node = ni["interfaces"]; node && !node.IsNull()) {
		if (node.IsScalar()) {
			interfaces.push_back(node.Scalar());
		} else {
			for (const auto &entry : node) {
				const YAML::Node v = node.IsMap() ? entry.second :
								    entry;
				auto name = scalar(v);

				if (!name) {
					s.fail(EINVAL, "network " + net_str +
						       ": bad 'interfaces' entry");
					return;
				}
				interfaces.push_back(*name);
			}
		}
		for (const auto &name : interfaces)
			if (!check_interface(s, name))
				return;
	}
	if (interfaces.empty()) {
		auto text = scalar(ni["nid"]);
		std::optional<lnet_nid_t> nid;

		if (!text) {
			s.fail(EINVAL, "network " + net_str +
				       ": a local NI needs 'interfaces' or 'nid'");
			return;
		}
		if (!(nid = check_nid(s, *text)))
			return;
		if (LNET_NIDNET(*nid) != net) {
			s.fail(EINVAL, "NID " + *text + " is not on network " + net_str);
			return;
		}
		base.config.nid = *nid;
	}
	if (const YAML::Node node = ni["tunables"];
	    node && !tunables(s, node, base.config.tunables))
		return;
	if (const YAML::Node node = ni["lnd tunables"];
	    node && !lnd_tunables(s, net, node, base.config.lnd))
		return;
	if (const YAML::Node node = ni["CPT"]; node && !node.IsNull()) {
		if (node.IsSequence()) {
			for (const auto &c : node) {
				auto v = integer(s, c, "CPT", 0, 65535);

				if (!v)
					return;
				base.config.cpts.push_back(static_cast<std::uint32_t>(*v));
			}
		} else {
			auto cpts = check_cpts(s, node.Scalar());

			if (!cpts)
				return;
			base.config.cpts = *cpts;
		}
	}
	if (interfaces.empty()) {
		plan.nis.push_back(base);
		return;
	}
	for (const auto &name : interfaces) {
		plan.nis.push_back(base);
		plan.nis.back().config.interface = name;
	}
}

bool Parser::tunables(const ErrorSite &s, const YAML::Node &m, CommonTunables &t)
{
	const struct {
		const char *key;
		std::int32_t &field;
	} keys[] = {
		{ "peer_timeout", t.peer_timeout },
		{ "peer_credits", t.peer_credits },
		{ "peer_buffer_credits", t.peer_buffer_credits },
		{ "credits", t.credits },
	};

	if (m.IsNull())
		return true;
	if (!m.IsMap()) {
		s.fail(EINVAL, "'tunables' must be a mapping");
		return false;
	}
	for (const auto &k : keys) {
		if (!m[k.key])
			continue;
		auto v = integer(s, m[k.key], k.key, -1, int32_max);
		if (!v)
			return false;
		k.field = static_cast<std::int32_t>(*v);
	}
	return true;
}

bool Parser::lnd_tunables(const ErrorSite &s, std::uint32_t net,
			  const YAML::Node &m, LndTunables &lnd)
{
	// Reads key @key into @field if present; false on a bad value.
	auto get = [&](const char *key, auto &field, std::int64_t lo,
		       std::int64_t hi) {
		if (!m[key])
			return true;
		auto v = integer(s, m[key], key, lo, hi);
		if (v)
			field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
		return v.has_value();
	};

	if (m.IsNull() || (m.IsMap() && m.size() == 0))
		return true;
	if (!m.IsMap()) {
		s.fail(EINVAL, "'lnd tunables' must be a mapping");
		return false;
	}
	if (LNET_NETTYP(net) == LNET_LND_SOCK) {
		SockTunables t;
		bool ok = get("conns_per_peer", t.conns_per_peer, 0, uint16_max) &&
			  get("timeout", t.timeout, 0, uint32_max) &&
			  get("tos", t.tos, -1, 255);

		lnd = t;
		return ok;
	}
	if (LNET_NETTYP(net) == LNET_LND_O2IB) {
		O2ibTunables t;
		bool ok = get("peercredits_hiw", t.peercredits_hiw, 0, uint32_max) &&
			  get("map_on_demand", t.map_on_demand, 0, uint32_max) &&
			  get("concurrent_sends", t.concurrent_sends, 0, uint32_max) &&
			  get("fmr_pool_size", t.fmr_pool_size, 0, uint32_max) &&
			  get("fmr_flush_trigger", t.fmr_flush_trigger, 0, uint32_max) &&
			  get("fmr_cache", t.fmr_cache, 0, uint32_max) &&
			  get("ntx", t.ntx, 0, uint16_max) &&
			  get("conns_per_peer", t.conns_per_peer, 0, uint16_max) &&
			  get("timeout", t.timeout, 0, uint32_max) &&
			  get("tos", t.tos, -1, 255);

		lnd = t;
		return ok;
	}
	return true;	// no LND tunables for other LNDs
}

void Parser::routes(const YAML::Node &seq)
{
	if (seq.IsNull())
		return;
	if (!seq.IsSequence()) {
		site("route").fail(EINVAL, "'route' must be a sequence of routes");
		return;
	}
	for (const auto &item : seq)
		route(item);
}

void Parser::route(const YAML::Node &item)
{
	ErrorSite s = site("route");
	RouteConfig r;
	std::optional<std::string> net, gw;
	std::optional<std::uint32_t> net_id;
	std::optional<lnet_nid_t> gw_nid;

	if (!item.IsMap() || !(net = scalar(item["net"])) ||
	    !(gw = scalar(item["gateway"]))) {
		s.fail(EINVAL, "a route needs 'net' and 'gateway'");
		return;
	}
	if (!(net_id = check_net(s, *net, false)) || !(gw_nid = check_nid(s, *gw)))
		return;
	r.net = *net_id;
	r.gateway = *gw_nid;
	if (item["hop"]) {
		auto hop = integer(s, item["hop"], "hop", -1, max_hop);

		if (!hop)
			return;
		if (*hop == 0) {
			s.fail(EINVAL, "hop 0 is out of range -1, 1..255");
			return;
		}
		r.hop = static_cast<std::int32_t>(*hop);
	}
	if (item["priority"]) {
		auto v = integer(s, item["priority"], "priority", 0, uint32_max);

		if (!v)
			return;
		r.priority = static_cast<std::uint32_t>(*v);
	}
	if (item["health_sensitivity"]) {
		auto v = integer(s, item["health_sensitivity"], "health_sensitivity",
				 0, uint32_max);

		if (!v)
			return;
		r.sensitivity = static_cast<std::uint32_t>(*v);
	}
	plan.routes.push_back(r);
}

void Parser::globals(const YAML::Node &map)
{
	if (map.IsNull())
		return;
	if (!map.IsMap()) {
		site("global").fail(EINVAL, "'global' must be a mapping");
		return;
	}
	for (const auto &entry : map) {
		std::string key = entry.first.as<std::string>("");
		const GlobalTunable *t = find_global_tunable(key);
		ErrorSite s = site(key);
		std::optional<std::int64_t> v;

		if (!t) {
			s.fail(EINVAL, "unknown global tunable '" + key + "'");
			continue;
		}
		if (!(v = integer(s, entry.second, key, t->min, t->max)))
			continue;
		/* derived (lnd_timeout): exported for the record, as Lustre does */
		if (!t->settable)
			continue;
		plan.globals.push_back(PlannedGlobal{ t, *v });
	}
}

}  // namespace

ConfigPlan parse_config(std::string_view text, std::string_view command,
			Outcome &o)
{
	Parser p(command, o);
	YAML::Node root;

	try {
		root.reset(YAML::Load(std::string(text)));
	} catch (const YAML::Exception &e) {
		o.fail(command, "yaml", EINVAL,
		       "cannot parse the YAML: line " + std::to_string(e.mark.line + 1) +
			       ", column " + std::to_string(e.mark.column + 1) +
			       ": " + e.msg);
		return {};
	}
	try {
		p.document(root);
	} catch (const YAML::Exception &e) {
		o.fail(command, "yaml", EINVAL, std::string("malformed YAML: ") + e.what());
	}
	return std::move(p.plan);
}

}  // namespace lnetctl
