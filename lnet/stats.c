// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU message statistics: the global counters (lnet_core.counters)
 * and each NI's (ni->stats). lnet_counter_add() and lnet_ni_stat_add()
 * (lib-lnet.h) count on the local CPU; this file allocates the per-CPU
 * copies and gives readers their sums.
 *
 * Each copy has a u64_stats_sync: free on 64-bit machines, on 32-bit ones
 * it lets a reader see every 64-bit counter whole. Both structs are a run
 * of u64 counters with the syncp right after them, so one reader serves
 * both (the IPv4 MIBs are read the same way, by offset).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/u64_stats_sync.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/test-export.h>

#define LNET_NCOUNTERS	(offsetof(struct lnet_counters, syncp) / sizeof(u64))
#define LNET_NI_NSTATS	(offsetof(struct lnet_ni_stats, syncp) / sizeof(u64))
#define LNET_NSTATS_MAX	LNET_NCOUNTERS	/* the longer run */

static_assert(offsetof(struct lnet_counters, syncp) % sizeof(u64) == 0);
static_assert(offsetof(struct lnet_ni_stats, syncp) % sizeof(u64) == 0);
static_assert(offsetof(struct lnet_ni_stats, syncp) <=
	      offsetof(struct lnet_counters, syncp));

/* @sum[0..@n) += the first @n u64s of every CPU's copy, each copy whole. */
static void lnet_pcpu_sum(const void __percpu *pcpu, unsigned int n, u64 *sum)
{
	u64 v[LNET_NSTATS_MAX];
	unsigned int start, i;
	int cpu;

	for_each_possible_cpu(cpu) {
		const u64 *c = per_cpu_ptr(pcpu, cpu);
		const struct u64_stats_sync *syncp = (const void *)(c + n);

		do {
			start = u64_stats_fetch_begin(syncp);
			for (i = 0; i < n; i++)
				v[i] = READ_ONCE(c[i]);
		} while (u64_stats_fetch_retry(syncp, start));
		for (i = 0; i < n; i++)
			sum[i] += v[i];
	}
}

static void lnet_pcpu_syncp_init(void __percpu *pcpu, unsigned int n)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		u64 *c = per_cpu_ptr(pcpu, cpu);

		u64_stats_init((void *)(c + n));
	}
}

struct lnet_counters __percpu *lnet_counters_alloc(void)
{
	struct lnet_counters __percpu *pc = alloc_percpu(struct lnet_counters);

	if (pc)
		lnet_pcpu_syncp_init(pc, LNET_NCOUNTERS);
	return pc;
}

struct lnet_ni_stats __percpu *lnet_ni_stats_alloc(void)
{
	struct lnet_ni_stats __percpu *pc = alloc_percpu(struct lnet_ni_stats);

	if (pc)
		lnet_pcpu_syncp_init(pc, LNET_NI_NSTATS);
	return pc;
}

/* @sum: the global counters, added up over every CPU. */
void lnet_counters_sum(struct lnet_counters *sum)
{
	memset(sum, 0, sizeof(*sum));
	lnet_pcpu_sum(lnet_core.counters, LNET_NCOUNTERS, (u64 *)sum);
}
LNET_EXPORT_FOR_TEST(lnet_counters_sum);

/* @sum: @ni's counters, added up over every CPU. */
void lnet_ni_stats_sum(struct lnet_ni *ni, struct lnet_ni_stats *sum)
{
	memset(sum, 0, sizeof(*sum));
	lnet_pcpu_sum(ni->stats, LNET_NI_NSTATS, (u64 *)sum);
}
LNET_EXPORT_FOR_TEST(lnet_ni_stats_sum);

/*
 * Zero the global counters. This writes other CPUs' copies while they may
 * be counting: one addition racing with it may survive, a reset is never
 * exact under load. The u64_stats_sync is left alone (zeroing it under a
 * writer would leave 32-bit readers waiting for ever).
 */
void lnet_counters_reset(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		u64 *c = (u64 *)per_cpu_ptr(lnet_core.counters, cpu);

		for (i = 0; i < LNET_NCOUNTERS; i++)
			WRITE_ONCE(c[i], 0);
	}
}
