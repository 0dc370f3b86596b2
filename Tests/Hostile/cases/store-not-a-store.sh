# expect: 1
# A file that is not a store: bad magic (exit 1), and no lock file is made beside it.
printf 'just some text\n' > "$WORK/plain.txt"
for command in info verify; do
    err=$("$RQLC" $command "$WORK/plain.txt" 2>&1)
    status=$?
    [ $status -eq 1 ] || { echo "$command: exit $status"; exit 98; }
    [[ "$err" == *"bad magic"* ]] || { echo "$command stderr: $err"; exit 99; }
done
[ ! -e "$WORK/plain.txt.lock" ] || { echo "a lock file beside a file that is not a store"; exit 97; }
printf '%s' '{"schema": {"Dog": {"properties": {"age": "int"}}}}' > "$WORK/d.json"
err=$("$RQLC" import "$WORK/d.json" "$WORK/plain.txt" 2>&1)
status=$?
[[ "$err" == *"bad magic"* ]] || { echo "import stderr: $err"; exit 99; }
[ ! -e "$WORK/plain.txt.lock" ] || { echo "import made a lock file beside a file that is not a store"; exit 97; }
[ "$(cat "$WORK/plain.txt")" = "just some text" ] || exit 96
exit $status
