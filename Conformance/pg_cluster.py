"""A PostgreSQL 15 server of a script's own, for the conformance checks and
the benchmarks: a cluster made by initdb in a temporary folder, started on
127.0.0.1 at a free port, stopped by its process ID, its folder removed.
As root (CI) the cluster belongs to the `postgres` user Debian's package
makes, and its programs run as that user through setpriv, which executes
them in place: the process ID kept is the server's own. The tests' Swift
twin is Sources/_CalendarTestSupport/PostgresCluster.swift.

    with Cluster("/usr/lib/postgresql/15/bin") as cluster:
        print(cluster.url())
"""
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, bindir, durable=True):
        """durable=False turns fsync off, for checks whose server is never the one killed."""
        self.durable = durable
        self.folder = tempfile.mkdtemp(prefix="horari-pg-")
        try:
            self.start(bindir)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    def start(self, bindir):
        self.server = None
        self.port = free_port()
        self.owner = None
        if os.getuid() == 0:
            entry = pwd.getpwnam("postgres")
            self.owner = (entry.pw_uid, entry.pw_gid)
            os.chown(self.folder, *self.owner)
        data = os.path.join(self.folder, "data")
        subprocess.run(self.cmd(os.path.join(bindir, "initdb"), "-D", data, "-U", "horari", "--auth=trust", "-E", "UTF8",
                                "--no-sync", "--no-instructions"), check=True, capture_output=True)
        self.log = open(os.path.join(self.folder, "server.log"), "w")
        # Durable as shipped (fsync on) unless asked: a benchmark's figures are a real server's.
        settings = [] if self.durable else ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        self.server = subprocess.Popen(self.cmd(os.path.join(bindir, "postgres"), "-D", data, "-h", "127.0.0.1", "-p", str(self.port),
                                                "-k", self.folder, "-c", "max_connections=300", *settings), stdout=self.log, stderr=self.log)
        for _ in range(600):
            ready = subprocess.run([os.path.join(bindir, "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"])
            if ready.returncode == 0:
                return
            if self.server.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise SystemExit("PostgreSQL did not start")

    def cmd(self, program, *args):
        if self.owner:
            return ["setpriv", f"--reuid={self.owner[0]}", f"--regid={self.owner[1]}", "--clear-groups", program, *args]
        return [program, *args]

    def url(self):
        return f"postgres://horari@127.0.0.1:{self.port}/postgres"

    def stop(self):
        if self.server is not None and self.server.poll() is None:
            os.kill(self.server.pid, signal.SIGINT)
            try:
                self.server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.server.pid, signal.SIGKILL)
                self.server.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
