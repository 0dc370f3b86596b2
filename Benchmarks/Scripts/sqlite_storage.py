#!/usr/bin/env python3
"""SQLite doing the storage suite's work, for comparison in the same run (Python's sqlite3, WAL).

    python3 Benchmarks/Scripts/sqlite_storage.py [ROWS] [COMMITS]

Rows have the benchmark schema (id primary key, age, score, name, city, active, nickname?) with
values of the same shapes as BenchmarkDataset (not the same values: the generator is Swift's).
Prints: bulk insert in one transaction (rows/s), file size, open + first primary-key lookup,
single-row insert and update commits with synchronous=FULL (median, p99), bytes written per
update commit (its automatic WAL checkpoints included), a loop of 10,000 insert commits
(commits/s), and a bare 4 KiB pwrite + fdatasync on the same disk.
"""
import os
import random
import sqlite3
import sys
import tempfile
import time

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
commits = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
directory = tempfile.mkdtemp(prefix="rql-sqlite-")
path = os.path.join(directory, "bench.sqlite")
rng = random.Random(42)
syllables = ["Ma", "an", "ka", "ri", "to", "lo", "na", "se", "di", "Jo", "el", "ya"]


def name():
    return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))


data = [
    (
        i,
        rng.randrange(100),
        rng.random(),
        name(),
        f"City{rng.randrange(100)}",
        rng.random() < 0.5,
        None if rng.random() < 0.3 else f"nick{rng.randrange(100000)}",
    )
    for i in range(rows)
]


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute(
    "CREATE TABLE person (id INTEGER PRIMARY KEY, age INTEGER, score REAL, name TEXT, city TEXT,"
    " active INTEGER, nickname TEXT)"
)
start = time.perf_counter()
db.execute("BEGIN")
db.executemany("INSERT INTO person VALUES (?, ?, ?, ?, ?, ?, ?)", data)
db.execute("COMMIT")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
bulk = time.perf_counter() - start
print(f"sqlite bulk insert of {rows} rows, one transaction: {bulk * 1e3:.0f} ms ({rows / bulk / 1e6:.2f} M rows/s)")
print(f"sqlite file size: {os.path.getsize(path)} bytes")
db.close()

opens = []
for k in range(50):
    start = time.perf_counter()
    other = sqlite3.connect(path)
    other.execute("SELECT age FROM person WHERE id = ?", ((k * 7919) % rows,)).fetchone()
    opens.append(time.perf_counter() - start)
    other.close()
print(f"sqlite open + first primary-key lookup: median {percentile(opens, 50) * 1e6:.0f} us")

db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA synchronous=FULL")
for label, statement in [
    ("insert", lambda i: db.execute("INSERT INTO person VALUES (?, 1, 0.5, 'Newname', 'City7', 1, NULL)", (rows + i,))),
    ("update", lambda i: db.execute("UPDATE person SET age = ? WHERE id = ?", (i % 100, rng.randrange(rows)))),
]:
    samples = []
    for i in range(commits):
        start = time.perf_counter()
        db.execute("BEGIN")
        statement(i)
        db.execute("COMMIT")
        samples.append(time.perf_counter() - start)
    print(
        f"sqlite {label} one row, synchronous=FULL: median {percentile(samples, 50) * 1e6:.0f} us,"
        f" p99 {percentile(samples, 99) * 1e6:.0f} us"
    )

def bytes_written():
    """Bytes this process handed to write calls (wchar of /proc/self/io)."""
    with open("/proc/self/io") as io:
        for line in io:
            if line.startswith("wchar:"):
                return int(line.split()[1])
    return 0


# Enough updates for several automatic checkpoints (every 1,000 WAL pages).
count = max(commits, 20_000)
before = bytes_written()
for i in range(count):
    db.execute("BEGIN")
    db.execute("UPDATE person SET age = ? WHERE id = ?", (i % 100, rng.randrange(rows)))
    db.execute("COMMIT")
print(f"sqlite update one row, synchronous=FULL: {(bytes_written() - before) // count} bytes written per commit over {count} commits")
start = time.perf_counter()
for i in range(10_000):
    db.execute("BEGIN")
    db.execute("INSERT INTO person VALUES (?, 1, 0.5, 'Newname', 'City7', 1, NULL)", (rows + commits + i,))
    db.execute("COMMIT")
print(f"sqlite 10,000 insert commits in a loop, synchronous=FULL: {10_000 / (time.perf_counter() - start):.0f} commits/s")
db.close()

fd = os.open(os.path.join(directory, "sync.bin"), os.O_RDWR | os.O_CREAT, 0o644)
block = os.urandom(4096)
samples = []
for i in range(200):
    start = time.perf_counter()
    os.pwrite(fd, block, 0)
    os.fdatasync(fd)
    samples.append(time.perf_counter() - start)
os.close(fd)
print(f"bare 4 KiB pwrite + fdatasync: median {percentile(samples, 50) * 1e6:.0f} us")
for name_ in os.listdir(directory):
    os.remove(os.path.join(directory, name_))
os.rmdir(directory)
