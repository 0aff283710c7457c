// SPDX-License-Identifier: GPL-2.0
#include "common.hpp"

#include <linux/lnet/lnet-ioctl.h>
#include <lnet/nid.hpp>

#include <cerrno>

#include "../parse.hpp"

namespace lnetctl {

std::optional<std::uint32_t> check_net(const ErrorSite &site,
				       std::string_view text, bool allow_lo)
{
	auto net = lnet::parse_net(text);

	if (text.empty()) {
		site.fail(EINVAL, "no network given");
		return std::nullopt;
	}
	if (!net || *net == LNET_NET_ANY) {
		site.fail(EINVAL, "invalid network '" + std::string(text) + "'");
		return std::nullopt;
	}
	if (!allow_lo && LNET_NETTYP(*net) == LNET_LND_LO) {
		site.fail(EINVAL, "the loopback network 'lo' cannot be used here");
		return std::nullopt;
	}
	return net;
}

std::optional<lnet_nid_t> check_nid(const ErrorSite &site, std::string_view text)
{
	auto nid = lnet::parse_nid(text);

	if (!nid || *nid == LNET_NID_ANY) {
		site.fail(EINVAL, "invalid NID '" + std::string(text) + "'");
		return std::nullopt;
	}
	return nid;
}

std::optional<std::int64_t> check_range(const ErrorSite &site,
					std::string_view name, std::int64_t value,
					std::int64_t lo, std::int64_t hi)
{
	if (value < lo || value > hi) {
		site.fail(EINVAL, std::string(name) + " " + std::to_string(value) +
					  " is out of range " + std::to_string(lo) +
					  ".." + std::to_string(hi));
		return std::nullopt;
	}
	return value;
}

bool check_interface(const ErrorSite &site, std::string_view name)
{
	if (name.empty() || name.size() > lnet::max_interface_name ||
	    name.find_first_of("/: \t") != std::string_view::npos) {
		site.fail(EINVAL, "invalid interface name '" + std::string(name) + "'");
		return false;
	}
	return true;
}

std::optional<std::vector<std::uint32_t>> check_cpts(const ErrorSite &site,
						     std::string_view text)
{
	auto cpts = parse_cpt_list(text);

	if (!cpts || cpts->size() > LNET_IOCTL_MAX_CPTS) {
		site.fail(EINVAL, "invalid CPT list '" + std::string(text) + "'");
		return std::nullopt;
	}
	return cpts;
}

std::string describe_ni(const NiConfig &ni)
{
	std::string net = lnet::net_to_string(LNET_NIDNET(ni.nid));

	if (!ni.ip2net.empty())
		return "ip2net '" + ni.ip2net + "'";
	if (!ni.interface.empty())
		return net + " on " + ni.interface;
	return net + " NID " + lnet::nid_to_string(ni.nid);
}

}  // namespace lnetctl
