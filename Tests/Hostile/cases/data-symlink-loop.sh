# expect: 2
ln -s "$WORK/a" "$WORK/b"
ln -s "$WORK/b" "$WORK/a"
err=$("$RQLC" run --class Dog --data "$WORK/a" TRUEPREDICATE 2>&1)
status=$?
[[ "$err" == *"symbolic link"* && "$err" != *NSCocoaErrorDomain* ]] || { echo "stderr: $err"; exit 99; }
exit $status
