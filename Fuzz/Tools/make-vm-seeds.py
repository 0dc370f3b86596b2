#!/usr/bin/env python3
"""Writes Fuzz/Corpus/FuzzCompile/ and Fuzz/Corpus/FuzzDifferential/ (the same seeds): queries
over SeededGenerator's Person/Dog schema, each on a few dataset variants.

Each file is a VMInput (see Sources/FuzzCommon/VMInput.swift): a header byte (bits 0-4 rows,
bit 5 Dog, bit 6 indexed, bit 7 no primary key), a data-seed byte, the query. Headers used:
'T' 20 indexed Person rows, 0x15 21 rows without indexes, 0x9f 31 rows without indexes or
primary key, 'A' one row, '@' none, 't' 20 indexed rows on Dog.
Files are named by the SHA-1 prefix of their bytes. Rerun after editing the lists:
    python3 Fuzz/Tools/make-vm-seeds.py
"""
import hashlib
import os
import pathlib

FUZZ = pathlib.Path(__file__).resolve().parent.parent
OUTS = [FUZZ / "Corpus" / "FuzzCompile", FUZZ / "Corpus" / "FuzzDifferential"]

PERSON = [
    "age > 17", "age == null", "age != null", "age < -1", "age >= 0 AND age <= 99",
    "age BETWEEN {30, 40}", "age IN {1, 17, 50, 99}", "NOT age IN {1, 2}",
    "score > 0.5", "score == -0.0", "score <= 1e300", "score BETWEEN {-3.25, 2.75}",
    "city == 'Oslo'", "city ==[c] 'oslo'", "city != null", "city == ''", "city BEGINSWITH 'Li'",
    "city ENDSWITH[c] 'A '", "city CONTAINS[c] 'ō'", "city CONTAINS[cd] 'o'", "city LIKE 'Lim*'",
    "city LIKE[c] '?slo'", "city IN {'Oslo', 'Lima', null}", "city == '東京' OR city == 'Москва'",
    "name == 'Ann'", "name ==[c] 'ann'", "name BEGINSWITH[cd] 'e'", "name > 'Bo'", "name < ''",
    "name CONTAINS ' '", "name ENDSWITH 'ë'",
    "id == 4", "id IN {1, 4, 7, 1000}", "id > 30", "id BETWEEN {3, 12}",
    "active == true", "active != false", "active == false AND age > 50",
    "ANY tags == 3", "ALL tags > 1", "NONE tags < 2", "tags.@count == 0", "tags.@size > 2",
    "tags.@sum > 5", "tags.@max < 3", "tags.@min == 0", "tags.@avg >= 2.5",
    "dog == null", "dog != null", "dog.age > 7", "dog.name BEGINSWITH 'Dog1'", "dog.name ==[c] 'dog3'",
    "nickname == null", "nickname ==[c] 'ANN'", "nickname BEGINSWITH[c] 'z'",
    "mixed == 1", "mixed == '1'", "mixed == null", "mixed > 0", "mixed <= 2.5", "mixed == true",
    "mixed.@type == 'string'", "mixed.@type == 'double'", "mixed.@type IN {'int', 'bool'}",
    "(age > 10 OR city == 'Lima') AND NOT active == true",
    "age > 5 AND age > 7 AND age < 60", "age == 5 AND age > 6", "age == 1 OR age == 2 OR age == 3",
    "TRUEPREDICATE", "FALSEPREDICATE", "TRUEPREDICATE SORT(age ASC)",
    "TRUEPREDICATE SORT(score DESC, id ASC) LIMIT(5)", "age > 10 SORT(name ASC) LIMIT(3)",
    "TRUEPREDICATE DISTINCT(city)", "TRUEPREDICATE DISTINCT(age) SORT(age DESC)",
    "city != 'Oslo' LIMIT(0)", "TRUEPREDICATE LIMIT(4)", "age > 2 SORT(dog.age ASC, id DESC)",
    "SUBQUERY(tags, $t, $t > 2).@count > 1", "@links.@count == 0",
]
DOG = ["age > 3", "name == 'Dog1'", "name BEGINSWITH 'Dog'", "age BETWEEN {2, 9} SORT(name DESC)",
       "TRUEPREDICATE LIMIT(2)", "@links.Person.dog.@count > 0", "ANY @links.Person.dog.age > 20"]


def inputs():
    for i, query in enumerate(PERSON):
        for header in ["T", "\x15", "\x9f", "A", "@"][: 2 + (i % 3)]:
            yield header.encode("latin-1") + bytes([0x41 + i % 26]) + query.encode()
    for i, query in enumerate(DOG):
        yield b"t" + bytes([0x41 + i]) + query.encode()


def main():
    data = sorted(set(inputs()))
    for out in OUTS:
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            old.unlink()
        for seed in data:
            (out / hashlib.sha1(seed).hexdigest()[:16]).write_bytes(seed)
        print(f"{len(data)} seeds in {os.path.relpath(out)}")


if __name__ == "__main__":
    main()
