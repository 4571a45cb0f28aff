#!/usr/bin/env python3
"""horari-web under load (issue 45): requests per second and latency for
`GET /` and `POST /book`, with wrk (Debian's), against one and two servers
on one PostgreSQL 15 (a durable cluster of the script's own, on 127.0.0.1,
stopped by its process ID).

    python3 Benchmarks/web_bench.py HORARI HORARI_WEB [--seconds 10] [--rounds 3] [--connections 8]

The book: a 1-year gym of 5,000 members (Benchmarks/make_gym.py) and a class
of its own, "open", that meets every day with room for everyone, so that
every POST of a run books a new (member, date) place — each one a committed
change of the book, not a refusal. Two servers are loaded by two wrk
processes at once, one each, and their figures summed (requests) or the
worse taken (p99). The rounds alternate one and two servers; medians with
min–max. On this 2-core machine the servers, PostgreSQL and wrk share the
cores: two servers cannot be twice one here, and the figures say what one
machine gives, not what N machines would.
"""
import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Conformance"))
from pg_cluster import Cluster  # noqa: E402

NOW = "2026-11-23T08:00:00Z"
BLOCK = 1000   # the (member, date) places one wrk thread may book in a run: its own, never another's
BOOK_LUA = """
local members, base = %(members)d, %(base)d
local n = 0
local next_thread = 0
function setup(thread) thread:set("first", base + next_thread * %(block)d); next_thread = next_thread + 1 end
request = function()
  local k = first + n
  n = n + 1
  local member = string.format("m%%04d", k %% members)
  local day = 23 + math.floor(k / members) %% 7
  local body = "member=" .. member .. "&class=open&date=2026-11-" .. day
  return wrk.format("POST", "/book", {["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
"""


class Web:
    def __init__(self, web, url):
        self.process = subprocess.Popen([web, "--calendar", url, "--port", "0", "--now", NOW],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if " on http://127.0.0.1:" not in line:
            self.stop()
            raise SystemExit(f"horari-web did not start: {line}")
        self.port = int(line.rsplit(":", 1)[1].strip("/\n"))

    def peak(self):
        """The server's peak resident memory so far, in MB (VmHWM)."""
        with open(f"/proc/{self.process.pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


def wrk(port, seconds, connections, script=None, path="/"):
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "30s"]
    if script:
        args += ["-s", script]
    return subprocess.Popen(args + [f"http://127.0.0.1:{port}{path}"], stdout=subprocess.PIPE, text=True)


def figures(output):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    units = {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}
    p = {}
    for name in ("50%", "99%"):
        value, unit = re.search(rf"{name}\s+([\d.]+)(us|ms|s|m)\b", output).groups()
        p[name] = float(value) * units[unit]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rps, p["50%"], p["99%"], int(bad.group(1)) if bad else 0


def load(servers, seconds, connections, scripts=None):
    runs = [wrk(s.port, seconds, connections, scripts[i] if scripts else None) for i, s in enumerate(servers)]
    texts = [r.communicate()[0] for r in runs]
    for text in texts:
        if "Requests/sec" not in text or " 0 requests in" in text:
            print(text)
    outs = [figures(text) for text in texts]
    return sum(o[0] for o in outs), max(o[1] for o in outs), max(o[2] for o in outs), sum(o[3] for o in outs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("horari")
    parser.add_argument("web")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--postgres-bin", default="/usr/lib/postgresql/15/bin")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="horari-web-bench-")
    gym = os.path.join(folder, "gym.ics")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "make_gym.py"), gym, "--years", "1", "--members", "5000"], check=True)
    members = 5000   # 7 days x 5,000 members: room for 35 blocks of places, 18 used by 3 rounds
    results = {}
    with Cluster(args.postgres_bin) as cluster:
        url = cluster.url()
        subprocess.run([args.horari, "import", gym, "--into", url], check=True, capture_output=True)
        subprocess.run([args.horari, "classes", "add", "open", "--title", "Open gym", "--days", "MO-SU", "--time", "20:00",
                        "--minutes", "60", "--capacity", "100000", "--from", "2026-11-01", "--calendar", url], check=True, capture_output=True)
        # Statistics for the planner after the bulk import, as a gym's database has them
        # (autovacuum's analyze came in the middle of the first rounds: round 1 ran at a third of round 2).
        subprocess.run([os.path.join(args.postgres_bin, "psql"), "-q", url, "-c", "VACUUM ANALYZE"], check=True, capture_output=True)
        # A warm-up, not counted: PostgreSQL's caches and the first connections of a pool.
        warm = Web(args.web, url)
        try:
            load([warm], 3, args.connections)
        finally:
            warm.stop()
        stream, peaks = 0, []
        for r in range(args.rounds):
            for count in (1, 2):
                servers = [Web(args.web, url) for _ in range(count)]
                try:
                    get = load(servers, args.seconds, args.connections)
                    scripts = []
                    for i in range(count):
                        script = os.path.join(folder, f"book-{r}-{count}-{i}.lua")
                        with open(script, "w") as f:
                            # Each wrk thread its own block of places: k -> (member k mod M, day k div M mod 7) is one-to-one below 7M.
                            f.write(BOOK_LUA % {"members": members, "block": BLOCK, "base": stream * 2 * BLOCK})
                            stream += 1
                        scripts.append(script)
                    post = load(servers, args.seconds, args.connections, scripts)
                    peaks.append(max(s.peak() for s in servers))
                finally:
                    for s in servers:
                        s.stop()
                results.setdefault(("GET /", count), []).append(get)
                results.setdefault(("POST /book", count), []).append(post)
                print(f"round {r + 1}, {count} server(s): GET / {get[0]:.0f}/s p99 {get[2]:.0f} ms; "
                      f"POST /book {post[0]:.1f}/s p99 {post[2]:.0f} ms ({post[3]} not 303)", flush=True)
    print(f"\npeak memory of a server (VmHWM) after its runs: median {statistics.median(peaks):.0f} MB ({min(peaks):.0f}–{max(peaks):.0f})")
    print(f"\n| request | servers | requests/s | p50 | p99 | not 303/200 |\n|---|---|---|---|---|---|")
    for (what, count), runs in sorted(results.items()):
        rps = [x[0] for x in runs]
        p50 = [x[1] for x in runs]
        p99 = [x[2] for x in runs]
        print(f"| `{what}` | {count} | {statistics.median(rps):.1f} ({min(rps):.1f}–{max(rps):.1f}) | "
              f"{statistics.median(p50):.0f} ms | {statistics.median(p99):.0f} ms ({min(p99):.0f}–{max(p99):.0f}) | {sum(x[3] for x in runs)} |")


if __name__ == "__main__":
    main()
