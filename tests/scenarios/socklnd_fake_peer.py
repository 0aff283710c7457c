#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A fake socklnd peer, written from shared/spec (socklnd-wire.md,
lnet-wire.md) independently of the kernel code. It connects to a node's
acceptor (TCP 988) and checks that good handshakes and messages work and
that bad input only ever closes the connection.

Usage: socklnd_fake_peer.py TARGET_IP MY_IP   (as root: TCP_REPAIR)
Prints one line per check: "ok NAME" or "not ok NAME # reason".
The target runs lnet.ko + ksocklnd.ko (sock_timeout=5) + lnet_lndtest.ko
mode=server (portal 42); the last check PUTs its "done" marker (run 1).
"""
import errno
import select
import socket
import struct
import sys
import time

ACC_MAGIC = 0xACCE7100
PROTO_MAGIC = 0x45726963
TCP_MAGIC = 0xEEBC0DED
MSG_NOOP = 0xC0
MSG_LNET = 0xC1
PID = 12345
NONE = 0xFFFFFFFF
NID_ANY = 0xFFFFFFFFFFFFFFFF
LO0 = 0x0009000000000000
PING_MB = 0x8000000000000000
PING_MAGIC = 0x70696E67
NI_UP = 0x15AAC0DE
ACK, PUT, GET, REPLY, HELLO = 0, 1, 2, 3, 4
PORTAL = 42
MB_SINK_KVEC = 0x201
MB_PAT_KVEC = 0x101
MB_DONE = 0x300
CONTROL, BULK_IN, BULK_OUT = 1, 2, 3
INVERSE = {0: 0, 1: 1, 2: 3, 3: 2}
TCP_REPAIR = 19         # <linux/tcp.h>; needs CAP_NET_ADMIN

failed = 0


def ok(name):
    print('ok', name, flush=True)


def not_ok(name, why):
    global failed
    failed += 1
    print('not ok', name, '#', why, flush=True)


def check(name, cond, why='check failed'):
    if cond:
        ok(name)
    else:
        not_ok(name, why)
    return cond


def nid(ip):
    return (2 << 48) | struct.unpack('>I', socket.inet_aton(ip))[0]


def connect(ip, priv=True, timeout=10, avoid=()):
    ports = range(1023, 511, -1) if priv else [0]
    for p in ports:
        if p in avoid:
            continue
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(('', p))
        except OSError:
            s.close()
            continue
        s.settimeout(timeout)
        try:
            s.connect((ip, 988))
            return s
        except OSError as e:
            s.close()
            if e.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL):
                continue
            raise
    raise OSError('no free privileged port')


def recv_exact(s, n, timeout=10):
    """n bytes, or fewer if the peer closed (b'' on reset)."""
    s.settimeout(timeout)
    data = b''
    while len(data) < n:
        try:
            d = s.recv(n - len(data))
        except ConnectionResetError:
            return data
        if not d:
            return data
        data += d
    return data


def eof(s, timeout=10):
    """True if the peer closes without sending anything more."""
    s.settimeout(timeout)
    try:
        while True:
            d = s.recv(4096)
            if not d:
                return True
            return False
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def connreq(target, big=False):
    return struct.pack('>IIQ' if big else '<IIQ', ACC_MAGIC, 1, target)


def hello(version, src, dst, inc, ctype, src_pid=PID, nips=0, big=False,
          ips=()):
    e = '>' if big else '<'
    h = struct.pack(e + 'IIQQIIQQII', PROTO_MAGIC, version, src, dst,
                    src_pid, 0, inc, 0, ctype & 0xFFFFFFFF, nips)
    for ip in ips:
        h += struct.pack(e + 'I', ip)
    return h


def parse_hello(b):
    if len(b) < 56:
        return None
    magic = struct.unpack('<I', b[:4])[0]
    e = '<' if magic == PROTO_MAGIC else '>'
    f = struct.unpack(e + 'IIQQIIQQII', b[:56])
    return dict(magic=f[0], version=f[1], src=f[2], dst=f[3], src_pid=f[4],
                dst_pid=f[5], inc=f[6], dst_inc=f[7], type=f[8], nips=f[9],
                big=(e == '>'))


def ksock_hdr(typ, c0=0, c1=0, big=False):
    return struct.pack('>IIQQ' if big else '<IIQQ', typ, 0, c0, c1)


def lnet_hdr(dest, src, typ, plen, body):
    assert len(body) == 40
    return struct.pack('<QQIIII', dest, src, PID, PID, typ, plen) + body


def get_body(wmd, mb, portal, offset, sink):
    return struct.pack('<QQQIII4x', wmd[0], wmd[1], mb, portal, offset, sink)


def put_body(ack_wmd, mb, hdr_data, portal, offset):
    return struct.pack('<QQQQII', ack_wmd[0], ack_wmd[1], mb, hdr_data,
                       portal, offset)


class Msg:
    def __init__(self, sock, kind, c0=0, c1=0, ltype=None, dest=0, src=0,
                 plen=0, body=b'', payload=b''):
        self.sock, self.kind, self.c0, self.c1 = sock, kind, c0, c1
        self.ltype, self.dest, self.src, self.plen = ltype, dest, src, plen
        self.body, self.payload = body, payload

    def __repr__(self):
        return '%s(c0=%#x c1=%#x ltype=%s plen=%d)' % (
            self.kind, self.c0, self.c1, self.ltype, self.plen)


def read_msg(s, timeout=10, big=False):
    h = recv_exact(s, 24, timeout)
    if len(h) < 24:
        return None
    typ, _, c0, c1 = struct.unpack('>IIQQ' if big else '<IIQQ', h)
    if typ == MSG_NOOP:
        return Msg(s, 'noop', c0, c1)
    if typ != MSG_LNET:
        return Msg(s, 'bad%#x' % typ)
    lh = recv_exact(s, 72, timeout)
    if len(lh) < 72:
        return None
    dest, src, _, _, ltype, plen = struct.unpack('<QQIIII', lh[:32])
    payload = recv_exact(s, plen, timeout) if plen else b''
    return Msg(s, 'lnet', c0, c1, ltype, dest, src, plen, lh[32:], payload)


class Session:
    """CONTROL + BULK_IN + BULK_OUT to the target, like a Lustre node."""

    def __init__(self, tip, me, inc, version=3, big=False):
        self.tip, self.t, self.me = tip, nid(tip), me
        self.inc, self.version, self.big = inc, version, big
        self.socks, self.replies, self.backlog = {}, {}, []
        self.closed = set()
        for ctype in (CONTROL, BULK_IN, BULK_OUT):
            s, r = self.open(ctype)
            self.socks[ctype] = s
            self.replies[ctype] = r

    def open(self, ctype, inc=None, avoid=()):
        s = connect(self.tip, avoid=avoid)
        s.sendall(connreq(self.t, self.big) +
                  hello(self.version, self.me, self.t,
                        self.inc if inc is None else inc, ctype,
                        big=self.big))
        return s, parse_hello(recv_exact(s, 56))

    def send(self, ctype, data):
        self.socks[ctype].sendall(data)

    def wait(self, pred, timeout=20):
        """The first message matching pred, from any connection."""
        for m in self.backlog:
            if pred(m):
                self.backlog.remove(m)
                return m
        end = time.time() + timeout
        while time.time() < end:
            live = [s for s in self.socks.values() if s not in self.closed]
            if not live:
                return None
            r, _, _ = select.select(live, [], [], end - time.time())
            for s in r:
                # the target writes in its own byte order whatever ours is
                m = read_msg(s)
                if m is None:
                    self.closed.add(s)
                    continue
                if m.kind == 'noop' and m.c0 == 0 and m.c1 == 1:
                    continue        # keepalive
                if pred(m):
                    return m
                self.backlog.append(m)
        return None

    def all_closed(self, timeout=15):
        end = time.time() + timeout
        for s in self.socks.values():
            if s in self.closed:
                continue
            if not eof(s, max(end - time.time(), 0.1)):
                return False
        return True

    def close(self):
        for s in self.socks.values():
            s.close()


def ping(sess, ctype=CONTROL, wmd=(0x1111, 0x2222)):
    """Ping over the session; returns an error string or None."""
    sess.send(ctype, ksock_hdr(MSG_LNET, big=sess.big) +
              lnet_hdr(sess.t, sess.me, GET, 0,
                       get_body(wmd, PING_MB, 0, 0, 272)))
    m = sess.wait(lambda m: m.kind == 'lnet' and m.ltype == REPLY)
    if m is None:
        return 'no REPLY'
    rw = struct.unpack('<QQ', m.body[:16])
    if rw != wmd:
        return 'REPLY handle %s' % (rw,)
    if m.dest != sess.me or m.src != sess.t:
        return 'REPLY for %#x from %#x' % (m.dest, m.src)
    p = m.payload
    if len(p) < 48:
        return 'ping info of %d bytes' % len(p)
    magic, feat, pid, nnis = struct.unpack('<IIII', p[:16])
    ents = [struct.unpack('<QII', p[16 + 16 * i:32 + 16 * i])
            for i in range(min(nnis, (len(p) - 16) // 16))]
    if magic != PING_MAGIC or not feat & 2 or pid != PID or nnis < 2:
        return 'ping info %#x %#x %d %d' % (magic, feat, pid, nnis)
    if ents[0][0] != LO0 or not any(e[0] == sess.t and e[1] == NI_UP
                                    for e in ents[1:]):
        return 'ping entries %s' % ents
    return None


def pattern(n, seed):
    return bytes((i * 7 + seed + (i >> 8)) & 0xFF for i in range(n))


def main():
    tip, myip = sys.argv[1], sys.argv[2]
    t, me = nid(tip), nid(myip)
    fake = lambda k: nid('.'.join(myip.split('.')[:3] + [str(k)]))

    # wait for the target's acceptor with a real handshake
    end = time.time() + 180
    while True:
        try:
            s = connect(tip)
            s.sendall(connreq(t) + hello(3, fake(200), t, 1, CONTROL))
            r = parse_hello(recv_exact(s, 56))
            s.close()
            if r and r['type'] == CONTROL:
                break
        except OSError:
            pass
        if time.time() > end:
            not_ok('target up', 'no acceptor on %s:988' % tip)
            return 1
        time.sleep(1)
    ok('target up')

    # ---- acceptor (lnet-wire.md 9.3) ----
    answer = struct.pack('<IIQ', ACC_MAGIC, 1, 0)
    s = connect(tip)
    s.sendall(struct.pack('<II', PROTO_MAGIC, 3))
    check('acceptor: hello without request -> version answer',
          recv_exact(s, 16) == answer and eof(s))
    s.close()
    s = connect(tip)
    s.sendall(struct.pack('<II', ACC_MAGIC, 7))
    check('acceptor: request version 7 -> version answer',
          recv_exact(s, 16) == answer and eof(s))
    s.close()
    s = connect(tip)
    s.sendall(b'GET / HTTP/1.0\r\n\r\n')
    check('acceptor: bad magic -> closed', eof(s))
    s.close()
    s = connect(tip)
    s.sendall(connreq(fake(99)) + hello(3, fake(150), fake(99), 1, CONTROL))
    check('acceptor: request for a NID not there -> closed', eof(s))
    s.close()
    s = connect(tip, priv=False)
    s.sendall(connreq(t) + hello(3, fake(150), t, 1, CONTROL))
    check('acceptor: insecure source port -> closed', eof(s))
    s.close()
    s = connect(tip)
    s.sendall(connreq(t, big=True) + hello(3, fake(151), t, 5, CONTROL))
    r = parse_hello(recv_exact(s, 56))
    check('acceptor: byte-swapped request accepted',
          r is not None and r['type'] == CONTROL, 'reply %s' % r)
    s.close()

    # ---- hello (socklnd-wire.md 3) ----
    s = connect(tip)
    s.sendall(connreq(t) + hello(3, fake(152), t, 1, CONTROL)[:20])
    t0 = time.time()
    check('hello: truncated -> closed within accept_timeout',
          eof(s, 15) and time.time() - t0 < 12)
    s.close()
    for name, ver_hello in (
            ('V1', struct.pack('<IHH', TCP_MAGIC, 1, 0) + bytes(64)),
            ('V4', struct.pack('<II', PROTO_MAGIC, 4) + bytes(72))):
        s = connect(tip)
        s.sendall(connreq(t) + ver_hello)
        r = parse_hello(recv_exact(s, 56))
        check('hello: %s -> our V3 hello with type NONE, closed' % name,
              r is not None and r['version'] == 3 and r['type'] == NONE and
              eof(s), 'reply %s' % r)
        s.close()
    for name, h in (
            ('source NID ANY', hello(3, NID_ANY, t, 1, CONTROL)),
            ('destination NID not the target', hello(3, fake(153),
                                                     fake(98), 1, CONTROL)),
            ('connection type 7', hello(3, fake(153), t, 1, 7)),
            ('17 IPs', hello(3, fake(153), t, 1, CONTROL, nips=17,
                             ips=range(1, 18))),
            ('a zero IP', hello(3, fake(153), t, 1, CONTROL, nips=1,
                                ips=[0])),
            ('bad magic', struct.pack('<II', 0x12345678, 3) + bytes(48))):
        s = connect(tip)
        s.sendall(connreq(t) + h)
        check('hello: %s -> closed' % name, eof(s))
        s.close()
    s = connect(tip)
    s.sendall(connreq(t) + hello(3, fake(154), t, 9, CONTROL, nips=2,
                                 ips=[0x0A000001, 0x0A000002]))
    r = parse_hello(recv_exact(s, 56))
    check('hello: with an IP list accepted', r and r['type'] == CONTROL)
    s.close()

    # ---- a session as the real peer would open it ----
    sess = Session(tip, me, 111)
    r = sess.replies
    good = all(r[c] and r[c]['magic'] == PROTO_MAGIC and
               r[c]['version'] == 3 and r[c]['src'] == t and
               r[c]['dst'] == me and r[c]['src_pid'] == PID and
               r[c]['type'] == INVERSE[c] and r[c]['nips'] == 0 and
               r[c]['inc'] and r[c]['inc'] == r[CONTROL]['inc']
               for c in (CONTROL, BULK_IN, BULK_OUT))
    check('session: three typed connections, replies as the spec says',
          good, 'replies %s' % r)
    why = ping(sess)
    check('session: ping', why is None, why)

    data = pattern(20000, 3)
    sess.send(BULK_OUT, ksock_hdr(MSG_LNET, 0x1234, 0) +
              lnet_hdr(t, me, PUT, len(data),
                       put_body((0xAA, 0xBB), MB_SINK_KVEC, 0, PORTAL, 0)) +
              data)
    zack = sess.wait(lambda m: m.kind == 'noop' and
                     0x1234 in (m.c0, m.c1))
    check('session: zero-copy request ACKed by a NOOP', zack is not None)
    ack = sess.wait(lambda m: m.kind == 'lnet' and m.ltype == ACK)
    good = ack is not None and ack.plen == 0
    if good:
        w0, w1, mb, mlen = struct.unpack('<QQQI', ack.body[:28])
        good = (w0, w1, mb, mlen) == (0xAA, 0xBB, MB_SINK_KVEC, len(data))
    check('session: PUT of 20000 bytes ACKed', good, 'ACK %s' % ack)
    sess.send(CONTROL, ksock_hdr(MSG_LNET) +
              lnet_hdr(t, me, GET, 0,
                       get_body((5, 6), MB_SINK_KVEC, PORTAL, 0, len(data))))
    rep = sess.wait(lambda m: m.kind == 'lnet' and m.ltype == REPLY)
    check('session: GET returns the PUT data',
          rep is not None and rep.payload == data,
          'REPLY %s' % rep)
    sess.send(BULK_OUT, ksock_hdr(MSG_NOOP, 0, 1))
    why = ping(sess)
    check('session: keepalive NOOP ignored', why is None, why)

    # a new incarnation: old connections closed, NONE, then accepted
    s, r = sess.open(CONTROL, inc=222)
    check('session: new incarnation -> NONE',
          r is not None and r['type'] == NONE, 'reply %s' % r)
    s.close()
    check('session: new incarnation -> old connections closed',
          sess.all_closed())
    sess.close()
    sess = Session(tip, me, 222)
    why = ping(sess)
    check('session: after the restart', why is None, why)
    s, r = sess.open(CONTROL)
    check('session: duplicate CONTROL -> NONE',
          r is not None and r['type'] == NONE and eof(s), 'reply %s' % r)
    s.close()
    why = ping(sess)
    check('session: still up after the duplicate', why is None, why)
    sess.send(CONTROL, ksock_hdr(MSG_NOOP, 0, 0x999999))
    check('session: ZC-ACK of an unknown cookie -> all closed',
          sess.all_closed())
    sess.close()

    # byte-swapped peer: hello and socklnd headers big-endian
    sess = Session(tip, fake(155), 7, big=True)
    why = ping(sess) if all(sess.replies.values()) else 'no session'
    check('session: byte-swapped peer', why is None, why)
    sess.close()
    sess = Session(tip, fake(156), 8, version=2)
    good = all(r and r['version'] == 2 for r in sess.replies.values())
    why = ping(sess) if good else 'replies %s' % sess.replies
    check('session: protocol V2', why is None, why)
    sess.close()

    # a half-open connection: ours vanishes silently (TCP_REPAIR: close
    # sends neither FIN nor RST); the target answers a duplicate with NONE
    # but must notice and drop its stale end, so the next attempt succeeds
    sess = Session(tip, fake(170), 17)
    time.sleep(1)       # every segment ACKed: nothing left to retransmit
    stale = sess.socks.pop(BULK_IN)
    # a new connection from the same port would reset the stale one
    avoid = (stale.getsockname()[1],)
    stale.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR, 1)
    stale.close()
    s, r = sess.open(BULK_IN, avoid=avoid)
    check('half-open: duplicate answered NONE',
          r is not None and r['type'] == NONE, 'reply %s' % r)
    s.close()
    time.sleep(2)
    s, r = sess.open(BULK_IN, avoid=avoid)
    check('half-open: stale end dropped, next attempt accepted',
          r is not None and r['type'] == BULK_OUT, 'reply %s' % r)
    sess.socks[BULK_IN] = s
    why = ping(sess)
    check('half-open: session works again', why is None, why)
    sess.close()

    # ---- bad messages: each closes ----
    def bad_msg(k, name, payload, conn=CONTROL, all_conns=False):
        sess = Session(tip, fake(k), k)
        sess.send(conn, payload)
        if all_conns:
            good = sess.all_closed()
        else:
            good = eof(sess.socks[conn], 15)
        sess.close()
        check('bad message: %s -> closed' % name, good)

    bad_msg(160, 'socklnd type 0xdead', ksock_hdr(0xDEAD), all_conns=True)
    bad_msg(161, 'PUT of 2 MiB', ksock_hdr(MSG_LNET) +
            lnet_hdr(t, fake(161), PUT, 2 << 20,
                     put_body((1, 2), MB_SINK_KVEC, 0, PORTAL, 0)))
    bad_msg(162, 'GET with a payload', ksock_hdr(MSG_LNET) +
            lnet_hdr(t, fake(162), GET, 5,
                     get_body((1, 2), MB_PAT_KVEC, PORTAL, 0, 1)) + b'xxxxx')
    bad_msg(163, 'destination NID not ours', ksock_hdr(MSG_LNET) +
            lnet_hdr(fake(97), fake(163), GET, 0,
                     get_body((1, 2), MB_PAT_KVEC, PORTAL, 0, 1)))
    bad_msg(164, 'LNet type HELLO', ksock_hdr(MSG_LNET) +
            lnet_hdr(t, fake(164), HELLO, 0, bytes(40)))
    t0 = time.time()
    bad_msg(165, 'truncated, then silence (sock_timeout=5)',
            ksock_hdr(MSG_LNET) + bytes(30))
    check('bad message: truncated message timed out in time',
          time.time() - t0 < 15)

    # ---- done: the target may unload ----
    sess = Session(tip, me, 333)
    sess.send(CONTROL, ksock_hdr(MSG_LNET) +
              lnet_hdr(t, me, PUT, 0,
                       put_body((7, 8), MB_DONE, 1, PORTAL, 0)))
    ack = sess.wait(lambda m: m.kind == 'lnet' and m.ltype == ACK)
    check('done marker ACKed', ack is not None)
    why = ping(sess)
    check('target still healthy', why is None, why)
    sess.close()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
