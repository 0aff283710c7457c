/* SPDX-License-Identifier: GPL-2.0 */
/*
 * networks= test vectors, one table for both parsers: the kernel's
 * (lnet/config.c, KUnit suite lnet/tests/config_test.c) and libnid's
 * (tools/libnid, GoogleTest suite tools/libnid/tests/networks_test.cpp).
 * Both must accept the same strings with the same result and reject the
 * same strings with the same message.
 *
 * Plain C, read by C and C++ alike: every member is initialized, no
 * designated initializers. The includer provides __u32, LNET_MKNET() and
 * LNET_LND_* (the UAPI lnet-nid.h) first.
 */
#ifndef LNET_TESTS_NETWORKS_VECTORS_H
#define LNET_TESTS_NETWORKS_VECTORS_H

#include "vector_nets.h"

struct networks_vector_net {
	__u32		net;
	const char	*ifaces[3];	/* the first ones; the rest NULL */
	int		ncpts;		/* 0: all partitions */
	__u32		cpts[5];
};

/* Accepted: @n nets, in this order. */
struct networks_ok_vector {
	const char			*str;
	int				n;
	struct networks_vector_net	nets[3];
};

static const struct networks_ok_vector networks_ok_vectors[] = {
	{ "tcp", 1, { { VEC_TCP(0), { }, 0, { } } } },
	{ "tcp0(eth0),o2ib0(ib0)[0,1]", 2,
	  { { VEC_TCP(0), { "eth0" }, 0, { } },
	    { VEC_O2IB(0), { "ib0" }, 2, { 0, 1 } } } },
	{ "tcp(eth0, eth1)", 1, { { VEC_TCP(0), { "eth0", "eth1" }, 0, { } } } },
	{ " tcp1 ( eth0 ) , o2ib3 [ 2 , 0-1 ] ", 2,
	  { { VEC_TCP(1), { "eth0" }, 0, { } },
	    { VEC_O2IB(3), { }, 3, { 2, 0, 1 } } } },
	{ "tcp[0-3]", 1, { { VEC_TCP(0), { }, 4, { 0, 1, 2, 3 } } } },
	{ "o2ib(ib0:1)", 1, { { VEC_O2IB(0), { "ib0:1" }, 0, { } } } },
	{ "tcp1,tcp2,o2ib", 3,
	  { { VEC_TCP(1), { }, 0, { } }, { VEC_TCP(2), { }, 0, { } },
	    { VEC_O2IB(0), { }, 0, { } } } },
	{ "tcp(a,b,c)[5,3-4]", 1,
	  { { VEC_TCP(0), { "a", "b", "c" }, 3, { 5, 3, 4 } } } },
	{ "\ttcp(eth0)[7]\n", 1, { { VEC_TCP(0), { "eth0" }, 1, { 7 } } } },
	{ "tcp(0123456789abcde)", 1,
	  { { VEC_TCP(0), { "0123456789abcde" }, 0, { } } } },
	{ "tcp[65535]", 1, { { VEC_TCP(0), { }, 1, { 65535 } } } },
	{ "o2ib65535(ib1)", 1, { { VEC_O2IB(65535), { "ib1" }, 0, { } } } },
	/* nothing to configure */
	{ "", 0, { } },
	{ " \t\n ", 0, { } },
};

/*
 * Rejected (the kernel: -EINVAL) with exactly @msg; offsets count from the
 * start of the string.
 */
struct networks_bad_vector {
	const char	*str;
	const char	*msg;
};

static const struct networks_bad_vector networks_bad_vectors[] = {
	{ "tccp0", "networks: unknown network 'tccp0' at offset 0" },
	{ "tcp,tccp1", "networks: unknown network 'tccp1' at offset 4" },
	{ "TCP", "networks: unknown network 'TCP' at offset 0" },
	{ "tcp65536", "networks: unknown network 'tcp65536' at offset 0" },
	{ "lo0", "networks: unknown network 'lo0' at offset 0" },
	{ "<?>", "networks: unknown network '<?>' at offset 0" },
	{ "tcp-1", "networks: unknown network 'tcp-1' at offset 0" },
	{ "lo", "networks: network 'lo' cannot be configured (it always exists) at offset 0" },
	{ "tcp, lo(eth0)", "networks: network 'lo' cannot be configured (it always exists) at offset 5" },
	{ "tcp,tcp0", "networks: duplicate network 'tcp0' at offset 4" },
	{ "o2ib1,tcp,o2ib1", "networks: duplicate network 'o2ib1' at offset 10" },
	{ "tcp()", "networks: empty interface name at offset 4" },
	{ "tcp(eth0,)", "networks: empty interface name at offset 9" },
	{ "tcp(,eth0)", "networks: empty interface name at offset 4" },
	{ "tcp( )", "networks: empty interface name at offset 5" },
	{ "tcp(eth0", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0,eth1", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0, ", "networks: unbalanced '(' at offset 3" },
	{ "tcp(eth0))", "networks: unbalanced ')' at offset 9" },
	{ "tcp)", "networks: unbalanced ')' at offset 3" },
	{ "tcp]", "networks: unbalanced ']' at offset 3" },
	{ ")", "networks: unbalanced ')' at offset 0" },
	{ "tcp[0", "networks: unbalanced '[' at offset 3" },
	{ "tcp[0,1", "networks: unbalanced '[' at offset 3" },
	{ "tcp[", "networks: unbalanced '[' at offset 3" },
	{ "tcp[a]", "networks: CPT 'a' is not a number at offset 4" },
	{ "tcp[-1]", "networks: CPT '-' is not a number at offset 4" },
	{ "tcp[]", "networks: empty CPT at offset 4" },
	{ "tcp[0,]", "networks: empty CPT at offset 6" },
	{ "tcp[3-1]", "networks: reversed CPT range 3-1 at offset 4" },
	{ "tcp[0-]", "networks: CPT range without an end at offset 6" },
	{ "tcp[0-a]", "networks: CPT range without an end at offset 6" },
	{ "tcp[0,0]", "networks: duplicate CPT 0 at offset 6" },
	{ "tcp[0-2,1]", "networks: duplicate CPT 1 at offset 8" },
	{ "tcp[65536]", "networks: CPT number larger than 65535 at offset 4" },
	{ "tcp[0 1]", "networks: unexpected '1' in CPT list at offset 6" },
	{ "tcp[0;1]", "networks: unexpected ';' in CPT list at offset 5" },
	{ "tcp(eth0) x", "networks: unexpected 'x' at offset 10" },
	{ "tcp x", "networks: unexpected 'x' at offset 4" },
	{ "tcp;o2ib", "networks: unknown network 'tcp;o2ib' at offset 0" },
	{ "tcp ;o2ib", "networks: unexpected ';' at offset 4" },
	{ "tcp,", "networks: empty network at offset 4" },
	{ ",tcp", "networks: empty network at offset 0" },
	{ "tcp, ,o2ib", "networks: empty network at offset 5" },
	{ "tcp(eth0)(eth1)", "networks: unexpected '(' at offset 9" },
	{ "tcp[0](eth0)", "networks: unexpected '(' at offset 6" },
	{ "tcp[0][1]", "networks: unexpected '[' at offset 6" },
	{ "(eth0)", "networks: missing network name before '(' at offset 0" },
	{ "tcp,[0]", "networks: missing network name before '[' at offset 4" },
	{ "tcp(eth 0)", "networks: unexpected '0' in interface list at offset 8" },
	{ "tcp(eth0 eth1)", "networks: unexpected 'e' in interface list at offset 9" },
	{ "tcp(e[0])", "networks: unexpected '[' in interface list at offset 5" },
	{ "tcp(0123456789abcdef)", "networks: interface name '0123456789abcdef' longer than 15 characters at offset 4" },
	{ "tcp(eth0,eth1,eth0)", "networks: duplicate interface 'eth0' at offset 14" },
	{ "tcp # comment", "networks: unexpected '#' at offset 4" },
	{ "tcp[0-63,100]", "networks: more than 64 CPTs at offset 9" },
	{ "tcp[1000-2000]", "networks: more than 64 CPTs at offset 4" },
};

#endif /* LNET_TESTS_NETWORKS_VECTORS_H */
