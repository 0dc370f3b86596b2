# expect: 0
# `| head` closes the pipe early: rqlc ends quietly (no message, exit 0), as cat does.
{
    printf '{"schema": {"Dog": {"properties": {"name": "string", "age": "int"}}}, "objects": {"Dog": ['
    for i in $(seq 1 20000); do printf '{"name": "dog number %d with a long name", "age": %d},' "$i" "$i"; done
    printf '{"name": "last", "age": 0}]}}'
} > "$WORK/many.json"
"$RQLC" run --class Dog --data "$WORK/many.json" TRUEPREDICATE 2>"$WORK/err" | head -c 100 >/dev/null
status=${PIPESTATUS[0]}
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; exit 99; }
exit "$status"
