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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for dir in "$@"; do find "$dir" -name '*.ics' -type f; done | sort > "$work/files"
# Two lanes (the machine's two cores; each run is one process): lane 1 takes
# the odd lines, lane 0 the even ones, each counting into its own file.
lane() {
    n=$1
    runs=0
    leaks=0
    awk -v lane="$n" 'NR % 2 == lane' "$work/files" | while IFS= read -r f; do
        for command in validate export occurrences; do
            case $command in
                validate) set -- validate "$f" ;;
                export) set -- export "$f" ;;
                occurrences) set -- occurrences "$f" --from 2020-01-01 --to 2029-12-31 --max-per-series 2000 ;;
            esac
            runs=$((runs + 1))
            # Exit codes 0 (fine), 1 (the file has problems: a broken file is
            # expected to fail) are both answers; 23 is a leak; anything else a crash.
            status=0
            "$horari" "$@" > /dev/null 2> "$work/err$n" || status=$?
            if [ "$status" -eq 23 ] || grep -q "LeakSanitizer" "$work/err$n"; then
                leaks=$((leaks + 1))
                echo "LEAK: horari $*"
                sed -n '1,40p' "$work/err$n"
            elif [ "$status" -gt 2 ]; then
                echo "CRASH ($status): horari $*"
                sed -n '1,40p' "$work/err$n"
                leaks=$((leaks + 1))
            fi
            echo "$runs $leaks" > "$work/count$n"
        done
    done
}
lane 0 > "$work/out0" &
lane 1 > "$work/out1" &
wait
cat "$work/out0" "$work/out1"
runs=$(cat "$work/count0" "$work/count1" 2>/dev/null | awk '{ n += $1 } END { print n + 0 }')
leaks=$(cat "$work/count0" "$work/count1" 2>/dev/null | awk '{ n += $2 } END { print n + 0 }')
files=$(wc -l < "$work/files")
[ "$runs" -eq $((files * 3)) ] || { echo "leak_check: $runs runs, not the $((files * 3)) of $files files"; exit 1; }
echo "leak_check: $files files, $runs runs of horari under LeakSanitizer, $leaks with a leak or a crash"
[ "$leaks" -eq 0 ]
