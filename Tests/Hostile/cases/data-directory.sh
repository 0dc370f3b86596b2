# expect: 2
err=$("$RQLC" run --class Dog --data "$WORK" TRUEPREDICATE 2>&1)
status=$?
[[ "$err" == *"it is a directory" ]] || { echo "stderr: $err"; exit 99; }
exit $status
