# expect: 0
# An empty file: read-only commands say so (exit 1) and create nothing; import makes it a store.
: > "$WORK/empty.rql"
for command in info verify; do
    err=$("$RQLC" $command "$WORK/empty.rql" 2>&1)
    status=$?
    [ $status -eq 1 ] || { echo "$command: exit $status"; exit 98; }
    [[ "$err" == *"empty file"* ]] || { echo "$command stderr: $err"; exit 99; }
done
"$RQLC" export "$WORK/empty.rql" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "export of an empty file"; exit 98; }
[ ! -e "$WORK/empty.rql.lock" ] || { echo "a read-only command made a lock file"; exit 97; }
printf '%s' '{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": [{"age": 3}]}}' > "$WORK/d.json"
"$RQLC" import "$WORK/d.json" "$WORK/empty.rql" || exit 96
[ "$("$RQLC" run --data "$WORK/empty.rql" --class Dog --count TRUEPREDICATE)" = 1 ] || exit 95
"$RQLC" verify "$WORK/empty.rql" >/dev/null
