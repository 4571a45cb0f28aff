#!/usr/bin/env python3
"""A hundred bookings at once on PostgreSQL, beside the same on SQLite.

    python3 Benchmarks/postgres_bench.py --desk .build/release/_BookDesk [--n 100] [--rounds 5] [--scope occurrence|whole]

One `_BookDesk DB bench N` process books N members into one class at once
(N tasks, each a `BookStore.changeOccurrenceTelling` that reads the
occurrence's records, as `horari book` does, and commits its roster and the
invitation it owes; `--scope whole`: `changeTelling`, the whole book read),
then cancels them all at once: every change races the
others for the store's revision and runs again when it loses, which is what
a store's compare-and-set costs under load. It prints the whole burst's
time (so bookings per second) and each change's p50 and p99.

PostgreSQL 15 runs from Debian's binaries (--pg-bin), in a cluster made in a
temporary folder, on 127.0.0.1 at a free port, stopped by its process ID at
the end (as root, as the `postgres` user through setpriv, as the tests do).
The stores alternate within each round; each figure is the median of the
rounds with its spread (min-max), and the desk process's peak resident
memory (os.wait4).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Conformance"))
from pg_cluster import Cluster  # noqa: E402


def run_desk(desk, db, *args):
    """What the desk printed, and its peak RSS in MB (os.wait4)."""
    p = subprocess.Popen([desk, db, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"_BookDesk {db} {' '.join(args)} failed ({p.returncode}): {err.strip()}")
    return out.strip(), usage.ru_maxrss / 1024


def spread(values, scale=1000, unit="ms"):
    return f"{statistics.median(values) * scale:.0f} {unit} ({min(values) * scale:.0f}–{max(values) * scale:.0f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--desk", required=True)
    ap.add_argument("--pg-bin", default="/usr/lib/postgresql/15/bin")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scope", choices=["occurrence", "whole"], default="occurrence")
    a = ap.parse_args()
    desk = os.path.abspath(a.desk)
    cluster = Cluster(a.pg_bin)
    work = tempfile.mkdtemp(prefix="horari-pg-bench-lite-")
    try:
        stores = {"SQLite": os.path.join(work, "gym.sqlite"), "PostgreSQL": cluster.url()}
        for db in stores.values():
            run_desk(desk, db, "seed", "10")
        results = {name: [] for name in stores}
        peaks = {name: 0.0 for name in stores}
        for r in range(a.rounds):
            order = list(stores.items()) if r % 2 == 0 else list(reversed(stores.items()))
            for name, db in order:
                out, peak = run_desk(desk, db, "bench", str(a.n), a.scope)
                row = json.loads(out)
                if row["places_held_after"] != 0:
                    raise SystemExit(f"{name}: {row['places_held_after']} places held after every cancellation")
                results[name].append(row)
                peaks[name] = max(peaks[name], peak)
        print(f"{a.n} bookings at once, then {a.n} cancellations, in one desk process, each reading "
              f"{'the whole book' if a.scope == 'whole' else 'the occurrence'}; medians of {a.rounds} rounds (min–max)")
        print()
        print("| store | bookings/s | booking p50 | booking p99 | cancellation p50 | cancellation p99 | peak RSS |")
        print("|---|---|---|---|---|---|---|")
        for name, rows in results.items():
            rate = [a.n / row["book_s"] for row in rows]
            print(f"| {name} | {statistics.median(rate):.0f} ({min(rate):.0f}–{max(rate):.0f}) "
                  f"| {spread([x['book_p50_s'] for x in rows])} | {spread([x['book_p99_s'] for x in rows])} "
                  f"| {spread([x['cancel_p50_s'] for x in rows])} | {spread([x['cancel_p99_s'] for x in rows])} | {peaks[name]:.0f} MB |")
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
