/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake LND for the white-box suites: it brings up NIs on a private LND
 * type, records every recv() call, and holds (or completes, or fails) the
 * messages the core hands to send(), so a test can play the network.
 */
#ifndef _LNET_TESTS_FAKE_LND_H
#define _LNET_TESTS_FAKE_LND_H

#include <kunit/test.h>
#include <linux/lnet/lib-lnet.h>

#define FAKE_LND_TYPE	0x7e
#define FAKE_NET(n)	LNET_MKNET(FAKE_LND_TYPE, (n))
#define FAKE_NID(n, a)	LNET_MKNID(FAKE_NET(n), (a))
#define FAKE_MAX_NETS	4
#define FAKE_MY_ADDR	1		/* our NIs are <1@fake n> */
#define FAKE_PEER(n, a)	FAKE_NID(n, 100 + (a))
/* an NI on this interface is a second one on its net: <2@fake n> */
#define FAKE_SECOND_IFACE	"second"

enum fake_send_mode {
	FAKE_SEND_HOLD,		/* keep the message until the test finalizes it */
	FAKE_SEND_COMPLETE,	/* finalize it at once with status 0 */
	FAKE_SEND_FAIL,		/* return fake.send_rc from send() */
};

struct fake_recv {
	struct lnet_msg	*msg;
	void		*private;
	bool		delayed;
	unsigned int	mlen;
	unsigned int	rlen;
};

struct fake_lnd {
	spinlock_t		lock;
	wait_queue_head_t	wq;
	struct lnet_ni		*ni[FAKE_MAX_NETS];
	struct lnet_ni		*ni2[FAKE_MAX_NETS];	/* FAKE_SECOND_IFACE */
	enum fake_send_mode	send_mode;
	int			send_rc;
	int			recv_rc;	/* returned by recv() if < 0 */
	bool			recv_hold;	/* recv() leaves it to the test */
	const void		*rx_data;	/* payload recv() "receives" */
	unsigned int		timeout;	/* what timeout() says, s */
	struct list_head	held;		/* struct fake_tx, not yet taken */
	struct list_head	taken;		/* handed to the test */
	unsigned int		nheld;
	unsigned int		nsend;
	void			*last_send_private;
	unsigned int		nrecv;
	unsigned int		nrecv_null;
	struct fake_recv	last_recv;
	unsigned int		nstartup;
	unsigned int		nshutdown;
};

extern struct fake_lnd fake;
extern struct lnet_lnd fake_lnd_ops;

/* register the fake LND and bring up nets 0..@nnets-1; 0 or -errno */
int fake_lnd_setup(struct kunit *test, int nnets, int credits,
		   int peer_credits);
void fake_lnd_teardown(void);
/*
 * A white-box suite's init: LNetNIInit() (wb_init()), the fake LND with
 * nets 0..@nnets-1, and @env_size zeroed bytes for the suite as the
 * wb_ctx's priv. Returns them or an ERR_PTR (then nothing is left up).
 */
void *fake_suite_init(struct kunit *test, int nnets, int credits,
		      int peer_credits, size_t env_size);
/*
 * The oldest held send, or NULL after @ms. The test ends it with
 * fake_done(); if it does not, the NI's shutdown does.
 */
/* @nid's health value, and its count of @hs if @count; -ENOENT: no peer. */
int fake_peer_health(lnet_nid_t nid, enum lnet_msg_status hs, u64 *count);
struct lnet_msg *fake_take_send(unsigned int ms);
/*
 * A PUT (no ACK) of @len bytes at @buf from a new single-use MD on @eqh
 * to portal @pt of @peer, held by the fake LND: the test ends it.
 */
struct lnet_msg *fake_put_held(struct kunit *test, struct lnet_handle_eq eqh,
			       void *buf, unsigned int len, lnet_nid_t peer,
			       unsigned int pt);
void fake_done(struct lnet_msg *msg, int status);
void fake_finish_held(int status);
/* a header from peer @src to our NI on net @net */
void fake_hdr(struct lnet_hdr *hdr, enum lnet_msg_type type, int net,
	      lnet_nid_t src, unsigned int payload);

#endif /* _LNET_TESTS_FAKE_LND_H */
