# expect: 0
# Two imports creating one new store at once: both succeed (one creates it, whole; the other
# opens what it made), and the store holds both imports' objects.
printf '%s' '{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": [{"age": 1}, {"age": 2}]}}' > "$WORK/d.json"
for trial in 1 2 3 4 5 6; do
    "$RQLC" import "$WORK/d.json" "$WORK/s$trial.rql" >/dev/null 2>"$WORK/err1" &
    first=$!
    "$RQLC" import "$WORK/d.json" "$WORK/s$trial.rql" >/dev/null 2>"$WORK/err2" &
    second=$!
    wait $first || { cat "$WORK/err1"; exit 99; }
    wait $second || { cat "$WORK/err2"; exit 99; }
    [ "$("$RQLC" run --data "$WORK/s$trial.rql" --class Dog --count TRUEPREDICATE)" = 4 ] || exit 98
done
