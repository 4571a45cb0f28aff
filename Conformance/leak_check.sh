#!/bin/sh
# LeakSanitizer over import, export and expansion of real files: every .ics
# under the given folders (the peers' test corpora, our broken-file corpus,
# the sample) goes through `horari validate` (import: our reader and libical's
# parse of each component), `horari export` (import, then our writer; libical
# checks what it reads) and `horari occurrences` (expansion over ten years),
# with `horari` built with -sanitize=address (LeakSanitizer is part of it).
#
# Any leak, in our code or in the libical bridge (a tree not freed, an `_r`
# string not given back), makes LeakSanitizer print a report and exit 23;
# this script then fails and prints the report.
#
#   sh Conformance/leak_check.sh .build/asan/debug/horari DIR...
set -eu
horari=$1
shift
export ASAN_OPTIONS=detect_leaks=1:exitcode=23
files=$(mktemp)
trap 'rm -f "$files" "$files.err"' EXIT
for dir in "$@"; do find "$dir" -name '*.ics' -type f; done | sort > "$files"
runs=0
leaks=0
while IFS= read -r f; do
    for command in validate export occurrences; do
        case $command in
            validate) set -- validate "$f" ;;
            export) set -- export "$f" ;;
            occurrences) set -- occurrences "$f" --from 2020-01-01 --to 2030-01-01 --max-per-series 2000 ;;
        esac
        runs=$((runs + 1))
        # Exit codes 0 (fine), 1 (the file has problems: a broken file is
        # expected to fail) are both answers; 23 is a leak; anything else a crash.
        status=0
        "$horari" "$@" > /dev/null 2> "$files.err" || status=$?
        if [ "$status" -eq 23 ] || grep -q "LeakSanitizer" "$files.err"; then
            leaks=$((leaks + 1))
            echo "LEAK: horari $*"
            sed -n '1,40p' "$files.err"
        elif [ "$status" -gt 2 ]; then
            echo "CRASH ($status): horari $*"
            sed -n '1,40p' "$files.err"
            leaks=$((leaks + 1))
        fi
    done
done < "$files"
echo "leak_check: $(wc -l < "$files") files, $runs runs of horari under LeakSanitizer, $leaks with a leak or a crash"
[ "$leaks" -eq 0 ]
