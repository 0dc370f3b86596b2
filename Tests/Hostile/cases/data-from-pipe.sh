# expect: 0
# --data reads what a shell gives it: a pipe as /dev/stdin, as -, and a process substitution.
data='{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": [{"age": 1}, {"age": 5}]}}'
[ "$(printf '%s' "$data" | "$RQLC" run --class Dog --data /dev/stdin --count "age > 2")" = 1 ] || exit 97
[ "$(printf '%s' "$data" | "$RQLC" run --class Dog --data - --count "age > 2")" = 1 ] || exit 98
[ "$("$RQLC" run --class Dog --data <(printf '%s' "$data") --count "age > 2")" = 1 ] || exit 99
