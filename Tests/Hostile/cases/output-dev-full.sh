# expect: 2
# A full device is an error exit with one line on standard error, not a crash.
err=$("$RQLC" run --class Dog TRUEPREDICATE 2>&1 >/dev/full)
status=$?
[ "$err" = "rqlc: cannot write to standard output: no space left on the device" ] || { echo "stderr: $err"; exit 99; }
exit $status
