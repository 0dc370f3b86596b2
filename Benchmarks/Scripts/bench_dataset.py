#!/usr/bin/env python3
"""The benchmark dataset of spec/bench-dataset.md as a JSON dataset (the data-format.md format).

    python3 Benchmarks/Scripts/bench_dataset.py [ROWS] [SEED] > people.json

The generator is the contract's, bit for bit (SplitMix64, the 32 syllables, the drawing order),
the same rows `BenchmarkKit.BenchmarkDataset` builds in memory, so the contract's counts hold
(seed 42, 1,000,000 rows: Q1 89805, Q3 31126, ...). Class `Person`, primary key `id`, no other
index. Written in a stream: memory stays small whatever ROWS is.
"""
import sys

MASK = (1 << 64) - 1
SYLLABLES = "ma ri an jo el la se to ka mi no ra li de sa ne ko ta vi lo be na ha ru da mo si pe fa ge wi zu".split()

SCHEMA = (
    '{"schema": {"Person": {"primaryKey": "id", "properties": {"id": "int", "age": "int", "score": "double",'
    ' "name": "string", "city": "string", "active": "bool", "nickname": "string?"}}},\n'
    '"objects": {"Person": [\n'
)


def rows(count, seed):
    """Yields each row's JSON text, in order."""
    state = seed & MASK

    def draw():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    for i in range(count):
        age = draw() % 100
        score = float(draw() >> 11) * 2.0**-53
        k = 2 + draw() % 2
        name = "".join(SYLLABLES[draw() % 32] for _ in range(k))
        name = name[0].upper() + name[1:]
        city = "City" + str(draw() % 100)
        active = "true" if draw() & 1 == 1 else "false"
        r = draw()
        nickname = "null" if r % 10 < 3 else '"nick' + str((r // 10) % 1000) + '"'
        yield (
            f'{{"id": {i}, "age": {age}, "score": {score!r}, "name": "{name}", "city": "{city}",'
            f' "active": {active}, "nickname": {nickname}}}'
        )


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 42
    out = sys.stdout
    out.write(SCHEMA)
    batch = []
    for index, row in enumerate(rows(count, seed)):
        batch.append(row if index == 0 else ",\n" + row)
        if len(batch) == 10_000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    out.write("\n]}}\n")


if __name__ == "__main__":
    main()
