/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU partitions (CPTs): the online CPUs split into a few groups, normally
 * one per NUMA node. Each peer hashes onto one partition (or onto one of
 * its NI's CPT list), and the work for it stays there: ksocklnd runs the
 * peer's connections on scheduler threads bound to that partition, ko2iblnd
 * completes them on a completion vector whose interrupts land there, and
 * lnet_selftest queues a peer's RPC work on that partition's CPUs. The core itself has no
 * per-CPT state: its MD lock table is sized by CPU count and indexed by
 * handle cookie, not by partition. Built once at module load from the
 * cpu_npartitions / cpu_pattern parameters; the table does not change while
 * lnet.ko is loaded.
 */
#ifndef _LINUX_LNET_CPT_H
#define _LINUX_LNET_CPT_H

#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <uapi/linux/lnet/lnet-nid.h>

#define LNET_CPT_ANY	(-1)

int lnet_cpt_init(void);
void lnet_cpt_fini(void);

/* Number of partitions, >= 1. */
int lnet_cpt_number(void);
/* Partition of @cpu; CPUs outside the table map to partition 0. */
int lnet_cpt_of_cpu(int cpu);
/* Partition of the CPU the caller runs on (may change unless pinned). */
int lnet_cpt_current(void);
/* CPUs of partition @cpt (0 <= cpt < lnet_cpt_number()). */
const struct cpumask *lnet_cpt_cpumask(int cpt);
/* NUMA node that best matches partition @cpt (NUMA_NO_NODE if none). */
int lnet_cpt_node(int cpt);
/* The first partition on NUMA node @node; -1 if none (or NUMA_NO_NODE). */
int lnet_cpt_of_node(int node);
/* Stable hash of @nid onto a partition: peers and connections use it. */
int lnet_cpt_of_nid(lnet_nid_t nid);
/* Start a kthread whose affinity is partition @cpt's CPUs (any CPT if LNET_CPT_ANY). */
__printf(4, 5)
struct task_struct *lnet_cpt_kthread_run(int cpt, int (*fn)(void *data),
					 void *data, const char *namefmt, ...);

struct dentry;
/* Create "cpu_partition_table" (and friends) under @dir. */
void lnet_cpt_debugfs_init(struct dentry *dir);

/*
 * Building blocks of lnet_cpt_init(), exported to the KUnit suite only
 * (LNET_EXPORT_FOR_TEST) so that patterns can be tried against any CPU set
 * without touching the live table. @masks has room for @max_cpts entries.
 * Both return the number of partitions, or -EINVAL with the reason in @err.
 */
int lnet_cpt_parse_pattern(const char *pattern, const struct cpumask *avail,
			   struct cpumask *masks, int max_cpts,
			   char *err, size_t errlen);
int lnet_cpt_split_even(const struct cpumask *avail, int ncpt,
			struct cpumask *masks, char *err, size_t errlen);

#endif /* _LINUX_LNET_CPT_H */
