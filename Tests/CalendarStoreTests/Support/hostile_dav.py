#!/usr/bin/env python3
"""A hostile WebDAV server for CalDAVClientTests: what Radicale will not do.

    python3 hostile_dav.py MODE PORT LOG

Listens on 127.0.0.1:PORT (standard library only) and answers every request
as MODE says:

  garbage        207 with a body that is not XML
  huge           207 with 100 MB of body streamed, no Content-Length
  huge-declared  207 with a Content-Length of 100 MB, streamed
  redirect-away  301 to http://127.0.0.2:PORT/same/path (127.0.0.2 also
                 listens, so a client that follows would be seen there)
  redirect-same  GET or PUT .../x.ics: 307 to y.ics on the same server;
                 .../y.ics answers 200 (GET) or 201 (PUT) with an ETag that
                 tells how many body bytes arrived
  outside        a multistatus naming the collection /NAME/ and one href
                 outside it, chosen by NAME (see OUTSIDE below)
  slow           reads the request and never answers
  401            401 with WWW-Authenticate: Basic
  hang-up        the first request of each method and path: the connection
                 is closed without an answer; later ones: GET 200 with a
                 calendar, PUT 201, PROPFIND and REPORT the multistatus of
                 "outside" for a member inside the collection
  no-parent      MKCALENDAR /P/cal/ answers 409 until MKCOL /P/ was made;
                 MKCOL /made/ answers 201, any other MKCOL 403

Each request is appended to LOG as one line: the address it arrived on, the
method, the path, and whether it carried an Authorization header.
The test stops the server by its process id.
"""
import http.server
import signal
import socketserver
import sys
import threading
import time

# The test runner's threads block SIGTERM, and a child inherits that mask:
# unblock it, so that the test's SIGTERM stops this server at once.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

MODE, PORT, LOG = sys.argv[1], int(sys.argv[2]), sys.argv[3]
LOG_LOCK = threading.Lock()
MADE = set()
HUNG_UP = set()

OUTSIDE = {
    "passwd": "/etc/passwd",
    "up": "../x.ics",
    "dots": "/dots/%2E%2E/%2e%2e/etc/passwd",
    "slash": "/slash/a%2Fb.ics",
    "other-host": "http://127.0.0.2:%d/other-host/x.ics" % PORT,
    "network": "//evil.example/network/x.ics",
    "good": "/good/x.ics",
}


def multistatus(collection, member, token=True):
    responses = ""
    for href in (collection, member):
        responses += ("<D:response><D:href>%s</D:href><D:propstat><D:prop>"
                      "<D:getetag>\"1\"</D:getetag><D:resourcetype/></D:prop>"
                      "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>" % href)
    sync = "<D:sync-token>http://example.com/sync/1</D:sync-token>" if token else ""
    return ('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">%s%s</D:multistatus>'
            % (responses, sync)).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def record(self):
        host = self.server.server_address[0]
        auth = "auth" if self.headers.get("Authorization") else "no-auth"
        with LOG_LOCK, open(LOG, "a") as f:
            f.write("%s %s %s %s\n" % (host, self.command, self.path, auth))

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream(self, declared):
        self.send_response(207)
        self.send_header("Content-Type", "application/xml")
        if declared:
            self.send_header("Content-Length", str(100 << 20))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        chunk = b"<!-- " + b"x" * (64 * 1024 - 9) + b" -->"
        try:
            self.wfile.write(b'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">')
            for _ in range((100 << 20) // len(chunk)):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def handle_any(self):
        self.record()
        body = self.read_body()
        if MODE == "garbage":
            self.answer(207, b"this is not XML at all <<< &&& >>>", [("Content-Type", "application/xml")])
        elif MODE in ("huge", "huge-declared"):
            self.stream(MODE == "huge-declared")
        elif MODE == "redirect-away":
            self.answer(301, b"moved", [("Location", "http://127.0.0.2:%d%s" % (PORT, self.path))])
        elif MODE == "redirect-same":
            if self.path.endswith("/x.ics"):
                self.answer(307, b"", [("Location", "y.ics")])
            elif self.command == "PUT":
                self.answer(201, b"", [("ETag", '"received-%d"' % len(body))])
            else:
                self.answer(200, b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
                            [("ETag", '"y"'), ("Content-Type", "text/calendar")])
        elif MODE == "outside":
            name = self.path.strip("/").split("/")[0]
            member = OUTSIDE.get(name, "/etc/passwd")
            self.answer(207, multistatus("/%s/" % name, member), [("Content-Type", "application/xml")])
        elif MODE == "hang-up":
            if (self.command, self.path) not in HUNG_UP:
                HUNG_UP.add((self.command, self.path))
                self.close_connection = True
                return
            if self.command == "GET":
                self.answer(200, b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
                            [("ETag", '"y"'), ("Content-Type", "text/calendar")])
            elif self.command == "PUT":
                self.answer(201, b"", [("ETag", '"put"')])
            else:
                name = self.path.strip("/").split("/")[0]
                self.answer(207, multistatus("/%s/" % name, "/%s/x.ics" % name), [("Content-Type", "application/xml")])
        elif MODE == "slow":
            time.sleep(3600)
        elif MODE == "401":
            self.answer(401, b"who are you?", [("WWW-Authenticate", 'Basic realm="hostile"')])
        elif MODE == "no-parent":
            parent = "/" + self.path.strip("/").split("/")[0] + "/"
            if self.command == "MKCOL":
                if self.path == "/made/":
                    MADE.add(self.path)
                    self.answer(201, b"")
                else:
                    self.answer(403, b"no folders here")
            elif self.command == "MKCALENDAR":
                self.answer(201 if parent in MADE else 409, b"")
            else:
                self.answer(404, b"")
        else:
            self.answer(500, b"unknown mode")

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_MKCOL = do_OPTIONS = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(host):
    server = Server((host, PORT), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()


if MODE == "redirect-away":
    try:
        serve("127.0.0.2")
    except OSError:
        pass
serve("127.0.0.1")
while True:
    time.sleep(3600)
