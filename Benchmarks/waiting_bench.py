#!/usr/bin/env python3
"""What a desk spends while it waits on a server that does not answer (issue 42, 1).

A server on 127.0.0.1 accepts every connection and never answers. `horari list
--calendar http://…/` waits for it until HORARI_CALDAV_TIMEOUT, and so does
`curl -m` (the reference: libcurl waiting in poll). Each child's CPU time
(user + system) comes from os.wait4; one desk alone, then twelve at once
(the machine's idleness is what they share), alternating with curl round by
round, medians over the rounds, the spread beside them.

Goal: under 0.1 s of CPU per 10 s of waiting, a desk alone or among twelve.
(Through swift-corelibs-foundation's URLSession, before: 3.4 s of CPU for
6 s of waiting; see Docs/CalDAV.md.)

Usage: waiting_bench.py --horari .build/release/horari [--seconds 5] [--rounds 3] [--desks 12]
Not part of `make test`.
"""
import argparse
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Conformance"))
from radicale_server import free_port  # noqa: E402


def silent_server():
    """A listening socket that accepts and never answers; its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    held = []

    def accept():
        while True:
            conn, _ = listener.accept()
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1]


def wait_all(args_list, env):
    """Starts every command at once, each with a cache folder of its own (desks on one cache take
    its lock in turn); each one's CPU seconds (user + system) and the wall time."""
    start = time.perf_counter()
    children = [subprocess.Popen(args, env=dict(env, XDG_CACHE_HOME="/tmp/horari-waiting-bench/%d" % i),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i, args in enumerate(args_list)]
    cpu = {}
    while len(cpu) < len(children):
        pid, _, usage = os.wait4(-1, 0)
        cpu[pid] = usage.ru_utime + usage.ru_stime
    return [cpu[c.pid] for c in children], time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--horari", required=True)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--desks", type=int, default=12)
    args = parser.parse_args()
    port = silent_server()
    url = "http://127.0.0.1:%d/gym/" % port
    env = dict(os.environ, HORARI_CALDAV_TIMEOUT=str(args.seconds))
    horari = [args.horari, "list", "--calendar", url]
    # What a desk costs that is not waiting (starting, the refusal): the same command on a closed port.
    refused = [args.horari, "list", "--calendar", "http://127.0.0.1:%d/gym/" % free_port()]  # bound, then let go: nobody listens
    curl = ["curl", "-s", "-m", str(args.seconds), url]
    figures = {}
    for _ in range(args.rounds):
        for name, command in (("horari", horari), ("curl", curl), ("refused", refused)):
            for desks in (1, args.desks):
                cpu, wall = wait_all([command] * desks, env)
                figures.setdefault((name, desks), []).append((statistics.median(cpu), max(cpu), wall))
    print("machine: %s, %d cores, %s" % (platform.node(), os.cpu_count(), time.strftime("%Y-%m-%d %H:%M")))
    print("waiting %.0f s on a server that never answers; %d rounds, medians (spread)\n" % (args.seconds, args.rounds))
    print("| who | desks at once | CPU a desk, median (spread) | most CPU of one desk | wall |")
    print("|---|---|---|---|---|")
    for desks in (1, args.desks):
        for name in ("horari", "refused", "curl"):
            rows = figures[(name, desks)]
            med = statistics.median(r[0] for r in rows)
            spread = "%.3f–%.3f" % (min(r[0] for r in rows), max(r[0] for r in rows))
            label = "horari, refused at once" if name == "refused" else name
            print("| %s | %d | %.3f s (%s) | %.3f s | %.1f s |" % (
                label, desks, med, spread, max(r[1] for r in rows), statistics.median(r[2] for r in rows)))
    print()
    for desks in (1, args.desks):
        waiting = statistics.median(r[0] for r in figures[("horari", desks)]) - statistics.median(r[0] for r in figures[("refused", desks)])
        print("horari, %d at once: %.3f s of CPU per 10 s waited beyond a refused run's (goal: under 0.1; curl's whole run: %.3f)" % (
            desks, waiting * 10 / args.seconds, statistics.median(r[0] for r in figures[("curl", desks)]) * 10 / args.seconds))


if __name__ == "__main__":
    main()
