# expect: 0
# check needs only the schema: objects that would not load (or are cut off) are not read.
{
    printf '{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": ['
    for i in $(seq 1 5000); do printf '{"age": "not a number"},'; done
} > "$WORK/broken.json"
[ "$("$RQLC" check --class Dog --data "$WORK/broken.json" "age > 2")" = ok ] || exit 99
"$RQLC" run --class Dog --data "$WORK/broken.json" "age > 2" 2>/dev/null && exit 98
exit 0
