// SPDX-License-Identifier: GPL-2.0
#ifndef LST_DEVLNET_HPP
#define LST_DEVLNET_HPP

#include <string>

#include "lst.hpp"

namespace lst {

class DevLnet final : public Kernel {
public:
	explicit DevLnet(std::string device = "/dev/lnet") : device_(std::move(device)) {}
	~DevLnet() override;
	DevLnet(const DevLnet &) = delete;
	DevLnet &operator=(const DevLnet &) = delete;

	int lnetst(std::span<std::byte> buf) override;
	bool selftest_loaded() override;

private:
	std::string device_;
	int fd_ = -1;
};

}  // namespace lst

#endif  // LST_DEVLNET_HPP
