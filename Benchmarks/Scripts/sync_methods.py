#!/usr/bin/env python3
"""Ways to make one small append to a preallocated log durable, side by side (issue 20).

    python3 Benchmarks/Scripts/sync_methods.py [COUNT] [DIRECTORY]

A commit log record is a small write into a log whose zeros were written ahead, so its sync
changes no file size. This times, taken in turn so that each meets the same moments of the disk:
- `pwrite + fdatasync`: what the commit log does (two system calls);
- `pwrite, O_DSYNC`: the same write on a descriptor opened with O_DSYNC (one call);
- `pwritev2 RWF_DSYNC`: one call with the flag per write;
- the bare 4 KiB `pwrite + fdatasync` at offset 0 that `commit_log.py` compares commits with.
Each record is RECORD bytes appended after the previous one in a file preallocated with zeros,
as the log does. Medians in microseconds; wall clock, so run it on a quiet machine.
"""
import os
import statistics
import sys
import time

count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
directory = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
record = 160
size = 16 << 20
path = os.path.join(directory, f".sync-methods-{os.getpid()}")


def prepare(name, flags=0):
    fd = os.open(path + name, os.O_RDWR | os.O_CREAT | os.O_TRUNC | flags, 0o644)
    zeros = bytes(1 << 20)
    for offset in range(0, size, len(zeros)):
        os.pwrite(fd, zeros, offset)
    os.fsync(fd)
    return fd


plain = prepare("plain")
dsync = prepare("dsync", os.O_DSYNC)
flagged = prepare("flagged")
bare = os.open(path + "bare", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
page = bytearray(4096)
payload = bytes(range(256)) * (record // 256 + 1)
payload = payload[:record]
has_pwritev2 = hasattr(os, "pwritev") and hasattr(os, "RWF_DSYNC")


def fdatasync_method(i):
    os.pwrite(plain, payload, 4096 + i * record)
    os.fdatasync(plain)


def dsync_method(i):
    os.pwrite(dsync, payload, 4096 + i * record)


def rwf_method(i):
    os.pwritev(flagged, [payload], 4096 + i * record, os.RWF_DSYNC)


def bare_method(i):
    page[0] = i & 255
    os.pwrite(bare, page, 0)
    os.fdatasync(bare)


methods = [("pwrite + fdatasync", fdatasync_method), ("pwrite, O_DSYNC", dsync_method)]
if has_pwritev2:
    methods.append(("pwritev2 RWF_DSYNC", rwf_method))
methods.append(("bare 4 KiB pwrite + fdatasync", bare_method))
samples = {name: [] for name, _ in methods}
for i in range(count + 100):
    for name, method in methods:
        start = time.perf_counter_ns()
        method(i)
        elapsed = time.perf_counter_ns() - start
        if i >= 100:
            samples[name].append(elapsed)
for fd in (plain, dsync, flagged, bare):
    os.close(fd)
for suffix in ("plain", "dsync", "flagged", "bare"):
    os.unlink(path + suffix)
base = statistics.median(samples["bare 4 KiB pwrite + fdatasync"])
for name, _ in methods:
    median = statistics.median(samples[name])
    print(f"{name}: {count} appends of {record} bytes: median {median / 1000:.1f} µs ({median / base:.2f}× bare)")
