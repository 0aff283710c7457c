// SPDX-License-Identifier: GPL-2.0
#include "hostile.hpp"

#include <chrono>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace sockpeer::hostile {

using namespace wire;
using namespace std::chrono_literals;

std::uint64_t fake_nid(std::uint32_t my_ip, std::uint32_t k)
{
	return tcp_nid((my_ip & 0xFFFFFF00U) | k);
}

Bytes put_bytes(std::uint64_t dst, std::uint64_t src, std::uint32_t portal,
		std::uint64_t match_bits, std::uint64_t zc_cookie)
{
	KsockHeader kh;
	kh.cookie0 = zc_cookie;
	LnetHeader lh;
	lh.dest_nid = dst;
	lh.src_nid = src;
	lh.type = lnet_put;
	lh.body = encode_body(PutBody{wmd_none, match_bits, 0, portal, 0});
	return lnet_message(kh, lh);
}

bool peer_closed(const Socket &s)
{
	tcp_info ti{};
	socklen_t len = sizeof(ti);

	if (::getsockopt(s.fd(), IPPROTO_TCP, TCP_INFO, &ti, &len))
		return true;
	return ti.tcpi_state != TCP_ESTABLISHED;
}

void sip(const Socket &s, std::size_t n)
{
	std::uint8_t buf[256];

	(void)::recv(s.fd(), buf, std::min(n, sizeof(buf)), MSG_DONTWAIT);
}

Pinger::Pinger(std::uint32_t target_ip, std::uint64_t me) : sess_({target_ip, me, 1}) {}

Pinger::~Pinger()
{
	stop();
}

void Pinger::start()
{
	thread_ = std::thread([this] { loop(); });
}

void Pinger::stop()
{
	stop_ = true;
	if (thread_.joinable())
		thread_.join();
}

void Pinger::loop()
{
	std::uint64_t n = 0;

	while (!stop_) {
		n++;
		const auto why = sess_.ping(conn_control, Wmd{0x5150, n});
		if (why) {
			if (!failed_)
				error_ = *why;
			failed_++;
		} else {
			ok_++;
		}
		for (int i = 0; i < 20 && !stop_; i++)
			std::this_thread::sleep_for(100ms);
	}
}

}  // namespace sockpeer::hostile
