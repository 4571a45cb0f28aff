#!/bin/sh
# Builds the sample gym calendar, Examples/Samples/gym.ics, through the horari
# CLI itself: a small gym in Barcelona in November 2026 with weekly classes
# (one cancelled date, one moved, one full with a waitlist), two coaches with
# their clients and sessions, and a few events and tasks in their colours.
# `horari` embeds the result at build time (Plugins/EmbedSample).
#
#   sh Examples/Samples/make_gym.sh .build/debug/horari Examples/Samples/gym.ics
set -eu
HORARI=${1:?usage: make_gym.sh PATH/TO/horari OUT.ics}
OUT=${2:?usage: make_gym.sh PATH/TO/horari OUT.ics}
# The calendar's own header: its name, its zone, the month the sample is
# written for (`horari` moves it to the current month by whole weeks), and the
# domain of its UIDs (`yoga@gym.example`; a book started from nothing draws a
# random one, Docs/SchedulingICalendar.md "One booking, one UID").
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//Sample gym calendar//EN\r\nX-WR-CALNAME:Gimnàs Sants\r\nX-WR-TIMEZONE:Europe/Madrid\r\nX-HORARI-SAMPLE-MONTH:2026-11\r\nX-HORARI-UID-DOMAIN:gym.example\r\nEND:VCALENDAR\r\n' > "$OUT"
at="--calendar $OUT --time-zone Europe/Madrid --now 2026-11-01T09:00"
run() {
  # shellcheck disable=SC2086
  "$HORARI" "$@" $at >/dev/null
}
run coaches add marc --name 'Marc Soler' --email marc@gym.example --hours 'MO-FR 09:00-13:00 16:00-20:00' --buffer 10
run coaches add laia --name 'Laia Vidal' --email laia@gym.example --hours 'MO,WE,FR 08:00-14:00'
run clients add anna --coach marc --name 'Anna Puig' --email anna@example.com
run clients add pau --coach marc --name 'Pau Ferrer'
run clients add joan --coach laia --name 'Joan Serra' --email joan@example.com
run classes add yoga --title Yoga --days MO,WE --time 18:30 --minutes 60 --capacity 12 --location 'Sala 2' --instructor 'Laia Vidal' --color teal --from 2026-09-07
run classes add pilates --title 'Reformer Pilates' --days TH --time 19:00 --minutes 50 --capacity 4 --location 'Sala 1' --instructor 'Marc Soler' --color mediumpurple --from 2026-09-03
run classes add spin --title Spinning --days FR --time 07:00 --minutes 45 --capacity 10 --color darkorange --from 2026-09-04
run classes cancel yoga --date 2026-11-11
run classes move yoga --date 2026-11-25 --start '2026-11-25 19:30'
for m in marta:'Marta Roig' oriol:'Oriol Camps' nuria:'Núria Vila' pol:'Pol Riera' aina:'Aina Soler' quim:'Quim Puig'; do
  run members add "${m%%:*}" --name "${m#*:}"
done
for m in marta oriol nuria; do run book --member "$m" --class yoga --date 2026-11-23; done
run book --member marta --class yoga --date 2026-11-25
for m in marta oriol nuria pol; do run book --member "$m" --class pilates --date 2026-11-26; done
run book --member aina --class pilates --date 2026-11-26 --waitlist
for m in oriol pol aina; do run book --member "$m" --class spin --date 2026-11-27; done
run sessions add --coach marc --client anna --start '2026-11-12 18:00' --minutes 60 --location 'Gimnàs Sants' --id s-anna-1112
run sessions add --coach marc --client anna --start '2026-11-26 17:00' --minutes 60 --location 'Gimnàs Sants' --notes 'Strength block, week 3. Bring a towel.' --id s-anna-1126
run sessions add --coach marc --client pau --start '2026-11-24 09:00' --minutes 45 --id s-pau-1124
run sessions add --coach laia --client joan --start '2026-11-18 08:30' --minutes 60 --id s-joan-1118
run sessions add --coach laia --client joan --start '2026-11-30 08:30' --minutes 60 --id s-joan-1130
# Marked once it has taken place (a session is completed only after its start).
"$HORARI" sessions mark s-anna-1112 --coach marc --status completed --calendar "$OUT" --time-zone Europe/Madrid --now 2026-11-12T19:00 >/dev/null
run add 'Staff meeting' --start '2026-11-24 13:00' --minutes 45 --color slateblue --location 'Office' --id staff-meeting
run add 'Boiler service' --start '2026-11-25 08:00' --end '2026-11-25 10:00' --color gray --notes 'The changing rooms have no hot water until 10:00.' --id boiler-service
run add 'Open day' --start 2026-11-28 --color gold --notes 'Free classes for everyone; bring a friend.' --id open-day
run add 'Renew the first-aid kit' --task --due '2026-11-17 12:00' --color seagreen --id first-aid-kit
run add 'Order new yoga mats' --task --due '2026-11-27 20:00' --color orchid --id order-mats
