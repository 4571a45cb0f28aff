#!/usr/bin/env python3
"""A CalDAV server that falls short, made of a real one: an HTTP proxy on
127.0.0.1 in front of Radicale that answers what a busy or broken server
answers, for Conformance/caldav_check.py (standard library only).

Modes:
  faults       a share of the writes (PUT, DELETE) is answered 423 Locked,
               503 Service Unavailable (with Retry-After: 1 every other
               time) or 500; a 500 is answered *after* the write was passed
               on and made, as a server that fails after storing does.
               Which writes, from a seeded random sequence (--seed).
  lost-update  the second PUT to a resource with the same If-Match as a
               first one that the server took is passed on without its
               If-Match, so both are taken and the second overwrites the
               first (a lost update: two writers who read one version);
               where the first was refused (412), so is the second;
               the first one's answer is held until the second is made
               (at most --hold seconds, 30 by default: on a loaded 2-core
               machine the second may come seconds later), so that whoever
               wrote first can find out by asking again. (A lost update
               made after the first writer has confirmed its write is one
               no client can see at once; no server that honours If-Match
               makes one. Xandikos does: late-lost-update plays it.)
  late-lost-update
               the first PUT with an If-Match that the server takes is
               passed on and answered as usual; the proxy kept the text it
               replaced (a GET before passing it on). After the next
               REPORT (the writer's confirmation, its first look) has been
               answered, the proxy writes that old text back without an
               If-Match: a second writer's write that checked the old tag
               and landed late, as Xandikos lets one land. Later REPORTs
               wait till it is written (it lands within the writer's pause
               before its second look). Once per proxy.

Usage: fault_proxy.py TARGET_PORT PORT_FILE MODE [--share 0.3] [--seed 29] [--hold 30]
It listens on a free port, writes it to PORT_FILE, and serves until it is
sent SIGTERM. It logs one line per fault to standard error, and on exit
prints counts as JSON on standard output.
"""
import argparse
import http.client
import http.server
import json
import random
import signal
import socketserver
import sys
import threading

HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "content-length"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("target_port", type=int)
    parser.add_argument("port_file")
    parser.add_argument("mode", choices=["faults", "lost-update", "late-lost-update"])
    parser.add_argument("--share", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--hold", type=float, default=30.0)
    args = parser.parse_args()

    lock = threading.Lock()
    rng = random.Random(args.seed)
    counts = {"writes": 0, "423": 0, "503": 0, "500-after-write": 0, "doubled": 0, "passed": 0, "late": 0}
    late = {"old": None}  # late-lost-update: (path, text) to write back after the next REPORT, once
    late_written = threading.Event()  # … and written: later REPORTs wait for it (it lands within the writer's pause)
    firsts = {}  # (path, If-Match) -> First: the first PUT with them, and what became of it

    class First:
        """The first PUT to a resource with one If-Match."""

        def __init__(self):
            self.answered = threading.Event()  # the server answered it
            self.taken = False  # with 2xx: the server took it
            self.doubled = threading.Event()  # a second PUT with the same If-Match was taken over it
            self.used = False  # a second one has been passed (only one is)

    def forward(method, path, headers, body):
        conn = http.client.HTTPConnection("127.0.0.1", args.target_port, timeout=120)
        conn.request(method, path, body=body, headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        conn.close()
        return reply.status, [(k, v) for k, v in reply.getheaders() if k.lower() not in HOP], data

    def fault():
        """The fault for the next write, or None, from the seeded sequence."""
        with lock:
            counts["writes"] += 1
            if rng.random() >= args.share:
                return None
            return rng.choice(["423", "503", "500"])

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def reply(self, status, headers, body):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            method, path = self.command, self.path
            if method in ("PUT", "DELETE") and args.mode == "faults":
                kind = fault()
                if kind == "423":
                    counts["423"] += 1
                    return self.reply(423, [("Content-Type", "text/plain")], b"Locked")
                if kind == "503":
                    counts["503"] += 1
                    after = [("Retry-After", "1")] if counts["503"] % 2 else []
                    return self.reply(503, after + [("Content-Type", "text/plain")], b"Busy")
                if kind == "500":
                    forward(method, path, headers, body)
                    counts["500-after-write"] += 1
                    return self.reply(500, [("Content-Type", "text/plain")], b"Internal Server Error")
            if method == "PUT" and args.mode == "late-lost-update" and "If-Match" in headers and counts["late"] == 0:
                with lock:
                    mine = late["old"] is None
                    if mine:
                        late["old"] = "taking"
                if mine:
                    status, _, old = forward("GET", path, {k: v for k, v in headers.items() if k.lower() == "authorization"}, None)
                    answer = forward(method, path, headers, body)
                    with lock:
                        late["old"] = (path, old) if status == 200 and 200 <= answer[0] < 300 else None
                    return self.reply(*answer)
            if method == "REPORT" and args.mode == "late-lost-update":
                if late["old"] == "done":
                    late_written.wait(30)
                answer = forward(method, path, headers, body)
                with lock:
                    pending = late["old"] if isinstance(late["old"], tuple) else None
                    if pending:
                        late["old"] = "done"
                        counts["late"] += 1
                if pending:
                    # Answered first, then the stale write lands: after the writer's first look.
                    self.reply(*answer)
                    self.wfile.flush()
                    write = {k: v for k, v in headers.items() if k.lower() == "authorization"}
                    write["Content-Type"] = "text/calendar; charset=utf-8"
                    status, _, _ = forward("PUT", pending[0], write, pending[1])
                    late_written.set()
                    sys.stderr.write("late: the old text of %s written back after a REPORT: %d\n" % (pending[0], status))
                    return
                return self.reply(*answer)
            if method == "PUT" and args.mode == "lost-update" and "If-Match" in headers:
                key = (path, headers["If-Match"])
                with lock:
                    first = firsts.get(key)
                    if first is None:
                        first = firsts[key] = First()
                        mine = True
                    else:
                        mine = False
                if mine:
                    status, out, data = forward(method, path, headers, body)
                    first.taken = 200 <= status < 300
                    first.answered.set()
                    if first.taken and not first.doubled.wait(args.hold):
                        with lock:
                            first.used = True  # answered now: a later second is refused, as it should be
                    return self.reply(status, out, data)
                # A second PUT with the same If-Match: a server that loses
                # updates takes it only where it took the first one (both
                # read the same version). Where the first was refused (412:
                # that version is gone), so is this one, as any server does;
                # taking it would lose a write made and confirmed since.
                first.answered.wait(args.hold)
                with lock:
                    double = first.taken and not first.used
                    first.used = first.used or double
                if double:
                    del headers["If-Match"]
                    status, out, data = forward(method, path, headers, body)
                    counts["doubled"] += 1
                    sys.stderr.write("doubled: a second PUT %s with If-Match %s passed without it: %d\n" % (path, key[1], status))
                    first.doubled.set()
                    return self.reply(status, out, data)
            counts["passed"] += 1
            return self.reply(*forward(method, path, headers, body))

        def __getattr__(self, name):
            if name.startswith("do_"):
                return self.handle_any
            raise AttributeError(name)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
