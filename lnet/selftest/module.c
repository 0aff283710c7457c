// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_selftest.ko: LNet's self-test, as a test node and as a console
 * (Documentation/wire/selftest.md). Loading it brings LNet up with pid 12345
 * and posts the framework and test services; `lst` drives the console.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include "selftest.h"

unsigned int lst_session_timeout = 100;
module_param_named(session_timeout, lst_session_timeout, uint, 0644);
MODULE_PARM_DESC(session_timeout,
		 "s a test node keeps a session without hearing from its console (0: forever)");

unsigned int lst_rpc_timeout_s = 64;
module_param_named(rpc_timeout, lst_rpc_timeout_s, uint, 0644);
MODULE_PARM_DESC(rpc_timeout, "s a test RPC or a bulk transfer may take");

unsigned int lst_framework_buffers = 16;
module_param_named(framework_buffers, lst_framework_buffers, uint, 0444);
MODULE_PARM_DESC(framework_buffers,
		 "request buffers per framework service (more requests wait on the lazy portal)");

unsigned int lst_test_buffers = 128;
module_param_named(test_buffers, lst_test_buffers, uint, 0444);
MODULE_PARM_DESC(test_buffers,
		 "request buffers per test service (ping, brw)");

/*
 * A console that makes a session (MAKE_SESSION --force needs nothing
 * more) has the node allocate every unit of a client-role TEST and each
 * unit's bulk buffer up front: these bound what one session may hold. The
 * defaults take lst's largest tests on a few nodes (concurrency 1024 at
 * 1 MiB needs max_bulk_mb 1024) and our bench (8 x 1 MiB per node) many
 * times over.
 */
unsigned int lst_max_tests = 256;
module_param_named(max_tests, lst_max_tests, uint, 0644);
MODULE_PARM_DESC(max_tests,
		 "tests one session may add to this node (refused with E2BIG beyond)");

unsigned int lst_max_units = 16384;
module_param_named(max_units, lst_max_units, uint, 0644);
MODULE_PARM_DESC(max_units,
		 "test units (destinations x concurrency) one session may make on this node (E2BIG beyond)");

static unsigned int lst_max_bulk_mb;
module_param_named(max_bulk_mb, lst_max_bulk_mb, uint, 0644);
MODULE_PARM_DESC(max_bulk_mb,
		 "MiB of brw buffers one session's units may hold on this node (E2BIG beyond); 0: a quarter of RAM");

u64 lst_max_bulk_bytes(void)
{
	unsigned int mb = READ_ONCE(lst_max_bulk_mb);

	if (mb)
		return (u64)mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 4;
}

struct workqueue_struct *lst_wq;

static int __init lst_init(void)
{
	int rc;

	if (!lst_framework_buffers || !lst_test_buffers || !lst_rpc_timeout_s)
		return -EINVAL;
	lst_wq = alloc_workqueue("lnet_selftest", 0, 0);
	if (!lst_wq)
		return -ENOMEM;
	rc = LNetNIInit(LST_PID);
	if (rc < 0) {
		pr_err("cannot bring LNet up: %d\n", rc);
		goto out_wq;
	}
	rc = lst_rpc_startup();
	if (rc)
		goto out_ni;
	rc = lst_framework_startup();
	if (rc)
		goto out_rpc;
	rc = lst_console_startup();
	if (rc)
		goto out_fw;
	return 0;

out_fw:
	lst_framework_shutdown();
	lst_bulk_cache_drain();
out_rpc:
	lst_rpc_shutdown();
out_ni:
	LNetNIFini();
out_wq:
	destroy_workqueue(lst_wq);
	return rc;
}

static void __exit lst_exit(void)
{
	lst_console_shutdown();
	lst_framework_shutdown();
	lst_rpc_shutdown();
	lst_bulk_cache_drain();
	destroy_workqueue(lst_wq);
	LNetNIFini();
}

module_init(lst_init);
module_exit(lst_exit);

MODULE_DESCRIPTION("LNet self-test: test node and console");
MODULE_LICENSE("GPL");
