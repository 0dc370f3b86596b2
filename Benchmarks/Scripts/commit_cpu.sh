#!/bin/sh
# The CPU of one durable logged commit (issue 20: a single-object insert and a one-property
# update within 1.3x a bare sync), counted in instructions by callgrind: repeatable under load,
# the figure to compare between builds (the wall clock is `commit_log.py`'s, on a quiet machine).
#
#     swift build --package-path Benchmarks -c release --product rql-storage-latency
#     sh Benchmarks/Scripts/commit_cpu.sh [ROWS] [COMMITS]
#
# Runs `rql-storage-latency ROWS N --loop insert|update` (ROWS objects in a file, default
# 100,000, then N commits of one kind) under callgrind, counting only the commits (the
# benchmark's `commitInsert` / `commitUpdate`, its own building of the values included), at
# N = 200 and N = 200 + COMMITS (default 2,000), and prints the difference over COMMITS: the
# first commits, which open the log and read the blocks they touch first, are left out.
set -e
rows=${1:-100000}
commits=${2:-2000}
here=$(cd "$(dirname "$0")" && pwd)
binary="$here/../.build/release/rql-storage-latency"
[ -x "$binary" ] || { echo "commit_cpu.sh: build the benchmarks first (see the comment at the top)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "commit_cpu.sh: valgrind is not installed" >&2; exit 1; }
directory=$(mktemp -d /tmp/rql-commit-cpu.XXXXXX)
trap 'rm -rf "$directory"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$directory/callgrind.$1.$2" --toggle-collect="$3" \
        "$binary" "$rows" "$2" --loop "$1" >/dev/null 2>&1
    callgrind_annotate "$directory/callgrind.$1.$2" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
for kind in insert update; do
    if [ "$kind" = insert ]; then symbol='*StorageStateC12commitInsert4into*'; else symbol='*StorageStateC12commitUpdate2in*'; fi
    few=$(count $kind 200 "$symbol")
    many=$(count $kind $((200 + commits)) "$symbol")
    echo "$kind: $(( (many - few) / commits )) instructions a commit (callgrind, $rows objects, $commits commits)"
done
