#!/usr/bin/env python3
"""Durable commits side by side (issue 20): the commit log, the bare sync and SQLite, one run.

    swift build --package-path Benchmarks -c release
    python3 Benchmarks/Scripts/commit_log.py [ROWS] [COMMITS]

Runs Benchmarks/.build/release/rql-storage-latency, then sqlite_storage.py, on the same rows and
disk, one after the other, and prints one table: medians of single-object insert and
one-property update commits, each as a ratio to the bare 4 KiB pwrite + fdatasync measured in
the same run (the commit log's own bare sync rows, taken before and after its commits), bytes
written per update commit with checkpoints amortized, and commits/s of a loop of inserts. Run it
on a quiet machine: every figure is wall clock, and syncs swing with the load. The raw output of
both programs is kept beside the table (`--raw`).
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
rows = args[0] if args else "1000000"
commits = args[1] if len(args) > 1 else "1000"
binary = os.path.join(root, "Benchmarks", ".build", "release", "rql-storage-latency")
if not os.path.exists(binary):
    sys.exit(f"commit_log.py: build the benchmarks first: swift build --package-path Benchmarks -c release")

rql = subprocess.run([binary, rows, commits], capture_output=True, text=True, check=True).stdout
sqlite = subprocess.run(
    [sys.executable, os.path.join(here, "sqlite_storage.py"), rows, commits], capture_output=True, text=True, check=True
).stdout
if "--raw" in sys.argv:
    print(rql)
    print(sqlite)


def find(text, pattern, scale=1.0):
    match = re.search(pattern, text, re.MULTILINE)
    return float(match.group(1)) * scale if match else None


us = 1e-3  # the Swift program prints nanoseconds
bare_runs = [float(m) * us for m in re.findall(r"bare 4 KiB pwrite \+ fdatasync: \S+ commits on \S+ objects: median (\d+)", rql)]
log_insert = find(rql, r"insert one object \(durable, commit log\): .*?median (\d+)", us)
log_update = find(rql, r"update one property \(durable, commit log\): \d+ commits.*?median (\d+)", us)
off_insert = find(rql, r"insert one object \(durable\): .*?median (\d+)", us)
off_update = find(rql, r"update one property \(durable\): \d+ commits.*?median (\d+)", us)
paired_insert = re.search(r"insert one object \(durable, commit log\), paired .*?median (\d+) ns against (\d+) ns", rql)
paired_update = re.search(r"update one property \(durable, commit log\), paired .*?median (\d+) ns against (\d+) ns", rql)
bare_means = [float(m) for m in re.findall(r"bare 4 KiB pwrite \+ fdatasync: \S+ commits on \S+ objects: .*?mean (\d+)", rql)]
log_bytes = find(rql, r"update one property \(durable, commit log\): (\d+) bytes written per commit over a checkpoint cycle")
cycle = find(rql, r"over a checkpoint cycle of (\d+) commits")
update_rate = find(rql, r"the checkpoint included; (\d+) commits/s")
off_bytes = find(rql, r"update one property \(durable\): (\d+) bytes written per commit")
log_rate = find(rql, r"10,000 durable inserts \(commit log\): (\d+) commits/s")
growth = re.search(r"store \+ log after a checkpoint: (\d+) bytes; after 10,000 more commits: (\d+) bytes", rql)
open_1000 = find(rql, r"open \+ first primary-key lookup with 1,000 log records: median (\d+)", us)
open_full = find(rql, r"open \+ first primary-key lookup with \d+ log records \(a full log\): median (\d+)", us)
open_plain = find(rql, r"^open \+ first primary-key lookup: median (\d+)", us)
sqlite_open = find(sqlite, r"sqlite open \+ first primary-key lookup: median (\d+)")
sqlite_insert = find(sqlite, r"sqlite insert one row, synchronous=FULL: median (\d+)")
sqlite_update = find(sqlite, r"sqlite update one row, synchronous=FULL: median (\d+)")
sqlite_bytes = find(sqlite, r"sqlite update one row, synchronous=FULL: (\d+) bytes written")
sqlite_rate = find(sqlite, r"sqlite 10,000 insert commits in a loop, synchronous=FULL: (\d+) commits/s")
sqlite_bare = find(sqlite, r"bare 4 KiB pwrite \+ fdatasync: median (\d+)")


def cell(value, unit="", ratio_to=None):
    if value is None:
        return "—"
    text = f"{value:,.0f}{unit}"
    ratios = ratio_to if isinstance(ratio_to, list) else [ratio_to] if ratio_to else []
    if ratios:
        text += " (" + " / ".join(f"{value / r:.2f}×" for r in ratios) + " bare)"
    return text


print(f"Durable commits, {rows} rows (bare sync rql run: {', '.join(f'{b:.0f} µs' for b in bare_runs)};"
      f" sqlite run: {cell(sqlite_bare, ' µs')})")
print()
print("| measure | commit log | log off | SQLite FULL | target |")
print("| --- | --- | --- | --- | --- |")
print(f"| durable insert, median | {cell(log_insert, ' µs', bare_runs)} | {cell(off_insert, ' µs')} |"
      f" {cell(sqlite_insert, ' µs', sqlite_bare)} | ≤ 1.3× bare, < SQLite |")
print(f"| durable one-property update, median | {cell(log_update, ' µs', bare_runs)} | {cell(off_update, ' µs')} |"
      f" {cell(sqlite_update, ' µs', sqlite_bare)} | ≤ 1.3× bare, < SQLite |")
for label, paired in [("insert", paired_insert), ("one-property update", paired_update)]:
    if paired:
        commit, sync = float(paired.group(1)) * us, float(paired.group(2)) * us
        print(f"| durable {label}, median, taken in turn with a bare sync | {commit:,.0f} µs against {sync:,.0f} µs"
              f" ({commit / sync:.2f}× bare) | — | — | ≤ 1.3× bare |")
print(f"| bytes per update, checkpoints amortized | {cell(log_bytes)} (cycle of {cell(cycle)} commits) |"
      f" {cell(off_bytes)} | {cell(sqlite_bytes)} | ≤ 4 KiB + record |")
print(f"| loop of durable inserts | {cell(log_rate, '/s')} | — | {cell(sqlite_rate, '/s')} | ≥ 8,000/s |")
print(f"| a loop of bare syncs (1 / their mean) | {', '.join(f'{1e9 / m:,.0f}/s' for m in bare_means)} | — | — | — |")
print(f"| loop of durable updates, checkpoint included | {cell(update_rate, '/s')} | — | — | — |")
if growth:
    a, b = int(growth.group(1)), int(growth.group(2))
    print(f"| store + log after 10,000 inserts vs after a checkpoint | {(b - a) / a * 100:+.1f} % | — | — | within 10 % |")
print(f"| open + first lookup: no log / 1,000 records / a full log ({cell(cycle)} records) |"
      f" {cell(open_plain, ' µs')} / {cell(open_1000, ' µs')} / {cell(open_full, ' µs')} | — | {cell(sqlite_open, ' µs')} | < 500 µs |")
