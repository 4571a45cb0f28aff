#!/bin/sh
# Twenty `horari book` processes started at once on a 5-place class must leave
# exactly 5 bookings, a waitlist of 15 (positions 1–15, each once) and a
# calendar file that still parses — ours strictly, and icalendar's when a
# Python with icalendar is given. The file's lock and atomic save are what
# make it so; without them processes would overwrite each other's bookings.
#
#   sh Conformance/booking_race.sh .build/release/horari [.venv-conformance/bin/python]
set -eu
HORARI=${1:?usage: booking_race.sh PATH/TO/horari [PYTHON-WITH-ICALENDAR]}
PY=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cal="$tmp/race.ics"
at="--calendar $cal --time-zone Europe/Madrid --now 2030-01-01T12:00"
# shellcheck disable=SC2086
"$HORARI" classes add hiit --title HIIT --days SA --time 10:00 --minutes 45 --capacity 5 --from 2030-01-05 $at >/dev/null
for i in $(seq 1 20); do
  # shellcheck disable=SC2086
  "$HORARI" members add "m$i" --name "Member $i" $at >/dev/null
done
pids=""
for i in $(seq 1 20); do
  # shellcheck disable=SC2086
  "$HORARI" book --member "m$i" --class hiit --date 2030-01-05 --waitlist $at >"$tmp/out.$i" 2>&1 &
  pids="$pids $!"
done
status=0
for p in $pids; do wait "$p" || status=1; done
[ $status = 0 ] || { echo "FAIL: a booking process failed:"; cat "$tmp"/out.*; exit 1; }

# The roster is the occurrence's instance: its members are ATTENDEEs, a place
# held ACCEPTED, a place waited for TENTATIVE (lines unfolded first).
unfolded=$(tr -d '\r' < "$cal" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n //g')
booked=$(printf '%s\n' "$unfolded" | grep -c '^ATTENDEE;.*PARTSTAT=ACCEPTED' || true)
waiting=$(printf '%s\n' "$unfolded" | grep -c '^ATTENDEE;.*PARTSTAT=TENTATIVE' || true)
told_booked=$(cat "$tmp"/out.* | grep -c '^Booked' || true)
positions=$(cat "$tmp"/out.* | sed -n 's/.* is number \([0-9]*\) on the waitlist\./\1/p' | sort -n | tr '\n' ' ')
expected=$(seq 1 15 | tr '\n' ' ')
echo "booked $booked (told $told_booked), waiting $waiting, waitlist positions told: $positions"
[ "$booked" = 5 ] && [ "$told_booked" = 5 ] || { echo "FAIL: expected 5 bookings"; exit 1; }
[ "$waiting" = 15 ] || { echo "FAIL: expected a waitlist of 15"; exit 1; }
[ "$positions" = "$expected" ] || { echo "FAIL: waitlist positions should be 1–15, each once"; exit 1; }
# shellcheck disable=SC2086
"$HORARI" classes timetable --week 2030-01-05 $at | grep -q 'full, 15 waiting' || { echo "FAIL: the book does not read back full with 15 waiting"; exit 1; }
"$HORARI" validate "$cal" --strict >/dev/null || { echo "FAIL: horari validate --strict"; exit 1; }
if [ -n "$PY" ]; then
  "$PY" -c 'import sys, icalendar; icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())' "$cal" ||
    { echo "FAIL: icalendar cannot parse the file"; exit 1; }
fi
ls "$tmp" | grep -q '\.tmp$' && { echo "FAIL: a temporary file was left behind"; exit 1; }
echo "booking race: ok (20 processes, 5 places)"
