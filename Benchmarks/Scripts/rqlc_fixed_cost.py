#!/usr/bin/env python3
"""What one `rqlc` process costs besides the query's own work: process start (`--version`),
a one-key query (Q6, `id == 123456`: the library answers it in microseconds), the count of
`age > 90` (one column of the 1M-object store scanned) and Q1 (its keys too), each as a whole
process.

Per command, the median over runs of the process's CPU time (user + system, from `wait4`, so a
loaded machine inflates it far less than wall time), its minor page faults and its peak RSS;
with `--instructions`, callgrind's instruction count (repeatable to a few hundred). With
`--baseline`, another binary runs the same commands, alternating with this one.

The page cache decides how the store's pages map, and the first process to read a page decides
its folio: `--cache own` (the default) gives each binary a copy of its own, drops its cached
pages (`POSIX_FADV_DONTNEED`) and lets that binary's first run read them back, as happens to a
store only `rqlc` reads; `--cache small` and `--cache large` share one copy, dropped and read
back by the first run (`small`), or read whole first as `cat` does (`large`); `--cache warm`
shares the copy as written.

    python3 Benchmarks/Scripts/rqlc_fixed_cost.py --rqlc .build/release/rqlc \\
        --store /work/e2e/people-1000000.rql --baseline /tmp/rqlc-main --instructions

The store is copied into a temporary directory first: dropping a file's cached pages must not
disturb anyone else reading the original.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

COMMANDS = [
    ("start", ["--version"], None),
    ("Q6 id == 123456", ["run", "--data", "{store}", "--class", "Person", "--format", "keys", "id == 123456"],
     b"123456\n"),
    ("count age > 90", ["run", "--data", "{store}", "--class", "Person", "--count", "age > 90"], b"89805\n"),
    ("Q1 age > 90", ["run", "--data", "{store}", "--class", "Person", "--format", "keys", "age > 90"], None),
]


def run_once(command):
    """CPU ms, minor faults, peak RSS MB and standard output of one process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.dup2(write, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execv(command[0], command)
    os.close(write)
    output = b""
    while True:
        chunk = os.read(read, 65536)
        if not chunk:
            break
        output += chunk
    os.close(read)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(command)} failed ({status})")
    return (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_minflt, usage.ru_maxrss / 1024, output


def instructions(command):
    process = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    for line in process.stderr.decode().splitlines():
        if "refs:" in line:
            return int(line.split("refs:")[1].strip().replace(",", ""))
    return None


def drop_cache(path, read_whole):
    with open(path, "rb") as file:
        os.posix_fadvise(file.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        if read_whole:
            while file.read(4 << 20):
                pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rqlc", required=True)
    parser.add_argument("--baseline", help="another rqlc binary, run alternately with --rqlc")
    parser.add_argument("--store", default="/work/e2e/people-1000000.rql", help="the 1M-object store (copied)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="also count instructions (needs valgrind)")
    parser.add_argument("--cache", choices=["own", "warm", "small", "large"], default="own",
                        help="the store copy's page cache before the runs (see above)")
    options = parser.parse_args()
    binaries = [("this", os.path.abspath(options.rqlc))]
    if options.baseline:
        binaries.append(("baseline", os.path.abspath(options.baseline)))
    with tempfile.TemporaryDirectory() as work:
        stores = {}
        for name, _ in binaries:
            if options.cache != "own" and stores:
                stores[name] = next(iter(stores.values()))
                continue
            stores[name] = os.path.join(work, f"people-{name}.rql")
            shutil.copyfile(options.store, stores[name])
            if options.cache != "warm":
                os.sync()
                drop_cache(stores[name], read_whole=options.cache == "large")
        print(f"cache: {options.cache}; load average {os.getloadavg()[0]:.1f} (CPU time is less affected than wall)")
        print(f"{'command':<18} {'binary':<9} {'CPU ms':>8} {'faults':>7} {'RSS MB':>7} {'instructions':>13}")
        for label, arguments, expected in COMMANDS:
            commands = {
                name: [binary] + [a.format(store=stores[name]) for a in arguments] for name, binary in binaries
            }
            samples = {name: [] for name, _ in binaries}
            for _ in range(options.runs):
                for name, _ in binaries:
                    cpu, faults, rss, output = run_once(commands[name])
                    if expected is not None and output != expected:
                        sys.exit(f"{label}: {name} printed {output!r}, expected {expected!r}")
                    samples[name].append((cpu, faults, rss))
            for name, _ in binaries:
                cpu = statistics.median(s[0] for s in samples[name])
                faults = statistics.median(s[1] for s in samples[name])
                rss = statistics.median(s[2] for s in samples[name])
                count = f"{instructions(commands[name]):,}" if options.instructions else ""
                print(f"{label:<18} {name:<9} {cpu:8.2f} {faults:7.0f} {rss:7.1f} {count:>13}")


if __name__ == "__main__":
    main()
