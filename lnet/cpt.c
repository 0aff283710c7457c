// SPDX-License-Identifier: GPL-2.0
/*
 * CPU partition table.
 *
 * The table is built once by lnet_cpt_init() from a snapshot of the online
 * CPUs and never changes afterwards, so lookups take no lock. CPU hotplug is
 * deliberately not followed: per-CPT state (queues, lock slots, scheduler
 * threads) is sized from the table, and re-partitioning would mean moving
 * all of it. A CPU that was offline at load time (or that a pattern leaves
 * out) belongs to no partition's cpumask and lnet_cpt_of_cpu() maps it to
 * partition 0, so callers on it still find valid per-CPT state; they only
 * lose NUMA locality.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/lnet/cpt.h>
#include <linux/lnet/test-export.h>

static int cpu_npartitions;
module_param(cpu_npartitions, int, 0444);
MODULE_PARM_DESC(cpu_npartitions,
		 "number of CPU partitions (0: one per NUMA node with CPUs)");

static char *cpu_pattern = "N";
module_param(cpu_pattern, charp, 0444);
MODULE_PARM_DESC(cpu_pattern,
		 "CPU partitions: \"N\" follows NUMA nodes, or an explicit list such as \"0[0,1] 1[2-3]\"");

struct lnet_cpt_tab {
	int		ncpt;
	struct cpumask	*masks;		/* ncpt entries */
	int		*nodes;		/* ncpt entries */
	int		*cpu2cpt;	/* nr_cpu_ids entries */
};

static struct lnet_cpt_tab *cpt_tab;

static __printf(3, 4)
int cpt_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list args;

	if (err && errlen) {
		va_start(args, fmt);
		vscnprintf(err, errlen, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

/* Decimal digits at *@pp (advanced past them), at most INT_MAX. */
static int cpt_parse_num(const char **pp, unsigned int *val)
{
	const char *p = *pp;
	unsigned long v = 0;

	if (!isdigit(*p))
		return -EINVAL;
	while (isdigit(*p)) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return -ERANGE;
		p++;
	}
	*pp = p;
	*val = v;
	return 0;
}

/*
 * One partition's CPU list, the @len bytes at @list (between the brackets),
 * into @mask: comma-separated cpulist elements ("3", "0-7", "0-7:1/2", "N"
 * for the last CPU id; see cpulist_parse()). Each element is parsed on its
 * own so that a CPU named twice, even within one list, is caught by @used.
 */
static int cpt_parse_cpus(const char *pattern, const char *list, size_t len,
			  unsigned int cpt, const struct cpumask *avail,
			  struct cpumask *used, struct cpumask *mask,
			  char *err, size_t errlen)
{
	cpumask_var_t elem_mask;
	char *copy, *rest, *elem;
	unsigned int cpu;
	int rc = 0;

	if (!alloc_cpumask_var(&elem_mask, GFP_KERNEL))
		return -ENOMEM;
	copy = kstrndup(list, len, GFP_KERNEL);
	if (!copy) {
		rc = -ENOMEM;
		goto out_mask;
	}

	rest = copy;
	while ((elem = strsep(&rest, ",")) != NULL) {
		if (!*elem) {
			rc = cpt_fail(err, errlen,
				      "expected a CPU number at offset %td",
				      list + (elem - copy) - pattern);
			goto out;
		}
		rc = cpulist_parse(elem, elem_mask);
		if (rc == -ERANGE) {
			rc = cpt_fail(err, errlen,
				      "\"%s\" in partition %u: CPU does not exist (%u CPU ids)",
				      elem, cpt, nr_cpu_ids);
			goto out;
		}
		if (rc || cpumask_empty(elem_mask)) {
			rc = cpt_fail(err, errlen,
				      "bad CPU list element \"%s\" in partition %u",
				      elem, cpt);
			goto out;
		}
		for_each_cpu(cpu, elem_mask) {
			if (!cpumask_test_cpu(cpu, avail)) {
				rc = cpt_fail(err, errlen, "CPU %u is offline",
					      cpu);
				goto out;
			}
			if (cpumask_test_and_set_cpu(cpu, used)) {
				rc = cpt_fail(err, errlen,
					      "CPU %u is listed twice", cpu);
				goto out;
			}
		}
		cpumask_or(mask, mask, elem_mask);
	}
out:
	kfree(copy);
out_mask:
	free_cpumask_var(elem_mask);
	return rc;
}

/*
 * "0[0,1] 1[2-3]": partition number, then its CPUs in brackets (a cpulist
 * without blanks, see cpt_parse_cpus()), items separated by blanks.
 * Partitions may be listed in any order but must end up numbered 0..n-1,
 * each with at least one CPU, and no CPU may be in two partitions.
 */
int lnet_cpt_parse_pattern(const char *pattern, const struct cpumask *avail,
			   struct cpumask *masks, int max_cpts,
			   char *err, size_t errlen)
{
	cpumask_var_t used;
	unsigned int cpt;
	const char *p;
	int ncpt = 0;
	size_t len;
	int rc, i;

	if (max_cpts < 1)
		return cpt_fail(err, errlen, "no CPUs to partition");
	if (!zalloc_cpumask_var(&used, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < max_cpts; i++)
		cpumask_clear(&masks[i]);

	p = skip_spaces(pattern);
	if (!*p) {
		rc = cpt_fail(err, errlen, "empty pattern");
		goto out;
	}

	while (*p) {
		rc = cpt_parse_num(&p, &cpt);
		if (rc) {
			rc = cpt_fail(err, errlen,
				      "expected a partition number at offset %td",
				      p - pattern);
			goto out;
		}
		if (cpt >= max_cpts) {
			rc = cpt_fail(err, errlen,
				      "partition %u out of range: %d CPUs allow at most %d partitions",
				      cpt, max_cpts, max_cpts);
			goto out;
		}
		if (!cpumask_empty(&masks[cpt])) {
			rc = cpt_fail(err, errlen, "partition %u given twice",
				      cpt);
			goto out;
		}
		if (*p != '[') {
			rc = cpt_fail(err, errlen,
				      "expected '[' after partition %u at offset %td",
				      cpt, p - pattern);
			goto out;
		}
		p++;

		/* the list ends at ']'; a blank or the end is an error */
		len = strcspn(p, "] \t\n\v\f\r");
		rc = cpt_parse_cpus(pattern, p, len, cpt, avail, used,
				    &masks[cpt], err, errlen);
		if (rc)
			goto out;
		p += len;
		if (!*p) {
			rc = cpt_fail(err, errlen,
				      "missing ']' for partition %u", cpt);
			goto out;
		}
		if (*p != ']') {
			rc = cpt_fail(err, errlen, "unexpected '%c' at offset %td",
				      *p, p - pattern);
			goto out;
		}
		p++;

		if (*p && !isspace(*p)) {
			rc = cpt_fail(err, errlen,
				      "unexpected '%c' after partition %u at offset %td",
				      *p, cpt, p - pattern);
			goto out;
		}
		p = skip_spaces(p);
		ncpt = max_t(int, ncpt, cpt + 1);
	}

	for (i = 0; i < ncpt; i++) {
		if (cpumask_empty(&masks[i])) {
			rc = cpt_fail(err, errlen, "partition %d has no CPUs", i);
			goto out;
		}
	}
	rc = ncpt;
out:
	free_cpumask_var(used);
	return rc;
}
LNET_EXPORT_FOR_TEST(lnet_cpt_parse_pattern);

struct cpt_filler {
	struct cpumask	*masks;
	cpumask_var_t	todo;
	int		per;		/* CPUs per partition ... */
	int		extra;		/* ... plus one for the first @extra */
	int		cpt;
	int		filled;
};

static void cpt_fill(struct cpt_filler *f, unsigned int cpu)
{
	cpumask_clear_cpu(cpu, f->todo);
	cpumask_set_cpu(cpu, &f->masks[f->cpt]);
	if (++f->filled == f->per + (f->cpt < f->extra)) {
		f->cpt++;
		f->filled = 0;
	}
}

/*
 * Consecutive chunks of CPUs, taken node by node, so that a partition spans
 * as few NUMA nodes as possible; sizes differ by at most one.
 */
int lnet_cpt_split_even(const struct cpumask *avail, int ncpt,
			struct cpumask *masks, char *err, size_t errlen)
{
	int total = cpumask_weight(avail);
	struct cpt_filler f = { .masks = masks };
	unsigned int cpu;
	int node, i;

	if (ncpt < 1 || ncpt > total)
		return cpt_fail(err, errlen,
				"cannot split %d CPUs into %d partitions",
				total, ncpt);
	if (!alloc_cpumask_var(&f.todo, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(f.todo, avail);
	f.per = total / ncpt;
	f.extra = total % ncpt;
	for (i = 0; i < ncpt; i++)
		cpumask_clear(&masks[i]);

	for_each_node(node)
		for_each_cpu(cpu, avail)
			if (cpu_to_node(cpu) == node &&
			    cpumask_test_cpu(cpu, f.todo))
				cpt_fill(&f, cpu);
	/* CPUs that no node claims (possible in test masks) go last. */
	for_each_cpu(cpu, f.todo)
		cpt_fill(&f, cpu);

	free_cpumask_var(f.todo);
	return ncpt;
}
LNET_EXPORT_FOR_TEST(lnet_cpt_split_even);

/*
 * One partition per online node that has CPUs in @avail. By cpu_to_node()
 * rather than cpumask_of_node(): under NUMA emulation (numa=fake) a CPU is
 * in the mask of every fake node of its physical one.
 */
static int cpt_split_nodes(const struct cpumask *avail, struct cpumask *masks,
			   int max_cpts)
{
	unsigned int cpu;
	int node, n = 0, i;

	for_each_online_node(node) {
		if (n == max_cpts)
			break;
		cpumask_clear(&masks[n]);
		for_each_cpu(cpu, avail)
			if (cpu_to_node(cpu) == node)
				cpumask_set_cpu(cpu, &masks[n]);
		if (!cpumask_empty(&masks[n]))
			n++;
	}
	if (!n) {
		cpumask_copy(&masks[0], avail);
		return 1;
	}

	/* An inconsistent topology must not leave a CPU without partition. */
	for_each_cpu(cpu, avail) {
		for (i = 0; i < n; i++)
			if (cpumask_test_cpu(cpu, &masks[i]))
				break;
		if (i == n)
			cpumask_set_cpu(cpu, &masks[0]);
	}
	return n;
}

/* The node most of @mask's CPUs are on (cpu_to_node(), as above). */
static int cpt_best_node(const struct cpumask *mask)
{
	unsigned int weight, best_weight = 0, cpu;
	int node, best = NUMA_NO_NODE;

	for_each_online_node(node) {
		weight = 0;
		for_each_cpu(cpu, mask)
			weight += cpu_to_node(cpu) == node;
		if (weight > best_weight) {
			best = node;
			best_weight = weight;
		}
	}
	return best;
}

static void cpt_tab_free(struct lnet_cpt_tab *tab)
{
	if (!tab)
		return;
	kvfree(tab->masks);
	kfree(tab->nodes);
	kfree(tab->cpu2cpt);
	kfree(tab);
}

static bool cpt_pattern_is_numa(const char *pattern)
{
	pattern = skip_spaces(pattern);
	if (*pattern == 'N')
		pattern = skip_spaces(pattern + 1);
	return !*pattern;
}

static int cpt_build_masks(const struct cpumask *avail, struct cpumask *masks,
			   int max_cpts)
{
	const char *pattern = cpu_pattern ? cpu_pattern : "";
	int n = cpu_npartitions;
	char err[128];
	int ncpt;

	if (n < 0) {
		pr_err("cpu_npartitions=%d: must be 0 (automatic) or more\n", n);
		return -EINVAL;
	}

	if (!cpt_pattern_is_numa(pattern)) {
		ncpt = lnet_cpt_parse_pattern(pattern, avail, masks, max_cpts,
					      err, sizeof(err));
		if (ncpt == -EINVAL)
			pr_err("cpu_pattern=\"%s\": %s\n", pattern, err);
		if (ncpt > 0 && n && n != ncpt)
			pr_warn("cpu_npartitions=%d ignored, cpu_pattern gives %d\n",
				n, ncpt);
		return ncpt;
	}

	if (!n)
		return cpt_split_nodes(avail, masks, max_cpts);

	if (n > max_cpts) {
		pr_warn("cpu_npartitions=%d exceeds the %d online CPUs, using %d\n",
			n, max_cpts, max_cpts);
		n = max_cpts;
	}
	ncpt = lnet_cpt_split_even(avail, n, masks, err, sizeof(err));
	if (ncpt == -EINVAL)
		pr_err("cpu_npartitions=%d: %s\n", n, err);
	return ncpt;
}

int lnet_cpt_init(void)
{
	struct lnet_cpt_tab *tab = NULL;
	struct cpumask *masks = NULL;
	cpumask_var_t avail, spare;
	unsigned int cpu;
	int max_cpts, ncpt, i;
	int rc = -ENOMEM;

	if (WARN_ON(cpt_tab))
		return -EBUSY;

	if (!alloc_cpumask_var(&avail, GFP_KERNEL))
		return -ENOMEM;
	if (!alloc_cpumask_var(&spare, GFP_KERNEL))
		goto out_avail;

	/* One consistent snapshot; later hotplug is ignored (see above). */
	cpus_read_lock();
	cpumask_copy(avail, cpu_online_mask);
	cpus_read_unlock();

	max_cpts = cpumask_weight(avail);
	masks = kvcalloc(max_cpts, sizeof(*masks), GFP_KERNEL);
	if (!masks)
		goto out;

	ncpt = cpt_build_masks(avail, masks, max_cpts);
	if (ncpt < 0) {
		rc = ncpt;
		goto out;
	}

	tab = kzalloc(sizeof(*tab), GFP_KERNEL);
	if (!tab)
		goto out;
	tab->ncpt = ncpt;
	tab->masks = kvmalloc_array(ncpt, sizeof(*tab->masks), GFP_KERNEL);
	tab->nodes = kcalloc(ncpt, sizeof(*tab->nodes), GFP_KERNEL);
	tab->cpu2cpt = kcalloc(nr_cpu_ids, sizeof(*tab->cpu2cpt), GFP_KERNEL);
	if (!tab->masks || !tab->nodes || !tab->cpu2cpt)
		goto out;

	cpumask_copy(spare, avail);
	for (i = 0; i < ncpt; i++) {
		cpumask_copy(&tab->masks[i], &masks[i]);
		tab->nodes[i] = cpt_best_node(&masks[i]);
		for_each_cpu(cpu, &masks[i])
			tab->cpu2cpt[cpu] = i;
		cpumask_andnot(spare, spare, &masks[i]);
	}
	if (!cpumask_empty(spare))
		pr_warn("CPUs %*pbl are in no partition and count as partition 0\n",
			cpumask_pr_args(spare));

	pr_info("%d CPU partition%s\n", ncpt, ncpt == 1 ? "" : "s");
	cpt_tab = tab;
	tab = NULL;
	rc = 0;
out:
	cpt_tab_free(tab);
	kvfree(masks);
	free_cpumask_var(spare);
out_avail:
	free_cpumask_var(avail);
	return rc;
}

/* The debugfs files must be gone before this runs: they read the table. */
void lnet_cpt_fini(void)
{
	cpt_tab_free(cpt_tab);
	cpt_tab = NULL;
}

/*
 * Before lnet_cpt_init() (or after lnet_cpt_fini()) everything behaves as a
 * single partition holding all CPUs, so early callers need no special case.
 */
int lnet_cpt_number(void)
{
	return cpt_tab ? cpt_tab->ncpt : 1;
}
EXPORT_SYMBOL_GPL(lnet_cpt_number);

int lnet_cpt_of_cpu(int cpu)
{
	if (!cpt_tab || (unsigned int)cpu >= nr_cpu_ids)
		return 0;
	return cpt_tab->cpu2cpt[cpu];
}
EXPORT_SYMBOL_GPL(lnet_cpt_of_cpu);

int lnet_cpt_current(void)
{
	return lnet_cpt_of_cpu(raw_smp_processor_id());
}
EXPORT_SYMBOL_GPL(lnet_cpt_current);

const struct cpumask *lnet_cpt_cpumask(int cpt)
{
	if (WARN_ON_ONCE(cpt < 0 || cpt >= lnet_cpt_number()))
		return cpu_online_mask;
	if (!cpt_tab)
		return cpu_online_mask;
	return &cpt_tab->masks[cpt];
}
EXPORT_SYMBOL_GPL(lnet_cpt_cpumask);

int lnet_cpt_node(int cpt)
{
	if (!cpt_tab || cpt < 0 || cpt >= cpt_tab->ncpt)
		return NUMA_NO_NODE;
	return cpt_tab->nodes[cpt];
}
EXPORT_SYMBOL_GPL(lnet_cpt_node);

int lnet_cpt_of_node(int node)
{
	int cpt;

	if (node == NUMA_NO_NODE)
		return -1;
	for (cpt = 0; cpt < lnet_cpt_number(); cpt++)
		if (lnet_cpt_node(cpt) == node)
			return cpt;
	return -1;
}

int lnet_cpt_of_nid(lnet_nid_t nid)
{
	return hash_64(nid, 32) % lnet_cpt_number();
}
EXPORT_SYMBOL_GPL(lnet_cpt_of_nid);

struct task_struct *lnet_cpt_kthread_run(int cpt, int (*fn)(void *data),
					 void *data, const char *namefmt, ...)
{
	char name[TASK_COMM_LEN];
	struct task_struct *task;
	int node = NUMA_NO_NODE;
	va_list args;
	int rc;

	if (cpt != LNET_CPT_ANY) {
		if (cpt < 0 || cpt >= lnet_cpt_number())
			return ERR_PTR(-EINVAL);
		node = lnet_cpt_node(cpt);
	}

	va_start(args, namefmt);
	vsnprintf(name, sizeof(name), namefmt, args);
	va_end(args);

	task = kthread_create_on_node(fn, data, node, "%s", name);
	if (IS_ERR(task))
		return task;

	/*
	 * Affinity rather than kthread_bind_mask(): that is not exported, and
	 * it would also forbid an administrator to move the thread.
	 */
	if (cpt != LNET_CPT_ANY) {
		rc = set_cpus_allowed_ptr(task, lnet_cpt_cpumask(cpt));
		if (rc) {
			/* Never woken, so @fn does not run. */
			kthread_stop(task);
			return ERR_PTR(rc);
		}
	}
	wake_up_process(task);
	return task;
}
EXPORT_SYMBOL_GPL(lnet_cpt_kthread_run);

static int cpt_table_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < lnet_cpt_number(); i++)
		seq_printf(m, "%d : %*pbl\n", i,
			   cpumask_pr_args(lnet_cpt_cpumask(i)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cpt_table);

static int cpt_node_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < lnet_cpt_number(); i++)
		seq_printf(m, "%d : %d\n", i, lnet_cpt_node(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cpt_node);

void lnet_cpt_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("cpu_partition_table", 0444, dir, NULL,
			    &cpt_table_fops);
	debugfs_create_file("cpu_partition_node", 0444, dir, NULL,
			    &cpt_node_fops);
}
EXPORT_SYMBOL_GPL(lnet_cpt_debugfs_init);
