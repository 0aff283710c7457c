// SPDX-License-Identifier: GPL-2.0
//
// The networks= syntax, accepting and rejecting exactly what the kernel's
// lnet_parse_networks() does and with the same messages, so lnetctl can
// check a configuration before the kernel sees it.
#include <lnet/nid.hpp>

#include <algorithm>

#include "parse_util.hpp"

namespace lnet {
namespace {

class networks_parser {
public:
	explicit networks_parser(std::string_view text) : text_(text) {}

	networks_result run();

private:
	using error = std::optional<std::string>;

	// NUL never occurs inside (run() rejects it), so it marks the end.
	char peek() const noexcept
	{
		return pos_ < text_.size() ? text_[pos_] : '\0';
	}

	void skip_spaces() noexcept
	{
		while (detail::is_space(peek()))
			pos_++;
	}

	static bool is_delim(char ch) noexcept
	{
		return !ch || detail::is_space(ch) ||
		       std::string_view(",()[]").find(ch) != std::string_view::npos;
	}

	std::string_view take_name()
	{
		const std::size_t start = pos_;

		while (!is_delim(peek()))
			pos_++;
		return text_.substr(start, pos_ - start);
	}

	static error fail(std::size_t at, const std::string &what)
	{
		return "networks: " + what + " at offset " + std::to_string(at);
	}

	static std::string quoted(std::string_view s)
	{
		return "'" + std::string(s) + "'";
	}

	enum class num_status { ok, none, too_big };
	num_status take_number(std::uint32_t max, std::uint32_t &val);

	error parse_net();
	error parse_ifaces(net_config &nc);
	error parse_cpts(net_config &nc);

	std::string_view text_;
	std::size_t pos_ = 0;
	std::vector<net_config> nets_;
};

networks_parser::num_status networks_parser::take_number(std::uint32_t max,
							  std::uint32_t &val)
{
	std::size_t end = pos_;
	std::uint64_t v = 0;

	if (!detail::is_digit(peek()))
		return num_status::none;
	while (end < text_.size() && detail::is_digit(text_[end])) {
		v = v * 10 + static_cast<unsigned>(text_[end] - '0');
		if (v > max)
			return num_status::too_big;
		end++;
	}
	pos_ = end;
	val = static_cast<std::uint32_t>(v);
	return num_status::ok;
}

networks_parser::error networks_parser::parse_ifaces(net_config &nc)
{
	const std::size_t open = pos_++;

	for (;;) {
		skip_spaces();
		const std::size_t start = pos_;
		const std::string_view name = take_name();

		if (name.empty()) {
			if (!peek())
				return fail(open, "unbalanced '('");
			if (peek() == ',' || peek() == ')')
				return fail(pos_, "empty interface name");
			return fail(pos_, std::string("unexpected '") + peek() +
					  "' in interface list");
		}
		if (name.size() > max_interface_name)
			return fail(start, "interface name " + quoted(name) +
					   " longer than " +
					   std::to_string(max_interface_name) +
					   " characters");
		if (nc.interfaces.size() == max_net_interfaces)
			return fail(start, "more than " +
					   std::to_string(max_net_interfaces) +
					   " interfaces");
		if (std::find(nc.interfaces.begin(), nc.interfaces.end(), name) !=
		    nc.interfaces.end())
			return fail(start, "duplicate interface " + quoted(name));
		nc.interfaces.emplace_back(name);

		skip_spaces();
		if (peek() == ',') {
			pos_++;
			continue;
		}
		if (peek() == ')')
			break;
		if (!peek())
			return fail(open, "unbalanced '('");
		return fail(pos_, std::string("unexpected '") + peek() +
				  "' in interface list");
	}
	pos_++;
	return std::nullopt;
}

networks_parser::error networks_parser::parse_cpts(net_config &nc)
{
	const std::size_t open = pos_++;

	for (;;) {
		skip_spaces();
		const std::size_t item = pos_;
		std::uint32_t lo = 0, hi = 0;

		if (!detail::is_digit(peek())) {
			if (!peek())
				return fail(open, "unbalanced '['");
			if (peek() == ',' || peek() == ']')
				return fail(pos_, "empty CPT");
			return fail(pos_, std::string("CPT '") + peek() +
					  "' is not a number");
		}
		num_status st = take_number(max_config_cpt, lo);
		hi = lo;
		if (st == num_status::ok && peek() == '-') {
			pos_++;
			st = take_number(max_config_cpt, hi);
		}
		if (st == num_status::too_big)
			return fail(item, "CPT number larger than " +
					  std::to_string(max_config_cpt));
		if (st == num_status::none)
			return fail(pos_, "CPT range without an end");
		if (hi < lo)
			return fail(item, "reversed CPT range " +
					  std::to_string(lo) + "-" +
					  std::to_string(hi));
		for (std::uint32_t v = lo; v <= hi; v++) {
			if (nc.cpts.size() == max_config_cpts)
				return fail(item, "more than " +
						  std::to_string(max_config_cpts) +
						  " CPTs");
			if (std::find(nc.cpts.begin(), nc.cpts.end(), v) !=
			    nc.cpts.end())
				return fail(item, "duplicate CPT " +
						  std::to_string(v));
			nc.cpts.push_back(v);
		}

		skip_spaces();
		if (peek() == ',') {
			pos_++;
			continue;
		}
		if (peek() == ']')
			break;
		if (!peek())
			return fail(open, "unbalanced '['");
		return fail(pos_, std::string("unexpected '") + peek() +
				  "' in CPT list");
	}
	pos_++;
	return std::nullopt;
}

networks_parser::error networks_parser::parse_net()
{
	const std::size_t start = pos_;
	const std::string_view name = take_name();

	if (name.empty()) {
		const char ch = peek();

		if (!ch || ch == ',')
			return fail(pos_, "empty network");
		if (ch == '(' || ch == '[')
			return fail(pos_, std::string("missing network name before '") +
					  ch + "'");
		return fail(pos_, std::string("unbalanced '") + ch + "'");
	}

	const auto net = lnet::parse_net(name);
	if (!net || *net == LNET_NET_ANY)
		return fail(start, "unknown network " + quoted(name));
	if (LNET_NETTYP(*net) == LNET_LND_LO)
		return fail(start, "network " + quoted(name) +
				   " cannot be configured (it always exists)");
	for (const auto &nc : nets_)
		if (nc.net == *net)
			return fail(start, "duplicate network " + quoted(name));

	net_config &nc = nets_.emplace_back();
	nc.net = *net;

	skip_spaces();
	if (peek() == '(') {
		if (auto e = parse_ifaces(nc))
			return e;
		skip_spaces();
	}
	if (peek() == '[')
		return parse_cpts(nc);
	return std::nullopt;
}

networks_result networks_parser::run()
{
	networks_result res;
	error e;

	if (const auto nul = text_.find('\0'); nul != std::string_view::npos) {
		res.error = *fail(nul, "unexpected NUL");
		return res;
	}

	skip_spaces();
	while (peek()) {
		e = parse_net();
		if (e)
			break;
		skip_spaces();
		const char ch = peek();
		if (!ch)
			break;
		if (ch != ',') {
			e = fail(pos_, std::string(ch == ')' || ch == ']' ?
						   "unbalanced '" :
						   "unexpected '") + ch + "'");
			break;
		}
		pos_++;
		skip_spaces();
		// "tcp," ends with an empty item, which parse_net() reports.
		if (!peek()) {
			e = fail(pos_, "empty network");
			break;
		}
	}

	if (e)
		res.error = std::move(*e);
	else
		res.nets = std::move(nets_);
	return res;
}

}  // namespace

networks_result parse_networks(std::string_view text)
{
	return networks_parser(text).run();
}

}  // namespace lnet
