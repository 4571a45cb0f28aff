"""A real CalDAV server for the checks: Radicale, started from the virtual
environment's Python on 127.0.0.1 on a free port with a scratch storage
folder, and stopped by its process id. Also a small HTTP proxy in front of
it that counts what passes and can cut a request off, to play a server that
goes away in the middle of a command.

Also Xandikos, a second server, for xandikos_check.py.

Used by clients_check.py, caldav_check.py and xandikos_check.py."""
import http.client
import http.server
import os
import socket
import subprocess
import sys
import threading
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_for_port(server, name, log, seconds):
    """Waits till `server` (its .process, .port and .stop()) takes connections; stops it and raises if it ends or `seconds` pass first."""
    deadline = time.time() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
            return
        except OSError:
            if server.process.poll() is not None or time.time() > deadline:
                server.stop()
                raise RuntimeError("%s did not start; see %s" % (name, log))
            time.sleep(0.1)


class Radicale:
    """Radicale with no authentication check (any user and password log in)
    and each user's collections their own (`owner_only`)."""

    def __init__(self, work, python=None):
        self.port = free_port()
        folder = os.path.join(work, "radicale")
        os.makedirs(folder, exist_ok=True)
        config = os.path.join(folder, "config")
        with open(config, "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = none\n"
                    f"[rights]\ntype = owner_only\n[storage]\nfilesystem_folder = {folder}/collections\n"
                    f"[logging]\nlevel = warning\n")
        self.folder, self.config, self.python = folder, config, python or sys.executable
        self.log = open(os.path.join(folder, "log"), "w")
        self.base = "http://127.0.0.1:%d" % self.port
        self.storage = os.path.join(folder, "collections", "collection-root")
        self._start()

    def _start(self):
        self.process = subprocess.Popen([self.python, "-m", "radicale", "--config", self.config],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        wait_for_port(self, "Radicale", os.path.join(self.folder, "log"), 30)

    def _end(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def interrupt(self):
        """Stops the server by its process id and keeps what it stored: out of reach till resume()."""
        self._end()

    def resume(self):
        """Starts it again on the same port, with what it stored."""
        self._start()

    def stop(self):
        # Called as Radicale.stop(self) by Xandikos, which has a process and a log too.
        Radicale._end(self)
        self.log.close()


class Proxy:
    """An HTTP proxy to `target` (host, port) on a free port of 127.0.0.1.

    `statuses` counts each answer by (method, status). `cut` names a method
    whose next request is cut off: ("PUT", "before") closes the connection
    without passing the request on (the server went away); ("PUT", "after")
    passes it on and closes the connection without passing the answer back
    (the answer was lost); ("PUT", "down", k) lets k requests of the method
    through, then cuts the next off before it is passed on, and every
    request after it, until `up()` (the server gone for the rest of a
    command). `hold(method, n, seconds)` holds the next `n`
    requests of a method until all `n` have come (or `seconds` have passed),
    then lets them go on at once: writes that surely race, however slowly
    a loaded machine starts the processes that make them."""

    def __init__(self, target):
        self.target = target
        self.statuses = {}
        self.cut = None
        self.down = False
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        self.held = None
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                with proxy.lock:
                    cut = proxy.cut if proxy.cut and proxy.cut[0] == self.command else None
                    if cut and cut[1] == "down":
                        if cut[2] > 0:
                            proxy.cut = (cut[0], "down", cut[2] - 1)
                            cut = None
                        else:
                            proxy.down = True
                    if cut:
                        proxy.cut = None
                    if proxy.down:
                        cut = (self.command, "before")
                with proxy.lock:
                    held = proxy.held
                    if held and held["method"] == self.command and held["count"] < held["n"]:
                        held["count"] += 1
                        proxy.arrived.notify_all()
                        while held["count"] < held["n"] and time.monotonic() < held["until"]:
                            proxy.arrived.wait(held["until"] - time.monotonic())
                if cut and cut[1] == "before":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                upstream = http.client.HTTPConnection(*proxy.target, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                upstream.close()
                with proxy.lock:
                    key = (self.command, answer.status)
                    proxy.statuses[key] = proxy.statuses.get(key, 0) + 1
                if cut:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.send_response_only(answer.status, answer.reason)
                for k, v in answer.getheaders():
                    if k.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def __getattr__(self, name):
                if name.startswith("do_"):
                    return self.handle_one
                raise AttributeError(name)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def up(self):
        with self.lock:
            self.down = False
            self.cut = None

    def hold(self, method, n, seconds):
        with self.lock:
            self.held = {"method": method, "n": n, "count": 0, "until": time.monotonic() + seconds}

    def count(self, method, status):
        with self.lock:
            return self.statuses.get((method, status), 0)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Xandikos:
    """Xandikos (a second CalDAV server from PyPI, git-backed), with no
    authentication (it takes any user and password) on 127.0.0.1 on a free
    port, serving a scratch folder; `--defaults` makes the principal
    /gym/ and its calendar home /gym/calendars/. Stopped by its process id."""

    def __init__(self, work, python=None):
        self.port = free_port()
        folder = os.path.join(work, "xandikos")
        os.makedirs(folder, exist_ok=True)
        self.log = open(os.path.join(folder, "log"), "w")
        self.process = subprocess.Popen([python or sys.executable, "-m", "xandikos", "serve", "-d", os.path.join(folder, "data"),
                                         "--defaults", "-l", "127.0.0.1", "-p", str(self.port), "--current-user-principal", "/gym/",
                                         "--no-detect-systemd"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.base = "http://127.0.0.1:%d" % self.port
        wait_for_port(self, "Xandikos", os.path.join(folder, "log"), 60)

    def stop(self):
        Radicale.stop(self)
