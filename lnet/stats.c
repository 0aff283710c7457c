// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU message statistics: the global counters (lnet_core.counters)
 * and each NI's (ni->stats). lnet_counter_add() and lnet_ni_stat_add()
 * (lib-lnet.h) count on the local CPU; this file allocates the per-CPU
 * copies and gives readers their sums.
 *
 * Each copy has a u64_stats_sync: free on 64-bit machines, on 32-bit ones
 * it lets a reader see every 64-bit counter whole.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/u64_stats_sync.h>
#include <linux/lnet/lib-lnet.h>

struct lnet_counters __percpu *lnet_counters_alloc(void)
{
	struct lnet_counters __percpu *pc = alloc_percpu(struct lnet_counters);
	int cpu;

	if (pc)
		for_each_possible_cpu(cpu)
			u64_stats_init(&per_cpu_ptr(pc, cpu)->syncp);
	return pc;
}

struct lnet_ni_stats __percpu *lnet_ni_stats_alloc(void)
{
	struct lnet_ni_stats __percpu *pc = alloc_percpu(struct lnet_ni_stats);
	int cpu;

	if (pc)
		for_each_possible_cpu(cpu)
			u64_stats_init(&per_cpu_ptr(pc, cpu)->syncp);
	return pc;
}

/* @sum: the global counters, added up over every CPU. */
void lnet_counters_sum(struct lnet_counters *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct lnet_counters *c =
			per_cpu_ptr(lnet_core.counters, cpu);
		struct lnet_counters v;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			v.send_count = c->send_count;
			v.send_length = c->send_length;
			v.recv_count = c->recv_count;
			v.recv_length = c->recv_length;
			v.drop_count = c->drop_count;
			v.drop_length = c->drop_length;
			v.errors = c->errors;
		} while (u64_stats_fetch_retry(&c->syncp, start));

		sum->send_count += v.send_count;
		sum->send_length += v.send_length;
		sum->recv_count += v.recv_count;
		sum->recv_length += v.recv_length;
		sum->drop_count += v.drop_count;
		sum->drop_length += v.drop_length;
		sum->errors += v.errors;
	}
}

/* @sum: @ni's counters, added up over every CPU. */
void lnet_ni_stats_sum(struct lnet_ni *ni, struct lnet_ni_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct lnet_ni_stats *s = per_cpu_ptr(ni->stats, cpu);
		struct lnet_ni_stats v;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v.send_count = s->send_count;
			v.send_length = s->send_length;
			v.recv_count = s->recv_count;
			v.recv_length = s->recv_length;
			v.drop_count = s->drop_count;
			v.drop_length = s->drop_length;
		} while (u64_stats_fetch_retry(&s->syncp, start));

		sum->send_count += v.send_count;
		sum->send_length += v.send_length;
		sum->recv_count += v.recv_count;
		sum->recv_length += v.recv_length;
		sum->drop_count += v.drop_count;
		sum->drop_length += v.drop_length;
	}
}

/*
 * Zero the global counters. This writes other CPUs' copies while they may
 * be counting: one addition racing with it may survive, a reset is never
 * exact under load. The u64_stats_sync is left alone (zeroing it under a
 * writer would leave 32-bit readers waiting for ever).
 */
void lnet_counters_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lnet_counters *c = per_cpu_ptr(lnet_core.counters, cpu);

		WRITE_ONCE(c->send_count, 0);
		WRITE_ONCE(c->send_length, 0);
		WRITE_ONCE(c->recv_count, 0);
		WRITE_ONCE(c->recv_length, 0);
		WRITE_ONCE(c->drop_count, 0);
		WRITE_ONCE(c->drop_length, 0);
		WRITE_ONCE(c->errors, 0);
	}
}
