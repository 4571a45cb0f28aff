#!/bin/sh
# Runs a SwiftPM command (`swift build …`, `swift package …`) and runs it once
# more if SwiftPM itself crashed — not the compiler, not a plugin's tool, not
# a test: its own process, `swift-build` or `swift-package`, whose crash the
# Swift backtracer reports with that program among its images (a plugin's
# tool or a test is a program of its own, with images of its own).
#
#   sh Scripts/swiftpm_once_more.sh LOG swift build --build-tests
#
# The command's output goes to standard output and to LOG (as `| tee LOG`
# would, the log started empty; the word that it runs again goes to
# standard error), and the command's own exit status is this script's
# (not 0 when the log cannot be written).
#
# Why: SwiftPM 6.3 on this machine has died of a bad pointer in libdispatch
# twice in CI with nothing of ours running (an earlier stop: `package
# generate-documentation`; stop 63: `swift build` of Examples/GymApp, after
# our EmbedText tool had linked); the same command then passes. A second crash, or a
# failure of anything else, is reported as it is.
set -u
log=$1; shift
: >"$log" || exit 1
status_file=$(mktemp) || exit 1
trap 'rm -f "$status_file"' EXIT
for try in 1 2; do
  # The status through a file of its own: a last line of output without a
  # line break would otherwise hide it. The second try appends, so the log
  # keeps the warnings of what the first compiled (an incremental second
  # build does not print them again) for the warnings checks that read it.
  { "$@" 2>&1; echo $? >"$status_file"; } | tee -a "$log"
  status=$(cat "$status_file")
  case $status in ''|*[!0-9]*) status=1 ;; esac
  [ "$status" = 0 ] && exit 0
  if [ "$try" = 1 ] && grep -q '^\*\*\* Program crashed' "$log" &&
     grep -Eq '^0x[0-9a-f]+.* /[^ ]*/swift-(build|package)$' "$log"; then
    echo "swiftpm_once_more: SwiftPM itself crashed (not our code); once more: $*" >&2
    continue
  fi
  exit "$status"
done
