# expect: 1
# An endless stream that is not JSON (yes) fails at its first wrong byte.
err=$(yes | "$RQLC" run --class Dog --data - --count TRUEPREDICATE 2>&1)
status=$?
[[ "$err" == *"standard input"* ]] || { echo "stderr: $err"; exit 99; }
exit $status
