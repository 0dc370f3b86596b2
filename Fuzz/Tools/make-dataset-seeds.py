#!/usr/bin/env python3
"""Writes Fuzz/Corpus/FuzzDataset/: the example of shared/spec/data-format.md (when that file is
there), the demo dataset (Sources/RQLStorage/DemoDataset.swift) and the `data` of a few
realm-core conformance suites (Tests/Fixtures/realm-core-public.json), one JSON text per file,
named by the SHA-1 prefix of its bytes. Rerun after editing:
    python3 Fuzz/Tools/make-dataset-seeds.py
"""
import hashlib
import json
import pathlib
import re
import textwrap

FUZZ = pathlib.Path(__file__).resolve().parent.parent
ROOT = FUZZ.parent
OUT = FUZZ / "Corpus" / "FuzzDataset"
SPEC = ROOT.parent / "shared" / "spec" / "data-format.md"
# Small suites with varied schemas: links, collections of every kind, mixed and nested mixed,
# backlinks, binaries, dates, decimals, keys, embedded geo points, non-ASCII names.
PICKED = [
    "links_same_table", "nullable_binaries", "negative_aggregates", "primitive_mixed_list",
    "backlinks_from_collections", "dictionary_of_links", "nested_mixed_deep", "wildcards",
    "utf8_property_names", "collection_links", "geospatial",
]


def main():
    texts = []
    if SPEC.exists():
        texts.append(re.search(r"```json\n(.*?)```", SPEC.read_text(), re.S).group(1))
    demo = (ROOT / "Sources" / "RQLStorage" / "DemoDataset.swift").read_text()
    texts.append(textwrap.dedent(re.search(r'#"""\n(.*?)"""#', demo, re.S).group(1)))
    fixtures = json.loads((ROOT / "Tests" / "Fixtures" / "realm-core-public.json").read_text())
    by_name = {suite["name"]: suite for suite in fixtures["suites"]}
    for name in PICKED:
        texts.append(json.dumps(by_name[name]["data"], ensure_ascii=False))
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    for text in texts:
        data = text.encode()
        (OUT / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    print(f"{len(texts)} seeds in {OUT.relative_to(ROOT)}: {[len(t) for t in texts]}")


if __name__ == "__main__":
    main()
