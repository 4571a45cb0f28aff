#!/bin/sh
# The month grid against ncal (Debian's `ncal` package): every month from
# 2000 to 2030, Sunday first (`ncal -hb`), Monday first (`ncal -hbM`) and
# Monday first with ISO week numbers (`ncal -hbMw`), colour off, empty
# calendar on the machine's zone, C locale. Any difference fails and is shown.
#
#   sh Conformance/ncal_check.sh .build/release/horari
set -eu
HORARI=${1:?usage: ncal_check.sh PATH/TO/horari}
command -v ncal >/dev/null || { echo "ncal is not installed (apt-get install ncal)"; exit 1; }
export LC_ALL=C TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An empty calendar on UTC: a view needs a calendar, and one on the machine's
# own zone prints no "Times in …" line above the grid.
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//ncal check//EN\r\nX-WR-TIMEZONE:UTC\r\nEND:VCALENDAR\r\n' >"$tmp/empty.ics"
checked=0
failed=0
for year in $(seq 2000 2030); do
  for month in $(seq 1 12); do
    ym=$(printf '%04d-%02d' "$year" "$month")
    for mode in b bM bMw; do
      case $mode in
        b) args="--first-weekday sunday" ;;
        bM) args="--first-weekday monday" ;;
        bMw) args="--first-weekday monday --week-numbers" ;;
      esac
      ncal -h$mode "$month" "$year" >"$tmp/ncal"
      # shellcheck disable=SC2086
      "$HORARI" month "$ym" --color never --calendar "$tmp/empty.ics" $args >"$tmp/horari"
      checked=$((checked + 1))
      if ! cmp -s "$tmp/ncal" "$tmp/horari"; then
        failed=$((failed + 1))
        echo "differs: $ym (ncal -h$mode)"
        diff "$tmp/ncal" "$tmp/horari" | head -20
      fi
    done
  done
done
echo "ncal: $checked month grids compared, $failed differ"
[ "$failed" -eq 0 ]
