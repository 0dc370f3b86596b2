#!/usr/bin/env python3
"""Writes a large dataset for measuring load memory: the demo dataset's objects repeated with
fresh keys until the file reaches a size.

    python3 Tests/Hostile/make-large-dataset.py 15 > /tmp/d15.json     # about 15 MB
    /usr/bin/time -v .build/release/rqlc run --data /tmp/d15.json --class Dog --count TRUEPREDICATE

Every copy keeps the demo's shape: ObjectId and int primary keys, links by key and position,
sets, maps, mixed values of every kind, embedded objects, dates, decimals and full-text strings.
"""
import json
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
source = (root / "Sources/RQLStorage/DemoDataset.swift").read_text()
demo = json.loads(re.search(r'#"""\n(.*)\n\s*"""#', source, re.S).group(1))
objects = demo["objects"]
target = float(sys.argv[1]) * 1_000_000 if len(sys.argv) > 1 else 15_000_000


def toy_key(copy, key):
    # The last 6 hex digits carry the copy number; the demo's keys differ in their last 2.
    return key[:16] + f"{copy:06x}" + key[-2:]


def copy_of(copy):
    dogs_per_copy = len(objects["Dog"])
    out = {"DogToy": [], "Dog": [], "Person": [], "DogClub": []}
    for toy in objects["DogToy"]:
        out["DogToy"].append(dict(toy, id=toy_key(copy, toy["id"])))
    for dog in objects["Dog"]:
        dog = dict(dog)
        if dog.get("favoriteToy"):
            dog["favoriteToy"] = toy_key(copy, dog["favoriteToy"])
        companion = dog.get("companion")
        if isinstance(companion, dict) and "$link" in companion:
            link = companion["$link"]
            dog["companion"] = {"$link": {"class": link["class"], "key": toy_key(copy, link["key"])}}
        out["Dog"].append(dog)
    for person in objects["Person"]:
        out["Person"].append(
            dict(
                person,
                id=person["id"] + copy * 100,
                dogs=[d + copy * dogs_per_copy for d in person["dogs"]],
            )
        )
    for club in objects["DogClub"]:
        out["DogClub"].append(dict(club, members=[m + copy * 100 for m in club["members"]]))
    return out


out = sys.stdout
out.write('{"schema": ' + json.dumps(demo["schema"], ensure_ascii=False) + ',\n "objects": {')
chunks = {name: [] for name in objects}
written = 0
copy = 0
while written < target:
    for name, items in copy_of(copy).items():
        for item in items:
            text = json.dumps(item, ensure_ascii=False)
            chunks[name].append(text)
            written += len(text.encode()) + 2
    copy += 1
out.write(",\n".join(f'"{name}": [\n' + ",\n".join(items) + "]" for name, items in chunks.items()))
out.write("}}\n")
