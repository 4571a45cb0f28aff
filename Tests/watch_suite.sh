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
mkfifo "$fifo" || { echo "error: no fifo at $fifo" >&2; exit 1; }
trap 'rm -f "$fifo"' EXIT
(tee "$log" < "$fifo" | grep --line-buffered -av ' started\.$') &
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

# The suite and every process it started, killed (SIGKILL).
stop_suite() {
  kill -KILL $(descendants "$suite") "$suite" 2>/dev/null
  wait "$suite" 2>/dev/null
}

# The reader, given 10 s to copy the rest: a process the suite left behind
# (a grandchild a watchdog orphaned) may hold the fifo open for good.
finish_reader() {
  local i
  for i in $(seq 1 100); do
    kill -0 "$reader" 2>/dev/null || break
    sleep 0.1
  done
  kill $(descendants "$reader") "$reader" 2>/dev/null
  wait "$reader" 2>/dev/null
}

# Ctrl-C: bash starts background jobs with SIGINT ignored, so the suite
# would go on alone; it is stopped here instead.
trap 'stop_suite; finish_reader; exit 130' INT TERM

# The tests that started and never ended, from the verbose lines in LOG.
unfinished() {
  names() { sed -E -e 's/\x1b\[[0-9;]*m//g' -e 's/ with [0-9]+ test cases? (passed|failed|skipped).*$//' -e 's/ (passed|failed|skipped)( after| with| because|\.).*$//' -e 's/ started\.$//' -e 's/^[^A-Za-z]*(Test|Suite) //' | sort; }
  comm -23 <(grep -aE '(Test|Suite) .* started\.$' "$log" | grep -av 'Test run started' | names) \
           <(grep -aE '(Test|Suite) .* (passed|failed|skipped)' "$log" | names) | sed 's/^/  /'
}

while kill -0 "$suite" 2>/dev/null; do
  if (( $(date +%s) - started >= limit )); then
    # The report is made while the processes are there to look at, kept
    # apart, and written to LOG once the reader has stopped writing it.
    report=$(mktemp "${TMPDIR:-/tmp}/watch_suite_report.XXXXXX")
    {
      echo "error: the suite ran past $limit s and is stopped. Started and never ended:"
      unfinished
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
    } > "$report" 2>&1
    stop_suite
    finish_reader
    cat "$report" | tee -a "$log"
    rm -f "$report"
    exit 124
  fi
  sleep 2
done
wait "$suite"
status=$?
finish_reader
exit "$status"
