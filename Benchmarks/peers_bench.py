#!/usr/bin/env python3
"""The Python peers on the benchmark's files, alone in a process each.

    python peers_bench.py parse FILE          -> "SECONDS PEAK_BYTES"   (icalendar)
    python peers_bench.py expand FILE Y1 Y2   -> "SECONDS OCCURRENCES"  (recurring-ical-events)

`parse` times icalendar's Calendar.from_ical on the file's bytes; the peak is
the kernel's VmHWM for this process (as for HorariBench and libical_ref).
`expand` parses first, untimed, then times recurring-ical-events listing every
occurrence from 1 January of Y1 to 1 January of Y2. Run by HorariBench with
the peers' virtual environment (`make corpus` creates it).
"""
import sys
import time


def peak_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return -1


def main():
    import icalendar

    mode, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        data = f.read()
    if mode == "parse":
        t = time.perf_counter()
        calendar = icalendar.Calendar.from_ical(data)
        t = time.perf_counter() - t
        print(f"{t:.6f} {peak_bytes()}")
        del calendar
    elif mode == "expand":
        import datetime
        import recurring_ical_events

        first, last = int(sys.argv[3]), int(sys.argv[4])
        calendar = icalendar.Calendar.from_ical(data)
        t = time.perf_counter()
        n = sum(1 for _ in recurring_ical_events.of(calendar).between(datetime.date(first, 1, 1), datetime.date(last, 1, 1)))
        t = time.perf_counter() - t
        print(f"{t:.6f} {n}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
