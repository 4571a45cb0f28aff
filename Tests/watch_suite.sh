#!/usr/bin/env bash
# Runs a test bundle under a deadline, so that a test that hangs fails the
# suite in minutes, saying which, instead of holding CI until its limit.
#
#   sh Tests/watch_suite.sh LIMIT LOG COMMAND...
#
# COMMAND is the bundle with swift-testing's --verbose, whose "started" lines
# are what tells the tests that never ended from those that did: `swift test`
# cannot pass --verbose to the bundle without printing every compiler command
# of its manifest too. Its output goes to the terminal and to LOG. Past LIMIT
# seconds the bundle and every process it started are stopped, after the
# tests that started and never ended, those processes and (where gdb is
# installed) each thread's stack are printed; the exit code is then 124, as
# timeout(1)'s. A stop 60 CI run was held 90 minutes by one such test, which
# its output, cut to a buffer's tail, could not name.
set -uo pipefail
limit=$1 log=$2
shift 2
mkdir -p "$(dirname "$log")"
# The terminal is spared the "started" lines; LOG keeps them.
fifo=$(mktemp -u "${TMPDIR:-/tmp}/watch_suite.XXXXXX")
mkfifo "$fifo"
trap 'rm -f "$fifo"' EXIT
tee "$log" < "$fifo" | grep --line-buffered -av ' started\.$' &
reader=$!
"$@" > "$fifo" 2>&1 &
suite=$!
started=$(date +%s)

# Every process below $1, deepest first.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    descendants "$child"
    echo "$child"
  done
}

while kill -0 "$suite" 2>/dev/null; do
  if (( $(date +%s) - started >= limit )); then
    {
      echo "error: the suite ran past $limit s and is stopped. Started and never ended:"
      names() { sed -E -e 's/\x1b\[[0-9;]*m//g' -e 's/ with [0-9]+ test cases? (passed|failed|skipped).*$//' -e 's/ (passed|failed|skipped)( after| with| because|\.).*$//' -e 's/ started\.$//' -e 's/^[^A-Za-z]*(Test|Suite) //' | sort; }
      comm -23 <(grep -aE '(Test|Suite) .* started\.$' "$log" | names) \
               <(grep -aE '(Test|Suite) .* (passed|failed|skipped)' "$log" | names) | sed 's/^/  /'
      echo "Its processes:"
      ps -o pid=,etimes=,args= -p "$suite" $(descendants "$suite") | sed 's/^/  /'
      if command -v gdb > /dev/null; then
        for bundle in "$suite" $(descendants "$suite"); do
          case "$(tr '\0' ' ' < "/proc/$bundle/cmdline" 2>/dev/null)" in
            *.xctest*)
              echo "The threads of $bundle:"
              gdb -p "$bundle" -batch -ex 'thread apply all bt 30' 2>&1 | grep -E '^(Thread|#)' | head -400 | sed 's/^/  /' ;;
          esac
        done
      fi
    } 2>&1 | tee -a "$log"
    kill -KILL $(descendants "$suite") "$suite" 2>/dev/null
    wait "$suite" "$reader" 2>/dev/null
    exit 124
  fi
  sleep 2
done
wait "$suite"
status=$?
wait "$reader"
exit "$status"
