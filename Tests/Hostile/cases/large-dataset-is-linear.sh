# expect: 0
# 10,000 objects with links, sets, maps and embedded objects load and answer in time.
{
    printf '{"schema": {"P": {"primaryKey": "id", "properties": {"id": "int", "tags": "set<string>", "m": "map<int>", "friend": "P?", "home": "H?", "back": "linkingObjects<P.friend>"}}, "H": {"embedded": true, "properties": {"c": "string"}}}, "objects": {"P": ['
    for i in $(seq 1 10000); do printf '{"id": %d, "tags": ["b", "a", "b"], "m": {"k": %d}, "friend": %d, "home": {"c": "x"}},' "$i" "$i" "$((i % 10000 + 1))"; done
    printf '{"id": 0}]}}'
} > "$WORK/p.json"
[ "$("$RQLC" run --class P --data "$WORK/p.json" --count "back.@count == 1")" = 10000 ] || exit 99
