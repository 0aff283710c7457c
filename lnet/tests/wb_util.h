/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the white-box suites: a per-case context that
 * holds an LNetNIInit() reference and remembers the MEs, MDs and EQs a
 * case makes, so .exit can release them even after a failed assertion.
 */
#ifndef _LNET_TESTS_WB_UTIL_H
#define _LNET_TESTS_WB_UTIL_H

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/lnet/api.h>

#define WB_WAIT_MS	5000
#define WB_QUIET_MS	200
#define WB_MAX_OBJS	64

struct wb_ctx {
	int			nme, nmd, neq;
	struct lnet_handle_me	me[WB_MAX_OBJS];
	struct lnet_handle_md	md[WB_MAX_OBJS];
	struct lnet_handle_eq	eq[WB_MAX_OBJS];
	void			*priv;		/* the suite's */
};

static inline int wb_init(struct kunit *test)
{
	struct wb_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	int rc;

	if (!ctx)
		return -ENOMEM;
	rc = LNetNIInit(LNET_PID_LUSTRE);
	if (rc)
		return rc;
	test->priv = ctx;
	return 0;
}

static inline void wb_exit(struct kunit *test)
{
	struct wb_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = ctx->nmd - 1; i >= 0; i--)
		LNetMDUnlink(ctx->md[i]);
	for (i = ctx->nme - 1; i >= 0; i--)
		LNetMEUnlink(ctx->me[i]);
	for (i = ctx->neq - 1; i >= 0; i--)
		LNetEQFree(ctx->eq[i]);
	LNetNIFini();
}

static inline struct lnet_handle_eq wb_eq(struct kunit *test,
					  unsigned int count,
					  lnet_eq_handler_t handler)
{
	struct wb_ctx *ctx = test->priv;
	struct lnet_handle_eq h;

	KUNIT_ASSERT_EQ(test, LNetEQAlloc(count, handler, &h), 0);
	KUNIT_ASSERT_LT(test, ctx->neq, WB_MAX_OBJS);
	ctx->eq[ctx->neq++] = h;
	return h;
}

static inline struct lnet_md wb_md(void *buf, unsigned int len, int threshold,
				   unsigned int options, void *user_ptr,
				   struct lnet_handle_eq eqh)
{
	struct lnet_md md = {
		.start = buf, .length = len, .threshold = threshold,
		.options = options, .user_ptr = user_ptr, .eq_handle = eqh,
	};

	return md;
}

static inline struct lnet_handle_md wb_bind(struct kunit *test,
					    struct lnet_md md)
{
	struct wb_ctx *ctx = test->priv;
	struct lnet_handle_md h;

	KUNIT_ASSERT_EQ(test, LNetMDBind(md, LNET_UNLINK, &h), 0);
	if (ctx->nmd < WB_MAX_OBJS)
		ctx->md[ctx->nmd++] = h;
	return h;
}

/* An ME matching @id and @bits (ignoring @ignore) at @portal's tail. */
static inline struct lnet_handle_me wb_me(struct kunit *test,
					  unsigned int portal,
					  struct lnet_process_id id, u64 bits,
					  u64 ignore)
{
	struct wb_ctx *ctx = test->priv;
	struct lnet_handle_me h;

	KUNIT_ASSERT_EQ(test, LNetMEAttach(portal, id, bits, ignore,
					   LNET_UNLINK, LNET_INS_AFTER, &h), 0);
	if (ctx->nme < WB_MAX_OBJS)
		ctx->me[ctx->nme++] = h;
	return h;
}

static inline struct lnet_handle_md wb_attach(struct kunit *test,
					      struct lnet_handle_me meh,
					      struct lnet_md md)
{
	struct wb_ctx *ctx = test->priv;
	struct lnet_handle_md h;

	KUNIT_ASSERT_EQ(test, LNetMDAttach(meh, md, LNET_UNLINK, &h), 0);
	if (ctx->nmd < WB_MAX_OBJS)
		ctx->md[ctx->nmd++] = h;
	return h;
}

static inline struct lnet_process_id wb_id(lnet_nid_t nid, lnet_pid_t pid)
{
	struct lnet_process_id id = { .nid = nid, .pid = pid };

	return id;
}

static inline struct lnet_process_id wb_any(void)
{
	return wb_id(LNET_NID_ANY, LNET_PID_ANY);
}

static inline struct lnet_process_id wb_lo(void)
{
	return wb_id(LNET_NID_LO_0, LNET_PID_LUSTRE);
}

static inline struct lnet_handle_eq wb_no_eq(void)
{
	struct lnet_handle_eq h;

	LNetInvalidateEQHandle(&h);
	return h;
}

/* Wait for the next event of @eqh, which must be of @type. */
static inline void wb_wait(struct kunit *test, struct lnet_handle_eq eqh,
			   enum lnet_event_kind type, struct lnet_event *ev)
{
	int which;

	memset(ev, 0, sizeof(*ev));
	KUNIT_ASSERT_EQ_MSG(test, LNetEQPoll(&eqh, 1, WB_WAIT_MS, ev, &which),
			    1, "no event of type %d", type);
	KUNIT_ASSERT_EQ(test, ev->type, type);
}

static inline void wb_quiet(struct kunit *test, struct lnet_handle_eq eqh)
{
	struct lnet_event ev;
	int which;

	KUNIT_EXPECT_EQ(test, LNetEQPoll(&eqh, 1, WB_QUIET_MS, &ev, &which),
			0);
}

#endif /* _LNET_TESTS_WB_UTIL_H */
