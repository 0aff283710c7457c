// SPDX-License-Identifier: GPL-2.0
#ifndef LST_DEVLNET_HPP
#define LST_DEVLNET_HPP

#include <string>

#include <lnet/dev_lnet.hpp>

#include "lst.hpp"

namespace lst {

// A failed open of the device throws lnet::DevLnetError (the message says
// why); ioctl errors are returned, their meaning is lst's.
class DevLnet final : public Kernel {
public:
	explicit DevLnet(std::string device = std::string(lnet::LnetDevice::default_path))
		: dev_(std::move(device))
	{
	}

	int lnetst(std::span<std::byte> buf) override;
	bool selftest_loaded() override;

private:
	lnet::LnetDevice dev_;
};

}  // namespace lst

#endif  // LST_DEVLNET_HPP
