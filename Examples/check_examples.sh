#!/bin/sh
# The example apps (`make examples`): Examples/TaskPlanner, TrainerApp and
# GymApp are packages of their own that depend on the library by path, as an
# app outside this repository does. Each is built from its own folder with no
# warning, into one scratch folder the three share (so the library compiles
# once), run there twice — in the machine's zone and in one fourteen hours
# ahead of UTC, since no output may depend on the machine — and its output
# compared with its expected-output.txt. Then each DocC article that walks
# through an app (the one with an `<!-- example-app: PATH -->` line) must
# quote that app's main.swift whole and in order, blank lines aside, in its
# ```swift blocks, and show only lines the app prints in its ```text blocks.
#
#   sh Examples/check_examples.sh [SWIFT]
#   HORARI_UPDATE_EXAMPLES=1 sh Examples/check_examples.sh   # rewrite expected-output.txt; read the diff
#
# EXAMPLE_APPS and EXAMPLE_SCRATCH check other apps in another scratch
# folder: `make test-pure` checks PortableICS, built without libical, in
# .build/pure-examples (a build on other traits would rebuild the library
# in the shared folder, twice each `make test`).
set -eu
swift=${1:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/${EXAMPLE_SCRATCH:-.build/examples}"
mkdir -p "$scratch"
failed=0
for app in ${EXAMPLE_APPS:-TaskPlanner TrainerApp GymApp}; do
  dir="$root/Examples/$app"
  before=$failed
  log="$scratch/$app-build.log"
  echo "== $app"
  if ! (cd "$dir" && sh "$root/Scripts/swiftpm_once_more.sh" "$log" "$swift" build --scratch-path "$scratch" >/dev/null); then
    cat "$log"; echo "error: $app does not build"; exit 1
  fi
  if grep -E '/Examples/.*warning:' "$log"; then
    echo "error: $app builds with warnings (Swift 6 mode, zero warnings)"; failed=1
  fi
  # The app's own program, as `swift run --skip-build` would start it (which
  # spends 3.6 s of SwiftPM's own work on each run, seen on this machine).
  for zone in "" Pacific/Kiritimati; do
    out="$scratch/$app-output.txt"
    if [ -z "$zone" ]; then
      (cd "$dir" && "$scratch/debug/$app" >"$out") || { echo "error: $app failed"; exit 1; }
    else
      (cd "$dir" && TZ=$zone "$scratch/debug/$app" >"$out") || { echo "error: $app failed (TZ=$zone)"; exit 1; }
    fi
    if [ "${HORARI_UPDATE_EXAMPLES:-}" = 1 ] && [ -z "$zone" ]; then cp "$out" "$dir/expected-output.txt"; fi
    if ! diff -u "$dir/expected-output.txt" "$out"; then
      echo "error: $app printed something else${zone:+ with TZ=$zone} (above: - expected, + printed)"; failed=1
    fi
  done
  main="Examples/$app/Sources/$app/main.swift"
  article=$(grep -l "^<!-- example-app: $main -->$" "$root"/Sources/*/*.docc/*.md || true)
  if [ -z "$article" ]; then
    echo "error: no DocC article walks through $main (<!-- example-app: $main -->)"; failed=1; continue
  fi
  lines=$(wc -l <"$root/$main")
  [ "$lines" -lt 150 ] || { echo "error: $main has $lines lines; an example app stays under 150"; failed=1; }
  awk '/^```swift$/ { inside = 1; next } /^```$/ { inside = 0 } inside' "$article" | grep -v '^[[:space:]]*$' >"$scratch/$app-article.swift"
  grep -v '^[[:space:]]*$' "$root/$main" >"$scratch/$app-main.swift"
  if ! diff -u "$scratch/$app-main.swift" "$scratch/$app-article.swift"; then
    echo "error: ${article#"$root"/} does not quote $main whole and in order (above: - the app, + the article)"; failed=1
  fi
  # What the article shows the app printing (```text blocks) must be what it prints.
  awk '/^```text$/ { inside = 1; next } /^```$/ { inside = 0 } inside' "$article" | while IFS= read -r line; do
    grep -Fxq -- "$line" "$dir/expected-output.txt" || { echo "error: ${article#"$root"/} shows a line $app does not print: $line"; exit 1; }
  done || failed=1
  [ "$failed" != "$before" ] || echo "$app: built without warnings, printed what it should in both zones, and its article quotes it whole"
done
exit $failed
