// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks of the LNet core through its public API over the loopback
 * LND. Loaded by the bench scenario with one mode per load; each load runs
 * its measurement in module init, prints one "lnet_bench:" result line and
 * returns, so the scenario can reload lnet.ko with other parameters
 * (md_lock_slots=1) between runs. Test-only: never shipped.
 *
 *   mode=match mes=N   ns per PUT with N match-unique MEs posted on a portal
 *   mode=rate threads=T seconds=S
 *                      loopback PUTs per second from T threads, each with its
 *                      own portal, MD and EQ (1 message in flight per thread)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/lnet/api.h>

static char *mode = "match";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "match or rate");

static unsigned int mes = 1000;
module_param(mes, uint, 0444);
MODULE_PARM_DESC(mes, "match mode: number of match-unique MEs posted");

static unsigned int messages = 20000;
module_param(messages, uint, 0444);
MODULE_PARM_DESC(messages, "match mode: PUTs measured");

static unsigned int threads = 1;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "rate mode: sending threads (0: one per online CPU)");

static unsigned int seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "rate mode: measuring time");

#define BENCH_PORTAL		10	/* rate mode uses BENCH_PORTAL + thread */
#define BENCH_WAIT_MS		5000

static const struct lnet_process_id bench_self = {
	.nid = LNET_NID_LO_0,
	.pid = LNET_PID_LUSTRE,
};

/*
 * Deliveries are counted by a callback-only EQ: the waiter sleeps on the
 * counter, so the measured path is the whole PUT -> parse -> match ->
 * receive -> event chain and nothing else.
 */
struct bench_sink {
	atomic_t		puts;
	wait_queue_head_t	waitq;
};

static struct bench_sink *bench_sinks;

static void bench_event(struct lnet_event *ev)
{
	struct bench_sink *sink = ev->md.user_ptr;

	if (ev->type != LNET_EVENT_PUT || !sink)
		return;
	atomic_inc(&sink->puts);
	wake_up(&sink->waitq);
}

static int bench_wait_puts(struct bench_sink *sink, int want)
{
	if (!wait_event_timeout(sink->waitq, atomic_read(&sink->puts) >= want,
				msecs_to_jiffies(BENCH_WAIT_MS)))
		return -ETIMEDOUT;
	return 0;
}

/* A PUT source MD without events: the sink's count is what is waited on. */
static int bench_bind_source(void *buf, unsigned int len,
			     struct lnet_handle_md *mdh)
{
	struct lnet_md md = {
		.start = buf,
		.length = len,
		.threshold = LNET_MD_THRESH_INF,
	};

	LNetInvalidateEQHandle(&md.eq_handle);
	return LNetMDBind(md, LNET_RETAIN, mdh);
}

static int bench_post_me(unsigned int portal, u64 bits, void *buf,
			 unsigned int len, struct bench_sink *sink,
			 struct lnet_handle_eq eqh, struct lnet_handle_me *meh)
{
	struct lnet_handle_md mdh;
	struct lnet_md md = {
		.start = buf,
		.length = len,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_TRUNCATE,
		.user_ptr = sink,
		.eq_handle = eqh,
	};
	int rc;

	rc = LNetMEAttach(portal, bench_self, bits, 0, LNET_UNLINK,
			  LNET_INS_AFTER, meh);
	if (rc)
		return rc;
	rc = LNetMDAttach(*meh, md, LNET_UNLINK, &mdh);
	if (rc)
		LNetMEUnlink(*meh);
	return rc;
}

static int bench_match(void)
{
	struct lnet_handle_md src;
	struct lnet_handle_eq eqh;
	struct bench_sink *sink = &bench_sinks[0];
	char payload[8] = "lnetbnch", *sinkbuf;
	struct lnet_handle_me *mehs;
	int rc, i, posted = 0;
	ktime_t start;
	s64 ns, post_ns;

	sinkbuf = kzalloc(sizeof(payload), GFP_KERNEL);
	mehs = kvcalloc(mes, sizeof(*mehs), GFP_KERNEL);
	if (!sinkbuf || !mehs) {
		rc = -ENOMEM;
		goto out_free;
	}
	rc = LNetEQAlloc(0, bench_event, &eqh);
	if (rc)
		goto out_free;
	/* Every ME shares one sink buffer: only matching is being measured. */
	start = ktime_get();
	for (posted = 0; posted < mes; posted++) {
		rc = bench_post_me(BENCH_PORTAL, posted, sinkbuf,
				   sizeof(payload), sink, eqh, &mehs[posted]);
		if (rc) {
			pr_err("posting ME %d of %u: %d\n",
			       posted, mes, rc);
			goto out_unlink;
		}
	}
	post_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	rc = bench_bind_source(payload, sizeof(payload), &src);
	if (rc)
		goto out_unlink;

	start = ktime_get();
	for (i = 0; i < messages; i++) {
		rc = LNetPut(LNET_NID_ANY, src, LNET_NOACK_REQ, bench_self,
			     BENCH_PORTAL, get_random_u32() % mes, 0, 0);
		if (!rc)
			rc = bench_wait_puts(sink, i + 1);
		if (rc) {
			pr_err("PUT %d: %d\n", i, rc);
			break;
		}
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (!rc)
		pr_info("match mes=%u messages=%u ns_per_msg=%lld ns_per_post=%lld\n",
			mes, messages, div_s64(ns, messages),
			div_s64(post_ns, mes));
	LNetMDUnlink(src);
out_unlink:
	for (i = 0; i < posted; i++)
		LNetMEUnlink(mehs[i]);
	LNetEQFree(eqh);
out_free:
	kvfree(mehs);
	kfree(sinkbuf);
	return rc;
}

struct bench_thread {
	struct task_struct	*task;
	unsigned int		index;
	u64			sent;
	int			rc;
	struct completion	done;
};

static atomic_t bench_go;

static int bench_rate_thread(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_sink *sink = &bench_sinks[t->index];
	unsigned int portal = BENCH_PORTAL + t->index;
	struct lnet_handle_eq eqh;
	struct lnet_handle_md src;
	struct lnet_handle_me meh;
	char payload[64] = {}, *sinkbuf;
	ktime_t end;
	int rc;

	sinkbuf = kzalloc(sizeof(payload), GFP_KERNEL);
	rc = sinkbuf ? LNetEQAlloc(0, bench_event, &eqh) : -ENOMEM;
	if (rc)
		goto out;
	rc = bench_post_me(portal, t->index, sinkbuf, sizeof(payload), sink,
			   eqh, &meh);
	if (rc)
		goto out_eq;
	rc = bench_bind_source(payload, sizeof(payload), &src);
	if (rc)
		goto out_me;

	while (!atomic_read(&bench_go))
		cpu_relax();
	end = ktime_add_ms(ktime_get(), seconds * MSEC_PER_SEC);
	while (ktime_before(ktime_get(), end)) {
		rc = LNetPut(LNET_NID_ANY, src, LNET_NOACK_REQ, bench_self,
			     portal, t->index, 0, 0);
		if (!rc)
			rc = bench_wait_puts(sink, t->sent + 1);
		if (rc)
			break;
		t->sent++;
	}
	LNetMDUnlink(src);
out_me:
	LNetMEUnlink(meh);
out_eq:
	LNetEQFree(eqh);
out:
	kfree(sinkbuf);
	t->rc = rc;
	complete(&t->done);
	return 0;
}

static int bench_rate(void)
{
	unsigned int n = threads ?: num_online_cpus(), i, started = 0;
	struct bench_thread *ts;
	u64 total = 0;
	int rc = 0;

	ts = kcalloc(n, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	atomic_set(&bench_go, 0);
	for (i = 0; i < n; i++) {
		ts[i].index = i;
		init_completion(&ts[i].done);
		ts[i].task = kthread_create(bench_rate_thread, &ts[i],
					    "lnet_bench/%u", i);
		if (IS_ERR(ts[i].task)) {
			rc = PTR_ERR(ts[i].task);
			break;
		}
		kthread_bind(ts[i].task, i % num_online_cpus());
		wake_up_process(ts[i].task);
		started++;
	}
	atomic_set(&bench_go, 1);
	for (i = 0; i < started; i++) {
		wait_for_completion(&ts[i].done);
		total += ts[i].sent;
		if (ts[i].rc && !rc)
			rc = ts[i].rc;
	}
	if (!rc)
		pr_info("rate threads=%u seconds=%u puts=%llu puts_per_sec=%llu\n",
			n, seconds, total, div_u64(total, seconds));
	kfree(ts);
	return rc;
}

static int __init lnet_bench_init(void)
{
	unsigned int nsinks = max(threads ?: num_online_cpus(), 1U);
	int rc, i;

	if (!mes || !messages || !seconds)
		return -EINVAL;
	bench_sinks = kcalloc(nsinks, sizeof(*bench_sinks), GFP_KERNEL);
	if (!bench_sinks)
		return -ENOMEM;
	for (i = 0; i < nsinks; i++) {
		atomic_set(&bench_sinks[i].puts, 0);
		init_waitqueue_head(&bench_sinks[i].waitq);
	}
	rc = LNetNIInit(LNET_PID_LUSTRE);
	if (rc < 0)
		goto out_free;
	if (!strcmp(mode, "match"))
		rc = bench_match();
	else if (!strcmp(mode, "rate"))
		rc = bench_rate();
	else
		rc = -EINVAL;
	LNetNIFini();
out_free:
	kfree(bench_sinks);
	if (rc)
		pr_err("mode=%s failed: %d\n", mode, rc);
	return rc;
}

static void __exit lnet_bench_exit(void)
{
}

module_init(lnet_bench_init);
module_exit(lnet_bench_exit);
MODULE_DESCRIPTION("LNet core benchmarks (matching cost, loopback PUT rate)");
MODULE_LICENSE("GPL");
