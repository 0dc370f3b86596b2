# expect: 2
# A directory where a store is expected: named as one; no lock file is made beside it.
for command in info verify export; do
    err=$("$RQLC" $command "$WORK" 2>&1)
    status=$?
    [ $status -eq 2 ] || { echo "$command: exit $status"; exit 98; }
    [[ "$err" == *"it is a directory"* && "$err" != *mmap* ]] || { echo "$command stderr: $err"; exit 99; }
done
[ ! -e "$WORK.lock" ] || { echo "a lock file beside the directory"; exit 97; }
printf '%s' '{"schema": {"Dog": {"properties": {"age": "int"}}}}' > "$WORK/d.json"
err=$("$RQLC" import "$WORK/d.json" "$WORK" 2>&1)
status=$?
[[ "$err" == *"it is a directory"* ]] || { echo "import stderr: $err"; exit 99; }
exit $status
