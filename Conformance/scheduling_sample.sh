#!/bin/sh
# Builds a small gym's scheduling book through the CLI into a calendar file,
# for the clients check (khal and Radicale take each export of it):
#
#   sh Conformance/scheduling_sample.sh .build/release/horari OUT.ics
set -eu
HORARI=${1:?usage: scheduling_sample.sh PATH/TO/horari OUT.ics}
OUT=${2:?usage: scheduling_sample.sh PATH/TO/horari OUT.ics}
rm -f "$OUT"
at="--calendar $OUT --time-zone Europe/Madrid --now 2026-11-02T09:00"
run() {
  # shellcheck disable=SC2086
  "$HORARI" "$@" $at >/dev/null
}
run coaches add marc --name 'Marc Soler' --email marc@gym.example --hours 'MO-FR 09:00-13:00 16:00-20:00' --buffer 10
run coaches add laia --name 'Laia Vidal' --email laia@gym.example --hours 'MO,WE,FR 08:00-14:00'
run clients add anna --coach marc --name 'Anna Puig' --email anna@example.com
run clients add pau --coach marc --name 'Pau Ferrer, Jr.'
run clients add joan --coach laia --name 'Joan Serra' --email joan@example.com
run sessions add --coach marc --client anna --start '2026-11-26 18:00' --minutes 60 --location 'Gimnàs Sants' --notes 'Strength block, week 3.' --id s-anna-1
run sessions add --coach marc --client pau --start '2026-11-27 09:00' --minutes 45 --id s-pau-1
run sessions add --coach laia --client joan --start '2026-11-25 08:30' --minutes 60 --id s-joan-1
run sessions cancel s-pau-1 --coach marc
run classes add yoga --title Yoga --days MO,WE --time 18:30 --minutes 60 --capacity 12 --location 'Sala 2' --instructor 'Laia Vidal' --color teal --from 2026-09-07
run classes add spin --title Spinning --days FR --time 07:00 --minutes 45 --capacity 2 --color darkorange --from 2026-09-04 --until 2026-12-31
run classes cancel yoga --date 2026-12-07
for m in marta oriol nuria; do run members add "$m" --name "Member $m" ; done
run book --member marta --class yoga --date 2026-11-23
run book --member marta --class spin --date 2026-11-27
run book --member oriol --class spin --date 2026-11-27
run book --member nuria --class spin --date 2026-11-27 --waitlist
