// SPDX-License-Identifier: GPL-2.0
/*
 * White-box tests of lnet_parse() through a fake LND: each receive rule of
 * Documentation/wire/lnet-header.md ("Receive checks"), and what the core
 * hands back to the LND (recv() calls, REPLY and ACK messages) for valid
 * traffic.
 */
#include <uapi/linux/lnet/lnet-ioctl.h>
#include "fake_lnd.h"
#include "wb_util.h"

#define PT		30
#define PEER		FAKE_PEER(0, 1)
#define MY_NID		FAKE_NID(0, FAKE_MY_ADDR)
#define PRIV		((void *)0x5eed)

struct parse_env {
	struct lnet_handle_eq	eqh;
	u8			data[256];
};

static int parse_init(struct kunit *test)
{
	struct parse_env *env;
	int i;

	env = fake_suite_init(test, 2, 0, 0, sizeof(*env));
	if (IS_ERR(env))
		return PTR_ERR(env);
	for (i = 0; i < sizeof(env->data); i++)
		env->data[i] = i * 7 + 3;
	fake.rx_data = env->data;
	env->eqh = wb_eq(test, 64, NULL);
	return 0;
}

static void parse_exit(struct kunit *test)
{
	if (!test->priv)
		return;
	fake_finish_held(-ESHUTDOWN);
	fake_lnd_teardown();
	wb_exit(test);
}

static struct parse_env *penv(struct kunit *test)
{
	return ((struct wb_ctx *)test->priv)->priv;
}

static int parse(struct lnet_hdr *hdr, int net, bool rdma)
{
	return lnet_parse(fake.ni[net], hdr, hdr->src_nid, PRIV, rdma);
}

/* An MD on portal PT taking PUTs and GETs, matching @bits from anyone. */
static struct lnet_handle_md parse_post(struct kunit *test, u64 bits,
					void *buf, unsigned int len,
					unsigned int opts)
{
	struct lnet_handle_me meh = wb_me(test, PT, wb_any(), bits, 0);

	return wb_attach(test, meh, wb_md(buf, len, LNET_MD_THRESH_INF,
					  opts, buf, penv(test)->eqh));
}

static void expect_proto(struct kunit *test, struct lnet_hdr *hdr, bool rdma)
{
	unsigned int nrecv = fake.nrecv;

	KUNIT_EXPECT_EQ(test, parse(hdr, 0, rdma), -EPROTO);
	KUNIT_EXPECT_EQ(test, fake.nrecv, nrecv);	/* no recv() at all */
}

static void expect_drop(struct kunit *test, struct lnet_hdr *hdr)
{
	unsigned int nnull = fake.nrecv_null;

	KUNIT_EXPECT_EQ(test, parse(hdr, 0, false), 0);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 1);
	KUNIT_EXPECT_PTR_EQ(test, fake.last_recv.private, PRIV);
	KUNIT_EXPECT_EQ(test, fake.last_recv.rlen, hdr->payload_length);
	KUNIT_EXPECT_EQ(test, fake.last_recv.mlen, 0U);
}

static void parse_payload_rules(struct kunit *test)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 1);
	expect_proto(test, &hdr, false);
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 8);
	expect_proto(test, &hdr, false);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, LNET_MTU + 1);
	expect_proto(test, &hdr, false);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, LNET_MTU + 1);
	expect_proto(test, &hdr, false);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 0xffffffff);
	expect_proto(test, &hdr, false);
}

static void parse_mtu_ok(struct kunit *test)
{
	struct lnet_hdr hdr;

	/* exactly LNET_MTU is legal; nothing matches, so it is dropped */
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, LNET_MTU);
	hdr.msg.put.ptl_index = PT;
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, LNET_MTU);
	expect_drop(test, &hdr);
}

static void parse_bad_types(struct kunit *test)
{
	static const u32 types[] = { LNET_MSG_HELLO, 5, 0x100, 0xffffffff };
	struct lnet_hdr hdr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 0);
		hdr.type = types[i];
		expect_proto(test, &hdr, false);
	}
}

static void parse_dest_rules(struct kunit *test)
{
	struct lnet_hdr hdr;

	/* same net as the receiving NI, another address */
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 0);
	hdr.dest_nid = FAKE_NID(0, 77);
	expect_proto(test, &hdr, false);
	/* another local NI's NID */
	hdr.dest_nid = FAKE_NID(1, FAKE_MY_ADDR);
	expect_proto(test, &hdr, false);
	hdr.dest_nid = LNET_NID_LO_0;
	expect_proto(test, &hdr, false);
}

static void parse_not_for_me(struct kunit *test)
{
	struct lnet_hdr hdr;

	/* elsewhere and we do not route: dropped, payload consumed */
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 100);
	hdr.dest_nid = 0x00020000C0000201ULL;
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 0);
	hdr.dest_nid = 0x00020000C0000201ULL;
	expect_drop(test, &hdr);
	/* ... but an RDMA GET for someone else is a protocol error */
	expect_proto(test, &hdr, true);
}

static void parse_put_no_match(struct kunit *test)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 64);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 9;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	expect_drop(test, &hdr);
	/* a portal index out of range is a drop, not an error */
	hdr.msg.put.ptl_index = LNET_MAX_PORTALS;
	expect_drop(test, &hdr);
	wb_quiet(test, penv(test)->eqh);
}

static void parse_put_matched(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	mdh = parse_post(test, 5, buf, 64, LNET_MD_OP_PUT);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 40);
	hdr.src_pid = 4242;
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 5;
	hdr.msg.put.hdr_data = 0xabc;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	KUNIT_EXPECT_NOT_NULL(test, fake.last_recv.msg);
	KUNIT_EXPECT_EQ(test, fake.last_recv.mlen, 40U);
	KUNIT_EXPECT_EQ(test, fake.last_recv.rlen, 40U);
	KUNIT_EXPECT_FALSE(test, fake.last_recv.delayed);

	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, ev.md_handle.cookie, mdh.cookie);
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, PEER);
	KUNIT_EXPECT_EQ(test, ev.initiator.pid, 4242U);
	KUNIT_EXPECT_EQ(test, ev.target.nid, MY_NID);
	KUNIT_EXPECT_EQ(test, ev.sender, PEER);
	KUNIT_EXPECT_EQ(test, ev.hdr_data, 0xabcULL);
	KUNIT_EXPECT_EQ(test, ev.pt_index, (unsigned int)PT);
	KUNIT_EXPECT_EQ(test, memcmp(buf, env->data, 40), 0);
	KUNIT_EXPECT_EQ(test, fake.nsend, 0U);	/* no ACK asked for */
}

static void parse_put_truncated(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	parse_post(test, 6, buf, 16, LNET_MD_OP_PUT | LNET_MD_TRUNCATE);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 40);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 6;
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	KUNIT_EXPECT_EQ(test, fake.last_recv.mlen, 16U);
	KUNIT_EXPECT_EQ(test, fake.last_recv.rlen, 40U);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.rlength, 40U);
	KUNIT_EXPECT_EQ(test, ev.mlength, 16U);
}

static void parse_put_ack(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_event ev;
	struct lnet_hdr hdr;
	struct lnet_msg *ack;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	parse_post(test, 7, buf, 64, LNET_MD_OP_PUT);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 30);
	hdr.src_pid = 777;
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 7;
	hdr.msg.put.ack_wmd.wh_interface_cookie = 0x1111;
	hdr.msg.put.ack_wmd.wh_object_cookie = 0x2222;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);

	ack = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, ack);
	KUNIT_EXPECT_EQ(test, ack->hdr.type, (u32)LNET_MSG_ACK);
	KUNIT_EXPECT_EQ(test, ack->hdr.dest_nid, PEER);
	KUNIT_EXPECT_EQ(test, ack->hdr.dest_pid, 777U);
	KUNIT_EXPECT_EQ(test, ack->hdr.src_nid, MY_NID);
	KUNIT_EXPECT_EQ(test, ack->hdr.src_pid, (u32)LNET_PID_LUSTRE);
	KUNIT_EXPECT_EQ(test, ack->hdr.payload_length, 0U);
	KUNIT_EXPECT_EQ(test, ack->hdr.msg.ack.dst_wmd.wh_interface_cookie,
			0x1111ULL);
	KUNIT_EXPECT_EQ(test, ack->hdr.msg.ack.dst_wmd.wh_object_cookie,
			0x2222ULL);
	KUNIT_EXPECT_EQ(test, ack->hdr.msg.ack.match_bits, 7ULL);
	KUNIT_EXPECT_EQ(test, ack->hdr.msg.ack.mlength, 30U);
	KUNIT_EXPECT_EQ(test, ack->target.nid, PEER);
	KUNIT_EXPECT_PTR_EQ(test, ack->ni, fake.ni[0]);
	fake_done(ack, 0);
}

static void parse_put_ack_disabled(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	parse_post(test, 8, buf, 64, LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 30);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 8;
	hdr.msg.put.ack_wmd.wh_object_cookie = 1;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
}

static void parse_get_reply(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *src = kunit_kzalloc(test, 100, GFP_KERNEL);
	u8 out[64];
	struct lnet_handle_md mdh;
	struct lnet_msg *reply;
	struct lnet_event ev;
	struct lnet_hdr hdr;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	for (i = 0; i < 100; i++)
		src[i] = 200 - i;
	mdh = parse_post(test, 9, src, 100,
			 LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE);
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 0);
	hdr.src_pid = 99;
	hdr.msg.get.ptl_index = PT;
	hdr.msg.get.match_bits = 9;
	hdr.msg.get.src_offset = 20;
	hdr.msg.get.sink_length = 50;
	hdr.msg.get.return_wmd.wh_interface_cookie = 0xaa;
	hdr.msg.get.return_wmd.wh_object_cookie = 0xbb;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);

	/* the GET itself is done with (recv() without a message) ... */
	KUNIT_EXPECT_NULL(test, fake.last_recv.msg);
	KUNIT_EXPECT_PTR_EQ(test, fake.last_recv.private, PRIV);
	/* ... and its REPLY goes out on the same NI */
	reply = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_NULL(test, fake.last_send_private);
	KUNIT_EXPECT_EQ(test, reply->hdr.type, (u32)LNET_MSG_REPLY);
	KUNIT_EXPECT_EQ(test, reply->hdr.dest_nid, PEER);
	KUNIT_EXPECT_EQ(test, reply->hdr.dest_pid, 99U);
	KUNIT_EXPECT_EQ(test, reply->hdr.src_nid, MY_NID);
	KUNIT_EXPECT_EQ(test, reply->hdr.payload_length, 50U);
	KUNIT_EXPECT_EQ(test, reply->hdr.msg.reply.dst_wmd.wh_interface_cookie,
			0xaaULL);
	KUNIT_EXPECT_EQ(test, reply->hdr.msg.reply.dst_wmd.wh_object_cookie,
			0xbbULL);
	KUNIT_EXPECT_EQ(test, lnet_msg_len(reply), 50U);
	{
		struct kvec kv = { .iov_base = out, .iov_len = sizeof(out) };
		struct iov_iter to;

		iov_iter_kvec(&to, ITER_DEST, &kv, 1, sizeof(out));
		KUNIT_EXPECT_EQ(test, lnet_msg_copy_to_iter(reply, 64, &to),
				(size_t)50);
		KUNIT_EXPECT_EQ(test, memcmp(out, src + 20, 50), 0);
	}
	/* the GET event comes once the REPLY is sent */
	wb_quiet(test, env->eqh);
	fake_done(reply, 0);
	wb_wait(test, env->eqh, LNET_EVENT_GET, &ev);
	KUNIT_EXPECT_EQ(test, ev.md_handle.cookie, mdh.cookie);
	KUNIT_EXPECT_EQ(test, ev.mlength, 50U);
	KUNIT_EXPECT_EQ(test, ev.rlength, 50U);
	KUNIT_EXPECT_EQ(test, ev.offset, 20U);
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, PEER);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
}

static void parse_rdma_get(struct kunit *test)
{
	u8 *src = kunit_kzalloc(test, 32, GFP_KERNEL);
	unsigned int nrecv = fake.nrecv;
	struct lnet_msg *reply;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, src);
	parse_post(test, 10, src, 32, LNET_MD_OP_GET);
	fake_hdr(&hdr, LNET_MSG_GET, 0, PEER, 0);
	hdr.msg.get.ptl_index = PT;
	hdr.msg.get.match_bits = 10;
	hdr.msg.get.sink_length = 32;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, true), 0);
	/* no recv(): the GET's context travels with its REPLY */
	KUNIT_EXPECT_EQ(test, fake.nrecv, nrecv);
	reply = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_PTR_EQ(test, fake.last_send_private, PRIV);
	fake_done(reply, 0);
}

static void parse_stale_handles(struct kunit *test)
{
	struct lnet_hdr hdr;

	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 10);
	hdr.msg.reply.dst_wmd.wh_interface_cookie = 1;
	hdr.msg.reply.dst_wmd.wh_object_cookie = 0x1237;
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 0);
	hdr.msg.ack.dst_wmd = LNET_WIRE_HANDLE_NONE;
	expect_drop(test, &hdr);
	wb_quiet(test, penv(test)->eqh);
}

/* Play the remote end of our GET: its REPLY lands in the sink MD. */
static void parse_reply_to_get(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 48, GFP_KERNEL);
	struct lnet_handle_md mdh;
	struct lnet_msg *get;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	mdh = wb_bind(test, wb_md(sink, 48, LNET_MD_THRESH_INF, 0, NULL,
				  env->eqh));
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 3, 0),
			0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, get);
	KUNIT_EXPECT_EQ(test, get->hdr.type, (u32)LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, get->hdr.src_nid, MY_NID);
	KUNIT_EXPECT_EQ(test, get->hdr.msg.get.sink_length, 48U);
	KUNIT_EXPECT_EQ(test, get->target.nid, PEER);

	/* a REPLY with another bring-up's interface cookie is dropped */
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 48);
	hdr.msg.reply.dst_wmd = get->hdr.msg.get.return_wmd;
	hdr.msg.reply.dst_wmd.wh_interface_cookie ^= 1;
	expect_drop(test, &hdr);

	hdr.msg.reply.dst_wmd = get->hdr.msg.get.return_wmd;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	KUNIT_EXPECT_EQ(test, fake.last_recv.mlen, 48U);
	fake_done(get, 0);

	/* REPLY before SEND is fine: they are separate messages */
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 48U);
	KUNIT_EXPECT_EQ(test, ev.target.nid, PEER);
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, MY_NID);
	KUNIT_EXPECT_EQ(test, memcmp(sink, env->data, 48), 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
}

static void parse_ack_to_put(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *src = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct lnet_handle_wire wmd;
	struct lnet_handle_md mdh;
	struct lnet_msg *put;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, src);
	mdh = wb_bind(test, wb_md(src, 16, 2, 0, NULL, env->eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_ACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 0x77, 0,
				      0), 0);
	put = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, put);
	KUNIT_EXPECT_FALSE(test,
			   lnet_wire_handle_is_none(&put->hdr.msg.put.ack_wmd));
	KUNIT_EXPECT_EQ(test, put->hdr.payload_length, 16U);
	wmd = put->hdr.msg.put.ack_wmd;
	fake_done(put, 0);		/* @put is gone */
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 0);

	fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 0);
	hdr.msg.ack.dst_wmd = wmd;
	hdr.msg.ack.match_bits = 0x77;
	hdr.msg.ack.mlength = 12;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 12U);
	KUNIT_EXPECT_EQ(test, ev.match_bits, 0x77ULL);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);	/* threshold 2 used up */
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), -ENOENT);

	/* a duplicate ACK finds no MD */
	expect_drop(test, &hdr);
}

/* An LND that RDMAs a REPLY itself (o2iblnd) makes the REPLY message. */
static void parse_lnd_made_reply(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_md mdh;
	struct lnet_msg *get, *reply;
	struct lnet_event ev;
	struct iov_iter iter;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	mdh = wb_bind(test, wb_md(sink, 64, 2, 0, NULL, env->eqh));
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 3, 0),
			0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, get);
	reply = lnet_create_reply_msg(fake.ni[0], get);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);

	/* the "RDMA": 20 bytes straight into the sink */
	lnet_set_reply_msg_len(fake.ni[0], reply, 20);
	lnet_msg_iter(reply, ITER_DEST, &iter);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), (size_t)20);
	KUNIT_EXPECT_EQ(test, copy_to_iter(env->data, 20, &iter), (size_t)20);
	lnet_finalize(reply, 0);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 20U);
	KUNIT_EXPECT_EQ(test, ev.unlinked, 1);
	KUNIT_EXPECT_EQ(test, ev.target.nid, PEER);
	KUNIT_EXPECT_EQ(test, memcmp(sink, env->data, 20), 0);

	/* the sink is gone: no second REPLY can be made */
	KUNIT_ASSERT_EQ(test, LNetMDUnlink(mdh), -ENOENT);
}

static void parse_recv_error(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	parse_post(test, 11, buf, 64, LNET_MD_OP_PUT);
	fake.recv_rc = -EIO;
	fake_hdr(&hdr, LNET_MSG_PUT, 0, PEER, 20);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 11;
	hdr.msg.put.ack_wmd.wh_object_cookie = 5;	/* no ACK on error */
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	fake.recv_rc = 0;
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -EIO);
	KUNIT_EXPECT_NULL(test, fake_take_send(WB_QUIET_MS));
}

/* Send a GET for @len bytes into a new sink MD; the GET is handed back. */
static struct lnet_msg *parse_send_get(struct kunit *test, void *sink,
				       unsigned int len, unsigned int opts,
				       struct lnet_handle_md *mdh)
{
	struct lnet_msg *get;

	*mdh = wb_bind(test, wb_md(sink, len, LNET_MD_THRESH_INF, opts, NULL,
				   penv(test)->eqh));
	KUNIT_EXPECT_EQ(test, LNetGet(LNET_NID_ANY, *mdh,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 3, 0),
			0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_EXPECT_NOT_NULL(test, get);
	return get;
}

/*
 * A REPLY longer than the sink our GET offered breaks the protocol, even
 * into a truncating MD: lnet_parse() fails it and the sink is untouched.
 */
static void parse_reply_longer_than_sink(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_md mdh;
	struct lnet_msg *get;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	get = parse_send_get(test, sink, 48, LNET_MD_TRUNCATE, &mdh);
	KUNIT_ASSERT_NOT_NULL(test, get);
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 49);
	hdr.msg.reply.dst_wmd = get->hdr.msg.get.return_wmd;
	fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	expect_proto(test, &hdr, false);
	wb_quiet(test, env->eqh);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(sink, 0, 64), NULL);

	/* the MD still waits for its REPLY */
	hdr.payload_length = 40;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	KUNIT_EXPECT_EQ(test, fake.last_recv.mlen, 40U);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 40U);
	KUNIT_EXPECT_EQ(test, ev.rlength, 40U);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

/* The same for a REPLY an LND RDMAs itself: it is cut to the sink. */
static void parse_lnd_reply_longer_than_sink(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_md mdh;
	struct lnet_msg *get, *reply;
	struct lnet_event ev;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	get = parse_send_get(test, sink, 32, 0, &mdh);
	KUNIT_ASSERT_NOT_NULL(test, get);
	reply = lnet_create_reply_msg(fake.ni[0], get);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, lnet_set_reply_msg_len(fake.ni[0], reply, 4096),
			-EPROTO);
	lnet_finalize(reply, -EPROTO);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -EPROTO);
	KUNIT_EXPECT_LE(test, ev.mlength, 32U);
	KUNIT_EXPECT_LE(test, ev.rlength, 32U);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

/*
 * A bound MD takes only the answer it waits for, from the peer it asked:
 * not a REPLY into a PUT source, not an ACK into a GET sink, nothing from
 * another peer. Each is dropped with the MD untouched.
 */
static void parse_answer_from_wrong_peer_or_kind(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct lnet_handle_wire ack_wmd, reply_wmd;
	struct lnet_handle_md getmd, putmd;
	struct lnet_msg *get, *put;
	struct lnet_event ev;
	struct lnet_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	get = parse_send_get(test, sink, 32, 0, &getmd);
	KUNIT_ASSERT_NOT_NULL(test, get);
	reply_wmd = get->hdr.msg.get.return_wmd;
	fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);

	putmd = wb_bind(test, wb_md(sink + 32, 32, LNET_MD_THRESH_INF, 0,
				    NULL, env->eqh));
	KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, putmd, LNET_ACK_REQ,
				      wb_id(PEER, LNET_PID_LUSTRE), 4, 9, 0,
				      0), 0);
	put = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, put);
	ack_wmd = put->hdr.msg.put.ack_wmd;
	fake_done(put, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);

	/* the right kind from another peer */
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, FAKE_PEER(0, 2), 32);
	hdr.msg.reply.dst_wmd = reply_wmd;
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_ACK, 0, FAKE_PEER(0, 2), 0);
	hdr.msg.ack.dst_wmd = ack_wmd;
	expect_drop(test, &hdr);
	/* the wrong kind from the right peer */
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 32);
	hdr.msg.reply.dst_wmd = ack_wmd;
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 0);
	hdr.msg.ack.dst_wmd = reply_wmd;
	expect_drop(test, &hdr);
	wb_quiet(test, env->eqh);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(sink, 0, 64), NULL);

	/* the answers waited for still land, once each */
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 32);
	hdr.msg.reply.dst_wmd = reply_wmd;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	KUNIT_EXPECT_EQ(test, memcmp(sink, env->data, 32), 0);
	expect_drop(test, &hdr);
	fake_hdr(&hdr, LNET_MSG_ACK, 0, PEER, 0);
	hdr.msg.ack.dst_wmd = ack_wmd;
	hdr.msg.ack.mlength = 32;
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_ACK, &ev);
	KUNIT_EXPECT_EQ(test, ev.mlength, 32U);
	expect_drop(test, &hdr);
	wb_quiet(test, env->eqh);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(getmd), 0);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(putmd), 0);
}

/*
 * One bound MD with several GETs outstanding waits for one REPLY per GET
 * (the first expectation lives in the MD, the others are allocated); a
 * GET whose send failed waits for nothing, and the MD's own expectation
 * is reused once its REPLY came.
 */
static void parse_several_answers_one_md(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *sink = kunit_kzalloc(test, 32, GFP_KERNEL);
	struct lnet_process_id peer = wb_id(PEER, LNET_PID_LUSTRE);
	struct lnet_handle_wire wmd;
	struct lnet_handle_md mdh;
	struct lnet_msg *get;
	struct lnet_event ev;
	struct lnet_hdr hdr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sink);
	mdh = wb_bind(test, wb_md(sink, 32, LNET_MD_THRESH_INF, 0, NULL,
				  env->eqh));
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh, peer, 4, 3, 0),
				0);
		get = fake_take_send(WB_WAIT_MS);
		KUNIT_ASSERT_NOT_NULL(test, get);
		wmd = get->hdr.msg.get.return_wmd;
		fake_done(get, 0);
		wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	}
	fake_hdr(&hdr, LNET_MSG_REPLY, 0, PEER, 32);
	hdr.msg.reply.dst_wmd = wmd;
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
		wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
		KUNIT_EXPECT_EQ(test, ev.mlength, 32U);
	}
	expect_drop(test, &hdr);

	/* a GET that never went out: its REPLY is not waited for */
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh, peer, 4, 3, 0), 0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, get);
	fake_done(get, -EIO);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, -EIO);
	expect_drop(test, &hdr);

	/* and the next one is, once */
	KUNIT_ASSERT_EQ(test, LNetGet(LNET_NID_ANY, mdh, peer, 4, 3, 0), 0);
	get = fake_take_send(WB_WAIT_MS);
	KUNIT_ASSERT_NOT_NULL(test, get);
	fake_done(get, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_ASSERT_EQ(test, parse(&hdr, 0, false), 0);
	wb_wait(test, env->eqh, LNET_EVENT_REPLY, &ev);
	expect_drop(test, &hdr);
	wb_quiet(test, env->eqh);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

/*
 * A peer on our net naming another NID as the source is dropped before
 * anything follows that NID (no event, no ACK, no peer). A source on
 * another net is what a router forwards, and passes.
 */
static void parse_spoofed_source(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	lnet_nid_t fake_src = FAKE_PEER(0, 66);
	unsigned int nnull = fake.nrecv_null, nsend = fake.nsend;
	struct lnet_event ev;
	struct lnet_hdr hdr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	fake.send_mode = FAKE_SEND_COMPLETE;
	parse_post(test, 12, buf, 64, LNET_MD_OP_PUT);
	fake_hdr(&hdr, LNET_MSG_PUT, 0, fake_src, 16);
	hdr.msg.put.ptl_index = PT;
	hdr.msg.put.match_bits = 12;
	hdr.msg.put.ack_wmd.wh_object_cookie = 5;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, PEER, PRIV, false),
			0);
	KUNIT_EXPECT_EQ(test, fake.nrecv_null, nnull + 1);
	KUNIT_EXPECT_EQ(test, fake.last_recv.rlen, 16U);
	wb_quiet(test, env->eqh);
	KUNIT_EXPECT_EQ(test, fake.nsend, nsend);
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(fake_src, &i, &i, &i),
			-ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, 64), NULL);

	/* routed: the source's net is not the NI's */
	hdr.src_nid = LNET_MKNID(LNET_MKNET(FAKE_LND_TYPE, 9), 5);
	hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	KUNIT_ASSERT_EQ(test, lnet_parse(fake.ni[0], &hdr, PEER, PRIV, false),
			0);
	wb_wait(test, env->eqh, LNET_EVENT_PUT, &ev);
	KUNIT_EXPECT_EQ(test, ev.initiator.nid, hdr.src_nid);
}

/* PUT 8 bytes to @nid (no ACK); the message is handed back if held. */
static struct lnet_msg *parse_put_to(struct kunit *test, lnet_nid_t nid,
				     void *src)
{
	struct parse_env *env = penv(test);
	struct lnet_handle_md mdh;

	mdh = wb_bind(test, wb_md(src, 8, 1, 0, NULL, env->eqh));
	KUNIT_EXPECT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
				      wb_id(nid, LNET_PID_LUSTRE), PT, 1, 0,
				      0), 0);
	return fake.send_mode == FAKE_SEND_HOLD ? fake_take_send(WB_WAIT_MS) :
						  NULL;
}

/*
 * Idle peers are freed (peer_idle_timeout): not while a message holds
 * them, not while used lately; a send afterwards makes the peer again.
 */
static void parse_idle_peers_freed(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *src = kunit_kzalloc(test, 8, GFP_KERNEL);
	lnet_nid_t a = FAKE_PEER(0, 20), b = FAKE_PEER(0, 21);
	struct lnet_event ev;
	struct lnet_msg *held;
	int i, credits, minc;
	unsigned int n0;

	KUNIT_ASSERT_NOT_NULL(test, src);
	lnet_peers_reap(0);
	n0 = lnet_peer_count();

	fake.send_mode = FAKE_SEND_COMPLETE;
	parse_put_to(test, a, src);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	fake.send_mode = FAKE_SEND_HOLD;
	held = parse_put_to(test, b, src);
	KUNIT_ASSERT_NOT_NULL(test, held);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0 + 2);

	/* a was used just now */
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(3600 * HZ), 0U);
	/* b is held by its message */
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(0), 1U);
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(a, &i, &i, &i), -ENOENT);
	KUNIT_EXPECT_GT(test, lnet_peer_credit_state(b, &i, &i, &i), 0);

	fake_done(held, 0);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(0), 1U);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0);

	/* and a comes back with its next message, credits full */
	fake.send_mode = FAKE_SEND_COMPLETE;
	parse_put_to(test, a, src);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(a, &credits, &minc, &i),
			credits);
	KUNIT_EXPECT_EQ(test, minc, credits - 1);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0 + 1);
}

/*
 * peer add: a configured peer is not freed when idle, and peer del
 * forgets it (or a peer traffic made). Our own NID and a NID on a net
 * with no NI of ours are refused.
 */
static void parse_configured_peers_kept(struct kunit *test)
{
	struct parse_env *env = penv(test);
	u8 *src = kunit_kzalloc(test, 8, GFP_KERNEL);
	lnet_nid_t c = FAKE_PEER(0, 22), d = FAKE_PEER(0, 23);
	struct lnet_event ev;
	unsigned int n0;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	lnet_peers_reap(0);
	n0 = lnet_peer_count();

	KUNIT_EXPECT_EQ(test, lnet_peer_configure(c), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_configure(c), -EEXIST);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0 + 1);
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(0), 0U);
	KUNIT_EXPECT_GT(test, lnet_peer_credit_state(c, &i, &i, &i), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_configure(MY_NID), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_peer_configure(FAKE_NID(FAKE_MAX_NETS, 5)),
			-EHOSTUNREACH);

	/* one that traffic made becomes configured, kept idle too */
	fake.send_mode = FAKE_SEND_COMPLETE;
	parse_put_to(test, d, src);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, lnet_peer_configure(d), 0);
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(0), 0U);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0 + 2);

	KUNIT_EXPECT_EQ(test, lnet_peer_del(c), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_del(c), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_peer_credit_state(c, &i, &i, &i), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_peer_del(d), 0);
	KUNIT_EXPECT_EQ(test, lnet_peer_count(), n0);

	/* forgotten, d comes back with its next message, not configured */
	parse_put_to(test, d, src);
	wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	KUNIT_EXPECT_EQ(test, ev.status, 0);
	KUNIT_EXPECT_EQ(test, lnet_peers_reap(0), 1U);
}

/*
 * GET_PEER_NI, open to anyone, lists every peer by index; the walk is
 * under RCU with net_lock held for one peer only (lockdep checks the
 * nesting here).
 */
static void parse_peer_listing(struct kunit *test)
{
	struct parse_env *env = penv(test);
	struct lnet_ioctl_peer_ni *p;
	unsigned int i, found = 0;
	struct lnet_handle_md mdh;
	struct lnet_event ev;
	u8 *buf;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	buf = kunit_kzalloc(test, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	fake.send_mode = FAKE_SEND_COMPLETE;
	mdh = wb_bind(test, wb_md(buf, 8, LNET_MD_THRESH_INF, 0, NULL,
				  env->eqh));
	for (i = 0; i < 8; i++) {
		KUNIT_ASSERT_EQ(test, LNetPut(LNET_NID_ANY, mdh, LNET_NOACK_REQ,
					      wb_id(FAKE_PEER(0, 500 + i),
						    LNET_PID_LUSTRE),
					      4, 0, 0, 0), 0);
		wb_wait(test, env->eqh, LNET_EVENT_SEND, &ev);
	}
	for (i = 0; i < 1000; i++) {
		memset(p, 0, sizeof(*p));
		p->pni_hdr.ioc_len = sizeof(*p);
		p->pni_hdr.ioc_version = LNET_IOCTL_VERSION2;
		p->pni_index = i;
		if (LNetCtl(LNET_IOC_GET_PEER_NI, p))
			break;
		KUNIT_EXPECT_EQ(test, p->pni_nid, p->pni_primary_nid);
		if (p->pni_nid >= FAKE_PEER(0, 500) &&
		    p->pni_nid < FAKE_PEER(0, 508)) {
			found++;
			KUNIT_EXPECT_EQ(test, p->pni_available_tx_credits,
					p->pni_max_tx_credits);
		}
	}
	KUNIT_EXPECT_EQ(test, i, lnet_peer_count());
	KUNIT_EXPECT_EQ(test, found, 8U);
	KUNIT_EXPECT_EQ(test, LNetMDUnlink(mdh), 0);
}

static struct kunit_case lnet_parse_cases[] = {
	KUNIT_CASE(parse_payload_rules),
	KUNIT_CASE(parse_mtu_ok),
	KUNIT_CASE(parse_bad_types),
	KUNIT_CASE(parse_dest_rules),
	KUNIT_CASE(parse_not_for_me),
	KUNIT_CASE(parse_put_no_match),
	KUNIT_CASE(parse_put_matched),
	KUNIT_CASE(parse_put_truncated),
	KUNIT_CASE(parse_put_ack),
	KUNIT_CASE(parse_put_ack_disabled),
	KUNIT_CASE(parse_get_reply),
	KUNIT_CASE(parse_rdma_get),
	KUNIT_CASE(parse_stale_handles),
	KUNIT_CASE(parse_reply_to_get),
	KUNIT_CASE(parse_ack_to_put),
	KUNIT_CASE(parse_lnd_made_reply),
	KUNIT_CASE(parse_recv_error),
	KUNIT_CASE(parse_reply_longer_than_sink),
	KUNIT_CASE(parse_lnd_reply_longer_than_sink),
	KUNIT_CASE(parse_answer_from_wrong_peer_or_kind),
	KUNIT_CASE(parse_several_answers_one_md),
	KUNIT_CASE(parse_spoofed_source),
	KUNIT_CASE(parse_idle_peers_freed),
	KUNIT_CASE(parse_configured_peers_kept),
	KUNIT_CASE(parse_peer_listing),
	{}
};

static struct kunit_suite lnet_parse_suite = {
	.name = "lnet_parse",
	.init = parse_init,
	.exit = parse_exit,
	.test_cases = lnet_parse_cases,
};
kunit_test_suite(lnet_parse_suite);
