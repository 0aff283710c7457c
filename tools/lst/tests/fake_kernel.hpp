// SPDX-License-Identifier: GPL-2.0
#ifndef LST_FAKE_KERNEL_HPP
#define LST_FAKE_KERNEL_HPP

#include <cstring>
#include <functional>
#include <sstream>
#include <vector>

#include "lst.hpp"

namespace lst::test {

// Records every command; @answer (if set) plays the kernel on the buffer.
struct FakeKernel : Kernel {
	std::vector<std::vector<std::byte>> calls;
	std::function<int(std::span<std::byte>)> answer;
	bool loaded = true;

	int lnetst(std::span<std::byte> buf) override
	{
		int rc = answer ? answer(buf) : 0;
		calls.emplace_back(buf.begin(), buf.end());
		return rc;
	}
	bool selftest_loaded() override { return loaded; }

	template <typename T> T call_as(std::size_t i) const
	{
		T t;
		std::memcpy(&t, calls.at(i).data(), sizeof(T));
		return t;
	}
	std::uint32_t opc(std::size_t i) const { return call_as<lstio_hdr>(i).lh_opc; }
};

inline lstio_hdr &hdr_of(std::span<std::byte> b)
{
	return *reinterpret_cast<lstio_hdr *>(b.data());
}

// Put @recs node records at @offset of @b and set lh_nres.
template <typename R>
void put_records(std::span<std::byte> b, std::size_t offset, const std::vector<R> &recs)
{
	auto &h = hdr_of(b);
	h.lh_nres = static_cast<__u32>(recs.size());
	for (std::size_t i = 0; i < recs.size() && i < h.lh_nres_max; i++)
		std::memcpy(b.data() + offset + i * sizeof(R), &recs[i], sizeof(R));
}

inline lstio_node_rpc node(lnet_nid_t nid, std::uint32_t state = LST_NODE_ACTIVE,
			   int rpc_errno = 0, std::uint32_t status = 0)
{
	lstio_node_rpc r{};
	r.nr_nid = nid;
	r.nr_pid = LNET_PID_LUSTRE;
	r.nr_state = state;
	r.nr_rpc_errno = rpc_errno;
	r.nr_status = status;
	return r;
}

struct Harness {
	FakeKernel kernel;
	std::ostringstream out, err;
	Env env{kernel, out, err, 0, 4242, [](unsigned) { return true; }, nullptr};

	int run(std::vector<std::string> args) { return lst::run(env, args); }
};

constexpr lnet_nid_t nid_a = 0x00020000C0000201ULL;	// 192.0.2.1@tcp
constexpr lnet_nid_t nid_b = 0x00020000C0000202ULL;	// 192.0.2.2@tcp

}  // namespace lst::test

#endif
