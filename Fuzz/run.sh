#!/usr/bin/env bash
# Builds the fuzz harnesses with libFuzzer + ASan and fuzzes each named harness, one after the
# other, on a scratch copy of its seed corpus.
#
#   Fuzz/run.sh                              # every harness (FuzzParse … FuzzDifferential): 60 s each
#   Fuzz/run.sh FuzzQuery                    # one harness
#   SECONDS_TO_FUZZ=600 Fuzz/run.sh FuzzDataset
#   Fuzz/run.sh FuzzParse -runs=100000       # arguments starting with '-' go to libFuzzer
#
# Harnesses (Sources/<name>/): FuzzParse (query text, both dialects), FuzzQuery (compile and run
# against the demo dataset; bytes laid out as in Sources/FuzzCommon/QueryInput.swift), FuzzDataset
# (JSON dataset load → export → load round trip), FuzzStoreFile (a store file, usually damaged:
# open, read every block, value and index, verify; see Sources/FuzzCommon/StoreFileCheck.swift),
# FuzzCompile (generated schema + query: bind, optimize, codegen, program verifier) and
# FuzzDifferential (generated data + query: VM with all passes, VM with none and the reference
# evaluator agree); both read Sources/FuzzCommon/VMInput.swift's layout.
#
# Exits non-zero if the build fails, a binary is not instrumented, or libFuzzer finds a crash,
# leak, timeout or out-of-memory in any harness (the others still run). Crash artifacts and the
# grown corpora stay in a scratch directory (printed at the end); minimize a crash and add it to
# Fuzz/Regressions/<harness>/ by hand. The regression replay without sanitizers is
# `swift test --package-path Fuzz`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

all_harnesses=(FuzzParse FuzzQuery FuzzDataset FuzzStoreFile FuzzCompile FuzzDifferential)
harnesses=()
fuzzer_arguments=()
for argument in "$@"; do
    case "$argument" in
        -*) fuzzer_arguments+=("$argument") ;;
        *)
            if [[ ! " ${all_harnesses[*]} " == *" $argument "* ]]; then
                echo "run.sh: unknown harness '$argument' (known: ${all_harnesses[*]})" >&2
                exit 2
            fi
            harnesses+=("$argument")
            ;;
    esac
done
[ "${#harnesses[@]}" -eq 0 ] && harnesses=("${all_harnesses[@]}")

# Per harness: the longest input (query text is capped at 2 KB by QueryCheck, plus its header and
# argument bytes; the demo dataset seed is about 9.5 KB; FuzzCompile and FuzzDifferential take a
# header, a seed byte and a short query, which keeps each unit fast) and the dictionaries.
max_len_for() {
    case "$1" in
        FuzzParse) echo 4096 ;;
        FuzzQuery) echo 2052 ;;
        FuzzDataset) echo 12288 ;;
        FuzzStoreFile) echo 32768 ;;
        FuzzCompile | FuzzDifferential) echo 514 ;;
    esac
}
dicts_for() {
    case "$1" in
        FuzzParse) echo Fuzz/Dicts/rql.dict ;;
        FuzzQuery) echo Fuzz/Dicts/rql.dict Fuzz/Dicts/demo-schema.dict ;;
        FuzzDataset) echo Fuzz/Dicts/dataset.dict ;;
        FuzzStoreFile) echo Fuzz/Dicts/store.dict ;;
        FuzzCompile | FuzzDifferential) echo Fuzz/Dicts/rql.dict Fuzz/Dicts/generated-schema.dict ;;
    esac
}

# The only sanitizer recipe that builds deterministically with coverage and ASan on Swift 6.3.1
# (shared/reference/anchor-styles.md §6.2): --sanitize=fuzzer for the entry point, then the
# -Xswiftc pair last so that it wins for every target, including the root package's library.
swift build --package-path Fuzz -c release --sanitize=fuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

for harness in "${harnesses[@]}"; do
    binary="Fuzz/.build/release/$harness"
    # A binary without these symbols "fuzzes" nothing, silently (no coverage, or the empty Swift main).
    instrumented=$(nm "$binary" | grep -cE "__sanitizer_cov_8bit_counters_init|__asan_init|LLVMFuzzerTestOneInput" || true)
    if [ "$instrumented" -lt 3 ]; then
        echo "run.sh: $binary is not instrumented for libFuzzer + ASan ($instrumented of 3 symbol kinds)" >&2
        exit 2
    fi
done

# Swift's backtracer reads the stack in a way ASan reports as a second error; libFuzzer prints
# its own stack trace.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rql-fuzz.XXXXXX")"
echo "run.sh: scratch directory $scratch"
failed=()
summary=()
for harness in "${harnesses[@]}"; do
    work="$scratch/$harness"
    mkdir -p "$work/corpus" "$work/artifacts"
    cp Fuzz/Corpus/"$harness"/* "$work/corpus/"
    # shellcheck disable=SC2046
    cat $(dicts_for "$harness") >"$work/dict"
    log="$work/fuzz.log"
    echo "run.sh: fuzzing $harness for ${SECONDS_TO_FUZZ:-60} s"

    status=0
    # Leaks are checked, except for the objects Fuzz/lsan-suppressions.txt names: ones globals
    # hold for the life of the process that LeakSanitizer cannot see (the file says why).
    LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan-suppressions.txt}" "Fuzz/.build/release/$harness" \
        -max_total_time="${SECONDS_TO_FUZZ:-60}" \
        -max_len="${MAX_LEN:-$(max_len_for "$harness")}" \
        -timeout="${TIMEOUT:-10}" \
        -dict="$work/dict" \
        -artifact_prefix="$work/artifacts/" \
        -print_final_stats=1 \
        ${fuzzer_arguments[@]+"${fuzzer_arguments[@]}"} \
        "$work/corpus" 2>&1 | tee "$log" || status=$?

    executions=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
    final=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
    summary+=("$harness: executions $executions; final ${final:-none}; corpus $(ls "$work/corpus" | wc -l) files")
    if [ "$status" -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
        echo "run.sh: $harness FAILED (libFuzzer exit $status); artifacts:" >&2
        ls -l "$work/artifacts" >&2
        failed+=("$harness")
    fi
done

echo "run.sh: scratch directory $scratch"
for line in "${summary[@]}"; do echo "run.sh: $line"; done
if [ "${#failed[@]}" -ne 0 ]; then
    echo "run.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "run.sh: no crash"
