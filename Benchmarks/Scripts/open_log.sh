#!/bin/sh
# Open + first primary-key lookup of a store file with a commit log (issue 20: under 0.5 ms at
# 1M objects with 1,000 log records), timed and counted in instructions.
#
#     swift build --package-path Benchmarks -c release --product rql-storage-latency
#     sh Benchmarks/Scripts/open_log.sh [ROWS] [RECORDS] [DIRECTORY]
#
# Makes two files of ROWS objects (default 1,000,000) in DIRECTORY (default a new one under
# /tmp, removed after): one whose log holds RECORDS one-property updates (default 1,000), one
# with an empty log. Prints the median wall clock of 50 opens of each (load dependent: run it on
# a quiet machine), then, when valgrind is installed, the instructions of one open + lookup of
# each (callgrind, repeatable under load: the figure to compare between builds). When the
# symbol counted is not found (a renamed function), the counts are 0.
set -e
rows=${1:-1000000}
records=${2:-1000}
here=$(cd "$(dirname "$0")" && pwd)
binary="$here/../.build/release/rql-storage-latency"
[ -x "$binary" ] || { echo "open_log.sh: build the benchmarks first (see the comment at the top)" >&2; exit 1; }
directory=${3:-}
if [ -z "$directory" ]; then
    directory=$(mktemp -d /tmp/rql-open-log.XXXXXX)
    trap 'rm -rf "$directory"' EXIT
fi
[ -f "$directory/logged.rql" ] || "$binary" "$rows" "$records" --make-log "$directory/logged.rql" >/dev/null
[ -f "$directory/plain.rql" ] || "$binary" "$rows" 0 --make-log "$directory/plain.rql" >/dev/null
for name in logged plain; do
    "$binary" "$rows" 50 --open "$directory/$name.rql"
done
command -v valgrind >/dev/null || exit 0
# The open counted is the one after a first (which sets up what a process sets up once): the
# instructions of 3 opens less those of 1, halved.
symbol='$s6Suites14StoreFileStateC13openAndLookUp4path3keySiSS_s5Int64VtFZTf4nnd_n'
count() {
    valgrind --tool=callgrind --callgrind-out-file="$directory/callgrind.$1.$2" --toggle-collect="$symbol" \
        "$binary" "$rows" "$2" --open "$directory/$1.rql" >/dev/null 2>&1
    callgrind_annotate "$directory/callgrind.$1.$2" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
for name in logged plain; do
    one=$(count $name 1)
    three=$(count $name 3)
    echo "$name: $(( (three - one) / 2 )) instructions an open + lookup (callgrind)"
done
