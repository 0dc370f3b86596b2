# expect: 0
# Data with ESC, CR, NUL and DEL prints escaped in a table, never raw.
printf '%s' '{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "a\u001b[2J\rb\u0000c\u007f\u009b"}]}}' > "$WORK/c.json"
"$RQLC" run --class Dog --data "$WORK/c.json" --format table TRUEPREDICATE > "$WORK/out" || exit 98
[ "$(LC_ALL=C tr -d '\000-\010\013-\037\177' < "$WORK/out" | wc -c)" = "$(wc -c < "$WORK/out")" ] || exit 99
grep -qF 'a\u{1B}[2J\rb\0c\u{7F}\u{9B}' "$WORK/out" || exit 97
