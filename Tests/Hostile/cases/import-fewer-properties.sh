# expect: 0
# A dataset whose class has fewer properties than the store's: imported, the missing ones
# taking their defaults (as realm's create with a partial value does).
printf '%s' '{"schema": {"Dog": {"properties": {"name": "string", "age": "int"}}}, "objects": {"Dog": [{"name": "Rex", "age": 3}]}}' > "$WORK/full.json"
printf '%s' '{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Fido"}]}}' > "$WORK/fewer.json"
"$RQLC" import "$WORK/full.json" "$WORK/s.rql" >/dev/null || exit 98
"$RQLC" import "$WORK/fewer.json" "$WORK/s.rql" >/dev/null || exit 97
[ "$("$RQLC" run --data "$WORK/s.rql" --class Dog --count "name == 'Fido' AND age == 0")" = 1 ] || exit 99
