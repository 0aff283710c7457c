// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lnet_ioctl: the pure checks /dev/lnet applies before any
 * command runs (lnet/ioctl.c) - command numbers, the header, the generic
 * data block and its inline buffers - and the argument helpers of the
 * commands: ping timeout, NI tunables, route and tunable validation.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <uapi/linux/lnet/lnet-ioctl.h>
#include <linux/lnet/lib-lnet.h>

#include "ipv4_pattern_vectors.h"

#define TCP(num)	LNET_MKNET(LNET_LND_SOCK, num)
#define O2IB(num)	LNET_MKNET(LNET_LND_O2IB, num)
#define LO		LNET_MKNET(LNET_LND_LO, 0)

/* A generic block with room for inline data behind it. */
struct gen_buf {
	struct lnet_ioctl_data	d;
	char			inl[64];
};

static void gen_init(struct gen_buf *b, u32 len1, u32 len2)
{
	memset(b, 0, sizeof(*b));
	b->d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION;
	b->d.ioc_inline1_len = len1;
	b->d.ioc_inline1 = len1 ? 0x1000 : 0;
	b->d.ioc_inline2_len = len2;
	b->d.ioc_inline2 = len2 ? 0x2000 : 0;
	b->d.ioc_hdr.ioc_len = sizeof(b->d) + round_up(len1, 8) +
			       round_up(len2, 8);
}

static int gen_check(struct gen_buf *b)
{
	return lnet_ioctl_check_data(&b->d, b->d.ioc_hdr.ioc_len);
}

static void cmd_accepts_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(LNET_IOC_CONFIGURE), 0);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(LNET_IOC_GET_LOCAL_NI), 0);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(LNET_IOC_SET_PEER), 0);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('e', 30, long)), 0);
	/* the size bits are not checked */
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('e', 59, int)), 0);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IO('e', 97)), 0);
}

static void cmd_rejects_outside(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('e', 29, long)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('e', 113, long)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('e', 0, long)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(_IOWR('f', 59, long)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_cmd(0x5401 /* TCGETS */),
			-EINVAL);
}

static void hdr_length_bounds(struct kunit *test)
{
	struct lnet_ioctl_hdr h = { .ioc_version = LNET_IOCTL_VERSION2 };

	h.ioc_len = 0;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 8, 0), -EINVAL);
	h.ioc_len = 7;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 0, 0), -EINVAL);
	h.ioc_len = 8;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 8, 0), 0);
	h.ioc_len = LNET_IOCTL_MAX_LEN;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 8, 0), 0);
	h.ioc_len = LNET_IOCTL_MAX_LEN + 1;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 8, 0), -EINVAL);
	h.ioc_len = U32_MAX;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 8, 0), -EINVAL);
}

static void hdr_min_len(struct kunit *test)
{
	struct lnet_ioctl_hdr h = { .ioc_version = LNET_IOCTL_VERSION2 };
	u32 ni = sizeof(struct lnet_ioctl_config_ni);

	h.ioc_len = ni - 1;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, ni, LNET_IOCTL_VERSION2),
			-EINVAL);
	h.ioc_len = ni;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, ni, LNET_IOCTL_VERSION2),
			0);
	h.ioc_len = ni + sizeof(struct lnet_ioctl_lnd_tunables);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, ni, LNET_IOCTL_VERSION2),
			0);
}

static void hdr_versions(struct kunit *test)
{
	struct lnet_ioctl_hdr h = { .ioc_len = 128 };

	h.ioc_version = LNET_IOCTL_VERSION;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, LNET_IOCTL_VERSION),
			0);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, LNET_IOCTL_VERSION2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, 0), 0);
	h.ioc_version = LNET_IOCTL_VERSION2;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, LNET_IOCTL_VERSION),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, 0), 0);
	h.ioc_version = 0x00010009;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, 0), -EINVAL);
	h.ioc_version = 0;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_hdr(&h, 128, 0), -EINVAL);
}

static void data_plain_block(struct kunit *test)
{
	struct gen_buf b;

	gen_init(&b, 0, 0);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
	/* the header must say what the caller copied */
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_data(&b.d, 136), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_check_data(&b.d, 64), -EINVAL);
	b.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION2;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
}

static void data_length_sum(struct kunit *test)
{
	struct gen_buf b;

	gen_init(&b, 5, 0);
	KUNIT_EXPECT_EQ(test, b.d.ioc_hdr.ioc_len, 136U);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
	/* not rounded up to 8 */
	b.d.ioc_hdr.ioc_len = 133;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	/* longer than the inline buffers */
	b.d.ioc_hdr.ioc_len = 144;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	gen_init(&b, 8, 9);
	KUNIT_EXPECT_EQ(test, b.d.ioc_hdr.ioc_len, 128U + 8 + 16);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
}

static void data_length_overflow(struct kunit *test)
{
	struct gen_buf b;

	/* lengths whose 32-bit sum would wrap back to a small ioc_len */
	gen_init(&b, 0, 0);
	b.d.ioc_inline1_len = 0xfffffff8U;
	b.d.ioc_inline1 = 0x1000;
	b.d.ioc_inline2_len = 0x10;
	b.d.ioc_inline2 = 0x2000;
	b.d.ioc_hdr.ioc_len = 136;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	b.d.ioc_inline1_len = U32_MAX;
	b.d.ioc_inline2_len = 0;
	b.d.ioc_inline2 = 0;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
}

static void data_pointer_length_pairs(struct kunit *test)
{
	struct gen_buf b;

	gen_init(&b, 4, 0);
	b.d.ioc_inline1 = 0;		/* length without pointer */
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	gen_init(&b, 0, 0);
	b.d.ioc_inline2 = 0x2000;	/* pointer without length */
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	gen_init(&b, 0, 0);
	b.d.ioc_user1_len = 16;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	b.d.ioc_user1 = 0x7000;
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
	b.d.ioc_user2 = 0x8000;
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	b.d.ioc_user2_len = 1;
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
}

static void data_inline_nul(struct kunit *test)
{
	struct gen_buf b;

	gen_init(&b, 5, 0);
	memcpy(b.inl, "tcp0", 5);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
	KUNIT_EXPECT_STREQ(test, lnet_ioctl_inline1(&b.d), "tcp0");
	KUNIT_EXPECT_PTR_EQ(test, lnet_ioctl_inline2(&b.d), NULL);
	memcpy(b.inl, "tcp01", 5);	/* not terminated */
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);

	/* with buffer 2 the last inline byte (buffer 2's) is NUL as well */
	gen_init(&b, 3, 4);
	memcpy(b.inl, "ab", 3);
	memcpy(b.inl + 8, "xyz", 4);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
	KUNIT_EXPECT_STREQ(test, lnet_ioctl_inline2(&b.d), "xyz");
	b.inl[11] = 'z';
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);
	b.inl[11] = '\0';
	b.inl[2] = 'c';
	KUNIT_EXPECT_EQ(test, gen_check(&b), -EINVAL);

	/* buffer 2 alone carries binary data: no NUL rule */
	gen_init(&b, 0, 4);
	memset(b.inl, 0xff, 4);
	KUNIT_EXPECT_EQ(test, gen_check(&b), 0);
}

static void ping_timeouts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(1), 1);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(1000), 1000);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(180000), 180000);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(180001), 180000);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(0), 180000);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(-1), 180000);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ping_timeout(S32_MIN), 180000);
}

/* An ADD_LOCAL_NI argument as lnetctl sends it. */
struct ni_buf {
	struct lnet_ioctl_config_ni	ni;
	struct lnet_ioctl_lnd_tunables	t;
};

static void ni_buf_init(struct ni_buf *b, u32 lnd)
{
	memset(b, 0, sizeof(*b));
	b->t.lt_cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	b->t.lt_cmn.lct_peer_timeout = -1;
	b->t.lt_cmn.lct_peer_tx_credits = -1;
	b->t.lt_cmn.lct_peer_rtr_credits = -1;
	b->t.lt_cmn.lct_max_tx_credits = -1;
	if (lnd == LNET_LND_SOCK) {
		b->t.lt_lnd.sock.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		b->t.lt_lnd.sock.lnd_tos = -1;
	} else if (lnd == LNET_LND_O2IB) {
		b->t.lt_lnd.o2ib.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
		b->t.lt_lnd.o2ib.lnd_tos = -1;
	}
}

static void ni_tunables_common(struct kunit *test)
{
	struct lnet_ni_tunables tun;
	struct ni_buf b;

	ni_buf_init(&b, LNET_LND_SOCK);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.credits, 0);		/* module default */
	KUNIT_EXPECT_EQ(test, tun.peer_credits, 0);
	b.t.lt_cmn.lct_max_tx_credits = 512;
	b.t.lt_cmn.lct_peer_tx_credits = 16;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.credits, 512);
	KUNIT_EXPECT_EQ(test, tun.peer_credits, 16);
	/* no tunables block at all: defaults */
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b.ni),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.credits, 0);
	b.t.lt_cmn.lct_max_tx_credits = -2;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), -EINVAL);
	b.t.lt_cmn.lct_max_tx_credits = -1;
	b.t.lt_cmn.lct_version = 2;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), -EINVAL);
	b.t.lt_cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	/*
	 * A per-NI peer timeout: Lustre's default (every lnetctl export
	 * has it) is taken; another value would do nothing: refused.
	 */
	b.t.lt_cmn.lct_peer_timeout = LNET_PEER_TIMEOUT_DEFAULT;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	b.t.lt_cmn.lct_peer_timeout = 60;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun),
			-EOPNOTSUPP);
	b.t.lt_cmn.lct_peer_timeout = -1;
	b.t.lt_cmn.lct_peer_rtr_credits = 0;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.peer_rtr_credits, 0);
	/* router buffer credits per peer of this NI (router.c applies) */
	b.t.lt_cmn.lct_peer_rtr_credits = 8;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.peer_rtr_credits, 8);
}

static void ni_tunables_lnd(struct kunit *test)
{
	u32 cmn_end = LNET_IOCTL_NI_TUNABLES_OFFSET +
		      sizeof(struct lnet_ioctl_tunables_common);
	struct lnet_ni_tunables tun;
	struct ni_buf b;

	ni_buf_init(&b, LNET_LND_SOCK);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.lnd.tos, -1);
	/* the LND block goes to the LND's startup(), which decides */
	b.t.lt_lnd.sock.lnd_conns_per_peer = 4;
	b.t.lt_lnd.sock.lnd_timeout = 30;
	b.t.lt_lnd.sock.lnd_tos = 46;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.lnd.conns_per_peer, 4);
	KUNIT_EXPECT_EQ(test, tun.lnd.timeout, 30);
	KUNIT_EXPECT_EQ(test, tun.lnd.tos, 46);
	/* the LND block is read only when ioc_len covers it */
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, cmn_end + 15,
						     LNET_LND_SOCK, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.lnd.conns_per_peer, 0);
	KUNIT_EXPECT_EQ(test, tun.lnd.tos, -1);
	b.t.lt_lnd.sock.lnd_timeout = 0x80000000U;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), -EINVAL);
	b.t.lt_lnd.sock.lnd_timeout = 0;
	b.t.lt_lnd.sock.lnd_conns_per_peer = 0;
	b.t.lt_lnd.sock.lnd_tos = 300;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), -EINVAL);
	b.t.lt_lnd.sock.lnd_tos = -1;
	b.t.lt_lnd.sock.lnd_version = 2;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), -EINVAL);
	/* version 0: no LND block (ip2nets requests), whatever follows */
	memset(&b.t.lt_lnd, 0, sizeof(b.t.lt_lnd));
	b.t.lt_lnd.sock.lnd_conns_per_peer = 9;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_SOCK, &tun), 0);

	ni_buf_init(&b, LNET_LND_O2IB);
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_O2IB, &tun), 0);
	b.t.lt_lnd.o2ib.lnd_ntx = 256;
	b.t.lt_lnd.o2ib.lnd_map_on_demand = 1;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_O2IB, &tun), 0);
	KUNIT_EXPECT_EQ(test, tun.lnd.ntx, 256);
	KUNIT_EXPECT_EQ(test, tun.lnd.map_on_demand, 1);
	b.t.lt_lnd.o2ib.lnd_tos = -2;
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_O2IB, &tun), -EINVAL);
	b.t.lt_lnd.o2ib.lnd_tos = -1;
	/* other LNDs have no LND block: whatever follows is ignored */
	memset(&b.t.lt_lnd, 0x5a, sizeof(b.t.lt_lnd));
	KUNIT_EXPECT_EQ(test, lnet_ioctl_ni_tunables(&b, sizeof(b),
						     LNET_LND_GNI, &tun), 0);
}

static void route_checks(struct kunit *test)
{
	lnet_nid_t gw = LNET_MKNID(TCP(0), 0xc0000201);

	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, -1), 0);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, 1), 0);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, 255), 0);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, 256), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), gw, -2), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(TCP(0), gw, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(LO, gw, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(LNET_NET_ANY, gw, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), LNET_NID_ANY, -1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_check(O2IB(1), LNET_NID_LO_0, -1),
			-EINVAL);
}

static void tunable_ranges(struct kunit *test)
{
	struct lnet_int_param p = { .value = 2, .min = 0, .max = 1000 };
	int v = -7;

	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "3", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 3);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "1000\n", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "0", &v), 0);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "1001", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "-1", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "3x", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, "99999999999", &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_int_param_check(&p, NULL, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 0);	/* untouched by the failures */
	KUNIT_EXPECT_EQ(test, p.value, 2);
}

static const struct lnet_ipif node_ifs[] = {
	{ "eth0", 0xc0000201 },		/* 192.0.2.1 */
	{ "eth1", 0xc6336401 },		/* 198.51.100.1 */
	{ "ib0", 0x0a0a0505 },		/* 10.10.5.5 */
};

static int select_nis(const char *rules, struct lnet_ip2nets_ni *sel)
{
	return lnet_ip2nets_select(rules, node_ifs, ARRAY_SIZE(node_ifs), sel,
				   8);
}

static void ip2nets_select(struct kunit *test)
{
	struct lnet_ip2nets_ni sel[8];

	/* named interface; first matching rule per network wins */
	KUNIT_ASSERT_EQ(test, select_nis("tcp(eth0) 192.0.2.*; tcp 10.*.*.*",
					 sel), 1);
	KUNIT_EXPECT_EQ(test, sel[0].net, TCP(0));
	KUNIT_EXPECT_STREQ(test, sel[0].ifname, "eth0");
	/* no interface named: those whose address matched */
	KUNIT_ASSERT_EQ(test, select_nis("o2ib 10.10.[1-3,5].*", sel), 1);
	KUNIT_EXPECT_EQ(test, sel[0].net, O2IB(0));
	KUNIT_EXPECT_STREQ(test, sel[0].ifname, "ib0");
	KUNIT_ASSERT_EQ(test, select_nis(" tcp1 *.*.*.* ;o2ib2 10.10.5.5\n",
					 sel), 4);
	KUNIT_EXPECT_STREQ(test, sel[0].ifname, "eth0");
	KUNIT_EXPECT_STREQ(test, sel[2].ifname, "ib0");
	KUNIT_EXPECT_EQ(test, sel[3].net, O2IB(2));
	/* two patterns, ranges */
	KUNIT_ASSERT_EQ(test, select_nis("tcp2(eth1,eth0) 1.2.3.4 198.51.100.0-9",
					 sel), 2);
	KUNIT_EXPECT_STREQ(test, sel[1].ifname, "eth0");
	/* nothing matches */
	KUNIT_EXPECT_EQ(test, select_nis("tcp 172.16.*.*", sel), 0);
	KUNIT_EXPECT_EQ(test, select_nis("", sel), 0);
	/* too little room */
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_select("tcp *.*.*.*", node_ifs, 3,
						  sel, 2), -E2BIG);
}

static void ip2nets_malformed(struct kunit *test)
{
	static const char * const bad[] = {
		"tcp", "tcp;", "foo 1.2.3.4", "lo 1.2.3.4", "tcp(eth0 1.2.3.4",
		"tcp() 1.2.3.4", "tcp(0123456789abcdef) *.*.*.*",
		/* malformed patterns: ipv4_pattern_vectors */
	};
	struct lnet_ip2nets_ni sel[8];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, select_nis(bad[i], sel), -EINVAL,
				    "rule \"%s\"", bad[i]);
		/* syntax is checked even on a node without addresses */
		KUNIT_EXPECT_EQ_MSG(test, lnet_ip2nets_select(bad[i], NULL, 0,
							      sel, 8),
				    -EINVAL, "rule \"%s\", no interfaces", bad[i]);
	}
}

/* the vectors libnid's matcher is tested with, as one-pattern rules */
static void ip2nets_pattern_vectors(struct kunit *test)
{
	struct lnet_ip2nets_ni sel[1];
	char rule[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(ipv4_pattern_vectors); i++) {
		const struct ipv4_pattern_vector *v = &ipv4_pattern_vectors[i];
		struct lnet_ipif one = { "eth0", v->addr };
		int want = v->result == VEC_MALFORMED ? -EINVAL : v->result;

		snprintf(rule, sizeof(rule), "tcp %s", v->pattern);
		KUNIT_EXPECT_EQ_MSG(test, lnet_ip2nets_select(rule, &one, 1, sel, 1),
				    want, "pattern \"%s\", address %pI4h",
				    v->pattern, &v->addr);
		if (want == -EINVAL)
			KUNIT_EXPECT_EQ_MSG(test,
					    lnet_ip2nets_select(rule, NULL, 0, sel, 1),
					    -EINVAL, "pattern \"%s\", no interfaces",
					    v->pattern);
	}
}

static struct kunit_case lnet_ioctl_cases[] = {
	KUNIT_CASE(ip2nets_select),
	KUNIT_CASE(ip2nets_pattern_vectors),
	KUNIT_CASE(ip2nets_malformed),
	KUNIT_CASE(cmd_accepts_range),
	KUNIT_CASE(cmd_rejects_outside),
	KUNIT_CASE(hdr_length_bounds),
	KUNIT_CASE(hdr_min_len),
	KUNIT_CASE(hdr_versions),
	KUNIT_CASE(data_plain_block),
	KUNIT_CASE(data_length_sum),
	KUNIT_CASE(data_length_overflow),
	KUNIT_CASE(data_pointer_length_pairs),
	KUNIT_CASE(data_inline_nul),
	KUNIT_CASE(ping_timeouts),
	KUNIT_CASE(ni_tunables_common),
	KUNIT_CASE(ni_tunables_lnd),
	KUNIT_CASE(route_checks),
	KUNIT_CASE(tunable_ranges),
	{}
};

static struct kunit_suite lnet_ioctl_suite = {
	.name = "lnet_ioctl",
	.test_cases = lnet_ioctl_cases,
};
kunit_test_suite(lnet_ioctl_suite);
