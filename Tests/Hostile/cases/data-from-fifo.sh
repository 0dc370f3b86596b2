# expect: 0
data='{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": [{"age": 1}, {"age": 5}]}}'
mkfifo "$WORK/fifo"
printf '%s' "$data" > "$WORK/fifo" &
[ "$("$RQLC" run --class Dog --data "$WORK/fifo" --count "age > 2")" = 1 ] || exit 99
