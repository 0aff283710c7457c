// SPDX-License-Identifier: GPL-2.0
#include "oracle.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <linux/lnet/lnet-ioctl.h>

namespace ioctlfuzz {
namespace {

std::string errno_name(int err)
{
	if (!err)
		return "success";
	return std::string(std::strerror(err)) + " (" + std::to_string(err) + ")";
}

}  // namespace

Expectation expect(const Case &k, bool privileged)
{
	Expectation e;
	const unsigned int nr = _IOC_NR(k.cmd);
	if (_IOC_TYPE(k.cmd) != LNET_IOC_TYPE || nr < LNET_IOC_MIN_NR || nr > LNET_IOC_MAX_NR) {
		e.exact = EINVAL;
		return e;
	}
	const Command *c = find_command(nr);
	const bool core = c && c->core;
	if (!privileged && !(core && c->open)) {
		e.exact = EACCES;
		return e;
	}
	if (k.mapped < sizeof(struct lnet_ioctl_hdr)) {
		e.exact = EFAULT;
		return e;
	}
	const std::uint32_t len = k.ioc_len();
	const std::uint32_t ver = k.ioc_version();
	if (len < LNET_IOCTL_MIN_LEN || len > LNET_IOCTL_MAX_LEN || (core && len < c->min_len)) {
		e.exact = EINVAL;
		return e;
	}
	if (core ? ver != c->version : ver != LNET_IOCTL_VERSION && ver != LNET_IOCTL_VERSION2) {
		e.exact = EINVAL;
		return e;
	}
	if (len > k.mapped) {
		e.exact = EFAULT;
		return e;
	}
	// GET_PEER / GET_CONN: the LNDs take the generic block only, and
	// with no LND of the net's type loaded lnet.ko says EINVAL too.
	// The LND sees the version only after lnet.ko copied the argument,
	// so a failed copy may answer ENOMEM first: one_of, not exact.
	if (lnd_listing(nr)) {
		if (ver != LNET_IOCTL_VERSION)
			e.one_of = { EINVAL };
		else
			e.one_of = { 0, ENOENT, ENETDOWN, EINVAL };
		return e;
	}
	// what the command makes of it is its own business, within reason
	e.refused = !privileged && !(core && c->open);
	return e;
}

std::string judge(const Case &k, const Expectation &e, int err)
{
	(void)k;
	// with allocations failing, any answer may become ENOMEM once the
	// kernel allocates (the argument's copy, the command's own memory)
	if (e.enomem_ok && err == ENOMEM && !(e.exact && (*e.exact == EACCES || *e.exact == EINVAL)))
		return {};
	if (e.exact) {
		if (err == *e.exact)
			return {};
		return "got " + errno_name(err) + ", want " + errno_name(*e.exact);
	}
	if (!e.one_of.empty() && std::ranges::find(e.one_of, err) == e.one_of.end())
		return "got " + errno_name(err) + ", not an answer of this command";
	// 512 and up are the kernel's own (ERESTARTSYS, ENOIOCTLCMD, ...)
	if (err < 0 || err >= 512)
		return "got kernel-internal errno " + std::to_string(err);
	if (err == ENOTTY)
		return "got ENOTTY for a /dev/lnet command";
	if (e.refused && err == 0)
		return "an unprivileged call succeeded";
	return {};
}

}  // namespace ioctlfuzz
