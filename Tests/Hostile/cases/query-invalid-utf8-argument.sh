# expect: 1
# Invalid UTF-8 in a query argument is an error with the byte offset, never U+FFFD.
err=$("$RQLC" run --class Dog $'name == \'R\xffx\'' 2>&1)
status=$?
[[ "$err" == *"byte 0xFF at byte offset 10"* && "$err" != *$'\xef\xbf\xbd'* ]] || { echo "stderr: $err"; exit 99; }
exit $status
