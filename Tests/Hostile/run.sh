#!/usr/bin/env bash
# Runs rqlc over every hostile input in this directory, each under a time limit, and fails on
# any signal, any "Fatal error" or crash banner, any exit code other than 0, 1 or 2, any case
# over its limit, and any expectation below that does not hold.
#
#   Tests/Hostile/run.sh .build/debug/rqlc
#   LIMIT=20 Tests/Hostile/run.sh .build/release/rqlc     # seconds per invocation (default 10)
#
# What is run (see README.md):
#   queries/*.rql     check, run --count (on the demo, --class Dog) and format, each with
#                     --query-file. check and run must exit alike; bad-* must exit 1, ok-* 0.
#   datasets/*.json   run --count TRUEPREDICATE and check (--class Dog, --data FILE). For run,
#                     bad-* must exit 1, ok-* 0, others 0 or 1.
#   arguments/*.json  run --count and check with --arg "$(cat FILE)" on `companion == $0`
#                     (`companion IN $0` for an array). Alike; bad-* 1, ok-* 0.
#   cases/*.sh        bash scripts that drive rqlc through the environment (closed or full
#                     outputs, pipes, FIFOs, directories, huge inputs), with RQLC, HOSTILE and
#                     WORK set; each states `# expect: N`, the exit code it must end with.
# Output of the file-driven runs must not hold raw control characters (other than tab and
# newline): everything echoed to a terminal is escaped.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/rqlc" >&2
    exit 2
fi
RQLC="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HOSTILE="$(cd "$(dirname "$0")" && pwd)"
LIMIT="${LIMIT:-10}"
export RQLC HOSTILE
# A crash should print its message, not spend seconds symbolicating a backtrace.
export SWIFT_BACKTRACE=enable=no

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rql-hostile.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
failures=0
cases=0

fail() {
    failures=$((failures + 1))
    echo "FAIL $*"
}

# Runs one invocation under the limit; sets `status`, leaves output in $scratch/out, $scratch/err.
invoke() {
    timeout --signal=KILL "$LIMIT" "$@" >"$scratch/out" 2>"$scratch/err"
    status=$?
}

# The checks every invocation must pass; $1 names it in messages.
check_common() {
    local name="$1"
    cases=$((cases + 1))
    if [ "$status" -eq 137 ] || [ "$status" -eq 124 ]; then
        fail "$name: over the ${LIMIT} s limit"
        return 1
    fi
    if [ "$status" -gt 2 ]; then
        fail "$name: exit code $status (a signal or a crash)"
        head -c 2000 "$scratch/err"
        return 1
    fi
    if grep -aqE "Fatal error|Program crashed|Stack dump|Backtrace" "$scratch/out" "$scratch/err"; then
        fail "$name: a crash report in the output"
        head -c 2000 "$scratch/err"
        return 1
    fi
    return 0
}

# No raw control characters other than tab and newline in what rqlc printed.
check_escaped() {
    local name="$1" file
    for file in "$scratch/out" "$scratch/err"; do
        if [ "$(LC_ALL=C tr -d '\000-\010\013-\037\177' <"$file" | wc -c)" != "$(wc -c <"$file")" ]; then
            fail "$name: raw control characters in $(basename "$file")"
        fi
    done
}

# $1 file name, $2 the exit code found; bad-* wants 1, ok-* wants 0.
check_prefix() {
    local name="$1" file="$2" found="$3"
    case "$(basename "$file")" in
        bad-*) [ "$found" -eq 1 ] || fail "$name: exit $found, expected 1" ;;
        ok-*) [ "$found" -eq 0 ] || { fail "$name: exit $found, expected 0"; head -c 500 "$scratch/err"; } ;;
        *) [ "$found" -le 1 ] || fail "$name: exit $found, expected 0 or 1" ;;
    esac
}

for file in "$HOSTILE"/queries/*.rql; do
    name="queries/$(basename "$file")"
    invoke "$RQLC" check --class Dog --query-file "$file"
    check_common "$name (check)" && check_escaped "$name (check)"
    check_status=$status
    invoke "$RQLC" run --class Dog --count --query-file "$file"
    check_common "$name (run)" && check_escaped "$name (run)"
    [ "$status" -eq "$check_status" ] || fail "$name: run exits $status but check $check_status"
    check_prefix "$name" "$file" "$status"
    invoke "$RQLC" format --query-file "$file"
    check_common "$name (format)" && check_escaped "$name (format)"
    [ "$status" -le 1 ] || fail "$name (format): exit $status"
done

for file in "$HOSTILE"/datasets/*.json; do
    name="datasets/$(basename "$file")"
    invoke "$RQLC" run --class Dog --data "$file" --count TRUEPREDICATE
    check_common "$name (run)" && check_escaped "$name (run)"
    check_prefix "$name" "$file" "$status"
    invoke "$RQLC" check --class Dog --data "$file" TRUEPREDICATE
    check_common "$name (check)" && check_escaped "$name (check)"
    [ "$status" -le 1 ] || fail "$name (check): exit $status"
done

for file in "$HOSTILE"/arguments/*.json; do
    name="arguments/$(basename "$file")"
    argument="$(cat "$file")"
    query='companion == $0'
    [[ "$argument" == "["* ]] && query='companion IN $0'
    invoke "$RQLC" run --class Dog --count --arg "$argument" "$query"
    check_common "$name (run)" && check_escaped "$name (run)"
    run_status=$status
    check_prefix "$name" "$file" "$status"
    invoke "$RQLC" check --class Dog --arg "$argument" "$query"
    check_common "$name (check)" && check_escaped "$name (check)"
    [ "$status" -eq "$run_status" ] || fail "$name: check exits $status but run $run_status"
done

for file in "$HOSTILE"/cases/*.sh; do
    name="cases/$(basename "$file")"
    expected=$(sed -nE 's/^# expect: ([0-9]+)$/\1/p' "$file" | head -n 1)
    if [ -z "$expected" ]; then
        fail "$name: no '# expect: N' line"
        continue
    fi
    WORK="$scratch/work-$(basename "$file" .sh)"
    mkdir -p "$WORK"
    export WORK
    invoke bash "$file"
    cases=$((cases + 1))
    if [ "$status" -eq 137 ] || [ "$status" -eq 124 ]; then
        fail "$name: over the ${LIMIT} s limit"
        continue
    fi
    if grep -aqE "Fatal error|Program crashed|Stack dump|Backtrace" "$scratch/out" "$scratch/err"; then
        fail "$name: a crash report in the output"
        head -c 2000 "$scratch/out" "$scratch/err"
        continue
    fi
    [ "$status" -eq "$expected" ] || {
        fail "$name: exit $status, expected $expected"
        head -c 1000 "$scratch/out" "$scratch/err"
    }
done

echo "hostile inputs: $cases runs, $failures failed"
[ "$failures" -eq 0 ]
