# expect: 1
err=$("$RQLC" run --class Dog --arg $'"R\xffx"' 'name == $0' 2>&1)
status=$?
[[ "$err" == *"byte offset 2"* && "$err" != *"invalid dataset"* ]] || { echo "stderr: $err"; exit 99; }
exit $status
