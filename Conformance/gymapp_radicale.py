"""Issue 29, 1: the GymApp example (Examples/GymApp) run against a real
CalDAV server, Radicale, through the library's API alone (SchedulingStore on
a CalendarStore collection): the app's own bookings go up, two members book
from phones of their own, a third gives up a place from his, and what the
app prints is then checked against what the server holds, read with the
`caldav` package (a client nobody here wrote).

    python Conformance/gymapp_radicale.py PATH/TO/GymApp

Radicale runs from this Python's environment on 127.0.0.1, on a free port,
in a scratch folder, and is stopped by its process id."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radicale_server import Radicale  # noqa: E402


def main():
    app = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory() as work:
        server = Radicale(work)
        try:
            url = server.base + "/gym/gimnas/"
            env = dict(os.environ, GYMAPP_CALDAV_URL=url, HORARI_CALDAV_USER="gym", HORARI_CALDAV_PASSWORD="x",
                       XDG_CACHE_HOME=os.path.join(work, "cache"), TZ="Asia/Tokyo")
            run = subprocess.run([app], env=env, capture_output=True, text=True, timeout=300)
            if run.returncode != 0:
                failures.append("GymApp exited %d: %s" % (run.returncode, run.stderr.strip()[-2000:]))
            out = run.stdout.split("\nOn " + url, 1)
            if len(out) != 2:
                failures.append("GymApp printed no server part:\n" + run.stdout[-2000:])
            else:
                part = out[1]
                print("On " + url + part, end="")
                for line in ["marta booked Spinning on Fri 27 from her phone", "nuria booked Spinning on Fri 27 from her phone",
                             "quim gave up Reformer Pilates from his phone; nuria moved up",
                             "Fri 27  07:00  Spinning  (booked)", "Thu 26  19:00  Reformer Pilates  (booked)"]:
                    if line not in part:
                        failures.append("missing from GymApp's output: %r" % line)
                failures += check_server(url)
        finally:
            server.stop()
    for f in failures:
        print("FAIL:", f)
    print("gymapp_radicale: %s" % ("ok" if not failures else "%d failure(s)" % len(failures)))
    sys.exit(1 if failures else 0)


def check_server(url):
    """What the server holds, read with the caldav package: Thursday's Pilates
    has aina, marta and nuria as ACCEPTED attendees (oriol and quim gave their
    places up), Friday's Spinning has marta, nuria and quim (his standing booking)."""
    import caldav
    client = caldav.DAVClient(url, username="gym", password="x")
    calendar = caldav.Calendar(client=client, url=url)
    attendees = {}
    for resource in calendar.objects():
        resource.load()
        for component in resource.icalendar_instance.walk("VEVENT"):
            rid = component.get("RECURRENCE-ID")
            if rid is None:
                continue
            people = component.get("ATTENDEE") or []
            if not isinstance(people, list):
                people = [people]
            accepted = sorted(p.params.get("X-HORARI-MEMBER") for p in people if p.params.get("PARTSTAT") == "ACCEPTED")
            attendees[(str(component.get("UID")), rid.dt.date().isoformat())] = accepted
    failures = []
    want = {("pilates", "2026-11-26"): ["aina", "marta", "nuria"], ("spin", "2026-11-27"): ["marta", "nuria", "quim"], ("spin", "2026-12-18"): ["quim"]}
    for key, members in want.items():
        if attendees.get(key) != members:
            failures.append("the server's roster of %s on %s is %s, not %s" % (key[0], key[1], attendees.get(key), members))
    return failures


if __name__ == "__main__":
    main()
