# expect: 1
# `rqlc shell < /dev/zero`: an endless line without a line break is an error at the line bound,
# not a wait for memory to run out.
err=$("$RQLC" shell < /dev/zero 2>&1 >/dev/null)
status=$?
[[ "$err" == *"line 1 is longer than"* ]] || { echo "stderr: $err"; exit 99; }
exit $status
