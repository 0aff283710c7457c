#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A fake socklnd node on the passive side, written from shared/spec
(socklnd-wire.md, lnet-wire.md) independently of the kernel code. It
listens on TCP 988 and serves what lnet_lndtest.ko's client asks for (ping,
the server's pattern and sink MDs on portal 42, "done"), so the client
exercises our ACTIVE side against a peer that is not our own code.

Scripted handshake, to check the active side's rules:
  connection 1: expect a V3 CONTROL hello; answer a V2 hello of type NONE
                (version mismatch) and close -> the node must retry in V2
  connection 2: expect V2 CONTROL; answer NONE (declined) and close -> the
                node must wait min_reconnectms before trying again
  connection 3+: accept; expect CONTROL, BULK_IN, BULK_OUT in that order

Usage: socklnd_fake_server.py MY_IP PEER_IP
Prints one line per check: "ok NAME" or "not ok NAME # reason".
"""
import socket
import struct
import sys
import threading
import time

ACC_MAGIC = 0xACCE7100
PROTO_MAGIC = 0x45726963
MSG_NOOP, MSG_LNET = 0xC0, 0xC1
PID = 12345
NONE = 0xFFFFFFFF
LO0 = 0x0009000000000000
PING_MB = 0x8000000000000000
PING_MAGIC = 0x70696E67
NI_UP = 0x15AAC0DE
ACK, PUT, GET, REPLY = 0, 1, 2, 3
PORTAL = 42
MB_PAT = (0x100, 0x101)
MB_SINK = (0x200, 0x201)
MB_DONE = 0x300
MAX = 1 << 20
INVERSE = {0: 0, 1: 1, 2: 3, 3: 2}

lock = threading.Lock()
failed = 0
done = threading.Event()


def ok(name):
    with lock:
        print('ok', name, flush=True)


def not_ok(name, why):
    global failed
    with lock:
        failed += 1
        print('not ok', name, '#', why, flush=True)


def check(name, cond, why='check failed'):
    (ok(name) if cond else not_ok(name, why))
    return cond


def nid(ip):
    return (2 << 48) | struct.unpack('>I', socket.inet_aton(ip))[0]


def recv_exact(s, n):
    data = b''
    while len(data) < n:
        try:
            d = s.recv(n - len(data))
        except OSError:
            return data
        if not d:
            return data
        data += d
    return data


def lt_pat_buf(seed, n):
    """lnet_lndtest's pattern: byte at offset i, for i < n."""
    out = bytearray(n)
    s = (seed * 40503) & 0xFFFFFFFF
    for i in range(n):
        x = (((i + 1) * 2654435761) & 0xFFFFFFFF) ^ s
        out[i] = ((x >> 24) ^ (i >> 8)) & 0xFF
    return bytes(out)


def hello(version, src, dst, inc, ctype):
    return struct.pack('<IIQQIIQQII', PROTO_MAGIC, version, src, dst, PID, 0,
                       inc, 0, ctype & 0xFFFFFFFF, 0)


class Node:
    def __init__(self, me_ip, peer_ip):
        self.me, self.peer = nid(me_ip), nid(peer_ip)
        self.inc = time.time_ns()
        self.pattern = lt_pat_buf(0x5eed, MAX)
        self.sinks = {mb: bytearray(MAX) for mb in MB_SINK}
        self.nconn = 0
        self.types = []
        self.times = []
        self.zc_requests = 0
        self.msgs = 0

    # ---- replies ----
    def send(self, c, data):
        with c['lock']:
            c['sock'].sendall(data)

    def lnet(self, c, ltype, dest, dest_pid, plen, body, payload=b'',
             c1=0):
        hdr = struct.pack('<IIQQ', MSG_LNET, 0, 0, c1)
        lh = struct.pack('<QQIIII', dest, self.me, dest_pid, PID, ltype,
                         plen) + body
        self.send(c, hdr + lh + payload)

    def ping_info(self):
        return struct.pack('<IIII', PING_MAGIC, 0x02, PID, 2) + \
            struct.pack('<QII', LO0, 1, 0) + \
            struct.pack('<QII', self.me, NI_UP, 0)

    def on_get(self, c, src, src_pid, body):
        w0, w1, mb, ptl, off, sink = struct.unpack('<QQQIII', body[:36])
        if ptl == 0 and mb == PING_MB:
            data = self.ping_info()[off:off + sink]
        elif ptl == PORTAL and mb in MB_PAT:
            data = self.pattern[off:off + sink]
        elif ptl == PORTAL and mb in MB_SINK:
            data = bytes(self.sinks[mb][off:off + sink])
        else:
            not_ok('GET matches', 'portal %d bits %#x' % (ptl, mb))
            return
        self.lnet(c, REPLY, src, src_pid, len(data),
                  struct.pack('<QQ', w0, w1) + bytes(24), data)

    def on_put(self, c, src, src_pid, body, payload):
        w0, w1, mb, hdr_data, ptl, off = struct.unpack('<QQQQII', body)
        if ptl == PORTAL and mb in MB_SINK:
            n = max(min(len(payload), MAX - off), 0)
            self.sinks[mb][off:off + n] = payload[:n]
        elif ptl == PORTAL and mb == MB_DONE:
            n = min(len(payload), 8)
        else:
            not_ok('PUT matches', 'portal %d bits %#x' % (ptl, mb))
            return
        if (w0, w1) != (0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF):
            self.lnet(c, ACK, src, src_pid, 0,
                      struct.pack('<QQQI', w0, w1, mb, n) + bytes(12))
        if mb == MB_DONE:
            done.set()

    def reader(self, c):
        s = c['sock']
        while True:
            h = recv_exact(s, 24)
            if len(h) < 24:
                return
            typ, csum, c0, c1 = struct.unpack('<IIQQ', h)
            if typ == MSG_NOOP:
                continue
            if typ != MSG_LNET or csum:
                not_ok('message framing', 'type %#x csum %#x' % (typ, csum))
                return
            lh = recv_exact(s, 72)
            dest, src, dpid, spid, ltype, plen = struct.unpack(
                '<QQIIII', lh[:32])
            payload = recv_exact(s, plen)
            if len(lh) < 72 or len(payload) < plen:
                return
            self.msgs += 1
            if dest != self.me or src != self.peer or spid != PID:
                not_ok('LNet header', 'dest %#x src %#x pid %d' %
                       (dest, src, spid))
            if c0:
                # a zero-copy request: ACK it once received (section 5)
                self.zc_requests += 1
                self.send(c, struct.pack('<IIQQ', MSG_NOOP, 0, 0, c0))
            if ltype == GET:
                self.on_get(c, src, spid, lh[32:])
            elif ltype == PUT:
                self.on_put(c, src, spid, lh[32:], payload)
            else:
                not_ok('LNet type', '%d' % ltype)

    # ---- handshakes ----
    def handshake(self, s, addr):
        n = self.nconn
        self.nconn += 1
        now = time.time()
        req = recv_exact(s, 16)
        head = recv_exact(s, 8)
        if len(req) < 16 or len(head) < 8:
            not_ok('connection %d: request and hello' % n, 'short')
            return None
        magic, version, target = struct.unpack('<IIQ', req)
        if n == 0:
            check('active: connects from a privileged port', addr[1] <= 1023,
                  'port %d' % addr[1])
            check('active: connection request bytes',
                  (magic, version, target) == (ACC_MAGIC, 1, self.me),
                  '%#x %d %#x' % (magic, version, target))
        hmagic, hver = struct.unpack('<II', head)
        rest = recv_exact(s, 48)
        if hmagic != PROTO_MAGIC or len(rest) < 48:
            not_ok('connection %d: hello' % n, 'magic %#x' % hmagic)
            return None
        (src, dst, spid, dpid, inc, dinc, ctype,
         nips) = struct.unpack('<QQIIQQII', rest)
        if n == 0:
            check('active: V3 hello fields as the spec says',
                  hver == 3 and src == self.peer and dst == self.me and
                  spid == PID and dpid == 0 and inc and dinc == 0 and
                  ctype == 1 and nips == 0,
                  'v%d %#x %#x %d %d %#x %#x %d %d' %
                  (hver, src, dst, spid, dpid, inc, dinc, ctype, nips))
            self.times.append(now)
            s.sendall(hello(2, self.me, src, self.inc, NONE))
            return None
        if n == 1:
            check('active: falls back to V2 after a V2 answer',
                  hver == 2 and ctype == 1, 'v%d type %d' % (hver, ctype))
            self.times.append(now)
            s.sendall(hello(2, self.me, src, self.inc, NONE))
            return None
        if n == 2:
            gap = now - self.times[-1]
            check('active: waits min_reconnectms after NONE',
                  0.8 <= gap < 10, '%.2f s' % gap)
        if hver != 2:
            not_ok('connection %d: version' % n, 'v%d' % hver)
            return None
        self.types.append(ctype)
        s.sendall(hello(2, self.me, src, self.inc, INVERSE.get(ctype, NONE)))
        return {'sock': s, 'lock': threading.Lock()}

    def serve(self):
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(('', 988))
        ls.listen(16)
        ls.settimeout(1)
        threads = []
        end = time.time() + 400
        while not done.is_set() and time.time() < end:
            try:
                s, addr = ls.accept()
            except socket.timeout:
                continue
            s.settimeout(None)
            c = self.handshake(s, addr)
            if c is None:
                s.close()
                continue
            t = threading.Thread(target=self.reader, args=(c,), daemon=True)
            t.start()
            threads.append(t)
        check('the client said done', done.is_set(), 'timed out')
        check('active: typed connections CONTROL, BULK_IN, BULK_OUT',
              self.types[:3] == [1, 2, 3], 'types %s' % self.types)
        check('active: large page payloads sent as zero-copy requests',
              self.zc_requests > 0, '%d requests' % self.zc_requests)
        print('%d messages, %d zero-copy requests' %
              (self.msgs, self.zc_requests), flush=True)
        time.sleep(2)
        return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(Node(sys.argv[1], sys.argv[2]).serve())
