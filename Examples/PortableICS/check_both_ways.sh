#!/bin/sh
# PortableICS with and without libical (`make test-pure`, after
# check_examples.sh has built it without): no libical is linked into the app
# built plainly; built with `--traits WithLibICal` (Horari's default), it
# links libical; and the two print the same — but for the first line, which
# says which it is — for the bundled files and for every real Google and
# Outlook/Exchange export among the given files (the peers' corpus).
#
# The build with libical is made under ThreadSanitizer, in a scratch folder of
# its own (.build/tsan-examples): its import hands each component to libical
# on a queue of its own (LibICalChecker) behind one lock (LibICal.serialized),
# what the trait adds to the threads, and the corpus is real work for it. A race ends the run with TSan's
# exit code, 66. (Set TSAN_OPTIONS=atexit_sleep_ms=0, as make test-pure does,
# or each run sleeps a second at its end.)
#
#   sh Examples/PortableICS/check_both_ways.sh SWIFT CORPUS_DIR
set -eu
swift=${1:-swift}
corpus=$(cd "${2:?the corpus folder (make corpus)}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/Examples/PortableICS"
without="$root/.build/pure-examples"
with="$root/.build/tsan-examples"
mkdir -p "$with"
(cd "$dir" && "$swift" build --scratch-path "$with" --sanitize=thread --traits WithLibICal >"$with/PortableICS-libical-build.log" 2>&1) || {
  cat "$with/PortableICS-libical-build.log"; echo "error: PortableICS does not build with libical (under ThreadSanitizer)"; exit 1; }
if ldd "$without/debug/PortableICS" | grep -q libical; then echo "error: PortableICS built without the trait links libical"; exit 1; fi
ldd "$with/debug/PortableICS" | grep -q libical || { echo "error: PortableICS built --traits WithLibICal does not link libical"; exit 1; }
files=$(grep -rlE '^PRODID:.*(Google|Microsoft)' "$corpus" --include='*.ics' | sort)
[ -n "$files" ] || { echo "error: no Google or Microsoft file under $corpus"; exit 1; }
failed=0
for set in bundled corpus; do
  if [ $set = bundled ]; then args=""; else args=$files; fi
  # shellcheck disable=SC2086
  (cd "$dir" && "$without/debug/PortableICS" $args >"$without/portable-$set.txt") || {
    echo "error: PortableICS without libical failed on the $set files"; failed=1; }
  # shellcheck disable=SC2086
  (cd "$dir" && "$with/debug/PortableICS" $args >"$with/portable-$set.txt") || {
    echo "error: PortableICS with libical failed on the $set files (exit 66 is ThreadSanitizer finding a race)"; failed=1; }
  tail -n +2 "$without/portable-$set.txt" >"$without/portable-$set.body"
  tail -n +2 "$with/portable-$set.txt" >"$with/portable-$set.body"
  if ! diff -u "$without/portable-$set.body" "$with/portable-$set.body"; then
    echo "error: PortableICS prints other occurrences with and without libical ($set files)"; failed=1
  fi
done
count=$(echo "$files" | wc -l)
occurrences=$(grep -o '[0-9]* occurrences' "$without/portable-corpus.txt" | awk '{ n += $1 } END { print n }')
[ $failed = 0 ] && echo "PortableICS: no libical linked without the trait; $count Google and Microsoft files ($occurrences occurrences) and the bundled ones read, exported and read back to the same occurrences with and without libical (with it, under ThreadSanitizer)"
exit $failed
