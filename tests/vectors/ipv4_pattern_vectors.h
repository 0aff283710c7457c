/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ip2nets address pattern vectors, one table for both matchers: the
 * kernel's (lnet/ip2nets.c, KUnit suite lnet_ioctl in
 * lnet/tests/ioctl_test.c, which wraps each pattern in a rule
 * "tcp PATTERN") and libnid's (tools/libnid, GoogleTest suite
 * tools/libnid/tests/ipv4_pattern_test.cpp). Both must match the same
 * addresses and reject the same patterns.
 *
 * A pattern is four dot-separated octets, each "*", "n", "n-m",
 * "n-m/stride" or a bracketed list of those; a stride keeps the values
 * lo, lo + stride, ... up to hi.
 *
 * Plain C, read by C and C++ alike; the includer provides __u32 first.
 * No pattern here ends in white space or holds a ';': the kernel's rule
 * grammar reads those as separators, libnid takes a pattern alone.
 */
#ifndef LNET_TESTS_IPV4_PATTERN_VECTORS_H
#define LNET_TESTS_IPV4_PATTERN_VECTORS_H

#define VEC_IPV4(a, b, c, d) \
	((__u32)(a) << 24 | (__u32)(b) << 16 | (__u32)(c) << 8 | (__u32)(d))

enum { VEC_NO_MATCH = 0, VEC_MATCH = 1, VEC_MALFORMED = -1 };

struct ipv4_pattern_vector {
	const char	*pattern;
	__u32		addr;		/* host order */
	int		result;		/* VEC_MATCH, VEC_NO_MATCH, VEC_MALFORMED */
};

static const struct ipv4_pattern_vector ipv4_pattern_vectors[] = {
	{ "*.*.*.*", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "192.0.2.17", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "192.0.2.*", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "192.0.2.10-20", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "192.0.2.[1,5-7,17]", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "[10,192].0.[0-2].*", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "0-255.0.2.17", VEC_IPV4(192, 0, 2, 17), VEC_MATCH },
	{ "192.0.2.18", VEC_IPV4(192, 0, 2, 17), VEC_NO_MATCH },
	{ "192.0.3.*", VEC_IPV4(192, 0, 2, 17), VEC_NO_MATCH },
	{ "192.0.2.0-16", VEC_IPV4(192, 0, 2, 17), VEC_NO_MATCH },
	{ "192.0.2.[1,5-7]", VEC_IPV4(192, 0, 2, 17), VEC_NO_MATCH },
	{ "10.*.*.*", VEC_IPV4(192, 0, 2, 17), VEC_NO_MATCH },

	/* strides: in brackets and bare, from the range's low end */
	{ "192.168.[1-3,5].[10-20/2]", VEC_IPV4(192, 168, 5, 14), VEC_MATCH },
	{ "192.168.[1-3,5].[10-20/2]", VEC_IPV4(192, 168, 5, 15), VEC_NO_MATCH },
	{ "192.168.[1-3,5].[10-20/2]", VEC_IPV4(192, 168, 4, 14), VEC_NO_MATCH },
	{ "192.168.[1-3,5].[10-20/2]", VEC_IPV4(192, 168, 1, 20), VEC_MATCH },
	{ "192.168.[1-3,5].[10-20/2]", VEC_IPV4(192, 168, 1, 22), VEC_NO_MATCH },
	{ "10.0.0.1-254/3", VEC_IPV4(10, 0, 0, 253), VEC_MATCH },
	{ "10.0.0.1-254/3", VEC_IPV4(10, 0, 0, 254), VEC_NO_MATCH },
	{ "10.0.0.[0-255/1]", VEC_IPV4(10, 0, 0, 77), VEC_MATCH },
	{ "10.0.0.[0-255/255]", VEC_IPV4(10, 0, 0, 255), VEC_MATCH },
	{ "10.0.0.[0-255/255]", VEC_IPV4(10, 0, 0, 1), VEC_NO_MATCH },
	{ "10.0.0.[1,7-9/2,200-210/5]", VEC_IPV4(10, 0, 0, 205), VEC_MATCH },
	{ "10.0.0.[1,7-9/2,200-210/5]", VEC_IPV4(10, 0, 0, 8), VEC_NO_MATCH },

	{ "1.2.3", 0, VEC_MALFORMED },
	{ "1.2.3.256", 0, VEC_MALFORMED },
	{ "1.2.3.4.5", 0, VEC_MALFORMED },
	{ "1.2.3.[4", 0, VEC_MALFORMED },
	{ "1.2.3.5-4", 0, VEC_MALFORMED },
	{ "1.2.3.4x", 0, VEC_MALFORMED },
	{ "1.2.3.[]", 0, VEC_MALFORMED },
	{ "1.2.3.-4", 0, VEC_MALFORMED },
	{ "1..2.3", 0, VEC_MALFORMED },
	{ "1.2.3.[4,]", 0, VEC_MALFORMED },
	{ "a.b.c.d", 0, VEC_MALFORMED },
	{ "1.2.3.4/2", 0, VEC_MALFORMED },		/* a stride needs a range */
	{ "1.2.3.[1-9/0]", 0, VEC_MALFORMED },
	{ "1.2.3.[1-9/]", 0, VEC_MALFORMED },
	{ "1.2.3.[1-9/256]", 0, VEC_MALFORMED },
	{ "1.2.3.1-9/2/2", 0, VEC_MALFORMED },
	{ "1.2.3.*/2", 0, VEC_MALFORMED },
};

#endif /* LNET_TESTS_IPV4_PATTERN_VECTORS_H */
