# expect: 2
# A symbolic link loop as the store: said so, not "already exists".
ln -s "$WORK/a" "$WORK/b"
ln -s "$WORK/b" "$WORK/a"
printf '%s' '{"schema": {"Dog": {"properties": {"age": "int"}}}}' > "$WORK/d.json"
err=$("$RQLC" import "$WORK/d.json" "$WORK/a" 2>&1)
status=$?
[[ "$err" == *"symbolic links"* && "$err" != *"already exists"* ]] || { echo "import stderr: $err"; exit 99; }
[ $status -eq 2 ] || exit 98
err=$("$RQLC" info "$WORK/a" 2>&1)
status=$?
[[ "$err" == *"symbolic links"* ]] || { echo "info stderr: $err"; exit 99; }
exit $status
