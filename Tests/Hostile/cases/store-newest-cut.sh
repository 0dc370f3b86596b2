# expect: 1
# A store whose last commit lost its last byte: verify and --data name the unreadable version
# (exit 1) instead of answering from the version before it; --accept-older-version answers.
echo '{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Rex"}]}}' > "$WORK/one.json"
"$RQLC" import "$WORK/one.json" "$WORK/dogs.rql" >/dev/null || exit 98
"$RQLC" import "$WORK/one.json" "$WORK/dogs.rql" >/dev/null || exit 98
truncate -s -1 "$WORK/dogs.rql"
err=$("$RQLC" run --class Dog --count --data "$WORK/dogs.rql" TRUEPREDICATE 2>&1)
[[ $? -eq 1 && "$err" == *"newest version 2 could not be read"* ]] || { echo "run: $err"; exit 99; }
out=$("$RQLC" run --class Dog --count --accept-older-version --data "$WORK/dogs.rql" TRUEPREDICATE 2>/dev/null)
[[ $? -eq 0 && "$out" == "1" ]] || { echo "accepted: $out"; exit 99; }
err=$("$RQLC" verify "$WORK/dogs.rql" 2>&1)
status=$?
[[ "$err" == *"version 1 is intact"* ]] || { echo "verify: $err"; exit 99; }
exit $status
