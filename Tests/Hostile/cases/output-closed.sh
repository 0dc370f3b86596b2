# expect: 1
# rqlc --version >&- : a closed standard output is a failed run (exit 1) with a message.
err=$("$RQLC" --version 2>&1 >&-)
status=$?
[[ "$err" == "rqlc: cannot write to standard output"* ]] || { echo "stderr: $err"; exit 99; }
exit $status
