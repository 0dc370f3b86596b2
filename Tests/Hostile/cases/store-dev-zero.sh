# expect: 1
# /dev/zero is refused as a store, and as a dataset it fails at its first byte (a NUL), not
# after reading without end; nothing is created.
err=$("$RQLC" export /dev/zero 2>&1)
[ $? -eq 2 ] && [[ "$err" == *"it is a character device"* ]] || { echo "export: $err"; exit 99; }
err=$("$RQLC" info /dev/zero 2>&1)
[ $? -eq 2 ] && [[ "$err" == *"it is a character device"* ]] || { echo "info: $err"; exit 99; }
err=$("$RQLC" import /dev/zero "$WORK/new.rql" 2>&1)
[ $? -eq 1 ] && [[ "$err" == *"UTF-8"* ]] || { echo "import: $err"; exit 99; }
[ ! -e "$WORK/new.rql" ] && [ ! -e "$WORK/new.rql.lock" ] || { echo "import left a file"; exit 98; }
err=$("$RQLC" run --class Dog --data /dev/zero --count TRUEPREDICATE 2>&1)
status=$?
[[ "$err" == *"offset 0"* || "$err" == *"UTF-8"* ]] || { echo "run: $err"; exit 99; }
exit $status
