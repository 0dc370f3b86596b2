#!/usr/bin/env bash
# Builds the FuzzParse harness with libFuzzer + ASan and fuzzes a scratch copy of the seed corpus.
#
#   Fuzz/run.sh                         # 60 s
#   SECONDS_TO_FUZZ=600 Fuzz/run.sh     # longer
#   Fuzz/run.sh -runs=100000            # extra arguments go to libFuzzer
#
# Exits non-zero if the build fails, the binary is not instrumented, or libFuzzer finds a crash,
# leak, timeout or out-of-memory. Crash artifacts and the grown corpus stay in a scratch directory
# (printed at the end); minimize a crash and add it to Fuzz/Regressions/FuzzParse/ by hand.
# The regression replay without sanitizers is `swift test --package-path Fuzz`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The only sanitizer recipe that builds deterministically with coverage and ASan on Swift 6.3.1
# (shared/reference/anchor-styles.md §6.2): --sanitize=fuzzer for the entry point, then the
# -Xswiftc pair last so that it wins for every target, including the root package's library.
swift build --package-path Fuzz -c release --sanitize=fuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

binary=Fuzz/.build/release/FuzzParse
# A binary without these symbols "fuzzes" nothing, silently (no coverage, or the empty Swift main).
instrumented=$(nm "$binary" | grep -cE "__sanitizer_cov_8bit_counters_init|__asan_init|LLVMFuzzerTestOneInput" || true)
if [ "$instrumented" -lt 3 ]; then
    echo "run.sh: $binary is not instrumented for libFuzzer + ASan ($instrumented of 3 symbol kinds)" >&2
    exit 2
fi

# Swift's backtracer reads the stack in a way ASan reports as a second error; libFuzzer prints
# its own stack trace.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rql-fuzzparse.XXXXXX")"
mkdir -p "$scratch/corpus" "$scratch/artifacts"
cp Fuzz/Corpus/FuzzParse/* "$scratch/corpus/"
log="$scratch/fuzz.log"
echo "run.sh: scratch directory $scratch"

status=0
"$binary" \
    -max_total_time="${SECONDS_TO_FUZZ:-60}" \
    -max_len="${MAX_LEN:-4096}" \
    -timeout="${TIMEOUT:-10}" \
    -dict=Fuzz/Dicts/rql.dict \
    -artifact_prefix="$scratch/artifacts/" \
    -print_final_stats=1 \
    "$@" \
    "$scratch/corpus" 2>&1 | tee "$log" || status=$?

executions=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
final=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
echo "run.sh: executions: $executions"
echo "run.sh: final: ${final:-none}"
echo "run.sh: corpus: $(ls "$scratch/corpus" | wc -l) files in $scratch/corpus"
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$scratch/artifacts")" ]; then
    echo "run.sh: FAILED (libFuzzer exit $status); artifacts:" >&2
    ls -l "$scratch/artifacts" >&2
    exit "$(( status == 0 ? 1 : status ))"
fi
echo "run.sh: no crash"
