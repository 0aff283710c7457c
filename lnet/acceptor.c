// SPDX-License-Identifier: GPL-2.0
/*
 * The acceptor (Documentation/wire/socklnd.md, "The acceptor") and the
 * socket helpers of the LNDs that use it.
 *
 * One kernel thread accepts on INADDR_ANY:accept_port, reads the 16-byte
 * (or 28-byte) connection request, finds the local NI whose NID is the
 * request's target and hands the socket to that NI's LND ->accept(). Every
 * error is a close; the only things ever written back are the "version
 * answer" (a v1 request with NID 0) to a peer that spoke a protocol or
 * request version we do not know.
 *
 * Binding INADDR_ANY rather than one socket per NI address: the request
 * names its target NID and we match it exactly, so which local address
 * the peer used does not matter, and NIs can come and go without
 * re-binding. The acceptor is reference counted by the LNDs' NI startup
 * and shutdown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/kthread.h>
#include <linux/net.h>
#include <linux/swab.h>
#include <net/sock.h>
#include <linux/lnet/acceptor.h>
#include <linux/lnet/lib-lnet.h>
#include <linux/lnet/nidstr.h>

static char *accept = "secure";
module_param(accept, charp, 0444);
MODULE_PARM_DESC(accept,
		 "acceptor mode: secure (only privileged source ports), all, or none (no listener)");

static int accept_port = 988;
module_param(accept_port, int, 0444);
MODULE_PARM_DESC(accept_port, "TCP port the acceptor listens on and LNDs connect to");

static int accept_backlog = 127;
module_param(accept_backlog, int, 0444);
MODULE_PARM_DESC(accept_backlog, "listen backlog of the acceptor socket");

static int accept_timeout = 5;
module_param(accept_timeout, int, 0644);
MODULE_PARM_DESC(accept_timeout,
		 "seconds to read a connection request (and the passive side's hello)");

enum lnet_accept_mode {
	LNET_ACCEPT_SECURE,
	LNET_ACCEPT_ALL,
	LNET_ACCEPT_NONE,
};

static DEFINE_MUTEX(lnet_acc_mutex);
static struct {
	int			refs;		/* lnet_acc_mutex */
	enum lnet_accept_mode	mode;
	struct socket		*sock;		/* NULL: not listening */
	struct task_struct	*task;
	bool			stopping;
} lnet_acc;

int lnet_acceptor_port(void)
{
	return accept_port;
}
EXPORT_SYMBOL_GPL(lnet_acceptor_port);

int lnet_acceptor_timeout(void)
{
	return max(READ_ONCE(accept_timeout), 1);
}
EXPORT_SYMBOL_GPL(lnet_acceptor_timeout);

/* ---- socket helpers --------------------------------------------------------- */

static long lnet_sock_timeo(unsigned long deadline, bool forever)
{
	long left;

	if (forever)
		return MAX_SCHEDULE_TIMEOUT;
	left = (long)(deadline - jiffies);
	return left > 0 ? left : 0;
}

/**
 * lnet_sock_read() - read exactly @len bytes, blocking
 * @sock: a connected socket
 * @buf: where to
 * @len: bytes
 * @timeout: seconds for the whole read; <= 0: no limit
 *
 * Return: 0, -ETIMEDOUT, -ECONNRESET (the peer closed) or another -errno.
 */
int lnet_sock_read(struct socket *sock, void *buf, size_t len, int timeout)
{
	unsigned long deadline = jiffies + (long)max(timeout, 0) * HZ;
	bool forever = timeout <= 0;
	int rc;

	while (len) {
		struct kvec iov = { .iov_base = buf, .iov_len = len };
		struct msghdr msg = { .msg_flags = 0 };
		long timeo = lnet_sock_timeo(deadline, forever);

		if (!timeo)
			return -ETIMEDOUT;
		lock_sock(sock->sk);
		sock->sk->sk_rcvtimeo = timeo;
		release_sock(sock->sk);
		rc = kernel_recvmsg(sock, &msg, &iov, 1, len, 0);
		if (rc == -EAGAIN)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
		if (!rc)
			return -ECONNRESET;
		buf += rc;
		len -= rc;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_sock_read);

/**
 * lnet_sock_write() - write all of @buf, blocking
 * @sock: a connected socket
 * @buf: what
 * @len: bytes
 * @timeout: seconds for the whole write; <= 0: no limit
 *
 * Return: 0, -ETIMEDOUT or another -errno.
 */
int lnet_sock_write(struct socket *sock, const void *buf, size_t len,
		    int timeout)
{
	unsigned long deadline = jiffies + (long)max(timeout, 0) * HZ;
	bool forever = timeout <= 0;
	int rc;

	while (len) {
		struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
		struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
		long timeo = lnet_sock_timeo(deadline, forever);

		if (!timeo)
			return -ETIMEDOUT;
		lock_sock(sock->sk);
		sock->sk->sk_sndtimeo = timeo;
		release_sock(sock->sk);
		rc = kernel_sendmsg(sock, &msg, &iov, 1, len);
		if (rc == -EAGAIN)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
		if (!rc)
			return -ECONNRESET;
		buf += rc;
		len -= rc;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_sock_write);

/**
 * lnet_sock_getaddr() - an IPv4 socket's local or remote address
 * @sock: the socket
 * @remote: the peer's address rather than ours
 * @ip: the address (network order)
 * @port: the port (host order), may be NULL
 *
 * Return: 0, -EAFNOSUPPORT (not IPv4) or the socket's error.
 */
int lnet_sock_getaddr(struct socket *sock, bool remote, __be32 *ip, int *port)
{
	struct sockaddr_in sin = { };
	int rc;

	if (remote)
		rc = kernel_getpeername(sock, (struct sockaddr *)&sin);
	else
		rc = kernel_getsockname(sock, (struct sockaddr *)&sin);
	if (rc < 0)
		return rc;
	if (sin.sin_family != AF_INET)
		return -EAFNOSUPPORT;
	*ip = sin.sin_addr.s_addr;
	if (port)
		*port = ntohs(sin.sin_port);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_sock_getaddr);

/**
 * lnet_connect() - open a connection to a peer's acceptor
 * @sockp: the connected socket, on success
 * @peer_nid: the NID to ask the peer's acceptor for (the request's target)
 * @local_ip: address to bind to, 0 for any
 * @peer_ip: the peer's address
 * @port: the peer's acceptor port (host order)
 * @timeout: seconds for the TCP connect and for writing the request
 *
 * Binds to a free privileged port, trying 1023 down to 512, connects and
 * sends the version-1 connection request. The caller then writes its LND's
 * hello on the same stream straight away: the acceptor never answers.
 *
 * Context: process context, may sleep for up to @timeout seconds.
 * Return: 0, -EADDRINUSE (no free reserved port), -ETIMEDOUT,
 * -ECONNREFUSED or another -errno.
 */
int lnet_connect(struct socket **sockp, lnet_nid_t peer_nid, __be32 local_ip,
		 __be32 peer_ip, int port, int timeout)
{
	struct lnet_acceptor_connreq cr = {
		.magic		= LNET_PROTO_ACCEPTOR_MAGIC,
		.version	= LNET_PROTO_ACCEPTOR_VERSION,
		.nid		= peer_nid,
	};
	struct sockaddr_in peer = {
		.sin_family	 = AF_INET,
		.sin_port	 = htons(port),
		.sin_addr.s_addr = peer_ip,
	};
	struct socket *sock;
	int p, rc = -EADDRINUSE;

	for (p = LNET_ACCEPTOR_MAX_RESERVED_PORT;
	     p >= LNET_ACCEPTOR_MIN_RESERVED_PORT; p--) {
		struct sockaddr_in me = {
			.sin_family	 = AF_INET,
			.sin_port	 = htons(p),
			.sin_addr.s_addr = local_ip,
		};

		rc = sock_create_kern(&init_net, PF_INET, SOCK_STREAM,
				      IPPROTO_TCP, &sock);
		if (rc)
			return rc;
		sock_set_reuseaddr(sock->sk);
		rc = kernel_bind(sock, (struct sockaddr *)&me, sizeof(me));
		if (!rc) {
			if (timeout > 0)
				sock_set_sndtimeo(sock->sk, timeout);
			rc = kernel_connect(sock, (struct sockaddr *)&peer,
					    sizeof(peer), 0);
		}
		if (!rc)
			break;
		sock_release(sock);
		if (rc == -EINPROGRESS)		/* connect timed out */
			return -ETIMEDOUT;
		if (rc != -EADDRINUSE && rc != -EADDRNOTAVAIL)
			return rc;
	}
	if (rc) {
		pr_warn_ratelimited("no free privileged port to connect to %pI4\n",
				    &peer_ip);
		return rc;
	}

	rc = lnet_sock_write(sock, &cr, sizeof(cr), timeout);
	if (rc) {
		sock_release(sock);
		return rc;
	}
	*sockp = sock;
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_connect);

/* ---- the passive side ------------------------------------------------------- */

/* "I speak version 1": a request for NID 0, then the caller closes. */
static void lnet_acceptor_answer(struct socket *sock)
{
	struct lnet_acceptor_connreq cr = {
		.magic		= LNET_PROTO_ACCEPTOR_MAGIC,
		.version	= LNET_PROTO_ACCEPTOR_VERSION,
		.nid		= 0,
	};

	lnet_sock_write(sock, &cr, sizeof(cr), lnet_acceptor_timeout());
}

/* Read the request's target NID; 0, or -errno to close. */
static int lnet_acceptor_read_target(struct socket *sock, __be32 peer_ip,
				     lnet_nid_t *nid)
{
	int timeout = lnet_acceptor_timeout();
	struct lnet_nid16 large;
	u32 magic, version;
	bool flip;
	int rc;

	rc = lnet_sock_read(sock, &magic, sizeof(magic), timeout);
	if (rc)
		return rc;
	flip = magic == swab32(LNET_PROTO_ACCEPTOR_MAGIC);
	if (magic == LNET_PROTO_MAGIC || magic == swab32(LNET_PROTO_MAGIC)) {
		/* a hello without a connection request */
		lnet_acceptor_answer(sock);
		return -EPROTO;
	}
	if (!flip && magic != LNET_PROTO_ACCEPTOR_MAGIC) {
		pr_err_ratelimited("refused connection from %pI4: unsupported acceptor protocol (magic %08x%s)\n",
				   &peer_ip, magic,
				   magic == LNET_PROTO_TCP_MAGIC ?
				   ", an old socklnd without acceptor" : "");
		return -EPROTO;
	}

	rc = lnet_sock_read(sock, &version, sizeof(version), timeout);
	if (rc)
		return rc;
	if (flip)
		version = swab32(version);

	switch (version) {
	case LNET_PROTO_ACCEPTOR_VERSION:
		rc = lnet_sock_read(sock, nid, sizeof(*nid), timeout);
		if (!rc && flip)
			*nid = swab64(*nid);
		return rc;
	case LNET_PROTO_ACCEPTOR_VERSION_16:
		/* a large NID is in network order: never swapped */
		rc = lnet_sock_read(sock, &large, sizeof(large), timeout);
		if (rc)
			return rc;
		if (lnet_nid16_to_nid4(&large, nid)) {
			pr_err_ratelimited("refused connection from %pI4: large target NID not supported\n",
					   &peer_ip);
			return -EPROTO;
		}
		return 0;
	default:
		lnet_acceptor_answer(sock);
		pr_warn_ratelimited("refused connection from %pI4: acceptor protocol version %u\n",
				    &peer_ip, version);
		return -EPROTO;
	}
}

/* Handle one accepted connection; @sock is consumed. */
static void lnet_acceptor_handle(struct socket *sock)
{
	char str[LNET_NIDSTR_SIZE];
	struct lnet_ni *ni;
	lnet_nid_t nid;
	__be32 peer_ip;
	int peer_port;
	int rc;

	rc = lnet_sock_getaddr(sock, true, &peer_ip, &peer_port);
	if (rc)
		goto out;
	if (lnet_acc.mode == LNET_ACCEPT_SECURE &&
	    peer_port > LNET_ACCEPTOR_MAX_RESERVED_PORT) {
		pr_warn_ratelimited("refused connection from %pI4: insecure port %d\n",
				    &peer_ip, peer_port);
		goto out;
	}
	rc = lnet_acceptor_read_target(sock, peer_ip, &nid);
	if (rc) {
		if (rc != -EPROTO)
			pr_warn_ratelimited("connection request from %pI4: error %d\n",
					    &peer_ip, rc);
		goto out;
	}

	rcu_read_lock();
	ni = lnet_ni_find_rcu(nid);
	if (ni && (!ni->lnd->accept || !lnet_ni_call_begin(ni)))
		ni = NULL;
	rcu_read_unlock();
	if (!ni) {
		pr_err_ratelimited("refused connection from %pI4 for %s: no matching local NI\n",
				   &peer_ip, lnet_nid2str(nid, str, sizeof(str)));
		goto out;
	}
	rc = ni->lnd->accept(ni, sock);
	lnet_ni_call_end(ni);
	if (!rc)
		return;		/* the LND owns @sock */
out:
	sock_release(sock);
}

static int lnet_acceptor_thread(void *arg)
{
	struct socket *lsock = arg;
	struct socket *sock;
	int rc;

	while (!READ_ONCE(lnet_acc.stopping)) {
		rc = kernel_accept(lsock, &sock, 0);
		if (rc) {
			if (READ_ONCE(lnet_acc.stopping))
				break;
			pr_warn_ratelimited("acceptor: accept: %d\n", rc);
			schedule_timeout_interruptible(HZ / 10);
			continue;
		}
		lnet_acceptor_handle(sock);
	}

	/* wait for lnet_acceptor_stop() to collect us */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int lnet_acceptor_parse_mode(enum lnet_accept_mode *mode)
{
	if (!strcmp(accept, "secure"))
		*mode = LNET_ACCEPT_SECURE;
	else if (!strcmp(accept, "all"))
		*mode = LNET_ACCEPT_ALL;
	else if (!strcmp(accept, "none"))
		*mode = LNET_ACCEPT_NONE;
	else
		return -EINVAL;
	return 0;
}

static int lnet_acceptor_listen(void)
{
	struct sockaddr_in sin = {
		.sin_family	 = AF_INET,
		.sin_port	 = htons(accept_port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct task_struct *task;
	struct socket *sock;
	int rc;

	rc = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			      &sock);
	if (rc)
		return rc;
	sock_set_reuseaddr(sock->sk);
	rc = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
	if (!rc)
		rc = kernel_listen(sock, accept_backlog);
	if (rc) {
		sock_release(sock);
		return rc;
	}
	lnet_acc.stopping = false;
	task = kthread_run(lnet_acceptor_thread, sock, "lnet_acceptor");
	if (IS_ERR(task)) {
		sock_release(sock);
		return PTR_ERR(task);
	}
	lnet_acc.sock = sock;
	lnet_acc.task = task;
	return 0;
}

/**
 * lnet_acceptor_start() - hold the acceptor, starting it if need be
 *
 * With accept=none nothing listens, but the reference is still taken.
 *
 * Context: process context (an LND's NI startup).
 * Return: 0, -EINVAL (bad accept parameter) or the listener's error.
 */
int lnet_acceptor_start(void)
{
	enum lnet_accept_mode mode;
	int rc = 0;

	mutex_lock(&lnet_acc_mutex);
	if (lnet_acc.refs) {
		lnet_acc.refs++;
		goto out;
	}
	rc = lnet_acceptor_parse_mode(&mode);
	if (rc) {
		pr_err("accept=\"%s\": must be secure, all or none\n",
		       accept);
		goto out;
	}
	lnet_acc.mode = mode;
	if (mode != LNET_ACCEPT_NONE) {
		rc = lnet_acceptor_listen();
		if (rc) {
			pr_err("acceptor: cannot listen on port %d: %d\n",
			       accept_port, rc);
			goto out;
		}
	}
	lnet_acc.refs = 1;
out:
	mutex_unlock(&lnet_acc_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_acceptor_start);

/**
 * lnet_acceptor_stop() - drop a reference taken by lnet_acceptor_start()
 *
 * The last one closes the listener and waits for the acceptor thread,
 * which may be finishing a connection request (up to accept_timeout).
 */
void lnet_acceptor_stop(void)
{
	struct task_struct *task = NULL;
	struct socket *sock = NULL;

	mutex_lock(&lnet_acc_mutex);
	if (WARN_ON_ONCE(lnet_acc.refs <= 0))
		goto out;
	if (--lnet_acc.refs)
		goto out;
	sock = lnet_acc.sock;
	task = lnet_acc.task;
	lnet_acc.sock = NULL;
	lnet_acc.task = NULL;
	if (sock) {
		WRITE_ONCE(lnet_acc.stopping, true);
		/* wakes the thread out of accept(): the socket stops listening */
		kernel_sock_shutdown(sock, SHUT_RDWR);
		kthread_stop(task);
		sock_release(sock);
	}
out:
	mutex_unlock(&lnet_acc_mutex);
}
EXPORT_SYMBOL_GPL(lnet_acceptor_stop);
