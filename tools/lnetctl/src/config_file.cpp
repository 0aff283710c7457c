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
constexpr std::array<std::string_view, 4> unsupported_sections = {
	"udsp", "numa", "discovery", "peer list",
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

	// Each entry of the sequence section @section ("sequence of @what").
	void entries(const YAML::Node &seq, std::string_view section,
		     std::string_view what, void (Parser::*entry)(const YAML::Node &));
	void net(const YAML::Node &item);
	void local_ni(std::uint32_t net, const std::string &net_str,
		      const YAML::Node &ni);
	bool tunables(const ErrorSite &s, const YAML::Node &m, CommonTunables &t);
	bool lnd_tunables(const ErrorSite &s, std::uint32_t net,
			  const YAML::Node &m, LndTunables &lnd);
	void ip2nets_rule(const YAML::Node &item);
	bool string_list(const ErrorSite &s, const YAML::Node &node,
			 std::string_view what, std::vector<std::string> &out);
	bool cpts(const ErrorSite &s, const YAML::Node &node,
		  std::vector<std::uint32_t> &out);
	void route(const YAML::Node &item);
	void peer(const YAML::Node &item);
	void globals(const YAML::Node &map);
	void routing(const YAML::Node &node);
	void routing_enable(const ErrorSite &s, const YAML::Node &map);
	void buffers(const YAML::Node &map);

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
					  "sections (net, ip2nets, route, global)");
		return;
	}
	for (const auto &section : root) {
		std::string key = section.first.as<std::string>("");
		const YAML::Node &value = section.second;

		if (key == "net") {
			entries(value, "net", "networks", &Parser::net);
		} else if (key == "ip2nets") {
			entries(value, "ip2nets", "rules", &Parser::ip2nets_rule);
		} else if (key == "route") {
			entries(value, "route", "routes", &Parser::route);
		} else if (key == "peer") {
			entries(value, "peer", "peers", &Parser::peer);
		} else if (key == "global") {
			globals(value);
		} else if (key == "routing") {
			routing(value);
		} else if (key == "buffers") {
			buffers(value);
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

void Parser::entries(const YAML::Node &seq, std::string_view section,
		     std::string_view what, void (Parser::*entry)(const YAML::Node &))
{
	if (seq.IsNull())
		return;
	if (!seq.IsSequence()) {
		site(section).fail(EINVAL, "'" + std::string(section) +
						   "' must be a sequence of " +
						   std::string(what));
		return;
	}
	for (const auto &item : seq)
		(this->*entry)(item);
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

	if (!string_list(s, ni["interfaces"], "network " + net_str + ": 'interfaces'",
			 interfaces))
		return;
	for (const auto &name : interfaces)
		if (!check_interface(s, name))
			return;
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
	if (!cpts(s, ni["CPT"], base.config.cpts))
		return;
	if (interfaces.empty()) {
		plan.nis.push_back(base);
		return;
	}
	for (const auto &name : interfaces) {
		plan.nis.push_back(base);
		plan.nis.back().config.interface = name;
	}
}

// A scalar, a sequence or an indexed mapping ("0: eth0") of strings: the
// shapes lnetctl export writes lists of interfaces and ranges in.
bool Parser::string_list(const ErrorSite &s, const YAML::Node &node,
			 std::string_view what, std::vector<std::string> &out)
{
	if (!node || node.IsNull())
		return true;
	if (node.IsScalar()) {
		out.push_back(node.Scalar());
		return true;
	}
	for (const auto &entry : node) {
		auto text = scalar(node.IsMap() ? entry.second : entry);

		if (!text) {
			s.fail(EINVAL, std::string(what) + ": bad entry");
			return false;
		}
		out.push_back(*text);
	}
	return true;
}

// A CPT list: a sequence of numbers or the "[0,1]" text form.
bool Parser::cpts(const ErrorSite &s, const YAML::Node &node,
		  std::vector<std::uint32_t> &out)
{
	if (!node || node.IsNull())
		return true;
	if (node.IsSequence()) {
		for (const auto &c : node) {
			auto v = integer(s, c, "CPT", 0, 65535);

			if (!v)
				return false;
			out.push_back(static_cast<std::uint32_t>(*v));
		}
		return true;
	}
	auto list = check_cpts(s, node.Scalar());

	if (list)
		out = *list;
	return list.has_value();
}

// - net-spec: tcp1
//   interfaces: {0: eth0}
//   ip-range: {0: 192.168.*.*}
//   tunables, lnd tunables, CPT: as in a 'net' entry's local NI
void Parser::ip2nets_rule(const YAML::Node &item)
{
	ErrorSite s = site("ip2nets");
	std::optional<std::string> spec;
	std::optional<std::uint32_t> net;
	PlannedIp2nets rule;

	if (!item.IsMap() || !(spec = scalar(item["net-spec"]))) {
		s.fail(EINVAL, "an 'ip2nets' rule without 'net-spec'");
		return;
	}
	if (!(net = check_net(s, *spec, false)))
		return;
	const std::string net_str = lnet::net_to_string(*net);

	rule.net = *net;
	rule.config.nid = nid_from_interface(*net);
	if (!string_list(s, item["interfaces"], "ip2nets " + net_str + ": 'interfaces'",
			 rule.interfaces) ||
	    !string_list(s, item["ip-range"], "ip2nets " + net_str + ": 'ip-range'",
			 rule.ip_ranges))
		return;
	for (const auto &name : rule.interfaces)
		if (!check_interface(s, name))
			return;
	for (const auto &range : rule.ip_ranges) {
		if (!lnet::ipv4_pattern_match(range, 0)) {
			s.fail(EINVAL, "ip2nets " + net_str + ": bad ip-range '" +
					       range + "' (a.b.c.d, each octet *, n, "
					       "n-m or [list])");
			return;
		}
	}
	if (const YAML::Node node = item["tunables"];
	    node && !tunables(s, node, rule.config.tunables))
		return;
	if (const YAML::Node node = item["lnd tunables"];
	    node && !lnd_tunables(s, *net, node, rule.config.lnd))
		return;
	if (!cpts(s, item["CPT"], rule.config.cpts))
		return;
	plan.ip2nets.push_back(std::move(rule));
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

// Lustre's export writes map_on_demand as a flag ("true"); older files and
// lnetctl's command line give a number.
bool map_on_demand(const ErrorSite &s, const YAML::Node &n, std::uint32_t &field)
{
	bool flag;

	if (!n)
		return true;
	if (n.IsScalar() && YAML::convert<bool>::decode(n, flag)) {
		field = flag;
		return true;
	}
	auto v = integer(s, n, "map_on_demand", 0, uint32_max);
	if (v)
		field = static_cast<std::uint32_t>(*v);
	return v.has_value();
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
			  map_on_demand(s, m["map_on_demand"], t.map_on_demand) &&
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

// A peer as lnetctl export writes it: "primary nid", "Multi-Rail", and
// "peer ni", a sequence of mappings with a "nid" (other keys, the state and
// statistics of a full export, are not configuration).
void Parser::peer(const YAML::Node &item)
{
	ErrorSite s = site("peer");
	std::optional<std::string> prim;
	std::vector<lnet_nid_t> nids;
	std::optional<lnet_nid_t> primary;
	bool multi_rail = true;	// peer add's default

	if (!item.IsMap() || !(prim = scalar(item["primary nid"]))) {
		s.fail(EINVAL, "a peer must be a mapping with a 'primary nid'");
		return;
	}
	if (!(primary = check_nid(s, *prim)))
		return;
	if (const YAML::Node list = item["peer ni"]; list && !list.IsNull()) {
		if (!list.IsSequence()) {
			s.fail(EINVAL, "peer " + *prim + ": 'peer ni' must be a sequence");
			return;
		}
		for (const auto &ni : list) {
			std::optional<std::string> text =
				ni.IsMap() ? scalar(ni["nid"]) : std::nullopt;
			std::optional<lnet_nid_t> nid;

			if (!text) {
				s.fail(EINVAL, "peer " + *prim + ": each 'peer ni' needs a 'nid'");
				return;
			}
			if (!(nid = check_nid(s, *text)))
				return;
			nids.push_back(*nid);
		}
	}
	if (const YAML::Node mr = item["Multi-Rail"];
	    mr && mr.IsScalar() && !YAML::convert<bool>::decode(mr, multi_rail)) {
		s.fail(EINVAL, "peer " + *prim + ": 'Multi-Rail' must be true or false");
		return;
	}
	if (auto p = check_peer_nids(s, PeerConfig{ .primary = *primary,
						    .non_mr = !multi_rail },
				     nids))
		plan.peers.push_back(std::move(*p));
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

Ip2netsChoice ip2nets_choose(const PlannedIp2nets &rule,
			     std::span<const Ipv4Interface> ifs)
{
	Ip2netsChoice c;
	auto in_range = [&](std::uint32_t addr) {
		if (rule.ip_ranges.empty())
			return true;
		return std::any_of(rule.ip_ranges.begin(), rule.ip_ranges.end(),
				   [&](const std::string &r) {
					   return lnet::ipv4_pattern_match(r, addr) == true;
				   });
	};
	auto chosen = [&](const std::string &name) {
		return std::find(c.interfaces.begin(), c.interfaces.end(), name) !=
		       c.interfaces.end();
	};

	if (!rule.interfaces.empty()) {
		for (const auto &name : rule.interfaces) {
			bool seen = false, up = false, match = false;

			for (const auto &i : ifs) {
				if (i.name != name)
					continue;
				seen = true;
				up = up || i.up;
				match = match || (i.up && in_range(i.addr));
			}
			if (!seen)
				c.error = "no interface '" + name + "' with an IPv4 address";
			else if (!up)
				c.error = "interface '" + name + "' is not up";
			else if (!match)
				c.error = "interface '" + name + "' has no address in an ip-range";
			if (!c.error.empty()) {
				c.interfaces.clear();
				return c;
			}
			if (!chosen(name))
				c.interfaces.push_back(name);
		}
		return c;
	}
	for (const auto &i : ifs) {
		if (!i.up || chosen(i.name))
			continue;
		if (rule.ip_ranges.empty()) {
			if (i.name == "lo")
				continue;
			c.interfaces.push_back(i.name);
			return c;	// the first one only
		}
		if (in_range(i.addr))
			c.interfaces.push_back(i.name);
	}
	if (c.interfaces.empty())
		c.error = rule.ip_ranges.empty() ?
				  "no interface is up" :
				  "no interface that is up has an address in an ip-range";
	return c;
}

// routing: forwarding on or off ("set routing"), applied after the
// networks (--add only). Two forms, as Lustre's lnetctl exports them:
// {enable: 0|1} (--backup), or the sequence "routing show" prints (one
// cpt[N] item per CPU partition, whose pool counters are not
// configuration, and an {enable: 0|1} item).
void Parser::routing(const YAML::Node &node)
{
	ErrorSite s = site("routing");

	if (node.IsNull())
		return;
	if (node.IsSequence()) {
		for (const auto &item : node) {
			std::string key = item.IsMap() && item.size() == 1 ?
						  item.begin()->first.as<std::string>("") :
						  "";

			if (key == "enable") {
				routing_enable(s, item);
			} else if (!key.starts_with("cpt[") || !key.ends_with("]")) {
				s.fail(EINVAL, "a 'routing' item must be 'enable' or "
					       "'cpt[N]'");
				return;
			}
		}
		return;
	}
	if (!node.IsMap()) {
		s.fail(EINVAL, "'routing' must be a mapping or a sequence");
		return;
	}
	routing_enable(s, node);
}

void Parser::routing_enable(const ErrorSite &s, const YAML::Node &map)
{
	if (!map["enable"])
		return;
	auto enable = integer(s, map["enable"], "enable", 0, 1);

	if (enable)
		plan.routing = *enable == 1;
}

// buffers: {tiny: N, small: N, large: N}: router buffer totals over all
// CPTs ("set tiny_buffers" and the others; 0 or absent: as it is), applied
// before routing is turned on, so that its pools are made at these sizes
// (--add only).
void Parser::buffers(const YAML::Node &map)
{
	ErrorSite s = site("buffers");
	static constexpr std::array<std::string_view, 3> keys = { "tiny", "small",
								   "large" };
	RouterBufferTotals totals{};
	bool any = false;

	if (map.IsNull())
		return;
	if (!map.IsMap()) {
		s.fail(EINVAL, "'buffers' must be a mapping");
		return;
	}
	for (const auto &entry : map) {
		std::string key = entry.first.as<std::string>("");

		if (std::find(keys.begin(), keys.end(), key) == keys.end())
			s.fail(EINVAL, "unknown key '" + key +
					       "' in buffers (tiny, small, large)");
	}
	for (std::size_t i = 0; i < keys.size(); i++) {
		const YAML::Node &n = map[std::string(keys[i])];

		if (!n)
			continue;
		auto v = integer(s, n, keys[i], 0, int32_max);

		if (v) {
			totals[i] = static_cast<std::int32_t>(*v);
			any = any || *v;
		}
	}
	if (any)
		plan.buffers = totals;
}

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
