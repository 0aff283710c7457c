/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console, shared by its two halves: console_ioctl.c (lst's commands
 * on /dev/lnet: the session, its groups of test nodes, batches and tests)
 * and console_rpc.c (the framework RPCs that carry them to the nodes,
 * Documentation/wire/selftest.md, "What the console does", and the
 * keep-alive).
 *
 * lst_con.mutex serializes every command, the keep-alive pinger and the
 * inactivity timeout; node RPCs of one command go out together and the
 * command waits for all of them (lstcon_fanout()).
 */
#ifndef _LNET_SELFTEST_CONSOLE_H
#define _LNET_SELFTEST_CONSOLE_H

#include "selftest.h"

struct lstcon_node {
	struct list_head	list;		/* lst_con.nodes */
	struct lnet_process_id	id;
	unsigned int		nref;		/* groups holding it */
	enum lst_node_state	state;
	unsigned long		last_seen;	/* jiffies of its last answer */
	u32			timeout;	/* its session timeout, s */
	char			name[LST_NAME_SIZE];
	unsigned int		mark;		/* dedup of one command */
};

struct lstcon_group {
	struct list_head	list;
	char			name[LST_NAME_SIZE];
	unsigned int		nnodes;
	unsigned int		nref;		/* tests using it */
	struct lstcon_node	**nodes;
};

struct lstcon_test {
	struct list_head	list;
	unsigned int		index;		/* 1.. in its batch */
	struct lstcon_group	*from, *to;
	struct lstio_test	args;
};

struct lstcon_batch {
	struct list_head	list;
	char			name[LST_NAME_SIZE];
	u64			bid;
	unsigned int		ntests;
	bool			running;
	struct list_head	tests;
};

struct lstcon {
	struct mutex		mutex;
	bool			active;
	bool			shutdown;
	struct lst_sid		sid;
	char			name[LST_NAME_SIZE];
	s32			key;
	u32			timeout;
	u32			feats;
	unsigned long		last_active;
	u64			next_bid;
	unsigned int		mark;
	struct list_head	nodes;
	struct list_head	groups;
	struct list_head	batches;
	struct delayed_work	ping_work;
};

extern struct lstcon lst_con;

/* ---- console_rpc.c -------------------------------------------------------- */

struct lstcon_fan;

struct lstcon_call {
	struct lst_rpc		rpc;
	struct lstcon_node	*node;
	struct lst_bulk		*bulk;
	struct lstcon_fan	*fan;
};

/* fill the request body of @c (lst_rpc_init() done); may set a bulk */
typedef int (*lstcon_prep_t)(struct lstcon_call *c, unsigned int i, void *arg);

/* @arg of lstcon_prep_batch(): a BATCH request */
struct lstcon_batch_op {
	u64	bid;
	u32	opc;
	u32	testidx;
	u32	arg;
};

/* @arg of lstcon_prep_test(): a TEST request, server or client side */
struct lstcon_test_op {
	struct lstcon_batch	*batch;
	struct lstcon_test	*test;
	bool			client;
};

struct lstcon_call *lstcon_fanout(struct lstcon_node **nodes, unsigned int n,
				  u32 service, u32 timeout, lstcon_prep_t prep,
				  void *arg);
void lstcon_calls_free(struct lstcon_call *calls, unsigned int n);

int lstcon_prep_mksn(struct lstcon_call *c, unsigned int i, void *arg);
int lstcon_prep_rmsn(struct lstcon_call *c, unsigned int i, void *arg);
int lstcon_prep_debug(struct lstcon_call *c, unsigned int i, void *arg);
int lstcon_prep_stat(struct lstcon_call *c, unsigned int i, void *arg);
int lstcon_prep_batch(struct lstcon_call *c, unsigned int i, void *arg);
int lstcon_prep_test(struct lstcon_call *c, unsigned int i, void *arg);

void lstcon_ping_work(struct work_struct *work);

/* ---- console_ioctl.c ------------------------------------------------------ */

void lstcon_session_end(u32 timeout);

#endif /* _LNET_SELFTEST_CONSOLE_H */
