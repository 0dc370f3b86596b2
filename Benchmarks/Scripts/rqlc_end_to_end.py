#!/usr/bin/env python3
"""Whole `rqlc` processes on the benchmark dataset's store file, and the `sqlite3` shell on the
same rows, for comparison in the same run.

    swift build -c release --product rqlc --static-swift-stdlib
    python3 Benchmarks/Scripts/rqlc_end_to_end.py [--rqlc .build/release/rqlc] [--rows 1000000]
                                                   [--runs 7] [--work DIR] [--json]

Writes the dataset of spec/bench-dataset.md as JSON (`bench_dataset.py`, the contract's
generator), builds the store file with `rqlc import`, then times each command as a whole process
(process start included): the median wall time over `--runs` runs after one warm-up, and the
peak resident set size (getrusage of the child, `ru_maxrss`). Every query's answer is checked
against the contract's counts before it is timed (at 1,000,000 rows, seed 42).

`--import-baseline OTHER_RQLC` times another build's import in the same run, and `--baseline
OTHER_RQLC` another build's Q1-Q12 (before/after on the same load). `--instructions` also counts
each query process's instructions once under `valgrind --tool=callgrind` (repeatable on a loaded
machine), for both builds with `--baseline`; with the answer's key count it gives the
instructions a printed key costs between the two. `--static-swift-stdlib` links the Swift runtime and Foundation into the executable:
dynamically linked, the loader's symbol look-ups for them are most of a process start (see
`Results/2026-12-06-rqlc-file-speed.md`).

Q1-Q12 are also printed beside the library's execute time of the same query in the same run
(`rql-bench --filter vm/Q --json`: the VM on an in-memory store of the same rows, producing the
row keys, Q9 the count; `--rql-bench`, built with `swift build -c release --package-path
Benchmarks --product rql-bench`; `--no-library` skips it) and the ratio `(rqlc - start) /
execute`, against issue 17's target `rqlc <= 2 x execute + start`. rqlc writes every matching
key (`--format keys`, to /dev/null): the library's run produces the same keys, so both sides do
the same work except printing; Q9 counts on both sides.

Commands: `rqlc --version` (process start), `rqlc run --data STORE --class Person --count
"age > 90"`, Q1-Q12 (`--format keys` to /dev/null; Q9 `--count`), `rqlc info`, `rqlc export`
(to /dev/null), `rqlc import` (a fresh store each run), and `sqlite3 FILE "SELECT count(*) ...
WHERE age > 90"` on a table of the same rows (the `sqlite3` command-line shell, not Python's
module, so both sides pay a process start). The machine may be shared: the load average is
printed beside the figures.
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_dataset  # noqa: E402

QUERIES = [
    ("Q1", "age > 90", 89805),
    ("Q2", "age >= 20 AND age < 30 AND active == true", 49951),
    ("Q3", "name BEGINSWITH 'Ma'", 31126),
    ("Q4", "name CONTAINS[c] 'an'", 118825),
    ("Q5", "city == 'City42'", 9927),
    ("Q6", "id == 123456", 1),
    ("Q7", "score > 0.5 AND (age < 10 OR city IN {'City1', 'City2', 'City3'})", 63310),
    ("Q8", "nickname == nil", 299652),
    ("Q9", "age > 90", 89805),
    ("Q10", "age > 50 SORT(score DESC) LIMIT(10)", 10),
    ("Q11", "name LIKE '*an?a*'", 5299),
    ("Q12", "age BETWEEN {30, 40} AND nickname BEGINSWITH 'nick1'", 8578),
]
Q10_IDS = [441557, 118116, 78730, 542009, 307139, 208463, 968356, 94483, 763123, 810053]


def measure(command, stdout=subprocess.DEVNULL):
    """Runs `command` once: (wall seconds, peak RSS in bytes, stdout bytes or None). The peak
    RSS is GNU time's (`/usr/bin/time -f %M`): getrusage of a child of this Python process
    would count the parent's resident memory at the fork as the child's high-water mark."""
    capture = stdout == subprocess.PIPE
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command, stdout=stdout,
                                 stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if process.returncode != 0:
            sys.exit(f"{' '.join(command)}: exit {process.returncode}: {process.stderr.decode(errors='replace')}")
        peak = int(report.read().split()[-1]) * 1024
    return wall, peak, process.stdout if capture else None


def timed(label, command, runs, prepare=None):
    """Median wall time and the largest peak RSS over `runs` runs after one warm-up."""
    walls, peaks = [], []
    for run in range(runs + 1):
        if prepare:
            prepare()
        wall, peak, _ = measure(command)
        if run > 0:
            walls.append(wall)
            peaks.append(peak)
    return {"label": label, "median_ms": statistics.median(walls) * 1e3, "min_ms": min(walls) * 1e3,
            "peak_rss_mb": max(peaks) / 1e6, "runs": runs}


def instructions(command):
    """The instructions `command` executes, counted once by callgrind."""
    process = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr.decode(errors="replace").splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    sys.exit(f"{' '.join(command)}: callgrind counted nothing: {process.stderr.decode(errors='replace')}")


def library_execute_ms(options):
    """The library's median execute time of each of Q1-Q12 in milliseconds, from `rql-bench
    --filter vm/Q --json` (the store without indexes), or {} when the runner is not built."""
    bench = os.path.abspath(options.rql_bench)
    if not os.path.exists(bench):
        print(f"no {bench}: the library's execute times are left out (build it with `swift build -c release "
              "--package-path Benchmarks --product rql-bench`)", file=sys.stderr)
        return {}
    command = [bench, "--json", "--filter", "vm/Q", "--rows", str(options.rows)]
    if options.only:
        command[3] = f"vm/{options.only}" if options.only.startswith("Q") else "vm/Q"
    output = subprocess.run(command, stdout=subprocess.PIPE, check=True).stdout.decode()
    times = {}
    for line in output.splitlines():
        entry = json.loads(line)
        if entry.get("suite") == "vm" and not entry.get("indexed"):
            times[entry["query"]] = entry["execute_ns"] / 1e6
    return times


def store_import(rqlc, store, work, runs, baseline=None):
    """`rqlc import STORE NEW`: the benchmark store copied into a new store file (the source read
    in place, block by block), and with `baseline` the same by another binary in the same run."""
    target = os.path.join(work, "store-import-scratch.rql")

    def fresh():
        for path in (target, target + ".lock", target + ".log"):
            if os.path.exists(path):
                os.remove(path)

    binaries = [("rqlc import STORE (into a new store)", rqlc)]
    if baseline:
        binaries.append(("baseline rqlc import STORE", os.path.abspath(baseline)))
    results = [timed(label, [binary, "import", store, target], runs, prepare=fresh) for label, binary in binaries]
    fresh()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rqlc", default=".build/release/rqlc")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--import-runs", type=int, default=3)
    parser.add_argument("--work", help="directory for the dataset and stores (kept); default a fresh temporary one")
    parser.add_argument("--only", help="only labels containing this text")
    parser.add_argument("--skip-import", action="store_true", help="do not time import (it takes seconds a run)")
    parser.add_argument("--import-baseline", help="another rqlc binary whose import is timed in the same run, "
                        "for a before/after on the same load")
    parser.add_argument("--baseline", help="another rqlc binary whose Q1-Q12 run in the same run, for a before/after "
                        "on the same load")
    parser.add_argument("--instructions", action="store_true",
                        help="count each query process's instructions with callgrind (needs valgrind)")
    parser.add_argument("--store-import", action="store_true",
                        help="also time importing the store file into a new one (store to store)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--rql-bench", default=os.path.join(HERE, "..", ".build", "release", "rql-bench"),
                        help="the benchmark runner whose vm/ suite gives the library's execute times")
    parser.add_argument("--no-library", action="store_true", help="do not run the library's vm/ suite")
    options = parser.parse_args()
    rqlc = os.path.abspath(options.rqlc)
    work = options.work or tempfile.mkdtemp(prefix="rqlc-e2e-")
    os.makedirs(work, exist_ok=True)
    dataset = os.path.join(work, f"people-{options.rows}.json")
    store = os.path.join(work, f"people-{options.rows}.rql")
    if not os.path.exists(dataset):
        with open(dataset + ".part", "w") as out:
            subprocess.run([sys.executable, os.path.join(HERE, "bench_dataset.py"), str(options.rows)], stdout=out,
                           check=True)
        os.rename(dataset + ".part", dataset)
    scratch = os.path.join(work, "import-scratch.rql")

    def fresh_scratch():
        for path in (scratch, scratch + ".lock"):
            if os.path.exists(path):
                os.remove(path)

    results = []

    def wanted(label):
        return not options.only or options.only in label

    if not os.path.exists(store):
        subprocess.run([rqlc, "import", dataset, store], check=True, stdout=subprocess.DEVNULL)
    if wanted("import") and not options.skip_import:
        results.append(timed("rqlc import (128 MB JSON at 1M rows)", [rqlc, "import", dataset, scratch],
                             options.import_runs, prepare=fresh_scratch))
        fresh_scratch()
        if options.import_baseline:
            baseline = os.path.abspath(options.import_baseline)
            results.append(timed("baseline rqlc import (same JSON)", [baseline, "import", dataset, scratch],
                                 options.import_runs, prepare=fresh_scratch))
            fresh_scratch()
    if options.store_import and wanted("import"):
        results += store_import(rqlc, store, work, options.import_runs, options.import_baseline)
    checks = options.rows == 1_000_000
    start_ms = None
    needs_library = not options.no_library and any(wanted(name) for name, _, _ in QUERIES)
    if wanted("start") or needs_library:
        results.append(timed("rqlc --version (process start)", [rqlc, "--version"], options.runs))
        start_ms = results[-1]["median_ms"]
    count = [rqlc, "run", "--data", store, "--class", "Person", "--count", "age > 90"]
    if wanted("count"):
        _, _, output = measure(count, stdout=subprocess.PIPE)
        if checks and output != b"89805\n":
            sys.exit(f"the count of age > 90 is {output!r}, the contract says 89805")
        results.append(timed('rqlc run --count "age > 90"', count, options.runs))
    for name, query, expected in QUERIES:
        if not wanted(name):
            continue
        command = [rqlc, "run", "--data", store, "--class", "Person"]
        command += ["--count", query] if name == "Q9" else ["--format", "keys", query]
        _, _, output = measure(command, stdout=subprocess.PIPE)
        lines = output.split()
        found = int(lines[0]) if name == "Q9" else len(lines)
        if checks and found != expected:
            sys.exit(f"{name}: {found} results, the contract says {expected}")
        if checks and name == "Q10" and [int(line) for line in lines] != Q10_IDS:
            sys.exit(f"Q10: ids {lines}, the contract says {Q10_IDS}")
        result = dict(timed(f"rqlc run {name}", command, options.runs), query=name, keys=found)
        if options.instructions:
            result["instructions"] = instructions(command)
        if options.baseline:
            before = [os.path.abspath(options.baseline)] + command[1:]
            _, _, expected_output = measure(before, stdout=subprocess.PIPE)
            if expected_output != output:
                sys.exit(f"{name}: the baseline prints different output")
            baseline = timed(f"baseline {name}", before, options.runs)
            result["baseline_ms"] = baseline["median_ms"]
            if options.instructions:
                result["baseline_instructions"] = instructions(before)
        results.append(result)
    library = library_execute_ms(options) if needs_library else {}
    for result in results:
        query = result.get("query")
        if query in library and start_ms is not None:
            result["library_execute_ms"] = library[query]
            result["ratio"] = (result["median_ms"] - start_ms) / library[query]
            result["target_met"] = result["median_ms"] <= 2 * library[query] + start_ms
    if wanted("info"):
        results.append(timed("rqlc info", [rqlc, "info", store], options.runs))
    if wanted("export"):
        results.append(timed("rqlc export (to /dev/null)", [rqlc, "export", store], max(3, options.runs // 2)))
    if wanted("sqlite") and shutil.which("sqlite3"):
        database = os.path.join(work, f"people-{options.rows}.sqlite")
        if not os.path.exists(database):
            connection = sqlite3.connect(database + ".part")
            connection.execute(
                "CREATE TABLE person (id INTEGER PRIMARY KEY, age INTEGER, score REAL, name TEXT, city TEXT,"
                " active INTEGER, nickname TEXT)")
            rows = (json.loads(text) for text in bench_dataset.rows(options.rows, 42))
            connection.executemany(
                "INSERT INTO person VALUES (?, ?, ?, ?, ?, ?, ?)",
                ((r["id"], r["age"], r["score"], r["name"], r["city"], r["active"], r["nickname"]) for r in rows))
            connection.commit()
            connection.close()
            os.rename(database + ".part", database)
        sql = ["sqlite3", database, "SELECT count(*) FROM person WHERE age > 90"]
        _, _, output = measure(sql, stdout=subprocess.PIPE)
        if checks and output.strip() != b"89805":
            sys.exit(f"sqlite3 counts {output!r}")
        results.append(timed('sqlite3 shell: count "age > 90"', sql, options.runs))

    load = os.getloadavg()
    if options.json:
        for result in results:
            print(json.dumps(dict(result, rows=options.rows, load=load[0])))
        return
    print(f"rows: {options.rows}; store: {os.path.getsize(store)} bytes; load average {load[0]:.1f} {load[1]:.1f}")
    print(f"{'command':<44} {'median ms':>10} {'min ms':>9} {'peak RSS MB':>12} {'library ms':>11} "
          f"{'ratio':>6} {'≤ 2x + start':>12}")
    for result in results:
        line = (f"{result['label']:<44} {result['median_ms']:>10.1f} {result['min_ms']:>9.1f} "
                f"{result['peak_rss_mb']:>12.1f}")
        if "library_execute_ms" in result:
            line += (f" {result['library_execute_ms']:>11.2f} {result['ratio']:>6.1f} "
                     f"{'yes' if result['target_met'] else 'no':>12}")
        print(line)
    for result in results:
        if "baseline_ms" in result or "instructions" in result:
            line = f"  {result['query']}: {result['keys']} keys"
            if "baseline_ms" in result:
                line += f"; baseline {result['baseline_ms']:.1f} ms, this {result['median_ms']:.1f} ms"
            if "instructions" in result:
                line += f"; {result['instructions']:,} instructions"
            if "baseline_instructions" in result:
                saved = result["baseline_instructions"] - result["instructions"]
                line += f" against {result['baseline_instructions']:,}"
                if result["keys"] and result["query"] != "Q9":
                    line += f" ({saved / result['keys']:,.0f} fewer a key)"
            print(line)
    if any("library_execute_ms" in result for result in results):
        print("library ms: the VM's execute time (rql-bench vm/, in memory, median); ratio: (rqlc - start) / "
              "library")


if __name__ == "__main__":
    main()
