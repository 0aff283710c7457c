// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the CPU partition table (lnet/cpt.c).
 *
 * Pattern parsing and even splitting are tried on synthetic CPU sets, so
 * they run the same on any guest; the remaining cases check invariants of
 * whatever live table lnet.ko built at load time.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/lib-lnet.h>

#define ERRLEN	128

static void str_desc(const char *s, char *desc)
{
	size_t n;

	n = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"");
	for (; *s; s++) {
		if (isgraph(*s) && *s != '"' && *s != '#' && *s != '\\')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "%c",
				       *s);
		else
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
				       "\\x%02x", (unsigned char)*s);
	}
	scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\"");
}

/* A CPU set given as a bitmap of low CPU ids; skips if they do not exist. */
static struct cpumask *test_cpus(struct kunit *test, unsigned long bits)
{
	struct cpumask *mask;
	unsigned int cpu;

	if (bits && fls_long(bits) > nr_cpu_ids)
		kunit_skip(test, "needs %d CPU ids, have %u", fls_long(bits),
			   nr_cpu_ids);
	mask = kunit_kzalloc(test, sizeof(*mask), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mask);
	for (cpu = 0; cpu < BITS_PER_LONG; cpu++)
		if (bits & BIT(cpu))
			cpumask_set_cpu(cpu, mask);
	return mask;
}

static struct cpumask *test_masks(struct kunit *test, int n)
{
	struct cpumask *masks;

	masks = kunit_kcalloc(test, max(n, 1), sizeof(*masks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, masks);
	return masks;
}

static void expect_mask(struct kunit *test, const struct cpumask *mask,
			unsigned long bits, int cpt)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		KUNIT_EXPECT_EQ_MSG(test, cpumask_test_cpu(cpu, mask),
				    cpu < BITS_PER_LONG && (bits & BIT(cpu)),
				    "partition %d CPU %u", cpt, cpu);
}

struct pattern_ok {
	const char	*pattern;
	unsigned long	avail;
	int		ncpt;
	unsigned long	masks[4];
};

static const struct pattern_ok patterns_ok[] = {
	{ "0[0]", 0x1, 1, { 0x1 } },
	{ "0[0,1]", 0x3, 1, { 0x3 } },
	{ "0[0-1]", 0x3, 1, { 0x3 } },
	{ "0[0-0]", 0x1, 1, { 0x1 } },
	{ "0[0] 1[1]", 0x3, 2, { 0x1, 0x2 } },
	{ "1[1] 0[0]", 0x3, 2, { 0x1, 0x2 } },
	{ "  0[1]\t1[0]\n", 0x3, 2, { 0x2, 0x1 } },
	{ "0[3,0] 1[1-2]", 0xf, 2, { 0x9, 0x6 } },
	{ "0[0-2,3] 1[4,5-7]", 0xff, 2, { 0x0f, 0xf0 } },
	{ "0[0] 1[1] 2[2] 3[3]", 0xf, 4, { 0x1, 0x2, 0x4, 0x8 } },
	{ "0[00,01]", 0x3, 1, { 0x3 } },
	/* cpulist strides: the first CPU of every two */
	{ "0[0-3:1/2] 1[1,3]", 0xf, 2, { 0x5, 0xa } },
	/* CPUs left out are legal: they count as partition 0 */
	{ "0[1]", 0x3, 1, { 0x2 } },
	/* only @avail matters, not which CPUs are online */
	{ "0[2] 1[0]", 0x5, 2, { 0x4, 0x1 } },
};

static void pattern_ok_desc(const struct pattern_ok *p, char *desc)
{
	str_desc(p->pattern, desc);
}

KUNIT_ARRAY_PARAM(pattern_ok, patterns_ok, pattern_ok_desc);

static void cpt_pattern_valid(struct kunit *test)
{
	const struct pattern_ok *p = test->param_value;
	struct cpumask *avail = test_cpus(test, p->avail);
	int max = cpumask_weight(avail);
	struct cpumask *masks = test_masks(test, max);
	char err[ERRLEN] = "";
	int i;

	KUNIT_ASSERT_EQ_MSG(test, lnet_cpt_parse_pattern(p->pattern, avail,
							 masks, max, err,
							 sizeof(err)),
			    p->ncpt, "%s", err);
	for (i = 0; i < p->ncpt; i++)
		expect_mask(test, &masks[i], p->masks[i], i);
}

struct pattern_bad {
	const char	*pattern;
	unsigned long	avail;
	const char	*why;		/* expected in the message */
};

static const struct pattern_bad patterns_bad[] = {
	{ "", 0x1, "empty pattern" },
	{ " \t ", 0x1, "empty pattern" },
	{ "N", 0x1, "expected a partition number at offset 0" },
	{ "x", 0x1, "expected a partition number" },
	{ "-0[0]", 0x1, "expected a partition number" },
	{ "0", 0x1, "expected '[' after partition 0 at offset 1" },
	{ "0 [0]", 0x1, "expected '['" },
	{ "0(0)", 0x1, "expected '['" },
	{ "0[", 0x1, "expected a CPU number at offset 2" },
	{ "0[]", 0x1, "expected a CPU number" },
	{ "0[0", 0x1, "missing ']' for partition 0" },
	{ "0[0,]", 0x1, "expected a CPU number at offset 4" },
	{ "0[,0]", 0x1, "expected a CPU number" },
	{ "0[0-]", 0x1, "bad CPU list element \"0-\" in partition 0" },
	{ "0[-1]", 0x1, "bad CPU list element \"-1\"" },
	{ "0[+1]", 0x1, "bad CPU list element \"+1\"" },
	{ "0[ 0]", 0x1, "expected a CPU number" },
	{ "0[0 ]", 0x1, "unexpected ' '" },
	{ "0[0;1]", 0x1, "bad CPU list element \"0;1\"" },
	{ "0[99999999999]", 0x1, "bad CPU list element \"99999999999\"" },
	{ "0[1-0]", 0x1, "bad CPU list element \"1-0\"" },
	{ "0[0-3:0/2]", 0x1, "bad CPU list element \"0-3:0/2\"" },
	{ "0[0]x", 0x1, "unexpected 'x' after partition 0" },
	{ "0[0]1[1]", 0x1, "unexpected '1' after partition 0" },
	{ "0[0] 0[1]", 0x3, "partition 0 given twice" },
	{ "0[0] 0[0]", 0x1, "partition 0 given twice" },
	{ "0[0,0]", 0x1, "CPU 0 is listed twice" },
	{ "0[0,0-1]", 0x3, "CPU 0 is listed twice" },
	{ "0[0-1] 1[1]", 0x3, "CPU 1 is listed twice" },
	{ "0[1] 1[0-1]", 0x3, "CPU 1 is listed twice" },
	{ "1[0]", 0x3, "partition 0 has no CPUs" },
	{ "0[0] 2[1]", 0x7, "partition 1 has no CPUs" },
	{ "2[0] 0[1]", 0x3, "partition 2 out of range" },
	{ "1[1]", 0x1, "partition 1 out of range" },
	{ "0[1]", 0x1, "CPU 1 is offline" },
	{ "0[0-2]", 0x5, "CPU 1 is offline" },
	{ "0[0] 1[1]", 0x5, "CPU 1 is offline" },
};

static void pattern_bad_desc(const struct pattern_bad *p, char *desc)
{
	str_desc(p->pattern, desc);
}

KUNIT_ARRAY_PARAM(pattern_bad, patterns_bad, pattern_bad_desc);

static void cpt_pattern_invalid(struct kunit *test)
{
	const struct pattern_bad *p = test->param_value;
	struct cpumask *avail;
	struct cpumask *masks;
	char err[ERRLEN] = "";
	int max;

	/* "offline" cases name CPU 1, which must exist but not be in @avail */
	if (strstr(p->why, "offline") && nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 CPU ids");
	avail = test_cpus(test, p->avail);
	max = cpumask_weight(avail);
	masks = test_masks(test, max);

	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern(p->pattern, avail, masks,
						     max, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, strstr(err, p->why),
					 "message \"%s\", expected \"%s\"",
					 err, p->why);
}

static void cpt_pattern_nonexistent_cpu(struct kunit *test)
{
	struct cpumask *avail = test_cpus(test, 0x1);
	struct cpumask *masks = test_masks(test, 1);
	char pattern[32], want[32], err[ERRLEN] = "";

	snprintf(pattern, sizeof(pattern), "0[0,%u]", nr_cpu_ids);
	snprintf(want, sizeof(want), "\"%u\" in partition 0", nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern(pattern, avail, masks, 1,
						     err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, strstr(err, want),
					 "message \"%s\"", err);
	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, strstr(err, "does not exist"),
					 "message \"%s\"", err);

	/* A huge range is refused whole (cpulist_parse), not walked CPU by CPU. */
	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern("0[0-2147483647]", avail,
						     masks, 1, err,
						     sizeof(err)),
			-EINVAL);
}

/* Messages are cut to the caller's buffer, and no buffer is fine too. */
static void cpt_pattern_err_buffer(struct kunit *test)
{
	struct cpumask *avail = test_cpus(test, 0x1);
	struct cpumask *masks = test_masks(test, 1);
	char err[8];

	memset(err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern("", avail, masks, 1, err,
						     4), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "emp");
	KUNIT_EXPECT_EQ(test, err[4], 0x5a);
	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern("", avail, masks, 1, NULL,
						     0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_cpt_parse_pattern("0[0]", avail, masks, 0,
						     NULL, 0), -EINVAL);
}

static void check_split(struct kunit *test, const struct cpumask *avail,
			int n)
{
	struct cpumask *masks = test_masks(test, n);
	struct cpumask *all = test_cpus(test, 0);
	int total = cpumask_weight(avail);
	unsigned int w;
	int i, j;

	KUNIT_ASSERT_EQ(test, lnet_cpt_split_even(avail, n, masks, NULL, 0),
			n);
	for (i = 0; i < n; i++) {
		w = cpumask_weight(&masks[i]);
		KUNIT_EXPECT_GE_MSG(test, w, total / n, "n=%d cpt %d", n, i);
		KUNIT_EXPECT_LE_MSG(test, w, DIV_ROUND_UP(total, n),
				    "n=%d cpt %d", n, i);
		KUNIT_EXPECT_TRUE(test, cpumask_subset(&masks[i], avail));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_FALSE_MSG(test,
					       cpumask_intersects(&masks[i],
								  &masks[j]),
					       "n=%d cpts %d and %d", n, i, j);
		cpumask_or(all, all, &masks[i]);
	}
	KUNIT_EXPECT_TRUE(test, cpumask_equal(all, avail));
}

static void cpt_split_even(struct kunit *test)
{
	int n;

	for (n = 1; n <= num_possible_cpus(); n++)
		check_split(test, cpu_possible_mask, n);
}

static void cpt_split_even_sparse(struct kunit *test)
{
	struct cpumask *avail = test_cpus(test, 0x2d);	/* 0,2,3,5 */
	struct cpumask *masks = test_masks(test, 4);
	int n;

	for (n = 1; n <= 4; n++)
		check_split(test, avail, n);

	/* Within one node the order is by CPU id: consecutive chunks. */
	if (cpumask_subset(avail, cpumask_of_node(cpu_to_node(0)))) {
		KUNIT_ASSERT_EQ(test, lnet_cpt_split_even(avail, 3, masks,
							  NULL, 0), 3);
		expect_mask(test, &masks[0], 0x05, 0);
		expect_mask(test, &masks[1], 0x08, 1);
		expect_mask(test, &masks[2], 0x20, 2);
	}
}

static void cpt_split_even_invalid(struct kunit *test)
{
	struct cpumask *avail = test_cpus(test, 0x3);
	struct cpumask *masks = test_masks(test, 3);
	char err[ERRLEN] = "";

	KUNIT_EXPECT_EQ(test, lnet_cpt_split_even(avail, 0, masks, err,
						  sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "cannot split 2 CPUs into 0 partitions");
	KUNIT_EXPECT_EQ(test, lnet_cpt_split_even(avail, -1, masks, err,
						  sizeof(err)), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_cpt_split_even(avail, 3, masks, err,
						  sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "cannot split 2 CPUs into 3 partitions");
	cpumask_clear(avail);
	KUNIT_EXPECT_EQ(test, lnet_cpt_split_even(avail, 1, masks, NULL, 0),
			-EINVAL);
}

static void cpt_live_number(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, lnet_cpt_number(), 1);
	KUNIT_EXPECT_LE(test, lnet_cpt_number(), num_possible_cpus());
}

static void cpt_live_masks(struct kunit *test)
{
	int n = lnet_cpt_number();
	int i, j;

	for (i = 0; i < n; i++) {
		const struct cpumask *mask = lnet_cpt_cpumask(i);

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mask);
		KUNIT_EXPECT_FALSE_MSG(test, cpumask_empty(mask), "cpt %d", i);
		KUNIT_EXPECT_TRUE(test, cpumask_subset(mask, cpu_possible_mask));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_FALSE_MSG(test,
					       cpumask_intersects(mask,
								  lnet_cpt_cpumask(j)),
					       "cpts %d and %d", i, j);
	}
}

static void cpt_live_cpu_map(struct kunit *test)
{
	int n = lnet_cpt_number();
	unsigned int cpu;
	int i, cpt;

	for (i = 0; i < n; i++)
		for_each_cpu(cpu, lnet_cpt_cpumask(i))
			KUNIT_EXPECT_EQ_MSG(test, lnet_cpt_of_cpu(cpu), i,
					    "CPU %u", cpu);
	for_each_possible_cpu(cpu) {
		cpt = lnet_cpt_of_cpu(cpu);
		KUNIT_EXPECT_GE(test, cpt, 0);
		KUNIT_EXPECT_LT(test, cpt, n);
	}
}

static void cpt_of_cpu_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_cpt_of_cpu(-1), 0);
	KUNIT_EXPECT_EQ(test, lnet_cpt_of_cpu(nr_cpu_ids), 0);
	KUNIT_EXPECT_EQ(test, lnet_cpt_of_cpu(INT_MAX), 0);
	KUNIT_EXPECT_EQ(test, lnet_cpt_of_cpu(INT_MIN), 0);
}

static void cpt_current(struct kunit *test)
{
	int cpt, cpu;

	preempt_disable();
	cpu = smp_processor_id();
	cpt = lnet_cpt_current();
	preempt_enable();
	KUNIT_EXPECT_EQ(test, cpt, lnet_cpt_of_cpu(cpu));
}

/* Each partition's node is online and the node of some CPU of it. */
static void cpt_nodes(struct kunit *test)
{
	unsigned int cpu, on_node;
	int i, node;

	for (i = 0; i < lnet_cpt_number(); i++) {
		node = lnet_cpt_node(i);
		if (node == NUMA_NO_NODE)
			continue;
		KUNIT_EXPECT_TRUE_MSG(test, node_online(node),
				      "cpt %d node %d", i, node);
		on_node = 0;
		for_each_cpu(cpu, lnet_cpt_cpumask(i))
			on_node += cpu_to_node(cpu) == node;
		KUNIT_EXPECT_GT_MSG(test, on_node, 0U, "cpt %d node %d", i,
				    node);
	}
	KUNIT_EXPECT_EQ(test, lnet_cpt_node(-1), NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, lnet_cpt_node(lnet_cpt_number()), NUMA_NO_NODE);
}

static void cpt_of_nid(struct kunit *test)
{
	int n = lnet_cpt_number();
	unsigned long *hit;
	lnet_nid_t nid;
	int i, cpt;

	hit = kunit_kzalloc(test, BITS_TO_LONGS(n) * sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hit);
	for (i = 0; i < 4096; i++) {
		nid = LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, i & 3),
				 0xc0000200 + i);
		cpt = lnet_cpt_of_nid(nid);
		KUNIT_ASSERT_GE(test, cpt, 0);
		KUNIT_ASSERT_LT(test, cpt, n);
		KUNIT_EXPECT_EQ(test, lnet_cpt_of_nid(nid), cpt);
		__set_bit(cpt, hit);
	}
	/* Consecutive addresses must not all land on one partition. */
	KUNIT_EXPECT_EQ(test, bitmap_weight(hit, n), n);
	cpt = lnet_cpt_of_nid(LNET_NID_ANY);
	KUNIT_EXPECT_GE(test, cpt, 0);
	KUNIT_EXPECT_LT(test, cpt, n);
}

/* An NI's CPT list confines its peers to the partitions it names. */
static void cpt_of_nid_ni_list(struct kunit *test)
{
	struct lnet_ni *ni = kunit_kzalloc(test, sizeof(*ni), GFP_KERNEL);
	u32 last = lnet_cpt_number() - 1;
	lnet_nid_t nid;
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ni);
	for (i = 0; i < 256; i++) {
		nid = LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0), 0xc0000200 + i);
		KUNIT_EXPECT_EQ(test, lnet_ni_cpt_of_nid(ni, nid),
				lnet_cpt_of_nid(nid));
	}
	ni->cpts = &last;
	ni->ncpts = 1;
	for (i = 0; i < 256; i++) {
		nid = LNET_MKNID(LNET_MKNET(LNET_LND_SOCK, 0), 0xc0000200 + i);
		KUNIT_EXPECT_EQ(test, lnet_ni_cpt_of_nid(ni, nid), (int)last);
	}
}

struct thread_rec {
	struct completion	started;
	int			cpu;
	struct cpumask		allowed;
	bool			ran;
};

static int thread_fn(void *data)
{
	struct thread_rec *rec = data;

	rec->cpu = raw_smp_processor_id();
	cpumask_copy(&rec->allowed, current->cpus_ptr);
	rec->ran = true;
	complete(&rec->started);

	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static struct thread_rec *thread_rec(struct kunit *test)
{
	struct thread_rec *rec;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rec);
	init_completion(&rec->started);
	return rec;
}

static void cpt_kthread_bound(struct kunit *test)
{
	char comm[TASK_COMM_LEN], want[32];
	int cpt;

	for (cpt = 0; cpt < lnet_cpt_number(); cpt++) {
		struct thread_rec *rec = thread_rec(test);
		struct task_struct *task;

		task = lnet_cpt_kthread_run(cpt, thread_fn, rec, "lnet_kt_%d",
					    cpt);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
		wait_for_completion(&rec->started);
		get_task_comm(comm, task);
		kthread_stop(task);
		snprintf(want, sizeof(want), "lnet_kt_%d", cpt);
		KUNIT_EXPECT_STREQ(test, comm, want);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(&rec->allowed,
						      lnet_cpt_cpumask(cpt)));
		KUNIT_EXPECT_TRUE_MSG(test,
				      cpumask_test_cpu(rec->cpu,
						       lnet_cpt_cpumask(cpt)),
				      "ran on CPU %d, cpt %d", rec->cpu, cpt);
		KUNIT_EXPECT_EQ(test, lnet_cpt_of_cpu(rec->cpu), cpt);
	}
}

static void cpt_kthread_any(struct kunit *test)
{
	struct thread_rec *rec = thread_rec(test);
	struct task_struct *task;
	char comm[TASK_COMM_LEN];

	task = lnet_cpt_kthread_run(LNET_CPT_ANY, thread_fn, rec,
				    "lnet_any_%s_%d", "thread", 12345);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	wait_for_completion(&rec->started);
	get_task_comm(comm, task);
	kthread_stop(task);
	/* Names are cut to TASK_COMM_LEN like any kthread's. */
	KUNIT_EXPECT_STREQ(test, comm, "lnet_any_thread");
	KUNIT_EXPECT_TRUE(test, rec->ran);
}

static void cpt_kthread_invalid(struct kunit *test)
{
	struct thread_rec *rec = thread_rec(test);
	struct task_struct *task;

	task = lnet_cpt_kthread_run(lnet_cpt_number(), thread_fn, rec, "x");
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(task), -EINVAL);
	task = lnet_cpt_kthread_run(-2, thread_fn, rec, "x");
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(task), -EINVAL);
	KUNIT_EXPECT_FALSE(test, rec->ran);
}

static void cpt_debugfs(struct kunit *test)
{
	struct dentry *dir, *file;

	dir = debugfs_create_dir("lnet_cpt_kunit", NULL);
	if (IS_ERR_OR_NULL(dir))
		kunit_skip(test, "no debugfs");
	lnet_cpt_debugfs_init(dir);
	file = debugfs_lookup("cpu_partition_table", dir);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, file);
	dput(file);
	file = debugfs_lookup("cpu_partition_node", dir);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, file);
	dput(file);
	debugfs_remove(dir);
}

static struct kunit_case cpt_cases[] = {
	KUNIT_CASE_PARAM(cpt_pattern_valid, pattern_ok_gen_params),
	KUNIT_CASE_PARAM(cpt_pattern_invalid, pattern_bad_gen_params),
	KUNIT_CASE(cpt_pattern_nonexistent_cpu),
	KUNIT_CASE(cpt_pattern_err_buffer),
	KUNIT_CASE(cpt_split_even),
	KUNIT_CASE(cpt_split_even_sparse),
	KUNIT_CASE(cpt_split_even_invalid),
	KUNIT_CASE(cpt_live_number),
	KUNIT_CASE(cpt_live_masks),
	KUNIT_CASE(cpt_live_cpu_map),
	KUNIT_CASE(cpt_of_cpu_out_of_range),
	KUNIT_CASE(cpt_current),
	KUNIT_CASE(cpt_nodes),
	KUNIT_CASE(cpt_of_nid),
	KUNIT_CASE(cpt_of_nid_ni_list),
	KUNIT_CASE(cpt_kthread_bound),
	KUNIT_CASE(cpt_kthread_any),
	KUNIT_CASE(cpt_kthread_invalid),
	KUNIT_CASE(cpt_debugfs),
	{}
};

static struct kunit_suite cpt_suite = {
	.name = "lnet_cpt",
	.test_cases = cpt_cases,
};

kunit_test_suite(cpt_suite);
