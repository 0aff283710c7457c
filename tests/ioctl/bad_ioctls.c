// SPDX-License-Identifier: GPL-2.0
/*
 * bad_ioctls: malformed and hostile /dev/lnet calls, each of which must
 * fail with its documented errno (lnet/ioctl.c) and never hurt the kernel
 * (the debug guest's KASAN, lockdep and kmemleak watch the run).
 *
 *   bad_ioctls root   as root, with LNet configured ("lnetctl lnet
 *                     configure"), no network but 0@lo needed
 *   bad_ioctls user   as an unprivileged user: changes refused, reads open
 *
 * Prints one line per check, "ok NAME" or "not ok NAME # why"; exit
 * status 1 if any check failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/lnet/lnet-ioctl.h>

#define TCP(num)	LNET_MKNET(LNET_LND_SOCK, num)
#define O2IB(num)	LNET_MKNET(LNET_LND_O2IB, num)
#define GNI(num)	LNET_MKNET(LNET_LND_GNI, num)
#define LO_NET		LNET_MKNET(LNET_LND_LO, 0)

static int fd = -1;
static int failures;

/* The errno of ioctl(@cmd, @arg): 0 on success. */
static int call(unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static void expect(const char *name, int got, int want)
{
	if (got == want) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s # got %s (%d), want %s (%d)\n", name,
	       got ? strerror(got) : "success", got,
	       want ? strerror(want) : "success", want);
	failures++;
}

static void check(const char *name, int cond, const char *why)
{
	if (cond) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s # %s\n", name, why);
	failures++;
}

/* ---- argument builders ------------------------------------------------ */

/* A generic block with room for inline data. */
struct gen_buf {
	struct lnet_ioctl_data	d;
	char			inl[64];
};

static void gen(struct gen_buf *b, uint32_t len1, uint32_t len2)
{
	memset(b, 0, sizeof(*b));
	b->d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION;
	b->d.ioc_inline1_len = len1;
	b->d.ioc_inline1 = len1 ? (uintptr_t)b->inl : 0;
	b->d.ioc_inline2_len = len2;
	b->d.ioc_inline2 = len2 ? (uintptr_t)b->inl + ((len1 + 7) & ~7U) : 0;
	b->d.ioc_hdr.ioc_len = sizeof(b->d) + ((len1 + 7) & ~7U) +
			       ((len2 + 7) & ~7U);
}

struct ni_buf {
	struct lnet_ioctl_config_ni	ni;
	struct lnet_ioctl_lnd_tunables	t;
};

static void ni(struct ni_buf *b, lnet_nid_t nid, const char *ifname)
{
	memset(b, 0, sizeof(*b));
	b->ni.lic_hdr.ioc_len = sizeof(*b);
	b->ni.lic_hdr.ioc_version = LNET_IOCTL_VERSION2;
	b->ni.lic_nid = nid;
	snprintf(b->ni.lic_ni_intf, sizeof(b->ni.lic_ni_intf), "%s", ifname);
	b->ni.lic_dev_cpt = -1;
	b->t.lt_cmn.lct_version = LNET_IOCTL_TUNABLES_VERSION;
	b->t.lt_cmn.lct_peer_timeout = -1;
	b->t.lt_cmn.lct_peer_tx_credits = -1;
	b->t.lt_cmn.lct_peer_rtr_credits = -1;
	b->t.lt_cmn.lct_max_tx_credits = -1;
	b->t.lt_lnd.sock.lnd_version = LNET_IOCTL_TUNABLES_VERSION;
	b->t.lt_lnd.sock.lnd_tos = -1;
}

static void cfg(struct lnet_ioctl_config_data *d, uint32_t net, lnet_nid_t nid)
{
	memset(d, 0, sizeof(*d));
	d->cfg_hdr.ioc_len = sizeof(*d);
	d->cfg_hdr.ioc_version = LNET_IOCTL_VERSION2;
	d->cfg_net = net;
	d->cfg_nid = nid;
	d->cfg_u.route.hop = -1;
}

static void hdr_only(struct lnet_ioctl_hdr *h, uint32_t len, uint32_t version)
{
	h->ioc_len = len;
	h->ioc_version = version;
}

/* ---- the checks ----------------------------------------------------------- */

static void command_numbers(void)
{
	struct lnet_ioctl_hdr h;

	hdr_only(&h, sizeof(h), LNET_IOCTL_VERSION2);
	expect("nr 29 below the range: EINVAL",
	       call(_IOWR('e', 29, long), &h), EINVAL);
	expect("nr 113 above the range: EINVAL",
	       call(_IOWR('e', 113, long), &h), EINVAL);
	expect("type letter 'f': EINVAL", call(_IOWR('f', 59, long), &h),
	       EINVAL);
	expect("unknown nr 100 (no handler): EINVAL",
	       call(LNET_IOC_GET_PEER_LIST, &h), EINVAL);
	expect("NULL argument: EFAULT", call(LNET_IOC_GET_LNET_STATS, NULL),
	       EFAULT);
}

static void header_checks(void)
{
	struct lnet_ioctl_lnet_stats st;
	struct gen_buf g;
	struct ni_buf n;

	memset(&st, 0, sizeof(st));
	hdr_only(&st.st_hdr, 4, LNET_IOCTL_VERSION2);
	expect("ioc_len 4: EINVAL", call(LNET_IOC_GET_LNET_STATS, &st), EINVAL);
	hdr_only(&st.st_hdr, 0, LNET_IOCTL_VERSION2);
	expect("ioc_len 0: EINVAL", call(LNET_IOC_GET_LNET_STATS, &st), EINVAL);
	hdr_only(&st.st_hdr, LNET_IOCTL_MAX_LEN + 1, LNET_IOCTL_VERSION2);
	expect("ioc_len 131073: EINVAL", call(LNET_IOC_GET_LNET_STATS, &st),
	       EINVAL);
	hdr_only(&st.st_hdr, 0xffffffffU, LNET_IOCTL_VERSION2);
	expect("ioc_len 0xffffffff: EINVAL", call(LNET_IOC_GET_LNET_STATS, &st),
	       EINVAL);
	hdr_only(&st.st_hdr, 100, LNET_IOCTL_VERSION2);
	expect("GET_LNET_STATS with a 100-byte buffer: EINVAL",
	       call(LNET_IOC_GET_LNET_STATS, &st), EINVAL);
	ni(&n, LNET_NID_ANY, "");
	n.ni.lic_hdr.ioc_len = sizeof(n.ni) - 1;
	expect("GET_LOCAL_NI with an 807-byte buffer: EINVAL",
	       call(LNET_IOC_GET_LOCAL_NI, &n), EINVAL);
	hdr_only(&st.st_hdr, sizeof(st), LNET_IOCTL_VERSION);
	expect("GET_LNET_STATS with the generic version: EINVAL",
	       call(LNET_IOC_GET_LNET_STATS, &st), EINVAL);
	hdr_only(&st.st_hdr, sizeof(st), 0x12345678);
	expect("unknown version: EINVAL", call(LNET_IOC_GET_LNET_STATS, &st),
	       EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_hdr.ioc_version = LNET_IOCTL_VERSION2;
	expect("CONFIGURE with version 2: EINVAL", call(LNET_IOC_CONFIGURE, &g),
	       EINVAL);
}

static void generic_block(void)
{
	struct gen_buf g;

	gen(&g, 0, 0);
	g.d.ioc_hdr.ioc_len = 136;
	expect("generic: ioc_len beyond the inline buffers: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_hdr.ioc_len = 120;
	expect("generic: ioc_len below 128: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 8, 0);
	memcpy(g.inl, "abcdefg", 8);
	g.d.ioc_inline1 = 0;
	expect("generic: inline 1 length without pointer: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_inline2 = (uintptr_t)g.inl;
	expect("generic: inline 2 pointer without length: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_user1 = (uintptr_t)&g;
	expect("generic: user 1 pointer without length: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 8, 0);
	memcpy(g.inl, "abcdefgh", 8);
	expect("generic: inline 1 without NUL: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0xfffffff8U, 16);
	g.d.ioc_hdr.ioc_len = 144;
	expect("generic: inline lengths that wrap 32 bits: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_flags = 0x4;
	expect("CONFIGURE with an unknown flag: EINVAL",
	       call(LNET_IOC_CONFIGURE, &g), EINVAL);
	gen(&g, 0, 0);
	g.d.ioc_flags = LNET_IOCTL_CONFIGURE_LARGE;
	expect("CONFIGURE --large: EOPNOTSUPP", call(LNET_IOC_CONFIGURE, &g),
	       EOPNOTSUPP);
	gen(&g, 5, 0);
	memcpy(g.inl, "tcp0", 5);
	expect("CONFIGURE (valid, inline data, configured already): 0",
	       call(LNET_IOC_CONFIGURE, &g), 0);
	check("CONFIGURE: the caller's inline pointer comes back unchanged",
	      g.d.ioc_inline1 == (uintptr_t)g.inl, "pointer changed");
}

/* A header at the very end of a mapping that claims more bytes. */
static void bad_memory(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lnet_ioctl_hdr *h;

	if (map == MAP_FAILED) {
		check("mmap", 0, strerror(errno));
		return;
	}
	munmap(map + page, page);
	h = (struct lnet_ioctl_hdr *)(map + page - sizeof(*h));
	hdr_only(h, sizeof(struct ni_buf), LNET_IOCTL_VERSION2);
	expect("ioc_len runs past the mapping: EFAULT",
	       call(LNET_IOC_GET_LOCAL_NI, h), EFAULT);
	h = (struct lnet_ioctl_hdr *)(map + page - 4);
	expect("header runs past the mapping: EFAULT",
	       call(LNET_IOC_GET_LOCAL_NI, h), EFAULT);
	munmap(map, page);
}

static void big_get(void)
{
	size_t len = LNET_IOCTL_MAX_LEN;
	unsigned char *buf = malloc(len);
	struct ni_buf *n = (struct ni_buf *)buf;
	size_t i;
	int tail_ok = 1;

	if (!buf) {
		check("malloc", 0, "no memory");
		return;
	}
	memset(buf, 0xa5, len);
	ni(n, LNET_NID_ANY, "");
	n->ni.lic_hdr.ioc_len = len;
	n->ni.lic_idx = 0;
	expect("GET_LOCAL_NI with ioc_len 131072: 0",
	       call(LNET_IOC_GET_LOCAL_NI, buf), 0);
	check("GET_LOCAL_NI 0 is 0@lo", n->ni.lic_nid == LNET_NID_LO_0,
	      "first NI is not 0@lo");
	check("GET_LOCAL_NI 0@lo is up",
	      n->ni.lic_status == LNET_IOCTL_NI_STATUS_UP, "status not up");
	for (i = sizeof(*n); i < len; i++)
		tail_ok &= buf[i] == 0xa5;
	check("GET_LOCAL_NI leaves the bytes past the structure alone",
	      tail_ok, "tail changed");
	ni(n, LNET_NID_ANY, "");
	n->ni.lic_idx = 100000;
	expect("GET_LOCAL_NI past the last NI: ENOENT",
	       call(LNET_IOC_GET_LOCAL_NI, n), ENOENT);
	free(buf);
}

static void ping_checks(void)
{
	struct lnet_process_id ids[16];
	struct lnet_ioctl_ping_data p;

	memset(&p, 0, sizeof(p));
	hdr_only(&p.ping_hdr, sizeof(p), LNET_IOCTL_VERSION2);
	p.ping_param = 2000;
	p.ping_count = 16;
	p.ping_target_nid = LNET_NID_LO_0;
	p.ping_target_pid = LNET_PID_ANY;
	p.ping_src = LNET_NID_ANY;
	p.ping_ids = 0;
	expect("PING with entries but no array: EINVAL",
	       call(LNET_IOC_PING_PEER, &p), EINVAL);
	p.ping_ids = 1;
	expect("PING with a bad array pointer: EFAULT",
	       call(LNET_IOC_PING_PEER, &p), EFAULT);
	memset(ids, 0, sizeof(ids));
	p.ping_ids = (uintptr_t)ids;
	p.ping_count = 16;
	expect("PING 0@lo: 0", call(LNET_IOC_PING_PEER, &p), 0);
	check("PING 0@lo: entry 0 is 0@lo",
	      p.ping_count >= 1 && ids[0].nid == LNET_NID_LO_0 &&
	      ids[0].pid == LNET_PID_LUSTRE, "bad entries");
	p.ping_target_nid = LNET_NID_ANY;
	expect("PING LNET_NID_ANY: EINVAL", call(LNET_IOC_PING_PEER, &p),
	       EINVAL);
}

static void config_checks(void)
{
	struct lnet_ioctl_config_data d;
	struct lnet_ioctl_ni_health h;
	struct lnet_ioctl_hdr r;
	struct ni_buf n;

	ni(&n, LNET_NID_LO_0, "");
	expect("DEL_LOCAL_NI 0@lo: EINVAL", call(LNET_IOC_DEL_LOCAL_NI, &n),
	       EINVAL);
	ni(&n, LNET_MKNID(TCP(9), 0x0a000001), "");
	expect("DEL_LOCAL_NI of an unknown NID: ENOENT",
	       call(LNET_IOC_DEL_LOCAL_NI, &n), ENOENT);
	cfg(&d, TCP(9), 0);
	expect("DEL_NET of a net that is not up: ENOENT",
	       call(LNET_IOC_DEL_NET, &d), ENOENT);
	cfg(&d, O2IB(5), LNET_MKNID(TCP(9), 0x0a000001));
	expect("ADD_ROUTE via a gateway on no local net: EHOSTUNREACH",
	       call(LNET_IOC_ADD_ROUTE, &d), EHOSTUNREACH);
	cfg(&d, O2IB(5), LNET_MKNID(TCP(9), 0x0a000001));
	d.cfg_u.route.hop = 0;
	expect("ADD_ROUTE with hop 0: EINVAL", call(LNET_IOC_ADD_ROUTE, &d),
	       EINVAL);
	cfg(&d, LO_NET, LNET_MKNID(TCP(9), 0x0a000001));
	expect("ADD_ROUTE to the loopback net: EINVAL",
	       call(LNET_IOC_ADD_ROUTE, &d), EINVAL);
	cfg(&d, O2IB(5), LNET_MKNID(TCP(9), 0x0a000001));
	expect("DEL_ROUTE of an unknown route: ENOENT",
	       call(LNET_IOC_DEL_ROUTE, &d), ENOENT);
	cfg(&d, 0, 0);
	d.cfg_count = 100000;
	expect("GET_ROUTE past the last route: ENOENT",
	       call(LNET_IOC_GET_ROUTE, &d), ENOENT);

	ni(&n, LNET_MKNID(LO_NET, 0xffffffffU), "");
	expect("ADD_LOCAL_NI on the loopback net: EEXIST",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EEXIST);
	ni(&n, LNET_MKNID(GNI(0), 0xffffffffU), "ipogif0");
	expect("ADD_LOCAL_NI of a net type without LND: ENODEV",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), ENODEV);
	ni(&n, LNET_MKNID(TCP(3), 0xffffffffU), "eth0");
	memset(n.ni.lic_ni_intf, 'a', sizeof(n.ni.lic_ni_intf));
	expect("ADD_LOCAL_NI, interface name without NUL: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);
	ni(&n, LNET_MKNID(TCP(3), 0xffffffffU), "eth0");
	n.ni.lic_ncpts = 1;
	n.ni.lic_cpts[0] = 9999;
	expect("ADD_LOCAL_NI with CPT 9999: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);
	ni(&n, LNET_MKNID(TCP(3), 0xffffffffU), "eth0");
	n.ni.lic_ncpts = 100000;
	expect("ADD_LOCAL_NI with 100000 CPTs: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);
	ni(&n, LNET_MKNID(TCP(3), 0xffffffffU), "eth0");
	n.t.lt_cmn.lct_version = 7;
	expect("ADD_LOCAL_NI with tunables version 7: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);
	ni(&n, LNET_MKNID(TCP(3), 0xffffffffU), "eth0");
	n.t.lt_lnd.sock.lnd_conns_per_peer = 4;
	expect("ADD_LOCAL_NI with conns_per_peer (not applicable): EOPNOTSUPP",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EOPNOTSUPP);
	ni(&n, LNET_NID_ANY, "");
	snprintf(n.ni.lic_legacy_ip2nets, sizeof(n.ni.lic_legacy_ip2nets),
		 "tcp9 10.255.255.*");
	expect("ADD_LOCAL_NI, ip2nets rule matching no address: EADDRNOTAVAIL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EADDRNOTAVAIL);
	snprintf(n.ni.lic_legacy_ip2nets, sizeof(n.ni.lic_legacy_ip2nets),
		 "tcp9 10.300.1.*");
	expect("ADD_LOCAL_NI, malformed ip2nets rule: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);
	n.ni.lic_legacy_ip2nets[0] = '\0';
	expect("ADD_LOCAL_NI, LNET_NID_ANY without a rule: EINVAL",
	       call(LNET_IOC_ADD_LOCAL_NI, &n), EINVAL);

	memset(&h, 0, sizeof(h));
	hdr_only(&h.lnh_hdr, sizeof(h), LNET_IOCTL_VERSION2);
	h.lnh_nid = LNET_MKNID(TCP(9), 1);
	expect("GET_LOCAL_HSTATS of an unknown NID: ENOENT",
	       call(LNET_IOC_GET_LOCAL_HSTATS, &h), ENOENT);
	h.lnh_nid = LNET_NID_LO_0;
	expect("GET_LOCAL_HSTATS 0@lo: 0", call(LNET_IOC_GET_LOCAL_HSTATS, &h),
	       0);
	check("GET_LOCAL_HSTATS 0@lo: health 1000",
	      h.lnh_health_value == 1000 && !h.lnh_fatal_error, "unhealthy");
	hdr_only(&r, sizeof(r), LNET_IOCTL_VERSION2);
	expect("RESET_LNET_STATS (header only): 0",
	       call(LNET_IOC_RESET_LNET_STATS, &r), 0);
}

/*
 * Random argument bytes on random commands; the header is made valid
 * half of the time so the commands' own checks run too. PING_PEER (could
 * wait minutes), UNCONFIGURE and the commands that change the
 * configuration are left out; what is left must fail or succeed cleanly.
 */
static void fuzz(unsigned int rounds)
{
	static const unsigned int skip[] = { 56, 59, 62, 81, 82, 85, 95, 96, 110 };
	unsigned char buf[1024];
	unsigned int i, k, nr, bad = 0;
	struct lnet_ioctl_hdr *h = (struct lnet_ioctl_hdr *)buf;
	struct ni_buf n;

	srand(12345);
	for (i = 0; i < rounds; i++) {
		int skipped = 0;

		nr = LNET_IOC_MIN_NR - 2 + rand() % (LNET_IOC_MAX_NR - LNET_IOC_MIN_NR + 5);
		for (k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
			skipped |= nr == skip[k];
		if (skipped)
			continue;
		for (k = 0; k < sizeof(buf); k++)
			buf[k] = rand();
		if (rand() & 1) {
			h->ioc_len = 8 + rand() % (sizeof(buf) - 8);
			h->ioc_version = rand() & 1 ? LNET_IOCTL_VERSION :
						      LNET_IOCTL_VERSION2;
		}
		if (call(_IOWR('e', nr, long), buf) == EFAULT && h->ioc_len <= sizeof(buf))
			bad++;
	}
	check("fuzz: no EFAULT for in-bounds buffers", !bad, "EFAULT seen");
	ni(&n, LNET_NID_ANY, "");
	expect("after the fuzz GET_LOCAL_NI 0 still works",
	       call(LNET_IOC_GET_LOCAL_NI, &n), 0);
}

static void unprivileged(void)
{
	struct lnet_ioctl_lnet_stats st;
	struct lnet_ioctl_ping_data p;
	struct lnet_ioctl_hdr r;
	struct gen_buf g;
	struct ni_buf n;

	gen(&g, 0, 0);
	expect("user: CONFIGURE: EACCES", call(LNET_IOC_CONFIGURE, &g), EACCES);
	expect("user: UNCONFIGURE: EACCES", call(LNET_IOC_UNCONFIGURE, &g),
	       EACCES);
	ni(&n, LNET_MKNID(TCP(0), 0xffffffffU), "eth0");
	expect("user: ADD_LOCAL_NI: EACCES", call(LNET_IOC_ADD_LOCAL_NI, &n),
	       EACCES);
	memset(&p, 0, sizeof(p));
	hdr_only(&p.ping_hdr, sizeof(p), LNET_IOCTL_VERSION2);
	p.ping_target_nid = LNET_NID_LO_0;
	expect("user: PING_PEER: EACCES", call(LNET_IOC_PING_PEER, &p), EACCES);
	hdr_only(&r, sizeof(r), LNET_IOCTL_VERSION2);
	expect("user: RESET_LNET_STATS: EACCES",
	       call(LNET_IOC_RESET_LNET_STATS, &r), EACCES);
	expect("user: unknown command: EACCES", call(LNET_IOC_GET_PEER_LIST, &r),
	       EACCES);
	ni(&n, LNET_NID_ANY, "");
	expect("user: GET_LOCAL_NI: 0", call(LNET_IOC_GET_LOCAL_NI, &n), 0);
	memset(&st, 0, sizeof(st));
	hdr_only(&st.st_hdr, sizeof(st), LNET_IOCTL_VERSION2);
	expect("user: GET_LNET_STATS: 0", call(LNET_IOC_GET_LNET_STATS, &st), 0);
	hdr_only(&st.st_hdr, sizeof(st), LNET_IOCTL_VERSION);
	expect("user: GET_LNET_STATS, bad version: EINVAL",
	       call(LNET_IOC_GET_LNET_STATS, &st), EINVAL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "root";

	fd = open("/dev/lnet", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("not ok open /dev/lnet # %s\n", strerror(errno));
		return 1;
	}
	printf("ok open /dev/lnet\n");
	if (!strcmp(mode, "user")) {
		unprivileged();
	} else {
		command_numbers();
		header_checks();
		generic_block();
		bad_memory();
		big_get();
		ping_checks();
		config_checks();
		fuzz(3000);
	}
	close(fd);
	return failures ? 1 : 0;
}
