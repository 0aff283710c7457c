// SPDX-License-Identifier: GPL-2.0
/*
 * Takes two locks in both orders, one after the other. Nothing deadlocks,
 * but lockdep must report the AB-BA inversion. Test-only.
 */
#include <linux/module.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(selfcheck_lock_a);
static DEFINE_SPINLOCK(selfcheck_lock_b);

static int __init selfcheck_lockdep_init(void)
{
	spin_lock(&selfcheck_lock_a);
	spin_lock(&selfcheck_lock_b);
	spin_unlock(&selfcheck_lock_b);
	spin_unlock(&selfcheck_lock_a);

	spin_lock(&selfcheck_lock_b);
	spin_lock(&selfcheck_lock_a);
	spin_unlock(&selfcheck_lock_a);
	spin_unlock(&selfcheck_lock_b);
	return 0;
}

static void __exit selfcheck_lockdep_exit(void)
{
}

module_init(selfcheck_lockdep_init);
module_exit(selfcheck_lockdep_exit);
MODULE_DESCRIPTION("Bench self-check: a lockdep AB-BA inversion");
MODULE_LICENSE("GPL");
