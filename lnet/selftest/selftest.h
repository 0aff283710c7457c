/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnet_selftest.ko: the selftest RPC layer, the test-node framework and
 * the console (Documentation/wire/selftest.md).
 *
 * Files: wire.c (message checks and byte order), rpc.c (client RPCs,
 * services and their request buffers, bulk), framework.c (the test node:
 * session, batches, tests, framework services), ping_test.c and
 * brw_test.c (the two tests, both roles), the console (console.h:
 * console_ioctl.c, its /dev/lnet commands; console_rpc.c, its RPCs to the
 * nodes), module.c.
 *
 * Lock order (Documentation/locking.md, "lnet_selftest"):
 *   lst_con.mutex -> lst_fw.mutex -> rpc->lock, batch->lock, svc->lock
 * The three spinlocks are leaves, taken in EQ callbacks (any context:
 * irq-safe). None is held across an LNet call that can deliver an event
 * synchronously (LNetPut, LNetGet, LNetMDUnlink, LNetMDAttach).
 *
 * Contexts: EQ callbacks only record results and queue work; every
 * handler, test unit step and completion runs from lst_wq, queued on a CPU
 * of the peer's CPT (lst_queue_work()).
 */
#ifndef _LNET_SELFTEST_H
#define _LNET_SELFTEST_H

#include <linux/bvec.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/lnet/api.h>
#include <uapi/linux/lnet/lnetst.h>
#include "wire.h"

#define LST_PID			LNET_PID_LUSTRE
#define LST_PING_INTERVAL	8	/* s, console keep-alive */
#define LST_MAX_NDEST		(256 * LST_DESTS_PER_PAGE)

/* module parameters (module.c) */
extern unsigned int lst_session_timeout;
extern unsigned int lst_rpc_timeout_s;
extern unsigned int lst_framework_buffers;
extern unsigned int lst_test_buffers;
extern unsigned int lst_max_tests;
extern unsigned int lst_max_units;
u64 lst_max_bulk_bytes(void);

extern struct workqueue_struct *lst_wq;
void lst_queue_work(lnet_nid_t peer, struct work_struct *work);

/* ---- buffers for bulk: page vectors ------------------------------------ */

struct lst_bulk {
	unsigned int	len;		/* bytes described by bv[] */
	unsigned int	nbv;
	struct bio_vec	bv[];
};

/*
 * @len bytes starting @offset into the first page; @frag caps each
 * fragment (PAGE_SIZE, or 4092 for a destination list).
 */
struct lst_bulk *lst_bulk_alloc(unsigned int len, unsigned int offset,
				unsigned int frag);
void lst_bulk_free(struct lst_bulk *bk);
struct lst_bulk *lst_bulk_get(unsigned int len);
void lst_bulk_put(struct lst_bulk *bk);
void lst_bulk_cache_drain(void);
void lst_bulk_fill(struct lst_bulk *bk, u32 check);
int lst_bulk_check(struct lst_bulk *bk, u32 check, bool swapped);
void lst_bulk_poison(struct lst_bulk *bk, u32 check);

/* ---- events ------------------------------------------------------------- */

/* md.user_ptr of every selftest MD */
struct lst_mdcb {
	void	(*fn)(struct lst_mdcb *cb, struct lnet_event *ev);
};

/* ---- client RPCs (rpc.c) ------------------------------------------------ */

struct lst_rpc;
typedef void (*lst_rpc_done_t)(struct lst_rpc *rpc);

struct lst_rpc {
	struct lnet_process_id	peer;
	u32			service;
	u32			timeout;	/* s */
	struct lst_msg		req;		/* host order, sent as is */
	struct lst_msg		rpy;		/* host order after completion */
	struct lst_bulk		*bulk;		/* optional, caller's */
	bool			bulk_sink;	/* the peer PUTs into bulk */
	u64			bulkid;

	/* completion: status 0 means a well-formed reply of the right type */
	int			status;
	bool			rpy_swapped;
	lst_rpc_done_t		done;		/* from lst_wq; may repost */
	void			*priv;

	/* private to rpc.c */
	bool			setup;
	bool			posting;
	spinlock_t		lock;
	unsigned int		pending;	/* MDs not yet unlinked */
	int			err;		/* first failure */
	bool			replied;
	bool			bulk_ok;
	bool			aborted;
	bool			aborting;	/* unlinks under way: no completion */
	unsigned int		rpy_len;
	struct lnet_handle_md	req_mdh, rpy_mdh, bulk_mdh;
	struct lst_mdcb		req_cb, rpy_cb, bulk_cb;
	struct timer_list	timer;
	struct work_struct	work;
	struct completion	comp;
};

void lst_rpc_init(struct lst_rpc *rpc, struct lnet_process_id peer,
		  u32 service, u32 feats, u32 timeout);
u64 lst_rpc_set_bulk(struct lst_rpc *rpc, struct lst_bulk *bk, bool sink);
/* 0: done() (or the completion) will follow; else nothing was posted. */
int lst_rpc_post(struct lst_rpc *rpc);
/* Fail an RPC in flight with @why; done() follows. Any context. */
void lst_rpc_abort(struct lst_rpc *rpc, int why);
/* Post and wait (done must be NULL). Returns rpc->status. */
int lst_rpc_call(struct lst_rpc *rpc);
u64 lst_next_id(void);

/* ---- services (rpc.c) --------------------------------------------------- */

struct lst_srpc;

struct lst_service {
	u32		id;
	u32		req_type;
	const char	*name;
	/*
	 * Fill srpc->rpy (type and header already set) and return 0 to reply,
	 * or a negative errno to drop the request without a reply.
	 */
	int		(*handle)(struct lst_srpc *srpc);

	/* private to rpc.c */
	unsigned int	portal;
	spinlock_t	lock;
	struct list_head bufs;		/* every buffer */
	unsigned int	nactive;	/* posted or being served */
	wait_queue_head_t waitq;
	bool		stopping;
};

/* one request buffer and, while it is being served, its RPC */
struct lst_srpc {
	struct lst_service	*svc;
	struct lnet_process_id	peer;		/* the requester */
	struct lst_msg		req;		/* host order once unpacked */
	struct lst_msg		rpy;
	bool			swapped;	/* request came byte-swapped */
	u32			feats;		/* request's ses_feats */

	/* private to rpc.c */
	struct list_head	list;
	struct lnet_handle_md	mdh;
	struct lnet_handle_md	active_mdh;	/* its bulk or reply in flight */
	struct lst_mdcb		cb;
	int			ev_status;
	unsigned int		ev_mlength, ev_rlength;
	bool			posted;
	unsigned int		post_seq;	/* posts so far, under svc->lock */
	bool			serving;
	struct work_struct	work;
};

int lst_service_start(struct lst_service *svc, unsigned int nbufs);
void lst_service_stop(struct lst_service *svc);

/*
 * Active bulk from a handler of @s: GET from (@sink true) or PUT into the
 * requester's bulk MD with match bits @bulkid. Sleeps; 0 or -errno.
 */
int lst_bulk_xfer(struct lst_srpc *s, u64 bulkid, struct lst_bulk *bk,
		  bool sink, unsigned int timeout);

int lst_rpc_startup(void);
void lst_rpc_shutdown(void);

/* module-wide RPC counters, QUERY_STAT */
struct lst_rpc_stats {
	atomic_t	errors;
	atomic_t	sent;
	atomic_t	rcvd;
	atomic_t	dropped;
	atomic_t	expired;
	atomic64_t	bulk_get;
	atomic64_t	bulk_put;
};

extern struct lst_rpc_stats lst_stats;

/* ---- test node framework (framework.c) ---------------------------------- */

struct lst_test;
struct lst_unit;
struct lst_batch;

/* one kind of test, both roles */
struct lst_test_ops {
	u32	service;
	/* client role: check the TEST parameters; 0 or -errno */
	int	(*check_param)(const struct lst_test_req *req, u32 feats);
	/* client role: bulk bytes (whole pages) a unit holds; NULL: none */
	u64	(*unit_bytes)(const union lst_test_param *p, u32 feats);
	/* a unit of @t (u->test is set only once this succeeded) */
	int	(*unit_init)(struct lst_unit *u, struct lst_test *t);
	void	(*unit_fini)(struct lst_unit *u);
	/* prepare the unit's next RPC (lst_rpc_init() and the request body) */
	void	(*prep_rpc)(struct lst_unit *u, struct lst_rpc *rpc);
	/* check a completed RPC: 0, or -errno counted as a test error */
	int	(*done_rpc)(struct lst_unit *u, struct lst_rpc *rpc);
};

struct lst_session;

struct lst_batch {
	struct list_head	list;
	struct lst_session	*ses;
	u64			bid;
	struct list_head	tests;
	spinlock_t		lock;		/* running, stopping, active */
	bool			running;
	bool			stopping;
	unsigned int		active;		/* units not yet over */
	unsigned long		deadline;	/* jiffies, 0: none */
	wait_queue_head_t	waitq;
};

struct lst_test {
	struct list_head	list;		/* in the batch */
	struct lst_batch	*batch;
	const struct lst_test_ops *ops;
	bool			is_client;
	bool			stop_onerr;
	u32			loop;		/* U32_MAX: until stopped */
	u32			concur;
	u32			feats;
	union lst_test_param	param;		/* host order */
	unsigned int		ndest;
	struct lnet_process_id	*dests;
	unsigned int		nunits;		/* ndest * concur */
	struct lst_unit		*units;
	atomic_t		errors;
};

struct lst_unit {
	struct lst_test		*test;
	struct lnet_process_id	dest;
	u32			loops_done;
	u32			seq;
	bool			active;
	struct lst_rpc		rpc;
	struct lst_bulk		*bulk;		/* brw */
};

void lst_unit_done(struct lst_rpc *rpc);
void lst_fw_count_error(struct lst_session *ses, u32 service);
int lst_framework_startup(void);
void lst_framework_shutdown(void);

extern const struct lst_test_ops lst_ping_ops;
extern const struct lst_test_ops lst_brw_ops;
extern struct lst_service lst_ping_service;
extern struct lst_service lst_brw_service;

/* ---- console (console_ioctl.c, console_rpc.c) ------------------------- */

int lst_console_startup(void);
void lst_console_shutdown(void);

/* the first non-loopback NID of this node (console sid) */
lnet_nid_t lst_self_nid(void);
void lst_get_lnet_counters(struct lst_lnet_counters *c);

#endif /* _LNET_SELFTEST_H */
