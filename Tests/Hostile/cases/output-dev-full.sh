# expect: 1
# A full device is a failed run (exit 1, not the usage code 2) with one line on standard error, not a crash.
err=$("$RQLC" run --class Dog TRUEPREDICATE 2>&1 >/dev/full)
status=$?
[ "$err" = "rqlc: cannot write to standard output: no space left on the device" ] || { echo "stderr: $err"; exit 99; }
exit $status
