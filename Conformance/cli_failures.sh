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
trap 'umount "$WORK/tiny" 2>/dev/null; rm -rf "$WORK"' EXIT
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

"$HORARI" sample --write "$WORK/gym.ics" --today 2026-11-22 >/dev/null
add="add Lunch --start 2026-11-24T14:00 --minutes 60"

expect "wrong date" 2 "2026-02-30 does not exist" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-02-30 14:00' --calendar "$WORK/gym.ics"
expect "wrong time" 2 "is not a time of day" "$WORK/gym.ics" -- \
  "$HORARI" add Lunch --start '2026-11-24 25:00' --calendar "$WORK/gym.ics"
expect "missing file" 1 "nowhere.ics" "$WORK/gym.ics" -- \
  "$HORARI" import "$WORK/nowhere.ics" --into "$WORK/gym.ics"
expect "a full class" 1 "is full" "$WORK/gym.ics" -- \
  "$HORARI" book --member quim --class pilates --date 2026-11-26 --calendar "$WORK/gym.ics" --now '2026-11-22 10:00'

# A read-only calendar (folder and file), as a user who is not root: root may write anyway.
mkdir "$WORK/ro" && cp "$WORK/gym.ics" "$WORK/ro/gym.ics" && chmod 444 "$WORK/ro/gym.ics" && chmod 555 "$WORK/ro"
chmod 755 "$WORK"
if [ "$(id -u)" = 0 ]; then as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"; else as_user=""; fi
# shellcheck disable=SC2086
expect "read-only calendar" 1 "Permission denied" "$WORK/ro/gym.ics" -- \
  $as_user "$HORARI" $add --calendar "$WORK/ro/gym.ics"

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

[ "$failures" -eq 0 ] && echo "cli_failures: all clear" || { echo "cli_failures: $failures failed"; exit 1; }
