// SPDX-License-Identifier: GPL-2.0
/*
 * The acceptor (Documentation/wire/socklnd.md, "The acceptor") and the
 * socket helpers of the LNDs that use it.
 *
 * One kernel thread accepts on INADDR_ANY:accept_port; the 16-byte (or
 * 28-byte) connection request is then gathered without a thread waiting on
 * it (the passive handshakes below, shared with the LNDs' hellos), the
 * local NI whose NID is the request's target found and the socket handed
 * to that NI's LND ->accept(). Every
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
		 "seconds for a whole passive handshake (the connection request and the LND's hello together), however slowly its bytes come");

static unsigned int accept_max_pending = 256;
module_param(accept_max_pending, uint, 0644);
MODULE_PARM_DESC(accept_max_pending,
		 "connection requests read at once; a new connection beyond it drops the oldest pending one");

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
	struct lnet_hs_pool	pool;		/* requests being read */
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

/* ---- passive handshakes ---------------------------------------------------- */

/*
 * A handshake's socket callbacks only queue its work; they run in softirq
 * context under sk_callback_lock, which also keeps @hs alive against
 * lnet_hs_finish() restoring the callbacks.
 */
static void lnet_hs_kick(struct sock *sk)
{
	struct lnet_hs *hs;

	read_lock_bh(&sk->sk_callback_lock);
	hs = sk->sk_user_data;
	if (hs)
		mod_delayed_work(hs->pool->wq, &hs->work, 0);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* Read what has arrived without waiting: 0 (complete) or -errno. */
static int lnet_hs_gather(struct lnet_hs *hs)
{
	unsigned int need;
	int rc;

	for (;;) {
		struct kvec iov;
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };

		need = hs->ops->need(hs);
		if (need <= hs->have)
			return 0;
		if (WARN_ON_ONCE(need > sizeof(hs->buf)))
			return -EPROTO;
		iov.iov_base = hs->buf + hs->have;
		iov.iov_len = need - hs->have;
		rc = kernel_recvmsg(hs->sock, &msg, &iov, 1, iov.iov_len,
				    MSG_DONTWAIT);
		if (rc < 0)
			return rc;
		if (!rc)
			return -ECONNRESET;
		hs->have += rc;
	}
}

static void lnet_hs_finish(struct lnet_hs *hs, int rc)
{
	struct lnet_hs_pool *pool = hs->pool;
	struct sock *sk = hs->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_data_ready = hs->saved_data_ready;
	sk->sk_state_change = hs->saved_state_change;
	sk->sk_user_data = NULL;
	write_unlock_bh(&sk->sk_callback_lock);

	spin_lock_bh(&pool->lock);
	list_del(&hs->list);
	if (!hs->aborted)
		pool->nlive--;
	spin_unlock_bh(&pool->lock);
	/* a kick that came before the callbacks went; nothing can queue it now */
	cancel_delayed_work(&hs->work);

	hs->ops->done(hs, rc);		/* frees @hs */

	spin_lock_bh(&pool->lock);
	if (!--pool->nall)
		wake_up_all(&pool->waitq);
	spin_unlock_bh(&pool->lock);
}

static void lnet_hs_work(struct work_struct *work)
{
	struct lnet_hs *hs = container_of(to_delayed_work(work),
					  struct lnet_hs, work);
	long left;
	int rc;

	if (READ_ONCE(hs->aborted)) {
		rc = -ECONNABORTED;
	} else {
		rc = lnet_hs_gather(hs);
		left = (long)(hs->deadline - jiffies);
		if (rc == -EAGAIN && left > 0) {
			/* no-op if a kick is pending already */
			queue_delayed_work(hs->pool->wq, &hs->work, left);
			return;
		}
		if (rc == -EAGAIN)
			rc = -ETIMEDOUT;
	}
	lnet_hs_finish(hs, rc);
}

/**
 * lnet_hs_pool_init() - a pool of passive handshakes, empty
 * @pool: the pool
 * @name: its workqueue's name, and what its messages say
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_hs_pool_init(struct lnet_hs_pool *pool, const char *name)
{
	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->list);
	pool->nlive = 0;
	pool->nall = 0;
	init_waitqueue_head(&pool->waitq);
	pool->name = name;
	/* handshakes may be on the way of memory reclaim (Lustre writeback) */
	pool->wq = alloc_workqueue("%s", WQ_UNBOUND | WQ_MEM_RECLAIM, 0, name);
	return pool->wq ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_GPL(lnet_hs_pool_init);

/**
 * lnet_hs_pool_abort() - drop handshakes now
 * @pool: the pool
 * @owner: only those started for @owner; NULL: every one
 *
 * Their ->done() gets -ECONNABORTED soon, on the pool's workqueue.
 */
void lnet_hs_pool_abort(struct lnet_hs_pool *pool, void *owner)
{
	struct lnet_hs *hs;

	spin_lock_bh(&pool->lock);
	list_for_each_entry(hs, &pool->list, list) {
		if (owner && hs->owner != owner)
			continue;
		if (!hs->aborted) {
			WRITE_ONCE(hs->aborted, true);
			pool->nlive--;
		}
		mod_delayed_work(pool->wq, &hs->work, 0);
	}
	spin_unlock_bh(&pool->lock);
}
EXPORT_SYMBOL_GPL(lnet_hs_pool_abort);

/**
 * lnet_hs_pool_fini() - abort every handshake, wait for them, free the pool
 * @pool: an initialised pool; no lnet_hs_start() may come any more
 */
void lnet_hs_pool_fini(struct lnet_hs_pool *pool)
{
	lnet_hs_pool_abort(pool, NULL);
	wait_event(pool->waitq, !READ_ONCE(pool->nall));
	/* the last work item may still be returning from lnet_hs_finish() */
	destroy_workqueue(pool->wq);
}
EXPORT_SYMBOL_GPL(lnet_hs_pool_fini);

/* The oldest live handshake makes room; pool->lock held. */
static void lnet_hs_evict_oldest_locked(struct lnet_hs_pool *pool)
{
	struct lnet_hs *hs;

	lockdep_assert_held(&pool->lock);
	list_for_each_entry(hs, &pool->list, list) {
		if (hs->aborted)
			continue;
		WRITE_ONCE(hs->aborted, true);
		pool->nlive--;
		mod_delayed_work(pool->wq, &hs->work, 0);
		pr_warn_ratelimited("%s: too many handshakes at once: dropping the oldest, from %pI4\n",
				    pool->name, &hs->peer_ip);
		return;
	}
}

/**
 * lnet_hs_start() - read a peer's handshake in the background
 * @pool: the pool it joins
 * @hs: the handshake, with ->ops and ->owner set; the rest is filled here
 * @sock: a connected socket; @hs's on success
 * @limit: most live handshakes in @pool; a new one beyond it drops the oldest
 * @deadline: jiffies by which the whole handshake must be in
 *
 * ->done() is called exactly once, when the handshake is complete, fails,
 * runs out of time or is dropped.
 *
 * Context: process context.
 * Return: 0, or -EBUSY when twice @limit are still winding down (the
 * caller keeps @hs and @sock).
 */
int lnet_hs_start(struct lnet_hs_pool *pool, struct lnet_hs *hs,
		  struct socket *sock, unsigned int limit,
		  unsigned long deadline)
{
	struct sock *sk = sock->sk;

	limit = max(limit, 1U);
	hs->pool = pool;
	hs->sock = sock;
	hs->have = 0;
	hs->aborted = false;
	hs->deadline = deadline;
	hs->peer_ip = 0;
	hs->peer_port = 0;
	lnet_sock_getaddr(sock, true, &hs->peer_ip, &hs->peer_port);
	INIT_DELAYED_WORK(&hs->work, lnet_hs_work);

	spin_lock_bh(&pool->lock);
	if (pool->nall >= 2 * limit) {
		spin_unlock_bh(&pool->lock);
		pr_warn_ratelimited("%s: too many handshakes at once: refused %pI4\n",
				    pool->name, &hs->peer_ip);
		return -EBUSY;
	}
	if (pool->nlive >= limit)
		lnet_hs_evict_oldest_locked(pool);
	list_add_tail(&hs->list, &pool->list);
	pool->nlive++;
	pool->nall++;
	/*
	 * Still under pool->lock: nothing may queue the work (an abort, an
	 * eviction) before the callbacks it restores are saved.
	 */
	write_lock(&sk->sk_callback_lock);
	hs->saved_data_ready = sk->sk_data_ready;
	hs->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = hs;
	sk->sk_data_ready = lnet_hs_kick;
	sk->sk_state_change = lnet_hs_kick;
	write_unlock(&sk->sk_callback_lock);
	spin_unlock_bh(&pool->lock);
	/* bytes that came before the callbacks; arms the deadline otherwise */
	mod_delayed_work(pool->wq, &hs->work, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(lnet_hs_start);

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

static unsigned int lnet_acceptor_need(const struct lnet_hs *hs)
{
	const u32 *w = (const u32 *)hs->buf;
	u32 version;

	if (hs->have < 4)
		return 4;
	if (w[0] != LNET_PROTO_ACCEPTOR_MAGIC &&
	    w[0] != swab32(LNET_PROTO_ACCEPTOR_MAGIC))
		return 0;
	if (hs->have < 8)
		return 8;
	version = w[0] == LNET_PROTO_ACCEPTOR_MAGIC ? w[1] : swab32(w[1]);
	if (version == LNET_PROTO_ACCEPTOR_VERSION)
		return sizeof(struct lnet_acceptor_connreq);
	if (version == LNET_PROTO_ACCEPTOR_VERSION_16)
		return 8 + sizeof(struct lnet_nid16);
	return 0;
}

/* The complete request's target NID; 0, or -errno to close. */
static int lnet_acceptor_parse(struct lnet_hs *hs, lnet_nid_t *nid)
{
	struct lnet_nid16 large;
	u32 magic, version;
	bool flip;

	memcpy(&magic, hs->buf, sizeof(magic));
	flip = magic == swab32(LNET_PROTO_ACCEPTOR_MAGIC);
	if (magic == LNET_PROTO_MAGIC || magic == swab32(LNET_PROTO_MAGIC)) {
		/* a hello without a connection request */
		lnet_acceptor_answer(hs->sock);
		return -EPROTO;
	}
	if (!flip && magic != LNET_PROTO_ACCEPTOR_MAGIC) {
		pr_err_ratelimited("refused connection from %pI4: unsupported acceptor protocol (magic %08x%s)\n",
				   &hs->peer_ip, magic,
				   magic == LNET_PROTO_TCP_MAGIC ?
				   ", an old socklnd without acceptor" : "");
		return -EPROTO;
	}

	memcpy(&version, hs->buf + 4, sizeof(version));
	if (flip)
		version = swab32(version);
	switch (version) {
	case LNET_PROTO_ACCEPTOR_VERSION:
		memcpy(nid, hs->buf + 8, sizeof(*nid));
		if (flip)
			*nid = swab64(*nid);
		return 0;
	case LNET_PROTO_ACCEPTOR_VERSION_16:
		/* a large NID is in network order: never swapped */
		memcpy(&large, hs->buf + 8, sizeof(large));
		if (lnet_nid16_to_nid4(&large, nid)) {
			pr_err_ratelimited("refused connection from %pI4: large target NID not supported\n",
					   &hs->peer_ip);
			return -EPROTO;
		}
		return 0;
	default:
		lnet_acceptor_answer(hs->sock);
		pr_warn_ratelimited("refused connection from %pI4: acceptor protocol version %u\n",
				    &hs->peer_ip, version);
		return -EPROTO;
	}
}

/* The request is in (or the handshake failed): hand the socket on. */
static void lnet_acceptor_done(struct lnet_hs *hs, int rc)
{
	struct socket *sock = hs->sock;
	char str[LNET_NIDSTR_SIZE];
	struct lnet_ni *ni;
	lnet_nid_t nid;

	if (!rc)
		rc = lnet_acceptor_parse(hs, &nid);
	if (rc) {
		if (rc != -EPROTO && rc != -ECONNABORTED)
			pr_warn_ratelimited("connection request from %pI4: error %d\n",
					    &hs->peer_ip, rc);
		/*
		 * Slow, dropped or gone: reset rather than FIN, or an orphan
		 * whose peer never closes would stay in FIN-WAIT for good
		 * (a kernel socket has no timers once closed). A refusal
		 * keeps the FIN so that its answer gets there.
		 */
		if (rc != -EPROTO)
			sock_no_linger(sock->sk);
		goto out;
	}

	rcu_read_lock();
	ni = lnet_ni_find_rcu(nid);
	if (ni && (!ni->lnd->accept || !lnet_ni_call_begin(ni)))
		ni = NULL;
	rcu_read_unlock();
	if (!ni) {
		pr_err_ratelimited("refused connection from %pI4 for %s: no matching local NI\n",
				   &hs->peer_ip, lnet_nid2str(nid, str, sizeof(str)));
		goto out;
	}
	rc = ni->lnd->accept(ni, sock, hs->deadline);
	lnet_ni_call_end(ni);
	if (!rc)
		sock = NULL;	/* the LND's now */
out:
	if (sock)
		sock_release(sock);
	kfree(hs);
}

static const struct lnet_hs_ops lnet_acceptor_hs_ops = {
	.need	= lnet_acceptor_need,
	.done	= lnet_acceptor_done,
};

/* One accepted connection: its request is read in the background. */
static void lnet_acceptor_handle(struct socket *sock)
{
	struct lnet_hs *hs;
	__be32 peer_ip;
	int peer_port;

	if (lnet_sock_getaddr(sock, true, &peer_ip, &peer_port))
		goto out;
	if (lnet_acc.mode == LNET_ACCEPT_SECURE &&
	    peer_port > LNET_ACCEPTOR_MAX_RESERVED_PORT) {
		pr_warn_ratelimited("refused connection from %pI4: insecure port %d\n",
				    &peer_ip, peer_port);
		goto out;
	}
	hs = kzalloc(sizeof(*hs), GFP_KERNEL);
	if (!hs)
		goto out;
	hs->ops = &lnet_acceptor_hs_ops;
	if (!lnet_hs_start(&lnet_acc.pool, hs, sock,
			   READ_ONCE(accept_max_pending),
			   jiffies + lnet_acceptor_timeout() * HZ))
		return;
	kfree(hs);
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

	rc = lnet_hs_pool_init(&lnet_acc.pool, "lnet_accept");
	if (rc)
		return rc;
	rc = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			      &sock);
	if (rc)
		goto fail_pool;
	sock_set_reuseaddr(sock->sk);
	rc = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
	if (!rc)
		rc = kernel_listen(sock, accept_backlog);
	if (rc)
		goto fail_sock;
	lnet_acc.stopping = false;
	task = kthread_run(lnet_acceptor_thread, sock, "lnet_acceptor");
	if (IS_ERR(task)) {
		rc = PTR_ERR(task);
		goto fail_sock;
	}
	lnet_acc.sock = sock;
	lnet_acc.task = task;
	return 0;

fail_sock:
	sock_release(sock);
fail_pool:
	lnet_hs_pool_fini(&lnet_acc.pool);
	return rc;
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
 * The last one closes the listener, stops the acceptor thread and drops
 * the connection requests still being read.
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
		lnet_hs_pool_fini(&lnet_acc.pool);
	}
out:
	mutex_unlock(&lnet_acc_mutex);
}
EXPORT_SYMBOL_GPL(lnet_acceptor_stop);
