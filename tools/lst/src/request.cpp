// SPDX-License-Identifier: GPL-2.0
//
// Command buffers for LNET_IOC_LNETST (include/uapi/linux/lnet/lnetst.h).
#include <algorithm>
#include <cstring>

#include "lst.hpp"

namespace lst {

Request::Request(std::uint32_t opc, std::size_t fixed, std::size_t nids,
		 std::size_t recsize, std::uint32_t nres)
{
	records_ = fixed + nids * sizeof(__u64);
	size_ = records_ + recsize * nres;
	storage_.assign((size_ + 7) / 8, 0);
	auto &h = hdr();
	h.lh_ioc.ioc_len = static_cast<__u32>(size_);
	h.lh_ioc.ioc_version = LNET_IOCTL_VERSION2;
	h.lh_opc = opc;
	h.lh_nres_max = nres;
}

std::uint32_t Request::available() const
{
	return reinterpret_cast<const lstio_hdr *>(data())->lh_nres;
}

template <typename R> std::vector<R> Request::records() const
{
	const auto *h = reinterpret_cast<const lstio_hdr *>(data());
	std::uint32_t n = std::min(h->lh_nres, h->lh_nres_max);
	std::vector<R> out(n);
	if (n)
		std::memcpy(out.data(), data() + records_, n * sizeof(R));
	return out;
}

template std::vector<lstio_node_rpc> Request::records() const;
template std::vector<lstio_node_stat> Request::records() const;

void set_name(char (&dst)[LST_NAME_SIZE], std::string_view name)
{
	std::memset(dst, 0, sizeof(dst));
	std::memcpy(dst, name.data(), std::min(name.size(), sizeof(dst) - 1));
}

std::string get_name(const char (&src)[LST_NAME_SIZE])
{
	return std::string(src, strnlen(src, sizeof(src)));
}

}  // namespace lst
