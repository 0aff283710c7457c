/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic LNet API for in-kernel clients (ptlrpc, lnet_selftest).
 *
 * Objects are named by handles: a 64-bit cookie whose low bits encode the
 * object type. A handle that is stale (its object freed) or of the wrong
 * type makes every call fail with -ENOENT; it never touches freed memory.
 *
 * Event queues (EQ) receive events; match entries (ME) sit on a portal and
 * select incoming PUT/GET by initiator and match bits; memory descriptors
 * (MD) describe the buffer an ME (or a local PUT/GET) uses.
 *
 * Context: all calls may sleep except where noted, and must not be made
 * from an EQ callback unless noted ("callback-safe").
 *
 * While LNet is down (before the first LNetNIInit() or after the last
 * LNetNIFini()) every other call fails: with -ENOENT if it names an
 * existing object by handle (handles do not survive a shutdown), else with
 * -ENETDOWN.
 */
#ifndef _LINUX_LNET_API_H
#define _LINUX_LNET_API_H

#include <linux/types.h>
#include <linux/bvec.h>
#include <uapi/linux/lnet/lnet-nid.h>

#define LNET_MAX_PORTALS	64
#define LNET_RESERVED_PORTAL	0	/* ping and push; not for clients */
#define LNET_PROTO_PING_MATCHBITS	0x8000000000000000ULL

#define LNET_WIRE_HANDLE_COOKIE_NONE	(~0ULL)

struct lnet_handle_eq { u64 cookie; };
struct lnet_handle_md { u64 cookie; };
struct lnet_handle_me { u64 cookie; };

#define LNET_INVALID_HANDLE_COOKIE	(~0ULL)

static inline void LNetInvalidateEQHandle(struct lnet_handle_eq *h)
{
	h->cookie = LNET_INVALID_HANDLE_COOKIE;
}

static inline void LNetInvalidateMDHandle(struct lnet_handle_md *h)
{
	h->cookie = LNET_INVALID_HANDLE_COOKIE;
}

static inline bool LNetEQHandleIsInvalid(struct lnet_handle_eq h)
{
	return h.cookie == LNET_INVALID_HANDLE_COOKIE;
}

static inline bool LNetMDHandleIsInvalid(struct lnet_handle_md h)
{
	return h.cookie == LNET_INVALID_HANDLE_COOKIE;
}

/* Where LNetMEAttach/LNetMEInsert put the new ME in the portal's list. */
enum lnet_ins_pos {
	LNET_INS_BEFORE,	/* at the head (attach) / before current (insert) */
	LNET_INS_AFTER,		/* at the tail (attach) / after current (insert) */
};

/* Whether an ME (or MD) goes away when its MD is unlinked (exhausted). */
enum lnet_unlink {
	LNET_RETAIN = 0,
	LNET_UNLINK,
};

enum lnet_ack_req {
	LNET_ACK_REQ,
	LNET_NOACK_REQ,
};

/* lnet_md.options */
#define LNET_MD_OP_PUT		(1U << 0)	/* accepts PUT from peers */
#define LNET_MD_OP_GET		(1U << 1)	/* accepts GET from peers */
#define LNET_MD_MANAGE_REMOTE	(1U << 2)	/* initiator's offset is used */
#define LNET_MD_TRUNCATE	(1U << 4)	/* accept oversize, truncated */
#define LNET_MD_ACK_DISABLE	(1U << 5)	/* never send ACK for PUTs */
#define LNET_MD_MAX_SIZE	(1U << 7)	/* use max_size (local offset) */
#define LNET_MD_KIOV		(1U << 8)	/* start is a struct bio_vec[] */
/*
 * Bound MDs: whether the ACK or REPLY a PUT or GET from this MD asks for
 * is timed out (transaction_timeout), whatever response_tracking says.
 */
#define LNET_MD_TRACK_RESPONSE		(1U << 10)
#define LNET_MD_NO_TRACK_RESPONSE	(1U << 11)

#define LNET_MD_THRESH_INF	(-1)

/*
 * A memory descriptor as given by the caller. With LNET_MD_KIOV, @start
 * points to an array of @length struct bio_vec (at most LNET_MAX_IOV);
 * otherwise @start/@length is a contiguous kernel buffer.
 * @threshold: operations before the MD is exhausted (LNET_MD_THRESH_INF:
 * never). @max_size: with LNET_MD_MAX_SIZE, the MD is unlinked when less
 * than this much room remains (locally managed offset).
 */
struct lnet_md {
	void			*start;
	unsigned int		length;
	int			threshold;
	int			max_size;
	unsigned int		options;
	void			*user_ptr;
	struct lnet_handle_eq	eq_handle;	/* invalid: no events */
};

enum lnet_event_kind {
	LNET_EVENT_GET = 1,	/* a peer's GET was served from this MD */
	LNET_EVENT_PUT,		/* a peer's PUT landed in this MD */
	LNET_EVENT_REPLY,	/* the REPLY to our GET landed in this MD */
	LNET_EVENT_ACK,		/* the ACK for our PUT arrived */
	LNET_EVENT_SEND,	/* our PUT/GET has left (buffer reusable for PUT) */
	LNET_EVENT_UNLINK,	/* the MD was unlinked by LNetMDUnlink */
};

/*
 * Per event type: PUT and GET describe a peer's operation on our MD
 * (initiator = the peer, target = the NID/pid it addressed); SEND, REPLY
 * and ACK describe our own LNetPut/LNetGet (initiator = us, target = the
 * remote process). pt_index and match_bits are those of the PUT/GET (ACK:
 * match_bits only; REPLY: neither). rlength is what the operation asked
 * for (PUT: payload, GET: sink length), mlength what was moved (ACK: what
 * the target accepted). UNLINK carries only the MD fields, unlinked = 1.
 */
struct lnet_event {
	struct lnet_process_id	target;		/* the target of the operation */
	struct lnet_process_id	initiator;	/* who started it */
	lnet_nid_t		sender;		/* the peer NID that sent it */
	enum lnet_event_kind	type;
	unsigned int		pt_index;
	u64			match_bits;
	unsigned int		rlength;	/* length requested */
	unsigned int		mlength;	/* length manipulated */
	struct lnet_handle_md	md_handle;
	struct lnet_md		md;		/* the MD as it was at the event */
	u64			hdr_data;
	int			status;		/* 0 or -errno */
	int			unlinked;	/* the MD is gone after this event */
	unsigned int		offset;		/* in the MD */
	unsigned long		sequence;	/* per-EQ, monotonic */
};

/*
 * Called for every event of an EQ, in the context that produced it (may be
 * softirq or an LND thread: must not sleep). Callbacks for one MD are
 * serialized and ordered; callbacks for different MDs may run concurrently.
 */
typedef void (*lnet_eq_handler_t)(struct lnet_event *event);

/* Bring LNet up for this caller (reference counted): 0 or -errno. */
int LNetNIInit(lnet_pid_t requested_pid);
/* Drop the caller's reference; the last one shuts LNet down. */
int LNetNIFini(void);

/* The @index'th local process id (0 is 0@lo): 0, or -ENOENT past the end. */
int LNetGetId(unsigned int index, struct lnet_process_id *id);

/*
 * Multi-Rail peers (peer-node.c): the primary NID of the peer that owns a
 * NID (what MEs match and events name as initiator), a configured peer
 * with the NIDs an upper layer knows for it, and whether a NID is ours.
 */
lnet_nid_t LNetPrimaryNID(lnet_nid_t nid);
int LNetAddPeer(const lnet_nid_t *nids, unsigned int n);
bool LNetIsPeerLocal(lnet_nid_t nid);
/*
 * Distance to @nid: 0 for a local NI (or loopback), 1 for a directly
 * reachable peer, more via routers; -EHOSTUNREACH if unreachable.
 * @srcnid (optional) gets the local NI used, @order (optional) its index.
 */
int LNetDist(lnet_nid_t nid, lnet_nid_t *srcnid, u32 *order);

/*
 * @count: ring size, rounded up to a power of two; 0 for a callback-only
 * EQ (then @handler must not be NULL).
 */
int LNetEQAlloc(unsigned int count, lnet_eq_handler_t handler,
		struct lnet_handle_eq *handle);
/* -EBUSY while an MD still refers to the EQ. */
int LNetEQFree(struct lnet_handle_eq eqh);
/*
 * Return the oldest event of any of @eqhs[0..neq-1]:
 * 1 (event copied, *which = its index), 0 (no event within @timeout_ms;
 * 0 = do not wait, negative = wait forever), -EOVERFLOW (an event copied,
 * but older ones were overwritten since the last poll), or -errno.
 */
int LNetEQPoll(struct lnet_handle_eq *eqhs, int neq, int timeout_ms,
	       struct lnet_event *event, int *which);
/* LNetEQPoll on one EQ without waiting / waiting forever. */
int LNetEQGet(struct lnet_handle_eq eqh, struct lnet_event *event);
int LNetEQWait(struct lnet_handle_eq eqh, struct lnet_event *event);

int LNetMEAttach(unsigned int portal, struct lnet_process_id match_id,
		 u64 match_bits, u64 ignore_bits, enum lnet_unlink unlink,
		 enum lnet_ins_pos pos, struct lnet_handle_me *handle);
int LNetMEInsert(struct lnet_handle_me current_meh,
		 struct lnet_process_id match_id, u64 match_bits,
		 u64 ignore_bits, enum lnet_unlink unlink,
		 enum lnet_ins_pos pos, struct lnet_handle_me *handle);
/* Unlinks the ME and its MD (delivering UNLINK if the MD has an EQ). */
int LNetMEUnlink(struct lnet_handle_me meh);

/* Attach @md to the ME; -EBUSY if the ME already has an MD. */
int LNetMDAttach(struct lnet_handle_me meh, struct lnet_md md,
		 enum lnet_unlink unlink, struct lnet_handle_md *handle);
/* An MD not on any portal, for LNetPut/LNetGet sources and sinks. */
int LNetMDBind(struct lnet_md md, enum lnet_unlink unlink,
	       struct lnet_handle_md *handle);
/*
 * Unlink now if idle; otherwise once in-flight operations finish. Either
 * way an UNLINK event (unlinked = 1) is the MD's last event. Callback-safe.
 */
int LNetMDUnlink(struct lnet_handle_md mdh);

/*
 * @self: local NID to send from, LNET_NID_ANY to let LNet choose.
 * @mdh must come from LNetMDBind() (-EINVAL for an attached MD); a PUT's
 * MD holds at most LNET_MTU bytes (-EMSGSIZE). Each call takes one
 * operation of the MD's threshold; the ACK or REPLY takes another. Once
 * the call returned 0, failures are reported by the SEND event's status.
 */
int LNetPut(lnet_nid_t self, struct lnet_handle_md mdh, enum lnet_ack_req ack,
	    struct lnet_process_id target, unsigned int portal,
	    u64 match_bits, unsigned int offset, u64 hdr_data);
int LNetGet(lnet_nid_t self, struct lnet_handle_md mdh,
	    struct lnet_process_id target, unsigned int portal,
	    u64 match_bits, unsigned int offset);

/*
 * A lazy portal keeps PUTs that match no ME (in arrival order) until an ME
 * is attached; clearing it drops (and counts) what is queued.
 */
int LNetSetLazyPortal(int portal);
int LNetClearLazyPortal(int portal);

/* Configuration commands from the /dev/lnet ioctl layer. */
int LNetCtl(unsigned int cmd, void *arg);

#endif /* _LINUX_LNET_API_H */
