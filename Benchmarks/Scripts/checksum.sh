#!/bin/sh
# The checksum a store file verifies blocks with (FileChecksum): its speed alone, then what it
# costs `rqlc run` on Q1 (`age > 90`, 1M objects) in a file of each format.
#
#     swift build -c release --product rqlc --static-swift-stdlib
#     sh Benchmarks/Scripts/checksum.sh [OLD_STORE] [JSON] [DIRECTORY]   (RQLC=path: another rqlc)
#
# 1. GB/s of `twoChains` (formats 3-4) and `fourLanes` (format 5) over 16 MB: FileChecksum.swift
#    compiled with -O beside checksum_micro.swift (best and median of 21; load dependent).
# 2. OLD_STORE (default /work/e2e/people-1000000.rql, a file of format 4) and a store of format
#    5 imported from JSON (default /work/e2e/people-1000000.json) into DIRECTORY (default a new
#    one under /tmp, removed after), each queried by the same rqlc: the instructions of the
#    process and of the checksum (callgrind, repeatable under load), when valgrind is there.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
old=${1:-/work/e2e/people-1000000.rql}
json=${2:-/work/e2e/people-1000000.json}
directory=${3:-}
if [ -z "$directory" ]; then
    directory=$(mktemp -d /tmp/rql-checksum.XXXXXX)
    trap 'rm -rf "$directory"' EXIT
fi
sed '/^extension StoreFile/,$d' "$root/Sources/RQLStorage/File/FileChecksum.swift" > "$directory/FileChecksum.swift"
cp "$here/checksum_micro.swift" "$directory/main.swift"
swiftc -O "$directory/FileChecksum.swift" "$directory/main.swift" -o "$directory/checksum-micro"
"$directory/checksum-micro"
rqlc=${RQLC:-"$root/.build/release/rqlc"}
[ -x "$rqlc" ] || { echo "checksum.sh: build rqlc first (see the comment at the top)" >&2; exit 1; }
[ -f "$directory/new.rql" ] || "$rqlc" import "$json" "$directory/new.rql" >/dev/null
command -v valgrind >/dev/null || exit 0
for store in "$old" "$directory/new.rql"; do
    out="$directory/callgrind.$(basename "$store")"
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$rqlc" run --data "$store" --class Person --format keys "age > 90" >/dev/null 2>&1
    total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
    checksum=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null \
        | awk '/FileChecksum.*(twoChains|fourLanes)/ { gsub(",", "", $1); print $1; exit }')
    echo "$store: format $(od -An -tu4 -j8 -N4 "$store" | tr -d ' '), $total instructions, checksum ${checksum:-0}"
done
