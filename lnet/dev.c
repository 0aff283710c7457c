// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/lnet, the misc device lnetctl and lst open. Its one operation is
 * the ioctl (ioctl.c). The node is 0666: reads are open to everyone and
 * each command checks its own permission ("Permission" in ioctl.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/lnet/lib-lnet.h>

static long lnet_dev_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	return lnet_ioctl_user(cmd, (void __user *)arg);
}

static const struct file_operations lnet_dev_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lnet_dev_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice lnet_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "lnet",
	.fops	= &lnet_dev_fops,
	.mode	= 0666,
};

/* Module init, once the core is set up. */
int lnet_dev_init(void)
{
	int rc = misc_register(&lnet_miscdev);

	if (rc)
		pr_err("cannot register /dev/lnet: %d\n", rc);
	return rc;
}

/* Module exit; also drops the configured reference user space left. */
void lnet_dev_fini(void)
{
	misc_deregister(&lnet_miscdev);
	lnet_config_fini();
}
