#!/usr/bin/env python3
"""Writes Fuzz/Corpus/FuzzQuery/: hand-written queries over the demo dataset, then
Grammar/examples/valid/*.rql on Dog (most of those do not bind; they exercise the error paths).

Each file is a FuzzQuery input (see Sources/FuzzCommon/QueryInput.swift): a header byte
0x40 | dialect | class << 1 | argument count << 3, one byte per argument (0x40 + index), the
query. Files are named by the SHA-1 prefix of their bytes. Rerun after editing the lists:
    python3 Fuzz/Tools/make-query-seeds.py
"""
import hashlib
import os
import pathlib

FUZZ = pathlib.Path(__file__).resolve().parent.parent
ROOT = FUZZ.parent
OUT = FUZZ / "Corpus" / "FuzzQuery"
CLASSES = ["Dog", "Person", "DogToy", "DogClub"]
DIALECTS = ["rql", "nspredicate"]

# (class, [argument indices into QueryInput.argumentTexts], query)
# Arguments: 0 2, 1 "Rex", 2 null, 3 [1,2,3], 4 ["Chicago","Boston"], 5 true, 6 2.5, 7 $date,
# 8 $oid, 9 $decimal 4.99, 10 link DogToy, 11 link Person, 12 geoBox, 13 uuid, 14 binary, 15 [].
SEEDS = [
    ("Dog", [], "age > 2"),
    ("Dog", [], "name BEGINSWITH 'B'"),
    ("Dog", [], "name BEGINSWITH[c] 'b' AND age < 5"),
    ("Dog", [], "name ==[cd] 'sharik' OR name ==[c] 'ШАРИК'"),
    ("Dog", [], "name LIKE '*o?'"),
    ("Dog", [], "name ENDSWITH[d] 'e'"),
    ("Dog", [], "name CONTAINS 'a' SORT(age DESC) LIMIT(3)"),
    ("Dog", [], "color IN {'brown', 'tan'}"),
    ("Dog", [], "age BETWEEN {2, 5}"),
    ("Dog", [], "weight > 20.5 OR weight == nil"),
    ("Dog", [], "weight == NULL"),
    ("Dog", [], "birthday > 2015-01-01@00:00:00"),
    ("Dog", [], "birthday < T1500000000:0"),
    ("Dog", [], "birthday == nil SORT(name ASC)"),
    ("Dog", [], "currentCity == 'Chicago' DISTINCT(color)"),
    ("Dog", [], "TRUEPREDICATE SORT(color ASC, age DESC) DISTINCT(color) LIMIT(4)"),
    ("Dog", [], "FALSEPREDICATE"),
    ("Dog", [], "NOT (age > 3 AND color == 'brown')"),
    ("Dog", [], "citiesVisited CONTAINS 'Chicago'"),
    ("Dog", [], "ANY citiesVisited == 'Boston'"),
    ("Dog", [], "ALL citiesVisited BEGINSWITH 'B'"),
    ("Dog", [], "NONE citiesVisited == 'Miami'"),
    ("Dog", [], "citiesVisited.@count >= 2"),
    ("Dog", [], "citiesVisited.@size == 0"),
    ("Dog", [], "'Chicago' IN citiesVisited"),
    ("Dog", [], "favoriteParksByCity['Chicago'] == 'Millennium Park'"),
    ("Dog", [], "favoriteParksByCity.@keys == 'Seattle'"),
    ("Dog", [], "favoriteParksByCity.@values CONTAINS[c] 'park'"),
    ("Dog", [], "favoriteParksByCity.@count > 1"),
    ("Dog", [], "ANY favoriteParksByCity.@values ENDSWITH 'Park'"),
    ("Dog", [], "favoriteParksByCity[*] == 'Grant Park'"),
    ("Dog", [], "favoriteToy.name == 'Tennis ball'"),
    ("Dog", [], "favoriteToy.price > 5"),
    ("Dog", [], "favoriteToy == nil"),
    ("Dog", [], "favoriteToy.id == oid(11223344556677889900aabb)"),
    ("Dog", [], "owners.@count > 0"),
    ("Dog", [], "ANY owners.name == 'Ann'"),
    ("Dog", [], "owners.address.city == 'Los Angeles'"),
    ("Dog", [], "@links.@count > 1"),
    ("Dog", [], "@links.Person.dogs.age > 40"),
    ("Dog", [], "SUBQUERY(owners, $o, $o.age > 30).@count > 0"),
    ("Dog", [], "SUBQUERY(owners, $o, SUBQUERY($o.clubs, $c, $c.name BEGINSWITH 'A').@count > 0).@count > 0"),
    ("Dog", [], "companion == 3"),
    ("Dog", [], "companion == 'Fluffy the Cat'"),
    ("Dog", [], "companion.@type == 'string'"),
    ("Dog", [], "companion.@type IN {'int', 'double', 'decimal'}"),
    ("Dog", [], "companion > 2"),
    ("Dog", [], "companion[0] == 'ball'"),
    ("Dog", [], "companion['name'] == 'Whiskers'"),
    ("Dog", [], "companion[1].deep[0] == 3"),
    ("Dog", [], "companion == oid(5f1b2c3d4e5f60718293a4b5)"),
    ("Dog", [], "companion == uuid(3b241101-e2bb-4255-8caf-4136c566a962)"),
    ("Dog", [], "companion == B64\"aGVsbG8=\""),
    ("Dog", [], "companion == 9.99 OR companion == 1.5f"),
    ("Dog", [], "companion == nan"),
    ("Dog", [], "companion.@count > 1"),
    ("Dog", [], "age + 1 > weight / 4"),
    ("Dog", [], "age * 2 - 1 == 5"),
    ("Dog", [], "weight.@type == 'double'"),
    ("Dog", [0], "age > $0"),
    ("Dog", [1], "name == $0"),
    ("Dog", [2], "weight == $0"),
    ("Dog", [3], "age IN $0"),
    ("Dog", [4], "ANY citiesVisited IN $0"),
    ("Dog", [4], "currentCity IN $0 SORT(name DESC)"),
    ("Dog", [7], "birthday < $0"),
    ("Dog", [10], "favoriteToy == $0"),
    ("Dog", [9], "favoriteToy.price >= $0"),
    ("Dog", [0, 6], "age BETWEEN {$0, $1}"),
    ("Dog", [6, 0, 5], "companion == $0 OR companion == $1 OR companion == $2"),
    ("Dog", [13], "companion == $0"),
    ("Dog", [14], "companion == $0"),
    ("Dog", [15], "name IN $0"),
    ("Dog", [12], "favoriteToy GEOWITHIN $0"),
    ("Dog", [8], "favoriteToy.id == $0"),
    ("Person", [], "age > 30"),
    ("Person", [], "age == nil"),
    ("Person", [], "id == 12345"),
    ("Person", [], "dogs.@count >= 2"),
    ("Person", [], "ANY dogs.color == 'brown'"),
    ("Person", [], "ALL dogs.age > 2"),
    ("Person", [], "dogs.@avg.age > 5"),
    ("Person", [], "dogs.@max.weight > 30 AND dogs.@min.age < 2"),
    ("Person", [], "dogs.@sum.age == 11"),
    ("Person", [], "dogs[0].name == 'Rex'"),
    ("Person", [], "dogs[LAST].age > 3"),
    ("Person", [], "dogs[FIRST].favoriteToy.name BEGINSWITH 'T'"),
    ("Person", [], "address.city == 'Los Angeles'"),
    ("Person", [], "address.postalCode == nil"),
    ("Person", [], "address == nil"),
    ("Person", [], "clubs.@count > 1"),
    ("Person", [], "ANY clubs.description TEXT 'dogs'"),
    ("Person", [], "SUBQUERY(dogs, $d, $d.age > 3 AND $d.color == 'brown').@count > 0"),
    ("Person", [], "dogs.citiesVisited CONTAINS 'Chicago'"),
    ("Person", [], "ANY dogs.favoriteParksByCity['Chicago'] != nil"),
    ("Person", [], "name ==[c] 'françois'"),
    ("Person", [], "TRUEPREDICATE SORT(address.city ASC, name DESC)"),
    ("Person", [], "TRUEPREDICATE DISTINCT(address.country) SORT(age ASC)"),
    ("Person", [11], "@links.DogClub.members.name == 'Pooch Pals' OR id == $0.id"),
    ("Person", [0, 3], "dogs.@count > $0 AND id IN $1"),
    ("Person", [], "dogs.owners.name == 'Ben'"),
    ("DogToy", [], "price > 5"),
    ("DogToy", [], "price == nil"),
    ("DogToy", [], "name CONTAINS[c] 'ball'"),
    ("DogToy", [], "id == oid(11223344556677889900aab1)"),
    ("DogToy", [], "@links.Dog.favoriteToy.@count > 2"),
    ("DogToy", [], "@links.Dog.favoriteToy.age > 8"),
    ("DogToy", [], "price BETWEEN {3.25, 7.5} SORT(price DESC)"),
    ("DogToy", [9], "price < $0"),
    ("DogToy", [8], "id == $0"),
    ("DogClub", [], "description TEXT 'dogs'"),
    ("DogClub", [], "description TEXT 'walk* -chicago'"),
    ("DogClub", [], "founded < 1900-01-01@00:00:00"),
    ("DogClub", [], "members.@count > 2"),
    ("DogClub", [], "ANY members.dogs.name == 'Rex'"),
    ("DogClub", [], "regionalOfficeAddresses.city == 'Paris'"),
    ("DogClub", [], "regionalOfficeAddresses.@count == 0"),
    ("DogClub", [], "SUBQUERY(members, $m, $m.age > 30).@count >= 2"),
    ("DogClub", [], "SUBQUERY(regionalOfficeAddresses, $a, $a.country == 'USA').@count > 1"),
    ("DogClub", [], "members.dogs.@count > 2"),
    ("DogClub", [], "TRUEPREDICATE SORT(founded DESC) LIMIT(2)"),
    ("DogClub", [7], "founded > $0"),
    ("DogClub", [11], "$0 IN members"),
]

# A few in the NSPredicate dialect.
NS_SEEDS = [
    ("Dog", [], "age > 2 && name BEGINSWITH 'B'"),
    ("Dog", [0], "age > %@"),
    ("Person", [], "ANY dogs.age > 3 || address.city == 'Chicago'"),
    ("DogToy", [], "NOT price > 5"),
]


def encode(dialect, class_name, args, text):
    assert len(args) <= 3
    header = 0x40 | DIALECTS.index(dialect) | CLASSES.index(class_name) << 1 | len(args) << 3
    return bytes([header] + [0x40 + i for i in args]) + text.encode()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    inputs = [encode("rql", c, a, t) for c, a, t in SEEDS]
    inputs += [encode("nspredicate", c, a, t) for c, a, t in NS_SEEDS]
    for example in sorted((ROOT / "Grammar" / "examples" / "valid").glob("*.rql")):
        inputs.append(encode("rql", "Dog", [], example.read_text()))
    for data in inputs:
        (OUT / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    print(f"{len(set(inputs))} seeds in {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
