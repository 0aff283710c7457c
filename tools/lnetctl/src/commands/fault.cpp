// SPDX-License-Identifier: GPL-2.0
// fault drop|delay add / del / reset / show
#include "commands.hpp"

#include <linux/lnet/lnet-ioctl.h>

#include <cerrno>
#include <limits>

#include "../fault_text.hpp"
#include "../parse.hpp"
#include "../yaml_render.hpp"
#include "common.hpp"

namespace lnetctl {
namespace {

constexpr std::int64_t uint32_max = std::numeric_limits<std::uint32_t>::max();
constexpr std::int64_t max_portal = 63;
// lnet.ko's bound on an interval or a latency (a day)
constexpr std::int64_t max_seconds = LNET_FAULT_MAX_SECONDS;

std::string_view entity(FaultKind kind)
{
	return kind == FaultKind::drop ? "drop rule" : "delay rule";
}

std::string top_key(FaultKind kind)
{
	return "fault " + std::string(fault_kind_name(kind));
}

std::optional<lnet_nid_t> check_fault_nid(const ErrorSite &site,
					  std::string_view option,
					  std::string_view text)
{
	auto nid = parse_fault_nid(text);

	if (text.empty()) {
		site.fail(EINVAL, std::string(option) + " is required ('*' for any NID)");
		return std::nullopt;
	}
	if (!nid) {
		site.fail(EINVAL, std::string(option) + " '" + std::string(text) +
					  "': not a NID, '*' or '*@NET'");
		return std::nullopt;
	}
	return nid;
}

// A count option that must be 1..@hi when given.
bool check_count(const ErrorSite &site, std::string_view option,
		 std::optional<std::int64_t> value, std::int64_t hi,
		 std::string_view unit, std::uint32_t &out)
{
	if (!value)
		return true;
	if (*value < 1 || *value > hi) {
		site.fail(EINVAL, std::string(option) + " " + std::to_string(*value) +
					  ": must be 1.." + std::to_string(hi) +
					  std::string(unit));
		return false;
	}
	out = static_cast<std::uint32_t>(*value);
	return true;
}

// Every word of a repeatable option ("--portal 4 --portal 5,6").
std::vector<std::string> words_of(const std::vector<std::string> &occurrences)
{
	std::vector<std::string> words;

	for (const auto &o : occurrences)
		for (auto &w : split_list(o))
			words.push_back(std::move(w));
	return words;
}

// ORs the bits of every word of a repeatable option into @mask; @bits
// gives a word's bits or nullopt, @bad says why a word is refused.
template <typename Mask, typename Bits>
bool check_mask(const ErrorSite &site, std::string_view option,
		const std::vector<std::string> &args, Bits bits,
		std::string_view bad, Mask &mask)
{
	for (const auto &w : words_of(args)) {
		std::optional<Mask> b = bits(w);

		if (!b) {
			site.fail(EINVAL, std::string(option) + " '" + w + "': " +
						  std::string(bad));
			return false;
		}
		mask |= *b;
	}
	return true;
}

std::optional<std::uint64_t> portal_bit(std::string_view w)
{
	auto p = parse_int(w);

	if (!p || *p < 0 || *p > max_portal)
		return std::nullopt;
	return 1ULL << *p;
}

std::optional<std::uint32_t> msg_bit(std::string_view w)
{
	auto t = parse_fault_msg(w);

	if (!t)
		return std::nullopt;
	return 1U << *t;
}

std::string health_kinds()
{
	std::string known;

	for (std::size_t i = 1; i < health_status_names.size(); i++)
		known += std::string(health_status_names[i]) + ", ";
	return known + std::string(health_random_name);
}

// Every check of add; the rule, or nullopt with an error recorded.
std::optional<FaultRule> check_add(const ErrorSite &site, const FaultAddArgs &a)
{
	FaultRule r;
	auto src = check_fault_nid(site, "--source", a.source);
	std::optional<lnet_nid_t> dst;

	if (!src || !(dst = check_fault_nid(site, "--dest", a.dest)))
		return std::nullopt;
	r.src = *src;
	r.dst = *dst;
	if (!a.local_nid.empty()) {
		auto nid = check_nid(site, a.local_nid);

		if (!nid)
			return std::nullopt;
		r.local_nid = *nid;
	}
	if (a.rate && a.interval) {
		site.fail(EINVAL, "--rate " + std::to_string(*a.rate) +
					  " and --interval " + std::to_string(*a.interval) +
					  " exclude each other: give one");
		return std::nullopt;
	}
	if (!a.rate && !a.interval) {
		site.fail(EINVAL, "one of --rate N or --interval SECONDS is required");
		return std::nullopt;
	}
	if (!check_count(site, "--rate", a.rate, uint32_max, "", r.rate) ||
	    !check_count(site, "--interval", a.interval, max_seconds, " seconds",
			 r.interval))
		return std::nullopt;
	if (a.random) {
		if (!a.interval) {
			site.fail(EINVAL, "--random needs --interval (it has no "
					  "meaning with --rate)");
			return std::nullopt;
		}
		r.flags |= LNET_FAULT_F_RANDOM;
	}
	if (a.drop_all)
		r.flags |= LNET_FAULT_F_DROP_ALL;
	if (a.kind == FaultKind::delay) {
		if (!a.latency) {
			site.fail(EINVAL, "--latency SECONDS is required");
			return std::nullopt;
		}
		if (!check_count(site, "--latency", a.latency, max_seconds,
				 " seconds", r.latency))
			return std::nullopt;
		// lnet.ko matches a local NID for receive-side drops only
		// and refuses one in a delay rule
		if (!a.local_nid.empty()) {
			site.fail(EINVAL, "--local_nid " + a.local_nid +
						  ": only drop rules can select the "
						  "receiving NI");
			return std::nullopt;
		}
	}
	if (!check_mask(site, "--portal", a.portals, portal_bit,
			"must be a portal 0.." + std::to_string(max_portal),
			r.ptl_mask) ||
	    !check_mask(site, "--message", a.messages, msg_bit,
			"unknown message type (one of: PUT, ACK, GET, REPLY)",
			r.msg_mask) ||
	    !check_mask(site, "--health_error", a.health_errors, parse_health_kind,
			"unknown health error (one of: " + health_kinds() + ")",
			r.health_mask))
		return std::nullopt;
	// Portals select PUTs and GETs only; the kernel refuses an empty rest.
	if (r.ptl_mask && r.msg_mask &&
	    !(r.msg_mask & ((1U << fault_msg_put) | (1U << fault_msg_get)))) {
		site.fail(EINVAL, "--portal applies to PUT and GET messages only, "
				  "but --message selects neither");
		return std::nullopt;
	}
	if (!a.seed.empty()) {
		auto seed = parse_seed(a.seed);

		if (!seed || *seed == 0) {
			site.fail(EINVAL, "--seed '" + a.seed +
						  "': must be a non-zero 64-bit number "
						  "(decimal or 0x hex)");
			return std::nullopt;
		}
		r.seed = *seed;
	}
	return r;
}

// The kernel's errno with what it means for a rule table.
KernelError explain(const KernelError &e)
{
	const char *hint = nullptr;

	if (e.error() == EINVAL)
		hint = " (lnet.ko refused the rule)";
	else if (e.error() == ENOSPC)
		hint = " (lnet.ko holds at most 256 rules, drop and delay together)";
	if (!hint || e.standalone())
		return e;
	return KernelError(e.error(), e.what() + std::string(hint));
}

}  // namespace

std::optional<FaultRule> fault_rule(const FaultAddArgs &a, Outcome &o)
{
	return check_add(ErrorSite{ "add", entity(a.kind), o }, a);
}

std::optional<FaultNids> fault_del_nids(const FaultDelArgs &a, Outcome &o)
{
	ErrorSite site{ "del", entity(a.kind), o };

	if (a.all && (!a.source.empty() || !a.dest.empty())) {
		site.fail(EINVAL, "--all excludes --source and --dest");
		return std::nullopt;
	}
	if (a.all)
		return FaultNids{};
	auto s = check_fault_nid(site, "--source", a.source);
	std::optional<lnet_nid_t> d;

	if (!s || !(d = check_fault_nid(site, "--dest", a.dest)))
		return std::nullopt;
	return FaultNids{ *s, *d };
}

Outcome fault_add(Kernel &k, const FaultAddArgs &a)
{
	Outcome o;
	ErrorSite site{ "add", entity(a.kind), o };
	auto rule = fault_rule(a, o);
	FaultInfo added;

	if (!rule)
		return o;
	try {
		added.rule = k.fault_add(a.kind, *rule);
	} catch (const KernelError &e) {
		site.fail("cannot add " + std::string(entity(a.kind)) + " " +
				  fault_nid_to_string(rule->src) + " -> " +
				  fault_nid_to_string(rule->dst),
			  explain(e));
		return o;
	}
	yaml::add(o.out, top_key(a.kind),
		  render_fault_rules(a.kind, std::span(&added, 1), false));
	return o;
}

Outcome fault_del(Kernel &k, const FaultDelArgs &a)
{
	Outcome o;
	ErrorSite site{ "del", entity(a.kind), o };
	auto nids = fault_del_nids(a, o);
	std::uint32_t n = 0;

	if (!nids)
		return o;
	try {
		n = k.fault_del(a.kind, nids->src, nids->dst);
	} catch (const KernelError &e) {
		site.fail("cannot delete " + std::string(entity(a.kind)) + "s", e);
		return o;
	}
	yaml::Map m;

	yaml::add(m, "deleted", yaml::num(n));
	yaml::add(o.out, top_key(a.kind), yaml::map(std::move(m)));
	return o;
}

Outcome fault_reset(Kernel &k, const FaultResetArgs &a)
{
	Outcome o;

	try {
		k.fault_reset(a.kind);
	} catch (const KernelError &e) {
		o.fail("reset", entity(a.kind),
		       "cannot reset " + std::string(entity(a.kind)) + "s", e);
	}
	return o;
}

Outcome fault_show(Kernel &k, const FaultShowArgs &a)
{
	Outcome o;
	std::vector<FaultInfo> rules;

	try {
		rules = k.fault_list(a.kind);
	} catch (const KernelError &e) {
		o.fail("show", entity(a.kind),
		       "cannot list " + std::string(entity(a.kind)) + "s", e);
		return o;
	}
	yaml::add(o.out, top_key(a.kind), render_fault_rules(a.kind, rules, true));
	return o;
}

}  // namespace lnetctl
