#!/bin/sh
# horari as a new user meets it when things go wrong: a wrong date, a missing
# file, a read-only calendar, a full disk (a 16 KiB tmpfs when this machine
# lets us mount one, and a file-size limit always). Each must give a clear
# message on standard error, the documented exit code, and leave the calendar
# file byte for byte as it was.
#
#   sh Conformance/cli_failures.sh .build/release/horari
set -u
HORARI=$(cd "$(dirname "${1:?usage: cli_failures.sh PATH/TO/horari}")" && pwd)/$(basename "$1")
WORK=$(mktemp -d)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
trap 'umount "$WORK/tiny" 2>/dev/null; chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
failures=0

# expect NAME CODE 'message part' FILE -- horari arguments…
expect() {
  name=$1 code=$2 message=$3 file=$4
  shift 5
  before=$(cksum < "$file")
  "$@" >"$WORK/out" 2>"$WORK/err"
  status=$?
  after=$(cksum < "$file")
  if [ "$status" -ne "$code" ] || ! grep -qF -- "$message" "$WORK/err" || [ "$before" != "$after" ] || [ -s "$WORK/out" ]; then
    echo "FAIL $name: exit $status (want $code), file $( [ "$before" = "$after" ] && echo unchanged || echo CHANGED )"
    sed 's/^/  stderr: /' "$WORK/err"; sed 's/^/  stdout: /' "$WORK/out"
    failures=$((failures + 1))
  else
    echo "ok   $name: $(head -n 1 "$WORK/err")"
  fi
}

# holds NAME CODE 'text in its output' -- horari arguments…: a promise kept
# where calendars meet (issue 28), said in the output with the exit code.
holds() {
  name=$1 code=$2 message=$3
  shift 4
  "$@" >"$WORK/out" 2>"$WORK/err"
  status=$?
  if [ "$status" -ne "$code" ] || ! cat "$WORK/out" "$WORK/err" | grep -qF -- "$message"; then
    echo "FAIL $name: exit $status (want $code), no ‘$message’"
    sed 's/^/  stderr: /' "$WORK/err"; sed 's/^/  stdout: /' "$WORK/out"
    failures=$((failures + 1))
  else
    echo "ok   $name: $(grep -hF -- "$message" "$WORK/out" "$WORK/err" | head -n 1)"
  fi
}

"$HORARI" sample --write "$WORK/gym.ics" --today 2026-11-22 >/dev/null
add="add Lunch --start 2026-11-24T14:00 --minutes 60"

expect "wrong date" 2 "2026-02-30 does not exist" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-02-30 14:00' --calendar "$WORK/gym.ics"
expect "wrong time" 2 "is not a time of day" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-11-24 25:00' --calendar "$WORK/gym.ics"
expect "a two-digit year (issue 41, 6)" 2 "has a short year (‘26’); write the year in full: YYYY-MM (for example 2026-11)" "$WORK/gym.ics" -- \
  "$HORARI" month 26-11 --calendar "$WORK/gym.ics"
expect "a two-digit year in a date" 2 "is not YYYY-MM-DD" "$WORK/gym.ics" -- \
  "$HORARI" day 26-11-30 --calendar "$WORK/gym.ics"
holds "expand cut at its cap is said, exit 1 (issue 41, 8)" 1 "stopped after 100,000 occurrences, the most printed without --limit" -- \
  "$HORARI" expand --rrule FREQ=MINUTELY --dtstart 20260101T000000 --to 20270101T000000
holds "expand at exactly its cap is whole, exit 0" 0 "20260310T102300" -- \
  "$HORARI" expand --rrule 'FREQ=MINUTELY;COUNT=100000' --dtstart 20260101T000000
printf 'BEGIN:VEVENT\r\nUID:bare-1\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261130T100000Z\r\nDURATION:PT1H\r\nSUMMARY:Bare\r\nEND:VEVENT\r\n' > "$WORK/bare.ics"
holds "a bare event file imports whole, exit 0 (issue 41, 4)" 0 "added 1, updated 0, unchanged 0, kept newer 0, conflicts 0, not in the file 0" -- \
  "$HORARI" import "$WORK/bare.ics" --into "$WORK/bare-into.ics"
printf 'BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:x\r\nEND:VALARM\r\n' > "$WORK/alarm.ics"
expect "a bare VALARM holds nothing to import" 1 "holds nothing to import: its VALARM is outside any event or task" "$WORK/bare-into.ics" -- \
  "$HORARI" import "$WORK/alarm.ics" --into "$WORK/bare-into.ics"
expect "missing file" 1 "nowhere.ics" "$WORK/gym.ics" -- \
  "$HORARI" import "$WORK/nowhere.ics" --into "$WORK/gym.ics"
expect "a full class" 1 "is full" "$WORK/gym.ics" -- \
  "$HORARI" book --member quim --class pilates --date 2026-11-26 --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'

# The five apps' wrong inputs (issue 17): an event is not a task, a short ID
# that fits two items, an ID that fits none, a red session, another coach's client.
expect "done: an event" 1 "is an event (Staff meeting); only a task can be done" "$WORK/gym.ics" -- \
  "$HORARI" done staff-meeting --calendar "$WORK/gym.ics"
expect "done: an ambiguous ID" 1 "is the start of 2 items; type more of one of them" "$WORK/gym.ics" -- \
  "$HORARI" done o --calendar "$WORK/gym.ics"
expect "done: no such ID" 1 "there is no event or task with the ID ‘homework’" "$WORK/gym.ics" -- \
  "$HORARI" done homework --calendar "$WORK/gym.ics"
expect "done: a session" 1 "belongs to the gym's book" "$WORK/gym.ics" -- \
  "$HORARI" done s-pau-1124 --calendar "$WORK/gym.ics"
expect "session in red" 1 "is in the red family" "$WORK/gym.ics" -- \
  "$HORARI" sessions add --coach marc --client anna --start '2026-11-27 10:00' --color tomato --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
expect "history of another coach's client" 1 "coach ‘laia’ has no client ‘anna’" "$WORK/gym.ics" -- \
  "$HORARI" sessions history --client anna --coach laia --calendar "$WORK/gym.ics"
expect "history: --format xml" 2 "xml" "$WORK/gym.ics" -- \
  "$HORARI" sessions history --client anna --format xml --calendar "$WORK/gym.ics"
expect "list: a page token typed wrong" 2 "is not a token printed by horari list" "$WORK/gym.ics" -- \
  "$HORARI" list --page 'not-a-token!' --calendar "$WORK/gym.ics"

# Telling people and busy time (issue 32): the options a desk mistypes.
expect "--outbox with no --gym and no address kept, for a class" 1 "a class's messages come from the gym, and the calendar keeps no address for it; give --gym 'Name <address>'" "$WORK/gym.ics" -- \
  "$HORARI" book --member quim --class yoga --date 2026-11-30 --outbox "$WORK/outbox" --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
expect "--gym with no address" 2 "has no e-mail address a message can go to" "$WORK/gym.ics" -- \
  "$HORARI" book --member quim --class yoga --date 2026-11-30 --outbox "$WORK/outbox" --gym 'Gimnas' --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
expect "validate of a jCal file" 1 "is jCal (iCalendar as JSON, RFC 7265), which only \`horari import\` reads" "$WORK/gym.ics" -- \
  "$HORARI" validate "$ROOT/Examples/Samples/incoming/yoga.json"
expect "gym address with no e-mail" 2 "has no e-mail address a message can go to" "$WORK/gym.ics" -- \
  "$HORARI" gym address 'Gimnas Sants' --calendar "$WORK/gym.ics"
expect "gym address and --none" 2 "give an address or --none, not both" "$WORK/gym.ics" -- \
  "$HORARI" gym address 'Desk <desk@gym.example>' --none --calendar "$WORK/gym.ics"
expect "--busy, a calendar that is not there" 1 "--busy $WORK/marc-own.ics: there is no such calendar" "$WORK/gym.ics" -- \
  "$HORARI" sessions add --coach marc --client anna --start '2026-11-27 10:00' --busy "$WORK/marc-own.ics" --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'

expect "--email that is no address" 2 "--email: the member's e-mail address ‘not-an-address’ is not one address a message can go to; write it as name@example.com" "$WORK/gym.ics" -- \
  "$HORARI" members add eve --name Eve --email not-an-address --calendar "$WORK/gym.ics"
expect "--email with a second address" 2 "is not one address a message can go to; write it as name@example.com (the name goes in --name)" "$WORK/gym.ics" -- \
  "$HORARI" members edit marta --email 'marta@example.com>, eve@example.org' --calendar "$WORK/gym.ics"
expect "a closure of days gone by" 1 "2026-11-16 has passed (today is 2026-11-22 on the gym's clocks)" "$WORK/gym.ics" -- \
  "$HORARI" classes close 2026-11-16..2026-11-23 --reason Oops --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
expect "open, a range backwards" 2 "ends before it starts" "$WORK/gym.ics" -- \
  "$HORARI" classes open 2026-12-26..2026-12-24 --calendar "$WORK/gym.ics"
expect "opening hours that leave classes outside them (issue 41, 5)" 1 "these would fall outside the new hours: Reformer Pilates on Thursdays from 19:00 to 19:50; Spinning on Fridays from 07:00 to 07:45" "$WORK/gym.ics" -- \
  "$HORARI" classes hours --set 'MO-FR 08:00-19:00' --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=MINUTELY\r\nSUMMARY:Tick\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-P366D\r\nREPEAT:1000\r\nDURATION:PT1M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' > "$WORK/tick-alarm.ics"
expect "a minutely alarm repeated 1,000 times, ten years, under ulimit -v 1000000" 1 "more than 100,000 alarms go off between 2026-01-01 and 2035-12-31; ask for a shorter window" "$WORK/tick-alarm.ics" -- \
  sh -c 'ulimit -v 1000000; exec "$0" "$@"' "$HORARI" alarms --from 2026-01-01 --to 2035-12-31 --calendar "$WORK/tick-alarm.ics"
# Times the clocks skip or show twice, in three zones (a 30-minute change at Lord Howe).
expect "skipped time, Madrid" 2 "02:30 does not exist on 2026-03-29 in Europe/Madrid: clocks go from 02:00 to 03:00" "$WORK/gym.ics" -- \
  "$HORARI" add Early --start '2026-03-29 02:30' --minutes 30 --calendar "$WORK/gym.ics"
expect "skipped time, New York" 2 "02:30 does not exist on 2026-03-08 in America/New_York: clocks go from 02:00 to 03:00" "$WORK/gym.ics" -- \
  "$HORARI" add Early --start '2026-03-08 02:30' --minutes 30 --time-zone America/New_York --calendar "$WORK/gym.ics"
expect "skipped time, Lord Howe" 2 "02:15 does not exist on 2026-10-04 in Australia/Lord_Howe: clocks go from 02:00 to 02:30" "$WORK/gym.ics" -- \
  "$HORARI" add Early --start '2026-10-04 02:15' --minutes 30 --time-zone Australia/Lord_Howe --calendar "$WORK/gym.ics"
expect "repeated time, Madrid" 2 "write ‘2026-10-25 02:30 CEST’ for the first or ‘2026-10-25 02:30 CET’ for the second" "$WORK/gym.ics" -- \
  "$HORARI" add Late --start '2026-10-25 02:30' --minutes 30 --calendar "$WORK/gym.ics"
expect "repeated time, New York" 2 "write ‘2026-11-01 01:30 EDT’ for the first or ‘2026-11-01 01:30 EST’ for the second" "$WORK/gym.ics" -- \
  "$HORARI" add Late --start '2026-11-01 01:30' --minutes 30 --time-zone America/New_York --calendar "$WORK/gym.ics"
expect "repeated time, Lord Howe" 2 "write ‘2026-04-05 01:45 +11’ for the first or ‘2026-04-05 01:45 +1030’ for the second" "$WORK/gym.ics" -- \
  "$HORARI" add Late --start '2026-04-05 01:45' --minutes 30 --time-zone Australia/Lord_Howe --calendar "$WORK/gym.ics"
expect "a session in a skipped hour" 2 "does not exist on 2026-03-29 in Europe/Madrid" "$WORK/gym.ics" -- \
  "$HORARI" sessions add --coach marc --client anna --start '2026-03-29 02:30' --calendar "$WORK/gym.ics" --now '2026-03-01 10:00'
# Lengths past the bound, and one that overflows a 64-bit multiplication.
expect "too long" 2 "longer than 366 days" "$WORK/gym.ics" -- \
  "$HORARI" add Forever --start '2026-11-24 10:00' --minutes 9999999999 --calendar "$WORK/gym.ics"
expect "overflowing length" 2 "longer than 366 days" "$WORK/gym.ics" -- \
  "$HORARI" add Forever --start '2026-11-24 10:00' --minutes 99999999999999999 --calendar "$WORK/gym.ics"
# The red family.
for c in darkred firebrick maroon crimson indianred orangered '#e00000'; do
  expect "red family: $c" 1 "red marks days with two or more items" "$WORK/gym.ics" -- \
    "$HORARI" add Busy --start '2026-11-24 10:00' --color "$c" --calendar "$WORK/gym.ics"
done
# Where calendars meet (issue 28): each promise that broke, on the sample.
mkdir "$WORK/meet"
M="$WORK/meet"
cp "$WORK/gym.ics" "$M/gym.ics"
sed 's#Europe/Madrid#Asia/Tokyo#g' "$WORK/gym.ics" > "$M/tokyo-gym.ics"
TZ=Asia/Tokyo "$HORARI" add 'Morning run' --start '2026-11-24 10:00' --minutes 60 --time-zone Europe/Madrid --calendar "$M/madrid.ics" >/dev/null
TZ=Asia/Tokyo "$HORARI" import "$M/tokyo-gym.ics" --into "$M/madrid.ics" >/dev/null
holds "1. import keeps the target's clock" 0 "10:00–11:00 • Morning run" -- \
  env TZ=Asia/Tokyo "$HORARI" list --calendar "$M/madrid.ics" --from 2026-11-24 --limit 40
if grep -q "X-HORARI-TIMEZONE:Asia/Tokyo" "$M/madrid.ics"; then
  echo "FAIL 1. import keeps the target's clock: madrid.ics took X-HORARI-TIMEZONE:Asia/Tokyo"; failures=$((failures + 1))
fi
"$HORARI" add Essay --task --due '2026-11-27 18:00' --calendar "$M/planner.ics" >/dev/null
"$HORARI" rules task-planner --calendar "$M/planner.ics" >/dev/null
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:first-thing\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Madrid:20261130T100000\r\nDURATION:PT1H\r\nSUMMARY:1st thing\r\nCOLOR:red\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' > "$M/first.ics"
planner_before=$(cksum < "$M/planner.ics")
holds "2. import meets the calendar's rules" 1 "first.ics:4: refused ‘1st thing’" -- \
  "$HORARI" import "$M/first.ics" --into "$M/planner.ics"
if [ "$planner_before" != "$(cksum < "$M/planner.ics")" ]; then
  echo "FAIL 2. import meets the calendar's rules: the refused item changed planner.ics"; failures=$((failures + 1))
fi
"$HORARI" export "$M/gym.ics" --for coach marc --out "$M/marc.ics"
"$HORARI" import "$M/marc.ics" --into "$M/copy.ics" >/dev/null
holds "3. a coach's export re-imports as the coach's book" 0 "Anna Puig" -- \
  "$HORARI" sessions list --coach marc --calendar "$M/copy.ics" --now '2026-11-22 10:00'
"$HORARI" export "$M/gym.ics" --for member marta --out "$M/marta.ics"
holds "4. a member's export re-imported merges into the classes" 0 "merged 3 class occurrences" -- \
  "$HORARI" import "$M/marta.ics" --into "$M/gym.ics"
holds "4. … and her Monday is not red" 0 "Monday    23  • 18:30–19:30  Yoga" -- \
  "$HORARI" week 2026-11-23 --calendar "$M/gym.ics"
"$HORARI" sessions cancel s-anna-1126 --coach marc --calendar "$M/gym.ics" >/dev/null
holds "5. a cancelled session is marked" 0 "✗ Training: Anna Puig (cancelled)" -- \
  "$HORARI" day 2026-11-26 --calendar "$M/gym.ics"
holds "5. … and does not make its day red" 0 "Thursday  26  • 19:00–19:50  Reformer Pilates" -- \
  "$HORARI" week 2026-11-26 --calendar "$M/gym.ics"
expect "6. a session three days ahead marked completed" 1 "once it has started" "$M/gym.ics" -- \
  "$HORARI" sessions mark s-pau-1124 --coach marc --status completed --calendar "$M/gym.ics" --now '2026-11-21 10:00'

mkdir "$M/somedir" && cp "$WORK/gym.ics" "$M/somedir/gym.ics" && cp "$M/tokyo-gym.ics" "$M/somedir/club.ics"
expect "8. a folder of whole calendars is not a calendar" 1 "not one .ics per event as a calendar folder (vdir) does" "$M/somedir/gym.ics" -- \
  "$HORARI" $add --calendar "$M/somedir"
[ "$(ls "$M/somedir" | tr '\n' ' ')" = "club.ics gym.ics " ] || { echo "FAIL 8. a folder of whole calendars: it now holds $(ls "$M/somedir" | tr '\n' ' ')"; failures=$((failures + 1)); }
# Issue 41, 1: a class changed from a date on keeps its ID for the dates before.
cp "$WORK/gym.ics" "$M/changed.ics"
"$HORARI" classes change yoga --from 2026-12-10 --time 20:00 --calendar "$M/changed.ics" --now '2026-11-22 10:00' >/dev/null
holds "41, 1. a changed class books by its own ID before the change" 0 "Booked marta into Yoga, Wed 2026-12-02 18:30–19:30" -- \
  "$HORARI" book --member marta --class yoga --date 2026-12-02 --calendar "$M/changed.ics" --now '2026-11-22 10:00'
holds "41, 1. … and after it" 0 "Booked marta into Yoga, Mon 2026-12-14 20:00–21:00" -- \
  "$HORARI" book --member marta --class yoga --date 2026-12-14 --calendar "$M/changed.ics" --now '2026-11-22 10:00'
# Issue 41, 16: one whole calendar among one-event files refuses the folder too, saying how to bring it in.
mkdir "$M/vdir" && "$HORARI" add 'Dentist' --start '2026-11-24 09:00' --calendar "$M/vdir" >/dev/null && cp "$WORK/gym.ics" "$M/vdir/gym.ics"
expect "41, 16. a whole calendar among one-event files" 1 "move that file out of the folder, then import it into it (horari import gym.ics --into $M/vdir)" "$M/vdir/gym.ics" -- \
  "$HORARI" month 2026-11 --calendar "$M/vdir"
[ "$(ls "$M/vdir" | wc -l)" -eq 3 ] || { echo "FAIL 41, 16: the folder now holds $(ls "$M/vdir" | tr '\n' ' ')"; failures=$((failures + 1)); }
# Issue 41, 12: a name whose RFC 2047 word stands for a line break.
expect "41, 12. a name whose encoded word stands for a line break" 1 "holds an encoded word (=?…?=) that stands for a line break" "$M/gym.ics" -- \
  "$HORARI" members add eve --name '=?UTF-8?Q?Eve=0D=0ABcc:_all@example.com?=' --email eve@example.com --calendar "$M/gym.ics"
expect "8. a calendar in a folder that does not exist" 1 "there is no folder $M/nope for the calendar" "$WORK/gym.ics" -- \
  "$HORARI" $add --calendar "$M/nope/missing.ics"
[ ! -e "$M/nope" ] || { echo "FAIL 8. a calendar in a folder that does not exist: the folder was made"; failures=$((failures + 1)); }
holds "9. another coach's client ID is not revealed" 0 "Added client anna (Anna Vidal) to coach laia." -- \
  "$HORARI" clients add anna --name 'Anna Vidal' --coach laia --calendar "$M/gym.ics"
expect "9. … and the coach's own is refused" 1 "a client with ID ‘anna’ already exists" "$M/gym.ics" -- \
  "$HORARI" clients add anna --name 'Anna Again' --coach laia --calendar "$M/gym.ics"
expect "18. a coach with clients is not removed" 1 "coach ‘laia’ still has" "$M/gym.ics" -- \
  "$HORARI" coaches remove laia --yes --calendar "$M/gym.ics"
expect "18. a removal without a terminal asks for --yes" 1 "add --yes" "$M/gym.ics" -- \
  "$HORARI" members remove quim --calendar "$M/gym.ics"
"$HORARI" add Standup --start '2026-11-02 09:00' --minutes 15 --repeat 'FREQ=WEEKLY;BYDAY=MO;COUNT=10' --id standup --calendar "$M/gym.ics" >/dev/null
expect "20. an occurrence the series does not have" 1 "‘Standup’ has no occurrence on 2026-12-01" "$M/gym.ics" -- \
  "$HORARI" delete standup --occurrence 2026-12-01 --yes --calendar "$M/gym.ics"
expect "20. --and-following without --occurrence" 2 "--and-following goes with --occurrence DATE" "$M/gym.ics" -- \
  "$HORARI" delete standup --and-following --yes --calendar "$M/gym.ics"
expect "20. one occurrence of an item that does not repeat" 1 "does not repeat" "$M/gym.ics" -- \
  "$HORARI" edit staff-meeting --occurrence 2026-11-24 --title Later --calendar "$M/gym.ics"
expect "19. a class ended before it began" 1 "remove the class instead, or end it on a later date" "$M/gym.ics" -- \
  "$HORARI" classes end spin --on 2026-01-01 --calendar "$M/gym.ics"
expect "19. a class changed to no places" 1 "a class takes at least one member, not 0" "$M/gym.ics" -- \
  "$HORARI" classes change spin --from 2026-11-23 --capacity 0 --calendar "$M/gym.ics" --now '2026-11-22 10:00'
# 15: a property over the 1 MiB line limit (an EXDATE of 80,000 dates) is left out, said, and fails the import.
{ printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:daily\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20260101T100000\r\nRRULE:FREQ=DAILY;COUNT=10\r\nEXDATE:20260102T100000'
  yes ',20260102T100000' | head -n 80000 | tr -d '\n'
  printf '\r\nSUMMARY:Daily\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'; } > "$M/long-line.ics"
holds "15. an import that drops something says so" 1 "not imported 1" -- \
  "$HORARI" import "$M/long-line.ics" --into "$M/long-into.ics"
expect "16. a class occurrence moved onto another of its class" 1 "cannot move there: the Yoga of 2026-11-25 is on then" "$WORK/gym.ics" -- \
  "$HORARI" classes move yoga --date 2026-11-23 --start '2026-11-25 19:45' --calendar "$WORK/gym.ics"

# The CLI's words (issue 28, 21 and 22): a mistyped command or option is named,
# with the nearest there is, before any other check; a negative length is read
# as a value and refused; #f00 is red. Usage errors exit 2, refusals 1, in
# every command.
expect "21. a mistyped command" 2 "horari has no command ‘mnth’; did you mean ‘month’?" "$WORK/gym.ics" -- \
  "$HORARI" mnth --calendar "$WORK/gym.ics"
expect "21. a mistyped subcommand" 2 "horari sessions has no command ‘lst’; did you mean ‘list’?" "$WORK/gym.ics" -- \
  "$HORARI" sessions lst --coach marc --calendar "$WORK/gym.ics"
expect "21. help for no command" 2 "horari has no command ‘nosuch’" "$WORK/gym.ics" -- \
  "$HORARI" help nosuch
expect "21. an unknown option, named before the missing --start" 2 "horari add has no option --strat; did you mean --start?" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --strat '2026-11-24 10:00' --calendar "$WORK/gym.ics"
expect "21. a negative length" 2 "a length in minutes cannot be negative" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-11-24 10:00' --minutes -30 --calendar "$WORK/gym.ics"
expect "21. a negative length of a session" 2 "a length in minutes cannot be negative" "$WORK/gym.ics" -- \
  "$HORARI" sessions add --coach marc --client anna --start '2026-11-27 10:00' --minutes -30 --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'
expect "21. a colour that is no colour" 2 "‘nosuch’ is not a CSS3 colour name" "$WORK/gym.ics" -- \
  "$HORARI" coaches add zoe --name Zoe --color nosuch --calendar "$WORK/gym.ics"
expect "22. #f00 is red" 1 "red marks days with two or more items" "$WORK/gym.ics" -- \
  "$HORARI" add Busy --start '2026-11-24 10:00' --color '#f00' --calendar "$WORK/gym.ics"
unchanged_before=$(cksum < "$WORK/gym.ics")
holds "22. an edit that changes nothing" 0 "Nothing to change: task ‘Order new yoga mats’" -- \
  "$HORARI" edit order-mats --color orchid --calendar "$WORK/gym.ics"
if [ "$unchanged_before" != "$(cksum < "$WORK/gym.ics")" ]; then
  echo "FAIL 22. an edit that changes nothing: gym.ics was written"; failures=$((failures + 1))
fi

# A read command with no calendar yet, and a folder of other things given as
# the calendar (a folder is a calendar of one .ics per UID, issue 21, but one
# that holds no .ics file and something else is a mistyped path): nothing is
# read as an empty calendar, and nothing is written into it.
expect "no calendar yet" 1 "there is no calendar at $WORK/none/horari/calendar.ics yet" "$WORK/gym.ics" -- \
  env XDG_DATA_HOME="$WORK/none" "$HORARI" list
mkdir "$WORK/notes" && echo "buy mats" > "$WORK/notes/todo.txt"
expect "a folder of other things as the calendar" 1 "so it is not a calendar folder" "$WORK/notes/todo.txt" -- \
  "$HORARI" month --calendar "$WORK/notes"
expect "adding into a folder of other things" 1 "so it is not a calendar folder" "$WORK/notes/todo.txt" -- \
  "$HORARI" $add --calendar "$WORK/notes"
if [ "$(ls -A "$WORK/notes")" != "todo.txt" ]; then
  echo "FAIL adding into a folder of other things: it now holds $(ls -A "$WORK/notes" | tr '\n' ' ')"; failures=$((failures + 1))
fi

# A read-only calendar in a writable folder (issue 28): the rename that saves
# a change needs only the folder's permission, so horari refuses a file it
# may not write, and one with no write permission bit at all — read-only for
# root too, so this runs as whoever runs the script. A change (add) and a
# booking (a splice of one record) alike.
mkdir "$WORK/rofile" && cp "$WORK/gym.ics" "$WORK/rofile/gym.ics" && chmod 444 "$WORK/rofile/gym.ics"
expect "read-only file, writable folder" 1 "$WORK/rofile/gym.ics is read-only (mode 444: no one may write it), so it was not changed" "$WORK/rofile/gym.ics" -- \
  "$HORARI" $add --calendar "$WORK/rofile/gym.ics"
expect "booking on a read-only file" 1 "$WORK/rofile/gym.ics is read-only" "$WORK/rofile/gym.ics" -- \
  "$HORARI" book --member aina --class yoga --date 2026-11-23 --calendar "$WORK/rofile/gym.ics" --now '2026-11-22 10:00'
[ "$(ls -A "$WORK/rofile")" = "gym.ics" ] || { echo "FAIL read-only file: the folder now holds $(ls -A "$WORK/rofile" | tr '\n' ' ')"; failures=$((failures + 1)); }

# A read-only calendar (folder and file), and a writable calendar in a
# read-only folder, as a user who is not root: root may write the folder
# anyway. The second message names the calendar and its folder, never the
# temporary file that could not be made.
mkdir "$WORK/ro" && cp "$WORK/gym.ics" "$WORK/ro/gym.ics" && chmod 444 "$WORK/ro/gym.ics" && chmod 555 "$WORK/ro"
mkdir "$WORK/rofolder" && cp "$WORK/gym.ics" "$WORK/rofolder/gym.ics"
chmod 755 "$WORK"
if [ "$(id -u)" = 0 ]; then
  as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
  chown 65534:65534 "$WORK/rofolder/gym.ics"
else
  as_user=""
fi
chmod 555 "$WORK/rofolder"
# shellcheck disable=SC2086
expect "read-only calendar" 1 "$WORK/ro/gym.ics is read-only" "$WORK/ro/gym.ics" -- \
  $as_user "$HORARI" $add --calendar "$WORK/ro/gym.ics"
# shellcheck disable=SC2086
expect "read-only folder" 1 "$WORK/rofolder/gym.ics cannot be changed: its folder $WORK/rofolder cannot be written (Permission denied)" "$WORK/rofolder/gym.ics" -- \
  $as_user "$HORARI" $add --calendar "$WORK/rofolder/gym.ics"
if grep -q '\.tmp' "$WORK/err"; then echo "FAIL read-only folder: the message names a temporary file"; failures=$((failures + 1)); fi

# A calendar reached through a link (issue 28): the change goes to the file
# the link leads to, and the link stays a link.
mkdir "$WORK/real" "$WORK/link" && cp "$WORK/gym.ics" "$WORK/real/gym.ics" && ln -s ../real/gym.ics "$WORK/link/gym.ics"
if "$HORARI" $add --calendar "$WORK/link/gym.ics" >/dev/null 2>"$WORK/err" && [ -L "$WORK/link/gym.ics" ] \
   && "$HORARI" day 2026-11-24 --calendar "$WORK/real/gym.ics" | grep -q Lunch; then
  echo "ok   a calendar through a link: changed where it leads, the link kept"
else
  echo "FAIL a calendar through a link: $( [ -L "$WORK/link/gym.ics" ] && echo "the change did not reach $WORK/real/gym.ics" || echo "the link was replaced by a file")"
  sed 's/^/  stderr: /' "$WORK/err"; failures=$((failures + 1))
fi

# What a killed horari left beside the calendar (issue 28): the next change
# removes a temporary file whose process is gone, and keeps a live one's.
sh -c 'exit 0' & dead=$!; wait "$dead"
cp "$WORK/real/gym.ics" "$WORK/real/.gym.ics.$dead.1.tmp" && cp "$WORK/real/gym.ics" "$WORK/real/.gym.ics.$$.2.tmp"
"$HORARI" $add --calendar "$WORK/real/gym.ics" >/dev/null 2>&1
if [ ! -e "$WORK/real/.gym.ics.$dead.1.tmp" ] && [ -e "$WORK/real/.gym.ics.$$.2.tmp" ]; then
  echo "ok   a killed process's temporary file: cleared by the next change, a live one's kept"
else
  echo "FAIL a killed process's temporary file: left $(ls -A "$WORK/real" | tr '\n' ' ')"; failures=$((failures + 1))
fi
rm -f "$WORK/real/.gym.ics.$$.2.tmp"

# A full disk: a tiny tmpfs holding the calendar, filled up.
mkdir "$WORK/tiny"
if mount -t tmpfs -o size=16k tmpfs "$WORK/tiny" 2>/dev/null; then
  cp "$WORK/gym.ics" "$WORK/tiny/gym.ics"
  dd if=/dev/zero of="$WORK/tiny/filler" bs=1k count=64 2>/dev/null
  expect "full disk (16 KiB tmpfs)" 1 "No space left on device" "$WORK/tiny/gym.ics" -- \
    "$HORARI" $add --calendar "$WORK/tiny/gym.ics"
  [ -z "$(find "$WORK/tiny" -name '.*.tmp')" ] || { echo "FAIL full disk: a temporary file was left behind"; failures=$((failures + 1)); }
  umount "$WORK/tiny"
else
  echo "skip full disk on a tmpfs: this machine does not let us mount one (the file-size limit below stands in)"
fi

# A file-size limit (ulimit -f, in 512-byte blocks) smaller than the calendar.
expect "file-size limit" 1 "File too large" "$WORK/gym.ics" -- \
  sh -c "ulimit -f 4; exec \"\$0\" \"\$@\"" "$HORARI" $add --calendar "$WORK/gym.ics"
[ -z "$(find "$WORK" -maxdepth 1 -name '.*.tmp')" ] || { echo "FAIL file-size limit: a temporary file was left behind"; failures=$((failures + 1)); }

# One CLI voice (issue 43, 10–15): a date-only --to is the last day included
# everywhere; a backwards range or a value out of range is a usage error (2) in
# the tool's own words; a typo names the command typed; a missing file or a
# folder is named as what it is.
holds "alarms --from X --to X is that day (10)" 0 "Yoga" -- "$HORARI" alarms --from 2026-11-23 --to 2026-11-23 --member marta --default -PT1H --calendar "$WORK/gym.ics"
holds "occurrences --to names the last day included (10)" 0 "Yoga" -- \
  "$HORARI" occurrences "$WORK/gym.ics" --from 2026-11-23 --to 2026-11-23
holds "freebusy --from X --to X is that day (10)" 0 "FREEBUSY;FBTYPE=BUSY:20261123T173000Z/20261123T183000Z" -- \
  "$HORARI" freebusy --calendar "$WORK/gym.ics" --from 2026-11-23 --to 2026-11-23
expect "alarms backwards (11)" 2 "--to ‘2026-11-22’ is before --from ‘2026-11-23’" "$WORK/gym.ics" -- \
  "$HORARI" alarms --from 2026-11-23 --to 2026-11-22 --calendar "$WORK/gym.ics"
expect "occurrences backwards (11)" 2 "--to ‘2026-11-22’ is before --from ‘2026-11-23’" "$WORK/gym.ics" -- \
  "$HORARI" occurrences "$WORK/gym.ics" --from 2026-11-23 --to 2026-11-22
# A period a VFREEBUSY gets wrong is named with its line, as the import numbered it (issue 43, 1: no second reading).
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VFREEBUSY\r\nUID:fb\r\nDTSTAMP:20261101T000000Z\r\nFREEBUSY:20261126T170000Z/20261126T160000Z\r\nEND:VFREEBUSY\r\nEND:VCALENDAR\r\n' > "$WORK/backwards-fb.ics"
expect "freebusy: a backwards period, with its line (1)" 1 "backwards-fb.ics:7: the period ‘20261126T170000Z/20261126T160000Z’ ends before it starts" "$WORK/backwards-fb.ics" -- \
  "$HORARI" freebusy --calendar "$WORK/backwards-fb.ics" --from 2026-11-23 --to 2026-11-29
expect "--busy: a backwards period, with its line (1)" 1 "backwards-fb.ics:7: the period" "$WORK/gym.ics" -- \
  "$HORARI" sessions free --calendar "$WORK/gym.ics" --coach marc --from 2026-11-26 --to 2026-11-26 --busy "$WORK/backwards-fb.ics"
# A century of a minutely event (issue 42, 3): refused naming the cap, with no line (no period is at fault, though the file has one), nothing printed.
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:tick\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\nDURATION:PT30S\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\nBEGIN:VFREEBUSY\r\nUID:fb\r\nDTSTAMP:20261101T000000Z\r\nFREEBUSY:20261126T160000Z/20261126T170000Z\r\nEND:VFREEBUSY\r\nEND:VCALENDAR\r\n' > "$WORK/minutely.ics"
expect "freebusy over a century of a minutely event: the cap named (42)" 1 "minutely.ics: the window holds more than 1,000,000 occurrences, the most read for free/busy time; ask for a shorter window, or give a larger --max-occurrences" "$WORK/minutely.ics" -- \
  "$HORARI" freebusy --calendar "$WORK/minutely.ics" --from 2026-01-01 --to 2125-12-31
holds "freebusy: a day of it, 1,440 occurrences, at --max-occurrences 1440 (42)" 0 "FREEBUSY;FBTYPE=BUSY:20260101T005900Z/20260101T005930Z" -- \
  "$HORARI" freebusy --calendar "$WORK/minutely.ics" --from 2026-01-01 --to 2026-01-01 --max-occurrences 1440 --time-zone UTC
expect "freebusy backwards (11)" 2 "--to ‘2026-11-22’ is before --from ‘2026-11-23’" "$WORK/gym.ics" -- \
  "$HORARI" freebusy --calendar "$WORK/gym.ics" --from 2026-11-23 --to 2026-11-22
expect "--end before --start is a usage error (11)" 2 "--end ‘2026-11-24 13:00’ is before the start, Tue 2026-11-24 14:00" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-11-24 14:00' --end '2026-11-24 13:00' --calendar "$WORK/gym.ics"
expect "a negative length in the tool's words (11)" 2 "Error: --minutes ‘-30’: a length in minutes cannot be negative; give 1 or more" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-11-24 14:00' --minutes -30 --calendar "$WORK/gym.ics"
expect "a negative buffer in the tool's words (11)" 2 "Error: --buffer ‘-5’: a buffer in minutes cannot be negative; give 0 or more" "$WORK/gym.ics" -- \
  "$HORARI" coaches add zz --name Z --buffer -5 --calendar "$WORK/gym.ics"
expect "no field prefix on a refusal (11)" 2 "Error: --time ‘25:00’: 25:00 is not a time of day; use 00:00 to 24:00" "$WORK/gym.ics" -- \
  "$HORARI" classes add zz --title Z --days MO --time 25:00 --minutes 60 --capacity 3 --calendar "$WORK/gym.ics"
expect "a typo names the command typed (15)" 2 "Error: horari has no option --verison; did you mean --version?" "$WORK/gym.ics" -- \
  "$HORARI" --verison
expect "validate a missing file (15)" 1 "nosuch.ics: no such file to check" "$WORK/gym.ics" -- \
  "$HORARI" validate "$WORK/nosuch.ics"
grep -q "horari add" "$WORK/err" && { echo "FAIL validate a missing file: it suggests horari add"; failures=$((failures + 1)); }
mkdir -p "$WORK/a-folder"
expect "import a folder (15)" 1 "a-folder is a folder, not an .ics file" "$WORK/gym.ics" -- \
  "$HORARI" import "$WORK/a-folder" --into "$WORK/gym.ics"
expect "a locale no system knows (14)" 2 "--locale ‘klingon’ is not a locale this system knows" "$WORK/gym.ics" -- \
  "$HORARI" month 2026-11 --locale klingon --calendar "$WORK/gym.ics"
"$HORARI" month 2026-11 --locale C --color never --calendar "$WORK/gym.ics" > "$WORK/c-flag" 2>&1
LANG=C LC_ALL= LC_TIME= "$HORARI" month 2026-11 --color never --calendar "$WORK/gym.ics" > "$WORK/c-env" 2>&1
if cmp -s "$WORK/c-flag" "$WORK/c-env" && grep -q "^Su Mo Tu We Th Fr Sa" "$WORK/c-flag"; then echo "ok   --locale C and LANG=C: the same grid, Sunday first (14)"
else echo "FAIL --locale C and LANG=C differ (14)"; diff "$WORK/c-flag" "$WORK/c-env" | head -5; failures=$((failures + 1)); fi
holds "a bare horari speaks LANG (14)" 0 "noviembre 2026" -- \
  env LANG=es_ES.UTF-8 LC_ALL= LC_TIME= "$HORARI" --today 2026-11-22 --color never
holds "a short ID is a whole word (14)" 0 "Reformer Pilates  [pilates]" -- \
  "$HORARI" day 2026-11-26 --color never --calendar "$WORK/gym.ics"

# Hostile input (issue 28). check NAME CONDITION…: the condition is a command
# run after the one under test, whose output is in $WORK/out and $WORK/err.
check() {
  name=$1
  shift
  if "$@"; then
    echo "ok   $name"
  else
    echo "FAIL $name: exit $status"
    head -n 5 "$WORK/err" | sed 's/^/  stderr: /'; tail -n 3 "$WORK/out" | sed 's/^/  stdout: /'
    failures=$((failures + 1))
  fi
}
# A flood of diagnostics: 10,000 unclosed events are 100 lines, a summary and
# the true total, not 10,000 lines; validate still fails.
awk 'BEGIN { printf "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//Flood//EN\r\n"
  for (i = 0; i < 10000; i++) printf "BEGIN:VEVENT\r\nUID:open-%d\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T090000Z\r\n", i
  printf "END:VCALENDAR\r\n" }' > "$WORK/flood.ics"
"$HORARI" validate "$WORK/flood.ics" >"$WORK/out" 2>"$WORK/err"; status=$?
check "a flood of diagnostics, summarised" \
  sh -c '[ "$1" -eq 1 ] && [ "$(wc -l < "$2/out")" -le 110 ] && grep -q "and 9,900 more like it" "$2/out" && tail -n 1 "$2/out" | grep -q "10000 errors"' sh "$status" "$WORK"
# CR-only line ends (classic Mac OS): imported as lines, nothing run together written.
printf 'BEGIN:VCALENDAR\rVERSION:2.0\rPRODID:-//Old Mac//EN\rBEGIN:VEVENT\rUID:old-mac\rDTSTAMP:19990101T000000Z\rDTSTART:20261124T100000Z\rSUMMARY:Old Mac\rEND:VEVENT\rEND:VCALENDAR\r' > "$WORK/cr.ics"
cp "$WORK/gym.ics" "$WORK/cr-into.ics"
"$HORARI" import "$WORK/cr.ics" --into "$WORK/cr-into.ics" >"$WORK/out" 2>"$WORK/err"; status=$?
check "CR-only line ends imported as lines" \
  sh -c '[ "$1" -eq 0 ] && grep -q "^added 1," "$2/out" && ! grep -q VCALENDARVERSION "$2/cr-into.ics" && grep -q "^SUMMARY:Old Mac" "$2/cr-into.ics"' sh "$status" "$WORK"
# An uncapped SECONDLY rule as one JSON document streams: a day (86,400
# occurrences) under a 300 MB address-space limit, as --format jsonl does.
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//Tick//EN\r\nBEGIN:VEVENT\r\nUID:tick\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\nRRULE:FREQ=SECONDLY\r\nSUMMARY:Tick\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' > "$WORK/tick.ics"
sh -c 'ulimit -v 300000; exec "$0" "$@"' "$HORARI" occurrences "$WORK/tick.ics" --from 2025-01-01 --to 2025-01-01 --max-per-series 0 --format json >"$WORK/out" 2>"$WORK/err"; status=$?
check "an uncapped SECONDLY day as JSON under ulimit -v 300000" \
  sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "\"uid\" : \"tick\"" "$2/out")" -eq 86400 ] && tail -n 1 "$2/out" | grep -qx "}"' sh "$status" "$WORK"
# No tz files (root only, in a mount namespace of its own): the views fall back and say so once.
mkdir "$WORK/no-zoneinfo"
if [ "$(id -u)" = 0 ] && unshare -m sh -c "mount --bind '$WORK/no-zoneinfo' /usr/share/zoneinfo" 2>/dev/null; then
  TZ=Europe/Madrid unshare -m sh -c 'mount --bind "$1/no-zoneinfo" /usr/share/zoneinfo && exec "$2" month 2026-11 --calendar "$1/gym.ics" --color never' sh "$WORK" "$HORARI" >"$WORK/out" 2>"$WORK/err"; status=$?
  check "no tz files: month, in Europe/Madrid" \
    sh -c '[ "$1" -eq 0 ] && [ -s "$2/out" ] && [ "$(grep -c "no time zone files in /usr/share/zoneinfo" "$2/err")" -eq 1 ]' sh "$status" "$WORK"
else
  echo "skip no tz files: hiding /usr/share/zoneinfo needs root and a mount namespace"
fi

[ "$failures" -eq 0 ] && echo "cli_failures: all clear" || { echo "cli_failures: $failures failed"; exit 1; }
